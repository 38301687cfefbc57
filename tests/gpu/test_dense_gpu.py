"""GPU kernels of the layers (core/op/dense/dot.cu, layer/fully_connected.cu,
convolution.cu, pooling_lrn.cu, rnn.cu, fused_nn.cu) on paths the registry
harness does not reach: backward ops through autograd with 'write' and 'add'
gradients (kAddTo), configurations beyond the harness cases (groups with
dilation and stride, 3-D, target_shape, every pooling rule, max-pooling ties),
a convolution large enough to be split into image chunks, every fused
activation, integer dot, and RNN dropout in training. Each compares gpu(0)
with the CPU kernels."""
import numpy as np
import pytest

import weft
from weft import autograd, nd

G0 = weft.gpu(0)
CPU = weft.cpu(0)


def _arr(x, ctx):
    return nd.array(x, dtype=x.dtype, ctx=ctx)


def _outputs_and_grads(ctx, fn, xs, grad_req, passes):
    """fn's outputs and the inputs' gradients after `passes` backward passes."""
    xs_nd = [_arr(x, ctx) for x in xs]
    for x in xs_nd:
        x.attach_grad(grad_req)
    outs = []
    for k in range(passes):
        with autograd.record():
            outs = fn(*xs_nd)
            outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        rng = np.random.default_rng(11 + k)
        heads = [_arr(rng.uniform(-1, 1, o.shape).astype(xs[0].dtype), ctx) for o in outs]
        autograd.backward(outs, heads)
    return [o.asnumpy() for o in outs] + [x.grad.asnumpy() for x in xs_nd]


def _check_grads(fn, xs, tol=None):
    tol = tol or (1e-4 if xs[0].dtype == np.float32 else 1e-10)
    for grad_req, passes in (("write", 1), ("add", 2)):
        want = _outputs_and_grads(CPU, fn, xs, grad_req, passes)
        got = _outputs_and_grads(G0, fn, xs, grad_req, passes)
        for k, (g, w) in enumerate(zip(got, want)):
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg="%s, result %d" % (grad_req, k))


def _rand(rng, shape, dtype=np.float32, lo=-1, hi=1):
    return rng.uniform(lo, hi, shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("flatten,no_bias", [(True, False), (False, True)])
def test_fully_connected_grads(dtype, flatten, no_bias):
    rng = np.random.default_rng(0)
    x = _rand(rng, (3, 2, 5), dtype)
    in_dim = 10 if flatten else 5
    xs = [x, _rand(rng, (4, in_dim), dtype)] + ([] if no_bias else [_rand(rng, (4,), dtype)])
    _check_grads(lambda *a: nd.FullyConnected(*a, num_hidden=4, flatten=flatten, no_bias=no_bias), xs)


CONV_CONFIGS = [
    dict(kernel=(3, 3), stride=(2, 1), dilate=(1, 2), pad=(1, 2), num_filter=4, num_group=2),
    dict(kernel=(2, 2, 2), stride=(1, 2, 1), pad=(1, 0, 1), num_filter=3),
    dict(kernel=(3,), dilate=(2,), num_filter=6, num_group=3, no_bias=True),
    dict(kernel=(1, 1), num_filter=5),
]


@pytest.mark.parametrize("attrs", CONV_CONFIGS)
def test_convolution_grads(attrs):
    rng = np.random.default_rng(1)
    nd_ = len(attrs["kernel"])
    c = 6 if nd_ == 1 else 4
    spatial = {1: (9,), 2: (7, 8), 3: (4, 5, 4)}[nd_]
    x = _rand(rng, (3, c) + spatial)
    w = _rand(rng, (attrs["num_filter"], c // attrs.get("num_group", 1)) + attrs["kernel"])
    xs = [x, w] + ([] if attrs.get("no_bias") else [_rand(rng, (attrs["num_filter"],))])
    _check_grads(lambda *a: nd.Convolution(*a, **attrs), xs)


DECONV_CONFIGS = [
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), adj=(1, 0), num_filter=4, num_group=2, no_bias=False),
    dict(kernel=(4,), stride=(3,), target_shape=(14,), num_filter=3),
    dict(kernel=(2, 3, 2), stride=(2, 1, 2), dilate=(1, 2, 1), num_filter=2, no_bias=False),
]


@pytest.mark.parametrize("attrs", DECONV_CONFIGS)
def test_deconvolution_grads(attrs):
    rng = np.random.default_rng(2)
    nd_ = len(attrs["kernel"])
    spatial = {1: (5,), 2: (4, 5), 3: (3, 4, 3)}[nd_]
    x = _rand(rng, (2, 4) + spatial)
    w = _rand(rng, (4, attrs["num_filter"] // attrs.get("num_group", 1)) + attrs["kernel"])
    xs = [x, w] + ([] if attrs.get("no_bias", True) else [_rand(rng, (attrs["num_filter"],))])
    _check_grads(lambda *a: nd.Deconvolution(*a, **attrs), xs)


def test_convolution_in_several_chunks():
    # 27 images of 128 channels unfold to more than the 256 MiB chunk bound (25 fit)
    # (Note [GPU convolution layout]), so the batch is processed in pieces.
    rng = np.random.default_rng(3)
    xs = [_rand(rng, (27, 128, 48, 48)), _rand(rng, (8, 128, 3, 3), lo=-0.1, hi=0.1), _rand(rng, (8,))]
    _check_grads(lambda *a: nd.Convolution(*a, kernel=(3, 3), pad=(1, 1), num_filter=8), xs, tol=1e-3)


POOL_CONFIGS = [
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max"),
    dict(kernel=(3, 2), stride=(2, 2), pool_type="max", pooling_convention="full"),
    dict(kernel=(3, 3), stride=(1, 2), pad=(1, 1), pool_type="avg", count_include_pad=False),
    dict(kernel=(2, 3), stride=(2, 2), pad=(1, 1), pool_type="avg", pooling_convention="full"),
    dict(kernel=(2, 2), pool_type="sum", stride=(1, 1)),
    dict(kernel=(2, 2), pool_type="lp", p_value=2, stride=(2, 1)),
    dict(kernel=(3,), pool_type="lp", p_value=3, stride=(2,)),
    dict(kernel=(3,), pool_type="max", stride=(2,), pooling_convention="same"),
    dict(kernel=(2, 2, 2), pool_type="max", stride=(1, 2, 1), pad=(1, 0, 1)),
    dict(global_pool=True, pool_type="avg"),
    dict(global_pool=True, pool_type="max"),
]


@pytest.mark.parametrize("attrs", POOL_CONFIGS)
def test_pooling_grads(attrs):
    rng = np.random.default_rng(4)
    nd_ = len(attrs["kernel"]) if "kernel" in attrs else 2
    spatial = {1: (9,), 2: (7, 6), 3: (4, 5, 4)}[nd_]
    lo = 0.1 if attrs["pool_type"] == "lp" else -1  # lp of positive data: no sign flips
    x = _rand(rng, (2, 3) + spatial, np.float64, lo=lo)
    _check_grads(lambda a: nd.Pooling(a, **attrs), [x])


def test_max_pooling_ties_go_to_the_first_input():
    # Integer-valued data: windows hold equal maxima; each window's gradient
    # goes to the first maximal input in row-major order, as on the CPU.
    rng = np.random.default_rng(5)
    x = rng.integers(0, 3, (2, 2, 6, 7)).astype(np.float32)
    for attrs in (dict(kernel=(3, 3), stride=(1, 1), pad=(1, 1)), dict(kernel=(2, 3), stride=(2, 1)),
                  dict(global_pool=True)):
        _check_grads(lambda a, at=attrs: nd.Pooling(a, pool_type="max", **at), [x])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lrn_grads(dtype):
    rng = np.random.default_rng(6)
    x = _rand(rng, (2, 7, 3, 4), dtype)
    _check_grads(lambda a: nd.LRN(a, nsize=5, alpha=0.01, beta=0.6, knorm=1.5), [x])


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_dot_and_batch_dot_grads(ta, tb):
    rng = np.random.default_rng(7)
    a = _rand(rng, (4, 3) if not ta else (3, 4), np.float64)
    b = _rand(rng, (3, 5) if not tb else (5, 3), np.float64)
    _check_grads(lambda x, y: nd.dot(x, y, transpose_a=ta, transpose_b=tb), [a, b])
    a = _rand(rng, (2, 4, 3) if not ta else (2, 3, 4))
    b = _rand(rng, (2, 3, 5) if not tb else (2, 5, 3))
    _check_grads(lambda x, y: nd.batch_dot(x, y, transpose_a=ta, transpose_b=tb), [a, b])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64])
def test_integer_dot_matches_cpu(dtype):
    rng = np.random.default_rng(8)
    a = rng.integers(0, 9, (3, 4, 5)).astype(dtype)
    b = rng.integers(0, 9, (3, 5, 2)).astype(dtype)
    for ctx_args in ((a.reshape(12, 5), b[0]), (a, b)):
        op = nd.dot if ctx_args[0].ndim == 2 else nd.batch_dot
        got = op(*[_arr(v, G0) for v in ctx_args]).asnumpy()
        want = op(*[_arr(v, CPU) for v in ctx_args]).asnumpy()
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("act", ["relu", "sigmoid", "log_sigmoid", "mish", "tanh", "softrelu", "softsign"])
def test_fused_layers_every_activation(act):
    rng = np.random.default_rng(9)
    x, w, b = _rand(rng, (3, 6), np.float64, -30, 30), _rand(rng, (4, 6), np.float64), _rand(rng, (4,), np.float64)
    xc, wc, bc = _rand(rng, (2, 3, 5, 5), np.float64), _rand(rng, (4, 3, 3, 3), np.float64), _rand(rng, (4,), np.float64)
    for fn, args in ((lambda *v: nd._fused_fully_connected_act(*v, num_hidden=4, act_type=act), (x, w, b)),
                     (lambda *v: nd._fused_convolution_act(*v, kernel=(3, 3), pad=(1, 1), num_filter=4,
                                                           act_type=act), (xc, wc, bc))):
        got = fn(*[_arr(v, G0) for v in args]).asnumpy()
        want = fn(*[_arr(v, CPU) for v in args]).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def _rnn_inputs(rng, mode, layers, bidir, dtype, S=4, N=3, I=5, H=4):
    g = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}[mode]
    d = 2 if bidir else 1
    psize = sum(d * g * H * ((I if l == 0 else d * H) + H + 2) for l in range(layers))
    xs = [_rand(rng, (S, N, I), dtype), _rand(rng, (psize,), dtype, -0.5, 0.5), _rand(rng, (layers * d, N, H), dtype)]
    if mode == "lstm":
        xs.append(_rand(rng, (layers * d, N, H), dtype))
    return xs


@pytest.mark.parametrize("mode", ["rnn_relu", "rnn_tanh", "lstm", "gru"])
def test_rnn_grads_with_states(mode):
    rng = np.random.default_rng(10)
    xs = _rnn_inputs(rng, mode, 2, True, np.float64)

    # Every output gets a head gradient: the final states' gradients flow too.
    _check_grads(lambda *a: nd.RNN(*a, state_size=4, num_layers=2, mode=mode, bidirectional=True,
                                   state_outputs=True), xs)


def test_rnn_dropout_in_training():
    rng = np.random.default_rng(11)
    xs = [_arr(v, G0) for v in _rnn_inputs(rng, "lstm", 3, False, np.float32)]
    attrs = dict(state_size=4, num_layers=3, mode="lstm", p=0.5)
    runs = []
    for _ in range(2):
        weft.random.seed(3)
        with autograd.record(train_mode=True):
            runs.append(nd.RNN(*xs, **attrs).asnumpy())
    np.testing.assert_array_equal(runs[0], runs[1])  # one seed, one mask
    with autograd.record(train_mode=True):
        other = nd.RNN(*xs, **attrs).asnumpy()
    inference = nd.RNN(*xs, **attrs).asnumpy()
    assert not np.allclose(runs[0], other), "a new draw should give a new mask"
    assert not np.allclose(runs[0], inference), "training applies dropout between layers"
    # The backward reads the mask from the reserve: gradients exist and are finite.
    for x in xs:
        x.attach_grad()
    with autograd.record(train_mode=True):
        out = nd.RNN(*xs, **attrs)
    out.backward(nd.ones(out.shape, ctx=G0))
    assert all(np.isfinite(x.grad.asnumpy()).all() for x in xs)
