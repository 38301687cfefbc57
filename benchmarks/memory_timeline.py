"""Where the peak resident memory of a ResNet-18 training step comes from.

Runs the training loop of `gluon_vs_torch.py --cases memory` (hybridized
ResNet-18 v1, batch 16 at 3x224x224, SGD momentum 0.9, float32) and prints,
after each phase, the process's resident memory (VmRSS, and its high-water
mark VmHWM), weft's storage pool (bytes in use, peak in use, pooled free
blocks) and glibc malloc's view (heap arenas, mmapped chunks). What lies
outside the storage pool and the import baseline is mostly kernel scratch
(oneDNN reorders and scratchpads, Note [One scratch block per call]).

    WEFT_CPU_WORKER_NTHREADS=1 OMP_NUM_THREADS=1 PYTHONPATH=bindings/python \\
        python benchmarks/memory_timeline.py [--steps 4] [--sync]

--sync waits for the engine after every phase, so each phase's memory is
separated (the benchmark itself does not wait between phases).
"""
import argparse
import ctypes
import resource

MIB = float(1 << 20)


def _status():
    vals = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                key, kib = line.split()[:2]
                vals[key.rstrip(":")] = int(kib) / 1024.0
    return vals


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]


def _malloc():
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):  # not glibc >= 2.33
        return ""
    m = libc.mallinfo2()
    return "malloc heap %6.1f (free %5.1f) mmapped %6.1f" % (m.arena / MIB, m.fordblks / MIB, m.hblkhd / MIB)


def _storage():
    try:
        from weft.base import ffi, lib  # pylint: disable=import-outside-toplevel
    except ImportError:
        return ""
    s = ffi.new("weft_storage_stats*")
    lib.weft_storage_stats_get(1, 0, s)
    return "storage in use %6.1f peak %6.1f pooled %5.1f" % (
        s.bytes_in_use / MIB, s.peak_bytes_in_use / MIB, s.bytes_pooled / MIB)


def report(tag):
    st = _status()
    print("%-10s RSS %6.1f HWM %6.1f | %s | %s" % (tag, st["VmRSS"], st["VmHWM"], _storage(), _malloc()), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=4, help="training steps (the benchmark runs 4)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--sync", action="store_true", help="wait for the engine after each phase")
    args = ap.parse_args()
    report("start")
    import numpy as np  # pylint: disable=import-outside-toplevel
    import weft  # pylint: disable=import-outside-toplevel
    from weft import autograd, gluon, nd  # pylint: disable=import-outside-toplevel
    from weft.gluon.model_zoo import vision  # pylint: disable=import-outside-toplevel
    sync = nd.waitall if args.sync else (lambda: None)
    report("import")
    weft.random.seed(0)
    net = vision.resnet18_v1(classes=1000)
    net.initialize(weft.init.Xavier())
    net.hybridize(static_alloc=True, static_shape=True)
    sync()
    report("init")
    rng = np.random.default_rng(0)
    shape = (args.batch, 3, 224, 224)
    x = nd.array(rng.standard_normal(shape).astype(np.float32))
    y = nd.array(rng.integers(0, 10, shape[0]).astype(np.float32))
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})
    sync()
    report("data")
    for i in range(args.steps):
        with autograd.record():
            out = net(x)
            sync()
            if args.sync:
                report("forward%d" % i)
            loss = loss_fn(out, y)
        loss.backward()
        sync()
        if args.sync:
            report("backward%d" % i)
        trainer.step(shape[0])
        nd.waitall()
        report("step%d" % i)
    print("ru_maxrss %.1f MiB" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0))


if __name__ == "__main__":
    main()
