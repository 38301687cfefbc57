"""weft.np.bincount (issue 37 point 3; op _npi_bincount in
core/op/reduce/bincount.cc, an output sized after its input is ready) against
official NumPy: dtypes, weights, minlength, empty input, bad and hostile
input."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "bool"])
@pytest.mark.parametrize("n,hi,minlength", [(50, 7, 0), (5, 3, 10), (0, 1, 0), (0, 1, 4), (1, 100, 0)])
def test_bincount_matches_numpy(dtype, n, hi, minlength):
    rng = onp.random.default_rng(5)
    x = rng.integers(0, hi, size=n).astype(dtype)
    got = np.bincount(_np(x), minlength=minlength)
    want = onp.bincount(x, minlength=minlength)
    assert type(got) is np.ndarray and got.dtype == onp.int64 and got.shape == want.shape
    onp.testing.assert_array_equal(got.asnumpy(), want)


@pytest.mark.parametrize("wdtype", ["float32", "float64", "int32"])
def test_bincount_weights_in_their_dtype_as_mxnet(wdtype):
    rng = onp.random.default_rng(6)
    x = rng.integers(0, 6, size=40).astype(onp.int64)
    w = rng.uniform(-2, 2, size=40).astype(wdtype) if wdtype != "int32" else rng.integers(-5, 5, 40).astype(wdtype)
    got = np.bincount(_np(x), weights=_np(w), minlength=9)
    want = onp.bincount(x, weights=w, minlength=9)  # float64 in NumPy; MXNet keeps the weights' dtype
    assert got.dtype == onp.dtype(wdtype)
    onp.testing.assert_allclose(got.asnumpy(), want.astype(wdtype), rtol=1e-6, atol=1e-6)


def test_bincount_bad_input():
    x = _np(onp.array([0, 2, 1], onp.int64))
    with pytest.raises(ValueError, match=r"_npi_bincount: input 'data' must have no negative elements, got -1"):
        np.bincount(_np(onp.array([1, -1], onp.int32)))
    with pytest.raises(TypeError, match=r"_npi_bincount: input 'data' must hold integers, got float32"):
        np.bincount(_np(onp.array([1.0, 2.0], onp.float32)))
    with pytest.raises(ValueError, match=r"_npi_bincount: input 'data' must be 1-D"):
        np.bincount(_np(onp.zeros((2, 2), onp.int64)))
    with pytest.raises(ValueError, match=r"_npi_bincount: input 'weights' has shape \(2,\) but 'data' has \(3,\)"):
        np.bincount(x, weights=_np(onp.ones(2, onp.float32)))
    with pytest.raises(ValueError, match="bincount: argument 'minlength' must not be negative"):
        np.bincount(x, minlength=-1)
    with pytest.raises(TypeError, match="bincount: argument 'minlength' must be an integer, got float"):
        np.bincount(x, minlength=2.5)
    with pytest.raises(TypeError, match="bincount: argument 'x' must be a weft.np.ndarray, got list"):
        np.bincount([1, 2])
    with pytest.raises(TypeError, match="bincount: argument 'weights' must be a weft.np.ndarray, got list"):
        np.bincount(x, weights=[1.0, 2.0, 3.0])


def test_bincount_hostile_sizes_are_refused_not_allocated():
    # one huge value would ask for 2**40 bins (8 TiB): refused by the shape rule (Note [Bincount bins])
    too_many = r"_npi_bincount: the output would need more than 2147483648 bins"
    with pytest.raises(ValueError, match=too_many + r" \(max\(data\) = 1099511627776"):
        np.bincount(_np(onp.array([0, 2 ** 40], onp.int64)))
    with pytest.raises(ValueError, match=r"max\(data\) = 9223372036854775807"):
        np.bincount(_np(onp.array([2 ** 63 - 1], onp.int64)))
    with pytest.raises(ValueError, match=too_many + r".*minlength = 4611686018427387904"):
        np.bincount(_np(onp.array([1], onp.int64)), minlength=2 ** 62)
