"""KVStore benchmark (issue 7): dist_sync push+pull throughput with 1 server and 2
workers on loopback, against raw ZeroMQ moving the same bytes in the same run,
and a training step whose communication overlaps computation.

    python benchmarks/kvstore.py [--rounds 20]

Needs the build's libweft.so (WEFT_LIBRARY_PATH) and bench_zmq_pingpong (built
by cmake/kvstore.cmake with -DWEFT_BUILD_BENCHMARKS=ON or
-DWEFT_BUILD_KVSTORE_BENCH=ON; --zmq-bench PATH to point at it). The script
launches itself as the workers of a weft.launch job.

Cases (bytes per worker per round = 2 x the key bytes: a push and a pull):
  one key of 1M float32 (4 MiB); 100 keys of 10k float32.
Training step: a 4-layer MLP (1024 wide); "compute" is forward + backward
alone, "comm" is the push+pull of the same gradients alone, "step" both
together through gluon.Trainer(kvstore=dist_sync); overlap shows as
step < compute + comm.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _worker(args):
    import numpy as np  # pylint: disable=import-outside-toplevel
    import weft as mx  # pylint: disable=import-outside-toplevel
    from weft import autograd, gluon  # pylint: disable=import-outside-toplevel

    kv = mx.kv.create("dist_sync")
    result = {}

    def throughput(name, keys, floats):
        vals = [mx.nd.ones((floats,)) for _ in keys]
        outs = [mx.nd.zeros((floats,)) for _ in keys]
        kv.init(keys, vals)
        for r in range(args.rounds + 1):
            if r == 1:
                kv.barrier()
                t0 = time.perf_counter()
            kv.push(keys, vals)
            kv.pull(keys, out=outs)
            for o in outs:
                o.wait_to_read()
        secs = time.perf_counter() - t0
        nbytes = 2 * 4 * floats * len(keys) * args.rounds
        result[name] = {"seconds": secs, "bytes": nbytes}

    throughput("1 key x 1M float32", [1000], 1 << 20)  # Trainer keys are 0, 1, ...: no overlap
    throughput("100 keys x 10k float32", [2000 + i for i in range(100)], 10000)

    # -- a training step: communication of layer L overlaps computation of layer L-1 --
    mx.random.seed(0)
    net = gluon.nn.HybridSequential()
    for _ in range(4):
        net.add(gluon.nn.Dense(1024, activation="relu", in_units=1024))
    net.initialize(mx.init.Xavier())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01}, kvstore=kv)
    x = mx.nd.array(np.random.RandomState(kv.rank).randn(256, 1024).astype(np.float32))
    params = trainer._params  # pylint: disable=protected-access  (key i is trainer._params[i])

    def fwd_bwd():
        with autograd.record():
            loss = net(x).sum()
        loss.backward()

    def timed(fn, n=args.steps):
        fn()
        mx.nd.waitall()
        kv.barrier()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        mx.nd.waitall()
        return (time.perf_counter() - t0) / n

    def step():
        fwd_bwd()
        trainer.step(256)

    def comm_only():
        for i, p in enumerate(params):
            kv.push(i, p.grad(), priority=-i)
        for i, p in enumerate(params):
            kv.pull(i, p.data(), priority=-i)

    step()  # creates the store's keys and sends the optimizer
    result["step"] = {"compute": timed(fwd_bwd), "comm": timed(comm_only), "step": timed(step)}
    if kv.rank == 0:
        print("RESULT " + json.dumps(result), flush=True)


def _raw_zmq(zmq_bench, keys, floats, rounds):
    out = subprocess.run([zmq_bench, "2", str(keys), str(floats), str(rounds)], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    m = re.search(r"seconds=([\d.]+) bytes=(\d+)", out)
    return float(m.group(1)), int(m.group(2))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--zmq-bench", default=None)
    args = p.parse_args()
    if args.worker:
        _worker(args)
        return
    zmq_bench = args.zmq_bench
    if zmq_bench is None:
        lib = os.environ.get("WEFT_LIBRARY_PATH", os.path.join(REPO, "build", "libweft.so"))
        zmq_bench = os.path.join(os.path.dirname(lib) if lib.endswith(".so") else lib, "bench_zmq_pingpong")
    if not os.path.exists(zmq_bench):
        sys.exit("bench_zmq_pingpong not found at %s (build it: cmake -DWEFT_BUILD_KVSTORE_BENCH=ON, target "
                 "bench_zmq_pingpong; or --zmq-bench PATH)" % zmq_bench)
    cmd = [sys.executable, "-m", "weft.launch", "-n", "2", "-s", "1", "--", sys.executable, os.path.abspath(__file__),
           "--worker", "--rounds", str(args.rounds), "--steps", str(args.steps)]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, timeout=600).stdout.decode()
    result = json.loads(out.split("RESULT ", 1)[1].splitlines()[0])
    print("dist_sync, 1 server + 2 workers, loopback; %d rounds of push+pull per case" % args.rounds)
    print("%-26s %12s %12s %8s" % ("case", "kvstore MB/s", "raw zmq MB/s", "ratio"))
    for name, keys, floats in (("1 key x 1M float32", 1, 1 << 20), ("100 keys x 10k float32", 100, 10000)):
        kv_rate = result[name]["bytes"] / result[name]["seconds"] / 1e6
        secs, nbytes = _raw_zmq(zmq_bench, keys, floats, args.rounds)
        raw_rate = nbytes / secs / 1e6
        print("%-26s %12.1f %12.1f %8.2f" % (name, kv_rate, raw_rate, kv_rate / raw_rate))
    s = result["step"]
    print("training step (4 x Dense(1024), batch 256 per worker):")
    print("  compute only %.1f ms, comm only %.1f ms, sum %.1f ms; step with both %.1f ms (overlap saves %.1f ms)"
          % (1e3 * s["compute"], 1e3 * s["comm"], 1e3 * (s["compute"] + s["comm"]), 1e3 * s["step"],
             1e3 * (s["compute"] + s["comm"] - s["step"])))


if __name__ == "__main__":
    main()
