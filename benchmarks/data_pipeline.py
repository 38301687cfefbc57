"""Image data pipeline throughput: weft's ImageRecordIter (C++ decode and
augmentation, core/io/) vs MXNet 1.9.1's ImageRecordIter on the same .rec,
and vs a torchvision-style DataLoader when torch is importable; then a
ResNet-18 training loop fed by the iterator vs the same loop on synthetic
in-memory batches.

Pipeline measured (issue 18): read + JPEG decode + random-resized-crop to
224x224 (area 0.08..1, aspect 3/4..4/3) + random horizontal flip + mean/std
normalisation into float32 NCHW batches of 64, with 1 and 2 decode threads
(preprocess_threads / num_workers). The .rec holds --images generated JPEGs of
500x375 (quality 90, textured so they compress like photographs), written once
into --data-dir.

Each measurement runs in a fresh subprocess (MXNet in its own venv: --mxnet-python,
mxnet==1.9.1 with numpy<1.24), which builds the iterator, takes one warm-up
batch, then times --batches batches. Rounds interleave the implementations
(Note [Paired rounds] in gluon_vs_torch.py: the 2-core machine is shared, so
only same-round ratios are trusted); the table gives medians over rounds and
the median of the per-round ratios weft/other (target >= 1.0).

weft decodes JPEGs for random-resized-crop at a reduced DCT scale when the crop
is larger than 224x224 (Note [Scaled JPEG decode] in core/io/image_augment.cc);
the "weft full decode" row turns that off (WEFT_JPEG_DCT_SCALING=0) to show the
same work MXNet does.

    PYTHONPATH=bindings/python WEFT_LIBRARY_PATH=build/libweft.so \\
        python3 benchmarks/data_pipeline.py [--rounds 3] [--threads 1 2] [--train-steps 3]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import frameworks  # benchmarks/frameworks.py, beside this script
from frameworks import cpu_model

HERE = os.path.dirname(os.path.abspath(__file__))
MEAN = (123.68, 116.28, 103.53)
STD = (58.395, 57.12, 57.375)
BATCH = 64



# ---- the data ---------------------------------------------------------------------------------------------------
def make_rec(data_dir, n):
    """data_dir/bench.rec + .idx with n JPEGs of 500x375; reused when present."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    import cv2  # pylint: disable=import-outside-toplevel
    from weft import recordio  # pylint: disable=import-outside-toplevel
    os.makedirs(data_dir, exist_ok=True)
    rec, idx = os.path.join(data_dir, "bench%d.rec" % n), os.path.join(data_dir, "bench%d.idx" % n)
    if os.path.exists(rec) and os.path.exists(idx):
        return rec, idx
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:375, 0:500].astype(np.float32)
    w = recordio.MXIndexedRecordIO(idx + ".tmp", rec + ".tmp", "w")
    for i in range(n):
        f = rng.uniform(0.01, 0.05, size=3)
        img = np.stack([128 + 100 * np.sin(f[c] * xx + (c + 1) * f[(c + 1) % 3] * yy + i) for c in range(3)], -1)
        img += rng.normal(0, 12, size=img.shape)  # texture: JPEG sizes like photographs (~60-90 KB)
        ok, buf = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        w.write_idx(i, recordio.pack(recordio.IRHeader(0, float(i % 1000), i, 0), buf.tobytes()))
    w.close()
    os.replace(rec + ".tmp", rec)
    os.replace(idx + ".tmp", idx)
    return rec, idx


# ---- workers (each in its own process) ---------------------------------------------------------------------------
def _iter_kwargs(rec, idx, threads):
    return dict(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 224, 224), batch_size=BATCH, shuffle=False,
                random_resized_crop=True, min_random_area=0.08, max_random_area=1.0, min_aspect_ratio=3 / 4,
                max_aspect_ratio=4 / 3, rand_mirror=True, mean_r=MEAN[0], mean_g=MEAN[1], mean_b=MEAN[2],
                std_r=STD[0], std_g=STD[1], std_b=STD[2], preprocess_threads=threads, prefetch_buffer=4, seed=1)


def _time_iter(it, batches, wait):
    b = it.next()  # warm-up: the pool is running, the first batches are in flight
    wait(b)
    t0 = time.perf_counter()
    done = 0
    while done < batches:
        try:
            b = it.next()
        except StopIteration:
            it.reset()
            continue
        wait(b)
        done += 1
    return batches * BATCH / (time.perf_counter() - t0)


def worker_weft(rec, idx, threads, batches):
    from weft import io  # pylint: disable=import-outside-toplevel
    it = io.ImageRecordIter(**_iter_kwargs(rec, idx, threads))
    return _time_iter(it, batches, lambda b: b.data[0].wait_to_read())


def worker_mxnet(rec, idx, threads, batches):
    import mxnet as mx  # pylint: disable=import-outside-toplevel
    it = mx.io.ImageRecordIter(**_iter_kwargs(rec, idx, threads))
    return _time_iter(it, batches, lambda b: b.data[0].wait_to_read())


def worker_torch(rec, idx, threads, batches):
    """A torchvision-style pipeline: a map-style Dataset over the .rec
    (offsets from the .idx), PIL decode, RandomResizedCrop, flip, ToTensor,
    Normalize, DataLoader with num_workers=threads."""
    import io as pyio  # pylint: disable=import-outside-toplevel
    import struct  # pylint: disable=import-outside-toplevel
    import torch  # pylint: disable=import-outside-toplevel
    from PIL import Image  # pylint: disable=import-outside-toplevel
    from torchvision import transforms  # pylint: disable=import-outside-toplevel
    torch.set_num_threads(1)
    offsets = [int(line.split("\t")[1]) for line in open(idx)]
    tf = transforms.Compose([transforms.RandomResizedCrop(224, scale=(0.08, 1.0)), transforms.RandomHorizontalFlip(),
                             transforms.ToTensor(),
                             transforms.Normalize([m / 255 for m in MEAN], [s / 255 for s in STD])])

    class RecDataset(torch.utils.data.Dataset):
        def __len__(self):
            return len(offsets)

        def __getitem__(self, i):
            with open(rec, "rb") as f:
                f.seek(offsets[i])
                _, lrec = struct.unpack("<II", f.read(8))
                raw = f.read(lrec & ((1 << 29) - 1))
            label = struct.unpack("<f", raw[4:8])[0]
            return tf(Image.open(pyio.BytesIO(raw[24:])).convert("RGB")), label

    loader = torch.utils.data.DataLoader(RecDataset(), batch_size=BATCH, num_workers=threads, shuffle=False,
                                         prefetch_factor=4, persistent_workers=True)

    class It:
        def __init__(self):
            self.it = iter(loader)

        def next(self):
            return next(self.it)

        def reset(self):
            self.it = iter(loader)

    return _time_iter(It(), batches, lambda b: None)


def worker_train(rec, idx, threads, steps, feed):
    """ResNet-18 v1 SGD steps on batches from the iterator (feed='iter') or on
    one synthetic batch kept in memory (feed='synthetic'); seconds per step."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    import weft  # pylint: disable=import-outside-toplevel
    from weft import autograd, gluon, io, nd  # pylint: disable=import-outside-toplevel
    from weft.gluon.model_zoo import vision  # pylint: disable=import-outside-toplevel
    weft.random.seed(0)
    batch = 16
    net = vision.resnet18_v1(classes=1000)
    net.initialize(weft.init.Xavier())
    net.hybridize(static_alloc=True, static_shape=True)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})
    kw = _iter_kwargs(rec, idx, threads)
    kw["batch_size"] = batch
    it = io.ImageRecordIter(**kw) if feed == "iter" else None
    rng = np.random.default_rng(0)
    fixed = (nd.array(rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)),
             nd.array(rng.integers(0, 1000, batch).astype(np.float32)))

    def step():
        if it is None:
            x, y = fixed
        else:
            b = it.next()
            x, y = b.data[0], b.label[0]
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(batch)
        nd.waitall()

    step()  # warm-up (hybridize, allocation)
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - t0) / steps


def _worker_main(argv):
    kind, rec, idx, threads, n = argv[0], argv[1], argv[2], int(argv[3]), int(argv[4])
    if kind.startswith("train_"):
        value = worker_train(rec, idx, threads, n, kind[len("train_"):])
    else:
        value = {"weft": worker_weft, "mxnet": worker_mxnet, "torch": worker_torch}[kind](rec, idx, threads, n)
    print("RESULT " + json.dumps(value))


# ---- the driver --------------------------------------------------------------------------------------------------
def _spawn(python, kind, rec, idx, threads, n, extra_env=None):
    env = dict(os.environ)
    env.update({"OMP_NUM_THREADS": str(threads), "OPENBLAS_NUM_THREADS": str(threads), "MXNET_CPU_WORKER_NTHREADS": "1",
                "WEFT_CPU_WORKER_NTHREADS": "1"})
    if extra_env:
        env.update(extra_env)
    if python != sys.executable:  # MXNet's venv: no weft on its path
        env.pop("PYTHONPATH", None)
    out = subprocess.run([python, os.path.abspath(__file__), "--worker", kind, rec, idx, str(threads), str(n)],
                         env=env, capture_output=True, text=True, check=False)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    sys.stderr.write("%s (threads %d) failed:\n%s\n" % (kind, threads, out.stderr[-3000:]))
    return None


def _has_torch():
    try:
        import torch  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
        import torchvision  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
        return True
    except ImportError:
        return False


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return _worker_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--images", type=int, default=2000)
    ap.add_argument("--batches", type=int, default=10, help="timed batches of 64 per measurement")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--data-dir", default="/tmp/weft_data_pipeline_bench")
    frameworks.add_options(ap)  # --torch-python (unused here: torch runs in this interpreter), --mxnet-python
    ap.add_argument("--train-steps", type=int, default=3, help="ResNet-18 steps per feed (0: skip)")
    args = ap.parse_args()

    rec, idx = make_rec(args.data_dir, args.images)
    impls = [("weft", sys.executable, None), ("weft full decode", sys.executable, {"WEFT_JPEG_DCT_SCALING": "0"})]
    mx_python = frameworks.python_for("mxnet", args)
    mx_ok, why = frameworks.available("mxnet", args)
    if mx_ok:
        impls.append(("mxnet 1.9.1", mx_python, None))
    else:
        print("no MXNet column: %s" % why)
    if _has_torch():
        impls.append(("torch DataLoader", sys.executable, None))
    else:
        print("torch/torchvision not importable: no DataLoader column")
    kinds = {"weft": "weft", "weft full decode": "weft", "mxnet 1.9.1": "mxnet", "torch DataLoader": "torch"}
    rates = {(name, t): [] for name, _, _ in impls for t in args.threads}
    for r in range(args.rounds):
        for t in args.threads:
            order = impls if r % 2 == 0 else impls[::-1]
            for name, python, env in order:
                v = _spawn(python, kinds[name], rec, idx, t, args.batches, env)
                if v is not None:
                    rates[(name, t)].append(v)
    print("CPU: %s; %d cores visible; %d JPEGs 500x375 in %s (%.1f MB)"
          % (cpu_model(), os.cpu_count(), args.images, rec, os.path.getsize(rec) / 1e6))
    print("pipeline: read + decode + random-resized-crop(224) + flip + normalize -> float32 batches of %d; "
          "%d batches per measurement, median of %d interleaved rounds" % (BATCH, args.batches, args.rounds))
    print("%-18s %8s %12s   %s" % ("implementation", "threads", "images/s", "weft / this (median of rounds)"))
    for t in args.threads:
        for name, _, _ in impls:
            vals = rates[(name, t)]
            if not vals:
                print("%-18s %8d %12s" % (name, t, "failed"))
                continue
            ratios = [w / o for w, o in zip(rates[("weft", t)], vals)]
            print("%-18s %8d %12.1f   %.2fx (%.2f..%.2f)" % (name, t, statistics.median(vals), statistics.median(ratios),
                                                           min(ratios), max(ratios)))
    if args.train_steps > 0:
        per = {"iter": [], "synthetic": []}
        for r in range(max(1, args.rounds // 2)):
            for feed in (("iter", "synthetic") if r % 2 == 0 else ("synthetic", "iter")):
                v = _spawn(sys.executable, "train_" + feed, rec, idx, 1, args.train_steps)
                if v is not None:
                    per[feed].append(v)
        if per["iter"] and per["synthetic"]:
            it_s, syn_s = statistics.median(per["iter"]), statistics.median(per["synthetic"])
            print("ResNet-18 v1 training, batch 16 at 224x224, 1 decode thread, %d steps: fed by ImageRecordIter "
                  "%.2f s/step, synthetic in-memory batch %.2f s/step: %.1f%% slower (target <= 10%%)"
                  % (args.train_steps, it_s, syn_s, 100 * (it_s / syn_s - 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
