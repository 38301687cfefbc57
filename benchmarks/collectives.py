"""Allreduce throughput and overlap: the 'allreduce' KVStore against raw
MPI_Allreduce on the same buffers and against the dist PS (dist_sync).

    python benchmarks/collectives.py [--ranks 2] [--rounds 15]

Cases (float32, sum over the ranks, in place):
  large   1 key x 1M floats
  small   100 keys x 10k floats (one pushpull of all keys: the store buckets them)
Baselines measured in the same run: raw MPI_Allreduce of the same buffers
(libmpi called through ctypes in the same processes, after the store's
MPI_Init: per-key calls, and one call on the fused 1M floats), and dist_sync
with one server per worker (weft.launch, loopback). Overlap: a training step
of 4 x Dense(1024) (batch 64) -- compute only (forward+backward), comm only
(pushpull of its gradients), both (forward+backward+Trainer.step on the
store) -- and the share of the communication hidden behind backward.
Medians over interleaved rounds; every rank on loopback (Open MPI's shared
memory transport), 1 compute thread per rank. No PyTorch or MXNet column:
neither ships an MPI allreduce (MXNet 1.9 had it through Horovod), so raw MPI
is the bar.
"""
import argparse
import ctypes
import json
import os
import platform
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.abspath(__file__)


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


class RawMpi:
    """MPI_Allreduce of Open MPI's libmpi through ctypes (the process has MPI up already)."""

    def __init__(self):
        lib = ctypes.CDLL("libmpi.so.40", mode=ctypes.RTLD_GLOBAL)
        self.lib = lib
        self.comm = ctypes.addressof(ctypes.c_char.in_dll(lib, "ompi_mpi_comm_world"))
        self.float = ctypes.addressof(ctypes.c_char.in_dll(lib, "ompi_mpi_float"))
        self.sum = ctypes.addressof(ctypes.c_char.in_dll(lib, "ompi_mpi_op_sum"))
        lib.MPI_Allreduce.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                      ctypes.c_void_p, ctypes.c_void_p]

    def allreduce(self, arr):
        rc = self.lib.MPI_Allreduce(ctypes.c_void_p(1), arr.ctypes.data, arr.size, self.float, self.sum, self.comm)
        assert rc == 0, rc  # (void*)1 is Open MPI's MPI_IN_PLACE


def timed(fn, rounds):
    fn()  # warm up
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def rank_store(args):
    import weft as mx
    kv = mx.kv.create(args.kvstore)
    raw = RawMpi() if args.kvstore == "allreduce" else None
    big = mx.nd.ones((1 << 20,))
    smalls = [mx.nd.ones((10000,)) for _ in range(100)]
    kv.init(0, big)
    kv.init(list(range(1, 101)), smalls)
    np_big = np.ones(1 << 20, dtype=np.float32)
    np_smalls = [np.ones(10000, dtype=np.float32) for _ in range(100)]
    res = {"store_large": [], "store_small": [], "raw_large": [], "raw_small": [], "raw_small_fused": []}

    def store_large():
        kv.pushpull(0, big, out=big)
        big.wait_to_read()

    def store_small():
        kv.pushpull(list(range(1, 101)), smalls, out=smalls)
        mx.nd.waitall()

    for _ in range(args.rounds):  # interleaved rounds
        res["store_large"] += timed(store_large, 1)
        res["store_small"] += timed(store_small, 1)
        if raw is not None:
            res["raw_large"] += timed(lambda: raw.allreduce(np_big), 1)
            res["raw_small"] += timed(lambda: [raw.allreduce(a) for a in np_smalls], 1)
            res["raw_small_fused"] += timed(lambda: raw.allreduce(np_big[:1000000]), 1)
    if args.kvstore == "allreduce":
        res.update(overlap(mx, kv, args.rounds))
    if kv.rank == 0:
        print("RESULT " + json.dumps({k: float(np.median(v)) for k, v in res.items() if v}), flush=True)
    kv.barrier()


def overlap(mx, kv, rounds):
    from weft import autograd, gluon
    net = gluon.nn.HybridSequential()
    for _ in range(4):
        net.add(gluon.nn.Dense(1024, in_units=1024, activation="relu"))
    net.initialize(mx.init.Xavier())
    x = mx.nd.random.uniform(shape=(64, 1024))
    params = [net.collect_params()[k] for k in sorted(net.collect_params().keys())]
    trainer = gluon.Trainer(params, "sgd", {"learning_rate": 1e-4}, kvstore=mx.kv.create("allreduce"))

    def fwd_bwd():
        with autograd.record():
            loss = net(x).sum()
        loss.backward()

    def compute():
        fwd_bwd()
        mx.nd.waitall()

    grads = [p.grad() for p in params]

    def comm():
        trainer._kvstore.pushpull(list(range(len(params))), grads, out=grads)  # pylint: disable=protected-access
        mx.nd.waitall()

    def both():
        fwd_bwd()
        trainer.step(64)
        mx.nd.waitall()

    out = {"compute": [], "comm": [], "both": []}
    compute()
    both()
    for _ in range(rounds):
        out["compute"] += timed(compute, 1)
        out["comm"] += timed(comm, 1)
        out["both"] += timed(both, 1)
    return out


def run_job(cmd, env):
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900, check=False)
    out = proc.stdout.decode(errors="replace")
    for line in out.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit("benchmark job failed:\n" + out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--rank-mode", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--kvstore", default="allreduce", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rank_mode:
        rank_store(args)
        return
    if shutil.which("mpirun") is None:
        raise SystemExit("benchmarks/collectives.py needs mpirun (apt install openmpi-bin libopenmpi-dev)")
    env = dict(os.environ, OMP_NUM_THREADS="1", WEFT_CPU_WORKER_NTHREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for k in [k for k in env if k.startswith(("WEFT_ROLE", "DMLC_", "WEFT_NUM_", "WEFT_PS_"))]:
        del env[k]
    mine = [sys.executable, HERE, "--rank-mode", "--rounds", str(args.rounds)]
    mpi = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(args.ranks), "--bind-to", "none"]
    for k in ("PYTHONPATH", "WEFT_LIBRARY_PATH", "OMP_NUM_THREADS", "WEFT_CPU_WORKER_NTHREADS",
              "WEFT_ALLREDUCE_BUCKET_BYTES"):
        if k in env:
            mpi += ["-x", k]
    ar = run_job(mpi + mine, env)
    ps = run_job([sys.executable, "-m", "weft.launch", "-n", str(args.ranks), "-s", str(args.ranks), "--"] + mine
                 + ["--kvstore", "dist_sync"], env)
    mb_large, mb_small = 4.0 * (1 << 20) / 1e6, 4.0 * 1e6 / 1e6
    print("CPU: %s; %d ranks on loopback; Open MPI %s; bucket %s bytes" % (
        cpu_model(), args.ranks, subprocess.run(["mpirun", "--version"], stdout=subprocess.PIPE,
                                                check=False).stdout.decode().split("\n")[0].split()[-1],
        os.environ.get("WEFT_ALLREDUCE_BUCKET_BYTES", "4194304 (default)")))
    print("%-28s %10s %10s %10s %12s" % ("case", "store ms", "raw MPI ms", "dist_sync", "store/raw"))
    print("%-28s %10.2f %10.2f %10.2f %11.2fx" % ("1 key x 1M floats", 1e3 * ar["store_large"],
                                                  1e3 * ar["raw_large"], 1e3 * ps["store_large"],
                                                  ar["raw_large"] / ar["store_large"]))
    print("%-28s %10.2f %10.2f %10.2f %11.2fx" % ("100 keys x 10k floats", 1e3 * ar["store_small"],
                                                  1e3 * ar["raw_small"], 1e3 * ps["store_small"],
                                                  ar["raw_small"] / ar["store_small"]))
    print("%-28s %10s %10.2f %10s %11.2fx" % ("  raw: one fused 1M call", "", 1e3 * ar["raw_small_fused"], "",
                                              ar["raw_small_fused"] / ar["store_small"]))
    print("throughput GB/s (algorithm bytes / time): store large %.2f, raw large %.2f, store small %.2f, "
          "raw small %.2f, dist_sync large %.2f" % (
              mb_large / 1e3 / ar["store_large"], mb_large / 1e3 / ar["raw_large"],
              mb_small / 1e3 / ar["store_small"], mb_small / 1e3 / ar["raw_small"],
              mb_large / 1e3 / ps["store_large"]))
    c, m, b = ar["compute"], ar["comm"], ar["both"]
    hidden = max(0.0, min(1.0, (c + m - b) / m)) if m > 0 else 0.0
    print("4 x Dense(1024), batch 64: compute %.1f ms, comm %.1f ms, both %.1f ms (serial would be %.1f); "
          "%.0f%% of the communication hidden" % (1e3 * c, 1e3 * m, 1e3 * b, 1e3 * (c + m), 100 * hidden))


if __name__ == "__main__":
    main()
