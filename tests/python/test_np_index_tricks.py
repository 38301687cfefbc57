"""weft.np.unravel_index / diag_indices_from (issue 37 point 3;
weft/numpy/index_tricks.py) against official NumPy: dtypes, N-d and
zero-size indices, Python ints, bad input."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
@pytest.mark.parametrize("idx_shape,shape", [((5,), (3, 4)), ((2, 3), (2, 3, 4)), ((4,), (7,)), ((0,), (2, 2)),
                                             ((), (6, 5))])
def test_unravel_index_matches_numpy(dtype, idx_shape, shape):
    rng = onp.random.default_rng(4)
    idx = rng.integers(0, int(onp.prod(shape)), size=idx_shape).astype(dtype)
    got = np.unravel_index(_np(idx), shape)
    want = onp.unravel_index(idx, shape)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert type(g) is np.ndarray and g.dtype == onp.int64 and g.shape == onp.shape(w)
        onp.testing.assert_array_equal(g.asnumpy(), w)


def test_unravel_index_python_int_and_bad_input():
    assert np.unravel_index(22, (7, 6)) == onp.unravel_index(22, (7, 6))
    assert np.unravel_index(5, 7) == onp.unravel_index(5, 7)
    idx = _np(onp.array([1, 2], onp.int32))
    with pytest.raises(TypeError, match="unravel_index: argument 'indices' must hold integers, got dtype float32"):
        np.unravel_index(_np(onp.array([1.0], onp.float32)), (3,))
    with pytest.raises(TypeError, match="unravel_index: argument 'indices' must be a weft.np.ndarray or an int"):
        np.unravel_index([1, 2], (3,))
    with pytest.raises(TypeError, match="unravel_index: argument 'shape' must be an int or a tuple of ints"):
        np.unravel_index(idx, (3.5, 2))
    with pytest.raises(ValueError, match="unravel_index: argument 'shape' has a negative dimension"):
        np.unravel_index(idx, (3, -2))
    with pytest.raises(ValueError, match="unravel_index: argument 'order' must be 'C' or 'F'"):
        np.unravel_index(idx, (3, 2), order='K')
    with pytest.raises(NotImplementedError, match="unravel_index: column-major order"):
        np.unravel_index(idx, (3, 2), order='F')


@pytest.mark.parametrize("shape", [(3, 3), (4, 4, 4), (0, 0), (1, 1)])
def test_diag_indices_from_matches_numpy(shape):
    a = onp.zeros(shape, onp.float32)
    got = np.diag_indices_from(_np(a))
    want = onp.diag_indices_from(a)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == onp.int64
        onp.testing.assert_array_equal(g.asnumpy(), w)


def test_diag_indices_from_bad_input():
    with pytest.raises(ValueError, match="diag_indices_from: input array must be at least 2-d, got 1-d"):
        np.diag_indices_from(_np(onp.zeros(3, onp.float32)))
    with pytest.raises(ValueError, match="diag_indices_from: all dimensions of input must be of equal length"):
        np.diag_indices_from(_np(onp.zeros((3, 4), onp.float32)))
    with pytest.raises(TypeError, match="diag_indices_from: argument 'arr' must be a weft.np.ndarray, got list"):
        np.diag_indices_from([[1, 2], [3, 4]])
