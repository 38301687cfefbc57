"""weft.np's reductions, sorting and products against official NumPy: values
and dtypes, axis tuples and negative axes, keepdims, 0-d results, zero-size
inputs, NumPy's exception types, and finite-difference gradients."""
import numpy as onp
import pytest

import weft
from weft import np

R = onp.random.RandomState(11)
AxisError = getattr(getattr(onp, "exceptions", onp), "AxisError", None) or onp.AxisError


def arr(h, dtype=None):
    h = onp.asarray(h, dtype=dtype)
    return weft.nd.array(h, dtype=h.dtype).as_np_ndarray()


def close(r, e, rtol=1e-5, atol=1e-6):
    assert isinstance(r, np.ndarray), type(r)
    assert r.shape == onp.shape(e), (r.shape, onp.shape(e))
    onp.testing.assert_allclose(r.asnumpy(), e, rtol=rtol, atol=atol, equal_nan=True)


AXES = [None, 0, -1, (0, 2), (-1, 0, 1), ()]
REDUCE = ["sum", "prod", "max", "min", "amax", "amin", "mean", "std", "var", "all", "any"]


@pytest.mark.parametrize("name", REDUCE)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_float(name, axis, keepdims):
    h = R.uniform(0.5, 1.5, size=(2, 3, 4))
    r = getattr(np, name)(arr(h), axis=axis, keepdims=keepdims)
    e = getattr(onp, name)(h, axis=axis, keepdims=keepdims)
    close(r, e, rtol=1e-9)
    assert r.dtype == e.dtype


@pytest.mark.parametrize("name,want", [("sum", None), ("prod", None), ("max", None), ("mean", "float32"),
                                       ("var", "float32"), ("std", "float32"), ("all", "bool"), ("any", "bool")])
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "bool"])
def test_reduction_dtypes_are_mxnets(name, want, dtype):
    h = (onp.arange(12).reshape(3, 4) % 3).astype(dtype)
    r = getattr(np, name)(arr(h), axis=1)
    e = getattr(onp, name)(h, axis=1)
    if want is None:
        want = "int64" if dtype == "bool" and name in ("sum", "prod") else dtype
    assert r.dtype == onp.dtype(want), (name, dtype, r.dtype)
    close(r, e.astype(want), rtol=1e-6)


def test_full_reduction_is_0d_and_dtype_argument():
    h = onp.arange(1, 7, dtype="int32").reshape(2, 3)
    s = np.sum(arr(h))
    assert s.shape == () and s.dtype == onp.int32 and int(s.asnumpy()) == 21
    close(np.sum(arr(h), dtype="float64"), onp.sum(h, dtype="float64"))
    assert np.sum(arr(h), dtype="float64").dtype == onp.float64
    close(np.mean(arr(h), axis=0, dtype="float64"), onp.mean(h, axis=0, dtype="float64"))
    close(np.prod(arr(h), axis=1), onp.prod(h, axis=1))
    close(np.product(arr(h)), onp.prod(h))
    close(np.sum(arr(h), axis=1, initial=10), onp.sum(h, axis=1, initial=10))
    close(np.var(arr(h.astype("float64")), ddof=1), onp.var(h, ddof=1))
    close(np.std(arr(h.astype("float64")), axis=0, ddof=1), onp.std(h, axis=0, ddof=1))
    with onp.errstate(all="ignore"):
        close(np.var(arr(onp.ones((1, 3))), axis=0, ddof=1), onp.full(3, onp.nan))


def test_zero_size_reductions():
    h = onp.zeros((0, 3), "float32")
    close(np.sum(arr(h), axis=0), onp.sum(h, axis=0))
    close(np.sum(arr(h)), 0.0)
    close(np.prod(arr(h), axis=0), onp.prod(h, axis=0))
    onp.testing.assert_array_equal(np.all(arr(h), axis=0).asnumpy(), [True] * 3)
    onp.testing.assert_array_equal(np.any(arr(h)).asnumpy(), False)
    close(np.max(arr(h), axis=1), onp.zeros((0,)))
    with pytest.raises(ValueError, match="max"):
        np.max(arr(h), axis=0)
    with pytest.raises(ValueError, match="argmax"):
        np.argmax(arr(h))
    close(np.mean(arr(h), axis=0), onp.full(3, onp.nan))  # NumPy: NaN with a RuntimeWarning


def test_bad_axes():
    x = arr(onp.zeros((2, 3)))
    with pytest.raises(AxisError, match="sum"):
        np.sum(x, axis=2)
    with pytest.raises(AxisError):
        np.mean(x, axis=-3)
    with pytest.raises(ValueError, match="duplicate"):
        np.sum(x, axis=(0, -2))
    with pytest.raises(TypeError, match="axis"):
        np.max(x, axis=1.5)
    with pytest.raises(TypeError, match="sum.*list"):
        np.sum([1, 2])


def test_average():
    h = R.uniform(size=(3, 4))
    w = R.uniform(size=(4,))
    close(np.average(arr(h)), onp.average(h))
    close(np.average(arr(h), axis=1, weights=arr(w)), onp.average(h, axis=1, weights=w))
    w2 = R.uniform(size=(3, 4))
    avg, wsum = np.average(arr(h), axis=0, weights=arr(w2), returned=True)
    eavg, ewsum = onp.average(h, axis=0, weights=w2, returned=True)
    close(avg, eavg)
    close(wsum, ewsum)
    out = arr(onp.zeros(3))
    assert np.average(arr(h), axis=1, weights=arr(w), out=out) is out
    close(out, onp.average(h, axis=1, weights=w))
    with pytest.raises(ValueError, match="average"):
        np.average(arr(h), axis=0, weights=arr(w))
    with pytest.raises(TypeError, match="axis"):
        np.average(arr(h), weights=arr(w))


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_cumsum_argmax_argmin(axis):
    h = R.permutation(12).reshape(3, 4).astype("float32")
    close(np.cumsum(arr(h), axis=axis), onp.cumsum(h, axis=axis))
    for name in ("argmax", "argmin"):
        r = getattr(np, name)(arr(h), axis=axis)
        assert r.dtype == onp.int64
        onp.testing.assert_array_equal(r.asnumpy(), getattr(onp, name)(h, axis=axis))
    b = onp.array([True, False, True])
    assert np.cumsum(arr(b)).dtype == onp.int64
    close(np.cumsum(arr(b)), onp.cumsum(b))
    ties = onp.array([[3, 3, 1, 3, 1]], "float32")
    onp.testing.assert_array_equal(np.argmax(arr(ties), axis=1).asnumpy(), [0])
    onp.testing.assert_array_equal(np.argmin(arr(ties), axis=-1, keepdims=True).asnumpy(), [[2]])
    long16 = onp.zeros(5000, "float16")
    long16[4097] = 1  # past float16's exact integers: indices must not go through the input dtype
    assert int(np.argmax(arr(long16)).asnumpy()) == 4097
    nan = onp.array([1.0, onp.nan, 5.0, onp.nan])
    assert int(np.argmax(arr(nan)).asnumpy()) == onp.argmax(nan)


@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("dtype", ["float32", "int32", "int64", "uint8"])
def test_sort_argsort(axis, dtype):
    h = R.randint(0, 5, size=(4, 6)).astype(dtype)
    close(np.sort(arr(h), axis=axis), onp.sort(h, axis=axis))
    r = np.argsort(arr(h), axis=axis)
    assert r.dtype == onp.int64
    onp.testing.assert_array_equal(r.asnumpy(), onp.argsort(h, axis=axis, kind="stable"))


def test_sort_nan_last_and_errors():
    h = onp.array([3, onp.nan, 1, -onp.inf], "float32")
    close(np.sort(arr(h)), onp.sort(h))
    with pytest.raises(AxisError):
        np.sort(arr(h), axis=1)
    with pytest.raises(ValueError, match="kind"):
        np.sort(arr(h), kind="bogus")
    close(np.sort(arr(onp.zeros((0, 2), "float32"))), onp.zeros((0, 2)))


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)), ((2, 2, 3), (4, 3, 5)),
                                   ((3,), (3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3))])
def test_dot(sa, sb):
    a, b = R.rand(*sa), R.rand(*sb)
    close(np.dot(arr(a), arr(b)), onp.dot(a, b), rtol=1e-9)


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((5, 2, 3), (3, 4)),
                                   ((2, 1, 2, 3), (4, 3, 5)), ((0, 2, 3), (3, 1))])
def test_matmul(sa, sb):
    a, b = R.rand(*sa), R.rand(*sb)
    close(np.matmul(arr(a), arr(b)), onp.matmul(a, b), rtol=1e-9)


def test_inner_outer_vdot_trace():
    a = R.rand(2, 3, 4)
    b = R.rand(5, 4)
    close(np.inner(arr(a), arr(b)), onp.inner(a, b), rtol=1e-9)
    close(np.outer(arr(a), arr(b)), onp.outer(a, b), rtol=1e-9)
    close(np.vdot(arr(a[0]), arr(a[1])), onp.vdot(a[0], a[1]), rtol=1e-9)
    close(np.trace(arr(a)), onp.trace(a), rtol=1e-9)
    close(np.trace(arr(a), offset=1, axis1=1, axis2=2), onp.trace(a, 1, 1, 2), rtol=1e-9)
    close(np.trace(arr(a), offset=-1, axis1=-1, axis2=0), onp.trace(a, -1, -1, 0), rtol=1e-9)
    i = onp.arange(6, dtype="int32").reshape(2, 3)
    r = np.dot(arr(i), arr(i.T))
    assert r.dtype == onp.int32
    close(r, onp.dot(i, i.T))
    assert np.dot(arr(i), arr(i.T.astype("float32"))).dtype == onp.float32
    close(np.dot(arr(i), 2), i * 2)


def test_matmul_operator():
    a, b = R.rand(2, 3, 4), R.rand(4, 5)
    close(arr(a) @ arr(b), a @ b, rtol=1e-9)
    close(arr(b).T.as_np_ndarray() @ arr(a[0]).T.as_np_ndarray(), b.T @ a[0].T, rtol=1e-9)
    with pytest.raises(ValueError, match="matmul"):
        arr(a) @ arr(a)


def test_product_errors():
    with pytest.raises(ValueError, match=r"dot.*\(2, 3\).*\(4,\)"):
        np.dot(arr(onp.zeros((2, 3))), arr(onp.zeros(4)))
    with pytest.raises(ValueError, match=r"matmul.*\(2, 3\).*\(2, 3\)"):
        np.matmul(arr(onp.zeros((2, 3))), arr(onp.zeros((2, 3))))
    with pytest.raises(ValueError, match="matmul"):
        np.matmul(arr(onp.zeros((2, 2, 3))), arr(onp.zeros((3, 3, 1))))
    with pytest.raises(ValueError, match="matmul"):
        np.matmul(arr(onp.float32(1)), arr(onp.zeros(3)))
    with pytest.raises(ValueError, match="vdot"):
        np.vdot(arr(onp.zeros(3)), arr(onp.zeros(4)))
    with pytest.raises(ValueError, match="trace"):
        np.trace(arr(onp.zeros(3)))


def _grad_check(f, h, eps=1e-6):
    x = arr(h)
    x.attach_grad()
    with weft.autograd.record():
        y = np.sum(f(x))
    y.backward()
    num = onp.zeros_like(h)
    for i in range(h.size):
        d = onp.zeros_like(h)
        d.flat[i] = eps
        num.flat[i] = (float(np.sum(f(arr(h + d))).asnumpy()) - float(np.sum(f(arr(h - d))).asnumpy())) / (2 * eps)
    onp.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-5, atol=1e-6)


B = R.uniform(0.5, 1.5, size=(3, 4))

GRAD_CASES = {
    "sum_mean": lambda x: np.sum(x, axis=0) * np.mean(x, axis=(0, 1), keepdims=True).reshape(1),
    "prod": lambda x: np.prod(x, axis=-1),
    "std_var": lambda x: np.sum(np.std(x, axis=1)) + np.var(x, axis=0, ddof=1),
    "max_min": lambda x: np.sum(np.max(x, axis=1)) - np.min(x, axis=0),
    "cumsum": lambda x: np.cumsum(x * x, axis=1),
    "average": lambda x: np.average(x, axis=1, weights=arr(B[0])),
    "sort": lambda x: np.sort(x, axis=0) * arr(onp.arange(4.0)),
    "products": lambda x: np.dot(x, arr(B.T)) + np.matmul(arr(B), x.T).T + np.outer(x[0:1], arr(B[0])).T[0:3, 0:1]
    + np.trace(x),
}


@pytest.mark.parametrize("case", sorted(GRAD_CASES))
def test_gradients(case):
    h = R.uniform(0.5, 1.5, size=(3, 4))
    _grad_check(GRAD_CASES[case], h)
