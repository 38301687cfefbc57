"""python -m weft.launch --launcher mpi|slurm|k8s and the rank / role detection
of weft.cluster_env, run under the environment each system gives a process.

No Slurm or Kubernetes is installed: each task is started here with exactly
the variables that system sets (listed in SRUN_TASK_ENV and K8S_POD_ENV below,
from srun(1)'s "OUTPUT ENVIRONMENT VARIABLES" and the Indexed Job docs), plus
what weft's own srun line (--export) or manifest (deploy/k8s/weft-job.yaml)
adds. The tasks then form a real job on loopback. The mpirun cases run a real
mpirun. About 60-120 s in all on two busy cores (each job starts 2-4 Pythons).
"""
import os
import secrets
import shlex
import shutil
import socket
import subprocess
import sys

import pytest

from weft import cluster_env, launch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
API = os.path.join(HERE, "kvstore_workers", "api_worker.py")
HAVE_MPIRUN = shutil.which("mpirun") is not None
MPIRUN_FLAGS = "--allow-run-as-root --oversubscribe --mca btl self,tcp --mca btl_tcp_if_include lo " \
               "--mca oob_tcp_if_include lo"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env(**extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("WEFT_ROLE", "DMLC_", "WEFT_PS_", "WEFT_NUM_", "WEFT_WORLD", "OMPI_COMM_WORLD", "SLURM_",
                         "JOB_COMPLETION_INDEX")):
            del env[k]
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_NUM_THREADS": "1"})
    env.update({k: str(v) for k, v in extra.items()})
    return env


def SRUN_TASK_ENV(procid, ntasks, nodelist="localhost"):
    """What srun sets in task `procid` of a one-node step of `ntasks` tasks."""
    return {"SLURM_JOB_ID": "4242", "SLURM_JOBID": "4242", "SLURM_JOB_NAME": "weft-train", "SLURM_STEP_ID": "0",
            "SLURM_STEPID": "0", "SLURM_PROCID": str(procid), "SLURM_LOCALID": str(procid), "SLURM_NODEID": "0",
            "SLURM_NTASKS": str(ntasks), "SLURM_NPROCS": str(ntasks), "SLURM_STEP_NUM_TASKS": str(ntasks),
            "SLURM_NNODES": "1", "SLURM_JOB_NUM_NODES": "1", "SLURM_STEP_NUM_NODES": "1",
            "SLURM_JOB_NODELIST": nodelist, "SLURM_NODELIST": nodelist, "SLURM_STEP_NODELIST": nodelist,
            "SLURM_TASKS_PER_NODE": str(ntasks), "SLURM_STEP_TASKS_PER_NODE": str(ntasks),
            "SLURMD_NODENAME": "localhost", "SLURM_TOPOLOGY_ADDR": "localhost", "SLURM_CPUS_ON_NODE": "2",
            "SLURM_SUBMIT_DIR": os.getcwd(), "SLURM_SUBMIT_HOST": "localhost", "SLURM_LAUNCH_NODE_IPADDR": "127.0.0.1",
            "SLURM_SRUN_COMM_HOST": "127.0.0.1", "SLURM_GTIDS": str(procid), "SLURM_TASK_PID": str(os.getpid())}


JOB_SECRET = secrets.token_hex(32)  # what weft.launch's srun line exports / the manifest's Secret holds


def K8S_POD_ENV(index, world, port, secret=JOB_SECRET):
    """What Kubernetes gives pod `index` of deploy/k8s/weft-job.yaml's Indexed Job: its own
    variables and the manifest's env (WEFT_PS_ROOT_URI is the headless service's name of pod 0
    there, weft-train-0.weft-train; here loopback, there being no cluster DNS; WEFT_PS_SECRET
    from the Secret weft-ps-secret)."""
    env = {"JOB_COMPLETION_INDEX": str(index), "HOSTNAME": "weft-train-%d-x7k2p" % index,
           "KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443",
           "WEFT_WORLD_SIZE": str(world), "WEFT_PS_ROOT_URI": "127.0.0.1", "WEFT_PS_ROOT_PORT": str(port)}
    if secret:
        env["WEFT_PS_SECRET"] = secret
    return env


def _run_tasks(envs, launcher_args, timeout=180):
    """Starts one `python -m weft.launch ...` per task env; returns (statuses, outputs)."""
    procs = [subprocess.Popen([sys.executable, "-m", "weft.launch"] + launcher_args, env=_clean_env(**e),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for e in envs]
    outs = []
    for p in procs:
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise
        outs.append(out.decode(errors="replace"))
    return [p.returncode for p in procs], outs


def test_expand_nodelist():
    assert cluster_env.expand_nodelist("node[01-03,07],gpu5,rack[1-2]-x") == \
        ["node01", "node02", "node03", "node07", "gpu5", "rack1-x", "rack2-x"]
    assert cluster_env.expand_nodelist("localhost") == ["localhost"]


def test_detect_each_system():
    assert cluster_env.detect({}) is None
    mpi = cluster_env.detect({"OMPI_COMM_WORLD_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4",
                              "OMPI_COMM_WORLD_LOCAL_RANK": "0"})
    assert (mpi["system"], mpi["rank"], mpi["size"]) == ("mpi", 2, 4)
    slurm = cluster_env.detect(SRUN_TASK_ENV(3, 8, "gpu[07-10]"))
    assert (slurm["system"], slurm["rank"], slurm["size"], slurm["root_host"]) == ("slurm", 3, 8, "gpu07")
    batch = {k: v for k, v in SRUN_TASK_ENV(0, 8).items() if not k.startswith("SLURM_STEP")}
    assert cluster_env.detect(batch) is None  # the sbatch script itself (SLURM_PROCID=0) is not a task
    k8s = cluster_env.detect(K8S_POD_ENV(5, 7, 9091))
    assert (k8s["system"], k8s["rank"], k8s["size"], k8s["root_host"]) == ("k8s", 5, 7, "127.0.0.1")


def test_roles_from_rank():
    roles = []
    for rank in range(5):
        env = dict(SRUN_TASK_ENV(rank, 5, "n[1-2]"), WEFT_NUM_SERVER="2")
        roles.append(cluster_env.assign_roles(env))
        assert env["WEFT_PS_ROOT_URI"] == "n1" and env["WEFT_NUM_WORKER"] == "2" and env["DMLC_ROLE"] == roles[-1]
    assert roles == ["scheduler", "server", "server", "worker", "worker"]
    env = dict(SRUN_TASK_ENV(1, 5), WEFT_NUM_SERVER="1", WEFT_NUM_WORKER="2")
    with pytest.raises(cluster_env.ClusterEnvError, match="slurm started 5 processes but WEFT_NUM_WORKER=2 and "
                                                          "WEFT_NUM_SERVER=1 need 4"):
        cluster_env.assign_roles(env)
    assert cluster_env.assign_roles(dict(SRUN_TASK_ENV(1, 5), WEFT_ROLE="worker", WEFT_NUM_SERVER="1")) is None
    assert cluster_env.assign_roles(SRUN_TASK_ENV(1, 5)) is None  # no servers: an allreduce job, MPI ranks


def test_slurm_tasks_form_a_ps_job():
    port = _free_port()
    # the port and the secret: srun --export=ALL of weft.launch's environment
    envs = [dict(SRUN_TASK_ENV(i, 4), WEFT_PS_ROOT_PORT=port, WEFT_PS_SECRET=JOB_SECRET) for i in range(4)]
    status, outs = _run_tasks(envs, ["--launcher", "slurm", "-n", "2", "-s", "1", "--timeout", "30", "--",
                                     sys.executable, API])
    assert status == [0, 0, 0, 0], "\n".join(outs)
    assert sum(o.count("ok") for o in outs[2:]) == 2, "\n".join(outs)


def test_k8s_pods_form_a_ps_job():
    port = _free_port()
    envs = [K8S_POD_ENV(i, 4, port) for i in range(4)]
    status, outs = _run_tasks(envs, ["--launcher", "k8s", "-n", "2", "-s", "1", "--timeout", "30", "--",
                                     sys.executable, API])
    assert status == [0, 0, 0, 0], "\n".join(outs)
    assert sum(o.count("ok") for o in outs[2:]) == 2, "\n".join(outs)


def test_a_ps_task_without_the_secret_is_refused_with_how_to_get_one():
    status, outs = _run_tasks([K8S_POD_ENV(1, 4, 1, secret=None)],
                              ["--launcher", "k8s", "-n", "2", "-s", "1", "--", "true"])
    assert status == [1] and "WEFT_PS_SECRET is not set in this k8s task" in outs[0] and "Secret" in outs[0], outs[0]
    # a process started by hand, without weft.launch, gets the same advice from the store itself
    code = "import weft; weft.kv.create('dist_sync')"
    proc = subprocess.run([sys.executable, "-c", code], env=_clean_env(WEFT_ROLE="worker", WEFT_PS_ROOT_URI="127.0.0.1",
                                                                        WEFT_PS_ROOT_PORT="1", WEFT_NUM_WORKER="1",
                                                                        WEFT_NUM_SERVER="1"),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60, check=False)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode != 0 and "WEFT_PS_SECRET is not set" in out and "weft.launch" in out, out


def test_every_launcher_hands_the_job_a_secret_off_the_command_line(tmp_path):
    # local: every process of one job sees the same fresh 32-byte secret; another job gets another
    # One write() per line: the processes share the pipe, and print() in an unbuffered
    # process writes its pieces one by one, which interleaved two lines once in CI.
    show = ("import hashlib, os, weft; kv = weft.kv.create('dist_sync'); s = os.environ['WEFT_PS_SECRET']; "
            "os.write(1, ('secret %d %s\\n' % (len(s), hashlib.sha256(s.encode()).hexdigest()[:16])).encode())")
    seen = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-m", "weft.launch", "-n", "2", "-s", "1", "--timeout", "30", "--",
                               sys.executable, "-c", show], env=_clean_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=120, check=False)
        out = proc.stdout.decode(errors="replace")
        lines = sorted(l for l in out.splitlines() if l.startswith("secret "))
        assert proc.returncode == 0 and len(lines) == 2 and lines[0] == lines[1], out
        assert lines[0].split()[1] == "64", out
        seen.append(lines[0])
    assert seen[0] != seen[1]
    # ssh: the secret goes to each remote shell's stdin, never into the command line
    hosts = tmp_path / "hosts"
    hosts.write_text("node-a\nnode-b\n")
    args = launch.parse_args(["-n", "2", "-s", "1", "--launcher", "ssh", "-H", str(hosts), "--", "python", "t.py"])
    os.environ["WEFT_PS_SECRET"] = "ab" * 32  # even one set here never reaches a command line
    try:
        cmds = launch.ssh_commands(args, launch._read_hosts(str(hosts)), 9000)  # pylint: disable=protected-access
        mpi = launch.mpi_command(args, 9001)
        slurm = launch.slurm_command(args, 9002)
        assert launch.job_secret() == "ab" * 32  # the tasks of one job share a secret already set
    finally:
        del os.environ["WEFT_PS_SECRET"]
    for _, c in cmds:
        assert "IFS= read -r WEFT_PS_SECRET && export WEFT_PS_SECRET" in c[-1] and "ab" * 32 not in c[-1], c
    # mpi: exported from mpirun's environment by name (-x NAME), slurm: --export=ALL
    assert "-x" in mpi and "WEFT_PS_SECRET" in mpi and not any("ab" * 32 in a for a in mpi), mpi
    assert not any("ab" * 32 in a for a in slurm) and any(a.startswith("--export=ALL") for a in slurm), slurm
    assert len(launch.job_secret({})) == 64 and launch.job_secret({}) != launch.job_secret({})


def test_world_size_mismatch_names_both():
    status, outs = _run_tasks([SRUN_TASK_ENV(0, 5)], ["--launcher", "slurm", "-n", "2", "-s", "1", "--", "true"])
    assert status == [1] and "slurm started 5 processes but -n 2 -s 1 needs 4 (1 scheduler + 1 servers + " \
        "2 workers)" in outs[0], outs[0]
    status, outs = _run_tasks([K8S_POD_ENV(0, 3, 1)], ["--launcher", "k8s", "-n", "4", "-s", "0", "--", "true"])
    assert status == [1] and "k8s started 3 processes but -n 4 -s 0 needs 4" in outs[0], outs[0]
    status, outs = _run_tasks([{}], ["--launcher", "k8s", "-n", "2", "-s", "1", "--", "true"])
    assert status == [1] and "JOB_COMPLETION_INDEX is not set" in outs[0], outs[0]


def test_command_lines_and_examples():
    args = launch.parse_args(["--launcher", "slurm", "-n", "4", "-s", "0", "--srun-args=--gpus-per-task=1",
                              "--", "python", "train.py"])
    cmd = launch.slurm_command(args, 9100)
    assert cmd[:4] == ["srun", "--ntasks=4", "--kill-on-bad-exit=1", "--mpi=pmix"] and "--gpus-per-task=1" in cmd
    assert "--export=ALL,WEFT_PS_ROOT_PORT=9100" in cmd and cmd[-3:] == ["--", "python", "train.py"]
    args = launch.parse_args(["--launcher", "mpi", "-n", "3", "-s", "0", "--", "python", "train.py"])
    assert launch.mpi_command(args, 1) == ["mpirun", "-np", "3", "-x", "WEFT_NUM_WORKER=3", "python", "train.py"]
    with pytest.raises(SystemExit):
        launch.parse_args(["-n", "2", "-s", "0", "--", "python", "train.py"])  # local has no allreduce
    subprocess.run(["bash", "-n", os.path.join(ROOT, "scripts", "slurm_train.sbatch")], check=True)
    yaml = pytest.importorskip("yaml", reason="PyYAML reads the manifest")
    with open(os.path.join(ROOT, "deploy", "k8s", "weft-job.yaml"), encoding="utf-8") as f:
        service, job = list(yaml.safe_load_all(f))
    assert service["kind"] == "Service" and service["spec"]["clusterIP"] == "None"
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed" and spec["template"]["spec"]["subdomain"] == service["metadata"]["name"]
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in container["env"]}
    args = launch.parse_args(container["command"][3:])
    world = 1 + args.num_servers + args.num_workers
    assert spec["completions"] == spec["parallelism"] == world == int(env["WEFT_WORLD_SIZE"])
    assert env["WEFT_PS_ROOT_URI"] == "%s-0.%s" % (job["metadata"]["name"], service["metadata"]["name"])
    secret = [e for e in container["env"] if e["name"] == "WEFT_PS_SECRET"]
    assert secret and secret[0]["valueFrom"]["secretKeyRef"]["name"] == "weft-ps-secret", container["env"]


@pytest.mark.skipif(not HAVE_MPIRUN, reason="mpirun (openmpi-bin) is not installed")
def test_mpirun_ranks_take_ps_roles_at_import():
    port = _free_port()
    cmd = ["mpirun"] + shlex.split(MPIRUN_FLAGS) + ["-np", "4", "-x", "PYTHONPATH", "-x", "WEFT_LIBRARY_PATH",
                                                    "-x", "WEFT_NUM_SERVER=1", "-x", "WEFT_PS_ROOT_URI=127.0.0.1",
                                                    "-x", "WEFT_PS_ROOT_PORT=%d" % port, "-x", "WEFT_PS_TIMEOUT=30",
                                                    "-x", "WEFT_PS_SECRET", sys.executable, API]
    proc = subprocess.run(cmd, env=_clean_env(WEFT_PS_SECRET=JOB_SECRET), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=180, check=False)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0 and out.count("ok") == 2, out


@pytest.mark.skipif(not HAVE_MPIRUN, reason="mpirun (openmpi-bin) is not installed")
def test_mpi_launcher_runs_an_allreduce_job():
    cmd = [sys.executable, "-m", "weft.launch", "--launcher", "mpi", "-n", "2", "-s", "0", "--mpi-args",
           MPIRUN_FLAGS + " -x PYTHONPATH -x WEFT_LIBRARY_PATH", "--", sys.executable, API, "--type", "allreduce"]
    proc = subprocess.run(cmd, env=_clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180,
                          check=False)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0 and out.count("ok") == 2, out
