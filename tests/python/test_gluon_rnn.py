"""weft.gluon.rnn: the RNN / LSTM / GRU layers over the fused operator against a
NumPy implementation of the recurrences (modes, layouts, layers, directions,
given and returned states); MXNet's parameter names; cells stepped and
unrolled against the same reference and against the fused layer with the
same weights; hybridize; symbolic tracing; gradients reaching every parameter."""
import numpy as np
import pytest

import weft as mx
from weft import autograd
from weft.gluon import rnn

T, N, C, H = 3, 2, 4, 5
MODES = ["rnn_relu", "rnn_tanh", "lstm", "gru"]
GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


@pytest.fixture(autouse=True)
def fresh_names():
    with mx.name.NameManager():
        yield


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


# ---- NumPy reference -----------------------------------------------------------------------------------------
def ref_step(mode, x, h, c, wi, wh, bi, bh):
    """One step of ``mode`` for (N, C) x and (N, H) h, c; returns (h', c')."""
    gi = x @ wi.T + bi
    gh = h @ wh.T + bh
    if mode == "rnn_relu":
        return np.maximum(gi + gh, 0), c
    if mode == "rnn_tanh":
        return np.tanh(gi + gh), c
    if mode == "lstm":
        i, f, g, o = np.split(gi + gh, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        return _sigmoid(o) * np.tanh(c), c
    ir, iz, inn = np.split(gi, 3, axis=1)
    hr, hz, hn = np.split(gh, 3, axis=1)
    r, z = _sigmoid(ir + hr), _sigmoid(iz + hz)
    n = np.tanh(inn + r * hn)
    return (1 - z) * n + z * h, c


def ref_layer(mode, x, weights, h0, c0, num_layers, dirs):
    """x (T, N, C); weights[(layer, dir)] = (wi, wh, bi, bh); h0, c0 (L*D, N, H).
    Returns (output (T, N, D*H), hT, cT) as the fused operator defines them."""
    hs, cs = [], []
    inp = x
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            h, c = h0[k], c0[k]
            steps = range(len(inp)) if d == 0 else reversed(range(len(inp)))
            ys = [None] * len(inp)
            for t in steps:
                h, c = ref_step(mode, inp[t], h, c, *weights[(layer, d)])
                ys[t] = h
            outs.append(np.stack(ys))
            hs.append(h)
            cs.append(c)
        inp = np.concatenate(outs, axis=2)
    return inp, np.stack(hs), np.stack(cs)


def make_layer(mode, num_layers=1, bidirectional=False, layout="TNC", **kwargs):
    if mode.startswith("rnn_"):
        return rnn.RNN(H, num_layers, activation=mode[4:], layout=layout, bidirectional=bidirectional, **kwargs)
    cls = {"lstm": rnn.LSTM, "gru": rnn.GRU}[mode]
    return cls(H, num_layers, layout=layout, bidirectional=bidirectional, **kwargs)


def randomize(block, seed=0):
    """Sets every parameter to a different random value (biases included)."""
    rng = np.random.RandomState(seed)
    for p in block.collect_params().values():
        p.set_data(mx.nd.array(rng.uniform(-0.5, 0.5, p.shape).astype(np.float32)))


def layer_weights(layer, num_layers, dirs):
    params = {k[len(layer.prefix):]: v.data().asnumpy() for k, v in layer.collect_params().items()}
    return {(l, d): tuple(params["%s%d_%s" % ("lr"[d], l, n)] for n in ("i2h_weight", "h2h_weight", "i2h_bias",
                                                                         "h2h_bias"))
            for l in range(num_layers) for d in range(dirs)}


def _close(a, b, tol=1e-5):
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


# ---- layers ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("num_layers,bidirectional", [(1, False), (2, True), (2, False)])
@pytest.mark.parametrize("layout", ["TNC", "NTC"])
def test_layer_matches_numpy(mode, num_layers, bidirectional, layout):
    dirs = 2 if bidirectional else 1
    layer = make_layer(mode, num_layers, bidirectional, layout, input_size=C)
    layer.initialize()
    randomize(layer)
    rng = np.random.RandomState(1)
    x = rng.randn(T, N, C).astype(np.float32)
    h0 = rng.randn(num_layers * dirs, N, H).astype(np.float32)
    c0 = rng.randn(num_layers * dirs, N, H).astype(np.float32)
    states = [mx.nd.array(h0)] + ([mx.nd.array(c0)] if mode == "lstm" else [])
    xin = x if layout == "TNC" else x.transpose(1, 0, 2)

    out, new_states = layer(mx.nd.array(xin), states)
    ref_out, ref_h, ref_c = ref_layer(mode, x, layer_weights(layer, num_layers, dirs), h0, c0, num_layers, dirs)
    if layout == "NTC":
        ref_out = ref_out.transpose(1, 0, 2)
    _close(out.asnumpy(), ref_out)
    assert len(new_states) == (2 if mode == "lstm" else 1)
    _close(new_states[0].asnumpy(), ref_h)
    if mode == "lstm":
        _close(new_states[1].asnumpy(), ref_c)

    # Without states: zero begin states, only the output comes back.
    zeros = np.zeros_like(h0)
    plain = layer(mx.nd.array(xin))
    ref_out, _, _ = ref_layer(mode, x, layer_weights(layer, num_layers, dirs), zeros, zeros, num_layers, dirs)
    _close(plain.asnumpy(), ref_out if layout == "TNC" else ref_out.transpose(1, 0, 2))


def test_layer_parameter_names_and_shapes():
    layer = rnn.LSTM(H, num_layers=2, bidirectional=True, input_size=C)
    params = layer.collect_params()
    assert list(params.keys())[:4] == ["lstm0_l0_i2h_weight", "lstm0_l0_h2h_weight", "lstm0_l0_i2h_bias",
                                       "lstm0_l0_h2h_bias"]
    assert params["lstm0_l0_i2h_weight"].shape == (4 * H, C)
    assert params["lstm0_r0_h2h_weight"].shape == (4 * H, H)
    assert params["lstm0_l1_i2h_weight"].shape == (4 * H, 2 * H)
    assert params["lstm0_r1_i2h_bias"].shape == (4 * H,)
    assert len(params) == 16
    assert list(rnn.GRU(3).collect_params())[0] == "gru0_l0_i2h_weight"
    assert list(rnn.RNN(3).collect_params())[0] == "rnn0_l0_i2h_weight"
    assert "LSTM(4 -> 5, TNC, num_layers=2, bidirectional)" == repr(layer)


def test_deferred_input_size_and_begin_state():
    layer = rnn.GRU(H, num_layers=2, layout="NTC")
    layer.initialize()
    assert layer.l0_i2h_weight.shape == (3 * H, 0)
    x = mx.nd.ones((N, T, 7))
    assert layer(x).shape == (N, T, H)
    assert layer.l0_i2h_weight.shape == (3 * H, 7)
    assert layer.l1_i2h_weight.shape == (3 * H, H)
    states = layer.begin_state(batch_size=N)
    assert [s.shape for s in states] == [(2, N, H)]
    assert layer.state_info(N)[0]["shape"] == (2, N, H)
    out, new = layer(x, states[0])             # a single state array is accepted too
    assert out.shape == (N, T, H) and new[0].shape == (2, N, H)
    with pytest.raises(mx.ShapeError):
        layer(x, [mx.nd.zeros((1, N, H))])


def test_unsupported_options_raise():
    with pytest.raises(mx.InvalidArgumentError):
        rnn.LSTM(H, projection_size=3)
    with pytest.raises(mx.InvalidArgumentError):
        rnn.LSTM(H, state_clip_min=-1, state_clip_max=1)
    with pytest.raises(mx.InvalidArgumentError):
        rnn.GRU(H, layout="CTN")
    with pytest.raises(mx.InvalidArgumentError):
        rnn.RNN(H, activation="sigmoid")


@pytest.mark.parametrize("mode", ["lstm", "gru"])
def test_layer_hybridize_matches_imperative(mode):
    layer = make_layer(mode, 2, True, "NTC")
    layer.initialize()
    x = mx.nd.array(np.random.RandomState(0).randn(N, T, C))
    ref = layer(x)
    ref_out, ref_states = layer(x, layer.begin_state(N))
    layer.hybridize()
    _close(layer(x).asnumpy(), ref.asnumpy())
    out, states = layer(x, layer.begin_state(N))
    _close(out.asnumpy(), ref_out.asnumpy())
    for a, b in zip(states, ref_states):
        _close(a.asnumpy(), b.asnumpy())


def test_layer_symbolic():
    layer = rnn.LSTM(H, num_layers=2, input_size=C, layout="NTC")
    out = layer(mx.sym.var("data"))
    _, out_shapes, _ = out.infer_shape(data=(N, T, C))
    assert out_shapes == [(N, T, H)]
    out, states = layer(mx.sym.var("data"), [mx.sym.var("h"), mx.sym.var("c")])
    grouped = mx.sym.Group([out] + states)
    _, out_shapes, _ = grouped.infer_shape(data=(N, T, C), h=(2, N, H), c=(2, N, H))
    assert out_shapes == [(N, T, H), (2, N, H), (2, N, H)]


def test_layer_dropout_is_inactive_in_inference():
    a = rnn.LSTM(H, num_layers=2, dropout=0.5, input_size=C)
    b = rnn.LSTM(H, num_layers=2, input_size=C)
    a.initialize()
    b.initialize()
    for pa, pb in zip(a.collect_params().values(), b.collect_params().values()):
        pb.set_data(pa.data())
    x = mx.nd.array(np.random.RandomState(0).randn(T, N, C))
    _close(a(x).asnumpy(), b(x).asnumpy())
    with autograd.record():
        assert a(x).shape == (T, N, H)


@pytest.mark.parametrize("mode", MODES)
def test_layer_gradients_reach_every_parameter(mode):
    layer = make_layer(mode, 2, True, "TNC", input_size=C)
    layer.initialize()
    randomize(layer)
    x = mx.nd.array(np.random.RandomState(0).randn(T, N, C))
    x.attach_grad()
    with autograd.record():
        loss = (layer(x) ** 2).sum()
    loss.backward()
    assert np.abs(x.grad.asnumpy()).sum() > 0
    for name, p in layer.collect_params().items():
        assert np.abs(p.grad().asnumpy()).sum() > 0, name


# ---- cells ----------------------------------------------------------------------------------------------------
def make_cell(mode, **kwargs):
    if mode.startswith("rnn_"):
        return rnn.RNNCell(H, activation=mode[4:], **kwargs)
    return {"lstm": rnn.LSTMCell, "gru": rnn.GRUCell}[mode](H, **kwargs)


def cell_weights(cell):
    return tuple(getattr(cell, n).data().asnumpy() for n in ("i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias"))


@pytest.mark.parametrize("mode", MODES)
def test_cell_step_matches_numpy(mode):
    cell = make_cell(mode, input_size=C)
    cell.initialize()
    randomize(cell)
    rng = np.random.RandomState(2)
    x, h, c = rng.randn(N, C), rng.randn(N, H), rng.randn(N, H)
    states = [mx.nd.array(h)] + ([mx.nd.array(c)] if mode == "lstm" else [])
    out, new_states = cell(mx.nd.array(x), states)
    ref_h, ref_c = ref_step(mode, x, h, c, *cell_weights(cell))
    _close(out.asnumpy(), ref_h)
    _close(new_states[0].asnumpy(), ref_h)
    if mode == "lstm":
        _close(new_states[1].asnumpy(), ref_c)
    assert [i["shape"] for i in cell.state_info(N)] == [(N, H)] * len(states)


def test_cell_names():
    assert list(rnn.LSTMCell(H).collect_params()) == ["lstm0_i2h_weight", "lstm0_h2h_weight", "lstm0_i2h_bias",
                                                     "lstm0_h2h_bias"]
    assert list(rnn.GRUCell(H, prefix="dec_").collect_params())[0] == "dec_i2h_weight"
    assert rnn.RNNCell(H).collect_params()["rnn0_h2h_weight"].shape == (H, H)


def copy_layer_into_cells(layer, stack, num_layers, dirs):
    """Gives the cells of ``stack`` (one per layer, BidirectionalCell when
    dirs == 2) the layer's weights."""
    weights = layer_weights(layer, num_layers, dirs)
    for l in range(num_layers):
        cells = [stack[l]] if dirs == 1 else [stack[l]._children["l_cell"], stack[l]._children["r_cell"]]
        for d, cell in enumerate(cells):
            for name, value in zip(("i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias"), weights[(l, d)]):
                getattr(cell, name).set_data(mx.nd.array(value))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_unrolled_cells_equal_fused_layer(mode, bidirectional):
    num_layers, dirs = 2, (2 if bidirectional else 1)
    layer = make_layer(mode, num_layers, bidirectional, "NTC", input_size=C)
    layer.initialize()
    randomize(layer)
    stack = rnn.SequentialRNNCell()
    for l in range(num_layers):
        ni = C if l == 0 else H * dirs
        if bidirectional:
            stack.add(rnn.BidirectionalCell(make_cell(mode, input_size=ni), make_cell(mode, input_size=ni)))
        else:
            stack.add(make_cell(mode, input_size=ni))
    stack.initialize()
    copy_layer_into_cells(layer, stack, num_layers, dirs)

    rng = np.random.RandomState(3)
    x = mx.nd.array(rng.randn(N, T, C))
    begin = [mx.nd.array(rng.randn(num_layers * dirs, N, H)) for _ in layer.state_info()]
    out, states = layer(x, begin)
    # The layer's states are (layer*dir, N, H) stacks; the cells' are per cell: [h, (c)] each.
    per_cell = len(layer.state_info())
    cell_begin = [begin[j][k] for k in range(num_layers * dirs) for j in range(per_cell)]
    outs, cell_states = stack.unroll(T, x, begin_state=cell_begin, layout="NTC", merge_outputs=True)
    _close(outs.asnumpy(), out.asnumpy())
    for k in range(num_layers * dirs):
        for j in range(per_cell):
            _close(cell_states[k * per_cell + j].asnumpy(), states[j][k].asnumpy())

    # _unfuse() builds the same stack around the layer's own parameters.
    unfused = layer._unfuse()
    outs, _ = unfused.unroll(T, x, begin_state=cell_begin, layout="NTC", merge_outputs=True)
    _close(outs.asnumpy(), out.asnumpy())
    assert set(unfused.collect_params().keys()) == set(layer.collect_params().keys())


@pytest.mark.parametrize("layout", ["NTC", "TNC"])
def test_unroll_forms_and_default_state(layout):
    cell = rnn.GRUCell(H, input_size=C)
    cell.initialize()
    randomize(cell)
    rng = np.random.RandomState(4)
    x = rng.randn(T, N, C).astype(np.float32)
    xin = mx.nd.array(x if layout == "TNC" else x.transpose(1, 0, 2))
    outs, states = cell.unroll(T, xin, layout=layout, merge_outputs=True)
    h = np.zeros((N, H))
    ref = []
    for t in range(T):
        h, _ = ref_step("gru", x[t], h, None, *cell_weights(cell))
        ref.append(h)
    ref = np.stack(ref)
    _close(outs.asnumpy(), ref if layout == "TNC" else ref.transpose(1, 0, 2))
    _close(states[0].asnumpy(), h)
    steps = [mx.nd.array(x[t]) for t in range(T)]
    outs, _ = cell.unroll(T, steps, layout=layout, merge_outputs=False)
    assert isinstance(outs, list) and len(outs) == T
    _close(outs[-1].asnumpy(), h)


def test_unroll_valid_length():
    cell = rnn.LSTMCell(H, input_size=C)
    cell.initialize()
    randomize(cell)
    rng = np.random.RandomState(5)
    x = rng.randn(N, T, C).astype(np.float32)
    valid = np.array([2, 3], dtype=np.float32)
    outs, states = cell.unroll(T, mx.nd.array(x), layout="NTC", merge_outputs=True, valid_length=mx.nd.array(valid))
    outs = outs.asnumpy()
    for b in range(N):
        h = c = np.zeros((1, H))
        for t in range(int(valid[b])):
            h, c = ref_step("lstm", x[b:b + 1, t], h, c, *cell_weights(cell))
            _close(outs[b, t], h[0])
        assert np.all(outs[b, int(valid[b]):] == 0)
        _close(states[0].asnumpy()[b], h[0])
        _close(states[1].asnumpy()[b], c[0])


def test_cell_hybridize_matches_imperative():
    cell = rnn.LSTMCell(H)
    cell.initialize()
    x = mx.nd.array(np.random.RandomState(6).randn(N, T, C))
    ref, ref_states = cell.unroll(T, x, merge_outputs=True)
    cell.hybridize()
    out, states = cell.unroll(T, x, merge_outputs=True)
    _close(out.asnumpy(), ref.asnumpy())
    _close(states[1].asnumpy(), ref_states[1].asnumpy())


def test_cell_unroll_symbolic_without_begin_state():
    stack = rnn.SequentialRNNCell()
    stack.add(rnn.LSTMCell(H))
    stack.add(rnn.GRUCell(3))
    outs, states = stack.unroll(T, mx.sym.var("data"), layout="NTC", merge_outputs=True)
    _, shapes, _ = mx.sym.Group([outs] + states).infer_shape(data=(N, T, C))
    assert shapes == [(N, T, 3), (N, H), (N, H), (N, 3)]


def test_sequential_dropout_residual_cells():
    base = rnn.RNNCell(C, input_size=C, activation="tanh")
    stack = rnn.SequentialRNNCell()
    stack.add(rnn.DropoutCell(0.5))
    stack.add(rnn.ResidualCell(base))
    stack.initialize()
    assert len(stack) == 2 and isinstance(stack[1], rnn.ResidualCell)
    assert [i["shape"] for i in stack.state_info(N)] == [(N, C)]
    x = mx.nd.array(np.random.RandomState(7).randn(N, T, C))
    outs, states = stack.unroll(T, x, merge_outputs=True)   # not training: dropout is the identity
    h = np.zeros((N, C))
    xs = x.asnumpy()
    for t in range(T):
        h, _ = ref_step("rnn_tanh", xs[:, t], h, None, *cell_weights(base))
        _close(outs.asnumpy()[:, t], h + xs[:, t])
    _close(states[0].asnumpy(), h)
    with pytest.raises(mx.InvalidArgumentError):
        base.begin_state(N)                                  # a modified cell is used through its modifier
    with pytest.raises(NotImplementedError):
        rnn.BidirectionalCell(rnn.GRUCell(H), rnn.GRUCell(H))(x[:, 0], [])


def test_cell_gradients_reach_every_parameter():
    stack = rnn.SequentialRNNCell()
    stack.add(rnn.LSTMCell(H))
    stack.add(rnn.BidirectionalCell(rnn.GRUCell(H), rnn.RNNCell(H)))
    stack.initialize()
    x = mx.nd.array(np.random.RandomState(8).randn(N, T, C))
    with autograd.record():
        outs, _ = stack.unroll(T, x, merge_outputs=True)
        loss = (outs ** 2).sum()
    loss.backward()
    assert outs.shape == (N, T, 2 * H)
    for name, p in stack.collect_params().items():
        assert np.abs(p.grad().asnumpy()).sum() > 0, name


def test_begin_state_with_a_function():
    cell = rnn.LSTMCell(H)
    states = cell.begin_state(batch_size=N, func=mx.nd.ones)
    assert [s.shape for s in states] == [(N, H), (N, H)] and states[0].asnumpy().min() == 1
    sym_states = cell.begin_state(batch_size=N, func=mx.sym.zeros)
    assert sym_states[0].name == "lstm0_begin_state_2"
    layer = rnn.LSTM(H, num_layers=3)
    assert [s.shape for s in layer.begin_state(N, func=mx.nd.zeros)] == [(3, N, H), (3, N, H)]


def test_hybrid_sequential_and_zoneout_cells():
    stack = rnn.HybridSequentialRNNCell()
    stack.add(rnn.LSTMCell(H))
    stack.add(rnn.DropoutCell(0.3))
    stack.add(rnn.GRUCell(H))
    stack.initialize()
    x = mx.nd.array(np.random.RandomState(9).randn(N, T, C))
    ref, ref_states = stack.unroll(T, x, merge_outputs=True)
    out, states = stack(x[:, 0], stack.begin_state(batch_size=N))   # one step through all cells
    assert out.shape == (N, H) and [s.shape for s in states] == [(N, H)] * 3
    stack.hybridize()
    hybrid, hybrid_states = stack.unroll(T, x, merge_outputs=True)
    _close(hybrid.asnumpy(), ref.asnumpy())
    _close(hybrid_states[2].asnumpy(), ref_states[2].asnumpy())

    zone = rnn.ZoneoutCell(rnn.LSTMCell(H, input_size=C), zoneout_outputs=0.5, zoneout_states=0.5)
    zone.initialize()
    plain, _ = zone.unroll(T, x, merge_outputs=True)                 # inference: no zoneout
    zone.base_cell._modified = False
    base, _ = zone.base_cell.unroll(T, x, merge_outputs=True)
    _close(plain.asnumpy(), base.asnumpy())
