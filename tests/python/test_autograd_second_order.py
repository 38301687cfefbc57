"""Second-order gradients (autograd.grad with create_graph=True), imperative
and through hybridized blocks (Note [Replaying an opaque node] in
core/autograd/autograd.cc). Each case computes h(x) = sum(grad f(x) ** 2) with
create_graph, differentiates h again, and checks that against central
differences of h in float64."""
import numpy as np
import pytest

import weft as mx
from weft import autograd, nd
from weft.base import InvalidArgumentError
from weft.gluon import nn


def _penalty(f, x):
    """h(x) = sum(grad_x sum(f(x)) ** 2) on the tape."""
    g = autograd.grad(f(x).sum(), [x], create_graph=True)[0]
    return (g * g).sum()


def _second_order(f, x0):
    x = nd.array(x0, dtype="float64")
    x.attach_grad()
    with autograd.record():
        h = _penalty(f, x)
    h.backward()
    return x.grad.asnumpy()


def _numeric(f, x0, eps=1e-6):
    def h(v):
        x = nd.array(v, dtype="float64")
        x.attach_grad()
        with autograd.record():
            y = f(x).sum()
        y.backward()
        return float((x.grad.asnumpy() ** 2).sum())
    out = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        up, down = x0.copy(), x0.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (h(up) - h(down)) / (2 * eps)
    return out


X0 = np.array([[0.3, -0.7, 1.1], [-0.2, 0.5, 0.9]])

CASES = {
    "sin": lambda x: nd.sin(x),
    "tanh": lambda x: nd.tanh(x),
    "sigmoid": lambda x: nd.sigmoid(x),
    "exp": lambda x: nd.exp(x),
    "sum_axis": lambda x: nd.sum(x * x * x, axis=1),
    "mean_keepdims": lambda x: nd.mean(nd.sin(x), axis=0, keepdims=True) * 3,
    "act_relu": lambda x: nd.Activation(x * x, act_type="relu"),
    "act_tanh": lambda x: nd.Activation(x, act_type="tanh") * x,
    "act_sigmoid": lambda x: nd.Activation(x, act_type="sigmoid") * x,
    "act_softrelu": lambda x: nd.Activation(x, act_type="softrelu") * x,
    "act_log_sigmoid": lambda x: nd.Activation(x, act_type="log_sigmoid") * x,
    "softmax": lambda x: nd.softmax(x * x, axis=1) * nd.array([[1.0, -2.0, 0.5]], dtype="float64"),
    "softmax_axis0_temperature": lambda x: nd.softmax(nd.sin(x), axis=0, temperature=0.7) * x,
    "log_softmax": lambda x: nd.log_softmax(x * x) * nd.array([[1.0, -2.0, 0.5]], dtype="float64"),
    "log_softmax_axis0_temperature": lambda x: nd.log_softmax(nd.sin(x), axis=0, temperature=1.5) * x,
    "leaky_relu": lambda x: nd.LeakyReLU(x, act_type="leaky", slope=0.2) * x,
    "elu": lambda x: nd.LeakyReLU(x, act_type="elu", slope=0.7) * x,
    "selu": lambda x: nd.LeakyReLU(x, act_type="selu") * x,
    "gelu": lambda x: nd.LeakyReLU(x, act_type="gelu"),
    "avg_pool": lambda x: nd.Pooling(nd.sin(x).reshape((1, 1, 2, 3)), kernel=(2, 2), pool_type="avg",
                                     stride=(1, 1)) ** 2,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_order_matches_finite_differences(name):
    f = CASES[name]
    np.testing.assert_allclose(_second_order(f, X0), _numeric(f, X0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("f, message", [
    (lambda v: nd.Activation(v, act_type="softsign"), "Activation: no second-order gradient for act_type='softsign'"),
    (lambda v: nd.LeakyReLU(v, act_type="prelu", gamma=nd.array([0.2])),
     "LeakyReLU: no second-order gradient for act_type='prelu'"),
    (lambda v: nd.Pooling(v.reshape((1, 1, 2, 3)), kernel=(2, 2), pool_type="max"),
     "Pooling: no second-order gradient for pool_type='max'"),
])
def test_unsupported_second_order_names_itself(f, message):
    x = nd.array(X0)
    x.attach_grad()
    with autograd.record():
        h = _penalty(f, x)
    with pytest.raises(InvalidArgumentError, match=message.replace("(", r"\(")):
        h.backward()


class _Scaled(nn.HybridBlock):
    """A block whose inputs depend on each other: out = tanh(x * w) * w."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get("w", shape=(3,), init=mx.init.Constant(0.7))

    def hybrid_forward(self, F, x, w):  # pylint: disable=arguments-differ
        return F.broadcast_mul(F.tanh(F.broadcast_mul(x, w)), w)


def _gradient_penalty(block, x0):
    """d/dw of sum(grad_x sum(block(x)) ** 2), and the penalty itself."""
    x = nd.array(x0)
    x.attach_grad()
    with autograd.record():
        h = _penalty(block, x)
    h.backward()
    return h.asscalar(), block.w.grad().asnumpy().copy()


def test_hybridized_block_differentiates_twice_like_imperative():
    block = _Scaled()
    block.initialize()
    imperative = _gradient_penalty(block, X0)
    block.hybridize()
    hybrid = _gradient_penalty(block, X0)
    np.testing.assert_allclose(hybrid[0], imperative[0], rtol=1e-5)
    np.testing.assert_allclose(hybrid[1], imperative[1], rtol=1e-4, atol=1e-6)
    # and against finite differences in w
    w0, eps = block.w.data().asnumpy().astype(np.float64), 1e-3
    numeric = np.zeros(3)
    for i in range(3):
        vals = []
        for d in (eps, -eps):
            w = w0.copy()
            w[i] += d
            block.w.set_data(nd.array(w))
            vals.append(_gradient_penalty(block, X0)[0])
        numeric[i] = (vals[0] - vals[1]) / (2 * eps)
    np.testing.assert_allclose(hybrid[1], numeric, rtol=2e-2, atol=1e-3)


def test_hybridized_dropout_in_training_refuses_second_order():
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3), nn.Dropout(0.5))
    net.initialize()
    net.hybridize()
    x = nd.array(X0)
    x.attach_grad()
    with autograd.record():
        y = net(x).sum()
        with pytest.raises(InvalidArgumentError, match="random operator Dropout.*inline_recording"):
            autograd.grad(y, [x], create_graph=True)


def test_inline_recording_differentiates_dropout_twice():
    """hybridize(inline_recording=True) records op by op, so the mask drawn is
    the one differentiated; under one seed it matches the imperative run."""
    def run(**flags):
        net = nn.HybridSequential()
        net.add(nn.Dense(6, activation="tanh", in_units=3), nn.Dropout(0.5), nn.Dense(1, in_units=6))
        net.initialize(mx.init.Constant(0.3))
        if flags:
            net.hybridize(**flags)
        mx.random.seed(11)
        x = nd.array(X0)
        x.attach_grad()
        with autograd.record():
            h = _penalty(net, x)
        h.backward()
        return x.grad.asnumpy()
    imperative, inline = run(), run(inline_recording=True)
    np.testing.assert_allclose(inline, imperative, rtol=1e-6)
    assert np.abs(imperative).max() > 0


def test_hybridized_batchnorm_statistics_update_once():
    """The replay runs on copies of the moving statistics."""
    def run(hybridize):
        net = nn.HybridSequential()
        net.add(nn.BatchNorm(in_channels=3), nn.Activation("tanh"))
        net.initialize()
        if hybridize:
            net.hybridize()
        x = nd.array(X0)
        x.attach_grad()
        with autograd.record():
            g = autograd.grad(net(x).sum(), [x], create_graph=True)[0]
        return g.asnumpy(), net[0].running_mean.data().asnumpy()
    imp, hyb = run(False), run(True)
    np.testing.assert_allclose(hyb[0], imp[0], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(hyb[1], imp[1], rtol=1e-6)
    assert np.abs(imp[1]).max() > 0  # the statistics did move, once


def _fc(flatten):
    def two_layers(x, a):
        h1 = nd.Activation(nd.FullyConnected(x, a["w1"], a["b1"], num_hidden=4, flatten=flatten), act_type="tanh")
        return nd.FullyConnected(h1, a["w2"], num_hidden=2, no_bias=True, flatten=flatten)
    rng = np.random.RandomState(3)
    return two_layers, {"x": rng.randn(2, 3, 2), "w1": rng.randn(4, 6 if flatten else 2), "b1": rng.randn(4),
                        "w2": rng.randn(2, 4)}


def _conv():
    def two_layers(x, a):
        h1 = nd.Activation(nd.Convolution(x, a["w1"], a["b1"], kernel=(2, 2), num_filter=2, pad=(1, 0),
                                          stride=(1, 2)), act_type="sigmoid")
        return nd.Convolution(h1, a["w2"], kernel=(1, 2), num_filter=1, no_bias=True)
    rng = np.random.RandomState(4)
    return two_layers, {"x": rng.randn(1, 2, 3, 4), "w1": rng.randn(2, 2, 2, 2), "b1": rng.randn(2),
                        "w2": rng.randn(1, 2, 1, 2)}


def _deconv():
    def two_layers(x, a):
        h1 = nd.Activation(nd.Deconvolution(x, a["w1"], a["b1"], kernel=(2, 2), num_filter=2, stride=(2, 1), no_bias=False),
                           act_type="tanh")
        return nd.Deconvolution(h1, a["w2"], kernel=(1, 1), num_filter=1, no_bias=True)
    rng = np.random.RandomState(5)
    return two_layers, {"x": rng.randn(1, 2, 2, 2), "w1": rng.randn(2, 2, 2, 2), "b1": rng.randn(2),
                        "w2": rng.randn(2, 1, 1, 1)}


LAYERS = {"fc_flatten": lambda: _fc(True), "fc_last_axis": lambda: _fc(False), "conv": _conv, "deconv": _deconv}


def _layer_penalty_grads(layer, values):
    """Gradients of h = sum(grad_x sum(layer(x)) ** 2) by x and every weight, in float64."""
    arrs = {k: nd.array(v, dtype="float64") for k, v in values.items()}
    for a in arrs.values():
        a.attach_grad()
    with autograd.record():
        h = _penalty(lambda x: layer(x, arrs), arrs["x"])
    h.backward()
    return h.asscalar(), {k: a.grad.asnumpy() for k, a in arrs.items()}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_weight_layer_second_order_matches_finite_differences(name):
    """Note [Second order of a bilinear layer]: d/d(out_grad), d/d(data), d/d(weight) and the bias."""
    layer, values = LAYERS[name]()
    _, grads = _layer_penalty_grads(layer, values)
    eps = 1e-6
    for key, v in values.items():
        numeric = np.zeros_like(v)
        for i in np.ndindex(v.shape):
            vals = []
            for d in (eps, -eps):
                moved = dict(values)
                moved[key] = v.copy()
                moved[key][i] += d
                vals.append(_layer_penalty_grads(layer, moved)[0])
            numeric[i] = (vals[0] - vals[1]) / (2 * eps)
        np.testing.assert_allclose(grads[key], numeric, rtol=1e-5, atol=1e-6, err_msg=key)
        assert np.abs(numeric).max() > 1e-3, key  # every input matters here


def test_gradient_penalty_through_hybridized_dense_net():
    """A WGAN-GP style penalty: d/dparams of ||d critic / d x||^2."""
    def run(hybridize):
        mx.random.seed(7)
        net = nn.HybridSequential()
        net.add(nn.Dense(8, activation="tanh", in_units=5), nn.Dense(8, activation="sigmoid"), nn.Dense(1))
        net.initialize(mx.init.Xavier())
        if hybridize:
            net.hybridize()
        x = nd.array(np.random.RandomState(0).randn(4, 5))
        x.attach_grad()
        with autograd.record():
            h = _penalty(net, x)
        h.backward()
        return h.asscalar(), [p.grad().asnumpy() for p in net.collect_params().values()]
    imp, hyb = run(False), run(True)
    np.testing.assert_allclose(hyb[0], imp[0], rtol=1e-5)
    assert len(hyb[1]) == len(imp[1]) == 6
    for i, (h, m) in enumerate(zip(hyb[1], imp[1])):
        np.testing.assert_allclose(h, m, rtol=1e-4, atol=1e-6, err_msg=str(i))
        if i != 5:  # grad_x of the critic does not depend on the last bias
            assert np.abs(m).max() > 0, i
