"""contrib.boolean_mask (MXNet 1.9.1's _contrib_boolean_mask): an output shape
known only from the index's values (Note [Data-dependent output shapes],
core/opdef/dynamic_shape.h). Imperative calls size it once the index is ready,
gradients scatter back (checked by finite differences through autograd, as a
bound executor cannot hold the op), a hybridized block runs it, bind refuses it
with a message naming the node, bad input is refused naming the argument."""
import numpy as np
import pytest

import weft
from weft import autograd, gluon, nd, sym


def test_keeps_the_slices_with_nonzero_index_entries():
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    m = np.array([0, 1, 0, 1, 1], np.float32)
    y = nd.contrib.boolean_mask(nd.array(x), nd.array(m))
    assert y.shape == (3, 3)
    np.testing.assert_array_equal(y.asnumpy(), x[m != 0])
    y1 = nd.contrib.boolean_mask(nd.array(x), nd.array([1, 0, 1], dtype=np.int32), axis=1)
    np.testing.assert_array_equal(y1.asnumpy(), x[:, [0, 2]])


def test_index_computed_by_a_pending_op():
    # The mask comes from ops still queued on the engine: the call waits for it.
    x = nd.array(np.random.default_rng(0).standard_normal((200, 4)).astype(np.float32))
    m = nd.slice_axis(x, axis=1, begin=0, end=1).reshape((-1,)) > 0
    y = nd.contrib.boolean_mask(x * 2, m)
    xs = x.asnumpy()
    np.testing.assert_allclose(y.asnumpy(), 2 * xs[xs[:, 0] > 0], rtol=1e-6)


def test_nothing_kept_gives_an_empty_axis():
    y = nd.contrib.boolean_mask(nd.ones((3, 2)), nd.zeros((3,)))
    assert y.shape == (0, 2)


def _masked_objective(x, m, h, axis):
    return float(np.sum(np.compress(m != 0, x, axis=axis) * h))


@pytest.mark.parametrize("axis", [0, 1])
def test_gradient_matches_finite_differences(axis):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 5)).astype(np.float64)
    m = np.array([1, 0, 1, 1, 0][: x.shape[axis]], np.float64)
    xa = nd.array(x, dtype=np.float64)
    xa.attach_grad()
    with autograd.record():
        y = nd.contrib.boolean_mask(xa, nd.array(m, dtype=np.float64), axis=axis)
    h = rng.standard_normal(y.shape)
    y.backward(nd.array(h, dtype=np.float64))
    eps, numeric = 1e-6, np.zeros_like(x)
    for i in np.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        numeric[i] = (_masked_objective(xp, m, h, axis) - _masked_objective(xm, m, h, axis)) / (2 * eps)
    np.testing.assert_allclose(xa.grad.asnumpy(), numeric, rtol=1e-6, atol=1e-8)
    assert np.abs(numeric).max() > 0.1  # the check is not vacuous


def test_symbol_leaves_the_shape_open_and_bind_refuses_it():
    s = sym.contrib.boolean_mask(sym.var("a"), sym.var("b"), name="bm")
    assert s.list_arguments() == ["a", "b"]
    _, out, _ = s.infer_shape_partial(a=(3, 2), b=(3,))
    assert out == [()] or out == [None] or not out[0]
    with pytest.raises(weft.ShapeError, match=r"node 'bm' \(_contrib_boolean_mask\).*depends on the values"):
        s.bind(weft.cpu(), {"a": nd.ones((3, 2)), "b": nd.ones((3,))})
    with pytest.raises(weft.ShapeError, match="cannot infer"):  # refused in Python before the core's bind
        s.simple_bind(weft.cpu(), a=(3, 2), b=(3,))
    with pytest.raises(weft.ShapeError, match=r"_contrib_boolean_mask.*'index'"):
        s.infer_shape_partial(a=(3, 2), b=(4,))
    again = sym.load_json(s.tojson())
    assert "_contrib_boolean_mask" in again.tojson()


class _MaskBlock(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.dense = gluon.nn.Dense(3, in_units=4)

    def hybrid_forward(self, F, x, m):
        return F.contrib.boolean_mask(self.dense(x), m) * 2


def test_hybridized_block_runs_it_with_gradients():
    net = _MaskBlock()
    net.initialize()
    rng = np.random.default_rng(1)
    x = nd.array(rng.standard_normal((6, 4)).astype(np.float32))
    m = nd.array([1, 0, 0, 1, 1, 0])
    with autograd.record():
        want = net(x, m)
    want.backward()
    want_grad = net.dense.weight.grad().asnumpy().copy()
    net.hybridize()
    for _ in range(2):  # the second call reuses the cached graph
        with autograd.record():
            got = net(x, m)
        got.backward()
        assert got.shape == (3, 3)
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)
        np.testing.assert_allclose(net.dense.weight.grad().asnumpy(), want_grad, rtol=1e-5)
    # Another mask, another output shape, through the same cached graph.
    assert net(x, nd.ones((6,))).shape == (6, 3)
    assert net(x, nd.zeros((6,))).shape == (0, 3)


def test_bad_input_is_refused_at_the_call():
    x = nd.ones((3, 2))
    with pytest.raises(weft.ShapeError, match=r"_contrib_boolean_mask.*'index'.*1-D"):
        nd.contrib.boolean_mask(x, nd.ones((3, 1)))
    with pytest.raises(weft.ShapeError, match=r"_contrib_boolean_mask.*'index' has 2 entries.*3 along axis 0"):
        nd.contrib.boolean_mask(x, nd.ones((2,)))
    with pytest.raises(weft.WeftError, match=r"_contrib_boolean_mask.*axis"):
        nd.contrib.boolean_mask(x, nd.ones((3,)), axis=2)
    with pytest.raises(weft.ShapeError, match=r"_contrib_boolean_mask.*'data'.*at least 1 dimension"):
        nd.contrib.boolean_mask(nd.array(np.float32(1.0)).reshape(()), nd.ones((1,)))
