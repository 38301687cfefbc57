"""weft vs PyTorch on the same GPU, measured in the same run (issue 9).

Cases: ResNet-18 v1 and VGG-16 (no BN), float32 at 3x224x224:
  train b32   one training step (forward, backward, SGD momentum 0.9 update)
  infer b1    inference, batch 1
  infer b64   inference, batch 64
weft runs hybridized (static_alloc, static_shape); PyTorch eager, inference
under torch.no_grad(). Each number is the median of --runs runs of --steps
steps after warm-up, with the device synchronised at the end of each run
(weft: nd.waitall, PyTorch: torch.cuda.synchronize). Prints ms per step and
weft / PyTorch (target <= 1.0).

Needs a CUDA build of weft (-DWEFT_USE_CUDA=ON) on a machine with a GPU and a
CUDA build of PyTorch. On the host emulation of the GPU path (WEFT_GPU_EMULATE)
or without a GPU it measures nothing and says why.

    WEFT_LIBRARY_PATH=build-cuda/libweft.so PYTHONPATH=bindings/python python benchmarks/gpu_vs_torch.py
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _median_time(step, steps, runs, sync):
    for _ in range(3):
        step()
    sync()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        sync()
        times.append((time.perf_counter() - t0) / steps)
    return statistics.median(times) * 1e3


def run_weft(model, mode, batch, steps, runs):
    import numpy as np
    import weft
    from weft import autograd, gluon, nd
    from weft.gluon.model_zoo import vision
    ctx = weft.gpu(0)
    weft.random.seed(0)
    net = vision.resnet18_v1(classes=1000) if model == "resnet18" else vision.vgg16(classes=1000)
    net.initialize(weft.init.Xavier(), ctx=ctx)
    net.hybridize(static_alloc=True, static_shape=True)
    rng = np.random.default_rng(0)
    x = nd.array(rng.standard_normal((batch, 3, 224, 224)).astype(np.float32), ctx=ctx)
    y = nd.array(rng.integers(0, 1000, batch).astype(np.float32), ctx=ctx)
    if mode == "infer":
        def step():
            net(x)
    else:
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})

        def step():
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(batch)
    return _median_time(step, steps, runs, nd.waitall)


def _torch_vgg16():
    import torch.nn as tnn
    layers, cin = [], 3
    for v in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"):
        if v == "M":
            layers.append(tnn.MaxPool2d(2, 2))
        else:
            layers += [tnn.Conv2d(cin, v, 3, padding=1), tnn.ReLU(inplace=True)]
            cin = v
    layers += [tnn.Flatten(), tnn.Linear(512 * 7 * 7, 4096), tnn.ReLU(inplace=True), tnn.Dropout(0.5),
               tnn.Linear(4096, 4096), tnn.ReLU(inplace=True), tnn.Dropout(0.5), tnn.Linear(4096, 1000)]
    return tnn.Sequential(*layers)


def run_torch(model, mode, batch, steps, runs):
    import torch
    from gluon_vs_torch import _torch_resnet18
    torch.manual_seed(0)
    dev = torch.device("cuda:0")
    net = (_torch_resnet18() if model == "resnet18" else _torch_vgg16()).to(dev)
    x = torch.randn(batch, 3, 224, 224, device=dev)
    y = torch.randint(0, 1000, (batch,), device=dev)
    if mode == "infer":
        net.eval()

        def step():
            with torch.no_grad():
                net(x)
    else:
        loss_fn = torch.nn.CrossEntropyLoss()
        opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

        def step():
            opt.zero_grad()
            loss_fn(net(x), y).backward()
            opt.step()
    return _median_time(step, steps, runs, torch.cuda.synchronize)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--models", nargs="+", default=["resnet18", "vgg16"])
    args = ap.parse_args()
    import weft
    if weft.context.gpu_backend() != "cuda" or weft.num_gpus() == 0:
        print("nothing measured: weft has no CUDA device here (backend %s, %d device(s)); this benchmark needs a "
              "CUDA build on a GPU machine" % (weft.context.gpu_backend(), weft.num_gpus()))
        return 0
    try:
        import torch
        if not torch.cuda.is_available():
            raise ImportError("torch has no CUDA device")
    except ImportError as e:
        print("nothing measured: PyTorch with CUDA is needed for the comparison (%s)" % e)
        return 0
    print("%-10s %-6s %5s %12s %12s %8s" % ("model", "mode", "batch", "weft ms", "torch ms", "ratio"))
    for model in args.models:
        for mode, batch in (("train", 32), ("infer", 1), ("infer", 64)):
            w = run_weft(model, mode, batch, args.steps, args.runs)
            t = run_torch(model, mode, batch, args.steps, args.runs)
            print("%-10s %-6s %5d %12.2f %12.2f %8.2f" % (model, mode, batch, w, t, w / t), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
