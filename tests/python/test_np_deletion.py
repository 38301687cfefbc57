"""weft.np.delete (issue 37 point 3; weft/numpy/deletion.py, Note [Delete as
a gather]) against official NumPy: every kind of obj, axes, zero-size
results, bad input, and the gradient (zeros at the deleted positions)."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


OBJS = [1, -1, slice(1, 3), slice(None, None, 2), [0, 2], [2, 0, 2], [], onp.array([True, False, True]),
        slice(5, 9)]


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("obj", OBJS)
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_delete_matches_numpy(obj, axis, dtype):
    a = (onp.arange(9).reshape(3, 3) % 4).astype(dtype)
    if axis is None and isinstance(obj, onp.ndarray) and obj.dtype == bool:
        obj = onp.array([True, False, True] * 3)
    got = np.delete(_np(a), obj, axis=axis)
    want = onp.delete(a, obj, axis=axis)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_array_equal(got.asnumpy(), want)


def test_delete_obj_as_array_and_everything():
    a = onp.arange(12, dtype=onp.float32).reshape(3, 4)
    onp.testing.assert_array_equal(np.delete(_np(a), _np(onp.array([3, 1], onp.int64)), axis=1).asnumpy(),
                                   onp.delete(a, [3, 1], axis=1))
    assert np.delete(_np(a), slice(None), axis=0).shape == (0, 4)


def test_delete_bad_input():
    a = _np(onp.ones((2, 3), onp.float32))
    with pytest.raises(IndexError, match="delete: argument 'obj'"):
        np.delete(a, 5, axis=1)
    with pytest.raises(IndexError, match="delete: argument 'obj'"):
        np.delete(a, [0, -4], axis=1)
    with pytest.raises(ValueError, match="delete: argument 'axis'"):
        np.delete(a, 0, axis=2)
    with pytest.raises(IndexError, match="delete: argument 'axis'"):  # numpy's AxisError is an IndexError too
        np.delete(a, 0, axis=-3)
    with pytest.raises(TypeError, match="delete: argument 'obj' must be an int, a slice, integers or booleans"):
        np.delete(a, [0.5], axis=1)
    with pytest.raises(TypeError, match="delete: argument 'arr' must be a weft.np.ndarray, got list"):
        np.delete([1, 2], 0)
    with pytest.raises(TypeError, match="delete: argument 'axis' must be an integer or None, got str"):
        np.delete(a, 0, axis="1")


def test_delete_gradient_is_zero_where_deleted():
    a0 = onp.arange(6, dtype=onp.float64).reshape(2, 3)
    a = _np(a0)
    a.attach_grad()
    w = onp.array([[1.0, 2.0], [3.0, 4.0]])
    with weft.autograd.record():
        y = np.delete(a, 1, axis=1)
    y.backward(_np(w))
    onp.testing.assert_array_equal(a.grad.asnumpy(), [[1.0, 0.0, 2.0], [3.0, 0.0, 4.0]])


INSERTS = [
    (1, 9, None), (1, 9, 0), (-1, [7, 8, 9], 1), (0, [[1], [2], [3]], 1), (1, [[5, 6, 7]], 0), ([0, 2], 9, 1),
    ([2, 0, 2], [4, 5, 6], -1), (slice(0, 3, 2), [[1], [2], [3]], 1), (3, [1, 2], None), ([], 5, 0),
    (2, [[1, 2, 3], [4, 5, 6]], 1),
]


@pytest.mark.parametrize("obj,values,axis", INSERTS)
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_insert_matches_numpy(obj, values, axis, dtype):
    a = onp.arange(9).reshape(3, 3).astype(dtype)
    got = np.insert(_np(a), obj, values, axis=axis)
    want = onp.insert(a, obj, values, axis=axis)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_array_equal(got.asnumpy(), want)


def test_insert_array_values_obj_and_gradient():
    a0 = onp.arange(6, dtype=onp.float64).reshape(2, 3)
    v0 = onp.array([10.0, 20.0])
    a, v = _np(a0), _np(v0)
    a.attach_grad()
    v.attach_grad()
    with weft.autograd.record():
        y = np.insert(a, _np(onp.array([1, 3], onp.int64)), v, axis=1)
    want = onp.insert(a0, [1, 3], v0, axis=1)
    onp.testing.assert_array_equal(y.asnumpy(), want)
    w = onp.arange(want.size, dtype=onp.float64).reshape(want.shape)
    y.backward(_np(w))
    # result columns: a0, v0, a1, a2, v1; each element's gradient is w where it landed
    onp.testing.assert_array_equal(a.grad.asnumpy(), w[:, [0, 2, 3]])
    onp.testing.assert_array_equal(v.grad.asnumpy(), w[:, [1, 4]].sum(axis=0))  # v broadcast over the rows


def test_insert_bad_input():
    a = _np(onp.ones((2, 3), onp.float32))
    with pytest.raises(IndexError, match="insert: argument 'obj'"):
        np.insert(a, 5, 1.0, axis=1)
    with pytest.raises(ValueError, match="insert: argument 'values' of shape \\(2,\\) cannot be broadcast"):
        np.insert(a, [0, 1, 2], [1.0, 2.0], axis=1)
    with pytest.raises(TypeError, match="insert: argument 'obj' must be an int, a slice or integers"):
        np.insert(a, [True], 1.0, axis=1)
    with pytest.raises(TypeError, match="insert: argument 'arr' must be a weft.np.ndarray, got list"):
        np.insert([1, 2], 0, 1)
    with pytest.raises(ValueError, match="insert: argument 'axis'"):
        np.insert(a, 0, 1.0, axis=2)
