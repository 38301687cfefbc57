"""weft.rnn's convolutional cells (MXNet 1.9.1's mx.rnn.ConvRNNCell / ConvLSTMCell / ConvGRUCell):
state shapes as MXNet's tests, unrolled values against a NumPy convolution reference."""
import numpy as np
import pytest

import weft as mx

N, C, HH, WW, NH, T = 2, 3, 5, 4, 4, 3


def _conv(x, w, b, pad):
    """NCHW convolution, stride 1, 3x3 kernel, zero padding pad."""
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    k = w.shape[2]
    out = np.zeros((x.shape[0], w.shape[0], x.shape[2] + 2 * pad - k + 1, x.shape[3] + 2 * pad - k + 1))
    for i in range(out.shape[2]):
        for j in range(out.shape[3]):
            out[:, :, i, j] = np.einsum("nchw,ochw->no", xp[:, :, i:i + k, j:j + k], w)
    return out + b[None, :, None, None]


def _leaky(v):
    return np.where(v > 0, v, 0.2 * v)


def _sig(v):
    return 1 / (1 + np.exp(-v))


def _run(cell, gates, rng):
    out, states = cell.unroll(T, mx.sym.var("data"), layout="NTC", merge_outputs=False)
    x = rng.randn(N, T, C, HH, WW).astype(np.float32)
    w = {"c_i2h_weight": rng.randn(gates * NH, C, 3, 3) * 0.2, "c_i2h_bias": rng.randn(gates * NH) * 0.2,
         "c_h2h_weight": rng.randn(gates * NH, NH, 3, 3) * 0.2, "c_h2h_bias": rng.randn(gates * NH) * 0.2}
    w = {k: v.astype(np.float32) for k, v in w.items()}
    sym = mx.sym.Group(out + states)
    ex = sym.simple_bind(mx.cpu(), grad_req="null", data=x.shape, **{k: v.shape for k, v in w.items()})
    for k, v in dict(w, data=x).items():
        ex.arg_dict[k][:] = v
    return [o.asnumpy() for o in ex.forward(is_train=False)], x, w


def test_conv_rnn_matches_numpy():
    rng = np.random.RandomState(0)
    cell = mx.rnn.ConvRNNCell((N, C, HH, WW), NH, prefix="c_")
    assert cell.state_info == [{"shape": (0, NH, HH, WW), "__layout__": "NCHW"}]
    got, x, w = _run(cell, 1, rng)
    h = np.zeros((N, NH, HH, WW))
    for t in range(T):
        h = _leaky(_conv(x[:, t], w["c_i2h_weight"], w["c_i2h_bias"], 1)
                   + _conv(h, w["c_h2h_weight"], w["c_h2h_bias"], 1))
        np.testing.assert_allclose(got[t], h, rtol=1e-4, atol=1e-5)


def test_conv_lstm_matches_numpy():
    rng = np.random.RandomState(1)
    cell = mx.rnn.ConvLSTMCell((N, C, HH, WW), NH, prefix="c_")
    assert len(cell.state_info) == 2
    got, x, w = _run(cell, 4, rng)
    h = np.zeros((N, NH, HH, WW))
    c = np.zeros_like(h)
    for t in range(T):
        g = _conv(x[:, t], w["c_i2h_weight"], w["c_i2h_bias"], 1) + _conv(h, w["c_h2h_weight"], w["c_h2h_bias"], 1)
        i, f, cc, o = np.split(g, 4, axis=1)
        c = _sig(f) * c + _sig(i) * _leaky(cc)
        h = _sig(o) * _leaky(c)
        np.testing.assert_allclose(got[t], h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[T + 1], c, rtol=1e-4, atol=1e-5)


def test_conv_gru_matches_numpy():
    rng = np.random.RandomState(2)
    cell = mx.rnn.ConvGRUCell((N, C, HH, WW), NH, prefix="c_")
    got, x, w = _run(cell, 3, rng)
    h = np.zeros((N, NH, HH, WW))
    for t in range(T):
        xi = _conv(x[:, t], w["c_i2h_weight"], w["c_i2h_bias"], 1)
        hh = _conv(h, w["c_h2h_weight"], w["c_h2h_bias"], 1)
        xr, xz, xn = np.split(xi, 3, axis=1)
        hr, hz, hn = np.split(hh, 3, axis=1)
        r, z = _sig(xr + hr), _sig(xz + hz)
        h = (1 - z) * _leaky(xn + r * hn) + z * h
        np.testing.assert_allclose(got[t], h, rtol=1e-4, atol=1e-5)


def test_state_shape_follows_i2h_convolution():
    # MXNet's test_convrnn/test_convlstm/test_convgru: input (1, 3, 16, 10), stride 1, pad 1 -> (1, 10, 16, 10)
    for cls in (mx.rnn.ConvRNNCell, mx.rnn.ConvLSTMCell, mx.rnn.ConvGRUCell):
        cell = cls(input_shape=(1, 3, 16, 10), num_hidden=10, h2h_kernel=(3, 3), h2h_dilate=(1, 1),
                   i2h_kernel=(3, 3), i2h_stride=(1, 1), i2h_pad=(1, 1), i2h_dilate=(1, 1), prefix="rnn_")
        inputs = [mx.sym.Variable("rnn_t%d_data" % i) for i in range(3)]
        outputs, _ = cell.unroll(3, inputs)
        outputs = mx.sym.Group(outputs)
        assert sorted(cell.params._params.keys()) == ["rnn_h2h_bias", "rnn_h2h_weight", "rnn_i2h_bias",  # pylint: disable=protected-access
                                                      "rnn_i2h_weight"]
        assert outputs.list_outputs() == ["rnn_t0_out_output", "rnn_t1_out_output", "rnn_t2_out_output"]
        _, outs, _ = outputs.infer_shape(rnn_t0_data=(1, 3, 16, 10), rnn_t1_data=(1, 3, 16, 10),
                                         rnn_t2_data=(1, 3, 16, 10))
        assert outs == [(1, 10, 16, 10)] * 3
    strided = mx.rnn.ConvRNNCell((1, 3, 16, 10), 6, i2h_stride=(2, 2))
    assert strided.state_info[0]["shape"] == (0, 6, 8, 5)
    with pytest.raises(mx.base.InvalidArgumentError, match="odd"):
        mx.rnn.ConvRNNCell((1, 3, 16, 10), 6, h2h_kernel=(2, 2))
