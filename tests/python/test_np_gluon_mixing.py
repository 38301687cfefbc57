"""Gluon's parameters, utilities and mode mixing in NumPy mode (issue 39 points 2
and 4): Parameter.data/grad/list_* as np views of the parameter's memory, d2l's
custom initializer and parameter access, user blocks written with np/npx (and
F.np/F.npx), split_and_load, clip_global_norm, npx.save/npx.load and parameter
files across modes; legacy and np code in one process, and MXNet's TypeErrors
where one mode's arrays meet the other mode's Gluon."""
import json
import os

import numpy as onp
import pytest

import weft as mx
from weft import autograd, gluon, init, nd, np, npx
from weft.gluon import nn

pytestmark = pytest.mark.filterwarnings(r"error:hybridize\(\)")


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _dense(units=3, in_units=4):
    net = nn.Dense(units, in_units=in_units)
    net.initialize(init.Normal(sigma=0.5))
    return net


def test_parameter_arrays_are_np_views():
    net = _dense()
    x = np.ones((2, 4))
    with autograd.record():
        y = net(x)
    y.backward()
    p = net.weight
    for arr in [p.data(), p.grad(), p.data(mx.cpu())] + p.list_data() + p.list_grad():
        assert isinstance(arr, np.ndarray)
    # no copy: writing through the np view changes what the layer computes
    p.data()[:] = 0
    onp.testing.assert_array_equal(net(x).asnumpy(), onp.broadcast_to(net.bias.data().asnumpy(), (2, 3)))
    npx.reset_np()
    assert not isinstance(p.data(), np.ndarray) and not isinstance(p.grad(), np.ndarray)
    assert not any(isinstance(a, np.ndarray) for a in p.list_data() + p.list_grad())


def test_d2l_parameter_access_and_custom_init():
    """d2l chapter 6.2/6.3: parameter access and MyInit, verbatim."""
    class MyInit(init.Initializer):
        def _init_weight(self, name, data):
            assert isinstance(data, np.ndarray), type(data)
            data[:] = np.random.uniform(-10, 10, data.shape)
            data *= np.abs(data) >= 5

    net = nn.Sequential()
    net.add(nn.Dense(8, activation="relu"), nn.Dense(1))
    net.initialize(MyInit())
    net(np.random.uniform(size=(2, 4)))
    w = net[0].weight.data().asnumpy()
    assert ((w == 0) | (onp.abs(w) >= 5)).all() and onp.abs(w).max() <= 10 and (w != 0).any()
    net[0].weight.data()[:] += 1
    net[0].weight.data()[0, 0] = 42
    assert float(net[0].weight.data()[0, 0]) == 42
    net[1].weight.set_data(np.ones((1, 8)) * 2)
    onp.testing.assert_array_equal(net[1].weight.data().asnumpy(), onp.full((1, 8), 2.0))
    assert isinstance(net[0].bias.data(), np.ndarray)


class CenteredLayer(nn.HybridBlock):  # d2l chapter 6.4 in its hybrid_forward form
    def hybrid_forward(self, F, X):
        return X - X.mean()


class MyDense(nn.Block):  # d2l chapter 6.4
    def __init__(self, units, in_units, **kwargs):
        super().__init__(**kwargs)
        self.weight = self.params.get("weight", shape=(in_units, units))
        self.bias = self.params.get("bias", shape=(units,))

    def forward(self, x):
        linear = np.dot(x, self.weight.data(ctx=x.ctx)) + self.bias.data(ctx=x.ctx)
        return npx.relu(linear)


class NpHybrid(nn.HybridBlock):
    """A hybrid_forward written with F.np / F.npx and a child layer."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = nn.Dense(4)

    def hybrid_forward(self, F, x):
        return F.npx.relu(self.dense(x)) + F.np.ones((1, 4))


def test_user_blocks_get_np_arrays():
    layer = CenteredLayer()
    out = layer(np.array([1.0, 2, 3, 4, 5]))
    assert isinstance(out, np.ndarray) and abs(float(out.sum())) < 1e-6
    dense = MyDense(units=3, in_units=5)
    dense.initialize()
    out = dense(np.random.uniform(size=(2, 5)))
    assert isinstance(out, np.ndarray) and out.shape == (2, 3) and float(out.min()) >= 0
    net = nn.Sequential()
    net.add(MyDense(8, in_units=64), MyDense(1, in_units=8))
    net.initialize()
    assert net(np.random.uniform(size=(2, 64))).shape == (2, 1)


def test_np_hybrid_forward_imperative_and_hybridized(tmp_path):
    net = NpHybrid()
    net.initialize()
    x = np.random.uniform(size=(3, 5))
    ref = net(x)
    assert isinstance(ref, np.ndarray)
    net.hybridize()
    out = net(x)  # traced with weft.sym.np (the module's filter makes a fallback warning an error)
    assert isinstance(out, np.ndarray)
    onp.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-6)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    losses = []
    for _ in range(5):
        with autograd.record():
            l = ((net(x) - 2) ** 2).mean()
        l.backward()
        trainer.step(1)
        losses.append(float(l))
    assert losses[-1] < losses[0], losses
    ops = {n["op"] for n in json.loads(net.export(str(tmp_path / "np_hybrid"))[0].tojson())["nodes"]}
    assert ops == {"null", "_npx_fully_connected", "_npx_relu", "_npi_ones", "_npi_add"}


def test_legacy_output_in_np_mode_is_a_type_error():
    class Legacy(nn.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.relu(x)  # a legacy op: MXNet's np mode needs F.npx.relu

    with pytest.raises(TypeError, match="legacy0.*weft.numpy.ndarray|weft.numpy.ndarray.*legacy0"):
        Legacy(prefix="legacy0_")(np.ones((2, 2)))


def test_np_input_without_np_mode_is_a_type_error():
    net = _dense()
    npx.reset_np()
    with pytest.raises(TypeError, match="npx.set_np"):
        net(np.ones((2, 4)))
    out = net(nd.ones((2, 4)))  # the legacy way still works
    assert type(out) is nd.NDArray


def test_switching_modes_in_one_process(tmp_path):
    """One model used from legacy code and from np code, arrays converted both ways."""
    net = nn.HybridSequential()
    net.add(nn.Dense(5, activation="relu"), nn.Dense(2))
    net.initialize(init.Xavier())
    x_np = np.random.uniform(size=(3, 4))
    out_np = net(x_np)
    npx.reset_np()
    x_nd = x_np.as_nd_ndarray()
    assert type(x_nd) is nd.NDArray
    out_nd = net(x_nd)
    assert type(out_nd) is nd.NDArray
    onp.testing.assert_allclose(out_nd.asnumpy(), out_np.asnumpy(), rtol=1e-6)
    fname = os.path.join(str(tmp_path), "legacy.params")
    net.save_parameters(fname)  # saved in legacy mode ...
    npx.set_np()
    other = nn.HybridSequential()
    other.add(nn.Dense(5, activation="relu"), nn.Dense(2))
    other.load_parameters(fname)  # ... loaded in np mode
    x_back = x_nd.as_np_ndarray()
    assert isinstance(x_back, np.ndarray)
    back = other(x_back)
    assert isinstance(back, np.ndarray)
    onp.testing.assert_allclose(back.asnumpy(), out_np.asnumpy(), rtol=1e-6)
    # the conversions share memory
    x_nd[:] = 0
    assert float(np.abs(x_np).sum()) == 0


def test_npx_save_load_parameters(tmp_path):
    net = _dense()
    fname = os.path.join(str(tmp_path), "w.npz")
    params = {name: p.data() for name, p in net.collect_params().items()}
    npx.save(fname, params)
    loaded = npx.load(fname)
    assert set(loaded) == set(params)
    for name, arr in loaded.items():
        assert isinstance(arr, np.ndarray)
        onp.testing.assert_array_equal(arr.asnumpy(), params[name].asnumpy())


def test_split_and_load():
    x = np.arange(12).reshape(6, 2).astype("float32")
    parts = gluon.utils.split_and_load(x, [mx.cpu(0)])
    assert len(parts) == 1 and isinstance(parts[0], np.ndarray)
    parts = gluon.utils.split_and_load(onp.arange(6, dtype="float32"), [mx.cpu(0)])
    assert isinstance(parts[0], np.ndarray)
    pieces = gluon.utils.split_data(x, 3)
    assert all(isinstance(p, np.ndarray) and p.shape == (2, 2) for p in pieces)
    onp.testing.assert_array_equal(pieces[2].asnumpy(), x.asnumpy()[4:])


def test_clip_global_norm_on_np_gradients():
    net = _dense()
    with autograd.record():
        l = (net(np.ones((2, 4)) * 10) ** 2).sum()
    l.backward()
    grads = [p.grad() for p in net.collect_params().values()]
    before = onp.sqrt(sum((g.asnumpy().astype("float64") ** 2).sum() for g in grads))
    assert before > 1
    norm = gluon.utils.clip_global_norm(grads, 1.0)
    assert isinstance(norm, float) and abs(norm - before) < 1e-3 * before
    after = onp.sqrt(sum((p.grad().asnumpy().astype("float64") ** 2).sum() for p in net.collect_params().values()))
    assert abs(after - 1.0) < 1e-3  # clipped in place, through the np views
    norm = gluon.utils.clip_global_norm(grads, 10.0, check_isfinite=False)
    assert isinstance(norm, np.ndarray)


def test_losses_and_metric_on_np_arrays():
    pred = np.array([[0.2, 0.8], [0.9, 0.1], [0.4, 0.6]])
    label = np.array([1, 0, 0])
    for loss in (gluon.loss.SoftmaxCrossEntropyLoss(), gluon.loss.L2Loss(), gluon.loss.L1Loss(),
                 gluon.loss.SigmoidBinaryCrossEntropyLoss(), gluon.loss.HuberLoss()):
        target = label if isinstance(loss, gluon.loss.SoftmaxCrossEntropyLoss) else np.ones((3, 2))
        out = loss(pred, target)
        assert isinstance(out, np.ndarray) and out.shape == (3,), type(loss).__name__
    expect = -onp.log(onp.exp([0.8, 0.9, 0.4]) / onp.exp(pred.asnumpy()).sum(axis=1))
    onp.testing.assert_allclose(gluon.loss.SoftmaxCrossEntropyLoss()(pred, label).asnumpy(), expect, rtol=1e-5)
    metric = mx.metric.Accuracy()
    metric.update([label], [pred])
    assert metric.get() == ("accuracy", pytest.approx(2 / 3))


def test_export_and_symbolblock_imports_in_numpy_mode(tmp_path):
    """A hybridized model exported in NumPy mode and re-imported gives the same np
    outputs (the graph is written with MXNet's NumPy-mode names: test_np_gluon_hybrid.py)."""
    net = nn.HybridSequential()
    net.add(nn.Conv2D(3, kernel_size=3, activation="relu"), nn.BatchNorm(), nn.Flatten(), nn.Dense(2))
    net.initialize(init.Xavier())
    net.hybridize()
    x = np.random.uniform(size=(2, 1, 6, 6))
    y = net(x)
    prefix = os.path.join(str(tmp_path), "model")
    net.export(prefix)
    imported = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], prefix + "-0000.params")
    z = imported(x)
    assert isinstance(z, np.ndarray)
    onp.testing.assert_allclose(z.asnumpy(), y.asnumpy(), rtol=1e-5, atol=1e-6)
    assert all(isinstance(p.data(), np.ndarray) for p in imported.collect_params().values())


def test_multi_device_training_d2l_style():
    """d2l chapter 13.6's loop on two CPU devices: split_and_load, one loss per device,
    Trainer.step; the copies stay equal and every array is an np array on its device."""
    devices = [npx.cpu(0), npx.cpu(1)]
    net = nn.Sequential()
    net.add(nn.Dense(8, activation="relu"), nn.Dense(2))
    net.initialize(init.Normal(0.1), ctx=devices)
    X = np.random.uniform(size=(8, 3))
    y = np.array([0, 1] * 4)
    X_shards, y_shards = gluon.utils.split_and_load(X, devices), gluon.utils.split_and_load(y, devices)
    assert [a.ctx for a in X_shards] == devices and all(isinstance(a, np.ndarray) for a in X_shards)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
    net(X_shards[0])  # finishes the deferred initialization
    before = net[0].weight.data(devices[0]).asnumpy().copy()
    for _ in range(3):
        with autograd.record():
            ls = [loss(net(X_shard), y_shard) for X_shard, y_shard in zip(X_shards, y_shards)]
        for l in ls:
            l.backward()
        trainer.step(X.shape[0])
    copies = net[0].weight.list_data()
    assert all(isinstance(c, np.ndarray) for c in copies) and [c.ctx for c in copies] == devices
    onp.testing.assert_allclose(copies[0].asnumpy(), copies[1].asnumpy(), rtol=1e-6)
    assert onp.abs(copies[0].asnumpy() - before).max() > 0
    net.collect_params().zero_grad()
    assert all(float(np.abs(g).sum()) == 0 for g in net[0].weight.list_grad())


class FixedHiddenMLP(nn.Block):  # d2l chapter 6.1, verbatim
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rand_weight = self.params.get_constant("rand_weight", np.random.uniform(size=(20, 20)))
        self.dense = nn.Dense(20, activation="relu")

    def forward(self, X):
        X = self.dense(X)
        X = npx.relu(np.dot(X, self.rand_weight.data()) + 1)
        X = self.dense(X)
        while np.abs(X).sum() > 1:
            X /= 2
        return X.sum()


class NestMLP(nn.Block):  # d2l chapter 6.1, verbatim
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.net = nn.Sequential()
        self.net.add(nn.Dense(64, activation="relu"), nn.Dense(32, activation="relu"))
        self.dense = nn.Dense(16, activation="relu")

    def forward(self, X):
        return self.dense(self.net(X))


class MySequential(nn.Block):  # d2l chapter 6.1, verbatim
    def add(self, block):
        self._children[block.name] = block

    def forward(self, X):
        for block in self._children.values():
            X = block(X)
        return X


def test_d2l_custom_blocks():
    X = np.random.uniform(size=(2, 20))
    net = FixedHiddenMLP()
    net.initialize()
    out = net(X)
    assert isinstance(out, np.ndarray) and out.shape == () and 0 < float(out) <= 1
    assert isinstance(net.rand_weight.data(), np.ndarray)
    chimera = nn.Sequential()
    chimera.add(NestMLP(), nn.Dense(20), FixedHiddenMLP())
    chimera.initialize()
    assert isinstance(chimera(X), np.ndarray)
    seq = MySequential()
    seq.add(nn.Dense(256, activation="relu"))
    seq.add(nn.Dense(10))
    seq.initialize()
    assert seq(X).shape == (2, 10) and len(seq.collect_params()) == 4


class TwiceDense(nn.Dense):
    """A user subclass of a built-in layer overriding forward (np code around weft's body)."""

    def forward(self, x):
        return super().forward(x) * 2


@pytest.mark.parametrize("hybridize", [False, True])
def test_user_forward_over_builtin_hybrid_forward(hybridize):
    layer = TwiceDense(3)
    layer.initialize()
    if hybridize:
        layer.hybridize()  # weft's hybrid_forward compiles: no fallback warning
    x = np.ones((2, 4))
    x.attach_grad()
    with autograd.record():
        y = layer(x)
    y.backward()
    assert isinstance(y, np.ndarray) and isinstance(x.grad, np.ndarray)
    expect = 2 * (x.asnumpy() @ layer.weight.data().asnumpy().T + layer.bias.data().asnumpy())
    onp.testing.assert_allclose(y.asnumpy(), expect, rtol=1e-5)
