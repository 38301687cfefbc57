"""weft.sym.contrib.foreach, while_loop and cond (MXNet 1.9.1's subgraph
operators _foreach, _while_loop, _cond; Note [Subgraph operators]): an RNN cell
run by foreach against the unrolled imperative loop (values and gradients),
while_loop's padding to max_iterations, both branches of cond, nested loops
closing over outer results, the symbol JSON round trip with subgraphs, a
hybridized HybridBlock against the same block run imperatively and exported /
imported, and the errors for a node without its graphs or with bad locations."""
import json

import numpy as np
import pytest

import weft as mx
from weft import autograd, gluon, nd, sym

F32 = np.float32


def _rnn_step(x, states, wx, wh):
    h = sym.tanh(sym.dot(x, wx) + sym.dot(states[0], wh))
    return h, [h]


def _rnn_graph():
    data, h0, wx, wh = sym.var("data"), sym.var("h0"), sym.var("wx"), sym.var("wh")
    outs, states = sym.contrib.foreach(lambda x, s: _rnn_step(x, s, wx, wh), data, [h0])
    return sym.Group([outs, states[0]])


def _rnn_inputs():
    rng = np.random.default_rng(7)
    return {"data": rng.standard_normal((5, 2, 3)).astype(F32), "h0": rng.standard_normal((2, 4)).astype(F32),
            "wx": (0.5 * rng.standard_normal((3, 4))).astype(F32),
            "wh": (0.5 * rng.standard_normal((4, 4))).astype(F32)}


def _unrolled(values, head_outs, head_state):
    """The same RNN unrolled imperatively under autograd: (outs, state, grads)."""
    arrays = {k: nd.array(v) for k, v in values.items()}
    for a in arrays.values():
        a.attach_grad()
    with autograd.record():
        h = arrays["h0"]
        outs = []
        for t in range(values["data"].shape[0]):
            h = nd.tanh(nd.dot(arrays["data"][t], arrays["wx"]) + nd.dot(h, arrays["wh"]))
            outs.append(h)
        stacked = nd.stack(*outs, axis=0)
        loss = (stacked * nd.array(head_outs)).sum() + (h * nd.array(head_state)).sum()
    loss.backward()
    return stacked.asnumpy(), h.asnumpy(), {k: a.grad.asnumpy() for k, a in arrays.items()}


def test_rnn_cell_foreach_matches_the_unrolled_loop():
    g = _rnn_graph()
    values = _rnn_inputs()
    names = g.list_arguments()
    assert sorted(names) == ["data", "h0", "wh", "wx"]
    args = {k: nd.array(values[k]) for k in names}
    grads = {k: nd.zeros(values[k].shape) for k in names}
    exe = g.bind(mx.cpu(), args=args, args_grad=grads)
    outs, state = exe.forward(is_train=True)
    rng = np.random.default_rng(3)
    head_outs = rng.standard_normal(outs.shape).astype(F32)
    head_state = rng.standard_normal(state.shape).astype(F32)
    exe.backward([nd.array(head_outs), nd.array(head_state)])
    want_outs, want_state, want_grads = _unrolled(values, head_outs, head_state)
    assert outs.shape == (5, 2, 4)
    np.testing.assert_allclose(outs.asnumpy(), want_outs, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(state.asnumpy(), want_state, rtol=1e-5, atol=1e-5)
    for k in names:
        np.testing.assert_allclose(grads[k].asnumpy(), want_grads[k], rtol=1e-4, atol=1e-5, err_msg=k)


def test_foreach_infers_shapes_through_the_body():
    g = _rnn_graph()
    arg_shapes, out_shapes, _ = g.infer_shape(data=(5, 2, 3), h0=(2, 4), wx=(3, 4), wh=(4, 4))
    assert out_shapes == [(5, 2, 4), (2, 4)]
    assert dict(zip(g.list_arguments(), arg_shapes))["wh"] == (4, 4)


def test_foreach_attributes_are_mxnets():
    g = _rnn_graph()
    node = [n for n in json.loads(g.tojson())["nodes"] if n["op"] == "_foreach"][0]
    assert set(node["attrs"]) >= {"num_args", "num_outputs", "num_out_data", "in_state_locs", "in_data_locs",
                                  "remain_locs"}
    assert int(node["attrs"]["num_args"]) == len(node["inputs"]) + 1  # the body counts as an input
    assert len(node["subgraphs"]) == 1
    body = node["subgraphs"][0]
    assert set(body) == {"nodes", "arg_nodes", "node_row_ptr", "heads"}


def test_while_loop_pads_outputs_to_max_iterations():
    i, s = sym.var("i"), sym.var("s")
    outs, (i_final, s_final) = sym.contrib.while_loop(lambda i, s: i <= 5, lambda i, s: ([i + s], [i + 1, s + i]),
                                                      (i, s), max_iterations=10)
    g = sym.Group(outs + [i_final, s_final])
    _, out_shapes, _ = g.infer_shape(i=(1,), s=(1,))
    assert out_shapes == [(10, 1), (1,), (1,)]
    exe = g.bind(mx.cpu(), args={"i": nd.array([0]), "s": nd.array([1])})
    o, fi, fs = exe.forward()
    np.testing.assert_allclose(o.asnumpy().ravel(), [1, 2, 4, 7, 11, 16, 0, 0, 0, 0])
    assert fi.asnumpy()[0] == 6 and fs.asnumpy()[0] == 16
    # max_iterations ends the loop before cond does.
    outs, (i_final, _) = sym.contrib.while_loop(lambda i, s: i <= 5, lambda i, s: ([i + s], [i + 1, s + i]),
                                                (sym.var("i"), sym.var("s")), max_iterations=3)
    exe = sym.Group(outs + [i_final]).bind(mx.cpu(), args={"i": nd.array([0]), "s": nd.array([1])})
    o, fi = exe.forward()
    np.testing.assert_allclose(o.asnumpy().ravel(), [1, 2, 4])
    assert fi.asnumpy()[0] == 3


def test_while_loop_needs_max_iterations():
    with pytest.raises(ValueError, match="max_iterations should be specified"):
        sym.contrib.while_loop(lambda i: i < 3, lambda i: ([], [i + 1]), [sym.var("i")])


@pytest.mark.parametrize("a,want", [([0.5, 1.0], [1.5, 3.0]), ([2.0, 3.0], [1.0, 1.0])])
def test_cond_takes_either_branch(a, want):
    x, y = sym.var("x"), sym.var("y")
    out = sym.contrib.cond(sym.sum(x * y) < 5, lambda: x * y + 1, lambda: x - y)
    grads = {"x": nd.zeros((2,)), "y": nd.zeros((2,))}
    exe = out.bind(mx.cpu(), args={"x": nd.array(a), "y": nd.array([1.0, 2.0])}, args_grad=grads)
    (o,) = exe.forward(is_train=True)
    np.testing.assert_allclose(o.asnumpy(), want)
    exe.backward([nd.ones((2,))])
    then = sum(v * w for v, w in zip(a, [1.0, 2.0])) < 5
    np.testing.assert_allclose(grads["x"].asnumpy(), [1.0, 2.0] if then else [1.0, 1.0])
    np.testing.assert_allclose(grads["y"].asnumpy(), a if then else [-1.0, -1.0])


def test_json_round_trip_keeps_the_subgraphs():
    for g in (_rnn_graph(),
              sym.contrib.cond(sym.sum(sym.var("x")) < 0, lambda: sym.var("x") * 2, lambda: sym.var("x") + 1)):
        text = g.tojson()
        loaded = sym.load_json(text)
        assert loaded.tojson() == text
        assert loaded.list_arguments() == g.list_arguments()
    values = _rnn_inputs()
    g = sym.load_json(_rnn_graph().tojson())
    outs, _ = g.bind(mx.cpu(), args={k: nd.array(v) for k, v in values.items()}).forward()
    want, _, _ = _unrolled(values, np.zeros((5, 2, 4), F32), np.zeros((2, 4), F32))
    np.testing.assert_allclose(outs.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_a_node_without_its_graphs_says_how_to_build_it():
    with pytest.raises(mx.base.WeftError, match="build it with weft.sym.contrib.foreach"):
        nd._internal._foreach(nd.ones((2, 2)), nd.ones((2,)), num_args=3, num_outputs=2, num_out_data=1,
                              in_state_locs=(1,), in_data_locs=(0,), remain_locs=())
    bad = json.loads(_rnn_graph().tojson())
    for n in bad["nodes"]:
        n.pop("subgraphs", None)
    with pytest.raises(mx.base.WeftError, match="needs its subgraphs"):
        sym.load_json(json.dumps(bad))


class _RNN(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.wx = self.params.get("wx", shape=(3, 4))
            self.wh = self.params.get("wh", shape=(4, 4))

    def hybrid_forward(self, F, x, h0, wx, wh):  # pylint: disable=arguments-differ
        def step(xt, states):
            h = F.tanh(F.dot(xt, wx) + F.dot(states[0], wh))
            return h, [h]
        outs, states = F.contrib.foreach(step, x, [h0])
        # A cond and a while_loop on top: the state's sign picks a branch; the loop doubles it twice.
        h = F.contrib.cond(F.sum(states[0]) > 0, lambda: states[0] * 2, lambda: states[0] - 1)
        _, (h, _) = F.contrib.while_loop(lambda h, k: k < 2, lambda h, k: ([], [h * 2, k + 1]),
                                         [h, F.zeros_like(F.sum(h0))], max_iterations=4)
        return outs, h


def _run_block(hybridize):
    net = _RNN()
    net.initialize(mx.init.Uniform(0.5))
    values = _rnn_inputs()
    net.wx.set_data(nd.array(values["wx"]))
    net.wh.set_data(nd.array(values["wh"]))
    if hybridize:
        net.hybridize()
    x, h0 = nd.array(values["data"]), nd.array(values["h0"])
    x.attach_grad()
    with autograd.record():
        outs, h = net(x, h0)
        loss = outs.sum() + (h * h).sum()
    loss.backward()
    return [outs.asnumpy(), h.asnumpy(), x.grad.asnumpy(), net.wx.grad().asnumpy(), net.wh.grad().asnumpy()]


def test_hybridized_block_matches_imperative():
    imperative = _run_block(False)
    hybrid = _run_block(True)
    for k, (a, b) in enumerate(zip(imperative, hybrid)):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5, err_msg="result %d" % k)


def test_nested_foreach_closing_over_an_outer_result():
    # The body reads w2 = w * 2, computed outside it: the cut makes it an input of the node.
    x, w = sym.var("x"), sym.var("w")
    w2 = w * 2

    def outer(row, s):
        o, st = sym.contrib.foreach(lambda r, t: (r + t[0], [r + t[0]]), row, [s[0]])
        return o * w2, [st[0]]
    outs, st = sym.contrib.foreach(outer, x, [sym.var("s0")])
    g = sym.Group([outs, st[0]])
    assert sorted(g.list_arguments()) == ["s0", "w", "x"]
    grads = {"x": nd.zeros((2, 3, 1)), "w": nd.zeros((3, 1)), "s0": nd.zeros((1,))}
    exe = g.bind(mx.cpu(), args={"x": nd.array(np.arange(6, dtype=F32).reshape(2, 3, 1)),
                                 "w": nd.array(np.full((3, 1), 3.0)), "s0": nd.array([1.0])}, args_grad=grads)
    o, s = exe.forward(is_train=True)
    # Inner cumulative sums 1 2 4 | 7 11 16, times 2w = 6.
    np.testing.assert_allclose(o.asnumpy().ravel(), [6, 12, 24, 42, 66, 96])
    np.testing.assert_allclose(s.asnumpy(), [16])
    exe.backward([nd.ones((2, 3, 1)), nd.ones((1,))])
    np.testing.assert_allclose(grads["w"].asnumpy().ravel(), [2 * (1 + 7), 2 * (2 + 11), 2 * (4 + 16)])
    np.testing.assert_allclose(grads["s0"].asnumpy(), [6 * 6 + 1])
    np.testing.assert_allclose(grads["x"].asnumpy().ravel(), [37, 31, 25, 19, 13, 7])
    text = g.tojson()
    assert sym.load_json(text).tojson() == text


def test_bad_locations_in_a_file_are_named():
    bad = json.loads(_rnn_graph().tojson())
    node = [n for n in bad["nodes"] if n["op"] == "_foreach"][0]
    node["attrs"]["in_data_locs"] = "[9]"
    g = sym.load_json(json.dumps(bad))
    with pytest.raises(mx.base.WeftError, match="in_data_locs has position 9"):
        g.infer_shape(data=(5, 2, 3), h0=(2, 4), wx=(3, 4), wh=(4, 4))
    node["attrs"]["in_data_locs"] = node["attrs"]["in_state_locs"]
    g = sym.load_json(json.dumps(bad))
    with pytest.raises(mx.base.WeftError, match="appears twice"):
        g.infer_shape(data=(5, 2, 3), h0=(2, 4), wx=(3, 4), wh=(4, 4))


def test_exported_block_loads_back_and_agrees(tmp_path):
    net = _RNN()
    net.initialize(mx.init.Uniform(0.5))
    net.hybridize()
    values = _rnn_inputs()
    x, h0 = nd.array(values["data"]), nd.array(values["h0"])
    want = [o.asnumpy() for o in net(x, h0)]
    net.export(str(tmp_path / "rnn"))
    text = (tmp_path / "rnn-symbol.json").read_text()
    assert '"subgraphs"' in text
    assert sym.load(str(tmp_path / "rnn-symbol.json")).tojson() == text
    loaded = gluon.SymbolBlock.imports(str(tmp_path / "rnn-symbol.json"), ["data0", "data1"],
                                       str(tmp_path / "rnn-0000.params"))
    got = [o.asnumpy() for o in loaded(x, h0)]
    for a, b in zip(want, got):
        np.testing.assert_allclose(b, a, rtol=1e-6)
