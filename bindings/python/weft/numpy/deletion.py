"""``weft.np.delete`` (MXNet 1.9.1's ``mxnet.numpy.delete``, issue 37 point
3), composed from the registry op ``take``.

Note [Delete as a gather]
Which positions along the axis survive depends only on the axis length and
``obj``, never on the array's values: NumPy's own ``delete`` run on the host
over ``arange(n)`` gives them (with NumPy's rules and errors for ints,
negative indices, slices, sequences and boolean masks), and ``take`` gathers
them on the array's device, differentiably. An ``obj`` given as a
``weft.np.ndarray`` is read back to the host first (MXNet 1.9.1's
``_npi_delete`` takes it as a tensor input; that op name is not declared
here, so a graph MXNet saved with it does not load)."""
# pylint: disable=invalid-name
import operator

import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["delete"]

# NumPy's AxisError (both a ValueError and an IndexError): numpy.exceptions
# since NumPy 1.25 (the only place in 2.x), the numpy namespace before.
_AxisError = getattr(onp, "exceptions", onp).AxisError


def delete(arr, obj, axis=None):
    """A copy of ``arr`` without the sub-arrays at ``obj`` along ``axis``
    (flattened first when ``axis`` is None), NumPy's ``numpy.delete``.

    ``obj``: an int, a slice, a sequence of ints or a boolean mask (or a
    ``weft.np.ndarray`` of them). Bad input: TypeError for a non-array ``arr``
    or an ``obj`` of another kind, IndexError for an index out of range,
    ValueError (numpy.AxisError) for an axis out of range."""
    if not isinstance(arr, NDArray):
        raise ArgumentTypeError("delete: argument 'arr' must be a weft.np.ndarray, got %s" % type(arr).__name__)
    if axis is None:
        arr = _invoke("Reshape", [arr], shape=(-1,))
        axis = 0
    else:
        try:
            axis = operator.index(axis)
        except TypeError:
            raise ArgumentTypeError("delete: argument 'axis' must be an integer or None, got %s"
                                    % type(axis).__name__) from None
        if not -arr.ndim <= axis < arr.ndim:
            raise _AxisError(axis, arr.ndim, "delete: argument 'axis'")
        axis %= arr.ndim
    if isinstance(obj, NDArray):
        obj = obj.asnumpy()
    elif not isinstance(obj, slice):
        host = onp.asarray(obj)
        if host.dtype.kind not in "biu" and not (host.size == 0 and host.dtype.kind == "f"):
            raise ArgumentTypeError("delete: argument 'obj' must be an int, a slice, integers or booleans, got %r"
                                    % (obj,))
        obj = host.astype(onp.intp) if host.dtype.kind == "f" else obj
    n = arr.shape[axis]
    try:
        kept = onp.delete(onp.arange(n, dtype=onp.int64), obj)
    except IndexError as e:
        raise IndexError("delete: argument 'obj': %s" % e) from None
    except ValueError as e:
        raise ValueError("delete: argument 'obj': %s" % e) from None
    idx = _nd_array(kept, ctx=arr.context, dtype="int64")
    return _invoke("take", [arr, idx], axis=axis)
