"""weft.np's array type (issue 37; Note [One array, two classes] in
weft/numpy/_array.py): the module paths MXNet scripts import, the no-copy
conversions between the two classes, and op outputs re-classed as np arrays."""
import importlib

import numpy as onp

import weft
from weft.numpy._array import _invoke


def test_module_paths_are_mxnets():
    assert weft.np is weft.numpy and weft.npx is weft.numpy_extension
    assert importlib.import_module("weft.np") is weft.numpy
    assert importlib.import_module("weft.npx") is weft.numpy_extension
    from weft import np, npx  # noqa: F401  (as `from mxnet import np, npx`)
    assert np.ndarray.__module__ == "weft.numpy._array"


def test_conversions_share_memory_both_ways():
    x = weft.nd.array([1.0, 2.0, 3.0])
    y = x.as_np_ndarray()
    assert type(y) is weft.np.ndarray and isinstance(y, weft.nd.NDArray)
    z = y.as_nd_ndarray()
    assert type(z) is weft.nd.NDArray
    assert y.as_np_ndarray() is y
    z[:] = 7  # a write through one object shows through the others
    onp.testing.assert_array_equal(x.asnumpy(), [7, 7, 7])
    onp.testing.assert_array_equal(y.asnumpy(), [7, 7, 7])
    del x, z  # the chunk lives while any object holds it
    onp.testing.assert_array_equal(y.asnumpy(), [7, 7, 7])


def test_op_outputs_are_np_arrays():
    a = weft.nd.array([[1.0, 2.0], [3.0, 4.0]]).as_np_ndarray()
    b = _invoke("transpose", [a])
    assert type(b) is weft.np.ndarray
    onp.testing.assert_array_equal(b.asnumpy(), [[1, 3], [2, 4]])
    parts = _invoke("SliceChannel", [a], num_outputs=2, axis=0)
    assert [type(p) for p in parts] == [weft.np.ndarray] * 2
    out = weft.nd.zeros((2, 2))
    assert _invoke("transpose", [a], out=out) is out


def test_repr_is_numpys():
    a = weft.nd.array([1.0, 2.5]).as_np_ndarray()
    assert repr(a) == repr(onp.array([1.0, 2.5], dtype=onp.float32))
    assert str(a) == str(onp.array([1.0, 2.5], dtype=onp.float32))


def test_invoke_refuses_non_arrays():
    import pytest
    with pytest.raises(weft.ArgumentTypeError, match="transpose: input 0 must be an array, got list"):
        _invoke("transpose", [[1, 2]])
