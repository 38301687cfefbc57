"""weft.np.polyval (issue 37 point 3; op _npi_polyval in
core/op/elemwise/polyval.cc) against official NumPy: dtypes, 0-d and
zero-size inputs, NumPy's evaluation order, bad input, and the gradients of
both arguments against finite differences."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int8", "int32", "int64", "uint8"])
@pytest.mark.parametrize("pn,xshape", [(1, (4,)), (4, (3, 5)), (6, (2, 2, 3)), (3, ()), (0, (3,)), (3, (0, 4))])
def test_polyval_matches_numpy(dtype, pn, xshape):
    rng = onp.random.default_rng(2)
    if dtype.startswith("float"):
        p, x = rng.uniform(-2, 2, size=pn).astype(dtype), rng.uniform(-2, 2, size=xshape).astype(dtype)
    else:
        p, x = rng.integers(0, 9, size=pn).astype(dtype), rng.integers(0, 9, size=xshape).astype(dtype)
    got = np.polyval(_np(p), _np(x))
    want = onp.asarray(onp.polyval(p, x)).astype(dtype)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_array_equal(got.asnumpy(), want)  # the same Horner steps, each rounded to the dtype


def test_polyval_evaluates_from_zero_as_numpy():
    # Horner from 0: 0 * inf is nan, so p(inf) is nan even for a constant polynomial, as in NumPy
    x = onp.array([onp.inf, -onp.inf, 2.0], onp.float32)
    for p in ([3.0], [1.0, 0.0, 1.0]):
        p = onp.array(p, onp.float32)
        with onp.errstate(invalid="ignore"):  # NumPy warns for its own 0 * inf
            want = onp.polyval(p, x)
        onp.testing.assert_array_equal(np.polyval(_np(p), _np(x)).asnumpy(), want)


def test_polyval_mixed_dtypes_promote_as_numpy():
    p, x = onp.array([1, 2, 3], onp.int32), onp.array([0.5, 1.5], onp.float64)
    got = np.polyval(_np(p), _np(x))
    assert got.dtype == onp.float64
    onp.testing.assert_allclose(got.asnumpy(), onp.polyval(p, x))


def test_polyval_numbers_and_bad_input():
    with pytest.raises(TypeError, match=r"polyval: arguments 'p' and 'x' must both be weft.np.ndarray"):
        np.polyval(3, 2)  # MXNet passes numbers to NumPy, which raises TypeError for a 0-d p
    p = _np([1.0, 2.0])
    with pytest.raises(TypeError, match=r"polyval: arguments 'p' and 'x' must both be weft.np.ndarray.*list"):
        np.polyval(p, [1.0, 2.0])
    with pytest.raises(TypeError, match=r"polyval: arguments 'p' and 'x'"):
        np.polyval(2.0, p)
    with pytest.raises(ValueError, match=r"_npi_polyval: input 'p' \(the coefficients\) must be 1-D"):
        np.polyval(_np([[1.0, 2.0]]), p)
    with pytest.raises(TypeError, match=r"_npi_polyval: bool inputs are not supported"):
        np.polyval(_np([True, False]), _np([True]))


def _numeric_grad(f, x, eps=1e-6):
    g = onp.zeros_like(x)
    for i in onp.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


@pytest.mark.parametrize("pn,xshape", [(4, (3, 2)), (1, (5,)), (6, ())])
def test_polyval_gradients_match_finite_differences(pn, xshape):
    rng = onp.random.default_rng(3)
    p0, x0 = rng.uniform(-1, 1, size=pn), rng.uniform(-1.5, 1.5, size=xshape)
    w = rng.uniform(-1, 1, size=xshape)
    p, x = _np(p0), _np(x0)
    p.attach_grad()
    x.attach_grad()
    with weft.autograd.record():
        y = np.polyval(p, x)
    y.backward(_np(w))
    num_p = _numeric_grad(lambda v: float((onp.polyval(v, x0) * w).sum()), p0)
    num_x = _numeric_grad(lambda v: float((onp.polyval(p0, v) * w).sum()), x0)
    onp.testing.assert_allclose(p.grad.asnumpy(), num_p, rtol=1e-6, atol=1e-8)
    onp.testing.assert_allclose(x.grad.asnumpy(), num_x, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("left,right,period", [(None, None, None), (-1.0, 7.0, None), (None, None, 3.0),
                                               (None, None, -2.5), (2.0, 3.0, 4.0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_interp_matches_numpy(left, right, period, dtype):
    rng = onp.random.default_rng(11)
    xp = onp.sort(rng.uniform(-3, 3, size=7)).astype(dtype) if dtype != "int32" else onp.arange(0, 14, 2, dtype)
    fp = rng.uniform(-1, 1, size=7).astype(dtype)
    x = rng.uniform(-5, 15, size=(3, 5)).astype(dtype)
    x.flat[0] = xp[0]  # on a sample point exactly
    x.flat[1] = xp[-1]
    got = np.interp(_np(x), _np(xp), _np(fp), left=left, right=right, period=period)
    want = onp.interp(x, xp, fp, left=left, right=right, period=period)
    assert type(got) is np.ndarray and got.dtype == onp.float64 and got.shape == want.shape
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=1e-14, atol=1e-14)


def test_interp_scalars_edges_and_bad_input():
    xp, fp = _np(onp.array([1.0, 2.0, 3.0])), _np(onp.array([3.0, 2.0, 0.0]))
    got = np.interp(2.5, xp, fp)  # a number: MXNet's x_is_scalar form, a 0-d result
    assert got.shape == () and got.dtype == onp.float64 and float(got.asnumpy()) == 1.0
    assert float(np.interp(onp.float32(0.5), xp, fp, left=-1.0).asnumpy()) == -1.0
    onp.testing.assert_array_equal(np.interp([0.0, 4.0], xp, fp).asnumpy(), [3.0, 0.0])
    nan = np.interp(_np(onp.array([onp.nan])), xp, fp)
    assert onp.isnan(nan.asnumpy()).all()
    with pytest.raises(ValueError, match="interp: argument 'period' must be a non-zero value"):
        np.interp(1.0, xp, fp, period=0)
    with pytest.raises(ValueError, match=r"_npi_interp: input 'xp' \(the sample points\) must not be empty"):
        np.interp(1.0, _np(onp.zeros(0)), _np(onp.zeros(0)))
    with pytest.raises(ValueError, match=r"_npi_interp: inputs 'fp' and 'xp' must have the same shape"):
        np.interp(1.0, xp, _np(onp.array([1.0, 2.0])))
    with pytest.raises(ValueError, match=r"_npi_interp: input 'xp' must be 1-D"):
        np.interp(1.0, _np(onp.ones((2, 2))), _np(onp.ones((2, 2))))
    with pytest.raises(TypeError, match="interp: argument 'xp' must be a weft.np.ndarray, got list"):
        np.interp(1.0, [1.0, 2.0], fp)
    with pytest.raises(TypeError, match="interp: argument 'left' must be a real number or None, got str"):
        np.interp(1.0, xp, fp, left="a")
