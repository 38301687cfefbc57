"""Gluon vs PyTorch and MXNet 1.9.1 (CPU), same thread count, measured in the same run.

MXNet runs the same Gluon code as weft. PyTorch and MXNet each run under their own
interpreter (their own virtual environments; mxnet==1.9.1 needs numpy<1.24):
--torch-python / --mxnet-python, else $WEFT_TORCH_PYTHON / $WEFT_MXNET_PYTHON, else this
interpreter (benchmarks/frameworks.py); a framework its interpreter cannot import is left
out with a note. --frameworks picks the columns (weft is always one); each ratio is weft /
that framework. The CPU model and the BLAS kernel are printed first.

Cases (each timed as the median of --runs runs of --steps steps, after warm-up):
  mlp        MLP 784-512-512-10 training step, batch 128, two rows: imperative
             (autograd and a hand-written update, ``w -= lr * g`` per parameter, on
             every side; Note [Hand-written update]) and hybridized (a Trainer /
             torch.optim.SGD with momentum); PyTorch eager in both
  lenet      LeNet-5 training step, batch 64 on 1x28x28 (hybridized vs eager)
  resnet18   ResNet-18 v1 inference, batch 1 and 8 at 3x224x224 (hybridized vs
             eager under torch.no_grad)
  resnet18_train  ResNet-18 v1 training step, batch 16 (hybridized + Trainer vs
             eager + torch.optim.SGD, momentum 0.9)
  memory     peak resident memory (ru_maxrss) of a process doing ResNet-18
             training steps at batch 16, weft vs PyTorch, each in its own
             process so the peaks do not mix

Note [Hand-written update]: the imperative MLP row is the paper's mixed loop in Gluon:
the gradients come from autograd and the update is plain SGD written in the host
language (lr / batch, no momentum), `w -= lr * g` in weft and MXNet, `p -= lr * p.grad`
under torch.no_grad() in PyTorch (whose loss sums, so the gradient scale matches).

Every configuration runs in a fresh subprocess under each --mode (benchmarks/thread_modes.py):
1thread and 2threads set OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and torch.set_num_threads to
the count and WEFT_/MXNET_CPU_WORKER_NTHREADS=1 (one engine worker whose OpenMP team has that
many threads, so no side has more busy threads than cores); oob sets no thread variable at
all (each framework's defaults, what a user gets); busy is oob beside a nice-19 busy loop
pinned to one CPU. The header names the CPU, the BLAS (kernel and build config), oneDNN's
ISA and convolution kernel per framework, and weft's thread budget out of the box.
--baseline LIB PYTHONPATH adds a column of weft as it was, measured in the same rounds.
All sides use
softmax cross-entropy and float32, and SGD with momentum 0.9 except in the
imperative row (plain SGD, hand-written).

Why rounds (Note [Paired rounds]): on a shared 2-core machine the second core
comes and goes with the neighbours' load, so two measurements minutes apart can
differ by 1.5x for the same program. Each configuration is therefore measured
in --rounds rounds; a round spawns every framework back to back (the order rotating
from round to round), and the round's ratios compare weft with each of them. The table gives
the median time of each side, the median of the per-round ratios and their
range (issue 38's targets: <= 0.9 at 1 and 2 threads, <= 1.0 out of the box and beside the
busy neighbour; peak RSS <= 0.65 of PyTorch).

    PYTHONPATH=bindings/python python benchmarks/gluon_vs_torch.py [--mode 1thread 2threads oob busy]
        [--cases mlp lenet ...] [--rounds 5] [--baseline old/libweft.so old/bindings/python]
        [--torch-python venv-torch/bin/python] [--mxnet-python venv-mx/bin/python]
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
import thread_modes  # noqa: E402  pylint: disable=wrong-import-position


def _batch_of(case):
    """resnet18_b8 -> 8, resnet18_b16_train -> 16."""
    return int(case.split("_b")[1].split("_")[0])


# ---- weft and MXNet 1.9.1 (the same Gluon code: weft mirrors MXNet's API) ----------------------------------------
def _gluon_module(framework):
    if framework == "mxnet":
        import mxnet  # pylint: disable=import-outside-toplevel,import-error
        return mxnet
    import weft  # pylint: disable=import-outside-toplevel
    return weft


def _weft_net(case, framework="weft"):
    mx = _gluon_module(framework)
    nn, vision = mx.gluon.nn, mx.gluon.model_zoo.vision
    if case == "mlp":
        net = nn.HybridSequential()
        net.add(nn.Dense(512, activation="relu", in_units=784), nn.Dense(512, activation="relu", in_units=512),
                nn.Dense(10, in_units=512))
        return net, (128, 784)
    if case == "lenet":
        net = nn.HybridSequential()
        net.add(nn.Conv2D(6, 5, padding=2, activation="relu", in_channels=1), nn.MaxPool2D(2, 2),
                nn.Conv2D(16, 5, activation="relu", in_channels=6), nn.MaxPool2D(2, 2), nn.Flatten(),
                nn.Dense(120, activation="relu", in_units=400), nn.Dense(84, activation="relu", in_units=120),
                nn.Dense(10, in_units=84))
        return net, (64, 1, 28, 28)
    if case.startswith("resnet18"):
        return vision.resnet18_v1(classes=1000), (_batch_of(case), 3, 224, 224)
    raise SystemExit("unknown case " + case)


def run_weft(case, mode, steps, runs, framework="weft"):
    import numpy as np  # pylint: disable=import-outside-toplevel
    weft = _gluon_module(framework)
    autograd, gluon, nd = weft.autograd, weft.gluon, weft.nd
    weft.random.seed(0)
    net, shape = _weft_net(case, framework)
    net.initialize(weft.init.Xavier())
    if mode != "imperative":
        net.hybridize(static_alloc=True, static_shape=True)
    rng = np.random.default_rng(0)
    x = nd.array(rng.standard_normal(shape).astype(np.float32))
    y = nd.array(rng.integers(0, 10, shape[0]).astype(np.float32))
    if case.startswith("resnet18") and not case.endswith("train"):
        def step():
            net(x).wait_to_read()
    elif mode == "imperative":
        # Note [Hand-written update]: the imperative row updates with w -= lr * g per parameter.
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        params = [(p.data(), p.grad()) for p in net.collect_params().values()]
        lr = 0.01 / shape[0]

        def step():
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            for w, g in params:
                w -= lr * g
    else:
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})

        def step():
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(shape[0])
    return _time(step, steps, runs, nd.waitall)


# ---- PyTorch --------------------------------------------------------------------------------------------------
def _torch_resnet18():
    import torch.nn as tnn  # pylint: disable=import-outside-toplevel

    class Basic(tnn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1 = tnn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.b1 = tnn.BatchNorm2d(cout)
            self.c2 = tnn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.b2 = tnn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride, bias=False), tnn.BatchNorm2d(cout))

        def forward(self, x):
            r = x if self.down is None else self.down(x)
            y = self.b2(self.c2(self.b1(self.c1(x)).relu()))
            return (y + r).relu()

    layers = [tnn.Conv2d(3, 64, 7, 2, 3, bias=False), tnn.BatchNorm2d(64), tnn.ReLU(), tnn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Basic(cin, cout, stride), Basic(cout, cout, 1)]
        cin = cout
    layers += [tnn.AdaptiveAvgPool2d(1), tnn.Flatten(), tnn.Linear(512, 1000)]
    return tnn.Sequential(*layers)


def _torch_net(case):
    import torch.nn as tnn  # pylint: disable=import-outside-toplevel
    if case == "mlp":
        return tnn.Sequential(tnn.Linear(784, 512), tnn.ReLU(), tnn.Linear(512, 512), tnn.ReLU(),
                              tnn.Linear(512, 10)), (128, 784)
    if case == "lenet":
        return tnn.Sequential(tnn.Conv2d(1, 6, 5, padding=2), tnn.ReLU(), tnn.MaxPool2d(2, 2), tnn.Conv2d(6, 16, 5),
                              tnn.ReLU(), tnn.MaxPool2d(2, 2), tnn.Flatten(), tnn.Linear(400, 120), tnn.ReLU(),
                              tnn.Linear(120, 84), tnn.ReLU(), tnn.Linear(84, 10)), (64, 1, 28, 28)
    return _torch_resnet18(), (_batch_of(case), 3, 224, 224)


def run_torch(case, steps, runs, threads, mode="hybridized"):
    import torch  # pylint: disable=import-outside-toplevel
    if threads is not None:  # out of the box (threads None): torch's own default
        torch.set_num_threads(threads)
    torch.manual_seed(0)
    net, shape = _torch_net(case)
    x = torch.randn(shape)
    y = torch.randint(0, 10, (shape[0],))
    if case.startswith("resnet18") and not case.endswith("train"):
        net.eval()

        def step():
            with torch.no_grad():
                net(x)
    elif mode == "imperative":  # Note [Hand-written update]
        loss_fn = torch.nn.CrossEntropyLoss(reduction="sum")
        params = list(net.parameters())
        lr = 0.01 / shape[0]

        def step():
            for p in params:
                p.grad = None
            loss_fn(net(x), y).backward()
            with torch.no_grad():
                for p in params:
                    p -= lr * p.grad
    else:
        loss_fn = torch.nn.CrossEntropyLoss()
        opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

        def step():
            opt.zero_grad()
            loss_fn(net(x), y).backward()
            opt.step()
    return _time(step, steps, runs, lambda: None)


def _time(step, steps, runs, wait):
    for _ in range(2):
        step()
    wait()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        wait()
        times.append((time.perf_counter() - t0) / steps)
    return statistics.median(times)


def peak_memory(framework, steps, threads):
    """ru_maxrss (MiB) of this process after ResNet-18 training steps at batch 16."""
    import resource  # pylint: disable=import-outside-toplevel
    if framework in ("weft", "mxnet"):
        run_weft("resnet18_b16_train", "hybridized", steps, 1, framework)
    else:
        run_torch("resnet18_b16_train", steps, 1, threads)
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# ---- driver ---------------------------------------------------------------------------------------------------
BASELINE = "weft@base"  # the column of --baseline: weft as it was, for before/after in the same rounds


def _child(args):
    threads = thread_modes.mode_threads(args.mode[0])  # the parent passes one mode
    if args.child == "memory":
        print(json.dumps({"mib": peak_memory(args.framework, 2, threads)}))
    elif args.framework in ("weft", "mxnet"):
        print(json.dumps({"s": run_weft(args.case, args.step, args.steps, args.runs, args.framework)}))
    else:
        print(json.dumps({"s": run_torch(args.case, args.steps, args.runs, threads, args.step)}))


_ARGS = None  # the parsed options: which interpreter runs each framework


def _child_env(framework, mode):
    env = thread_modes.env_for(mode, fw_env.child_env(framework))
    if framework == BASELINE:
        lib, python_path = _ARGS.baseline
        env.update(WEFT_LIBRARY_PATH=lib, PYTHONPATH=python_path)
    return env


def _spawn(mode, **kw):
    framework = kw["framework"]
    env = _child_env(framework, mode)
    if framework == BASELINE:
        kw["framework"] = "weft"
    cmd = [fw_env.python_for(kw["framework"], _ARGS), os.path.abspath(__file__), "--child", kw.pop("child"),
           "--mode", mode]
    for k, v in kw.items():
        cmd += ["--" + k, str(v)]
    out = subprocess.run(cmd, env=env, check=False, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("%s failed (%s):\n%s" % (" ".join(cmd), mode, out.stderr[-3000:]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def _paired(mode, rounds, case, step, steps, runs, frameworks):
    """Per-round {framework: seconds (or MiB)}; see Note [Paired rounds]. The order of the
    frameworks rotates from round to round."""
    out = []
    for r in range(rounds):
        order = frameworks[r % len(frameworks):] + frameworks[:r % len(frameworks)]
        got = {}
        for fw in order:
            if case == "memory":
                got[fw] = _spawn(mode, child="memory", framework=fw)["mib"]
            else:
                kw = dict(child="time", framework=fw, case=case, steps=steps, runs=runs, step=step)
                got[fw] = _spawn(mode, **kw)["s"]
        out.append(got)
    return out


def _describe(frameworks):
    """The lines that say what ran: the CPU, the BLAS, oneDNN's ISA and convolution kernel per
    framework, and weft's thread budget out of the box."""
    print(fw_env.machine_line())
    import weft  # pylint: disable=import-outside-toplevel
    print("weft BLAS config: %s" % weft.runtime.blas_info()["config"])
    for fw in frameworks:
        if fw in ("weft", "mxnet", BASELINE):
            env = _child_env(fw, "oob")
            module = "mxnet" if fw == "mxnet" else "weft"
            print("%s oneDNN: %s" % (fw, thread_modes.onednn_kernels(fw_env.python_for(module, _ARGS), module, env)))
    probe = "import json, weft; print(json.dumps(weft.runtime.thread_budget()))"
    out = subprocess.run([sys.executable, "-c", probe], env=_child_env("weft", "oob"), capture_output=True,
                         text=True, check=False)
    print("weft thread budget out of the box: %s" % (out.stdout.strip() or out.stderr.strip().splitlines()[-1:]))


def _target(mode):
    """Issue 38's target for weft / the other framework: <= 0.9 with a fixed thread count (1 or 2),
    <= 1.0 out of the box, alone or beside the busy neighbour."""
    return "0.9" if mode in ("1thread", "2threads") else "1.0"


def _cases(case, mode):
    """The rows of a --cases entry: (case, step mode, steps divisor, target)."""
    target = _target(mode)
    if case == "resnet18":
        return [("resnet18_b1", "hybridized", 1, target), ("resnet18_b8", "hybridized", 4, target)]
    if case == "resnet18_train":
        return [("resnet18_b16_train", "hybridized", 5, target)]
    if case == "mlp":
        return [("mlp", "imperative", 1, target), ("mlp", "hybridized", 1, target)]
    return [(case, "hybridized", 1, target)]


def _print_table(rows, frameworks):
    others = frameworks[1:]
    head = "%-9s %-34s" % ("mode", "case") + "".join("%12s" % f for f in frameworks)
    head += "".join("%22s" % ("weft/%s (range)" % f) for f in others) + "%8s" % "target"
    print(head)
    for mode, name, unit, scale, rounds, target in rows:
        line = "%-9s %-34s" % (mode, name)
        line += "".join("%9.2f %s" % (statistics.median(r[f] for r in rounds) * scale, unit) for f in frameworks)
        for f in others:
            ratios = sorted(r["weft"] / r[f] for r in rounds)
            line += "%8.3f %6.3f-%-6.3f" % (statistics.median(ratios), ratios[0], ratios[-1])
        print(line + "%8s" % ("<=" + target))
    # Issue 38's out-of-the-box target: beside the busy neighbour, <= 1.3x weft's own 1-thread time.
    one = {name: statistics.median(r["weft"] for r in rounds) for mode, name, _, _, rounds, _ in rows
           if mode == "1thread"}
    for mode, name, _, _, rounds, _ in rows:
        if mode in ("oob", "busy") and name in one and "RSS" not in name:
            print("weft %s / weft 1thread, %s: %.3f (target <= 1.3)"
                  % (mode, name, statistics.median(r["weft"] for r in rounds) / one[name]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", nargs="+", default=list(thread_modes.MODES), choices=thread_modes.MODES,
                    help="thread settings, measured side by side (benchmarks/thread_modes.py)")
    ap.add_argument("--cases", nargs="+", default=["mlp", "lenet", "resnet18", "resnet18_train", "memory"])
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--child", default=None)
    ap.add_argument("--framework", default=None)
    ap.add_argument("--case", default=None)
    ap.add_argument("--step", default="hybridized", help="(child) imperative or hybridized")
    ap.add_argument("--frameworks", nargs="+", default=["weft", "torch", "mxnet"],
                    help="weft is always measured; ratios are weft / each other framework")
    ap.add_argument("--baseline", nargs=2, metavar=("LIBWEFT", "PYTHONPATH"), default=None,
                    help="adds a column '%s': weft from this library and Python package, measured in the "
                         "same rounds (before/after a change)" % BASELINE)
    fw_env.add_options(ap)
    args = ap.parse_args()
    if args.child:
        _child(args)
        return
    global _ARGS  # pylint: disable=global-statement
    _ARGS = args
    frameworks = ["weft"] + ([BASELINE] if args.baseline else [])
    for f in args.frameworks:
        if f == "weft":
            continue
        ok, what = fw_env.available(f, args)
        if ok:
            frameworks.append(f)
            print("%s %s: %s" % (f, what, fw_env.python_for(f, args)))
        else:
            print("%s left out: %s" % (f, what))
    _describe(frameworks)
    rows = []
    for mode in args.mode:
        with thread_modes.neighbour(mode == "busy") as cpu:
            if cpu is not None:
                print("busy neighbour: nice 19 busy loop on CPU %d" % cpu, file=sys.stderr, flush=True)
            for case in args.cases:
                if case == "memory":
                    pairs = _paired(mode, max(1, args.rounds // 2), "memory", None, 0, 0, frameworks)
                    rows.append((mode, "resnet18 train b16 peak RSS", "MiB", 1.0, pairs, "0.65"))
                    continue
                for c, step, divisor, target in _cases(case, mode):
                    steps = max(2, args.steps // divisor)
                    pairs = _paired(mode, args.rounds, c, step, steps, args.runs, frameworks)
                    rows.append((mode, "%s (%s)" % (c, step), "ms", 1e3, pairs, target))
                    print("  measured %s %s (%s)" % (mode, c, step), file=sys.stderr, flush=True)
    _print_table(rows, frameworks)


if __name__ == "__main__":
    main()
