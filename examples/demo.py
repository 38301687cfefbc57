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
    mx.nd.waitall()
    print("demo finished OK")


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
