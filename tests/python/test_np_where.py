"""weft.np.where against official NumPy (issue 37): the one-argument form
(``nonzero(condition)``, as MXNet 1.9.1 and NumPy), Python scalars for x and
y, broadcasting of all three operands, bad input, and gradients through
where(c, x, y) to x and y (summed over broadcast axes)."""
import numpy as onp
import pytest

import weft
from weft import np

R = onp.random.RandomState(11)


def arr(h, dtype=None):
    h = onp.asarray(h, dtype=dtype)
    return weft.nd.array(h, dtype=h.dtype).as_np_ndarray()


def close(r, e, rtol=1e-6, atol=1e-7):
    assert isinstance(r, np.ndarray), type(r)
    assert r.shape == onp.shape(e), (r.shape, onp.shape(e))
    onp.testing.assert_allclose(r.asnumpy(), e, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 2), (0,), (2, 0, 3)])
def test_one_argument_is_nonzero(dtype, shape):
    h = (R.randint(0, 3, size=shape) * (R.rand(*shape) < 0.6)).astype(dtype)
    got = np.where(arr(h))
    want = onp.where(h)
    assert isinstance(got, tuple) and len(got) == len(want) == len(shape)
    for g, w in zip(got, want):
        assert type(g) is np.ndarray and g.dtype == onp.int64
        onp.testing.assert_array_equal(g.asnumpy(), w)


def test_one_argument_indexes_back():
    h = R.uniform(-1, 1, size=(4, 5)).astype("float32")
    x = arr(h)
    idx = np.where(x > 0)
    onp.testing.assert_array_equal(x[idx].asnumpy(), h[onp.where(h > 0)])


def test_one_argument_0d_counts_as_one_element():
    # MXNet 1.9.1 (and NumPy 1.x): where(0-d) is nonzero of the one element
    for v, want in ((2.0, [0]), (0.0, []), (True, [0]), (False, [])):
        got = np.where(arr(onp.array(v)))
        assert isinstance(got, tuple) and len(got) == 1 and got[0].dtype == onp.int64
        onp.testing.assert_array_equal(got[0].asnumpy(), want)


def test_one_argument_bad_input():
    with pytest.raises(TypeError, match="where: argument 'condition' must be a weft.np.ndarray.*got list"):
        np.where([1, 0, 1])
    with pytest.raises(TypeError, match="where: argument 'condition'.*got int"):
        np.where(1)
    with pytest.raises(ValueError, match="where: either both or neither"):
        np.where(arr([1, 0]), arr([1.0, 2.0]))
    with pytest.raises(ValueError, match="where: either both or neither"):
        np.where(arr([1, 0]), y=arr([1.0, 2.0]))


def test_scalar_operands_take_mxnets_dtypes():
    # Values and dtypes as MXNet 1.9.1 gives them (checked there in NumPy mode); NumPy would
    # promote the scalar instead.
    c = onp.array([[False, True, True], [True, False, False]])
    hx = onp.array([[1, 2, 3], [4, 5, 6]])
    r = np.where(arr(c), arr(hx.astype("float32")), -1.5)
    assert r.dtype == onp.float32
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [-1.5, 2, 3, 4, -1.5, -1.5])
    r = np.where(arr(c), arr(hx.astype("int32")), 2.5)  # the scalar cast to int32
    assert r.dtype == onp.int32
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [2, 2, 3, 4, 2, 2])
    r = np.where(arr(c), arr(hx.astype("int32")), -1)
    assert r.dtype == onp.int32
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [-1, 2, 3, 4, -1, -1])
    r = np.where(arr(c), 2.5, arr(hx.astype("int64")))  # the scalar on the left
    assert r.dtype == onp.int64
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [1, 2, 2, 2, 5, 6])
    r = np.where(arr(c), 1.0, 0.0)  # two scalars: the default float type
    assert r.dtype == onp.float32
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [0, 1, 1, 1, 0, 0])
    r = np.where(arr(c), 3, 4)
    assert r.dtype == onp.float32
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [4, 3, 3, 3, 4, 4])
    hb = onp.array([[True, False, True], [False, True, False]])
    r = np.where(arr(c), arr(hb), 2.5)  # a bool array: the scalar as a bool
    assert r.dtype == onp.bool_
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [True, False, True, False, True, True])
    r = np.where(arr(c), arr(onp.arange(6, dtype="uint8").reshape(2, 3)), -1)  # wraps as a C cast
    assert r.dtype == onp.uint8
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [255, 1, 2, 3, 255, 255])
    r = np.where(arr(c), arr(hx.astype("float16")), 1e5)  # out of float16's range: inf
    assert r.dtype == onp.float16
    onp.testing.assert_array_equal(r.asnumpy().ravel(), [onp.inf, 2, 3, 4, onp.inf, onp.inf])
    # A Python bool condition selects the whole of x or y (broadcast together).
    hf = hx.astype("float32")
    onp.testing.assert_array_equal(np.where(True, arr(hf), 0.0).asnumpy(), hf)
    onp.testing.assert_array_equal(np.where(False, arr(hf), 0.0).asnumpy(), onp.zeros_like(hf))


def test_scalar_operands_follow_the_default_float_switch():
    c = arr(onp.array([True, False]))
    prev = weft.util.set_np_default_dtype(True)  # npx.set_np(dtype=True)'s switch alone
    try:
        assert np.where(c, 3, 4).dtype == onp.float64
        assert np.where(c, arr(onp.array([1, 2], dtype="int32")), 0.5).dtype == onp.int32
    finally:
        weft.util.set_np_default_dtype(prev)
    if not prev:
        assert np.where(c, 3, 4).dtype == onp.float32


@pytest.mark.parametrize("shapes", [((2, 1), (1, 3), ()), ((3,), (2, 3), (2, 1)), ((4, 1, 2), (3, 1), (1,)),
                                    ((0, 3), (1, 3), (0, 1)), ((), (2, 2), (2,))])
def test_broadcasting(shapes):
    sc, sx, sy = shapes
    c = R.rand(*sc) < 0.5
    hx = R.uniform(-1, 1, size=sx).astype("float32")
    hy = R.uniform(-1, 1, size=sy).astype("float32")
    close(np.where(arr(c), arr(hx), arr(hy)), onp.where(c, hx, hy))
    # a non-bool condition counts as nonzero -> true
    ci = (R.randint(0, 3, size=sc)).astype("int32")
    close(np.where(arr(ci), arr(hx), arr(hy)), onp.where(ci, hx, hy))


def test_broadcasting_mismatch_is_value_error():
    with pytest.raises(ValueError, match=r"where"):
        np.where(arr(onp.ones((2, 3), bool)), arr(onp.zeros((4,), "float32")), 0.0)
    with pytest.raises(ValueError, match=r"where"):
        np.where(arr(onp.ones((3,), bool)), arr(onp.zeros((2, 3), "float32")), arr(onp.zeros((2, 2), "float32")))


def test_mixed_dtype_promotion():
    c = onp.array([True, False, True])
    hx = onp.array([1, 2, 3], "int32")
    hy = onp.array([0.5, 1.5, 2.5], "float64")
    r = np.where(arr(c), arr(hx), arr(hy))
    assert r.dtype == onp.float64
    close(r, onp.where(c, hx, hy))


def test_gradient_to_x_and_y_with_broadcasting():
    c = onp.array([[True], [False], [True]])  # (3, 1)
    hx = R.uniform(-1, 1, size=(1, 4))
    hy = R.uniform(-1, 1, size=(3, 4))
    w = R.uniform(-1, 1, size=(3, 4))
    x, y = arr(hx), arr(hy)
    x.attach_grad()
    y.attach_grad()
    with weft.autograd.record():
        s = np.sum(np.where(arr(c), x, y) * arr(w))
    s.backward()
    mask = onp.broadcast_to(c, (3, 4))
    onp.testing.assert_allclose(x.grad.asnumpy(), (w * mask).sum(axis=0, keepdims=True), rtol=1e-12)
    onp.testing.assert_allclose(y.grad.asnumpy(), w * ~mask, rtol=1e-12)


def test_gradient_with_scalar_other_operand():
    h = R.uniform(-1, 1, size=(2, 3))
    x = arr(h)
    x.attach_grad()
    with weft.autograd.record():
        s = np.sum(np.where(x > 0, x * x, 0.25))
    s.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), onp.where(h > 0, 2 * h, 0.0), rtol=1e-12)
