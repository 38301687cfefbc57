"""Mixed imperative/declarative training loop vs the same step as one graph.

The paper's central claim: a loop that mixes a bound graph with imperative
NDArray updates,

    exe.forward(is_train=True); exe.backward()
    for w, g in params: w -= lr * g          # one fused kernel per parameter, no waits

runs as fast as one graph that contains the update ops (here: the executor
bound with ``update=("sgd_update", {"lr": lr})``, so forward + backward is the
whole step, sgd_update nodes included). Both go through the same engine; the
mixed loop pays Python dispatch for the updates, which the engine overlaps with
the graph's compute. ``lr * g`` is a temporary the update consumes at once, so
the core runs the pair as one sgd_update kernel (Note [In-place axpy fusion] in
core/ndarray/axpy_fusion.h); --no-fusion measures the two-op path (a named
temporary, which is never fused).

For an MLP (784-512-512-10, batch 128) and a small CNN (conv32-pool-conv64-pool-
fc128-fc10 on 1x28x28, batch 64) it prints milliseconds per step (median of
--runs runs of --steps steps, the two loops interleaved) and the ratio
mixed / one-graph (target <= 1.03), and checks that both loops end with the same
weights. One BLAS/OpenMP thread; the engine's default worker pool.

    PYTHONPATH=bindings/python python benchmarks/mixed_loop.py [--steps N] [--runs R] [--no-fusion]
"""
import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frameworks  # noqa: E402  pylint: disable=wrong-import-position
import nets  # noqa: E402  pylint: disable=wrong-import-position

import weft  # noqa: E402  pylint: disable=wrong-import-position

LR = 0.01


def _bind(sym, data_shape, init, batch, update):
    exe = sym.simple_bind(weft.cpu(), grad_req={n: "write" for n in init}, data=data_shape,
                          update=("sgd_update", {"lr": LR}) if update else None)
    for name, value in init.items():
        exe.arg_dict[name][:] = value
    rng = np.random.default_rng(1)
    exe.arg_dict["data"][:] = rng.standard_normal(data_shape).astype(np.float32)
    exe.arg_dict["softmax_label"][:] = rng.integers(0, 10, batch).astype(np.float32)
    return exe


def _mixed_steps(exe, params, steps):
    for _ in range(steps):
        exe.forward(is_train=True)
        exe.backward()
        for w, g in params:
            w -= LR * g


def _mixed_steps_unfused(exe, params, steps):
    for _ in range(steps):
        exe.forward(is_train=True)
        exe.backward()
        for w, g in params:
            t = LR * g  # named: the two ops run as written
            w -= t


def _graph_steps(exe, steps):
    for _ in range(steps):
        exe.forward(is_train=True)
        exe.backward()


def bench(name, sym, data_shape, steps, runs, mixed_steps=_mixed_steps):
    batch = data_shape[0]
    arg_shapes, _, _ = sym.infer_shape(data=data_shape)
    rng = np.random.default_rng(0)
    init = {n: (rng.standard_normal(s) * 0.05).astype(np.float32)
            for n, s in zip(sym.list_arguments(), arg_shapes) if n not in ("data", "softmax_label")}
    mixed = _bind(sym, data_shape, init, batch, update=False)
    graph = _bind(sym, data_shape, init, batch, update=True)
    params = [(mixed.arg_dict[n], mixed.grad_dict[n]) for n in init]

    # Same weights after the same number of steps (warm-up doubles as the check).
    mixed_steps(mixed, params, 3)
    _graph_steps(graph, 3)
    worst = max(float(np.abs(mixed.arg_dict[n].asnumpy() - graph.arg_dict[n].asnumpy()).max()) for n in init)
    if worst > 1e-5:
        raise SystemExit("%s: the two loops disagree on the weights (max abs diff %g)" % (name, worst))

    t_mixed, t_graph = [], []
    for _ in range(runs):
        weft.nd.waitall()
        t0 = time.perf_counter()
        mixed_steps(mixed, params, steps)
        weft.nd.waitall()
        t_mixed.append((time.perf_counter() - t0) / steps)
        t0 = time.perf_counter()
        _graph_steps(graph, steps)
        weft.nd.waitall()
        t_graph.append((time.perf_counter() - t0) / steps)
    m, g = statistics.median(t_mixed), statistics.median(t_graph)
    print("%-10s  mixed %8.3f ms/step   one graph %8.3f ms/step   ratio %.3f   (weights agree: %.1e)"
          % (name, m * 1e3, g * 1e3, m / g, worst))
    return m / g


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-fusion", action="store_true", help="name the temporary: w -= t, two ops")
    args = ap.parse_args()
    mixed = _mixed_steps_unfused if args.no_fusion else _mixed_steps
    print(frameworks.machine_line())
    print("weft mixed loop vs one graph; engine=%s, %d steps x %d runs, median"
          % (os.environ.get("WEFT_ENGINE", "threaded"), args.steps, args.runs))
    ratios = [bench("mlp", nets.mlp(), (128, 784), args.steps, args.runs, mixed),
              bench("small-cnn", nets.small_cnn(), (64, 1, 28, 28), args.steps, args.runs, mixed)]
    if not args.no_fusion:
        print("updates fused: %d" % weft.ndarray.axpy.fused_count())
    print("target: ratio <= 1.03 -> %s" % ("met" if max(ratios) <= 1.03 else "NOT met"))


if __name__ == "__main__":
    main()
