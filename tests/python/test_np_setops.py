"""weft.np.unique (issue 37 point 3; op _npi_unique in core/op/sort/unique.cc,
outputs sized after the input is ready) against official NumPy: dtypes, every
optional output, axes, NaN, 0-d and zero-size inputs, bad input."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


def _check(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert type(g) is np.ndarray
        w = w if i == 0 else w.reshape(-1)  # the inverse is 1-D, as in MXNet and NumPy 1.x
        assert g.shape == w.shape and (g.dtype == w.dtype if i == 0 else g.dtype == onp.int64)
        onp.testing.assert_array_equal(g.asnumpy(), w)


FLAGS = [(False, False, False), (True, False, False), (False, True, False), (False, False, True), (True, True, True)]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int8", "uint8", "int32", "int64", "bool"])
@pytest.mark.parametrize("flags", FLAGS)
def test_unique_flat_matches_numpy(dtype, flags):
    rng = onp.random.default_rng(9)
    x = rng.integers(0, 5, size=(4, 6)).astype(dtype)
    _check(np.unique(_np(x), *flags), onp.unique(x, *flags))


@pytest.mark.parametrize("shape,axis", [((6, 3), 0), ((3, 6), 1), ((2, 5, 2), 1), ((4, 3), -2), ((2, 3, 4), -1)])
@pytest.mark.parametrize("flags", FLAGS)
def test_unique_along_axis_matches_numpy(shape, axis, flags):
    rng = onp.random.default_rng(10)
    x = rng.integers(0, 2, size=shape).astype(onp.int32)
    _check(np.unique(_np(x), *flags, axis=axis), onp.unique(x, *flags, axis=axis))


def test_unique_nan_zero_size_0d_and_big_int64():
    x = onp.array([onp.nan, 2.0, onp.nan, 1.0, onp.inf, -onp.inf, 2.0], onp.float64)
    _check(np.unique(_np(x), return_counts=True), onp.unique(x, return_counts=True))
    _check(np.unique(_np(onp.zeros((0, 3), onp.float32)), True, True, True),
           onp.unique(onp.zeros((0, 3), onp.float32), True, True, True))
    _check(np.unique(_np(onp.float32(3.0)), return_inverse=True), onp.unique(onp.float32(3.0), return_inverse=True))
    big = onp.array([2 ** 62 + 1, 2 ** 62, 2 ** 62 + 1], onp.int64)  # distinct only beyond float64's 53 bits
    _check(np.unique(_np(big), return_index=True), onp.unique(big, return_index=True))


def test_unique_bad_input():
    x = _np(onp.ones((2, 3), onp.float32))
    with pytest.raises(ValueError, match=r"_npi_unique.*axis"):
        np.unique(x, axis=2)
    with pytest.raises(ValueError, match=r"_npi_unique: 'axis' is given but input 'data' is 0-d"):
        np.unique(_np(onp.float32(1.0)), axis=0)
    with pytest.raises(TypeError, match="unique: argument 'axis' must be an integer or None, got float"):
        np.unique(x, axis=0.5)
    with pytest.raises(TypeError, match="unique: argument 'ar' must be a weft.np.ndarray, got list"):
        np.unique([1, 2, 2])
