"""weft.npx operators (issue 37): values against the legacy weft.nd operator or a
NumPy formula, np arrays out, MXNet's output counts, npx.reshape's codes,
gradients through npx calls under autograd, save/load, devices and errors."""
import numpy as onp
import pytest

import weft as mx
from weft import npx

RNG = onp.random.RandomState(0)


def _np(x, dtype="float32"):
    return mx.nd.array(onp.asarray(x), dtype=dtype).as_np_ndarray()


def _r(*shape):
    return RNG.uniform(-1, 1, size=shape).astype("float32")


X = _r(2, 3, 5, 5)
W = _r(4, 3, 3, 3)
B = _r(4)
X2 = _r(4, 6)
IDX = onp.array([[0, 2, 1, 5], [1, 0, 3, 2]], dtype="float32")

# (id, npx call on np arrays, legacy nd call on nd arrays)
CASES = [
    ("relu", lambda a: npx.relu(a(X2)), lambda a: mx.nd.relu(a(X2))),
    ("sigmoid", lambda a: npx.sigmoid(a(X2)), lambda a: mx.nd.sigmoid(a(X2))),
    ("activation", lambda a: npx.activation(a(X2), act_type="tanh"),
     lambda a: mx.nd.Activation(a(X2), act_type="tanh")),
    ("leaky_relu", lambda a: npx.leaky_relu(a(X2), slope=0.1), lambda a: mx.nd.LeakyReLU(a(X2), slope=0.1)),
    ("leaky_relu_prelu", lambda a: npx.leaky_relu(a(X), a(onp.full((3,), 0.2, "float32")), act_type="prelu"),
     lambda a: mx.nd.LeakyReLU(a(X), a(onp.full((3,), 0.2, "float32")), act_type="prelu")),
    ("softmax", lambda a: npx.softmax(a(X2), axis=0, temperature=2.0),
     lambda a: mx.nd.softmax(a(X2), axis=0, temperature=2.0)),
    ("log_softmax", lambda a: npx.log_softmax(a(X2)), lambda a: mx.nd.log_softmax(a(X2))),
    ("convolution", lambda a: npx.convolution(a(X), a(W), a(B), kernel=(3, 3), num_filter=4, pad=(1, 1)),
     lambda a: mx.nd.Convolution(a(X), a(W), a(B), kernel=(3, 3), num_filter=4, pad=(1, 1))),
    ("convolution_nobias", lambda a: npx.convolution(a(X), a(W), kernel=(3, 3), num_filter=4, stride=(2, 2)),
     lambda a: mx.nd.Convolution(a(X), a(W), kernel=(3, 3), num_filter=4, stride=(2, 2), no_bias=True)),
    ("deconvolution", lambda a: npx.deconvolution(a(X), a(W.transpose(1, 0, 2, 3).copy()), kernel=(3, 3),
                                                  num_filter=4),
     lambda a: mx.nd.Deconvolution(a(X), a(W.transpose(1, 0, 2, 3).copy()), kernel=(3, 3), num_filter=4)),
    ("fully_connected", lambda a: npx.fully_connected(a(X2), a(_r(3, 6)), a(_r(3)), num_hidden=3),
     lambda a: mx.nd.FullyConnected(a(X2), a(_r(3, 6)), a(_r(3)), num_hidden=3)),
    ("pooling_max", lambda a: npx.pooling(a(X), kernel=(2, 2), stride=(2, 2)),
     lambda a: mx.nd.Pooling(a(X), kernel=(2, 2), stride=(2, 2))),
    ("pooling_avg_global", lambda a: npx.pooling(a(X), pool_type="avg", global_pool=True),
     lambda a: mx.nd.Pooling(a(X), pool_type="avg", global_pool=True, kernel=(1, 1))),
    ("batch_norm", lambda a: npx.batch_norm(a(X), a(onp.ones(3)), a(onp.zeros(3)), a(onp.zeros(3)),
                                            a(onp.ones(3)), use_global_stats=True, fix_gamma=False),
     lambda a: mx.nd.BatchNorm(a(X), a(onp.ones(3)), a(onp.zeros(3)), a(onp.zeros(3)), a(onp.ones(3)),
                               use_global_stats=True, fix_gamma=False)),
    ("layer_norm", lambda a: npx.layer_norm(a(X2), a(onp.full(6, 2.0)), a(onp.full(6, 0.5))),
     lambda a: mx.nd.LayerNorm(a(X2), a(onp.full(6, 2.0)), a(onp.full(6, 0.5)))),
    ("dropout_inference", lambda a: npx.dropout(a(X2), p=0.3), lambda a: a(X2)),
    ("embedding", lambda a: npx.embedding(a(IDX), a(_r(6, 3))),
     lambda a: mx.nd.Embedding(a(IDX), a(_r(6, 3)), input_dim=6, output_dim=3)),
    ("sequence_mask", lambda a: npx.sequence_mask(a(X2), a([2, 1, 4, 3, 0, 1]), use_sequence_length=True,
                                                  value=-1.0),
     lambda a: mx.nd.SequenceMask(a(X2), a([2, 1, 4, 3, 0, 1]), use_sequence_length=True, value=-1.0)),
    ("smooth_l1", lambda a: npx.smooth_l1(a(X2 * 3), scalar=2.0), lambda a: mx.nd.smooth_l1(a(X2 * 3), scalar=2.0)),
    ("batch_flatten", lambda a: npx.batch_flatten(a(X)), lambda a: mx.nd.flatten(a(X))),
    ("batch_dot", lambda a: npx.batch_dot(a(_r(2, 3, 4)), a(_r(2, 5, 4)), transpose_b=True),
     lambda a: mx.nd.batch_dot(a(_r(2, 3, 4)), a(_r(2, 5, 4)), transpose_b=True)),
    ("reshape_like", lambda a: npx.reshape_like(a(X2), a(onp.zeros((3, 8)))),
     lambda a: mx.nd.reshape_like(a(X2), a(onp.zeros((3, 8))))),
    ("slice", lambda a: npx.slice(a(X2), begin=(1, None), end=(3, None), step=(1, 2)),
     lambda a: mx.nd.slice(a(X2), begin=(1, None), end=(3, None), step=(1, 2))),
    ("cast", lambda a: npx.cast(a(X2 * 5), "int32"), lambda a: mx.nd.cast(a(X2 * 5), dtype="int32")),
    ("one_hot", lambda a: npx.one_hot(a(IDX), 6, on_value=2.0), lambda a: mx.nd.one_hot(a(IDX), 6, on_value=2.0)),
    ("pick", lambda a: npx.pick(a(X2), a([0, 5, 2, 1]), axis=1), lambda a: mx.nd.pick(a(X2), a([0, 5, 2, 1]), axis=1)),
    ("topk", lambda a: npx.topk(a(X2), k=2, ret_typ="value"), lambda a: mx.nd.topk(a(X2), k=2, ret_typ="value")),
    ("gather_nd", lambda a: npx.gather_nd(a(X2), a([[0, 3], [5, 1]])),
     lambda a: mx.nd.gather_nd(a(X2), a([[0, 3], [5, 1]]))),
    ("arange_like", lambda a: npx.arange_like(a(X2), start=2.0, step=0.5, axis=1),
     lambda a: mx.nd.contrib.arange_like(a(X2), start=2.0, step=0.5, axis=1)),
    ("shape_array", lambda a: npx.shape_array(a(X)), lambda a: mx.nd.shape_array(a(X))),
    ("erf", lambda a: npx.erf(a(X2)), lambda a: mx.nd.erf(a(X2))),
    ("erfinv", lambda a: npx.erfinv(a(X2 * 0.9)), lambda a: mx.nd.erfinv(a(X2 * 0.9))),
    ("gamma", lambda a: npx.gamma(a(X2 + 2)), lambda a: mx.nd.gamma(a(X2 + 2))),
    ("gammaln", lambda a: npx.gammaln(a(X2 + 2)), lambda a: mx.nd.gammaln(a(X2 + 2))),
    ("multibox_prior", lambda a: npx.multibox_prior(a(X), sizes=(0.5, 0.25), ratios=(1, 2)),
     lambda a: mx.nd.contrib.MultiBoxPrior(a(X), sizes=(0.5, 0.25), ratios=(1, 2))),
    ("roi_pooling", lambda a: npx.roi_pooling(a(X), a([[0, 0, 0, 3, 3], [1, 1, 1, 4, 4]]), (2, 2), 1.0),
     lambda a: mx.nd.ROIPooling(a(X), a([[0, 0, 0, 3, 3], [1, 1, 1, 4, 4]]), pooled_size=(2, 2),
                                spatial_scale=1.0)),
]


def _first(x):
    return x[0] if isinstance(x, (list, tuple)) else x


@pytest.mark.parametrize("name,npx_call,nd_call", CASES, ids=[c[0] for c in CASES])
def test_values_match_legacy(name, npx_call, nd_call):
    global RNG  # pylint: disable=global-statement
    RNG = onp.random.RandomState(1)
    got = npx_call(_np)
    RNG = onp.random.RandomState(1)
    want = _first(nd_call(lambda v: mx.nd.array(onp.asarray(v), dtype="float32")))
    assert isinstance(got, mx.np.ndarray), name
    assert got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)


def test_softmax_with_length():
    x = _r(2, 5)
    out = npx.softmax(_np(x), length=_np([3, 5], "int32"), use_length=True).asnumpy()
    e = onp.exp(x[0, :3] - x[0, :3].max())
    onp.testing.assert_allclose(out[0], onp.concatenate([e / e.sum(), [0, 0]]), rtol=1e-5)
    e = onp.exp(x[1] - x[1].max())
    onp.testing.assert_allclose(out[1], e / e.sum(), rtol=1e-5)
    ls = npx.log_softmax(_np(x), length=_np([3, 5], "int32"), use_length=True).asnumpy()
    # past the length MXNet 1.9.1's kernel writes 0 for log_softmax too (softmax-inl.h, SoftmaxWithLength)
    assert onp.all(ls[0, 3:] == 0) and onp.allclose(onp.exp(ls[0, :3]).sum(), 1)
    with pytest.raises(ValueError, match="softmax: length"):
        npx.softmax(_np(x), length=_np([3], "int32"), use_length=True)


def test_output_counts():
    g, b, m, v = (_np(onp.ones(3)), _np(onp.zeros(3)), _np(onp.zeros(3)), _np(onp.ones(3)))
    assert isinstance(npx.batch_norm(_np(X), g, b, m, v), mx.np.ndarray)
    outs = npx.batch_norm(_np(X), g, b, m, v, output_mean_var=True)
    assert len(outs) == 3 and all(isinstance(o, mx.np.ndarray) for o in outs)
    assert len(npx.layer_norm(_np(X2), _np(onp.ones(6)), _np(onp.zeros(6)), output_mean_var=True)) == 3
    both = npx.topk(_np(X2), k=2, ret_typ="both")
    assert len(both) == 2 and both[1].dtype == onp.float32
    tg = npx.multibox_target(npx.multibox_prior(_np(X), sizes=(0.5,)), _np([[[0, 0.1, 0.1, 0.5, 0.5]]] * 2),
                             _np(onp.zeros((2, 2, 25))))
    assert len(tg) == 3 and tg[0].shape == (2, 100) and tg[2].shape == (2, 25)
    det = npx.multibox_detection(_np(onp.full((1, 2, 25), 0.5)), _np(onp.zeros((1, 100))),
                                 npx.multibox_prior(_np(X[:1]), sizes=(0.5,)))
    assert det.shape == (1, 25, 6)


def test_dropout_training_and_rnn():
    x = _np(onp.ones((100, 100)))
    with mx.autograd.record():
        y = npx.dropout(x, p=0.5)
    h = y.asnumpy()
    assert set(onp.unique(h)) <= {0.0, 2.0} and 0.4 < (h == 0).mean() < 0.6
    with pytest.raises(ValueError, match="dropout: p"):
        npx.dropout(x, p=1.5)
    # one-layer tanh RNN, checked against the recurrence h_t = tanh(W x_t + b_w + U h_{t-1} + b_u)
    T, N, I, H = 3, 2, 4, 5
    wx, wh, bx, bh = _r(H, I), _r(H, H), _r(H), _r(H)
    params = onp.concatenate([wx.ravel(), wh.ravel(), bx, bh])
    data = _r(T, N, I)
    out, hT = npx.rnn(_np(data), _np(params), _np(onp.zeros((1, N, H))), mode="rnn_tanh", state_size=H,
                      num_layers=1, state_outputs=True)
    h = onp.zeros((N, H), "float32")
    for t in range(T):
        h = onp.tanh(data[t] @ wx.T + bx + h @ wh.T + bh)
        onp.testing.assert_allclose(out.asnumpy()[t], h, rtol=1e-4, atol=1e-5)
    onp.testing.assert_allclose(hT.asnumpy()[0], h, rtol=1e-4, atol=1e-5)


RESHAPES = [
    ((2, 3, 8), (-2, -2, 2, -1), False, (2, 3, 2, 4)),
    ((8, 3, 3, 3, 4, 4), (-6, 2, -1, -4), False, (2, 4, 3, 3, 3, 4, 4)),
    ((8, 3, 3, 3, 4, 4), (-5, -4), False, (24, 3, 3, 4, 4)),
    ((8, 1, 1, 1, 3), (-2, -3, -3, -3, -2), False, (8, 3)),
    ((8, 3, 3, 3, 3, 8), (-4, -5), True, (8, 3, 3, 3, 24)),
    ((8, 3, 2, 4, 8), (-4, -1, 2, -6), True, (8, 3, 2, 4, 4, 2)),
    ((2, 3), 6, False, (6,)),
    ((2, 3), (3, -1), False, (3, 2)),
    ((0, 3), (3, 0), False, (3, 0)),
    ((4, 6), (-6, -1, 2, -2), False, (2, 2, 6)),
]


@pytest.mark.parametrize("src,newshape,reverse,want", RESHAPES)
def test_reshape_codes(src, newshape, reverse, want):
    h = onp.arange(int(onp.prod(src)), dtype="float32").reshape(src)
    out = npx.reshape(_np(h), newshape, reverse=reverse)
    assert isinstance(out, mx.np.ndarray) and out.shape == want
    onp.testing.assert_array_equal(out.asnumpy(), h.reshape(want))  # C order: same elements


@pytest.mark.parametrize("src,newshape,match", [
    ((2, 3), (4, -1), "cannot reshape"),
    ((2, 3), (-1, -1), "only one"),
    ((2, 3), (-3, -2), "-3 drops only"),
    ((2, 3), (-2, -2, -2), "more axes"),
    ((6,), (-6, 4, -1), "do not divide"),
    ((6,), (-6, -1, -1), "both be -1"),
    ((2, 3), (-7,), ">= -6"),
])
def test_reshape_errors(src, newshape, match):
    with pytest.raises(ValueError, match="reshape: .*" + match):
        npx.reshape(_np(onp.zeros(src)), newshape)


def _grads(build, arrays):
    ins = [a.copy() for a in arrays]
    for a in ins:
        a.attach_grad()
    with mx.autograd.record():
        y = build(*ins)
    y.backward()
    return [a.grad.asnumpy() for a in ins]


@pytest.mark.parametrize("npx_f,nd_f,shapes", [
    (lambda x: npx.relu(x), lambda x: mx.nd.relu(x), [(4, 6)]),
    (lambda x: npx.sigmoid(x), lambda x: mx.nd.sigmoid(x), [(4, 6)]),
    (lambda x, w: npx.fully_connected(x, w, num_hidden=3), lambda x, w: mx.nd.FullyConnected(
        x, w, num_hidden=3, no_bias=True), [(4, 6), (3, 6)]),
    (lambda x, w, b: npx.convolution(x, w, b, kernel=(3, 3), num_filter=4),
     lambda x, w, b: mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=4), [(2, 3, 5, 5), (4, 3, 3, 3), (4,)]),
    (lambda x: npx.softmax(x) * npx.softmax(x), lambda x: mx.nd.softmax(x) * mx.nd.softmax(x), [(4, 6)]),
    (lambda x: npx.reshape(x, (-5,)) * npx.reshape(x, (-5,)), lambda x: x.reshape((-1,)) * x.reshape((-1,)),
     [(4, 6)]),
    (lambda x, i: npx.pick(x, i, axis=1), lambda x, i: mx.nd.pick(x, i, axis=1), [(4, 6), (4,)]),
    (lambda a, b: npx.batch_dot(a, b), lambda a, b: mx.nd.batch_dot(a, b), [(2, 3, 4), (2, 4, 5)]),
    (lambda x, g, b: npx.layer_norm(x, g, b) * x, lambda x, g, b: mx.nd.LayerNorm(x, g, b) * x,
     [(4, 6), (6,), (6,)]),
    (lambda x: npx.pooling(x, kernel=(2, 2), pool_type="avg"), lambda x: mx.nd.Pooling(x, kernel=(2, 2),
                                                                                     pool_type="avg"),
     [(1, 2, 4, 4)]),
])
def test_gradients_match_legacy(npx_f, nd_f, shapes):
    rng = onp.random.RandomState(3)
    host = [rng.uniform(0, 2, size=s).astype("float32") for s in shapes]
    g_np = _grads(npx_f, [mx.nd.array(h).as_np_ndarray() for h in host])
    g_nd = _grads(nd_f, [mx.nd.array(h) for h in host])
    for a, b in zip(g_np, g_nd):
        onp.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert any(onp.any(g != 0) for g in g_np)


def test_save_load_roundtrip(tmp_path):
    f = str(tmp_path / "arrs")
    a, b = _np(X2), _np(onp.arange(3), "int64")
    npx.save(f, {"a": a, "b": b})
    got = npx.load(f)
    assert set(got) == {"a", "b"} and all(isinstance(v, mx.np.ndarray) for v in got.values())
    onp.testing.assert_array_equal(got["b"].asnumpy(), [0, 1, 2])
    assert got["b"].dtype == onp.int64
    npx.save(f, a)
    lst = npx.load(f)
    assert isinstance(lst, list) and len(lst) == 1 and isinstance(lst[0], mx.np.ndarray)
    onp.testing.assert_array_equal(lst[0].asnumpy(), X2)
    onp.testing.assert_array_equal(mx.nd.load(f)[0].asnumpy(), X2)  # the same file format as nd.save
    mx.nd.save(f, [mx.nd.ones((2,))])
    assert isinstance(npx.load(f)[0], mx.np.ndarray)
    with pytest.raises(TypeError, match="save"):
        npx.save(f, [1, 2])
    with pytest.raises(TypeError, match="save"):
        npx.save(f, {1: a})


def test_devices_and_helpers():
    assert npx.cpu() == mx.cpu() and npx.gpu(1) == mx.gpu(1) and npx.cpu_pinned(0) == mx.cpu_pinned(0)
    assert npx.current_context() == mx.current_context() and npx.num_gpus() == mx.num_gpus()
    npx.waitall()
    with pytest.raises(ValueError, match="expecting a gpu context"):
        npx.get_cuda_compute_capability(mx.cpu())
    assert npx.constraint_check(_np([1, 1, 1])).asnumpy().item() is True
    with pytest.raises(ValueError, match="x must be positive"):
        npx.constraint_check(_np([1, 0, 1]), "x must be positive")


@pytest.mark.parametrize("call,exc,match", [
    (lambda: npx.relu([1, 2]), TypeError, "relu: data"),
    (lambda: npx.convolution(_np(X), _np(W)), ValueError, "convolution: kernel"),
    (lambda: npx.convolution(_np(X), _np(W), kernel=(5, 5, 5), num_filter=4), ValueError, "Convolution"),
    (lambda: npx.fully_connected(_np(X2), _np(_r(3, 5)), num_hidden=3), ValueError, "FullyConnected"),
    (lambda: npx.one_hot(_np(IDX)), ValueError, "one_hot: depth"),
    (lambda: npx.rnn(_np(X2), _np(X2), _np(X2)), ValueError, "rnn: mode"),
    (lambda: npx.leaky_relu(_np(X2), act_type="prelu"), ValueError, "leaky_relu"),
    (lambda: npx.cast(_np(X2), "complex128"), TypeError, "cast"),
    (lambda: npx.embedding(_np(IDX), _np(onp.ones(3))), ValueError, "embedding: weight"),
])
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_batch_norm_training_updates_running_stats_like_legacy():
    x = onp.random.RandomState(5).uniform(size=(4, 3, 2, 2)).astype("float32") + 5
    m, v = _np(onp.zeros(3)), _np(onp.ones(3))
    m2, v2 = mx.nd.zeros(3), mx.nd.ones(3)
    with mx.autograd.record():
        y = npx.batch_norm(_np(x), _np(onp.ones(3)), _np(onp.zeros(3)), m, v)
        y2 = mx.nd.BatchNorm(mx.nd.array(x), mx.nd.ones(3), mx.nd.zeros(3), m2, v2)
    onp.testing.assert_allclose(y.asnumpy(), y2.asnumpy(), rtol=1e-5, atol=1e-5)
    assert not onp.allclose(m.asnumpy(), 0)  # updated in place, as MXNet's moving statistics
    onp.testing.assert_allclose(m.asnumpy(), m2.asnumpy(), rtol=1e-6)
    onp.testing.assert_allclose(v.asnumpy(), v2.asnumpy(), rtol=1e-6)
