"""The 'allreduce' KVStore under a real mpirun (Open MPI, loopback TCP):
2- and 4-rank data-parallel training equals one process on the combined batch
(an MLP and a small CNN, with gluon.Trainer and with a raw pushpull loop, and
an MLP with weft.mod.Module; the
4-rank run uses 256-byte buckets so small keys are fused and large ones split);
a rank killed mid-allreduce or one that stops calling collectives ends the job
on every rank with a clear error; a rank with another model or another
expected world size refuses to start, naming both; `import weft` needs no MPI.

CI runs as root: mpirun gets --allow-run-as-root (and the OMPI_ALLOW_RUN_AS_ROOT
variables) and --oversubscribe (more ranks than cores). About 90 s in all on
two busy cores, most of it the ranks' `import weft`.
"""
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TRAIN = os.path.join(HERE, "allreduce_workers", "train.py")
FAULTS = os.path.join(HERE, "allreduce_workers", "faults.py")
RUNS = [(m, l) for m in ("mlp", "cnn") for l in ("trainer", "pushpull")] + [("mlp", "module")]

if shutil.which("mpirun") is None:  # scripts/setup.sh installs openmpi-bin and libopenmpi-dev
    pytest.skip("mpirun (openmpi-bin) is not installed", allow_module_level=True)


def _env(**extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("WEFT_ROLE", "DMLC_", "WEFT_PS_", "WEFT_NUM_", "OMPI_COMM_WORLD", "SLURM_")):
            del env[k]
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_NUM_THREADS": "1"})
    env.update({k: str(v) for k, v in extra.items()})
    return env


def mpirun(nranks, script, *args, timeout=180, **env):
    """Runs script on nranks ranks over loopback; returns (status, output, seconds)."""
    cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(nranks),
           "--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo"]
    for k in ("PYTHONPATH", "WEFT_LIBRARY_PATH", "OMP_NUM_THREADS") + tuple(env):
        cmd += ["-x", k]
    start = time.time()
    proc = subprocess.run(cmd + [sys.executable, script] + list(args), env=_env(**env), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout, check=False)
    return proc.returncode, proc.stdout.decode(errors="replace"), time.time() - start


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    proc = subprocess.run([sys.executable, TRAIN, "--kvstore", "local", "--out-dir", str(out)], env=_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout.decode(errors="replace")
    return out


@pytest.mark.parametrize("nranks,bucket", [(2, None), (4, 256)])
def test_data_parallel_equals_one_process(reference, tmp_path, nranks, bucket):
    env = {"WEFT_ALLREDUCE_BUCKET_BYTES": bucket} if bucket else {}
    status, out, _ = mpirun(nranks, TRAIN, "--out-dir", str(tmp_path), **env)
    assert status == 0 and out.count(" ok") == nranks, out
    for model, loop in RUNS:
        ref = np.load(reference / ("%s_%s.rank0.npz" % (model, loop)))
        for rank in range(nranks):
            got = np.load(tmp_path / ("%s_%s.rank%d.npz" % (model, loop, rank)))
            assert sorted(got.files) == sorted(ref.files)
            for name in ref.files:
                np.testing.assert_allclose(got[name], ref[name], rtol=0, atol=1e-6,
                                           err_msg="%s/%s rank %d %s" % (model, loop, rank, name))


def test_killed_rank_ends_the_job():
    status, out, took = mpirun(2, FAULTS, "--mode", "kill", timeout=120)
    assert status != 0, out
    assert "rank 1" in out and "signal 9" in out, out  # mpirun names the dead rank and why
    assert took < 90, took


def test_rank_that_stops_calling_collectives_times_out():
    status, out, took = mpirun(2, FAULTS, "--mode", "hang", timeout=120, WEFT_ALLREDUCE_TIMEOUT=3)
    assert status != 0, out
    assert "rank 0 of 2" in out and "did not complete within 3 s" in out, out
    assert took < 90, took


def test_different_model_refuses_to_start():
    status, out, _ = mpirun(2, FAULTS, "--mode", "model")
    assert status == 0, out
    assert "refused: kvstore 'allreduce' init: rank 1's model differs from rank 0's: parameter 1 is key '1' " \
           "float32 (5,) on rank 1 but key '1' float32 (4,) on rank 0" in out, out
    assert "refused: kvstore 'allreduce' init: rank 1's model (keys, shapes, dtypes) differs from rank 0's" in out, out


def test_mismatched_world_size_refuses_to_start():
    status, out, _ = mpirun(2, FAULTS, "--mode", "size")
    assert status == 0, out
    assert out.count("refused: kvstore 'allreduce': rank 1 was started for 3 workers (WEFT_NUM_WORKER) but the "
                     "MPI job has 2 ranks") == 2, out


def test_import_without_mpi_and_a_clear_error_without_the_plugin():
    code = ("import weft as mx\n"
            "try:\n    mx.kv.create('allreduce')\nexcept mx.base.InvalidArgumentError as e:\n    print('ERR', e)\n")
    proc = subprocess.run([sys.executable, "-c", code], env=_env(WEFT_MPI_PLUGIN="/nonexistent/libweft_mpi.so"),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0 and "ERR kvstore 'allreduce' needs the MPI plugin libweft_mpi.so" in out, out
    assert "/nonexistent/libweft_mpi.so" in out, out
    import weft.base as base  # the library this test run uses (installed or WEFT_LIBRARY_PATH)
    needed = subprocess.run(["ldd", str(base.LIB_PATH)], stdout=subprocess.PIPE, check=True).stdout.decode()
    assert "libmpi" not in needed, needed  # MPI is the plugin's dependency only


def test_single_process_store_and_bad_settings():
    code = ("import weft as mx\n"
            "kv = mx.kv.create('allreduce')\n"
            "print(kv.type, kv.rank, kv.num_workers)\n"
            "kv.init('w', mx.nd.ones((3,)))\n"
            "out = mx.nd.zeros((3,))\n"
            "kv.pushpull('w', mx.nd.ones((3,)) * 2, out=out)\n"
            "kv.pull('w', out=out)\n"
            "print(out.asnumpy().tolist())\n"
            "try:\n    kv.init('h', mx.nd.ones((2,), dtype='float16'))\nexcept mx.base.WeftError as e:\n"
            "    print('ERR', e)\n")
    proc = subprocess.run([sys.executable, "-c", code], env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=120, check=False)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0, out
    assert "allreduce 0 1" in out and "[2.0, 2.0, 2.0]" in out, out
    assert "key 'h' is float16; the allreduce store sums float32, float64, int32, int64 and uint8" in out, out
    proc = subprocess.run([sys.executable, "-c", "import weft as mx; mx.kv.create('allreduce')"],
                          env=_env(WEFT_ALLREDUCE_BUCKET_BYTES="lots"), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=120, check=False)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode != 0 and "WEFT_ALLREDUCE_BUCKET_BYTES=lots is not a positive number" in out, out


LISTENERS = os.path.join(HERE, "allreduce_workers", "listeners.py")


def test_one_host_job_listens_on_no_network_socket():
    """Issue 22, point 7 (Note [Collectives transport], plugins/mpi/weft_mpi.c): the ranks of a
    job on one host talk over shared memory only, so none of them listens on any TCP socket
    (Open MPI's TCP transport would listen on the wildcard address of every interface); a
    transport the user names with --mca is still used as given."""
    cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", "-x", "PYTHONPATH",
           "-x", "WEFT_LIBRARY_PATH", "-x", "OMP_NUM_THREADS"]
    for extra, expect_listen in (([], False), (["--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"], True)):
        proc = subprocess.run(cmd + extra + [sys.executable, LISTENERS], env=_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=180, check=False)
        out = proc.stdout.decode(errors="replace")
        assert proc.returncode == 0, out
        assert out.count("SUM 3") == 2, out  # 1 + 2 on both ranks
        listens = [l for l in out.splitlines() if " LISTEN " in l]
        if expect_listen:
            assert listens, out  # the check can see Open MPI's TCP listener when there is one
        else:
            assert not listens, out
