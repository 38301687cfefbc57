"""weft.np against weft.nd (and MXNet 1.9.1's mx.np / mx.nd, NumPy, PyTorch), measured in the same run.

Issue 37's benchmark: NumPy-mode code must cost no more than the same code on the legacy
front end (target: weft.np / weft.nd <= 1.10 in every case). Cases:

  axpb_100     ``x = x * a + b`` on (100,) float32 arrays (a, b arrays of the same shape),
  axpb_10000   the same on (10000,) arrays: --iters iterations, then one wait; microseconds
               per iteration. Measures the Python call path (operator dunders, type
               promotion, _invoke) far more than the kernels.
  mlp50        50 training steps of an MLP 784-256-10 on random data (batch 64): forward
               under autograd.record, softmax cross-entropy written with log_softmax and
               pick, backward, and SGD by hand (``w -= lr * w.grad``); milliseconds per 50 steps.

Columns ("sides"): weft-nd (the reference of every ratio), weft-np, mxnet-nd, mxnet-np,
numpy (the element-wise cases only: it has no autograd) and torch; with --baseline DIR also
weft-np@base, weft.np imported from another checkout's bindings/python (same libweft), so a
change to the np front end gets its before/after ratios from one run. The code of each case is
written once over a small adapter per side (Note [One loop, every front end]). MXNet and
PyTorch run under their own interpreters (benchmarks/frameworks.py: --mxnet-python /
--torch-python, else $WEFT_MXNET_PYTHON / $WEFT_TORCH_PYTHON); a side whose interpreter
cannot import its framework is left out with a note.

Every side runs in its own fresh process with the same thread settings (--threads: OMP,
OpenBLAS and MKL threads, one engine worker, torch.set_num_threads). As in gluon_vs_torch.py
(Note [Paired rounds] there), the machine is shared and its load moves, so each of --rounds
rounds spawns every side back to back (the order rotating) and the ratios are taken within
a round; the table gives each side's median time and the median (and range) of the
per-round ratios against weft-nd, twice: wall-clock time, and CPU time (all threads of
the process: what the side spent, whatever its neighbours on the machine did; with one
engine worker and one BLAS thread it is the truer measure on a loaded machine).

    PYTHONPATH=bindings/python python benchmarks/np_vs_nd.py [--rounds 5] [--iters 2000]
        [--mxnet-python /tmp/venv-mx/bin/python] [--torch-python /tmp/venv-torch/bin/python]
        [--baseline /path/to/other/checkout/bindings/python]

Note [One loop, every front end]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
A side is a namespace of the few calls the cases need (array from NumPy, dot, relu,
log_softmax, pick, record, wait). The loops are written once over that namespace, so
weft-np and weft-nd run the very same Python, as do mxnet-np and mxnet-nd: a ratio measures
the front end, not two ways of writing the model.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import types

import numpy as onp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import frameworks as fw_env  # noqa: E402  pylint: disable=wrong-import-position

SIDES = ["weft-nd", "weft-np", "mxnet-nd", "mxnet-np", "numpy", "torch"]
CASES = ["axpb_100", "axpb_10000", "mlp50"]
BATCH, IN, HIDDEN, OUT, STEPS, LR = 64, 784, 256, 10, 50, 0.1


# ---- the sides (Note [One loop, every front end]) ---------------------------------------------------------------
def _mx_side(mod, api):
    """weft or mxnet, through its np (with npx) or its nd front end."""
    s = types.SimpleNamespace(name="%s-%s" % (mod.__name__, api), wait=mod.nd.waitall)
    if api == "np":
        np, npx = mod.np, mod.npx
        npx.set_np()
        s.array = lambda a: np.array(a, dtype=a.dtype)
        s.dot, s.relu, s.log_softmax = np.dot, npx.relu, npx.log_softmax
        s.pick = lambda p, y: npx.pick(p, y)
    else:
        nd = mod.nd
        s.array = lambda a: nd.array(a, dtype=a.dtype)
        s.dot, s.relu, s.log_softmax = nd.dot, nd.relu, nd.log_softmax
        s.pick = lambda p, y: nd.pick(p, y)
    s.record = mod.autograd.record
    s.attach = lambda w: w.attach_grad()
    s.backward = lambda loss: loss.backward()
    s.grad = lambda w: w.grad
    s.no_grad = _null_context
    return s


class _null_context:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _numpy_side():
    return types.SimpleNamespace(name="numpy", wait=lambda: None, array=lambda a: a.copy())


def _torch_side(threads):
    import torch  # pylint: disable=import-outside-toplevel,import-error
    torch.set_num_threads(threads)
    s = types.SimpleNamespace(name="torch", wait=lambda: None)
    s.array = lambda a: torch.from_numpy(a.copy())
    s.dot, s.relu = torch.matmul, torch.relu
    s.log_softmax = lambda o: torch.log_softmax(o, dim=-1)
    s.pick = lambda p, y: p.gather(1, y.long().view(-1, 1)).view(-1)
    s.record = _null_context
    s.no_grad = torch.no_grad

    def attach(w):
        w.requires_grad_(True)
    s.attach = attach
    s.backward = lambda loss: loss.backward()

    def grad(w):
        g = w.grad
        w.grad = None  # as 'write': each step's gradient replaces the last
        return g
    s.grad = grad
    return s


def make_side(name, threads):
    if name == "numpy":
        return _numpy_side()
    if name == "torch":
        return _torch_side(threads)
    framework, api = name.split("-")
    if framework == "mxnet":
        import mxnet as mod  # pylint: disable=import-outside-toplevel,import-error
    else:
        import weft as mod  # pylint: disable=import-outside-toplevel
    return _mx_side(mod, api)


def side_info(name):
    """What the side computes with: BLAS and oneDNN as its framework reports them."""
    if name.startswith("weft"):
        return fw_env.machine_line().split("; ", 1)[1]
    if name.startswith("mxnet"):
        import mxnet  # pylint: disable=import-outside-toplevel,import-error
        feats = mxnet.runtime.Features()
        on = [f for f in ("BLAS_OPEN", "BLAS_MKL", "MKLDNN", "OPENMP") if feats.is_enabled(f)]
        return "mxnet %s (%s)" % (mxnet.__version__, ", ".join(on))
    if name == "torch":
        import torch  # pylint: disable=import-outside-toplevel,import-error
        return "torch %s (mkldnn %s, %d threads)" % (torch.__version__, torch.backends.mkldnn.is_available(),
                                                    torch.get_num_threads())
    return "numpy %s" % onp.__version__


# ---- the cases ---------------------------------------------------------------------------------------------------
def _timed(run, reps, per):
    """(wall, cpu) seconds of run() divided by per, each the median of reps timings."""
    wall, cpu = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        run()
        wall.append((time.perf_counter() - t0) / per)
        cpu.append((time.process_time() - c0) / per)
    return statistics.median(wall), statistics.median(cpu)


def axpb(s, n, iters, reps):
    """(wall, cpu) seconds per iteration of x = x * a + b."""
    a = s.array(onp.full((n,), 0.5, dtype=onp.float32))
    b = s.array(onp.full((n,), 1.0, dtype=onp.float32))
    x = s.array(onp.ones((n,), dtype=onp.float32))
    for _ in range(20):
        x = x * a + b
    s.wait()

    def run():
        y = x
        for _ in range(iters):
            y = y * a + b
        s.wait()
    return _timed(run, reps, iters)


def mlp(s, reps):
    """(wall, cpu) seconds per STEPS training steps of the MLP."""
    rng = onp.random.default_rng(0)
    data = s.array(rng.standard_normal((BATCH, IN)).astype(onp.float32))
    label = s.array(rng.integers(0, OUT, BATCH).astype(onp.float32))
    params = [s.array((rng.standard_normal(shape) * scale).astype(onp.float32))
              for shape, scale in (((IN, HIDDEN), 0.05), ((HIDDEN,), 0.0), ((HIDDEN, OUT), 0.05), ((OUT,), 0.0))]
    for w in params:
        s.attach(w)
    w1, b1, w2, b2 = params

    def step():
        with s.record():
            h = s.relu(s.dot(data, w1) + b1)
            loss = -s.pick(s.log_softmax(s.dot(h, w2) + b2), label).mean()
        s.backward(loss)
        with s.no_grad():
            for w in params:
                w -= LR * s.grad(w)
        return loss

    for _ in range(3):
        step()
    s.wait()
    last = []

    def run():
        for _ in range(STEPS):
            loss = step()
        s.wait()
        last[:] = [loss]
    res = _timed(run, reps, 1)
    final = float(last[0].item() if hasattr(last[0], "item") else last[0].asscalar())
    if not onp.isfinite(final):
        raise SystemExit("%s: the MLP's loss is %r" % (s.name, final))
    return res


def run_child(args):
    s = make_side(args.side, args.threads)
    out = {"info": side_info(args.side)}
    for case in args.cases:
        if case.startswith("axpb_"):
            out[case] = axpb(s, int(case.split("_")[1]), args.iters, args.reps)
        elif args.side != "numpy":
            out[case] = mlp(s, args.reps)
    print(json.dumps(out))


# ---- driver ------------------------------------------------------------------------------------------------------
def _framework(side):
    return {"mxnet-nd": "mxnet", "mxnet-np": "mxnet", "torch": "torch"}.get(side, "weft")


def _spawn(side, args):
    t = str(args.threads)
    fw = _framework(side)
    env = fw_env.child_env(fw, OMP_NUM_THREADS=t, OPENBLAS_NUM_THREADS=t, MKL_NUM_THREADS=t,
                           WEFT_CPU_WORKER_NTHREADS="1", MXNET_CPU_WORKER_NTHREADS="1")
    if side.endswith("@base"):  # the same side over another checkout's Python binding (--baseline)
        env["PYTHONPATH"] = os.path.abspath(args.baseline)
        side = side[:-len("@base")]
    cmd = [fw_env.python_for(fw, args), os.path.abspath(__file__), "--child", "--side", side,
           "--threads", t, "--iters", str(args.iters), "--reps", str(args.reps), "--cases"] + args.cases
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1200)
    if res.returncode != 0:
        raise SystemExit("%s failed:\n%s" % (side, res.stderr[-3000:]))
    return json.loads(res.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=2000, help="iterations of x = x * a + b per timing")
    ap.add_argument("--reps", type=int, default=3, help="timings per process (their median is the round's)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--sides", nargs="+", default=SIDES)
    ap.add_argument("--cases", nargs="+", default=CASES, choices=CASES)
    ap.add_argument("--baseline", default=None, metavar="DIR",
                    help="another checkout's bindings/python: adds the side weft-np@base, weft.np run from "
                         "there in the same rounds (a before/after figure from one run)")
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--side", default=None)
    fw_env.add_options(ap)
    args = ap.parse_args()
    if args.child:
        run_child(args)
        return
    print(fw_env.machine_line())
    print("threads: OMP/OpenBLAS/MKL %d, one engine worker (WEFT_/MXNET_CPU_WORKER_NTHREADS=1); %d rounds, "
          "axpb %d iterations x %d timings, mlp %d steps x %d timings" % (
              args.threads, args.rounds, args.iters, args.reps, STEPS, args.reps))
    sides = ["weft-nd"]
    if args.baseline:
        if not os.path.isdir(os.path.join(args.baseline, "weft")):
            raise SystemExit("--baseline %s: no weft package there" % args.baseline)
        args.sides = list(args.sides) + ["weft-np@base"]
    for side in args.sides:
        if side == "weft-nd":
            continue
        ok, what = fw_env.available(_framework(side), args)
        if ok:
            sides.append(side)
        else:
            print("%s left out: %s" % (side, what))
    rounds, infos = [], {}
    for r in range(args.rounds):
        order = sides[r % len(sides):] + sides[:r % len(sides)]
        got = {}
        for side in order:
            got[side] = _spawn(side, args)
            infos[side] = got[side].pop("info")
        rounds.append(got)
        print("  round %d done" % (r + 1), file=sys.stderr, flush=True)
    for side in sides:
        print("%-9s %s" % (side, infos[side]))
    width = {s: max(11, len(s) + 2) for s in sides}  # weft-np@base is wider than the usual names
    rwidth = {s: max(22, len(s) + 15) for s in sides}
    for k, clock in enumerate(("wall-clock", "CPU")):
        print("%s time (median over rounds; ratios: median of the per-round ratios, range)" % clock)
        print("%-11s" % "case" + "".join("%*s" % (width[s], s) for s in sides) + "".join(
            "%*s" % (rwidth[s], "%s/nd (range)" % s) for s in sides[1:]) + "   target weft-np/nd")
        for case in args.cases:
            unit, scale = ("us/iter", 1e6) if case.startswith("axpb") else ("ms/50 steps", 1e3)
            line = "%-11s" % case
            for side in sides:
                vals = [r[side][case][k] for r in rounds if case in r[side]]
                line += "%*.2f" % (width[side], statistics.median(vals) * scale) if vals else \
                    "%*s" % (width[side], "-")
            for side in sides[1:]:
                ratios = sorted(r[side][case][k] / r["weft-nd"][case][k] for r in rounds if case in r[side])
                line += "%*.3f %6.3f-%-6.3f" % (rwidth[side] - 14, statistics.median(ratios), ratios[0], ratios[-1]) \
                    if ratios else "%*s" % (rwidth[side], "-")
            print(line + "   <= 1.10  (%s)" % unit)


if __name__ == "__main__":
    main()
