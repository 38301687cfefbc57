"""weft.np's type promotion (Note [MXNet's type promotion] in
weft/numpy/_promotion.py): array/array, array/scalar, true division and the
default float type switch."""
import numpy as onp
import pytest

import weft
from weft import np
from weft.numpy import _promotion

# (dtype a, dtype b) -> MXNet 1.9.1's result dtype for + - *
PAIRS = [
    ("float32", "float32", "float32"),
    ("float32", "float64", "float64"),
    ("float16", "float32", "float32"),
    ("int32", "float16", "float16"),   # NumPy says float64: MXNet keeps the float's type
    ("int64", "float32", "float32"),
    ("int32", "int64", "int64"),
    ("int8", "uint8", "int32"),        # NumPy says int16, which the engine lacks
    ("uint8", "int32", "int32"),
    ("bool", "int32", "int32"),
    ("bool", "float32", "float32"),
    ("bool", "bool", "bool"),
]


def arr(h):
    h = onp.asarray(h)
    return weft.nd.array(h, dtype=h.dtype).as_np_ndarray()


@pytest.mark.parametrize("da,db,want", PAIRS)
def test_array_array_promotion(da, db, want):
    ha = onp.array([1, 0, 1], dtype=da)
    hb = onp.array([1, 1, 0], dtype=db)
    for fn, ref in ((np.add, onp.add), (np.multiply, onp.multiply), (np.maximum, onp.maximum)):
        r = fn(arr(ha), arr(hb))
        assert r.dtype == onp.dtype(want), (fn.__name__, da, db, r.dtype)
        onp.testing.assert_array_equal(r.asnumpy(), ref(ha, hb).astype(want))
        r2 = fn(arr(hb), arr(ha))
        assert r2.dtype == onp.dtype(want)


def test_scalars_do_not_upcast_arrays():
    i32 = arr(onp.array([1, 2, 3], dtype="int32"))
    f16 = arr(onp.array([1, 2, 3], dtype="float16"))
    b = arr(onp.array([True, False]))
    assert (i32 * 2).dtype == onp.int32 and (2 * i32).dtype == onp.int32
    assert (f16 + 1.5).dtype == onp.float16
    assert (i32 * 1.5).dtype == onp.float32  # an int array with a float scalar: default float
    onp.testing.assert_allclose((i32 * 1.5).asnumpy(), [1.5, 3, 4.5])
    assert (b + 1).dtype == onp.int64
    assert (b * True).dtype == onp.bool_


def test_true_division_and_default_float_switch():
    i = arr(onp.array([1, 2, 3], dtype="int32"))
    assert (i / i).dtype == onp.float32 and np.true_divide(i, 2).dtype == onp.float32
    assert np.sqrt(i).dtype == onp.float32
    weft.npx.set_np(dtype=True)  # the user's switch (MXNet's npx.set_np(dtype=True))
    try:
        assert _promotion.default_float_dtype() == "float64"
        assert (i / i).dtype == onp.float64 and np.sqrt(i).dtype == onp.float64
        assert (i * 0.5).dtype == onp.float64
    finally:
        weft.npx.reset_np()
    assert (i / 2).dtype == onp.float32
    onp.testing.assert_allclose((i / 2).asnumpy(), [0.5, 1, 1.5])
    f = arr(onp.array([1, 2], dtype="float64"))
    assert (f / i[0:2]).dtype == onp.float64


def test_comparisons_are_bool_in_promoted_type():
    i = arr(onp.array([1, 2, 3], dtype="int32"))
    f = arr(onp.array([1.5, 2.0, 2.5], dtype="float32"))
    r = i > f  # compared as float32: 2 > 2.0 is False
    assert r.dtype == onp.bool_
    onp.testing.assert_array_equal(r.asnumpy(), [False, False, True])
    onp.testing.assert_array_equal((i == 2).asnumpy(), [False, True, False])
    onp.testing.assert_array_equal((2.5 < i).asnumpy(), [False, False, True])


def test_bool_subtract_is_a_type_error():
    b = arr(onp.array([True, False]))
    with pytest.raises(TypeError, match="subtract"):
        np.subtract(b, b)
    with pytest.raises(TypeError, match="subtract"):
        b - True


def test_unsupported_dtype_names():
    with pytest.raises(TypeError, match="complex64"):
        _promotion.dtype_name("complex64")
    assert _promotion.dtype_name(onp.int16) == "int32"
