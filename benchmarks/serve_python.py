"""The Python side of benchmarks/serve.sh.

    python benchmarks/serve_python.py export DIR
        writes the digits CNN of examples/digits_demo.py (random weights: speed
        does not depend on them) as DIR/digits-symbol.json + digits-0000.params
    python benchmarks/serve_python.py bench DIR [--concurrency 1,4,16] [--duration 5]
        predictions per second and p50/p99 latency of the same model through the
        Python predictor (weft.predictor.Predictor), one predictor per thread,
        one image per call, like one HTTP request to weft-serve.
"""
import argparse
import os
import sys
import threading
import time

import numpy as np

_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
try:
    import weft as mx
except ImportError:  # a source checkout without installing
    sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
    import weft as mx
sys.path.insert(0, os.path.join(_ROOT, "examples"))
from digits_demo import build_net  # noqa: E402  (the demo's model definition)
from weft.predictor import Predictor  # noqa: E402

SHAPE = (1, 1, 8, 8)


def export(out_dir):
    mx.random.seed(0)
    net = build_net()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    net(mx.nd.zeros(SHAPE))
    os.makedirs(out_dir, exist_ok=True)
    net.export(os.path.join(out_dir, "digits"), epoch=0)


def bench(model_dir, levels, duration, warmup):
    prefix = os.path.join(model_dir, "digits")
    image = np.random.RandomState(1).uniform(0, 1, size=SHAPE).astype(np.float32)
    print("%-6s %11s %9s %10s %9s %9s" % ("python", "concurrency", "requests", "req/s", "p50 ms", "p99 ms"))
    for conc in levels:
        preds = [Predictor(prefix + "-symbol.json", prefix + "-0000.params", {"data": SHAPE}) for _ in range(conc)]
        for phase, seconds in (("warmup", warmup), ("measure", duration)):
            latencies = [[] for _ in range(conc)]
            deadline = time.perf_counter() + seconds

            def worker(i):
                p, mine = preds[i], latencies[i]
                while time.perf_counter() < deadline:
                    t0 = time.perf_counter()
                    p.forward(data=image)[0].argmax()
                    mine.append(time.perf_counter() - t0)

            start = time.perf_counter()
            threads = [threading.Thread(target=worker, args=(i,)) for i in range(conc)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
        all_lat = np.sort(np.concatenate([np.array(lat) for lat in latencies])) * 1e3
        n = len(all_lat)
        p50 = all_lat[max(int(np.ceil(0.50 * n)) - 1, 0)]
        p99 = all_lat[max(int(np.ceil(0.99 * n)) - 1, 0)]
        print("%-6s %11d %9d %10.1f %9.3f %9.3f" % ("python", conc, n, n / elapsed, p50, p99))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_export = sub.add_parser("export")
    p_export.add_argument("dir")
    p_bench = sub.add_parser("bench")
    p_bench.add_argument("dir")
    p_bench.add_argument("--concurrency", default="1,4,16")
    p_bench.add_argument("--duration", type=float, default=5.0)
    p_bench.add_argument("--warmup", type=float, default=1.0)
    args = parser.parse_args(argv)
    if args.cmd == "export":
        export(args.dir)
    else:
        bench(args.dir, [int(c) for c in args.concurrency.split(",")], args.duration, args.warmup)
    return 0


if __name__ == "__main__":
    sys.exit(main())
