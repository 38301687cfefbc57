"""weft.np creation functions, dtypes and constants (issue 37) against NumPy:
values, dtypes (MXNet's float32 default, Note [Default dtype switch]), 0-d and
zero-size shapes, and the errors bad arguments get."""
import numpy as onp
import pytest

import weft
from weft import np

F32 = onp.float32


def check(x, expected, dtype=None):
    assert type(x) is np.ndarray
    expected = onp.asarray(expected)
    assert x.shape == expected.shape
    assert x.dtype == (expected.dtype if dtype is None else onp.dtype(dtype))
    onp.testing.assert_allclose(x.asnumpy().astype(onp.float64), expected.astype(onp.float64), rtol=1e-6)


def test_constants_and_dtypes_are_numpys():
    assert np.float32 is onp.float32 and np.int64 is onp.int64 and np.uint8 is onp.uint8
    assert np.bool is onp.bool_ and np.bool_ is onp.bool_
    assert np.pi == onp.pi and np.e == onp.e and np.inf == onp.inf and onp.isnan(np.nan)
    assert onp.isnan(np.NAN) and onp.isnan(np.NaN) and np.PINF == onp.inf and np.NINF == -onp.inf
    assert np.PZERO == 0.0 and onp.signbit(np.NZERO) and not onp.signbit(np.PZERO)
    assert np.newaxis is None
    assert np.finfo(np.float32).eps == onp.finfo(onp.float32).eps


@pytest.mark.parametrize("src", [[1, 2, 3], [[1.5, 2.0]], 3.0, 7, [], [[True, False]]])
def test_array_from_python_is_float32(src):
    check(np.array(src), onp.array(src, dtype=F32))


def test_array_dtypes():
    check(np.array(onp.arange(4)), onp.arange(4, dtype=F32))  # MXNet: NumPy data becomes float32 too
    check(np.array(onp.arange(4), dtype="int64"), onp.arange(4))
    check(np.array([1, 0], dtype=bool), onp.array([1, 0], dtype=bool))
    check(np.array(onp.float64(2.5)), onp.float64(2.5))  # a NumPy scalar keeps its dtype
    a = np.array([1, 2], dtype="int32")
    b = np.array(a)
    check(b, onp.array([1, 2], dtype=onp.int32))
    b[0] = 9
    assert a.asnumpy()[0] == 1  # a copy
    x = np.array(2.0)
    assert x.shape == () and x.ndim == 0 and x.size == 1


def test_array_errors():
    with pytest.raises(ValueError, match="as_np_ndarray"):
        np.array(weft.nd.ones((2,)))
    with pytest.raises(TypeError, match="array: argument dtype"):
        np.array([1], dtype="complex64")
    with pytest.raises(TypeError, match="array: argument object"):
        np.array(["a", "b"])
    with pytest.raises(TypeError, match="array: argument object"):
        np.array([[1, 2], [3]])


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (3, 4), 5])
@pytest.mark.parametrize("dtype", [None, "float64", "int32", "uint8", "bool"])
def test_filled(shape, dtype):
    dt = F32 if dtype is None else dtype
    check(np.zeros(shape, dtype=dtype), onp.zeros(shape, dtype=dt))
    check(np.ones(shape, dtype=dtype), onp.ones(shape, dtype=dt))
    check(np.full(shape, 3, dtype=dtype), onp.full(shape, 3, dtype=dt))
    e = np.empty(shape, dtype=dtype or float)
    assert e.shape == onp.empty(shape).shape and e.dtype == dt
    proto = np.array(onp.ones(shape), dtype=dtype or "float32")
    check(np.zeros_like(proto), onp.zeros(shape, dtype=dt))
    check(np.ones_like(proto, dtype="int64"), onp.ones(shape, dtype="int64"))
    check(np.full_like(proto, 1), onp.full(shape, 1, dtype=dt))
    assert np.empty_like(proto).shape == proto.shape and np.empty_like(proto).dtype == dt


def test_full_variants():
    check(np.full((2, 2), True), onp.full((2, 2), True))  # MXNet: a bool fill value gives bool
    check(np.full((2, 3), np.array([1, 2, 3])), onp.full((2, 3), [1, 2, 3], dtype=F32))
    out = np.zeros((2,))
    assert np.full((2,), 4, out=out) is out
    check(out, onp.full((2,), 4, dtype=F32))
    check(np.full_like(np.zeros((2,), dtype="int32"), 2.7), onp.full((2,), 2, dtype=onp.int32))


def test_filled_errors():
    with pytest.raises(ValueError, match="zeros: argument shape: negative dimensions"):
        np.zeros((2, -1))
    with pytest.raises(TypeError, match="ones: argument shape"):
        np.ones((2.5, 3))
    with pytest.raises(TypeError, match="full: argument dtype"):
        np.full((2,), 1, dtype="complex128")
    with pytest.raises(TypeError, match="full: argument fill_value"):
        np.full((2,), "x")
    with pytest.raises(ValueError, match="full: could not broadcast"):
        np.full((2, 3), np.array([1, 2]))
    with pytest.raises(NotImplementedError, match="order"):
        np.zeros((2,), order="F")


@pytest.mark.parametrize("args", [(3,), (3, 4), (4, 3, 1), (4, 3, -2), (0,), (2, 0), (3, None, 5)])
def test_eye_identity(args):
    check(np.eye(*args), onp.eye(*args, dtype=F32))
    check(np.eye(*args, dtype="int32"), onp.eye(*args, dtype=onp.int32))
    check(np.identity(3), onp.identity(3, dtype=F32))
    with pytest.raises(ValueError, match="eye: negative"):
        np.eye(-1)
    with pytest.raises(TypeError, match="eye: argument N"):
        np.eye(2.5)


@pytest.mark.parametrize("args", [(5,), (2, 7), (1, 2, 0.25), (5, 1, -1), (5, 1), (0,), (-3,), (1.5, 4.1, 0.7)])
def test_arange(args):
    check(np.arange(*args), onp.arange(*args).astype(F32))
    check(np.arange(*args, dtype="float64"), onp.arange(*args, dtype="float64"))
    with pytest.raises(ValueError, match="arange: argument step must not be zero"):
        np.arange(1, 2, 0)
    with pytest.raises(TypeError, match="arange: argument start"):
        np.arange("3")


@pytest.mark.parametrize("num", [0, 1, 2, 7, 50])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_logspace(num, endpoint):
    check(np.linspace(-1, 3, num, endpoint=endpoint), onp.linspace(-1, 3, num, endpoint=endpoint, dtype=F32))
    res, step = np.linspace(2, 5, num, endpoint=endpoint, retstep=True, dtype="float64")
    want, wstep = onp.linspace(2, 5, num, endpoint=endpoint, retstep=True)
    check(res, want)
    assert step == wstep or (onp.isnan(step) and onp.isnan(wstep))
    check(np.logspace(0, 2, num, endpoint=endpoint), onp.logspace(0, 2, num, endpoint=endpoint, dtype=F32))
    check(np.logspace(1, 3, num, base=2.0, dtype="float64"), onp.logspace(1, 3, num, base=2.0))


def test_linspace_errors():
    with pytest.raises(ValueError, match="linspace: argument num"):
        np.linspace(0, 1, -1)
    with pytest.raises(ValueError, match="linspace: argument axis"):
        np.linspace(0, 1, 3, axis=1)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    xs = [onp.arange(3, dtype=F32), onp.arange(2, dtype=F32) + 5, onp.arange(4, dtype=F32) - 1]
    for n in (1, 2, 3):
        got = np.meshgrid(*[np.array(x) for x in xs[:n]], indexing=indexing, sparse=sparse)
        want = onp.meshgrid(*xs[:n], indexing=indexing, sparse=sparse)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)
    with pytest.raises(ValueError, match="meshgrid: argument indexing"):
        np.meshgrid(np.zeros(2), indexing="xx")


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (2, 0), (1, 2, 3)])
def test_indices(dims):
    check(np.indices(dims), onp.indices(dims, dtype=onp.int32))
    check(np.indices(dims, dtype="float32"), onp.indices(dims, dtype=F32))


def test_copy_is_a_copy_with_a_gradient():
    a = np.array([1.0, 2.0, 3.0])
    b = np.copy(a)
    b[0] = 7
    check(a, onp.array([1, 2, 3], dtype=F32))
    a.attach_grad()
    with weft.autograd.record():
        y = np.copy(a) * 2
    y.backward()
    check(a.grad, onp.full((3,), 2, dtype=F32))


@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
def test_diag_family(k):
    v = onp.arange(1, 5, dtype=F32)
    m = onp.arange(12, dtype=F32).reshape(3, 4)
    t = onp.arange(24, dtype=F32).reshape(2, 3, 4)
    check(np.diag(np.array(v), k), onp.diag(v, k))
    check(np.diag(np.array(m), k), onp.diag(m, k))
    check(np.diagflat(np.array(m), k), onp.diagflat(m, k))
    check(np.diagonal(np.array(m), k), onp.diagonal(m, k))
    check(np.diagonal(np.array(t), k, 2, 0), onp.diagonal(t, k, 2, 0))
    check(np.diagonal(np.array(t), k, -1, 1), onp.diagonal(t, k, -1, 1))


def test_diag_errors():
    with pytest.raises(ValueError, match="diag: argument v must be 1-d or 2-d"):
        np.diag(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="diagonal: argument a must have at least 2"):
        np.diagonal(np.zeros(3))
    with pytest.raises(ValueError, match="diagonal: axis1 and axis2 cannot be the same"):
        np.diagonal(np.zeros((2, 2)), 0, 1, -1)
    with pytest.raises(IndexError, match="diagonal: argument axis2"):
        np.diagonal(np.zeros((2, 2)), 0, 0, 2)


def test_ctx_argument():
    ctx = weft.cpu(0)
    for x in (np.zeros((2,), ctx=ctx), np.array([1], ctx=ctx), np.arange(3, ctx=ctx), np.eye(2, ctx=ctx),
              np.full((1,), 2, ctx=ctx), np.linspace(0, 1, 3, ctx=ctx), np.indices((2,), ctx=ctx)):
        assert x.context == ctx


def test_default_dtype_switch(monkeypatch):
    # npx.set_np(dtype=True): NumPy's float64/int64 defaults (Note [Default dtype switch]); the
    # switch is read from weft.util when helper npx's set_np has put it there
    monkeypatch.setattr(weft.util, "is_np_default_dtype", lambda: True, raising=False)
    check(np.array([1.5, 2]), onp.array([1.5, 2]))
    check(np.array(onp.arange(3, dtype=onp.int8)), onp.arange(3, dtype=onp.int8))
    check(np.zeros((2,)), onp.zeros((2,)))
    check(np.arange(4), onp.arange(4, dtype=onp.int64))
    check(np.arange(0, 2, 0.5), onp.arange(0, 2, 0.5))
    check(np.linspace(0, 1, 3), onp.linspace(0, 1, 3))
    check(np.eye(2), onp.eye(2))
    monkeypatch.setattr(weft.util, "is_np_default_dtype", lambda: False, raising=False)
    check(np.arange(4), onp.arange(4, dtype=F32))


def test_array_of_arrays():
    check(np.array([np.array(1.0), np.array(2.0)]), onp.array([1, 2], dtype=F32))
    check(np.array([[np.array(1)], [2]], dtype="int32"), onp.array([[1], [2]], dtype=onp.int32))
