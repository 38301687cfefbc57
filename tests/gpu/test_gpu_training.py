"""Training on gpu(0) (and across gpu(0), gpu(1)) gives what the CPU gives.

Each test builds the same model twice from one set of initial weights: once on
cpu(0), once on the GPU, and runs the same steps; weights and outputs must
agree. Covers NDArray placement and copies, autograd, Gluon (imperative and
hybridized), the symbol executor, Trainer and the device KVStore."""
import numpy as np
import pytest

import weft
from weft import autograd, gluon, nd
from weft.gluon import nn

from conftest import NUM_GPUS

G0 = weft.gpu(0)


def test_arrays_move_between_devices():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    g = nd.array(x, ctx=G0)
    assert g.context == G0
    np.testing.assert_array_equal(g.asnumpy(), x)
    back = g.copyto(weft.cpu())
    assert back.context == weft.cpu()
    np.testing.assert_array_equal(back.asnumpy(), x)
    np.testing.assert_array_equal(g.as_in_context(weft.cpu()).asnumpy(), x)
    y = (g * 2 + 1).sum(axis=1)
    assert y.context == G0
    np.testing.assert_allclose(y.asnumpy(), (x * 2 + 1).sum(axis=1), rtol=1e-6)
    with pytest.raises(weft.InvalidArgumentError, match="one device"):
        nd.elemwise_add(g, nd.array(x))


@pytest.mark.skipif(NUM_GPUS < 2, reason="needs 2 GPUs")
def test_copy_between_two_gpus():
    x = np.random.default_rng(0).standard_normal((100, 7)).astype(np.float64)
    a = nd.array(x, ctx=G0, dtype="float64")
    b = a.copyto(weft.gpu(1))
    assert b.context == weft.gpu(1)
    np.testing.assert_array_equal(b.asnumpy(), x)


def test_autograd_on_gpu_matches_cpu():
    rng = np.random.default_rng(1)
    xs = rng.standard_normal((5, 6)).astype(np.float32)
    ws = rng.standard_normal((6, 3)).astype(np.float32)
    grads = []
    for ctx in (weft.cpu(), G0):
        x, w = nd.array(xs, ctx=ctx), nd.array(ws, ctx=ctx)
        w.attach_grad()
        with autograd.record():
            y = nd.dot(x, w)
            loss = (nd.tanh(y) ** 2).sum()
        loss.backward()
        grads.append(w.grad.asnumpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)


def _cnn():
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, kernel_size=3, padding=1, in_channels=1), nn.BatchNorm(in_channels=4),
            nn.Activation("relu"), nn.MaxPool2D(2), nn.Flatten(), nn.Dense(16, in_units=4 * 4 * 4),
            nn.Dropout(0.0), nn.Dense(10, in_units=16))
    return net


def _train(ctx, hybridize, params, steps=3):
    net = _cnn()
    net.initialize(ctx=weft.cpu())
    for p, value in zip(net.collect_params().values(), params):
        p.set_data(nd.array(value))
    net.collect_params().reset_ctx(ctx)
    if hybridize:
        net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    rng = np.random.default_rng(3)
    losses = []
    for _ in range(steps):
        x = nd.array(rng.standard_normal((8, 1, 8, 8)).astype(np.float32), ctx=ctx)
        y = nd.array(rng.integers(0, 10, 8).astype(np.float32), ctx=ctx)
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(8)
        losses.append(loss.mean().asscalar())
    return losses, [p.data().asnumpy() for p in net.collect_params().values()]


@pytest.mark.parametrize("hybridize", [False, True], ids=["imperative", "hybridized"])
def test_gluon_cnn_trains_the_same_on_gpu(hybridize):
    ref = _cnn()
    ref.initialize(weft.init.Xavier(), ctx=weft.cpu())
    ref(nd.zeros((1, 1, 8, 8)))
    params = [p.data().asnumpy() for p in ref.collect_params().values()]
    cpu_losses, cpu_w = _train(weft.cpu(), hybridize, params)
    gpu_losses, gpu_w = _train(G0, hybridize, params)
    np.testing.assert_allclose(gpu_losses, cpu_losses, rtol=1e-4, atol=1e-5)
    for i, (g, c) in enumerate(zip(gpu_w, cpu_w)):
        np.testing.assert_allclose(g, c, rtol=1e-4, atol=1e-5, err_msg="parameter %d" % i)


def test_symbol_executor_on_gpu():
    data = weft.sym.Variable("data")
    net = weft.sym.FullyConnected(data, num_hidden=8, name="fc1")
    net = weft.sym.Activation(net, act_type="relu")
    net = weft.sym.SoftmaxOutput(weft.sym.FullyConnected(net, num_hidden=3, name="fc2"), name="softmax")
    rng = np.random.default_rng(4)
    arrays = {"data": rng.standard_normal((6, 5)).astype(np.float32),
              "fc1_weight": rng.standard_normal((8, 5)).astype(np.float32) * 0.3,
              "fc1_bias": np.zeros(8, np.float32),
              "fc2_weight": rng.standard_normal((3, 8)).astype(np.float32) * 0.3,
              "fc2_bias": np.zeros(3, np.float32),
              "softmax_label": np.array([0, 1, 2, 0, 1, 2], np.float32)}
    results = []
    for ctx in (weft.cpu(), G0):
        exe = net.simple_bind(ctx, data=(6, 5))
        for k, v in arrays.items():
            exe.arg_dict[k][:] = nd.array(v, ctx=ctx)
        out = exe.forward(is_train=True)[0].asnumpy()
        exe.backward()
        results.append((out, exe.grad_dict["fc1_weight"].asnumpy()))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-4, atol=1e-6)


@pytest.mark.skipif(NUM_GPUS < 2, reason="needs 2 GPUs")
def test_device_kvstore_reduces_across_gpus():
    kv = weft.kv.create("device")
    shape = (3, 5)
    kv.init("w", nd.zeros(shape, ctx=weft.gpu(0)))
    grads = [nd.full(shape, i + 1.0, ctx=weft.gpu(i)) for i in range(2)]
    kv.push("w", grads)
    outs = [nd.zeros(shape, ctx=weft.gpu(i)) for i in range(2)]
    kv.pull("w", out=outs)
    for o in outs:
        np.testing.assert_array_equal(o.asnumpy(), np.full(shape, 3.0))


@pytest.mark.skipif(NUM_GPUS < 2, reason="needs 2 GPUs")
def test_data_parallel_over_two_gpus_equals_one_device():
    ref = nn.Dense(4, in_units=6)
    ref.initialize(ctx=weft.cpu())
    w0 = [p.data().asnumpy() for p in ref.collect_params().values()]
    rng = np.random.default_rng(5)
    x = rng.standard_normal((8, 6)).astype(np.float32)
    y = rng.standard_normal((8, 4)).astype(np.float32)

    def run(ctxs):
        net = nn.Dense(4, in_units=6)
        net.initialize(ctx=weft.cpu())
        for p, value in zip(net.collect_params().values(), w0):
            p.set_data(nd.array(value))
        net.collect_params().reset_ctx(ctxs)
        trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05}, kvstore="device")
        loss_fn = gluon.loss.L2Loss()
        for _ in range(3):
            xs = gluon.utils.split_and_load(nd.array(x), ctxs)
            ys = gluon.utils.split_and_load(nd.array(y), ctxs)
            with autograd.record():
                losses = [loss_fn(net(a), b) for a, b in zip(xs, ys)]
            for loss in losses:
                loss.backward()
            trainer.step(8)
        return [p.data(ctxs[0]).asnumpy() for p in net.collect_params().values()]

    one = run([weft.cpu()])
    two = run([weft.gpu(0), weft.gpu(1)])
    for i, (a, b) in enumerate(zip(two, one)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg="parameter %d" % i)
