"""Imperative small-op dispatch: weft vs NumPy vs PyTorch.

20,000 iterations of ``x = x * 1.0001 + 0.0001`` on a (16,) float32 array, then
one wait (weft: waitall; the others are synchronous); microseconds per op
(2 ops per iteration), median of 5 runs each, the runs interleaved. PyTorch runs
with one thread in its own process under its own interpreter (--torch-python,
else $WEFT_TORCH_PYTHON, else this one: benchmarks/frameworks.py; left out with
a note when that interpreter cannot import torch). The CPU model and the BLAS
kernel are printed first. Target: weft/torch <= 0.7.

    PYTHONPATH=bindings/python python benchmarks/dispatch.py [--iters N] [--runs R] [--profiler on]
        [--torch-python venv-torch/bin/python]

``--profiler on`` runs everything with weft.profiler recording (profile_all,
aggregate_stats): the cost of recording each op; off (the default) is the cost
of the profiler's one check per push when nobody profiles.

What the weft figure contains: Python operator dispatch (NDArray.__mul__ with a
cached scalar attribute), one cffi call (API mode when weft._weft_ffi is built,
else ABI mode -- printed), the core's attribute parse, shape/type inference,
output allocation and engine push, the NDArray wrapper, and freeing the
previous array's handle. The kernels themselves run on engine workers.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frameworks  # noqa: E402  pylint: disable=wrong-import-position


def _loop(x, iters):
    for _ in range(iters):
        x = x * 1.0001 + 0.0001
    return x


def bench_weft(iters):
    import weft  # pylint: disable=import-outside-toplevel

    x = weft.nd.ones((16,), dtype="float32")
    weft.nd.waitall()
    t0 = time.perf_counter()
    x = _loop(x, iters)
    weft.nd.waitall()
    dt = time.perf_counter() - t0
    return dt, x.asnumpy()


def bench_numpy(iters):
    x = np.ones((16,), dtype=np.float32)
    t0 = time.perf_counter()
    x = _loop(x, iters)
    return time.perf_counter() - t0, x


def bench_torch(iters):
    import torch  # pylint: disable=import-outside-toplevel,import-error

    torch.set_num_threads(1)
    x = torch.ones(16, dtype=torch.float32)
    t0 = time.perf_counter()
    x = _loop(x, iters)
    return time.perf_counter() - t0, x.numpy()


def _torch_in_child(python):
    """bench_torch in a process of its own (warmed up there); (seconds, None)."""
    def run(iters):
        out = subprocess.run([python, os.path.abspath(__file__), "--child-torch", "--iters", str(iters)],
                             env=frameworks.child_env("torch", OMP_NUM_THREADS="1"), check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])["s"], None
    return run


def measure(fns, iters, runs):
    """{name: (median us/op, [us/op per run], last result)}. Runs are interleaved
    (weft, numpy, torch, weft, ...) so load drifts on a shared machine hit all alike."""
    for fn in fns.values():
        fn(min(iters, 1000))  # warm up (imports, pools, caches)
    times = {name: [] for name in fns}
    results = {}
    for _ in range(runs):
        for name, fn in fns.items():
            dt, results[name] = fn(iters)
            times[name].append(dt / (2 * iters) * 1e6)
    return {name: (statistics.median(t), t, results[name]) for name, t in times.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profiler", choices=("off", "on"), default="off")
    ap.add_argument("--child-torch", action="store_true", help=argparse.SUPPRESS)
    frameworks.add_options(ap)
    args = ap.parse_args(argv)
    if args.child_torch:
        bench_torch(min(args.iters, 1000))  # warm up
        print(json.dumps({"s": bench_torch(args.iters)[0]}))
        return 0

    import weft  # pylint: disable=import-outside-toplevel

    if args.profiler == "on":
        weft.profiler.set_config(profile_all=True, aggregate_stats=True, continuous_dump=False)
        weft.profiler.set_state("run")

    mode = "API mode (weft._weft_ffi)" if weft.base.API_MODE else "ABI mode (ffi.dlopen)"
    fns = {"weft": bench_weft, "numpy": bench_numpy}
    print(frameworks.machine_line())
    ok, what = frameworks.available("torch", args)
    if ok:
        fns["torch"] = _torch_in_child(frameworks.python_for("torch", args))
        print("torch %s: %s" % (what, frameworks.python_for("torch", args)))
    else:
        print("torch left out: %s" % what)
    results = measure(fns, args.iters, args.runs)
    np.testing.assert_allclose(results["weft"][2], results["numpy"][2], rtol=1e-4)

    print("x = x * 1.0001 + 0.0001, shape (16,) float32, %d iterations, median of %d runs"
          % (args.iters, args.runs))
    print("weft cffi: %s, library %s, profiler %s, engine %s, %s engine worker(s)"
          % (mode, weft.base.LIB_PATH, args.profiler, os.environ.get("WEFT_ENGINE", "threaded"),
             os.environ.get("WEFT_CPU_WORKER_NTHREADS", "default")))
    print()
    print("%-8s %12s   %s" % ("", "us/op", "runs (us/op)"))
    for name, (med, times, _) in results.items():
        print("%-8s %12.3f   %s" % (name, med, " ".join("%.3f" % t for t in times)))
    print()
    w = results["weft"][0]
    if "torch" in results:
        r = w / results["torch"][0]
        print("weft/torch = %.2f   (target <= 0.70: %s)" % (r, "met" if r <= 0.70 else "NOT met"))
    else:
        print("weft/torch = n/a (torch not importable)")
    print("weft/numpy = %.2f" % (w / results["numpy"][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
