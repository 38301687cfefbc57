"""ResNet-18 v1 inference bound twice in one process, with the fusion pass on
(WEFT_FUSION=1: BatchNorm folded into the convolutions, residual add and ReLU as
oneDNN post-ops; Note [Inference folding] in core/op/fused/fused_conv_bn.cc) and
off, timed in interleaved rounds; prints the medians and fused/unfused.

  OMP_NUM_THREADS=1 python3 benchmarks/inference_folding.py --batch 1 8
"""
import argparse
import os
import statistics
import time

import numpy as np

import weft as mx
from weft.gluon.model_zoo import vision


def bound(net, x, fusion):
    os.environ["WEFT_FUSION"] = "1" if fusion else "0"
    sym = net(mx.sym.var("data"))
    params = {p.name: p.data() for p in net.collect_params().values()}
    args = {n: (x if n == "data" else params[n]) for n in sym.list_arguments()}
    aux = {n: params[n] for n in sym.list_auxiliary_states()}
    return sym.bind(mx.cpu(), args, grad_req="null", aux_states=aux)


def seconds(exe, steps):
    for _ in range(2):
        exe.forward(is_train=False)
        exe.outputs[0].wait_to_read()
    t0 = time.perf_counter()
    for _ in range(steps):
        exe.forward(is_train=False)
        exe.outputs[0].wait_to_read()
    return (time.perf_counter() - t0) / steps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch", type=int, nargs="+", default=[1, 8])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--steps", type=int, default=8)
    args = ap.parse_args()
    net = vision.resnet18_v1(classes=1000)
    net.initialize(mx.init.Xavier())
    print("%-6s %12s %12s %16s" % ("batch", "fused ms", "unfused ms", "fused/unfused"))
    for batch in args.batch:
        x = mx.nd.array(np.random.default_rng(0).standard_normal((batch, 3, 224, 224)).astype(np.float32))
        net(x)
        exes = {True: bound(net, x, True), False: bound(net, x, False)}
        times = {True: [], False: []}
        steps = max(2, args.steps // batch)
        for r in range(args.rounds):
            for fusion in ((True, False) if r % 2 == 0 else (False, True)):
                times[fusion].append(seconds(exes[fusion], steps))
        on, off = statistics.median(times[True]), statistics.median(times[False])
        print("%-6d %12.1f %12.1f %16.3f" % (batch, on * 1e3, off * 1e3, on / off))


if __name__ == "__main__":
    main()
