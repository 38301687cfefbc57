"""weft.sym.np.where and weft.sym.np.matmul (issue 39): a hybrid_forward using F.np.where /
F.np.matmul traces in NumPy mode, gives NumPy's values and gradients equal to the
imperative ones, and writes only operators MXNet 1.9.1 registers (Note [Broadcasting in a
traced graph])."""
import json

import numpy as onp
import pytest

import weft as mx
from weft import autograd, np
from np_mode_helpers import HybridFn, np_mode  # pylint: disable=unused-import (np_mode: a fixture)

# A hybridized block must trace, never fall back to running imperatively.
pytestmark = [pytest.mark.usefixtures("np_mode"), pytest.mark.filterwarnings(r"error:hybridize\(\)")]

# Every operator these compositions write, each checked by hand against MXNet 1.9.1's
# MXListAllOpNames (its pip build): an export loads there.
MXNET_HAS = {"zeros_like", "_npi_add", "_npi_add_scalar", "_npx_cast", "where", "sum", "Reshape", "_npx_batch_dot",
             "_npx_reshape_like", "_greater_scalar"}


def _both(fn, *arrays):
    """(imperative, hybridized) outputs and input gradients of fn over the arrays."""
    res = []
    for hybrid in (False, True):
        block = HybridFn(fn)
        if hybrid:
            block.hybridize()
        xs = [np.array(a) for a in arrays]
        for x in xs:
            x.attach_grad()
        with autograd.record():
            y = block(*xs)
        y.backward()
        res.append((y.asnumpy(), [x.grad.asnumpy() for x in xs]))
    return res


def _ops(fn, n):
    sym = fn(mx.sym, *[mx.sym.var("x%d" % i).as_np_ndarray() for i in range(n)])
    return {node["op"] for node in json.loads(sym.tojson())["nodes"]} - {"null"}


R = onp.random.RandomState(0)


@pytest.mark.parametrize("sa,sb", [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (3, 4, 2)),
                                   ((4, 2), (3, 1, 2, 5))])
def test_matmul_broadcasts_batch_axes(sa, sb):
    a, b = R.randn(*sa).astype("float32"), R.randn(*sb).astype("float32")
    want = onp.matmul(a, b)
    (y0, g0), (y1, g1) = _both(lambda F, a, b: F.np.matmul(a, b), a, b)
    assert y1.shape == want.shape
    onp.testing.assert_allclose(y1, want, rtol=1e-5, atol=1e-5)
    onp.testing.assert_allclose(y0, want, rtol=1e-5, atol=1e-5)
    # d(sum(a @ b))/da = ones @ b^T summed over broadcast axes: equal to the imperative path's
    for ga, gb in zip(g0, g1):
        onp.testing.assert_allclose(gb, ga, rtol=1e-5, atol=1e-5)


def test_matmul_of_integers_and_float64():
    a, b = R.randint(-5, 5, (2, 3, 4)).astype("int32"), R.randint(-5, 5, (4, 2)).astype("int32")
    block = HybridFn(lambda F, a, b: F.np.matmul(a, b))
    block.hybridize()
    y = block(np.array(a, dtype="int32"), np.array(b, dtype="int32"))
    assert y.dtype == onp.int32
    onp.testing.assert_array_equal(y.asnumpy(), onp.matmul(a, b))
    a64, b64 = R.randn(3, 2), R.randn(2, 3)
    y = block(np.array(a64, dtype="float64"), np.array(b64, dtype="float64"))
    assert y.dtype == onp.float64
    onp.testing.assert_allclose(y.asnumpy(), a64 @ b64, rtol=1e-12)


def test_matmul_refuses_mismatched_core_axes_and_non_symbols():
    block = HybridFn(lambda F, a, b: F.np.matmul(a, b))
    block.hybridize()
    with pytest.raises(mx.base.WeftError, match="batch_dot"):
        block(np.ones((2, 3)), np.ones((4, 5)))
    with pytest.raises(TypeError, match="matmul: b must be a Symbol"):
        mx.sym.np.matmul(mx.sym.var("a").as_np_ndarray(), 2.0)


@pytest.mark.parametrize("sc,sx,sy", [((2, 3), (2, 3), (2, 3)), ((2, 3), (2, 3), (3,)), ((3,), (2, 3), (2, 1)),
                                      ((1, 3), (2, 1), (2, 3))])
def test_where_broadcasts_like_numpy(sc, sx, sy):
    c, x, y = R.randn(*sc) > 0, R.randn(*sx).astype("float32"), R.randn(*sy).astype("float32")
    want = onp.where(c, x, y)
    fn = lambda F, c, x, y: F.np.where(c, x, y)  # noqa: E731
    (y0, g0), (y1, g1) = _both(fn, c, x, y)
    assert y1.shape == want.shape
    onp.testing.assert_array_equal(y1, want)
    onp.testing.assert_array_equal(y0, want)
    for i in (1, 2):  # gradients of x and y: 1 where taken, summed over broadcast axes
        onp.testing.assert_allclose(g1[i], g0[i], rtol=1e-6)


def test_where_with_scalars_and_non_bool_conditions():
    x = onp.array([[-1.0, 2.0, onp.inf], [onp.nan, -3.0, 0.5]], dtype="float32")
    block = HybridFn(lambda F, x: F.np.where(x > 0, x, 0.1 * x))  # leaky relu as d2l writes it
    block.hybridize()
    onp.testing.assert_array_equal(block(np.array(x)).asnumpy(), onp.where(x > 0, x, 0.1 * x))
    block = HybridFn(lambda F, c, x: F.np.where(c, 7, x))
    block.hybridize()
    c = onp.array([0.0, 1e-30, -2.0], dtype="float64")  # a tiny float is true
    got = block(np.array(c, dtype="float64"), np.array(onp.zeros(3, dtype="float32")))
    onp.testing.assert_array_equal(got.asnumpy(), onp.where(c, 7, onp.zeros(3, dtype="float32")))
    assert got.dtype == onp.float32


def test_where_bad_input_raises_naming_the_function():
    s = mx.sym.var("s").as_np_ndarray()
    with pytest.raises(TypeError, match="where: the one-argument form"):
        mx.sym.np.where(s)
    with pytest.raises(ValueError, match="where: either both or neither"):
        mx.sym.np.where(s, s)
    with pytest.raises(TypeError, match="where: at least one of x and y"):
        mx.sym.np.where(s, 1, 2)
    with pytest.raises(TypeError, match="where: x must be"):
        mx.sym.np.where(s, "a", s)


def test_written_operators_are_mxnets():
    ops = _ops(lambda F, a, b: F.np.matmul(a, b), 2) | _ops(lambda F, c, x: F.np.where(c > 0, x, 0.5), 2)
    assert ops <= MXNET_HAS, sorted(ops - MXNET_HAS)
