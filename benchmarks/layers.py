"""Forward and backward time per layer: weft (oneDNN path and portable path) vs PyTorch CPU.

Layer shapes of LeNet (MNIST, batch 64) and ResNet-18 (ImageNet 224x224, batch 8 by default),
float32. weft's backward is the registered backward op called directly
(weft.nd._backward_<Op>); PyTorch's is torch.autograd.grad over a graph built once
(retain_graph), so both time the backward kernels, not the forward again.

Each thread count runs in its own process, because the thread pools read their size
at start-up: WEFT_OMP_THREADS (weft's loops and oneDNN's OpenMP), OPENBLAS_NUM_THREADS
and OMP_NUM_THREADS are set before weft and torch are imported, and
torch.set_num_threads(n). Within a process WEFT_USE_DNNL selects weft's kernel path per
call: the "dnnl" columns use oneDNN wherever weft has a oneDNN kernel (WEFT_USE_DNNL=all),
"portable" none (WEFT_USE_DNNL=0); weft's default (unset) is oneDNN except for max pooling's
backward, which takes the portable loops. Times are medians of --repeat runs; ratios are weft time /
PyTorch time (below 1: weft is faster).

    PYTHONPATH=bindings/python WEFT_LIBRARY_PATH=build-conv/libweft.so \\
        python benchmarks/layers.py [--threads 1 2] [--batch 8] [--only resnet]

Layer classes: conv, fc, pool (registered forward op + _backward_<Op> called directly), BatchNorm
in training mode (through a bound executor: forward(is_train=True) / backward), SoftmaxOutput (vs
torch cross_entropy, reduction='sum', whose logits gradient is the same softmax - one_hot) and
Activation relu. weft has no oneDNN kernel for the last three, so they are timed once (portable)
and the dnnl columns repeat that time. After the per-layer table, each thread count gets a summary
per layer class: sum of weft times / sum of torch times, and the geometric mean of per-layer ratios.
--kinds limits the run to some classes (conv fc pool bn softmax relu).

Layer kinds are a table (KINDS): a kind builds weft and PyTorch callables for a layer row
(weft_callables / torch_inputs when the default "forward op + _backward_<Op>" does not fit);
add a kind class and rows to layers() for new layer types.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np


# ---- layer kinds ---------------------------------------------------------------------------------

class Conv:
    """Convolution: attrs in MXNet names (kernel, stride, pad, num_filter, num_group, no_bias)."""
    op = "Convolution"

    @staticmethod
    def weft_inputs(rng, shape, a):
        w = (a["num_filter"], shape[1] // a.get("num_group", 1)) + tuple(a["kernel"])
        ins = [rng.standard_normal(shape), rng.standard_normal(w)]
        return ins + ([] if a.get("no_bias") else [rng.standard_normal(a["num_filter"])])

    @staticmethod
    def torch_forward(F, ins, a):
        conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[len(a["kernel"])]
        return conv(ins[0], ins[1], ins[2] if len(ins) > 2 else None, stride=a.get("stride", 1),
                    padding=a.get("pad", 0), groups=a.get("num_group", 1))


class FullyConnected:
    op = "FullyConnected"

    @staticmethod
    def weft_inputs(rng, shape, a):
        in_dim = int(np.prod(shape[1:]))
        ins = [rng.standard_normal(shape), rng.standard_normal((a["num_hidden"], in_dim))]
        return ins + ([] if a.get("no_bias") else [rng.standard_normal(a["num_hidden"])])

    @staticmethod
    def torch_forward(F, ins, a):
        return F.linear(ins[0].reshape(ins[0].shape[0], -1), ins[1], ins[2] if len(ins) > 2 else None)


class Pooling:
    op = "Pooling"

    @staticmethod
    def weft_inputs(rng, shape, a):
        return [rng.standard_normal(shape)]

    @staticmethod
    def torch_forward(F, ins, a):
        x = ins[0]
        if a.get("global_pool"):
            return F.adaptive_avg_pool2d(x, 1) if a.get("pool_type") == "avg" else F.adaptive_max_pool2d(x, 1)
        if a.get("pool_type") == "avg":
            return F.avg_pool2d(x, a["kernel"], a.get("stride"), a.get("pad", 0))
        return F.max_pool2d(x, a["kernel"], a.get("stride"), a.get("pad", 0))


class BatchNorm:
    """BatchNorm in training mode (batch statistics), fix_gamma=False, gradients of data, gamma, beta.

    weft: ``weft.nd.BatchNorm`` runs the inference path (no training flag in the imperative call), so
    weft goes through a bound executor: ``weft.sym.BatchNorm(...).simple_bind`` then
    ``exe.forward(is_train=True)`` / ``exe.backward(dy)`` (which runs the registered
    _backward_BatchNorm). The executor adds its (small) per-call overhead. weft has no oneDNN
    BatchNorm kernel, so only the portable path is timed. PyTorch: F.batch_norm(training=True)."""
    op = "BatchNorm"
    dnnl = False

    @staticmethod
    def weft_inputs(rng, shape, a):
        c = shape[1]
        return [rng.standard_normal(shape), 1 + 0.1 * rng.standard_normal(c), 0.1 * rng.standard_normal(c)]

    @staticmethod
    def weft_callables(weft, xs, attrs, rng):
        data = weft.sym.Variable("data")
        sym = weft.sym.BatchNorm(data, fix_gamma=False, eps=attrs.get("eps", 1e-5),
                                 momentum=attrs.get("momentum", 0.9), name="bn")
        exe = sym.simple_bind(weft.cpu(), data=xs[0].shape)
        exe.arg_dict["data"][:] = xs[0]
        exe.arg_dict["bn_gamma"][:] = xs[1]
        exe.arg_dict["bn_beta"][:] = xs[2]
        y = exe.forward(is_train=True)[0]
        dy = weft.nd.array(rng.standard_normal(y.shape).astype(np.float32))

        def fwd():
            exe.forward(is_train=True)
            weft.nd.waitall()

        def bwd():
            exe.backward([dy])
            weft.nd.waitall()
        return fwd, bwd

    @staticmethod
    def torch_forward(F, ins, a):
        import torch  # pylint: disable=import-outside-toplevel
        c = ins[0].shape[1]
        rm, rv = torch.zeros(c), torch.ones(c)
        return F.batch_norm(ins[0], rm, rv, ins[1], ins[2], training=True, momentum=1 - a.get("momentum", 0.9),
                            eps=a.get("eps", 1e-5))


class SoftmaxOut:
    """SoftmaxOutput (softmax forward; backward softmax - one_hot(label), normalization 'null').

    weft: weft.nd.SoftmaxOutput forward, weft.nd._backward_SoftmaxOutput(output, label) backward.
    PyTorch: F.cross_entropy(reduction='sum') (log_softmax + nll; its gradient wrt the logits is the
    same softmax - one_hot), backward by autograd. No oneDNN kernel in weft: portable path only."""
    op = "SoftmaxOutput"
    dnnl = False

    @staticmethod
    def weft_inputs(rng, shape, a):
        return [rng.standard_normal(shape), rng.integers(0, shape[1], shape[0]).astype(np.float32)]

    @staticmethod
    def weft_callables(weft, xs, attrs, rng):
        x, label = (weft.nd.array(v.astype(np.float32)) for v in xs)
        y = weft.nd.SoftmaxOutput(x, label, **attrs)

        def fwd():
            weft.nd.SoftmaxOutput(x, label, **attrs)
            weft.nd.waitall()

        def bwd():
            weft.nd._backward_SoftmaxOutput(y, label, **attrs)  # pylint: disable=protected-access
            weft.nd.waitall()
        return fwd, bwd

    @staticmethod
    def torch_inputs(torch, xs):
        return [torch.tensor(xs[0].astype(np.float32), requires_grad=True), torch.tensor(xs[1].astype(np.int64))]

    @staticmethod
    def torch_forward(F, ins, a):
        return F.cross_entropy(ins[0], ins[1], reduction="sum")


class Activation:
    """Activation (act_type from attrs, relu in LAYERS): weft.nd.Activation and
    weft.nd._backward_Activation(out_grad, output) (relu needs no data); PyTorch F.relu + autograd.
    No oneDNN kernel in weft: portable path only."""
    op = "Activation"
    dnnl = False

    @staticmethod
    def weft_inputs(rng, shape, a):
        return [rng.standard_normal(shape)]

    @staticmethod
    def weft_callables(weft, xs, attrs, rng):
        x = weft.nd.array(xs[0].astype(np.float32))
        y = weft.nd.Activation(x, **attrs)
        dy = weft.nd.array(rng.standard_normal(y.shape).astype(np.float32))

        def fwd():
            weft.nd.Activation(x, **attrs)
            weft.nd.waitall()

        def bwd():
            weft.nd._backward_Activation(dy, y, **attrs)  # pylint: disable=protected-access
            weft.nd.waitall()
        return fwd, bwd

    @staticmethod
    def torch_forward(F, ins, a):
        return {"relu": F.relu, "sigmoid": F.sigmoid, "tanh": F.tanh}[a["act_type"]](ins[0])


KINDS = {"conv": Conv, "fc": FullyConnected, "pool": Pooling, "bn": BatchNorm, "softmax": SoftmaxOut,
         "relu": Activation}


def layers(batch):
    """(network, name, kind, data shape, attrs)."""
    lenet, b = 64, batch
    return [
        ("lenet", "conv1 5x5 1->20", "conv", (lenet, 1, 28, 28), dict(kernel=(5, 5), num_filter=20)),
        ("lenet", "pool1 max 2x2/2", "pool", (lenet, 20, 24, 24), dict(kernel=(2, 2), stride=(2, 2))),
        ("lenet", "conv2 5x5 20->50", "conv", (lenet, 20, 12, 12), dict(kernel=(5, 5), num_filter=50)),
        ("lenet", "pool2 max 2x2/2", "pool", (lenet, 50, 8, 8), dict(kernel=(2, 2), stride=(2, 2))),
        ("lenet", "fc1 800->500", "fc", (lenet, 800), dict(num_hidden=500)),
        ("lenet", "fc2 500->10", "fc", (lenet, 500), dict(num_hidden=10)),
        ("resnet18", "conv1 7x7/2 3->64", "conv", (b, 3, 224, 224),
         dict(kernel=(7, 7), stride=(2, 2), pad=(3, 3), num_filter=64, no_bias=True)),
        ("resnet18", "maxpool 3x3/2", "pool", (b, 64, 112, 112), dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1))),
        ("resnet18", "layer1 3x3 64@56", "conv", (b, 64, 56, 56),
         dict(kernel=(3, 3), pad=(1, 1), num_filter=64, no_bias=True)),
        ("resnet18", "layer2 3x3/2 64->128", "conv", (b, 64, 56, 56),
         dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=128, no_bias=True)),
        ("resnet18", "layer2 down 1x1/2", "conv", (b, 64, 56, 56),
         dict(kernel=(1, 1), stride=(2, 2), num_filter=128, no_bias=True)),
        ("resnet18", "layer2 3x3 128@28", "conv", (b, 128, 28, 28),
         dict(kernel=(3, 3), pad=(1, 1), num_filter=128, no_bias=True)),
        ("resnet18", "layer3 3x3 256@14", "conv", (b, 256, 14, 14),
         dict(kernel=(3, 3), pad=(1, 1), num_filter=256, no_bias=True)),
        ("resnet18", "layer4 3x3 512@7", "conv", (b, 512, 7, 7),
         dict(kernel=(3, 3), pad=(1, 1), num_filter=512, no_bias=True)),
        ("resnet18", "avgpool global", "pool", (b, 512, 7, 7), dict(global_pool=True, pool_type="avg")),
        ("resnet18", "fc 512->1000", "fc", (b, 512), dict(num_hidden=1000)),
        ("lenet", "relu @conv1 out", "relu", (lenet, 20, 24, 24), dict(act_type="relu")),
        ("lenet", "relu @conv2 out", "relu", (lenet, 50, 8, 8), dict(act_type="relu")),
        ("lenet", "relu @fc1 out", "relu", (lenet, 500), dict(act_type="relu")),
        ("lenet", "softmax out 10", "softmax", (lenet, 10), {}),
        ("resnet18", "bn1 64@112", "bn", (b, 64, 112, 112), {}),
        ("resnet18", "bn layer1 64@56", "bn", (b, 64, 56, 56), {}),
        ("resnet18", "bn layer2 128@28", "bn", (b, 128, 28, 28), {}),
        ("resnet18", "bn layer3 256@14", "bn", (b, 256, 14, 14), {}),
        ("resnet18", "bn layer4 512@7", "bn", (b, 512, 7, 7), {}),
        ("resnet18", "relu 64@112", "relu", (b, 64, 112, 112), dict(act_type="relu")),
        ("resnet18", "relu layer1 64@56", "relu", (b, 64, 56, 56), dict(act_type="relu")),
        ("resnet18", "relu layer2 128@28", "relu", (b, 128, 28, 28), dict(act_type="relu")),
        ("resnet18", "relu layer3 256@14", "relu", (b, 256, 14, 14), dict(act_type="relu")),
        ("resnet18", "relu layer4 512@7", "relu", (b, 512, 7, 7), dict(act_type="relu")),
        ("resnet18", "softmax out 1000", "softmax", (b, 1000), {}),
    ]


# ---- timing --------------------------------------------------------------------------------------

def timeit(fn, repeat, min_time=0.2):
    """Median seconds per call: calls are batched so one measurement lasts >= min_time."""
    fn()
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-6)
    n = max(1, int(min_time / once))
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - t0) / n)
    return statistics.median(runs)


def bench_weft(kind, shape, attrs, repeat):
    import weft  # pylint: disable=import-outside-toplevel
    rng = np.random.default_rng(0)
    if hasattr(kind, "weft_callables"):
        xs = kind.weft_inputs(rng, shape, attrs)
        out = {}
        for path, env in (("dnnl", "all"), ("portable", "0")):
            if path == "dnnl" and not getattr(kind, "dnnl", True):
                continue
            os.environ["WEFT_USE_DNNL"] = env
            fwd, bwd = kind.weft_callables(weft, xs, attrs, rng)  # built under this path's setting
            out[path] = (timeit(fwd, repeat), timeit(bwd, repeat))
        out.setdefault("dnnl", out["portable"])  # no oneDNN kernel: the same (portable) code runs
        return out
    ins = [weft.nd.array(x.astype(np.float32)) for x in kind.weft_inputs(rng, shape, attrs)]
    fwd_op = getattr(weft.nd, kind.op)
    bwd_op = getattr(weft.nd, "_backward_" + kind.op)
    y = fwd_op(*ins, **attrs)
    dy = weft.nd.array(rng.standard_normal(y.shape).astype(np.float32))
    third = y if kind.op == "Pooling" else ins[1]

    def fwd():
        fwd_op(*ins, **attrs)
        weft.nd.waitall()

    def bwd():
        bwd_op(dy, ins[0], third, **attrs)
        weft.nd.waitall()
    out = {}
    for path, env in (("dnnl", "all"), ("portable", "0")):
        os.environ["WEFT_USE_DNNL"] = env
        out[path] = (timeit(fwd, repeat), timeit(bwd, repeat))
    return out


def bench_torch(kind, shape, attrs, repeat):
    import torch  # pylint: disable=import-outside-toplevel
    import torch.nn.functional as F  # pylint: disable=import-outside-toplevel
    rng = np.random.default_rng(0)
    xs = kind.weft_inputs(rng, shape, attrs)
    if hasattr(kind, "torch_inputs"):
        ins = kind.torch_inputs(torch, xs)
    else:
        ins = [torch.tensor(x.astype(np.float32), requires_grad=True) for x in xs]
    wrt = [t for t in ins if t.requires_grad]
    with torch.no_grad():
        y0 = kind.torch_forward(F, ins, attrs)
    dy = torch.tensor(rng.standard_normal(tuple(y0.shape)).astype(np.float32))
    y = kind.torch_forward(F, ins, attrs)

    def fwd():
        with torch.no_grad():
            kind.torch_forward(F, ins, attrs)

    def bwd():
        torch.autograd.grad(y, wrt, dy, retain_graph=True)
    return timeit(fwd, repeat), timeit(bwd, repeat)


def child(args):
    import torch  # pylint: disable=import-outside-toplevel
    torch.set_num_threads(args.threads)
    rows = []
    for net, name, kind_name, shape, attrs in layers(args.batch):
        if (args.only and args.only != net) or (args.kinds and kind_name not in args.kinds):
            continue
        kind = KINDS[kind_name]
        w = bench_weft(kind, shape, attrs, args.repeat)
        t = bench_torch(kind, shape, attrs, args.repeat)
        rows.append(dict(net=net, name=name, kind=kind_name, weft=w, torch=t))
        print(json.dumps(rows[-1]), flush=True)


def parent(args):
    results = {}
    for n in args.threads:
        env = dict(os.environ, WEFT_OMP_THREADS=str(n), OPENBLAS_NUM_THREADS=str(n), OMP_NUM_THREADS=str(n))
        cmd = [sys.executable, os.path.abspath(__file__), "--child", "--threads", str(n), "--batch", str(args.batch),
               "--repeat", str(args.repeat)] + (["--only", args.only] if args.only else [])
        cmd += ["--kinds"] + args.kinds if args.kinds else []
        out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        results[n] = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    ms = lambda s: "%8.2f" % (s * 1e3)  # noqa: E731
    for n, rows in results.items():
        print("\n%d thread%s (ms per call; ratio = weft / torch, below 1 is faster)" % (n, "" if n == 1 else "s"))
        print("%-9s %-22s | %8s %8s %8s %6s %6s | %8s %8s %8s %6s %6s" % (
            "net", "layer", "fwd dnnl", "portable", "torch", "r_dnnl", "r_port",
            "bwd dnnl", "portable", "torch", "r_dnnl", "r_port"))
        for r in rows:
            (fd, bd), (fp, bp), (ft, bt) = r["weft"]["dnnl"], r["weft"]["portable"], r["torch"]
            print("%-9s %-22s | %s %s %s %6.2f %6.2f | %s %s %s %6.2f %6.2f" % (
                r["net"], r["name"], ms(fd), ms(fp), ms(ft), fd / ft, fp / ft, ms(bd), ms(bp), ms(bt), bd / bt,
                bp / bt))
        print("summary per layer class (fwd+bwd; 'time' = sum of weft times / sum of torch times, "
              "'geo' = geometric mean of the per-layer fwd+bwd ratios):")
        print("%-8s %4s | %10s %10s | %10s %10s" % ("class", "rows", "dnnl time", "dnnl geo", "port time",
                                                    "port geo"))
        for kind_name in KINDS:
            krows = [r for r in rows if r.get("kind") == kind_name]
            if not krows:
                continue
            cells = []
            for path in ("dnnl", "portable"):
                rs = [sum(r["weft"][path]) / sum(r["torch"]) for r in krows]
                cells += [sum(sum(r["weft"][path]) for r in krows) / sum(sum(r["torch"]) for r in krows),
                          float(np.exp(np.mean(np.log(rs))))]
            print("%-8s %4d | %10.2f %10.2f | %10.2f %10.2f" % ((kind_name, len(krows)) + tuple(cells)))
        for path in ("dnnl", "portable"):
            tot_w = sum(sum(r["weft"][path]) for r in rows)
            tot_t = sum(sum(r["torch"]) for r in rows)
            print("total fwd+bwd, weft %s / torch: %.2f" % (path, tot_w / tot_t))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--batch", type=int, default=8, help="ResNet-18 batch size (LeNet uses 64)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=["lenet", "resnet18"])
    ap.add_argument("--kinds", nargs="+", choices=sorted(KINDS), help="layer classes to run (default: all)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        args.threads = args.threads[0]
        child(args)
    else:
        parent(args)


if __name__ == "__main__":
    main()
