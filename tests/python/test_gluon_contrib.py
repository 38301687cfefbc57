"""weft.gluon.contrib.nn and .rnn (MXNet 1.9.1's gluon.contrib): Concurrent,
HybridConcurrent, Identity, PixelShuffle1D/2D/3D, SyncBatchNorm, the Conv
RNN/LSTM/GRU cells, VariationalDropoutCell and LSTMPCell, against NumPy
references of their definitions."""
import numpy as np
import pytest

import weft as mx
from weft import autograd, gluon
from weft.gluon import nn
from weft.gluon.contrib import nn as cnn
from weft.gluon.contrib import rnn as crnn


def test_concurrent_concatenates_branches():
    for klass, hybrid in ((cnn.Concurrent, False), (cnn.HybridConcurrent, True)):
        net = klass(axis=1)
        with net.name_scope():
            net.add(nn.Dense(3, weight_initializer="ones"), cnn.Identity(), nn.Dense(2, weight_initializer="ones"))
        net.initialize()
        if hybrid:
            net.hybridize()
        x = mx.nd.array(np.arange(8, dtype=np.float32).reshape(2, 4))
        out = net(x).asnumpy()
        s = x.asnumpy().sum(axis=1, keepdims=True)
        np.testing.assert_allclose(out, np.concatenate([np.repeat(s, 3, 1), x.asnumpy(), np.repeat(s, 2, 1)], 1))


def _shuffle_ref(x, factors):
    """out[n, c, d0*f0 + i0, ...] = x[n, c*prod(f) + flat(i), d0, ...] (MXNet's channel order)."""
    n, cf = x.shape[:2]
    spatial = x.shape[2:]
    prod = int(np.prod(factors))
    c = cf // prod
    out = np.zeros((n, c) + tuple(s * f for s, f in zip(spatial, factors)), dtype=x.dtype)
    for ch in range(cf):
        base, rem = divmod(ch, prod)
        offs = np.unravel_index(rem, factors)
        index = (slice(None), base) + tuple(slice(o, None, f) for o, f in zip(offs, factors))
        out[index] = x[:, ch]
    return out


@pytest.mark.parametrize("klass,factor,shape", [(cnn.PixelShuffle1D, 3, (2, 6, 5)),
                                                (cnn.PixelShuffle2D, (2, 3), (1, 12, 3, 4)),
                                                (cnn.PixelShuffle3D, 2, (1, 16, 2, 3, 2))])
def test_pixel_shuffle(klass, factor, shape):
    x = np.random.RandomState(0).uniform(size=shape).astype(np.float32)
    layer = klass(factor)
    dims = len(shape) - 2
    factors = (factor,) * dims if isinstance(factor, int) else factor
    np.testing.assert_array_equal(layer(mx.nd.array(x)).asnumpy(), _shuffle_ref(x, factors))
    layer.hybridize()
    np.testing.assert_array_equal(layer(mx.nd.array(x)).asnumpy(), _shuffle_ref(x, factors))
    with pytest.raises(ValueError, match="factor"):
        klass((2,) * (dims + 1))


def test_sync_batch_norm_is_batch_norm_on_one_device():
    x = mx.nd.array(np.random.RandomState(1).normal(size=(4, 3, 2, 2)).astype(np.float32))
    sync, plain = cnn.SyncBatchNorm(in_channels=3), nn.BatchNorm(in_channels=3)
    for layer in (sync, plain):
        layer.initialize()
    with autograd.record():
        a, b = sync(x), plain(x)
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sync.running_mean.data().asnumpy(), plain.running_mean.data().asnumpy(), rtol=1e-6)
    assert sync.prefix.startswith("syncbatchnorm")
    with pytest.raises(ValueError, match="num_devices"):
        cnn.SyncBatchNorm(num_devices=2)


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def _conv2d(x, w, b, pad):
    """Cross-correlation, stride 1: x (N, C, H, W), w (O, C, kh, kw)."""
    x = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    o, _, kh, kw = w.shape
    h, wd = x.shape[2] - kh + 1, x.shape[3] - kw + 1
    out = np.zeros((x.shape[0], o, h, wd))
    for i in range(kh):
        for j in range(kw):
            out += np.einsum("nchw,oc->nohw", x[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    return out + b.reshape(1, -1, 1, 1)


def _params(cell):
    return {k.split("_", 1)[1] if k.startswith(cell.prefix[:-1]) else k: v.data().asnumpy()
            for k, v in cell.collect_params().items()}


def test_conv2d_lstm_cell_step_and_unroll():
    rng = np.random.RandomState(2)
    cell = crnn.Conv2DLSTMCell(input_shape=(2, 5, 5), hidden_channels=3, i2h_kernel=(3, 3), h2h_kernel=(3, 3),
                               i2h_pad=(1, 1))
    cell.initialize(mx.init.Uniform(0.3))
    assert cell.state_info(4)[0]["shape"] == (4, 3, 5, 5) and len(cell.state_info()) == 2
    p = {k[len(cell.prefix):]: v.data().asnumpy() for k, v in cell.collect_params().items()}
    assert p["i2h_weight"].shape == (12, 2, 3, 3) and p["h2h_weight"].shape == (12, 3, 3, 3)
    x = rng.uniform(-1, 1, (4, 3, 2, 5, 5)).astype(np.float32)   # NTC: (N, T, C, H, W)
    outputs, states = cell.unroll(3, mx.nd.array(x), layout="NTC", merge_outputs=True)
    h = np.zeros((4, 3, 5, 5))
    c = np.zeros((4, 3, 5, 5))
    ref = []
    for t in range(3):
        gates = (_conv2d(x[:, t], p["i2h_weight"], p["i2h_bias"], (1, 1))
                 + _conv2d(h, p["h2h_weight"], p["h2h_bias"], (1, 1)))
        i, f, g, o = np.split(gates, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        ref.append(h)
    np.testing.assert_allclose(outputs.asnumpy(), np.stack(ref, axis=1), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(states[1].asnumpy(), c, rtol=1e-4, atol=1e-5)
    # symbolic unroll without begin states infers every shape from the data
    out_sym, _ = cell.unroll(3, mx.sym.var("data"), layout="NTC", merge_outputs=True)
    assert out_sym.infer_shape(data=(4, 3, 2, 5, 5))[1] == [(4, 3, 3, 5, 5)]


@pytest.mark.parametrize("klass,shape,kernel,nstates", [
    (crnn.Conv1DRNNCell, (2, 7), 3, 1), (crnn.Conv1DLSTMCell, (2, 7), 3, 2), (crnn.Conv1DGRUCell, (2, 7), 3, 1),
    (crnn.Conv2DRNNCell, (2, 4, 4), (3, 3), 1), (crnn.Conv2DGRUCell, (2, 4, 4), (3, 3), 1),
    (crnn.Conv3DRNNCell, (1, 3, 3, 3), 1, 1), (crnn.Conv3DLSTMCell, (1, 3, 3, 3), 1, 2),
    (crnn.Conv3DGRUCell, (1, 3, 3, 3), 1, 1)])
def test_every_conv_cell_runs_and_hybridizes(klass, shape, kernel, nstates):
    cell = klass(input_shape=shape, hidden_channels=2, i2h_kernel=kernel, h2h_kernel=kernel)
    cell.initialize()
    k = (kernel,) * (len(shape) - 1) if isinstance(kernel, int) else kernel
    out_spatial = tuple(s - kk + 1 for s, kk in zip(shape[1:], k))
    x = mx.nd.array(np.random.RandomState(3).uniform(size=(2,) + shape).astype(np.float32))
    states = cell.begin_state(batch_size=2)
    assert len(states) == nstates and states[0].shape == (2, 2) + out_spatial
    out, new_states = cell(x, states)
    cell.hybridize()
    out_h, _ = cell(x, states)
    np.testing.assert_allclose(out.asnumpy(), out_h.asnumpy(), rtol=1e-5, atol=1e-6)
    assert out.shape == (2, 2) + out_spatial and len(new_states) == nstates


def test_conv_gru_step_matches_reference():
    cell = crnn.Conv1DGRUCell(input_shape=(2, 6), hidden_channels=2, i2h_kernel=3, h2h_kernel=3, i2h_pad=1)
    cell.initialize(mx.init.Uniform(0.5))
    p = {k[len(cell.prefix):]: v.data().asnumpy() for k, v in cell.collect_params().items()}
    rng = np.random.RandomState(4)
    x = rng.uniform(-1, 1, (3, 2, 6)).astype(np.float32)
    h0 = rng.uniform(-1, 1, (3, 2, 6)).astype(np.float32)
    out, _ = cell(mx.nd.array(x), [mx.nd.array(h0)])

    def conv1d(v, w, b):
        return _conv2d(v[:, :, None, :], w[:, :, None, :], b, (0, 1))[:, :, 0, :]
    i2h = conv1d(x, p["i2h_weight"], p["i2h_bias"])
    h2h = conv1d(h0, p["h2h_weight"], p["h2h_bias"])
    (ir, iz, ic), (hr, hz, hc) = np.split(i2h, 3, 1), np.split(h2h, 3, 1)
    r, z = _sigmoid(ir + hr), _sigmoid(iz + hz)
    ref = (1 - z) * np.tanh(ic + r * hc) + z * h0
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)


def test_conv_cell_argument_errors():
    with pytest.raises(ValueError, match="odd"):
        crnn.Conv2DRNNCell((1, 4, 4), 2, (3, 3), (2, 2))
    with pytest.raises(ValueError, match="input_shape"):
        crnn.Conv2DRNNCell((1, 4), 2, (3, 3), (3, 3))
    with pytest.raises(ValueError, match="length 2"):
        crnn.Conv2DLSTMCell((1, 4, 4), 2, (3, 3, 3), (3, 3))


def test_lstmp_cell_matches_reference():
    cell = crnn.LSTMPCell(hidden_size=4, projection_size=3, input_size=5)
    cell.initialize(mx.init.Uniform(0.5))
    p = {k[len(cell.prefix):]: v.data().asnumpy() for k, v in cell.collect_params().items()}
    assert cell.prefix.startswith("lstmp") and p["h2r_weight"].shape == (3, 4) and p["h2h_weight"].shape == (16, 3)
    rng = np.random.RandomState(5)
    x = rng.uniform(-1, 1, (2, 4, 5)).astype(np.float32)
    outputs, (r, c) = cell.unroll(4, mx.nd.array(x), layout="NTC", merge_outputs=True)
    rr, cc = np.zeros((2, 3)), np.zeros((2, 4))
    for t in range(4):
        gates = x[:, t] @ p["i2h_weight"].T + p["i2h_bias"] + rr @ p["h2h_weight"].T + p["h2h_bias"]
        i, f, g, o = np.split(gates, 4, axis=1)
        cc = _sigmoid(f) * cc + _sigmoid(i) * np.tanh(g)
        rr = (_sigmoid(o) * np.tanh(cc)) @ p["h2r_weight"].T
    assert outputs.shape == (2, 4, 3)
    np.testing.assert_allclose(r.asnumpy(), rr, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c.asnumpy(), cc, rtol=1e-4, atol=1e-5)


def test_variational_dropout_keeps_one_mask_per_sequence():
    base = gluon.rnn.RNNCell(6, input_size=4)
    base.initialize(mx.init.Uniform(0.5))
    x = mx.nd.array(np.random.RandomState(6).uniform(size=(3, 5, 4)).astype(np.float32))
    plain_out, _ = base.unroll(5, x, layout="NTC", merge_outputs=True)
    cell = crnn.VariationalDropoutCell(base, drop_outputs=0.5)
    assert cell.prefix.endswith("vardrop")
    with autograd.record(train_mode=True):
        out, _ = cell.unroll(5, x, layout="NTC", merge_outputs=True)
    ratio = out.asnumpy() / plain_out.asnumpy()
    np.testing.assert_allclose(ratio, np.repeat(ratio[:, :1], 5, axis=1), rtol=1e-5)   # the same at every step
    assert set(np.round(np.unique(ratio), 4)) <= {0.0, 2.0} and 0 < (ratio == 0).mean() < 1
    # outside training it is the base cell
    out_eval, _ = cell.unroll(5, x, layout="NTC", merge_outputs=True)
    np.testing.assert_allclose(out_eval.asnumpy(), plain_out.asnumpy(), rtol=1e-6)
    states_cell = crnn.VariationalDropoutCell(gluon.rnn.LSTMCell(3, input_size=4), drop_inputs=0.3,
                                              drop_states=0.3)
    states_cell.initialize()
    with autograd.record(train_mode=True):
        out, states = states_cell.unroll(5, x, layout="NTC", merge_outputs=True)
    assert out.shape == (3, 5, 3) and len(states) == 2
    with pytest.raises(ValueError, match="Bidirectional"):
        crnn.VariationalDropoutCell(gluon.rnn.BidirectionalCell(gluon.rnn.RNNCell(2), gluon.rnn.RNNCell(2)),
                                    drop_states=0.5)
