"""weft.rnn (MXNet 1.9.1's legacy mx.rnn) cells: unrolled values against NumPy references,
the fused cell against its unfused stack, weight packing and RNN checkpoints."""
import numpy as np
import pytest

import weft as mx

N, T, I, H = 3, 4, 5, 6


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _run(sym, arrays):
    """Binds sym on the CPU with the given name -> numpy arrays and returns its outputs."""
    shapes = {k: v.shape for k, v in arrays.items()}
    ex = sym.simple_bind(mx.cpu(), grad_req="null", **shapes)
    for k, v in arrays.items():
        ex.arg_dict[k][:] = v
    return [o.asnumpy() for o in ex.forward(is_train=False)]


def _weights(rng, prefix, gates, inputs=I):
    return {prefix + "i2h_weight": rng.randn(gates * H, inputs).astype(np.float32) * 0.5,
            prefix + "i2h_bias": rng.randn(gates * H).astype(np.float32) * 0.5,
            prefix + "h2h_weight": rng.randn(gates * H, H).astype(np.float32) * 0.5,
            prefix + "h2h_bias": rng.randn(gates * H).astype(np.float32) * 0.5}


def _np_rnn(x, w, p, act=np.tanh):
    h = np.zeros((x.shape[0], H), np.float32)
    outs = []
    for t in range(x.shape[1]):
        h = act(x[:, t] @ w[p + "i2h_weight"].T + w[p + "i2h_bias"] + h @ w[p + "h2h_weight"].T + w[p + "h2h_bias"])
        outs.append(h)
    return np.stack(outs, 1), [h]


def _np_lstm(x, w, p):
    h = np.zeros((x.shape[0], H), np.float32)
    c = np.zeros_like(h)
    outs = []
    for t in range(x.shape[1]):
        g = x[:, t] @ w[p + "i2h_weight"].T + w[p + "i2h_bias"] + h @ w[p + "h2h_weight"].T + w[p + "h2h_bias"]
        i, f, cc, o = np.split(g, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(cc)
        h = _sigmoid(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs, 1), [h, c]


def _np_gru(x, w, p):
    h = np.zeros((x.shape[0], H), np.float32)
    outs = []
    for t in range(x.shape[1]):
        xi = x[:, t] @ w[p + "i2h_weight"].T + w[p + "i2h_bias"]
        hh = h @ w[p + "h2h_weight"].T + w[p + "h2h_bias"]
        xr, xz, xn = np.split(xi, 3, axis=1)
        hr, hz, hn = np.split(hh, 3, axis=1)
        r, z = _sigmoid(xr + hr), _sigmoid(xz + hz)
        n = np.tanh(xn + r * hn)
        h = (1 - z) * n + z * h
        outs.append(h)
    return np.stack(outs, 1), [h]


CASES = [
    ("rnn", lambda: mx.rnn.RNNCell(H, prefix="rnn_"), 1, _np_rnn),
    ("rnn_relu", lambda: mx.rnn.RNNCell(H, activation="relu", prefix="rnn_"), 1,
     lambda x, w, p: _np_rnn(x, w, p, act=lambda v: np.maximum(v, 0))),
    ("lstm", lambda: mx.rnn.LSTMCell(H, prefix="rnn_"), 4, _np_lstm),
    ("gru", lambda: mx.rnn.GRUCell(H, prefix="rnn_"), 3, _np_gru),
]


@pytest.mark.parametrize("name,make,gates,ref", CASES, ids=[c[0] for c in CASES])
def test_cell_unroll_matches_numpy(name, make, gates, ref):
    rng = np.random.RandomState(0)
    cell = make()
    x = rng.randn(N, T, I).astype(np.float32)
    outputs, states = cell.unroll(T, mx.sym.var("data"), layout="NTC", merge_outputs=True)
    w = _weights(rng, "rnn_", gates)
    got = _run(mx.sym.Group([outputs] + list(states)), dict(w, data=x))
    want_out, want_states = ref(x, w, "rnn_")
    np.testing.assert_allclose(got[0], want_out, rtol=1e-4, atol=1e-5)
    for g, s in zip(got[1:], want_states):
        np.testing.assert_allclose(g, s, rtol=1e-4, atol=1e-5)
    assert sorted(cell.params._params) == sorted(w)  # pylint: disable=protected-access


def test_unroll_lists_and_tnc_layout():
    rng = np.random.RandomState(1)
    cell = mx.rnn.LSTMCell(H, prefix="rnn_")
    steps = [mx.sym.var("t%d" % i) for i in range(T)]
    outputs, _ = cell.unroll(T, steps)
    assert isinstance(outputs, list) and len(outputs) == T
    assert outputs[0].list_outputs() == ["rnn_t0_out_output"]
    x = rng.randn(N, T, I).astype(np.float32)
    w = _weights(rng, "rnn_", 4)
    got = _run(mx.sym.Group(outputs), dict(w, **{"t%d" % i: x[:, i] for i in range(T)}))
    want, _ = _np_lstm(x, w, "rnn_")
    np.testing.assert_allclose(np.stack(got, 1), want, rtol=1e-4, atol=1e-5)
    # TNC: the time axis first
    outputs, _ = cell.unroll(T, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    got = _run(outputs, dict(w, data=x.transpose(1, 0, 2)))[0]
    np.testing.assert_allclose(got.transpose(1, 0, 2), want, rtol=1e-4, atol=1e-5)


def test_sequential_residual_dropout_bidirectional():
    rng = np.random.RandomState(2)
    x = rng.randn(N, T, H).astype(np.float32)
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.GRUCell(H, prefix="a_"))
    stack.add(mx.rnn.DropoutCell(0.5))  # identity outside training
    stack.add(mx.rnn.ResidualCell(mx.rnn.RNNCell(H, prefix="b_")))
    assert len(stack.state_info) == 2
    out, states = stack.unroll(T, mx.sym.var("data"), merge_outputs=True)
    wa, wb = _weights(rng, "a_", 3, inputs=H), _weights(rng, "b_", 1, inputs=H)
    got = _run(mx.sym.Group([out] + states), dict(wa, data=x, **wb))
    ya, ha = _np_gru(x, wa, "a_")
    yb, hb = _np_rnn(ya, wb, "b_")
    np.testing.assert_allclose(got[0], yb + ya, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[1], ha[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[2], hb[0], rtol=1e-4, atol=1e-5)

    bi = mx.rnn.BidirectionalCell(mx.rnn.LSTMCell(H, prefix="l_"), mx.rnn.LSTMCell(H, prefix="r_"))
    out, states = bi.unroll(T, mx.sym.var("data"), merge_outputs=True)
    wl, wr = _weights(rng, "l_", 4, inputs=H), _weights(rng, "r_", 4, inputs=H)
    got = _run(out, dict(wl, data=x, **wr))[0]
    yl, _ = _np_lstm(x, wl, "l_")
    yr, _ = _np_lstm(x[:, ::-1], wr, "r_")
    np.testing.assert_allclose(got, np.concatenate([yl, yr[:, ::-1]], axis=2), rtol=1e-4, atol=1e-5)
    assert len(states) == 2 and [len(s) for s in states] == [2, 2]  # nested per direction, as MXNet's
    with pytest.raises(NotImplementedError):
        bi(mx.sym.var("x"), [])


def test_zoneout_is_identity_outside_training():
    rng = np.random.RandomState(3)
    cell = mx.rnn.ZoneoutCell(mx.rnn.RNNCell(H, prefix="rnn_"), zoneout_outputs=0.5, zoneout_states=0.5)
    out, _ = cell.unroll(T, mx.sym.var("data"), merge_outputs=True)
    x = rng.randn(N, T, I).astype(np.float32)
    w = _weights(rng, "rnn_", 1)
    got = _run(out, dict(w, data=x))[0]
    np.testing.assert_allclose(got, _np_rnn(x, w, "rnn_")[0], rtol=1e-4, atol=1e-5)
    with pytest.raises(mx.base.InvalidArgumentError, match="ZoneoutCell"):
        mx.rnn.ZoneoutCell(mx.rnn.FusedRNNCell(H))
    with pytest.raises(mx.base.InvalidArgumentError, match="modifier"):
        cell.base_cell.begin_state()


@pytest.mark.parametrize("mode,bidirectional,layers", [("lstm", False, 2), ("gru", True, 1), ("rnn_tanh", False, 1)])
def test_fused_cell_matches_unfused(mode, bidirectional, layers):
    rng = np.random.RandomState(4)
    fused = mx.rnn.FusedRNNCell(H, num_layers=layers, mode=mode, bidirectional=bidirectional, prefix="f_")
    stack = fused.unfuse()
    x = rng.randn(N, T, I).astype(np.float32)
    f_out, _ = fused.unroll(T, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    u_out, _ = stack.unroll(T, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    n_params = f_out.infer_shape(data=(T, N, I))[0][f_out.list_arguments().index("f_parameters")]
    params = (rng.randn(*n_params) * 0.3).astype(np.float32)
    unpacked = fused.unpack_weights({"f_parameters": mx.nd.array(params)})
    assert "f_parameters" not in unpacked
    packed = stack.pack_weights(unpacked)
    got_f = _run(f_out, {"data": x.transpose(1, 0, 2), "f_parameters": params})[0]
    got_u = _run(u_out, dict({k: v.asnumpy() for k, v in packed.items()}, data=x.transpose(1, 0, 2)))[0]
    np.testing.assert_allclose(got_f, got_u, rtol=1e-4, atol=1e-5)
    # round trip: pack(unpack(p)) == p
    again = fused.pack_weights(unpacked)["f_parameters"].asnumpy()
    np.testing.assert_array_equal(again, params)


def test_fused_initializer_sets_forget_bias():
    cell = mx.rnn.FusedRNNCell(H, num_layers=1, mode="lstm", forget_bias=3.0, prefix="")
    out, _ = cell.unroll(T, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    arg_shapes, _, _ = out.infer_shape(data=(T, N, I))
    arr = mx.nd.zeros(arg_shapes[out.list_arguments().index("parameters")])
    attrs = out.attr_dict()["parameters"]
    mx.init.Uniform(0.1)(mx.init.InitDesc("parameters", attrs=attrs), arr)
    w = cell.unpack_weights({"parameters": arr})
    np.testing.assert_array_equal(w["l0_i2h_f_bias"].asnumpy(), 3.0)
    assert np.abs(w["l0_i2h_i_weight"].asnumpy()).max() <= 0.1
    assert np.abs(w["l0_i2h_i_weight"].asnumpy()).max() > 0


def test_pack_unpack_stepping_cell():
    cell = mx.rnn.LSTMCell(H, prefix="x_")
    w = {k: mx.nd.array(v) for k, v in _weights(np.random.RandomState(5), "x_", 4).items()}
    un = cell.unpack_weights(w)
    assert sorted(un) == sorted("x_%s_%s_%s" % (g, c, k) for g in ("i2h", "h2h") for c in "ifco"
                                for k in ("weight", "bias"))
    np.testing.assert_array_equal(un["x_i2h_f_weight"].asnumpy(), w["x_i2h_weight"].asnumpy()[H:2 * H])
    back = cell.pack_weights(un)
    for k in w:
        np.testing.assert_array_equal(back[k].asnumpy(), w[k].asnumpy())


def test_rnn_checkpoint_roundtrip(tmp_path):
    cell = mx.rnn.FusedRNNCell(H, num_layers=1, mode="gru", prefix="g_")
    out, _ = cell.unroll(T, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    n = out.infer_shape(data=(T, N, I))[0][out.list_arguments().index("g_parameters")]
    params = mx.nd.array(np.random.RandomState(6).randn(*n))
    prefix = str(tmp_path / "ck")
    cb = mx.rnn.do_rnn_checkpoint(cell, prefix, period=2)
    cb(0, out, {"g_parameters": params}, {})
    assert not (tmp_path / "ck-0001.params").exists()
    cb(1, out, {"g_parameters": params}, {})
    saved = mx.nd.load(prefix + "-0002.params")
    assert "arg:g_l0_i2h_r_weight" in saved and "arg:g_parameters" not in saved
    sym, arg, aux = mx.rnn.load_rnn_checkpoint(cell, prefix, 2)
    assert sym.list_arguments() == out.list_arguments() and aux == {}
    np.testing.assert_array_equal(arg["g_parameters"].asnumpy(), params.asnumpy())


def test_bad_arguments():
    with pytest.raises(mx.base.InvalidArgumentError, match="mode"):
        mx.rnn.FusedRNNCell(H, mode="xlstm")
    with pytest.raises(mx.base.InvalidArgumentError, match="layout"):
        mx.rnn.LSTMCell(H).unroll(T, mx.sym.var("d"), layout="CTN")
    with pytest.raises(mx.base.InvalidArgumentError, match="length"):
        mx.rnn.LSTMCell(H).unroll(3, [mx.sym.var("a"), mx.sym.var("b")])
    with pytest.raises(NotImplementedError, match="unroll"):
        mx.rnn.FusedRNNCell(H)(mx.sym.var("x"), [])


def test_fused_cell_in_module_and_init_fusedrnn():
    cell = mx.rnn.FusedRNNCell(H, num_layers=2, mode="lstm", bidirectional=True, forget_bias=2.0, prefix="f_")
    out, _ = cell.unroll(T, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    mod = mx.mod.Module(out, label_names=None, context=mx.cpu())
    mod.bind(data_shapes=[("data", (T, N, I))], label_shapes=None, for_training=False)
    mod.init_params(initializer=mx.init.Xavier())
    w = cell.unpack_weights(mod.get_params()[0])
    for d in "lr":
        for layer in (0, 1):
            np.testing.assert_array_equal(w["f_%s%d_i2h_f_bias" % (d, layer)].asnumpy(), 2.0)
            np.testing.assert_array_equal(w["f_%s%d_h2h_i_bias" % (d, layer)].asnumpy(), 0.0)
            assert np.abs(w["f_%s%d_h2h_o_weight" % (d, layer)].asnumpy()).max() > 0
    assert w["f_l1_i2h_c_weight"].shape == (H, 2 * H)  # layer 1 reads both directions
    outs = mod.predict(mx.io.NDArrayIter(np.random.RandomState(7).randn(T, N, I).astype(np.float32), batch_size=T))
    assert outs.shape == (T, N, 2 * H)
    # mx.init.FusedRNN is MXNet's name; it survives dumps()/create()
    fr = mx.init.FusedRNN(mx.init.Constant(0.25), H, 1, "gru")
    again = mx.init.create(fr.dumps())
    arr = mx.nd.zeros(((I + H + 2) * H * 3,))
    mx.init.Uniform()(mx.init.InitDesc("parameters", attrs={"__init__": again.dumps()}), arr)
    pieces = mx.rnn.FusedRNNCell(H, mode="gru", prefix="").unpack_weights({"parameters": arr})
    for name, a in pieces.items():  # the wrapped init fills weights; biases take the bias rule (0)
        np.testing.assert_array_equal(a.asnumpy(), 0.25 if name.endswith("weight") else 0.0)


def test_fused_next_states_match_unfused():
    rng = np.random.RandomState(8)
    fused = mx.rnn.FusedRNNCell(H, num_layers=1, mode="lstm", get_next_state=True, prefix="s_")
    x = rng.randn(N, T, I).astype(np.float32)
    f_out, f_states = fused.unroll(T, mx.sym.var("data"), layout="TNC", merge_outputs=True)
    assert [s.attr("__layout__") for s in f_states] == ["LNC", "LNC"]
    n_params = f_out.infer_shape(data=(T, N, I))[0][f_out.list_arguments().index("s_parameters")]
    params = (rng.randn(*n_params) * 0.3).astype(np.float32)
    got = _run(mx.sym.Group([f_out] + f_states), {"data": x.transpose(1, 0, 2), "s_parameters": params})
    w = {k: v.asnumpy() for k, v in fused.unpack_weights({"s_parameters": mx.nd.array(params)}).items()}
    packed = mx.rnn.LSTMCell(H, prefix="s_l0_").pack_weights({k: mx.nd.array(v) for k, v in w.items()})
    want_out, (h, c) = _np_lstm(x, {k: v.asnumpy() for k, v in packed.items()}, "s_l0_")
    np.testing.assert_allclose(got[0], want_out.transpose(1, 0, 2), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[1], h[None], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[2], c[None], rtol=1e-4, atol=1e-5)
