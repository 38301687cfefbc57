"""Weft's first demo: lazy NDArrays on one dependency engine, two devices,
and MXNet-compatible .params files.

Run from a fresh machine with `bash scripts/demo.sh`.
"""
import os
import tempfile
import time

import numpy as np

import weft as mx


def main():
    print(f"weft {mx.__version__}")

    # Imperative arrays: every op is pushed to the engine and returns at once;
    # reading (asnumpy) waits for the result.
    x = mx.nd.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    w = mx.nd.ones((4, 2)) * 0.5
    t0 = time.perf_counter()
    y = mx.nd.dot(x, w)
    for _ in range(100):
        y = y * 1.01 + 0.1
    pushed = time.perf_counter() - t0
    print(f"pushed 201 ops in {pushed * 1e3:.2f} ms, result:\n{y.asnumpy()}")
    ref = (np.arange(12, dtype=np.float32).reshape(3, 4) @ np.full((4, 2), 0.5, np.float32))
    for _ in range(100):
        ref = ref * np.float32(1.01) + np.float32(0.1)
    assert np.allclose(y.asnumpy(), ref, rtol=1e-4), "demo result differs from numpy"

    # Views share memory and dependencies; in-place ops write through them.
    row = x[1]
    row += 100
    print("x after x[1] += 100:\n", x.asnumpy())

    # cpu(0) and cpu(1) are distinct devices, like two GPUs would be.
    with mx.cpu(1):
        z = mx.nd.zeros((2, 2))
    print("z lives on", z.context, "; copied back:", z.as_in_context(mx.cpu(0)).context)

    # Reproducible random numbers: the generator is an engine variable.
    mx.random.seed(42)
    a = mx.random.uniform(0, 1, shape=(3,)).asnumpy()
    mx.random.seed(42)
    b = mx.random.uniform(0, 1, shape=(3,)).asnumpy()
    assert np.array_equal(a, b)
    print("seeded uniform draws:", a)

    # Save and load in MXNet 1.x's .params format (byte-compatible).
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "demo-0000.params")
        mx.nd.save(path, {"arg:w": w, "arg:x": x})
        back = mx.nd.load(path)
        print("saved and reloaded:", {k: v.shape for k, v in back.items()}, os.path.getsize(path), "bytes")

    # Bad input is a clear Python exception, and the engine keeps going.
    try:
        mx.nd.elemwise_add(x, w)
    except mx.WeftError as e:
        print("caught:", type(e).__name__, "-", e)
    print("engine still fine:", (x + 1).asnumpy()[0, :2])

    # Reading a file MXNet 1.9.1 wrote, when the shared fixtures are present.
    fixture = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "fixtures", "cnn-0000.params")
    if os.path.exists(fixture):
        params = mx.nd.load(fixture)
        print(f"loaded {len(params)} arrays written by MXNet 1.9.1, e.g.",
              {k: v.shape for k, v in list(params.items())[:3]})
    train_mlp_symbolically()
    load_images_from_a_record_file()
    mx.nd.waitall()
    print("demo finished OK")


def load_images_from_a_record_file():
    """The data pipeline: JPEGs packed into an MXNet .rec/.idx (weft.recordio;
    `python -m weft.tools.im2rec` does it for an image folder), then
    mx.io.ImageRecordIter reads, decodes (libjpeg-turbo) and augments them in
    a C++ thread pool, a few batches ahead, and hands out NDArrays."""
    import cv2  # pylint: disable=import-outside-toplevel
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as d:
        rec, idx = os.path.join(d, "imgs.rec"), os.path.join(d, "imgs.idx")
        w = mx.recordio.MXIndexedRecordIO(idx, rec, "w")
        for i in range(10):
            img = rng.integers(0, 255, size=(60, 80, 3), dtype=np.uint8)
            w.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i % 3), i, 0),
                                            cv2.imencode(".jpg", img)[1].tobytes()))
        w.close()
        it = mx.io.ImageRecordIter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 32, 32), batch_size=4,
                                   random_resized_crop=True, min_random_area=0.3, rand_mirror=True, shuffle=True,
                                   mean_r=123.7, mean_g=116.3, mean_b=103.5, std_r=58.4, std_g=57.1, std_b=57.4,
                                   preprocess_threads=2)
        for batch in it:
            # the batch is an engine array: ops on it are pushed like any other
            m = batch.data[0].mean().asscalar()
            print(f"ImageRecordIter batch {batch.data[0].shape}, labels {batch.label[0].asnumpy().tolist()}, "
                  f"pad {batch.pad}, mean {m:+.3f}")


def train_mlp_symbolically():
    """The declarative half on the same engine: bind a graph, then mix
    exe.forward()/exe.backward() with imperative `w -= lr * g` updates — no
    synchronisation call anywhere in the loop."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(64, 4)).astype(np.float32)
    true_w = np.array([[1.5], [-2.0], [0.5], [3.0]], np.float32)
    Y = X @ true_w + 0.1

    data, label = mx.sym.var("data"), mx.sym.var("label")
    hidden = mx.sym.Activation(mx.sym.FullyConnected(data, num_hidden=16, name="fc1"), act_type="tanh")
    out = mx.sym.FullyConnected(hidden, num_hidden=1, name="fc2")
    net = mx.sym.LinearRegressionOutput(out, label, name="lro")
    print("arguments:", net.list_arguments())

    exe = net.simple_bind(mx.cpu(), grad_req="write", data=X.shape, label=Y.shape)
    for name, arr in exe.arg_dict.items():
        if name not in ("data", "label"):
            arr[:] = mx.nd.array(rng.normal(scale=0.3, size=arr.shape))
    exe.arg_dict["data"][:] = mx.nd.array(X)
    exe.arg_dict["label"][:] = mx.nd.array(Y)
    lr = 0.2 / X.shape[0]  # MXNet output layers sum gradients over the batch
    for epoch in range(300):
        exe.forward(is_train=True)
        exe.backward()
        for name, w in exe.arg_dict.items():
            if name not in ("data", "label"):
                w -= lr * exe.grad_dict[name]
        if epoch % 100 == 0 or epoch == 299:
            mse = float(((exe.outputs[0].asnumpy() - Y) ** 2).mean())
            print(f"epoch {epoch:3d}  mse {mse:.4f}")
    assert mse < 0.1, "the symbolic MLP did not learn"
    print(f"symbolic MLP trained with mixed imperative updates; final mse {mse:.4f}")


if __name__ == "__main__":
    main()
