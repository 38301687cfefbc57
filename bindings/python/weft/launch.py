"""Starts a distributed job: ``python -m weft.launch -n WORKERS -s SERVERS -- command ...``

One scheduler, SERVERS servers (``python -m weft.kvstore.server``) and WORKERS
copies of the command, each with WEFT_ROLE, WEFT_PS_ROOT_URI,
WEFT_PS_ROOT_PORT, WEFT_NUM_WORKER and WEFT_NUM_SERVER (and the DMLC_* twins)
set, and WEFT_PS_SECRET: a fresh random secret for the job, with which every
node signs its messages and without which none are accepted (Note [PS
authentication] in core/kvstore/ps_auth.h). It travels in the environment
(mpirun -x NAME, srun --export=ALL) or on ssh's stdin, never on a command
line; a WEFT_PS_SECRET already set is used instead (so every task of an
srun / mpirun / Indexed Job shares it: for Kubernetes a Secret,
deploy/k8s/weft-job.yaml). The exit status is the workers' (the first failure's); when a worker
fails, the other processes are stopped.

Launchers:
  local  (default) every process on this machine, scheduler on 127.0.0.1.
  ssh    processes spread round-robin over the hosts of -H HOSTFILE (one host
         a line, optional "host slots"); the scheduler runs on the first host,
         each remote command runs in the current directory with the variables
         exported. Needs password-less ssh.
  mpi    one ``mpirun`` with an MPMD command line (scheduler : servers :
         workers); -H is passed as --hostfile. Extra mpirun flags: --mpi-args.
  slurm  one ``srun`` of 1 + SERVERS + WORKERS tasks (inside an allocation:
         salloc / sbatch, scripts/slurm_train.sbatch); each task runs this
         launcher again, which takes its role from SLURM_PROCID and rank 0's
         host from SLURM_STEP_NODELIST. Extra srun flags: --srun-args.
  k8s    the container command of every pod of a Kubernetes Indexed Job
         (deploy/k8s/weft-job.yaml): the role comes from JOB_COMPLETION_INDEX,
         rank 0's address from WEFT_PS_ROOT_URI (the headless service).

``-s 0``: no servers, an allreduce job (kvstore 'allreduce', MPI collectives):
``mpirun -np WORKERS command`` (mpi) or ``srun --mpi=pmix`` (slurm).

Run inside a task of those systems (OMPI_COMM_WORLD_RANK, SLURM_PROCID or
JOB_COMPLETION_INDEX set), ``--launcher mpi|slurm|k8s`` starts nothing: it
checks the world size against -n / -s (an error names both), sets this
rank's role (weft.cluster_env) and runs the scheduler node, a server or the
command in its place.
``--dry-run`` prints the command lines instead of running them.
"""
import argparse
import os
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time

from . import cluster_env

__all__ = ["main"]


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("", 0))
        return s.getsockname()[1]


SECRET_VAR = "WEFT_PS_SECRET"


def job_secret(environ=None):
    """The job's secret: WEFT_PS_SECRET when set (the tasks of one srun / mpirun / pod
    set share it), else 32 fresh random bytes as hex."""
    environ = os.environ if environ is None else environ
    return environ.get(SECRET_VAR) or secrets.token_hex(32)


def _job_env(args, uri, port):
    env = {
        "WEFT_PS_ROOT_URI": uri, "WEFT_PS_ROOT_PORT": str(port),
        "WEFT_NUM_WORKER": str(args.num_workers), "WEFT_NUM_SERVER": str(args.num_servers),
        "DMLC_PS_ROOT_URI": uri, "DMLC_PS_ROOT_PORT": str(port),
        "DMLC_NUM_WORKER": str(args.num_workers), "DMLC_NUM_SERVER": str(args.num_servers),
    }
    if args.timeout is not None:
        env["WEFT_PS_TIMEOUT"] = str(args.timeout)
    return env


def _role_env(role):
    return {"WEFT_ROLE": role, "DMLC_ROLE": role}


def _node_command():
    return [sys.executable, "-m", "weft.kvstore.server"]


def _roles(args):
    """(role, command) for every process: scheduler, servers, then workers."""
    out = [("scheduler", _node_command())]
    out += [("server", _node_command()) for _ in range(args.num_servers)]
    out += [("worker", list(args.command)) for _ in range(args.num_workers)]
    return out


def _read_hosts(path):
    hosts = []
    with open(path, "r", encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                hosts.append(line.split()[0])
    if not hosts:
        raise SystemExit("weft.launch: host file %s lists no hosts" % path)
    return hosts


def ssh_commands(args, hosts, port):
    """The ssh command line of every process (a list of argv lists). Each remote
    shell reads WEFT_PS_SECRET from its stdin first (run_ssh writes it there)."""
    env = _job_env(args, args.root_uri or hosts[0], port)
    keep = {k: v for k, v in os.environ.items() if k.startswith(("WEFT_", "PYTHONPATH", "OMP_"))
            and k not in env and k not in ("WEFT_ROLE", "DMLC_ROLE", SECRET_VAR)}
    cmds = []
    for i, (role, cmd) in enumerate(_roles(args)):
        host = hosts[0] if role == "scheduler" else hosts[i % len(hosts)]
        exports = dict(keep, **env, **_role_env(role))
        remote = "cd %s && IFS= read -r %s && export %s && env %s %s" % (shlex.quote(os.getcwd()), SECRET_VAR,
                                                                        SECRET_VAR,
                                         " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in sorted(exports.items())),
                                         " ".join(shlex.quote(c) for c in cmd))
        cmds.append((role, ["ssh", "-o", "StrictHostKeyChecking=no", "-o", "BatchMode=yes", host, remote]))
    return cmds


def mpi_command(args, port):
    """One mpirun MPMD command line running every role (-s 0: the workers only)."""
    env = _job_env(args, args.root_uri or "127.0.0.1", port)
    cmd = ["mpirun"]
    if args.hostfile:
        cmd += ["--hostfile", args.hostfile]
    cmd += shlex.split(args.mpi_args or "")
    if args.num_servers == 0:
        return cmd + ["-np", str(args.num_workers), "-x", "WEFT_NUM_WORKER=%d" % args.num_workers] + list(args.command)
    cmd += ["-x", SECRET_VAR]  # exported from mpirun's environment (run_mpi sets it): not on the command line
    groups = [("scheduler", 1, _node_command()), ("server", args.num_servers, _node_command()),
              ("worker", args.num_workers, list(args.command))]
    first = True
    for role, n, prog in groups:
        if not first:
            cmd.append(":")
        first = False
        cmd += ["-np", str(n)]
        for k, v in sorted(dict(env, **_role_env(role)).items()):
            cmd += ["-x", "%s=%s" % (k, v)]
        cmd += prog
    return cmd


def _terminate(procs, grace=3.0):
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except OSError:
                pass
    deadline = time.time() + grace
    for p in procs:
        while p.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()


def supervise(procs):
    """Waits for the workers; returns their status (the first failure's, else 0).
    procs: list of (role, Popen). A failed worker stops everything at once; after
    the workers succeed the servers and scheduler get a short while to finish."""
    workers = [p for r, p in procs if r == "worker"]
    others = [p for r, p in procs if r != "worker"]
    status = 0
    try:
        while True:
            codes = [p.poll() for p in workers]
            failed = [c for c in codes if c not in (None, 0)]
            if failed:
                status = failed[0] if failed[0] > 0 else 128 - failed[0]  # killed by a signal: 128 + signal
                sys.stderr.write("weft.launch: a worker exited with status %d; stopping the job\n" % status)
                break
            if all(c == 0 for c in codes):
                break
            # A dead server or scheduler needs no case here: the liveness rule
            # (core/kvstore/van.h) makes the workers exit with an error on their own.
            time.sleep(0.05)
        if status == 0:
            deadline = time.time() + 30
            while time.time() < deadline and any(p.poll() is None for p in others):
                time.sleep(0.05)
            bad = [p.poll() for p in others if p.poll() not in (None, 0)]
            if bad:
                status = bad[0]
    except KeyboardInterrupt:
        status = 130
    finally:
        _terminate([p for _, p in procs])
    return status


def run_local(args):
    port = args.port or _free_port()
    base = dict(os.environ, **_job_env(args, "127.0.0.1", port))
    base[SECRET_VAR] = job_secret()
    procs = []
    for role, cmd in _roles(args):
        env = dict(base, **_role_env(role))
        if args.dry_run:
            print("%s: %s" % (role, " ".join(shlex.quote(c) for c in cmd)))
            continue
        procs.append((role, subprocess.Popen(cmd, env=env, start_new_session=True)))
    return 0 if args.dry_run else supervise(procs)


def run_ssh(args):
    if not args.hostfile:
        raise SystemExit("weft.launch: --launcher ssh needs -H HOSTFILE")
    cmds = ssh_commands(args, _read_hosts(args.hostfile), args.port or 9091)
    if args.dry_run:
        for role, c in cmds:
            print("%s: %s" % (role, " ".join(shlex.quote(x) for x in c)))
        return 0
    secret = job_secret()
    procs = []
    for role, c in cmds:
        p = subprocess.Popen(c, stdin=subprocess.PIPE, start_new_session=True)
        try:
            p.stdin.write((secret + "\n").encode())
            p.stdin.close()
        except OSError:
            pass  # ssh already failed: supervise() reports its status
        procs.append((role, p))
    return supervise(procs)


def slurm_command(args, port):
    """One srun of every task, each running this launcher again inside its task."""
    cmd = ["srun", "--ntasks=%d" % _world_size(args), "--kill-on-bad-exit=1"]
    if args.num_servers == 0:
        cmd.append("--mpi=pmix")  # the allreduce store's MPI gets its peers from Slurm
    cmd += shlex.split(args.srun_args or "")
    env = {"WEFT_PS_ROOT_PORT": str(port)}
    if args.root_uri:
        env["WEFT_PS_ROOT_URI"] = args.root_uri
    cmd.append("--export=ALL," + ",".join("%s=%s" % kv for kv in sorted(env.items())))
    cmd += [sys.executable, "-m", "weft.launch", "--launcher", "slurm", "-n", str(args.num_workers),
            "-s", str(args.num_servers)]
    if args.timeout is not None:
        cmd += ["--timeout", str(args.timeout)]
    return cmd + ["--"] + list(args.command)


def _world_size(args):
    return args.num_workers if args.num_servers == 0 else 1 + args.num_servers + args.num_workers


def task_command(args, env):
    """Inside a task of mpirun / srun / an Indexed Job: (argv, env) this rank runs.
    Raises ClusterEnvError when the scheduler's world size is not the job's."""
    info = cluster_env.detect(env)
    env = dict(env)
    want = _world_size(args)
    size = info["size"] if info["size"] is not None else want
    env.setdefault("WEFT_WORLD_SIZE", str(size))
    if size != want:
        raise cluster_env.ClusterEnvError(
            "weft.launch: %s started %d processes but -n %d -s %d needs %d%s"
            % (info["system"], size, args.num_workers, args.num_servers, want,
               "" if args.num_servers == 0 else " (1 scheduler + %d servers + %d workers)"
               % (args.num_servers, args.num_workers)))
    for k in ("WEFT_ROLE", "DMLC_ROLE"):
        env.pop(k, None)
    env.update({"WEFT_NUM_WORKER": str(args.num_workers), "DMLC_NUM_WORKER": str(args.num_workers)})
    if args.timeout is not None:
        env["WEFT_PS_TIMEOUT"] = str(args.timeout)
    if args.root_uri:
        env["WEFT_PS_ROOT_URI"] = args.root_uri
    if args.port:
        env["WEFT_PS_ROOT_PORT"] = str(args.port)
    if args.num_servers == 0:
        return list(args.command), env  # allreduce: MPI gives the rank
    if not env.get(SECRET_VAR):
        raise cluster_env.ClusterEnvError(
            "weft.launch: %s is not set in this %s task: every process of a PS job needs the same secret. "
            "Start the job with python -m weft.launch --launcher %s from outside (it draws one), or set it "
            "yourself on every task (python3 -c \"import secrets; print(secrets.token_hex(32))\"; on Kubernetes "
            "a Secret, deploy/k8s/weft-job.yaml)" % (SECRET_VAR, info["system"], info["system"]))
    env.update({"WEFT_NUM_SERVER": str(args.num_servers), "DMLC_NUM_SERVER": str(args.num_servers)})
    role = cluster_env.assign_roles(env)
    return (list(args.command) if role == "worker" else _node_command()), env


def run_in_task(args):
    try:
        cmd, env = task_command(args, os.environ)
    except cluster_env.ClusterEnvError as exc:
        raise SystemExit(str(exc)) from None
    if args.dry_run:
        print("%s: %s" % (env.get("WEFT_ROLE", "worker"), " ".join(shlex.quote(c) for c in cmd)))
        return 0
    sys.stdout.flush()
    os.execvpe(cmd[0], cmd, env)
    return 127  # not reached


def run_slurm(args):
    if "SLURM_PROCID" in os.environ and "SLURM_STEP_NUM_TASKS" in os.environ:  # a task of srun, not sbatch
        return run_in_task(args)
    if "SLURM_JOB_ID" not in os.environ and not args.dry_run:
        raise SystemExit("weft.launch: --launcher slurm runs inside a Slurm allocation (sbatch / salloc; "
                         "see scripts/slurm_train.sbatch)")
    cmd = slurm_command(args, args.port or cluster_env.DEFAULT_ROOT_PORT)
    if args.dry_run:
        print(" ".join(shlex.quote(x) for x in cmd))
        return 0
    return subprocess.call(cmd, env=_with_secret(args))


def run_k8s(args):
    if "JOB_COMPLETION_INDEX" not in os.environ:
        raise SystemExit("weft.launch: --launcher k8s is the container command of a Kubernetes Indexed Job "
                         "(JOB_COMPLETION_INDEX is not set); see deploy/k8s/weft-job.yaml")
    return run_in_task(args)


def run_mpi(args):
    if "OMPI_COMM_WORLD_RANK" in os.environ:
        return run_in_task(args)
    cmd = mpi_command(args, args.port or _free_port())
    if args.dry_run:
        print(" ".join(shlex.quote(x) for x in cmd))
        return 0
    return subprocess.call(cmd, env=_with_secret(args))


def _with_secret(args):
    """os.environ plus the job's secret for a PS job (srun --export=ALL and mpirun -x pass it on)."""
    env = dict(os.environ)
    if args.num_servers > 0:
        env[SECRET_VAR] = job_secret()
    return env


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m weft.launch", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", "--num-workers", type=int, required=True, help="number of workers")
    p.add_argument("-s", "--num-servers", type=int, default=None, help="number of servers (default: workers)")
    p.add_argument("--launcher", choices=("local", "ssh", "mpi", "slurm", "k8s"), default="local")
    p.add_argument("-H", "--hostfile", default=None, help="hosts, one a line (ssh, mpi)")
    p.add_argument("--port", type=int, default=None, help="scheduler port (default: a free one)")
    p.add_argument("--root-uri", default=None, help="scheduler address seen by the others (ssh, mpi)")
    p.add_argument("--timeout", type=int, default=None, help="WEFT_PS_TIMEOUT for every process")
    p.add_argument("--mpi-args", default=None, help="extra mpirun arguments (one string)")
    p.add_argument("--srun-args", default=None, help="extra srun arguments (one string)")
    p.add_argument("--dry-run", action="store_true", help="print the command lines only")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- the worker command")
    args = p.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.command:
        p.error("the worker command is missing (after --)")
    if args.num_workers < 1:
        p.error("-n must be at least 1")
    if args.num_servers is None:
        args.num_servers = args.num_workers
    if args.num_servers < 0:
        p.error("-s must be at least 0")
    if args.num_servers == 0 and args.launcher in ("local", "ssh"):
        p.error("-s 0 (no servers) is an allreduce job: use --launcher mpi, slurm or k8s")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    runner = {"local": run_local, "ssh": run_ssh, "mpi": run_mpi, "slurm": run_slurm, "k8s": run_k8s}[args.launcher]
    return runner(args)


if __name__ == "__main__":
    sys.exit(main())
