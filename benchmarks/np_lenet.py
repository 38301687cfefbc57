"""The d2l LeNet's training step in NumPy mode: Weft against MXNet 1.9.1, measured in the same run.

Issue 39's benchmark (target: Weft <= 0.9x MXNet, imperatively and hybridized). The
model and the step are the book's (MXNet edition, chapter "Convolutional Neural
Networks"): ``npx.set_np()``; Conv2D(6, 5, padding=2, sigmoid) -> AvgPool2D(2, 2) ->
Conv2D(16, 5, sigmoid) -> AvgPool2D(2, 2) -> Dense(120, sigmoid) -> Dense(84, sigmoid) ->
Dense(10); SoftmaxCrossEntropyLoss, ``autograd.record()``, ``backward()``,
``Trainer('sgd').step``; a batch of 64 Fashion-MNIST-shaped images (1, 28, 28) of random
data. The same code runs on ``import weft as mx`` and ``import mxnet as mx`` (Note [One
loop, every front end] in np_vs_nd.py).

Each side runs in its own fresh process with one thread (OMP/OpenBLAS/MKL threads, one
engine worker); each of --rounds rounds spawns every side back to back, the order
rotating, and the ratios are taken within a round (Note [Paired rounds] in
gluon_vs_torch.py). Times are per step: wall-clock and CPU time (all threads of the
process), medians of --reps timings of --steps steps.

    PYTHONPATH=bindings/python python benchmarks/np_lenet.py [--rounds 5] [--steps 30]
        [--mxnet-python /tmp/venv-mx/bin/python]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import frameworks as fw_env  # noqa: E402  pylint: disable=wrong-import-position

SIDES = ["weft", "weft-hybrid", "mxnet", "mxnet-hybrid"]
BATCH = 64


def lenet(mx):
    nn = mx.gluon.nn
    net = nn.HybridSequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=5, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Dense(120, activation="sigmoid"),
            nn.Dense(84, activation="sigmoid"),
            nn.Dense(10))
    return net


def run_child(args):
    import numpy as onp  # pylint: disable=import-outside-toplevel
    if args.side.startswith("mxnet"):
        import mxnet as mx  # pylint: disable=import-outside-toplevel,import-error
    else:
        import weft as mx  # pylint: disable=import-outside-toplevel
    np, npx = mx.np, mx.npx
    npx.set_np()
    mx.random.seed(0)
    net = lenet(mx)
    net.initialize(mx.init.Xavier())
    if args.side.endswith("hybrid"):
        net.hybridize()
    trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.9})
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    rs = onp.random.RandomState(0)
    x = np.array(rs.uniform(size=(BATCH, 1, 28, 28)).astype("float32"))
    y = np.array(rs.randint(0, 10, BATCH).astype("float32"))

    def step():
        with mx.autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(BATCH)
        return loss

    for _ in range(5):
        step()
    mx.nd.waitall()
    wall, cpu = [], []
    for _ in range(args.reps):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(args.steps):
            loss = step()
        float(loss.mean())  # waits for the last step
        wall.append((time.perf_counter() - t0) / args.steps)
        cpu.append((time.process_time() - c0) / args.steps)
    final = float(loss.mean())
    if not onp.isfinite(final):
        raise SystemExit("%s: the loss is %r" % (args.side, final))
    print(json.dumps({"wall": statistics.median(wall), "cpu": statistics.median(cpu),
                      "version": "%s %s" % (mx.__name__, getattr(mx, "__version__", "?"))}))


def _spawn(side, args):
    fw = "mxnet" if side.startswith("mxnet") else "weft"
    t = "1"
    env = fw_env.child_env(fw, OMP_NUM_THREADS=t, OPENBLAS_NUM_THREADS=t, MKL_NUM_THREADS=t,
                           WEFT_CPU_WORKER_NTHREADS="1", MXNET_CPU_WORKER_NTHREADS="1")
    cmd = [fw_env.python_for(fw, args), os.path.abspath(__file__), "--child", "--side", side,
           "--steps", str(args.steps), "--reps", str(args.reps)]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1200)
    if res.returncode != 0:
        raise SystemExit("%s failed:\n%s" % (side, res.stderr[-3000:]))
    return json.loads(res.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    fw_env.add_options(ap)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--side", default=None, choices=SIDES)
    args = ap.parse_args()
    if args.child:
        run_child(args)
        return
    print(fw_env.machine_line())
    print("one thread (OMP/OpenBLAS/MKL 1, one engine worker); batch %d; %d rounds, %d timings of %d steps"
          % (BATCH, args.rounds, args.reps, args.steps))
    sides = ["weft", "weft-hybrid"]
    ok, what = fw_env.available("mxnet", args)
    if ok:
        sides += ["mxnet", "mxnet-hybrid"]
    else:
        print("mxnet left out: %s" % what)
    rounds, versions = [], {}
    for r in range(args.rounds):
        got = {}
        for side in sides[r % len(sides):] + sides[:r % len(sides)]:
            got[side] = _spawn(side, args)
            versions[side] = got[side]["version"]
        rounds.append(got)
        print("  round %d done" % (r + 1), file=sys.stderr, flush=True)
    for side in sides:
        print("%-13s %s" % (side, versions[side]))
    print("%-13s %12s %12s %22s" % ("side", "wall ms", "CPU ms", "CPU / mxnet (range)"))
    for side in sides:
        wall = statistics.median(r[side]["wall"] for r in rounds) * 1e3
        cpu = statistics.median(r[side]["cpu"] for r in rounds) * 1e3
        ref = "mxnet-hybrid" if side.endswith("hybrid") else "mxnet"
        if ref in sides:
            ratios = sorted(r[side]["cpu"] / r[ref]["cpu"] for r in rounds)
            rtext = "%.3f %.3f-%.3f" % (statistics.median(ratios), ratios[0], ratios[-1])
        else:
            rtext = "-"
        print("%-13s %12.2f %12.2f %22s" % (side, wall, cpu, rtext))
    print("target: weft / mxnet <= 0.90 (imperative and hybridized)")


if __name__ == "__main__":
    main()
