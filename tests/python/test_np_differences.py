"""weft.np.diff / ediff1d (issue 37 point 3; op _npi_diff in
core/op/reduce/diff.cc) against official NumPy: dtypes, orders, negative axes,
0-d and zero-size inputs, bad input, and the gradient against finite
differences."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int8", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("shape,axis,n", [((7,), -1, 1), ((3, 6), 0, 2), ((2, 5, 4), -2, 3), ((4, 3), 1, 0),
                                          ((2, 3), -1, 3), ((2, 3), 1, 9), ((0, 3), 0, 1), ((3, 0), -1, 2)])
def test_diff_matches_numpy(dtype, shape, axis, n):
    rng = onp.random.default_rng(0)
    x = rng.integers(-50, 50, size=shape).astype(dtype) if dtype != "bool" else rng.random(shape) < 0.5
    if dtype.startswith("float"):
        x = rng.uniform(-3, 3, size=shape).astype(dtype)
    got = np.diff(_np(x), n=n, axis=axis)
    want = onp.diff(x, n=n, axis=axis)
    assert type(got) is np.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    onp.testing.assert_array_equal(got.asnumpy(), want)  # bit-exact: the same repeated differences


def test_diff_integer_wraps_as_numpy():
    x = onp.array([-128, 127, -128, 0], onp.int8)
    onp.testing.assert_array_equal(np.diff(_np(x), n=2).asnumpy(), onp.diff(x, n=2))


def test_diff_n0_returns_input():
    x = _np([1.0, 2.0])
    assert np.diff(x, n=0) is x


def test_diff_bad_input():
    x = _np([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match=r"_npi_diff: input 'a' must be at least one dimensional"):
        np.diff(_np(onp.float32(3.0)))
    with pytest.raises(ValueError, match=r"_npi_diff: order 'n' must be non-negative"):
        np.diff(x, n=-1)
    with pytest.raises(ValueError, match=r"_npi_diff.*axis"):
        np.diff(x, axis=2)
    with pytest.raises(ValueError, match=r"_npi_diff.*axis"):
        np.diff(x, axis=-3)
    with pytest.raises(TypeError, match=r"diff: argument 'n' must be an integer, got float"):
        np.diff(x, n=1.5)
    with pytest.raises(TypeError, match=r"diff: argument 'axis' must be an integer, got str"):
        np.diff(x, axis="0")
    with pytest.raises(TypeError, match=r"diff: argument 'a' must be a weft.np.ndarray, got list"):
        np.diff([1, 2, 3])
    with pytest.raises(NotImplementedError, match="diff: 'prepend' and 'append'"):
        np.diff(x, prepend=0)


def test_diff_huge_order_is_cheap():
    # n far past the axis gives an empty result without looping n times
    x = _np(onp.arange(6, dtype=onp.float32).reshape(2, 3))
    got = np.diff(x, n=2 ** 62, axis=1)
    assert got.shape == (2, 0)


def _numeric_grad(f, x, eps=1e-6):
    g = onp.zeros_like(x)
    for i in onp.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


@pytest.mark.parametrize("shape,axis,n", [((6,), -1, 1), ((3, 5), 0, 2), ((2, 6, 3), 1, 4), ((2, 3), 1, 3)])
def test_diff_gradient_matches_finite_differences(shape, axis, n):
    rng = onp.random.default_rng(1)
    x0 = rng.uniform(-1, 1, size=shape)
    w = rng.uniform(-1, 1, size=onp.diff(x0, n=n, axis=axis).shape)
    x = _np(x0)
    x.attach_grad()
    with weft.autograd.record():
        y = np.diff(x, n=n, axis=axis)
    y.backward(_np(w))
    num = _numeric_grad(lambda v: float((onp.diff(v, n=n, axis=axis) * w).sum()), x0)
    onp.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("ary,to_end,to_begin", [
    ([1, 2, 4, 7, 0], None, None),
    ([[1, 2, 4], [1, 6, 24]], None, None),
    ([1, 2, 4, 7, 0], 88, -99),
    ([1, 2, 4, 7, 0], [88, 99], onp.array([-1, -2])),
    ([5.0], None, None),
    ([5.0], [1.0], None),
    ([], [1.0, 2.0], 3.0),
    ([], None, None),
])
def test_ediff1d_matches_numpy(ary, to_end, to_begin):
    a = onp.asarray(ary, onp.float32)
    got = np.ediff1d(_np(a), to_end=to_end, to_begin=to_begin)
    want = onp.ediff1d(a, to_end=to_end, to_begin=to_begin)
    assert got.dtype == want.dtype and got.shape == want.shape
    onp.testing.assert_array_equal(got.asnumpy(), want)


def test_ediff1d_array_edges_and_int_dtype():
    a = onp.array([[3, 1], [4, 1]], onp.int32)
    got = np.ediff1d(_np(a), to_end=_np(onp.array([[7.0, 8.0]], onp.float32)), to_begin=_np(onp.array([0], onp.int64)))
    want = onp.ediff1d(a, to_end=onp.array([7, 8], onp.int32), to_begin=onp.array([0], onp.int32))
    assert got.dtype == onp.int32
    onp.testing.assert_array_equal(got.asnumpy(), want)


def test_ediff1d_bad_input_and_gradient():
    with pytest.raises(TypeError, match="ediff1d: argument 'ary' must be a weft.np.ndarray"):
        np.ediff1d([1, 2])
    with pytest.raises(TypeError, match="ediff1d: argument 'to_end' must hold numbers"):
        np.ediff1d(_np([1.0, 2.0]), to_end="x")
    x0 = onp.array([1.0, 3.0, 6.0, 10.0])
    x = _np(x0)
    x.attach_grad()
    w = onp.array([0.5, -1.0, 2.0, 3.0])
    with weft.autograd.record():
        y = np.ediff1d(x, to_begin=[9.0], to_end=None)
    y.backward(_np(w))
    # d/dx of sum(w[1:] * diff(x)) = the adjoint of diff applied to w[1:]
    onp.testing.assert_allclose(x.grad.asnumpy(), [1.0, -3.0, -1.0, 3.0])
