"""Rank, world size and PS roles from the environment a scheduler gives each process.

``detect()`` recognises
  * Open MPI's ``mpirun``: OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE,
    OMPI_COMM_WORLD_LOCAL_RANK (no variable names rank 0's host: the PS needs
    WEFT_PS_ROOT_URI; the allreduce store needs nothing, MPI knows its peers);
  * a task of Slurm's ``srun``: SLURM_PROCID, SLURM_STEP_NUM_TASKS
    (SLURM_NTASKS), SLURM_LOCALID, SLURM_STEP_NODELIST (SLURM_JOB_NODELIST,
    SLURM_NODELIST) -- rank 0 runs on the first host of the step's node list
    (``node[01-04,07]`` is expanded here: Slurm's compressed syntax). Only srun
    sets the SLURM_STEP_* variables: an sbatch script itself also has
    SLURM_PROCID=0 but is not a task;
  * a Kubernetes Indexed Job: JOB_COMPLETION_INDEX (the pod's index), world
    size WEFT_WORLD_SIZE, rank 0's address WEFT_PS_ROOT_URI, both set by the
    manifest (deploy/k8s/weft-job.yaml: a headless service makes pod 0
    reachable as ``<job>-0.<service>``).

``assign_roles()`` maps that rank onto the parameter server's roles when the
job has servers (WEFT_NUM_SERVER > 0): rank 0 is the scheduler, ranks 1..S the
servers, the rest the workers, and sets WEFT_ROLE, WEFT_NUM_WORKER and the
root address and port (DMLC_* twins too), so one command line started on every
rank works. weft.kvstore calls it at import; a WEFT_ROLE already set wins.
"""
import os
import re

__all__ = ["detect", "assign_roles", "expand_nodelist", "ClusterEnvError"]

DEFAULT_ROOT_PORT = 9091


class ClusterEnvError(RuntimeError):
    """The scheduler's environment and weft's settings disagree (names both)."""


def _int(env, *names):
    for n in names:
        v = env.get(n)
        if v not in (None, ""):
            try:
                return int(v)
            except ValueError:
                raise ClusterEnvError("weft: %s=%r is not an integer" % (n, v)) from None
    return None


def expand_nodelist(text):
    """Slurm's compressed host list ('a[01-03,7],b') as a list of host names, in order."""
    hosts = []
    for item in re.findall(r"[^,\[]+(?:\[[^\]]*\])?[^,]*", text or ""):
        m = re.match(r"^([^\[]*)\[([^\]]*)\](.*)$", item)
        if not m:
            hosts.append(item)
            continue
        prefix, ranges, suffix = m.groups()
        for part in ranges.split(","):
            lo, _, hi = part.partition("-")
            if not hi:
                hosts.append(prefix + lo + suffix)
                continue
            width = len(lo)
            for i in range(int(lo), int(hi) + 1):
                hosts.append("%s%0*d%s" % (prefix, width, i, suffix))
    return hosts


def detect(env=None):
    """{'system', 'rank', 'size', 'local_rank', 'root_host'} of the scheduler that
    started this process ('mpi', 'slurm' or 'k8s'), or None outside one."""
    env = os.environ if env is None else env
    if "OMPI_COMM_WORLD_RANK" in env:
        return {"system": "mpi", "rank": _int(env, "OMPI_COMM_WORLD_RANK"), "size": _int(env, "OMPI_COMM_WORLD_SIZE"),
                "local_rank": _int(env, "OMPI_COMM_WORLD_LOCAL_RANK") or 0, "root_host": None}
    if "SLURM_PROCID" in env and "SLURM_STEP_NUM_TASKS" in env:
        nodes = expand_nodelist(env.get("SLURM_STEP_NODELIST") or env.get("SLURM_JOB_NODELIST")
                                or env.get("SLURM_NODELIST") or "")
        return {"system": "slurm", "rank": _int(env, "SLURM_PROCID"),
                "size": _int(env, "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_NPROCS"),
                "local_rank": _int(env, "SLURM_LOCALID") or 0, "root_host": nodes[0] if nodes else None}
    if "JOB_COMPLETION_INDEX" in env:
        return {"system": "k8s", "rank": _int(env, "JOB_COMPLETION_INDEX"), "size": _int(env, "WEFT_WORLD_SIZE"),
                "local_rank": 0, "root_host": env.get("WEFT_PS_ROOT_URI") or None}
    return None


def _first(env, *names):
    for n in names:
        if env.get(n):
            return env[n]
    return None


def assign_roles(env=None):
    """Sets this process's PS role from the detected rank (see the module doc); returns
    the role set, or None when there is nothing to do (no scheduler, no servers asked
    for, or WEFT_ROLE already set). Raises ClusterEnvError naming both numbers when
    the world size does not fit 1 scheduler + servers + workers."""
    env = os.environ if env is None else env
    if _first(env, "WEFT_ROLE", "DMLC_ROLE"):
        return None
    servers = _int(env, "WEFT_NUM_SERVER", "DMLC_NUM_SERVER")
    info = detect(env)
    if info is None or not servers:
        return None
    size, rank = info["size"], info["rank"]
    workers = _int(env, "WEFT_NUM_WORKER", "DMLC_NUM_WORKER")
    if size is None:
        if workers is None:
            raise ClusterEnvError("weft: %s gives no world size; set WEFT_NUM_WORKER" % info["system"])
        size = 1 + servers + workers
    if workers is None:
        workers = size - 1 - servers
    if 1 + servers + workers != size or workers < 1:
        raise ClusterEnvError(
            "weft: %s started %d processes but WEFT_NUM_WORKER=%d and WEFT_NUM_SERVER=%d need %d "
            "(1 scheduler + %d servers + %d workers)" % (info["system"], size, workers, servers,
                                                         1 + servers + workers, servers, workers))
    if rank is None or not 0 <= rank < size:
        raise ClusterEnvError("weft: %s rank %r is outside 0..%d" % (info["system"], rank, size - 1))
    role = "scheduler" if rank == 0 else "server" if rank <= servers else "worker"
    root = _first(env, "WEFT_PS_ROOT_URI", "DMLC_PS_ROOT_URI") or info["root_host"]
    if root is None:
        raise ClusterEnvError("weft: under %s rank 0's address is unknown; set WEFT_PS_ROOT_URI" % info["system"])
    port = _first(env, "WEFT_PS_ROOT_PORT", "DMLC_PS_ROOT_PORT") or str(DEFAULT_ROOT_PORT)
    for prefix in ("WEFT_", "DMLC_"):
        env[prefix + "ROLE"] = role
        env[prefix + "NUM_WORKER"] = str(workers)
        env[prefix + "NUM_SERVER"] = str(servers)
        env[prefix + "PS_ROOT_URI"] = root
        env[prefix + "PS_ROOT_PORT"] = port
    return role
