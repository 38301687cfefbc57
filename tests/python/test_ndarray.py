"""weft.nd.NDArray: creation, dtypes, host round trips, arithmetic, in-place ops,
views, devices, laziness and NumPy-style indexing."""
import pickle
import threading

import numpy as np
import pytest

import weft
import weft.nd as nd

DTYPES = ["float32", "float64", "float16", "uint8", "int8", "int32", "int64", "bool"]


def bf16_to_f32(bits):
    """bfloat16 host values (structured u2 or ml_dtypes) as float32."""
    raw = np.ascontiguousarray(bits).view(np.uint16).astype(np.uint32) << 16
    return raw.view(np.float32)


def same(got, want):
    """Compare an NDArray with a numpy result (integer indexing gives (1,) not 0-d, as in MXNet)."""
    g = got.asnumpy() if isinstance(got, nd.NDArray) else np.asarray(got)
    w = np.asarray(want)
    if w.ndim == 0 and g.shape == (1,):
        w = w.reshape(1)
    assert g.shape == w.shape, (g.shape, w.shape)
    np.testing.assert_array_equal(g, w)


# ---- creation -------------------------------------------------------------------
def test_array_from_list_defaults_to_float32():
    a = nd.array([[1, 2, 3], [4, 5, 6]])
    assert a.dtype == np.float32
    assert a.shape == (2, 3) and a.ndim == 2 and a.size == 6 and len(a) == 2
    assert a.context == weft.cpu(0) and a.ctx == weft.cpu(0)
    np.testing.assert_array_equal(a.asnumpy(), [[1, 2, 3], [4, 5, 6]])


def test_array_from_numpy_defaults_to_float32_like_mxnet():
    a = nd.array(np.arange(4, dtype=np.int64))
    assert a.dtype == np.float32
    b = nd.array(np.arange(4, dtype=np.int64), dtype=np.int64)
    assert b.dtype == np.int64


def test_array_from_ndarray_keeps_dtype_and_copies():
    a = nd.array([1, 2, 3], dtype="int32")
    b = nd.array(a)
    assert b.dtype == np.int32
    a[:] = 0
    np.testing.assert_array_equal(b.asnumpy(), [1, 2, 3])


@pytest.mark.parametrize("dtype", DTYPES)
def test_roundtrip_dtypes(dtype):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((3, 5)) * 10).astype(dtype)
    a = nd.array(x, dtype=dtype)
    assert a.dtype == np.dtype(dtype)
    y = a.asnumpy()
    assert y.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(y, x)


def test_bfloat16_roundtrip_and_cast():
    x = np.array([1.0, -2.5, 3.140625, 1e-3], dtype=np.float32)
    a = nd.array(x, dtype="bfloat16")
    assert a.dtype == weft.dtypes.bfloat16
    assert a.dtype.itemsize == 2
    np.testing.assert_allclose(bf16_to_f32(a.asnumpy()), x, rtol=1e-2)
    np.testing.assert_allclose(a.astype("float32").asnumpy(), x, rtol=1e-2)
    # Raw bfloat16 host values load back unchanged.
    b = nd.array(a.asnumpy(), dtype="bfloat16")
    np.testing.assert_array_equal(b.asnumpy().view(np.uint16), a.asnumpy().view(np.uint16))


def test_creation_helpers():
    np.testing.assert_array_equal(nd.zeros((2, 3)).asnumpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(nd.ones(4, dtype="int8").asnumpy(), np.ones(4, np.int8))
    np.testing.assert_array_equal(nd.full((2, 2), 7).asnumpy(), np.full((2, 2), 7, np.float32))
    np.testing.assert_array_equal(nd.arange(5).asnumpy(), np.arange(5, dtype=np.float32))
    np.testing.assert_array_equal(nd.arange(2, 11, 3, dtype="int64").asnumpy(), np.arange(2, 11, 3))
    np.testing.assert_array_equal(nd.eye(3, 4, 1).asnumpy(), np.eye(3, 4, 1, dtype=np.float32))
    e = nd.empty((2, 5), dtype="float16")
    assert e.shape == (2, 5) and e.dtype == np.float16
    x = nd.array([[1, 2], [3, 4]], dtype="int32")
    z, o = nd.zeros_like(x), nd.ones_like(x)
    assert z.dtype == np.int32 and o.shape == (2, 2)
    np.testing.assert_array_equal(o.asnumpy(), np.ones((2, 2), np.int32))
    np.testing.assert_array_equal(x.zeros_like().asnumpy(), np.zeros((2, 2), np.int32))


def test_concat_and_stack():
    a = nd.array([[1, 2]])
    b = nd.array([[3, 4]])
    np.testing.assert_array_equal(nd.concat(a, b, dim=0).asnumpy(), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(nd.concatenate([a, b], axis=1).asnumpy(), [[1, 2, 3, 4]])
    np.testing.assert_array_equal(nd.stack(a, b, axis=0).asnumpy(), [[[1, 2]], [[3, 4]]])


def test_repr_like_mxnet():
    a = nd.array([[1, 2]])
    assert repr(a) == "\n[[1. 2.]]\n<NDArray 1x2 @cpu(0)>"
    assert repr(nd.zeros((2,), ctx=weft.cpu(1))).endswith("<NDArray 2 @cpu(1)>")


def test_scalar_conversions():
    a = nd.array([3.5])
    assert a.asscalar() == np.float32(3.5)
    assert float(np.asarray(a)[0]) == 3.5
    assert bool(nd.array([1])) and not bool(nd.array([0]))
    with pytest.raises(ValueError):
        nd.array([1, 2]).asscalar()
    with pytest.raises(ValueError):
        bool(nd.array([1, 2]))


# ---- arithmetic -------------------------------------------------------------------
def _pair(shape_a=(3, 4), shape_b=(3, 4), seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 2.0, shape_a).astype(np.float32)
    y = rng.uniform(0.5, 2.0, shape_b).astype(np.float32)
    return x, y, nd.array(x), nd.array(y)


@pytest.mark.parametrize("shape_b", [(3, 4), (1, 4), (3, 1), (4,)])
def test_binary_operators_against_numpy(shape_b):
    x, y, a, b = _pair(shape_b=shape_b)
    for f in (lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q, lambda p, q: p / q,
              lambda p, q: p ** q, lambda p, q: p % q):
        np.testing.assert_allclose(f(a, b).asnumpy(), f(x, y), rtol=1e-5, atol=1e-6)


def test_scalar_operators_and_reversed():
    x, _, a, _ = _pair()
    cases = [(a + 2, x + 2), (2 + a, 2 + x), (a - 2, x - 2), (2 - a, 2 - x), (a * 3, x * 3), (3 * a, 3 * x),
             (a / 4, x / 4), (4 / a, 4 / x), (a ** 2, x ** 2), (2 ** a, 2 ** x), (a % 0.7, x % 0.7),
             (5 % a, 5 % x), (-a, -x), (abs(-a), x), (a * np.float32(2), x * 2), (a + True, x + 1)]
    for got, want in cases:
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_scalar_operands_keep_signed_zero():
    a = nd.array([1.0, -2.0])
    x = np.array([1.0, -2.0], np.float32)
    for s in (0.0, -0.0, 0, -0.0):
        np.testing.assert_array_equal(np.signbit((a * s).asnumpy()), np.signbit(x * s))


def test_comparisons_return_zero_one_arrays():
    x = np.array([1, 2, 3, 4], np.float32)
    y = np.array([4, 2, 1, 4], np.float32)
    a, b = nd.array(x), nd.array(y)
    for got, want in [(a == b, x == y), (a != b, x != y), (a < b, x < y), (a <= b, x <= y), (a > b, x > y),
                      (a >= b, x >= y), (a == 2, x == 2), (a > 2, x > 2), (2 < a, 2 < x), (a <= 3, x <= 3)]:
        assert isinstance(got, nd.NDArray)
        np.testing.assert_array_equal(got.asnumpy(), want.astype(np.float32))
    assert (a == None) is False  # noqa: E711  (not an array: plain Python comparison)


def test_helpers_dispatch_scalar_same_shape_broadcast():
    x, y, a, b = _pair(shape_b=(1, 4))
    np.testing.assert_allclose(nd.add(a, b).asnumpy(), x + y, rtol=1e-6)
    np.testing.assert_allclose(nd.subtract(2, a).asnumpy(), 2 - x, rtol=1e-6)
    np.testing.assert_allclose(nd.multiply(a, a).asnumpy(), x * x, rtol=1e-6)
    np.testing.assert_allclose(nd.divide(a, 2).asnumpy(), x / 2, rtol=1e-6)
    np.testing.assert_allclose(nd.power(a, 2).asnumpy(), x ** 2, rtol=1e-5)
    np.testing.assert_allclose(nd.maximum(a, b).asnumpy(), np.maximum(x, y))
    np.testing.assert_allclose(nd.minimum(1.0, a).asnumpy(), np.minimum(1.0, x))
    np.testing.assert_allclose(nd.modulo(a, 0.3).asnumpy(), np.mod(x, 0.3), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(nd.greater(a, b).asnumpy(), (x > y).astype(np.float32))
    np.testing.assert_array_equal(nd.lesser_equal(a, 1.0).asnumpy(), (x <= 1.0).astype(np.float32))
    np.testing.assert_array_equal(nd.equal(a, a).asnumpy(), np.ones_like(x))
    np.testing.assert_array_equal(nd.not_equal(a, b).asnumpy(), (x != y).astype(np.float32))
    assert nd.add(2, 3) == 5


def test_integer_arithmetic_keeps_dtype():
    a = nd.array([1, 2, 3], dtype="int32")
    r = a * 2 + 1
    assert r.dtype == np.int32
    np.testing.assert_array_equal(r.asnumpy(), [3, 5, 7])


def test_methods_call_ops():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = nd.array(x)
    np.testing.assert_allclose(a.sum().asnumpy().reshape(-1), [x.sum()])
    np.testing.assert_allclose(a.sum(axis=1).asnumpy(), x.sum(axis=1))
    np.testing.assert_allclose(a.mean(axis=0).asnumpy(), x.mean(axis=0))
    np.testing.assert_allclose(a.max(axis=1).asnumpy(), x.max(axis=1))
    np.testing.assert_allclose(a.min(axis=0).asnumpy(), x.min(axis=0))
    np.testing.assert_allclose(a.argmax(axis=1).asnumpy(), x.argmax(axis=1))
    np.testing.assert_allclose(a.T.asnumpy(), x.T)
    np.testing.assert_allclose(a.transpose().asnumpy(), x.T)
    np.testing.assert_allclose(a.exp().asnumpy(), np.exp(x), rtol=1e-5)
    assert a.flatten().shape == (3, 4)
    assert a.expand_dims(1).shape == (3, 1, 4)
    assert a.expand_dims(1).squeeze().shape == (3, 4)


# ---- in-place updates --------------------------------------------------------------
def test_inplace_ops_keep_identity_and_memory():
    x, y, a, b = _pair()
    ident, handle = id(a), a.handle
    view = a[1:2]
    a += 1
    a -= b
    a *= 2
    a /= 4
    want = ((x + 1) - y) * 2 / 4
    assert id(a) == ident and a.handle == handle
    np.testing.assert_allclose(a.asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(view.asnumpy(), want[1:2], rtol=1e-5)  # same memory as before
    c = nd.array(x)
    c += nd.array(y[:1])  # broadcast into self
    np.testing.assert_allclose(c.asnumpy(), x + y[:1], rtol=1e-6)


def test_out_argument_writes_in_place():
    x, y, a, b = _pair()
    out = nd.zeros((3, 4))
    r = nd.elemwise_add(a, b, out=out)
    assert r is out
    np.testing.assert_allclose(out.asnumpy(), x + y, rtol=1e-6)


# ---- views ------------------------------------------------------------------------------
def test_views_share_memory_and_dependencies():
    a = nd.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    row = a[1]
    rows = a[1:3]
    flat = a.reshape(-1)
    assert row.shares_memory(a) and rows.shares_memory(a) and flat.shares_memory(a)
    row[:] = 100          # write through a view ...
    rows[1] *= 0          # ... and an op whose out is a view of a view
    flat[0] = -1
    want = np.arange(12, dtype=np.float32).reshape(3, 4)
    want[1] = 100
    want[2] = 0
    want[0, 0] = -1
    np.testing.assert_array_equal(a.asnumpy(), want)
    a[:] = 5              # parent writes are seen by views
    np.testing.assert_array_equal(row.asnumpy(), np.full(4, 5, np.float32))


def test_reshape_codes():
    a = nd.zeros((2, 3, 4))
    assert a.reshape(6, 4).shape == (6, 4)
    assert a.reshape((4, -1)).shape == (4, 6)
    assert a.reshape(shape=(0, -1)).shape == (2, 12)
    assert a.reshape(-2).shape == (2, 3, 4)
    assert a.reshape(-3, 4).shape == (6, 4)
    assert a.reshape(-4, 1, 2, -2).shape == (1, 2, 3, 4)
    assert a.reshape((-1, 0), reverse=True).shape == (6, 4)
    with pytest.raises(weft.WeftError):
        a.reshape(5, 5)


# ---- devices --------------------------------------------------------------------------
def test_copies_between_cpu_devices():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = nd.array(x)
    b = a.copyto(weft.cpu(1))
    assert b.context == weft.cpu(1)
    c = b.as_in_context(weft.cpu(0))
    assert c.context == weft.cpu(0) and b.as_in_context(weft.cpu(1)) is b
    d = nd.zeros((2, 3), ctx=weft.cpu(1))
    a.copyto(d)
    np.testing.assert_array_equal(d.asnumpy(), x)
    np.testing.assert_array_equal((b * 2).asnumpy(), x * 2)
    np.testing.assert_array_equal(c.asnumpy(), x)
    e = a.copy()
    e[:] = 0
    np.testing.assert_array_equal(a.asnumpy(), x)


def test_context_objects_and_with_blocks():
    assert weft.cpu(1) == weft.Context("cpu", 1) == weft.Context("cpu(1)")
    assert weft.cpu(1) != weft.cpu(0) and hash(weft.cpu(1)) == hash(weft.Context("cpu:1"))
    assert repr(weft.cpu(1)) == "cpu(1)" and str(weft.gpu(2)) == "gpu(2)"
    assert weft.current_context() == weft.cpu(0)
    with weft.cpu(1):
        assert weft.current_context() == weft.cpu(1)
        assert nd.zeros((2,)).context == weft.cpu(1)
        assert nd.array([1, 2]).context == weft.cpu(1)
        assert nd.random.uniform(shape=(2,)).context == weft.cpu(1)
        with weft.cpu(0):
            assert nd.ones((1,)).context == weft.cpu(0)
        assert weft.current_context() == weft.cpu(1)
    assert weft.current_context() == weft.cpu(0)


def test_context_is_per_thread():
    seen = []
    with weft.cpu(1):
        t = threading.Thread(target=lambda: seen.append(weft.current_context()))
        t.start()
        t.join()
    assert seen == [weft.cpu(0)]


# ---- laziness -----------------------------------------------------------------------------
def test_many_chained_ops_before_one_read():
    x = nd.ones((16,))
    ref = np.ones(16, np.float32)
    for _ in range(2000):
        x = x * 1.0001 + 0.0001
        ref = ref * np.float32(1.0001) + np.float32(0.0001)
    weft.nd.waitall()
    np.testing.assert_allclose(x.asnumpy(), ref, rtol=1e-5)


def test_results_correct_after_waitall_and_wait_to_read():
    a = nd.array(np.arange(1000, dtype=np.float32))
    parts = [a * i for i in range(20)]
    nd.waitall()
    for i, p in enumerate(parts):
        p.wait_to_read()
        np.testing.assert_array_equal(p.asnumpy(), np.arange(1000, dtype=np.float32) * i)


def test_arrays_freed_while_ops_pending():
    a = nd.ones((256,))
    for _ in range(50):
        b = a + 1
        del b  # handle freed with the op possibly still queued
    c = a * 3
    del a
    np.testing.assert_array_equal(c.asnumpy(), np.full(256, 3, np.float32))


def test_random_seed_reproducible():
    weft.random.seed(42)
    u1 = weft.random.uniform(-1, 1, shape=(5,)).asnumpy()
    n1 = nd.random.normal(0, 1, shape=(2, 3)).asnumpy()
    weft.random.seed(42)
    u2 = weft.random.uniform(-1, 1, shape=(5,)).asnumpy()
    n2 = nd.random.normal(0, 1, shape=(2, 3)).asnumpy()
    np.testing.assert_array_equal(u1, u2)
    np.testing.assert_array_equal(n1, n2)
    assert u1.min() >= -1 and u1.max() < 1
    r = weft.random.randint(0, 10, shape=(100,)).asnumpy()
    assert r.min() >= 0 and r.max() < 10
    out = nd.zeros((3,))
    assert weft.random.uniform(out=out) is out


def test_pickle_roundtrip():
    a = nd.array([[1, 2], [3, 4]], dtype="int64")
    b = pickle.loads(pickle.dumps(a))
    assert b.dtype == np.int64
    np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())


def test_save_load_list_and_dict(tmp_path):
    a = nd.array([1, 2, 3])
    b = nd.array([[1, 2]], dtype="int8")
    f = str(tmp_path / "x.params")
    nd.save(f, [a, b])
    got = nd.load(f)
    assert isinstance(got, list) and len(got) == 2
    np.testing.assert_array_equal(got[1].asnumpy(), b.asnumpy())
    nd.save(f, {"a": a, "b": b})
    got = nd.load(f)
    assert isinstance(got, dict) and list(got) == ["a", "b"]
    np.testing.assert_array_equal(got["a"].asnumpy(), a.asnumpy())
    with open(f, "rb") as fh:
        got2 = nd.load_frombuffer(fh.read())
    assert list(got2) == ["a", "b"]


# ---- indexing ------------------------------------------------------------------------------
X = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)

GET_KEYS = [
    0, 1, -1, slice(None), slice(1, 2), slice(0, 0), (0, 1), (1, -1, 2), (0, slice(1, 3)), (slice(None), 1),
    (Ellipsis, 2), (slice(None), slice(None, None, 2)), slice(None, None, -1), (1, slice(None, None, -1)),
    (slice(None), slice(2, 0, -1), slice(1, None, 2)), None, (None, 1), (0, None, slice(1, 3)),
    (Ellipsis, None), (1, Ellipsis), (slice(-5, 10),), [1, 0, 1], np.array([1, 0]), ([0, 1], [1, 2]),
    ([0, 1], [1, 2], [3, 0]), (slice(None), [0, 2]), (1, [2, 0]), X[..., 0] > 5, X > 10,
    (np.array([[0], [1]]), np.array([[1, 2]])), (slice(None), [0, 2], slice(1, 3)),
]


@pytest.mark.parametrize("key", GET_KEYS, ids=[repr(k)[:40] for k in GET_KEYS])
def test_getitem_against_numpy(key):
    a = nd.array(X)
    same(a[key], X[key])


def test_getitem_views_and_ndarray_index():
    a = nd.array(X)
    assert a[1].shares_memory(a) and a[0:1].shares_memory(a) and a[1, 2].shares_memory(a)
    idx = nd.array([1, 0, 1], dtype="int64")
    same(a[idx], X[[1, 0, 1]])
    same(a[nd.array([1, 0], dtype="int32"), 2], X[[1, 0], 2])


def test_getitem_errors():
    a = nd.array(X)
    with pytest.raises(IndexError):
        a[2]
    with pytest.raises(IndexError):
        a[0, 0, 0, 0]
    with pytest.raises(IndexError):
        a[[0, 5]]
    with pytest.raises(IndexError):
        a["x"]


SET_KEYS = [
    0, -1, slice(None), slice(0, 1), (1, 2), (0, slice(1, 3)), (slice(None), 1), (Ellipsis, 3),
    (slice(None), slice(None, None, 2)), (1, slice(None, None, -2)), (slice(None), slice(None), 0),
    (1, 2, 3), [1, 0], ([0, 1], [2, 0]), (slice(None), [0, 2]), X > 11, (None, 0),
]


@pytest.mark.parametrize("key", SET_KEYS, ids=[repr(k)[:40] for k in SET_KEYS])
@pytest.mark.parametrize("kind", ["scalar", "numpy", "list", "ndarray"])
def test_setitem_against_numpy(key, kind):
    want = X.copy()
    target = want[key]
    shape = np.shape(target)
    rng = np.random.default_rng(1)
    vals = rng.integers(-50, 50, size=shape).astype(np.float32)
    if kind == "scalar":
        value = 7.5
    elif kind == "numpy":
        value = vals
    elif kind == "list":
        value = vals.tolist()
    else:
        value = nd.array(vals)
    want[key] = value if kind != "ndarray" else vals
    a = nd.array(X)
    a[key] = value
    np.testing.assert_array_equal(a.asnumpy(), want)


def test_setitem_broadcasts_and_converts_dtype():
    a = nd.zeros((3, 4), dtype="int32")
    a[:] = np.arange(4)
    a[1:] = nd.array([[9, 8, 7, 6]])
    a[:, ::3] = 5
    want = np.zeros((3, 4), np.int32)
    want[:] = np.arange(4)
    want[1:] = [[9, 8, 7, 6]]
    want[:, ::3] = 5
    np.testing.assert_array_equal(a.asnumpy(), want)
    assert a.dtype == np.int32


def test_setitem_through_view_seen_by_parent_and_pending_ops():
    a = nd.zeros((4, 4))
    b = a + 1          # queued read of a
    v = a[2]
    v[:] = 3           # write after the read: b must not see it
    v[1:3] = nd.array([5, 6])
    want = np.zeros((4, 4), np.float32)
    want[2] = 3
    want[2, 1:3] = [5, 6]
    np.testing.assert_array_equal(a.asnumpy(), want)
    np.testing.assert_array_equal(b.asnumpy(), np.ones((4, 4), np.float32))


def test_python_threads_run_ops_concurrently():
    results = {}
    errors = []

    def work(k):
        try:
            x = nd.ones((64,)) * k
            for _ in range(300):
                x = x + 1
            results[k] = x.asnumpy()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(4):
        np.testing.assert_array_equal(results[k], np.full(64, k + 300, np.float32))


def test_ellipsis_assignment_and_numpy_scalars():
    a = nd.zeros((2, 2))
    a[...] = np.float32(3)
    a[0, ...] = np.int64(1)
    np.testing.assert_array_equal(a.asnumpy(), [[1, 1], [3, 3]])
    r = np.float32(2) * a
    assert isinstance(r, nd.NDArray)
    np.testing.assert_array_equal(r.asnumpy(), [[2, 2], [6, 6]])


def test_bfloat16_and_float16_assignment():
    a = nd.zeros((3, 4), dtype="bfloat16")
    a[1] = 2.5
    a[:, ::2] = np.ones((3, 2)) * 3
    a[[0, 2]] = nd.array([[7, 7, 7, 7]], dtype="bfloat16")
    a[0, 1] = nd.array([9.0])
    want = np.array([[7, 9, 7, 7], [3, 2.5, 3, 2.5], [7, 7, 7, 7]], np.float32)
    np.testing.assert_array_equal(a.astype("float32").asnumpy(), want)
    assert a.dtype == weft.dtypes.bfloat16
    assert "2.5" in repr(a)
    h = nd.zeros((2, 2), dtype="float16")
    h[0] = np.array([1.5, 2.5])
    np.testing.assert_array_equal(h.asnumpy(), np.array([[1.5, 2.5], [0, 0]], np.float16))


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_floor_division_matches_numpy(dtype):
    a = np.array([[7, -7, 5], [-5, 9, 0]], dtype=dtype)
    b = np.array([[2, 2, -3], [3, -4, 7]], dtype=dtype)
    x, y = weft.nd.array(a, dtype=dtype), weft.nd.array(b, dtype=dtype)
    np.testing.assert_array_equal((x // y).asnumpy(), a // b)
    np.testing.assert_array_equal((x // 2).asnumpy(), a // 2)
    np.testing.assert_array_equal((7 // y).asnumpy(), 7 // b)
    assert (x // y).dtype == np.dtype(dtype)
