"""weft.np.tril against NumPy: dtypes, k, stacks of matrices, 1-d and zero-size
input, inf/NaN above the diagonal, the gradient, and the errors."""
import numpy as onp
import pytest

from weft import autograd, np


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("k", [0, 1, -1, 2, -3, 10, -10])
def test_tril_matches_numpy(dtype, k):
    h = (onp.arange(1, 13).reshape(4, 3) % 5).astype(dtype)
    got = np.tril(np.array(h, dtype=dtype), k)
    assert isinstance(got, np.ndarray) and got.dtype == onp.dtype(dtype)
    onp.testing.assert_array_equal(got.asnumpy(), onp.tril(h, k))


@pytest.mark.parametrize("shape", [(3,), (1,), (0,), (2, 3, 4), (2, 1, 3, 3), (0, 3), (3, 0), (2, 0, 3)])
@pytest.mark.parametrize("k", [0, -1, 2])
def test_tril_shapes_match_numpy(shape, k):
    h = onp.random.default_rng(1).standard_normal(shape).astype(onp.float32)
    got = np.tril(np.array(h), k=k)
    assert got.shape == onp.tril(h, k).shape
    onp.testing.assert_array_equal(got.asnumpy(), onp.tril(h, k))


def test_tril_zeroes_inf_and_nan_above_the_diagonal():
    h = onp.array([[1.0, onp.inf], [onp.nan, 2.0]], dtype=onp.float32)
    onp.testing.assert_array_equal(np.tril(np.array(h)).asnumpy(), onp.tril(h))


def test_tril_numpy_integer_k():
    h = onp.ones((3, 3), dtype=onp.float32)
    onp.testing.assert_array_equal(np.tril(np.array(h), onp.int64(-1)).asnumpy(), onp.tril(h, -1))


@pytest.mark.parametrize("shape,k", [((3, 4), 0), ((4, 3), 1), ((2, 3, 3), -1), ((4,), 0)])
def test_tril_gradient_against_finite_differences(shape, k):
    rng = onp.random.default_rng(0)
    x0 = rng.standard_normal(shape)
    w = rng.standard_normal(onp.tril(x0, k).shape)

    def f(h):
        return float((onp.tril(h, k) ** 2 * w).sum())
    x = np.array(x0, dtype="float64")
    x.attach_grad()
    with autograd.record():
        y = (np.tril(x, k) ** 2 * np.array(w, dtype="float64")).sum()
    y.backward()
    num = onp.zeros_like(x0)
    for i in onp.ndindex(*shape):
        xp, xm = x0.copy(), x0.copy()
        xp[i] += 1e-4
        xm[i] -= 1e-4
        num[i] = (f(xp) - f(xm)) / 2e-4
    onp.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-5, atol=1e-6)


def test_tril_errors_name_the_function_and_argument():
    with pytest.raises(ValueError, match="tril: argument m must be at least 1-d"):
        np.tril(np.array(3.0))
    with pytest.raises(TypeError, match="tril: argument k must be an integer"):
        np.tril(np.ones((2, 2)), k=1.5)
    with pytest.raises(TypeError, match="tril: argument m"):
        np.tril([[1.0, 2.0], [3.0, 4.0]])
