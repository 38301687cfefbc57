"""weft.np indexing and assignment (issue 37 point 2) against NumPy: basic,
integer-array and boolean-mask keys, 0-d results of integer indexing,
zero-size results, NumPy's errors, and autograd through indexing
(Note [NumPy indexing over the legacy machinery])."""
import numpy as onp
import pytest

import weft
from weft import np

HOST = onp.arange(60, dtype=onp.float32).reshape(3, 4, 5)

KEYS = [
    1, -1, (1, 2), (1, 2, 3), (-1, -2, -5), slice(1, 3), slice(None, None, -1), (slice(None), 2),
    (Ellipsis, 1), (1, Ellipsis), (None, 1), (1, None, slice(None), None), (slice(0, 3, 2), slice(None, None, 2)),
    (slice(1, 1),), (slice(5, 9),), (Ellipsis,), (), (slice(None), slice(3, 0, -1), 4),
    [0, 2], [[0, 1], [2, 2]], ([0, 2], [1, 3]), ([0, 2], slice(None), [4, 0]), (slice(None), [1, 3]),
    (1, [0, 3], slice(1, 4)), (Ellipsis, [0, -1]), onp.array([2, -3]), ([],), ([[0]], [[1], [2]]),
    onp.array([True, False, True]), (slice(None), onp.array([True, False, False, True])),
    HOST > 30, (HOST[:, :, 0] > 20), (1, onp.array([False, True, True, False]), [1, 2]),
]


def _ids(k):
    return repr(k).replace(" ", "")[:40]


@pytest.mark.parametrize("key", KEYS, ids=[_ids(k) for k in KEYS])
def test_getitem_matches_numpy(key):
    a = np.array(HOST)
    got = a[key]
    want = HOST[key]
    assert type(got) is np.ndarray
    assert got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_array_equal(got.asnumpy(), want)


@pytest.mark.parametrize("key", [k for k in KEYS if not isinstance(k, onp.ndarray) or k.dtype == onp.bool_],
                         ids=_ids)
def test_device_index_arrays(key):
    # index arrays given as weft arrays index as NumPy arrays do
    def dev(k):
        if isinstance(k, onp.ndarray):
            return np.array(k, dtype=k.dtype)
        if isinstance(k, list):
            return np.array(k, dtype="int32")
        return k
    dkey = tuple(dev(k) for k in key) if isinstance(key, tuple) else dev(key)
    got = np.array(HOST)[dkey]
    onp.testing.assert_array_equal(got.asnumpy(), HOST[key])
    assert got.shape == HOST[key].shape


def test_integer_indexing_gives_0d_arrays():
    a = np.array([1.0, 2.0, 3.0])
    x = a[1]
    assert type(x) is np.ndarray and x.shape == () and x.ndim == 0 and x.size == 1
    assert float(x) == 2.0 and x.item() == 2.0
    m = np.array(HOST)
    assert m[1, 2, 3].shape == () and m[1, 2, 3].item() == HOST[1, 2, 3]
    z = np.array(5.0)
    assert z[()].shape == () and z[...].shape == () and z[None].shape == (1,)
    assert [v.shape for v in np.arange(3)] == [(), (), ()]


def test_zero_size():
    e = np.zeros((0, 3))
    assert e[:, 1].shape == (0,) and e[..., None].shape == (0, 3, 1)
    assert np.array(HOST)[[]].shape == (0, 4, 5)
    assert np.array(HOST)[HOST > 1000].shape == (0,)


SET_KEYS = [1, (1, 2), (1, 2, 3), slice(0, 2), (slice(None), 1), (slice(None, None, 2), slice(1, 4, 2), -1),
            (Ellipsis, 2), [0, 2], ([0, 2], [1, 3]), ([0, 1], slice(None), [4, 0]), HOST > 40,
            (slice(None), onp.array([True, False, True, False]))]


@pytest.mark.parametrize("key", SET_KEYS, ids=[_ids(k) for k in SET_KEYS])
@pytest.mark.parametrize("kind", ["scalar", "array", "numpy", "broadcast"])
def test_setitem_matches_numpy(key, kind):
    want = HOST.copy()
    shape = want[key].shape
    if kind == "scalar":
        value = -7.5
    elif kind == "broadcast":
        value = onp.arange(shape[-1], dtype=onp.float32) + 100 if shape else onp.float32(100)
    else:
        value = onp.arange(int(onp.prod(shape)), dtype=onp.float32).reshape(shape) + 100
    want[key] = value
    a = np.array(HOST)
    a[key] = np.array(value) if kind == "array" else value
    onp.testing.assert_array_equal(a.asnumpy(), want)


def test_setitem_converts_dtype_and_writes_through_views():
    a = np.zeros((2, 3), dtype="int32")
    a[0] = 2.7
    a[1, :] = np.array([1.0, 2.0, 3.0], dtype="float64")
    onp.testing.assert_array_equal(a.asnumpy(), [[2, 2, 2], [1, 2, 3]])
    v = a.reshape(-1)
    v[5] = 9
    assert a.asnumpy()[1, 2] == 9
    b = np.zeros((2, 2))
    b[:] = np.array(3.0)  # a 0-d value broadcasts
    onp.testing.assert_array_equal(b.asnumpy(), onp.full((2, 2), 3))


ERRORS = [
    (IndexError, "__getitem__: index 3 is out of bounds", lambda a: a[3]),
    (IndexError, "__getitem__: index -4 is out of bounds", lambda a: a[-4]),
    (IndexError, "__getitem__: too many indices", lambda a: a[0, 0, 0, 0]),
    (IndexError, "__getitem__: index 9 is out of bounds", lambda a: a[[0, 9]]),
    (IndexError, "__getitem__: index 9 is out of bounds", lambda a: a[np.array([0, 9], dtype="int32")]),
    (IndexError, "__getitem__: boolean index did not match", lambda a: a[onp.array([True, False])]),
    (IndexError, "__getitem__", lambda a: a[([0, 1], [0, 1, 2])]),
    (IndexError, "__getitem__", lambda a: a[1.5]),
    (IndexError, "__getitem__", lambda a: a["x"]),
    (IndexError, "__getitem__", lambda a: a[..., ...]),
    (IndexError, "__getitem__: arrays used as indices must be of integer", lambda a: a[onp.array([0.5])]),
    (IndexError, "__setitem__: index 3 is out of bounds", lambda a: a.__setitem__(3, 1.0)),
    (ValueError, "__setitem__: could not broadcast a value of shape \\(3,\\)", lambda a: a.__setitem__(0, [1, 2, 3])),
    (ValueError, "__setitem__: could not broadcast", lambda a: a.__setitem__([0, 1], np.zeros((3, 4, 5)))),
    (TypeError, "only integer scalar arrays", lambda a: [0, 1][a[0, 0]]),
    (TypeError, "len\\(\\) of unsized", lambda a: len(a[0, 0, 0])),
    (TypeError, "iteration over a 0-d", lambda a: iter(a[0, 0, 0]).__next__()),
    (ValueError, "ambiguous", lambda a: bool(a)),
    (ValueError, "item: can only convert an array of size 1", lambda a: a.item()),
    (TypeError, "only size-1 arrays", lambda a: float(a[0])),
]


@pytest.mark.parametrize("exc,msg,call", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors(exc, msg, call):
    a = np.array(HOST)
    with pytest.raises(exc, match=msg):
        call(a)


GRAD_KEYS = [1, (1, 2, 3), (slice(None), slice(1, 3)), (slice(None, None, -2), 0), [0, 2, 2], ([0, 2], [1, 3]),
             HOST > 30, (slice(None), onp.array([True, False, True, True])), (Ellipsis, None, [4, 0])]


@pytest.mark.parametrize("key", GRAD_KEYS, ids=[_ids(k) for k in GRAD_KEYS])
def test_autograd_through_indexing(key):
    x = np.array(HOST, dtype="float64")
    x.attach_grad()
    w = onp.random.RandomState(1).uniform(-1, 1, HOST[key].shape)
    with weft.autograd.record():
        y = x[key]
    y.backward(np.array(w, dtype="float64"))
    want = onp.zeros(HOST.shape)
    onp.add.at(want, key, w)  # the adjoint of indexing: scatter-add (repeated indices accumulate)
    assert type(x.grad) is np.ndarray
    onp.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-12)


def test_python_protocol():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert len(a) == 2 and [r.shape for r in a] == [(2,), (2,)]
    assert bool(np.array([3.0])) is True and bool(np.array(0.0)) is False
    assert int(np.array(7.9)) == 7 and float(np.array([2.5])) == 2.5
    assert [10, 20, 30][np.array(2, dtype="int64")] == 30
    assert onp.asarray(a).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert onp.array(a, dtype=onp.int64).dtype == onp.int64
    assert a.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert a.item(3) == 4.0 and a.item((1, 0)) == 3.0
    assert a[1, 1].asscalar() == onp.float32(4.0)
