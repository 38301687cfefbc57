"""weft.gluon.nn layers against NumPy references (small shapes): Dense,
Dropout, BatchNorm (training vs inference, running statistics), LayerNorm,
InstanceNorm, Embedding, Flatten, Lambda/HybridLambda, activations,
Conv1D/2D, Conv2DTranspose, pooling; gradients of Dense and Conv2D against
NumPy and finite differences; each layer also hybridized."""
import math

import numpy as np
import pytest

import weft as mx
from weft import autograd, nd
from weft.base import InvalidArgumentError
from weft.gluon import nn


@pytest.fixture(autouse=True)
def fresh_names():
    with mx.name.NameManager():
        yield


def _np(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _both(layer_fn, x, ref_fn, rtol=1e-5, atol=1e-5, init=None):
    """Checks the imperative and the hybridized layer against ref_fn(params, x)."""
    for hybridize in (False, True):
        if hybridize:
            pytest.importorskip("weft.cached_op")
        layer = layer_fn()
        layer.initialize(init)
        if hybridize:
            layer.hybridize()
        out = layer(nd.array(x)).asnumpy()
        params = {k: p.data().asnumpy() for k, p in layer._collect_params_with_prefix().items()}
        np.testing.assert_allclose(out, ref_fn(params, x), rtol=rtol, atol=atol,
                                   err_msg="hybridized" if hybridize else "imperative")


# -- reference convolution / pooling ----------------------------------------------------------------------------
def _conv2d(x, w, b, stride, pad, dilate, groups):
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    oh = (h + 2 * pad[0] - dilate[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * pad[1] - dilate[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, f, oh, ow), np.float64)
    fg = f // groups
    for g in range(groups):
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * stride[0]:i * stride[0] + dilate[0] * (kh - 1) + 1:dilate[0],
                           j * stride[1]:j * stride[1] + dilate[1] * (kw - 1) + 1:dilate[1]]
                out[:, g * fg:(g + 1) * fg, i, j] = np.tensordot(patch, w[g * fg:(g + 1) * fg], ([1, 2, 3], [1, 2, 3]))
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def _deconv2d(x, w, b, stride, pad, adj):
    n, c, h, wd = x.shape
    _, f, kh, kw = w.shape
    full = np.zeros((n, f, (h - 1) * stride[0] + kh, (wd - 1) * stride[1] + kw), np.float64)
    for i in range(h):
        for j in range(wd):
            full[:, :, i * stride[0]:i * stride[0] + kh, j * stride[1]:j * stride[1] + kw] += \
                np.tensordot(x[:, :, i, j], w, ([1], [0]))
    oh = (h - 1) * stride[0] - 2 * pad[0] + kh + adj[0]
    ow = (wd - 1) * stride[1] - 2 * pad[1] + kw + adj[1]
    full = np.pad(full, ((0, 0), (0, 0), (0, adj[0]), (0, adj[1])))
    out = full[:, :, pad[0]:pad[0] + oh, pad[1]:pad[1] + ow]
    if b is not None:
        out = out + b.reshape(1, -1, 1, 1)
    return out


def _pool2d(x, k, stride, pad, kind, ceil_mode=False, count_include_pad=True):
    n, c, h, w = x.shape
    rnd = math.ceil if ceil_mode else math.floor
    oh = int(rnd((h + 2 * pad[0] - k[0]) / stride[0])) + 1
    ow = int(rnd((w + 2 * pad[1] - k[1]) / stride[1])) + 1
    out = np.zeros((n, c, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * stride[0] - pad[0], j * stride[1] - pad[1]
            h1, w1 = min(h0 + k[0], h + pad[0]), min(w0 + k[1], w + pad[1])
            hs, ws = max(h0, 0), max(w0, 0)
            he, we = min(h1, h), min(w1, w)
            win = x[:, :, hs:he, ws:we]
            if kind == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                size = (h1 - h0) * (w1 - w0) if count_include_pad else (he - hs) * (we - ws)
                out[:, :, i, j] = win.sum(axis=(2, 3)) / size
    return out


# -- Dense -------------------------------------------------------------------------------------------------------
def test_dense_forward_and_repr():
    x = _np(3, 2, 2, seed=1)
    _both(lambda: nn.Dense(4, activation="relu"), x,
          lambda p, x: np.maximum(x.reshape(3, -1) @ p["weight"].T + p["bias"], 0))
    _both(lambda: nn.Dense(4, use_bias=False, flatten=False, in_units=2), x,
          lambda p, x: x @ p["weight"].T)
    d = nn.Dense(4, in_units=5, use_bias=False)
    assert d.weight.shape == (4, 5) and d.bias is None
    assert repr(d) == "Dense(5 -> 4, linear)"
    assert nn.Dense(7, dtype="float64", in_units=2).weight.dtype == "float64"


def test_dense_gradients_match_numpy():
    x = _np(4, 5, seed=2)
    head = _np(4, 3, seed=3)
    for hybridize in (False, True):
        layer = nn.Dense(3, activation="tanh", in_units=5)
        layer.initialize(mx.init.Xavier())
        if hybridize:
            pytest.importorskip("weft.cached_op")
            layer.hybridize()
        xa = nd.array(x)
        xa.attach_grad()
        with autograd.record():
            y = layer(xa)
        y.backward(nd.array(head))
        w, b = layer.weight.data().asnumpy(), layer.bias.data().asnumpy()
        dz = (1 - np.tanh(x @ w.T + b) ** 2) * head
        np.testing.assert_allclose(layer.weight.grad().asnumpy(), dz.T @ x, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(layer.bias.grad().asnumpy(), dz.sum(0), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(xa.grad.asnumpy(), dz @ w, rtol=1e-4, atol=1e-5)


# -- convolution ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(channels=4, kernel_size=3),
    dict(channels=4, kernel_size=(3, 2), strides=(2, 1), padding=(1, 0)),
    dict(channels=4, kernel_size=3, dilation=2, padding=2, use_bias=False),
    dict(channels=4, kernel_size=3, groups=2, padding=1, activation="relu"),
])
def test_conv2d_forward(kw):
    x = _np(2, 4, 7, 6, seed=4)
    k = kw["kernel_size"]
    k = (k, k) if isinstance(k, int) else k

    def tup(v, d):
        v = kw.get(v, d)
        return (v, v) if isinstance(v, int) else v

    def ref(p, x):
        out = _conv2d(x, p["weight"], p.get("bias"), tup("strides", 1), tup("padding", 0), tup("dilation", 1),
                      kw.get("groups", 1))
        return np.maximum(out, 0) if kw.get("activation") == "relu" else out
    _both(lambda: nn.Conv2D(**kw), x, ref, rtol=1e-4, atol=1e-4, init=mx.init.Xavier())
    conv = nn.Conv2D(**kw)
    assert conv.weight.shape == (4, 0) + tuple(k)
    conv = nn.Conv2D(in_channels=4, **kw)
    assert conv.weight.shape == (4, 4 // kw.get("groups", 1)) + tuple(k)


def test_conv1d_forward():
    x = _np(2, 3, 9, seed=5)
    _both(lambda: nn.Conv1D(5, 3, strides=2, padding=1), x,
          lambda p, x: _conv2d(x[:, :, None, :], p["weight"][:, :, None, :], p["bias"], (1, 2), (0, 1), (1, 1),
                               1)[:, :, 0, :], rtol=1e-4, atol=1e-4)
    assert repr(nn.Conv1D(5, 3, in_channels=3)) == "Conv1D(3 -> 5, kernel_size=(3,), stride=(1,))"


def test_conv2d_transpose_forward():
    x = _np(2, 3, 4, 5, seed=6)
    _both(lambda: nn.Conv2DTranspose(2, 3, strides=2, padding=1, output_padding=1), x,
          lambda p, x: _deconv2d(x, p["weight"], p["bias"], (2, 2), (1, 1), (1, 1)), rtol=1e-4, atol=1e-4)
    layer = nn.Conv2DTranspose(2, 3, in_channels=3)
    assert layer.weight.shape == (3, 2, 3, 3)
    assert nn.Conv2DTranspose(2, 3).weight.shape == (0, 2, 3, 3)


def test_conv2d_gradients_match_finite_differences():
    x = _np(1, 2, 5, 5, seed=7)
    head = _np(1, 3, 3, 3, seed=8)
    conv = nn.Conv2D(3, 3, in_channels=2)
    conv.initialize(mx.init.Xavier())
    with autograd.record():
        y = conv(nd.array(x))
    y.backward(nd.array(head))
    w = conv.weight.data().asnumpy().astype(np.float64)
    b = conv.bias.data().asnumpy().astype(np.float64)

    def loss(wv):
        return (_conv2d(x.astype(np.float64), wv, b, (1, 1), (0, 0), (1, 1), 1) * head).sum()
    rng = np.random.default_rng(9)
    gw = conv.weight.grad().asnumpy()
    for _ in range(6):
        idx = tuple(rng.integers(0, s) for s in w.shape)
        e = np.zeros_like(w)
        e[idx] = 1e-3
        numeric = (loss(w + e) - loss(w - e)) / 2e-3
        np.testing.assert_allclose(gw[idx], numeric, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(conv.bias.grad().asnumpy(), head.sum(axis=(0, 2, 3)), rtol=1e-4, atol=1e-5)


def test_conv_layout_and_argument_errors():
    with pytest.raises(InvalidArgumentError, match="layout 'NHWC' is not supported"):
        nn.Conv2D(2, 3, layout="NHWC")
    with pytest.raises(InvalidArgumentError, match="kernel_size"):
        nn.Conv2D(2, (3, 3, 3))


# -- pooling -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make,kind,k,s,p,ceil,cip", [
    (lambda: nn.MaxPool2D(), "max", (2, 2), (2, 2), (0, 0), False, True),
    (lambda: nn.MaxPool2D(3, 2, 1, ceil_mode=True), "max", (3, 3), (2, 2), (1, 1), True, True),
    (lambda: nn.AvgPool2D(3, 2, 1), "avg", (3, 3), (2, 2), (1, 1), False, True),
    (lambda: nn.AvgPool2D(3, 2, 1, count_include_pad=False), "avg", (3, 3), (2, 2), (1, 1), False, False),
    (lambda: nn.AvgPool2D((2, 3), (1, 2)), "avg", (2, 3), (1, 2), (0, 0), False, True),
], ids=["max", "max-ceil-pad", "avg-pad", "avg-exclude-pad", "avg-rect"])
def test_pool2d_forward(make, kind, k, s, p, ceil, cip):
    x = _np(2, 3, 7, 7, seed=10)
    _both(make, x, lambda _, x: _pool2d(x, k, s, p, kind, ceil, cip))


def test_pool1d_and_global_pools():
    x = _np(2, 3, 9, seed=11)
    _both(lambda: nn.MaxPool1D(3, 2), x, lambda _, x: _pool2d(x[:, :, None, :], (1, 3), (1, 2), (0, 0), "max")[:, :, 0])
    _both(lambda: nn.AvgPool1D(), x, lambda _, x: _pool2d(x[:, :, None, :], (1, 2), (1, 2), (0, 0), "avg")[:, :, 0])
    _both(lambda: nn.GlobalAvgPool1D(), x, lambda _, x: x.mean(axis=2, keepdims=True))
    x = _np(2, 3, 5, 4, seed=12)
    _both(lambda: nn.GlobalAvgPool2D(), x, lambda _, x: x.mean(axis=(2, 3), keepdims=True))
    _both(lambda: nn.GlobalMaxPool2D(), x, lambda _, x: x.max(axis=(2, 3), keepdims=True))
    assert repr(nn.MaxPool2D()) == ("MaxPool2D(size=(2, 2), stride=(2, 2), padding=(0, 0), ceil_mode=False, "
                                    "global_pool=False, pool_type=max, layout=NCHW)")


# -- normalization -------------------------------------------------------------------------------------------------
def _bn_ref(x, gamma, beta, mean, var, eps=1e-5):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * gamma.reshape(shape) + \
        beta.reshape(shape)


@pytest.mark.parametrize("hybridize", [False, True], ids=["imperative", "hybridized"])
def test_batchnorm_training_updates_running_stats(hybridize):
    if hybridize:
        pytest.importorskip("weft.cached_op")
    x = _np(4, 3, 2, 2, seed=13) * 2 + 1
    bn = nn.BatchNorm(momentum=0.8, gamma_initializer=mx.init.Constant(1.5), beta_initializer="ones")
    bn.initialize()
    if hybridize:
        bn.hybridize()
    g, b = np.full(3, 1.5, np.float32), np.ones(3, np.float32)
    # inference: running stats (0, 1)
    np.testing.assert_allclose(bn(nd.array(x)).asnumpy(), _bn_ref(x, g, b, np.zeros(3), np.ones(3)), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_array_equal(bn.running_mean.data().asnumpy(), np.zeros(3))
    # training: batch stats, running = 0.8 * running + 0.2 * batch (biased variance)
    with autograd.record():
        y = bn(nd.array(x))
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    np.testing.assert_allclose(y.asnumpy(), _bn_ref(x, g, b, mean, var), rtol=1e-4, atol=1e-4)
    rm, rv = 0.2 * mean, 0.8 + 0.2 * var
    np.testing.assert_allclose(bn.running_mean.data().asnumpy(), rm, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.running_var.data().asnumpy(), rv, rtol=1e-5, atol=1e-6)
    with autograd.record(train_mode=False):  # recording in predict mode uses the running statistics
        y = bn(nd.array(x))
    np.testing.assert_allclose(y.asnumpy(), _bn_ref(x, g, b, rm, rv), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn.running_mean.data().asnumpy(), rm, rtol=1e-5, atol=1e-6)
    assert bn.running_mean.grad_req == "null" and bn.gamma.grad_req == "write"
    assert bn.gamma.shape == (3,)


def test_batchnorm_options_and_repr():
    x = _np(4, 3, 5, seed=14)
    bn = nn.BatchNorm(axis=1, scale=False, center=False, use_global_stats=True, in_channels=3)
    assert bn.gamma.grad_req == "null" and bn.beta.grad_req == "null"
    bn.initialize()
    with autograd.record():
        y = bn(nd.array(x))
    np.testing.assert_allclose(y.asnumpy(), _bn_ref(x, np.ones(3), np.zeros(3), np.zeros(3), np.ones(3)),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(bn.running_mean.data().asnumpy(), np.zeros(3))  # global stats: unchanged
    assert repr(nn.BatchNorm()) == ("BatchNorm(axis=1, eps=1e-05, momentum=0.9, fix_gamma=False, "
                                    "use_global_stats=False, in_channels=None)")
    assert nn.BatchNorm(in_channels=4).in_channels == 4


def test_layernorm_and_instancenorm():
    x = _np(2, 3, 4, seed=15)

    def ln(p, x):
        m, v = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-5) * p["gamma"] + p["beta"]
    _both(lambda: nn.LayerNorm(gamma_initializer=mx.init.Constant(2.0), beta_initializer=mx.init.Constant(0.5)),
          x, ln, rtol=1e-4, atol=1e-4)

    def ln1(p, x):
        m, v = x.mean(1, keepdims=True), x.var(1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-5) * p["gamma"].reshape(1, 3, 1) + p["beta"].reshape(1, 3, 1)
    _both(lambda: nn.LayerNorm(axis=1, beta_initializer=mx.init.Constant(0.5)), x, ln1, rtol=1e-4, atol=1e-4)

    def inorm(p, x):
        m, v = x.mean(2, keepdims=True), x.var(2, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-5) * p["gamma"].reshape(1, 3, 1) + p["beta"].reshape(1, 3, 1)
    _both(lambda: nn.InstanceNorm(gamma_initializer=mx.init.Constant(1.5), beta_initializer=mx.init.Constant(-1)),
          x, inorm, rtol=1e-4, atol=1e-4)
    assert nn.LayerNorm(in_channels=4).gamma.shape == (4,)
    assert nn.InstanceNorm().gamma.grad_req == "null"  # scale=False by default


# -- other layers --------------------------------------------------------------------------------------------------
def test_embedding_flatten_dropout_lambda():
    idx = np.array([[0, 3], [2, 2]], np.float32)
    _both(lambda: nn.Embedding(5, 3), idx, lambda p, x: p["weight"][x.astype(int)])
    assert repr(nn.Embedding(5, 3)) == "Embedding(5 -> 3, float32)"
    x = _np(2, 3, 4, seed=16)
    _both(lambda: nn.Flatten(), x, lambda _, x: x.reshape(2, -1))
    _both(lambda: nn.Dropout(0.5), x, lambda _, x: x)  # identity in inference
    _both(lambda: nn.Dropout(0.0), x, lambda _, x: x)
    _both(lambda: nn.HybridLambda("tanh"), x, lambda _, x: np.tanh(x))
    _both(lambda: nn.HybridLambda(lambda F, x: F.relu(x) * 2), x, lambda _, x: np.maximum(x, 0) * 2)
    lam = nn.Lambda("sigmoid")
    np.testing.assert_allclose(lam(nd.array(x)).asnumpy(), 1 / (1 + np.exp(-x)), rtol=1e-5)
    assert repr(lam) == "Lambda(sigmoid)"
    assert repr(nn.Lambda(lambda x: x)) == "Lambda(<lambda>)"
    with pytest.raises(InvalidArgumentError, match="not found"):
        nn.Lambda("no_such_op")


def test_dropout_training_mask_and_scale():
    x = np.ones((200, 50), np.float32)
    drop = nn.Dropout(0.4)
    with autograd.record():
        y = drop(nd.array(x)).asnumpy()
    zeros = (y == 0).mean()
    assert 0.35 < zeros < 0.45
    np.testing.assert_allclose(y[y != 0], 1 / 0.6, rtol=1e-5)
    shared = nn.Dropout(0.5, axes=(1,))
    with autograd.record():
        y = shared(nd.array(x)).asnumpy()
    assert all(len(set(row)) == 1 for row in y)  # one mask value per row


# -- activations ---------------------------------------------------------------------------------------------------
def _erf(v):
    return np.vectorize(math.erf)(v)


@pytest.mark.parametrize("make,ref", [
    (lambda: nn.Activation("relu"), lambda x: np.maximum(x, 0)),
    (lambda: nn.Activation("sigmoid"), lambda x: 1 / (1 + np.exp(-x))),
    (lambda: nn.Activation("tanh"), np.tanh),
    (lambda: nn.Activation("softrelu"), lambda x: np.log1p(np.exp(x))),
    (lambda: nn.LeakyReLU(0.1), lambda x: np.where(x > 0, x, 0.1 * x)),
    (lambda: nn.ELU(0.7), lambda x: np.where(x > 0, x, 0.7 * (np.exp(x) - 1))),
    (lambda: nn.SELU(), lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))),
    (lambda: nn.GELU(), lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2)))),
    (lambda: nn.Swish(2.0), lambda x: x / (1 + np.exp(-2 * x))),
    (lambda: nn.SiLU(), lambda x: x / (1 + np.exp(-x))),
], ids=["relu", "sigmoid", "tanh", "softrelu", "leaky", "elu", "selu", "gelu", "swish", "silu"])
def test_activations(make, ref):
    x = _np(3, 4, seed=17)
    _both(make, x, lambda _, x: ref(x.astype(np.float64)), rtol=1e-4, atol=1e-5)


def test_prelu_learns_alpha():
    x = _np(2, 3, 4, seed=18)
    _both(lambda: nn.PReLU(), x, lambda p, x: np.where(x > 0, x, 0.25 * x))
    prelu = nn.PReLU(alpha_initializer=mx.init.Constant(0.1), in_channels=3)
    prelu.initialize()
    with autograd.record():
        y = prelu(nd.array(x))
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), np.where(x > 0, x, 0.1 * x), rtol=1e-5)
    np.testing.assert_allclose(prelu.alpha.grad().asnumpy(), np.where(x > 0, 0, x).sum(axis=(0, 2)), rtol=1e-4,
                               atol=1e-5)
    assert repr(nn.Activation("relu")) == "Activation(relu)" and repr(nn.LeakyReLU(0.1)) == "LeakyReLU(0.1)"
    with pytest.raises(InvalidArgumentError, match="no less than 0"):
        nn.LeakyReLU(-1)
