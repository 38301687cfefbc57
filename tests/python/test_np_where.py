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


def test_one_argument_bad_input():
    with pytest.raises(TypeError, match="where: argument 'condition' must be a weft.np.ndarray.*got list"):
        np.where([1, 0, 1])
    with pytest.raises(TypeError, match="where: argument 'condition'.*got int"):
        np.where(1)
    with pytest.raises(ValueError, match="where: argument 'condition' is 0-d"):
        np.where(arr(onp.float32(1.0)))
    with pytest.raises(ValueError, match="where: either both or neither"):
        np.where(arr([1, 0]), arr([1.0, 2.0]))
    with pytest.raises(ValueError, match="where: either both or neither"):
        np.where(arr([1, 0]), y=arr([1.0, 2.0]))


def test_scalar_operands():
    c = onp.array([[True, False, True], [False, False, True]])
    hx = R.uniform(-2, 2, size=(2, 3)).astype("float32")
    # One scalar: the array's float dtype is kept (a Python scalar does not upcast).
    r = np.where(arr(c), arr(hx), -1.5)
    assert r.dtype == onp.float32
    close(r, onp.where(c, hx, onp.float32(-1.5)))
    r = np.where(arr(c), 7, arr(hx))
    assert r.dtype == onp.float32
    close(r, onp.where(c, onp.float32(7), hx))
    # Two scalars: the result has the condition's shape.
    r = np.where(arr(c), 1.0, 0.0)
    close(r, onp.where(c, 1.0, 0.0))
    ri = np.where(arr(c), 3, 4)
    assert onp.issubdtype(ri.dtype, onp.integer)
    onp.testing.assert_array_equal(ri.asnumpy(), onp.where(c, 3, 4))
    # A Python bool condition selects the whole of x or y (broadcast together).
    close(np.where(True, arr(hx), 0.0), hx)
    close(np.where(False, arr(hx), 0.0), onp.zeros_like(hx))
    # An integer array keeps its dtype with an integer scalar.
    hi = onp.arange(6, dtype="int32").reshape(2, 3)
    r = np.where(arr(c), arr(hi), -1)
    assert r.dtype == onp.int32
    onp.testing.assert_array_equal(r.asnumpy(), onp.where(c, hi, -1))


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
