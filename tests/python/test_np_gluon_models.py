"""Gluon in NumPy mode (issue 39 point 2): the models of "Dive into Deep Learning"
(MXNet edition) written as the book writes them, with only the import changed,
trained a few steps on small generated data, imperatively and hybridized: a
softmax regression, an MLP with dropout and weight decay, LeNet, and a ResNet
block with batch norm. Each checks that outputs and parameters are
weft.np.ndarray, that the loss goes down, and that save_parameters /
load_parameters round-trips the model."""
import os

import numpy as onp
import pytest

from weft import autograd, gluon, init, np, npx
from weft.gluon import nn


# weft's own layers and containers must compile when hybridized, never fall back to imperative.
pytestmark = pytest.mark.filterwarnings(r"error:hybridize\(\)")


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _classification_data(n, in_shape, classes, seed):
    """Inputs and labels from a random linear teacher, so a model can fit them."""
    rng = onp.random.RandomState(seed)
    x = rng.normal(size=(n,) + in_shape).astype("float32")
    w = rng.normal(size=(int(onp.prod(in_shape)), classes)).astype("float32")
    y = (x.reshape(n, -1) @ w).argmax(axis=1)
    return np.array(x), np.array(y)


def _train(net, x, y, steps, lr, wd=0.0, batch_size=None):
    """The book's training loop (d2l.train_epoch_ch3 over one batch); the losses."""
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": lr, "wd": wd})
    batch_size = batch_size or x.shape[0]
    losses = []
    for _ in range(steps):
        with autograd.record():
            out = net(x)
            l = loss(out, y)
        assert isinstance(out, np.ndarray) and isinstance(l, np.ndarray)
        l.backward()
        trainer.step(batch_size)
        losses.append(float(l.mean()))
    return losses


def _accuracy(net, x, y):
    return float((net(x).argmax(axis=1) == y.astype("float32")).mean())


def _check_compiled(net, tmp_path):
    """A hybridized model ran as one graph: export() needs the traced graph
    (it raises without one), and a graph input is the data."""
    sym, _ = net.export(os.path.join(str(tmp_path), "model"))
    assert "data" in sym.list_inputs()


def _check_round_trip(net, make, x, tmp_path):
    """save_parameters, a fresh model of the same kind loads them, same outputs."""
    fname = os.path.join(str(tmp_path), "net.params")
    net.save_parameters(fname)
    other = make()
    other.load_parameters(fname)
    a, b = net(x), other(x)
    assert isinstance(b, np.ndarray)
    onp.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    for p in other.collect_params().values():
        assert isinstance(p.data(), np.ndarray)


def _softmax_regression(hybrid=False):
    net = nn.HybridSequential() if hybrid else nn.Sequential()
    net.add(nn.Dense(4))
    return net


@pytest.mark.parametrize("hybridize", [False, True])
def test_softmax_regression(hybridize, tmp_path):
    x, y = _classification_data(64, (10,), 4, seed=0)
    net = _softmax_regression(hybridize)
    net.initialize(init.Normal(sigma=0.01))
    if hybridize:
        net.hybridize()  # one compiled graph for the whole model
    losses = _train(net, x, y, steps=30, lr=0.5)
    assert losses[-1] < 0.6 * losses[0], losses
    assert _accuracy(net, x, y) > 0.8
    if hybridize:
        _check_compiled(net, tmp_path)
    _check_round_trip(net, lambda: _softmax_regression(hybridize), x, tmp_path)


def _mlp(hybrid=False):
    net = nn.HybridSequential() if hybrid else nn.Sequential()
    net.add(nn.Dense(32, activation="relu"), nn.Dropout(0.2), nn.Dense(3))
    return net


@pytest.mark.parametrize("hybridize", [False, True])
def test_mlp_dropout_weight_decay(hybridize, tmp_path):
    npx.random.seed(1)
    x, y = _classification_data(48, (6,), 3, seed=1)
    net = _mlp(hybridize)
    net.initialize(init.Normal(sigma=0.1))
    if hybridize:
        net.hybridize()  # one compiled graph for the whole model
    losses = _train(net, x, y, steps=40, lr=0.3, wd=1e-3)
    assert losses[-1] < 0.7 * losses[0], losses
    if hybridize:
        _check_compiled(net, tmp_path)
    _check_round_trip(net, lambda: _mlp(hybridize), x, tmp_path)  # predict mode: Dropout is the identity


def test_weight_decay_step_is_sgd_with_wd():
    """One Trainer step in NumPy mode: w <- w - lr * (grad / batch + wd * w), on the np views."""
    x, y = _classification_data(8, (5,), 3, seed=2)
    net = nn.Dense(3, in_units=5)
    net.initialize(init.Normal(sigma=0.5))
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "wd": 0.05})
    with autograd.record():
        l = gluon.loss.SoftmaxCrossEntropyLoss()(net(x), y)
    l.backward()
    w = net.weight.data()
    g = net.weight.grad()
    assert isinstance(w, np.ndarray) and isinstance(g, np.ndarray)
    before, grad = w.asnumpy().copy(), g.asnumpy().copy()
    assert onp.abs(grad).sum() > 0
    trainer.step(8)
    expect = before - 0.1 * (grad / 8 + 0.05 * before)
    onp.testing.assert_allclose(net.weight.data().asnumpy(), expect, rtol=1e-5, atol=1e-6)
    # the np view is the parameter's memory, not a copy: it shows the update
    onp.testing.assert_allclose(w.asnumpy(), expect, rtol=1e-5, atol=1e-6)


def _lenet(hybrid=False, act="relu"):
    """d2l's LeNet (chapter 7.6); ReLU, as its exercises suggest, learns in a few steps
    where the sigmoid original needs epochs."""
    net = nn.HybridSequential() if hybrid else nn.Sequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation=act),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=5, activation=act),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Dense(120, activation=act),
            nn.Dense(84, activation=act),
            nn.Dense(10))
    return net


@pytest.mark.parametrize("hybridize", [False, True])
def test_lenet(hybridize, tmp_path):
    x, y = _classification_data(32, (1, 28, 28), 4, seed=3)
    net = _lenet(hybridize)
    net.initialize(init.Xavier())
    if hybridize:
        net.hybridize()  # one compiled graph for the whole model
    for layer in net:  # d2l's shape walk: each layer's output is an np array
        x_l = layer(x[:2]) if layer is net[0] else layer(x_l)
        assert isinstance(x_l, np.ndarray)
    assert x_l.shape == (2, 10)
    losses = _train(net, x, y, steps=20, lr=0.05)
    assert losses[-1] < 0.7 * losses[0], losses
    if hybridize:
        _check_compiled(net, tmp_path)
    _check_round_trip(net, lambda: _lenet(hybridize), x, tmp_path)


class Residual(nn.Block):  # d2l's chapter 8.6, verbatim
    """The residual block of ResNet."""

    def __init__(self, num_channels, use_1x1conv=False, strides=1, **kwargs):
        super().__init__(**kwargs)
        self.conv1 = nn.Conv2D(num_channels, kernel_size=3, padding=1, strides=strides)
        self.conv2 = nn.Conv2D(num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.Conv2D(num_channels, kernel_size=1, strides=strides)
        else:
            self.conv3 = None
        self.bn1 = nn.BatchNorm()
        self.bn2 = nn.BatchNorm()

    def forward(self, X):
        Y = npx.relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        return npx.relu(Y + X)


def _resnet():
    net = nn.Sequential()
    net.add(nn.Conv2D(8, kernel_size=3, padding=1), nn.BatchNorm(), nn.Activation("relu"),
            Residual(8), Residual(16, use_1x1conv=True, strides=2),
            nn.GlobalAvgPool2D(), nn.Dense(5))
    return net


def test_residual_shapes():
    blk = Residual(3)
    blk.initialize()
    X = np.random.uniform(size=(4, 3, 6, 6))
    Y = blk(X)
    assert isinstance(Y, np.ndarray) and Y.shape == (4, 3, 6, 6)
    blk = Residual(6, use_1x1conv=True, strides=2)
    blk.initialize()
    assert blk(X).shape == (4, 6, 3, 3)


@pytest.mark.parametrize("hybridize", [False, True])
def test_resnet_block_batch_norm(hybridize, tmp_path):
    x, y = _classification_data(16, (3, 8, 8), 5, seed=4)
    net = _resnet()
    net.initialize(init.Xavier())
    if hybridize:
        net.hybridize()  # the HybridBlock children compile; the user's Residual stays imperative
    losses = _train(net, x, y, steps=12, lr=0.1)
    assert losses[-1] < losses[0], losses
    bn = net[1]
    assert isinstance(bn.running_mean.data(), np.ndarray)
    assert onp.abs(bn.running_mean.data().asnumpy()).sum() > 0  # the moving statistics were updated
    _check_round_trip(net, _resnet, x, tmp_path)


def test_lenet_hybridized_matches_imperative(tmp_path):
    """The compiled graph computes what the imperative run does: outputs and gradients."""
    x, y = _classification_data(4, (1, 28, 28), 4, seed=5)
    ref = _lenet(True)
    ref.initialize(init.Xavier())
    ref(x)
    fname = os.path.join(str(tmp_path), "lenet.params")
    ref.save_parameters(fname)
    grads = []
    for hybridize in (False, True):
        net = _lenet(True)
        net.load_parameters(fname)
        if hybridize:
            net.hybridize()
        with autograd.record():
            out = net(x)
            l = gluon.loss.SoftmaxCrossEntropyLoss()(out, y)
        l.backward()
        assert isinstance(out, np.ndarray)
        grads.append([out.asnumpy()] + [p.grad().asnumpy() for p in net.collect_params().values()])
        if hybridize:
            _check_compiled(net, tmp_path)
    for a, b in zip(*grads):
        onp.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
