"""weft.np.tensordot (issue 37 point 3; weft/numpy/contraction.py, Note
[Tensordot as one GEMM]) against official NumPy: int and pair axes, negative
axes, 0-d and zero-size operands, mixed dtypes, bad input, and the gradient
of both operands against finite differences."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


CASES = [
    ((3, 4, 5), (4, 5, 2), 2),
    ((3, 4), (4, 2), 1),
    ((2, 3), (4, 5), 0),
    ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])),
    ((3, 4, 5), (2, 4), ([-2], [-1])),
    ((2, 3), (3, 2), ([0, 1], [1, 0])),
    ((), (3, 2), 0),
    ((4,), (4,), 1),
    ((0, 3), (3, 2), 1),
    ((2, 0), (0, 3), 1),
    ((2, 3), (3, 0), 1),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("sa,sb,axes", CASES)
def test_tensordot_matches_numpy(dtype, sa, sb, axes):
    rng = onp.random.default_rng(7)
    a = rng.uniform(-1, 1, size=sa).astype(dtype)
    b = rng.uniform(-1, 1, size=sb).astype(dtype)
    got = np.tensordot(_np(a), _np(b), axes=axes)
    want = onp.tensordot(a, b, axes=axes)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-5 if dtype == "float32" else 1e-12
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


def test_tensordot_mixed_dtypes_promote():
    a, b = onp.arange(6, dtype=onp.int32).reshape(2, 3), onp.ones((3, 2), onp.float64)
    got = np.tensordot(_np(a), _np(b), axes=1)
    assert got.dtype == onp.float64
    onp.testing.assert_allclose(got.asnumpy(), onp.tensordot(a, b, axes=1))


def test_tensordot_bad_input():
    a, b = _np(onp.ones((2, 3), onp.float32)), _np(onp.ones((3, 4), onp.float32))
    with pytest.raises(ValueError, match=r"tensordot: shape-mismatch for sum: axis 0 of 'a' has length 2"):
        np.tensordot(a, b, axes=([0], [0]))
    with pytest.raises(ValueError, match=r"tensordot: shape-mismatch for sum: 'axes' pairs 2 axes of 'a' with 1"):
        np.tensordot(a, b, axes=([0, 1], [0]))
    with pytest.raises(ValueError, match=r"tensordot: axis 2 is out of bounds for 'a' of dimension 2"):
        np.tensordot(a, b, axes=([2], [0]))
    with pytest.raises(ValueError, match=r"tensordot: argument 'axes' = 3 exceeds"):
        np.tensordot(a, b, axes=3)
    with pytest.raises(ValueError, match=r"tensordot: argument 'axes' must be non-negative"):
        np.tensordot(a, b, axes=-1)
    with pytest.raises(ValueError, match=r"tensordot: repeated axis"):
        np.tensordot(a, _np(onp.ones((3, 3), onp.float32)), axes=([1, 1], [0, 1]))
    with pytest.raises(TypeError, match=r"tensordot: argument 'axes' must be an int or a pair"):
        np.tensordot(a, b, axes="x")
    with pytest.raises(TypeError, match=r"tensordot: argument 'axes' must hold integers"):
        np.tensordot(a, b, axes=([1.5], [0]))
    with pytest.raises(TypeError, match=r"tensordot: argument 'b' must be a weft.np.ndarray, got list"):
        np.tensordot(a, [[1.0]], axes=1)


def _numeric_grad(f, x, eps=1e-6):
    g = onp.zeros_like(x)
    for i in onp.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


@pytest.mark.parametrize("sa,sb,axes", [((3, 4, 2), (2, 4, 3), ([1, 2], [1, 0])), ((2, 3), (3,), 1),
                                        ((2,), (3,), 0)])
def test_tensordot_gradients_match_finite_differences(sa, sb, axes):
    rng = onp.random.default_rng(8)
    a0, b0 = rng.uniform(-1, 1, size=sa), rng.uniform(-1, 1, size=sb)
    w = rng.uniform(-1, 1, size=onp.tensordot(a0, b0, axes=axes).shape)
    a, b = _np(a0), _np(b0)
    a.attach_grad()
    b.attach_grad()
    with weft.autograd.record():
        y = np.tensordot(a, b, axes=axes)
    y.backward(_np(w))
    ga = _numeric_grad(lambda v: float((onp.tensordot(v, b0, axes=axes) * w).sum()), a0)
    gb = _numeric_grad(lambda v: float((onp.tensordot(a0, v, axes=axes) * w).sum()), b0)
    onp.testing.assert_allclose(a.grad.asnumpy(), ga, rtol=1e-6, atol=1e-8)
    onp.testing.assert_allclose(b.grad.asnumpy(), gb, rtol=1e-6, atol=1e-8)
