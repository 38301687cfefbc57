"""A full reduction inside a graph (weft.sym.np sum/mean/max/min/prod with axis=None) gives
shape () as in MXNet's NumPy mode (issue 39), through the _np_reshape operator (Note [0-d
results in a traced graph] in core/op/shape/np_reshape.cc), imperatively equal,
differentiable, exported and loaded back as 0-d; and MXNet's own _np_reshape nodes load as
that operator (zero-size axes included)."""
import json
import os

import numpy as onp
import pytest

import weft as mx
from weft import autograd, gluon, np
from np_mode_helpers import HybridFn, np_mode  # pylint: disable=unused-import (np_mode: a fixture)

pytestmark = [pytest.mark.usefixtures("np_mode"), pytest.mark.filterwarnings(r"error:hybridize\(\)")]


X = onp.random.RandomState(0).randn(3, 4).astype("float32")
REDUCTIONS = [("sum", onp.sum), ("mean", onp.mean), ("max", onp.max), ("min", onp.min), ("prod", onp.prod)]


@pytest.mark.parametrize("name,ref", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_full_reduction_is_0d_hybridized_and_imperatively(name, ref):
    fn = lambda F, x: getattr(F.np, name)(x)  # noqa: E731
    outs = []
    for hybrid in (False, True):
        block = HybridFn(fn)
        if hybrid:
            block.hybridize()
        outs.append(block(np.array(X)))
    for out in outs:
        assert isinstance(out, np.ndarray) and out.shape == ()
        onp.testing.assert_allclose(out.asnumpy(), ref(X), rtol=1e-5)
    method = HybridFn(lambda F, x: getattr(x, name)())
    method.hybridize()
    assert method(np.array(X)).shape == ()


def test_keepdims_and_axes_keep_their_shapes():
    for fn, want in ((lambda F, x: F.np.sum(x, keepdims=True), (1, 1)), (lambda F, x: F.np.mean(x, axis=0), (4,)),
                     (lambda F, x: F.np.max(x, axis=(0, 1), keepdims=True), (1, 1))):
        block = HybridFn(fn)
        block.hybridize()
        assert block(np.array(X)).shape == want


def test_a_0d_loss_trains_hybridized():
    net = gluon.nn.Dense(2)
    net.initialize(mx.init.Xavier())

    class Loss(gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            self.net = net

        def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
            return F.np.mean(F.np.square(self.net(x)))
    grads = []
    for hybrid in (False, True):
        block = Loss()
        if hybrid:
            block.hybridize()
        with autograd.record():
            loss = block(np.array(X))
        assert loss.shape == ()
        loss.backward()
        grads.append(net.weight.grad().asnumpy().copy())
    onp.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-7)


def test_export_writes_np_reshape_and_loads_back_0d(tmp_path):
    block = HybridFn(lambda F, x: F.np.sum(x) + F.np.mean(x * 2))
    block.hybridize()
    y = block(np.array(X))
    assert y.shape == ()
    block.export(str(tmp_path / "r"))
    with open(str(tmp_path / "r-symbol.json")) as f:
        nodes = json.load(f)["nodes"]
    reshapes = [n for n in nodes if n["op"] == "_np_reshape"]
    assert len(reshapes) == 2 and all(n["attrs"]["newshape"] == "()" for n in reshapes)
    back = gluon.SymbolBlock.imports(str(tmp_path / "r-symbol.json"), ["data"])
    got = back(np.array(X))
    assert got.shape == ()
    onp.testing.assert_allclose(got.asnumpy(), y.asnumpy(), rtol=1e-6)


def _mxnet_node(attrs):
    """A one-node graph as MXNet 1.9.1 writes np.reshape in NumPy mode."""
    return json.dumps({"nodes": [{"op": "null", "name": "data", "inputs": []},
                                 {"op": "_np_reshape", "name": "r", "attrs": attrs, "inputs": [[0, 0, 0]]}],
                       "arg_nodes": [0], "node_row_ptr": [0, 1, 2], "heads": [[1, 0, 0]],
                       "attrs": {"is_np_shape": ["int", 1], "mxnet_version": ["int", 10901]}})


def test_mxnet_np_reshape_nodes_load_as_the_numpy_operator():
    def run(attrs, x):
        sym = mx.sym.load_json(_mxnet_node(attrs))
        assert [n["op"] for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"] == ["_np_reshape"]
        return sym.bind(mx.cpu(), {"data": mx.nd.array(x)}).forward()[0]
    assert run({"newshape": "()", "order": "C"}, onp.array([[2.5]], dtype="float32")).shape == ()
    assert run({"newshape": "(3, 0)", "order": "C"}, onp.zeros((0, 3), dtype="float32")).shape == (3, 0)
    onp.testing.assert_array_equal(run({"newshape": "(-1, 6)"}, X).asnumpy(), X.reshape(-1, 6))
    with pytest.raises(mx.base.WeftError, match=r"_np_reshape: cannot reshape array of shape \(3, 4\)"):
        run({"newshape": "(5, -1)"}, X)
    with pytest.raises(mx.base.WeftError, match="_np_reshape: can only specify one unknown dimension"):
        run({"newshape": "(-1, -1)"}, X)
    with pytest.raises(mx.base.WeftError, match="_np_reshape: parameter 'order' must be 'C'"):
        run({"newshape": "(12,)", "order": "F"}, X)


def test_the_mxnet_written_export_still_loads():
    # tests/python/mxnet_written/np_export holds _np_reshape(newshape=(-1, 64)) as MXNet wrote it.
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_export")
    net = gluon.SymbolBlock.imports(os.path.join(here, "mnet-symbol.json"), ["data"],
                                    os.path.join(here, "mnet-0000.params"))
    y = net(np.array(onp.load(os.path.join(here, "input.npy"))))
    onp.testing.assert_allclose(y.asnumpy(), onp.load(os.path.join(here, "output.npy")), rtol=1e-5, atol=1e-6)
