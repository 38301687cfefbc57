"""Note [Operator fast path] (weft/numpy/_operators.py): ``+ - * /`` on float arrays of
one dtype and shape, and with Python scalars, give what weft.np's general functions give
(values, dtype, shape; the shape and dtype caches the fast path fills agree with the
engine's), in-place forms included, and ``w -= lr * g`` runs as the fused update."""
import operator

import numpy as onp
import pytest

import weft
from weft import np
from weft.base import h_dtype
from weft.ndarray import axpy

OPS = [(operator.add, np.add), (operator.sub, np.subtract), (operator.mul, np.multiply),
       (operator.truediv, np.true_divide)]
IOPS = [(operator.iadd, np.add), (operator.isub, np.subtract), (operator.imul, np.multiply),
        (operator.itruediv, np.true_divide)]


def _engine_view(x):
    """(shape, dtype flag) read from the engine, not from x's caches."""
    return x.as_nd_ndarray().shape, h_dtype(x.handle)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("op,fn", OPS, ids=["add", "sub", "mul", "div"])
def test_same_shape_arrays_match_the_general_function(dtype, op, fn):
    rng = onp.random.default_rng(0)
    a = np.array(rng.uniform(1, 2, (3, 4)).astype(dtype), dtype=dtype)
    b = np.array(rng.uniform(1, 2, (3, 4)).astype(dtype), dtype=dtype)
    got, want = op(a, b), fn(a, b)
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape
    assert _engine_view(got) == (got.shape, got._dtype_flag)  # pylint: disable=protected-access
    onp.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


@pytest.mark.parametrize("sa,sb", [((2, 3), (3,)), ((3,), (2, 3)), ((4, 1), (1, 5)), ((2, 1, 3), (4, 1))])
@pytest.mark.parametrize("op,fn", OPS, ids=["add", "sub", "mul", "div"])
def test_broadcasting_arrays_match_the_general_function(sa, sb, op, fn):
    rng = onp.random.default_rng(1)
    a = np.array(rng.uniform(1, 2, sa), dtype="float32")
    b = np.array(rng.uniform(1, 2, sb), dtype="float32")
    got, want = op(a, b), fn(a, b)
    assert got.shape == want.shape == onp.broadcast_shapes(sa, sb) and got.dtype == want.dtype
    assert _engine_view(got) == (got.shape, got._dtype_flag)  # pylint: disable=protected-access
    onp.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


@pytest.mark.parametrize("op,name", [(operator.add, "add"), (operator.sub, "subtract"),
                                     (operator.mul, "multiply"), (operator.truediv, "true_divide")])
def test_broadcast_errors_name_the_function_and_both_shapes_in_order(op, name):
    a, b = np.ones((2, 3), dtype="float32"), np.ones((4,), dtype="float32")
    with pytest.raises(ValueError, match=r"%s: operands could not be broadcast together with shapes \(2, 3\) \(4,\)"
                       % name):
        op(a, b)
    with pytest.raises(ValueError, match=r"%s: .* shapes \(4,\) \(2, 3\)" % name):
        op(b, a)


@pytest.mark.parametrize("scalar", [3, 2.5, -1])
@pytest.mark.parametrize("op,fn", OPS, ids=["add", "sub", "mul", "div"])
def test_scalars_both_sides_match_the_general_function(scalar, op, fn):
    a = np.array(onp.arange(1.0, 7.0).reshape(2, 3), dtype="float32")
    for got, want in ((op(a, scalar), fn(a, scalar)), (op(scalar, a), fn(scalar, a))):
        assert got.dtype == want.dtype == onp.float32 and got.shape == want.shape
        assert _engine_view(got) == (got.shape, got._dtype_flag)  # pylint: disable=protected-access
        onp.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)


@pytest.mark.parametrize("op,fn", IOPS, ids=["iadd", "isub", "imul", "idiv"])
def test_inplace_matches_the_general_function(op, fn):
    a = np.array(onp.arange(1.0, 7.0).reshape(2, 3), dtype="float64")
    b = np.array(onp.full((2, 3), 4.0), dtype="float64")
    want = fn(a, b).asnumpy()
    same = a
    a = op(a, b)
    assert a is same
    onp.testing.assert_array_equal(a.asnumpy(), want)
    a = op(a, 2)
    onp.testing.assert_array_equal(a.asnumpy(), fn(np.array(want, dtype="float64"), 2).asnumpy())


def test_the_general_path_still_promotes_and_broadcasts():
    f32 = np.ones((2, 3), dtype="float32")
    assert (f32 + np.ones((2, 3), dtype="float64")).dtype == onp.float64
    assert (f32 * np.ones((3,), dtype="float32")).shape == (2, 3)
    assert (np.ones((2, 3), dtype="int32") / 2).dtype == onp.float32
    assert (f32 + np.ones((), dtype="float32")).shape == (2, 3)
    assert (np.ones((0, 3), dtype="float32") * 2).shape == (0, 3)
    assert (f32 * onp.float64(2)).dtype == onp.float32
    with pytest.raises(ValueError, match="could not be broadcast"):
        f32 + np.ones((4,), dtype="float32")  # pylint: disable=expression-not-assigned


@pytest.mark.skipif(not axpy.ENABLED, reason="this interpreter's reference counts do not tell a temporary "
                    "operand from a named one, so the legacy path turns fusion off too")
def test_sgd_update_is_fused():
    # The core fuses only a multiply still pending: test_axpy_fusion's gate holds g unwritten.
    from test_axpy_fusion import _Hold  # pylint: disable=import-outside-toplevel  (a sibling test module)
    w0 = onp.ones(8, dtype=onp.float32)
    g0 = onp.arange(8.0, dtype=onp.float32)
    w = np.array(w0, dtype="float32")
    before = axpy.fused_count()
    with _Hold(g0) as held:
        g = held.as_np_ndarray()
        w -= 0.5 * g
    assert axpy.fused_count() == before + 1
    onp.testing.assert_array_equal(w.asnumpy(), w0 - onp.float32(0.5) * g0)


@pytest.mark.skipif(not axpy.ENABLED, reason="this interpreter's reference counts do not tell a temporary "
                    "operand from a named one, so the legacy path turns fusion off too")
def test_fusion_is_tried_first_but_never_fuses_what_it_must_not():
    # The np in-place dunder asks the core to fuse before anything else; the core declines under
    # autograd recording, for a non-float32 w and for a w of another shape, and the general rules apply.
    from test_axpy_fusion import _Hold  # pylint: disable=import-outside-toplevel  (a sibling test module)
    g0 = onp.arange(8.0, dtype=onp.float32)
    cases = []
    before = axpy.fused_count()
    with _Hold(g0) as held:
        g = held.as_np_ndarray()
        w = np.array(onp.ones(8, onp.float32), dtype="float32")
        w.attach_grad()
        with weft.autograd.record():
            w -= 0.5 * g  # recorded: the old value is copied (Note [In-place operators under autograd])
        cases.append((w, onp.ones(8, onp.float32) - onp.float32(0.5) * g0, onp.float32))
        w64 = np.array(onp.ones(8), dtype="float64")
        w64 -= 0.5 * g  # float64 -= float32: NumPy's in-place rule keeps float64
        cases.append((w64, onp.ones(8) - (onp.float32(0.5) * g0).astype(onp.float64), onp.float64))
        w2 = np.array(onp.ones((3, 8), onp.float32), dtype="float32")
        w2 -= 0.5 * g  # broadcast in place
        cases.append((w2, onp.ones((3, 8), onp.float32) - onp.float32(0.5) * g0, onp.float32))
    assert axpy.fused_count() == before
    for got, want, dtype in cases:
        assert got.dtype == dtype and got.shape == want.shape
        onp.testing.assert_array_equal(got.asnumpy(), want)
