"""``weft.np.delete`` and ``weft.np.insert`` (MXNet 1.9.1's, issue 37 point
3), composed from the registry ops ``take`` (and ``Concat``, ``broadcast_to``).

Note [Delete as a gather]
Which positions along the axis survive depends only on the axis length and
``obj``, never on the array's values: NumPy's own ``delete`` run on the host
over ``arange(n)`` gives them (with NumPy's rules and errors for ints,
negative indices, slices, sequences and boolean masks), and ``take`` gathers
them on the array's device, differentiably. An ``obj`` given as a
``weft.np.ndarray`` is read back to the host first. (MXNet 1.9.1's
``_npi_delete`` is a registry op too, core/op/index/np_delete.cc, so graphs
MXNet saved with it load; it has no gradient and reads a bool obj as the
integers 0/1, so this function keeps the differentiable gather and NumPy's
meaning.)

Note [Insert as a gather]
``insert`` is the same idea run the other way: the inserted block (``values``
shaped as NumPy shapes it: one new slice per index of a sequence ``obj``, or
``values``' own slices for a scalar ``obj``) is concatenated after ``arr``
along the axis, and NumPy's ``insert`` over ``arange(n)`` with the block's
positions ``arange(n, n + k)`` as the values says where every slice of the
result comes from; ``take`` gathers them. Gradients reach both ``arr`` and an
array ``values``. (MXNet's ``_npi_insert_scalar/_slice/_tensor`` are registry
ops too, core/op/index/np_insert.cc, for MXNet's graphs; MXNet gives them no
gradient, so this function keeps the differentiable gather.)"""
# pylint: disable=invalid-name
import operator

import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["delete", "insert"]

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


def _axis_of(func, arr, axis):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise ArgumentTypeError("%s: argument 'axis' must be an integer or None, got %s"
                                % (func, type(axis).__name__)) from None
    if not -arr.ndim <= axis < arr.ndim:
        raise _AxisError(axis, arr.ndim, "%s: argument 'axis'" % func)
    return axis % arr.ndim


def _block(values, arr, axis, scalar_obj, k_seq):
    """values as the (.., k, ..) block NumPy inserts, on arr's device in arr's dtype; returns (block, k)."""
    if isinstance(values, NDArray):
        v = values if values.dtype == arr.dtype else _invoke("Cast", [values], dtype=onp.dtype(arr.dtype).name)
        vshape = values.shape
    else:
        host = onp.asarray(values)
        if host.dtype.kind not in "biuf":
            raise ArgumentTypeError("insert: argument 'values' must be numbers or a weft.np.ndarray, got %r"
                                    % (values,))
        v = _nd_array(host.astype(arr.dtype), ctx=arr.context, dtype=arr.dtype).as_np_ndarray()
        vshape = host.shape
    if len(vshape) > arr.ndim:
        raise ValueError("insert: argument 'values' has %d dimensions, more than 'arr' (%d)"
                         % (len(vshape), arr.ndim))
    if scalar_obj:
        # NumPy: array(values, ndmin=arr.ndim), then its first axis moved to `axis`
        nd_shape = (1,) * (arr.ndim - len(vshape)) + tuple(vshape)
        v = _invoke("Reshape", [v], shape=nd_shape) if nd_shape != tuple(vshape) and 0 not in nd_shape else v
        order = list(range(1, arr.ndim))
        order.insert(axis, 0)
        if order != list(range(arr.ndim)) and 0 not in nd_shape:
            v = _invoke("transpose", [v], axes=tuple(order))
        moved = tuple(nd_shape[i] for i in order)
        k = moved[axis]
    else:
        moved = (1,) * (arr.ndim - len(vshape)) + tuple(vshape)
        k = k_seq
    target = tuple(k if i == axis else arr.shape[i] for i in range(arr.ndim))
    for have, want in zip(moved, target):
        if have not in (1, want):
            raise ValueError("insert: argument 'values' of shape %s cannot be broadcast to %s"
                             % (tuple(vshape), target))
    if 0 in target:
        return _invoke("_zeros", [], shape=target, dtype=onp.dtype(arr.dtype).name, ctx=str(arr.context)), k
    if moved != target:
        if tuple(v.shape) != moved:
            v = _invoke("Reshape", [v], shape=moved)
        v = _invoke("broadcast_to", [v], shape=target)
    return v, k


def insert(arr, obj, values, axis=None):
    """``arr`` with ``values`` inserted before the index or indices ``obj``
    along ``axis`` (flattened first when ``axis`` is None), NumPy's
    ``numpy.insert`` (Note [Insert as a gather]).

    ``obj``: an int, a slice or a sequence of ints (or a ``weft.np.ndarray``
    of them); ``values`` is cast to ``arr``'s dtype. Bad input: TypeError for
    a non-array ``arr`` or an ``obj`` of another kind, IndexError for an index
    out of range, ValueError for ``values`` that do not broadcast."""
    if not isinstance(arr, NDArray):
        raise ArgumentTypeError("insert: argument 'arr' must be a weft.np.ndarray, got %s" % type(arr).__name__)
    if axis is None:
        arr = _invoke("Reshape", [arr], shape=(-1,))
        axis = 0
    else:
        axis = _axis_of("insert", arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, NDArray):
        obj = obj.asnumpy()
    if isinstance(obj, slice):
        idx = onp.arange(*obj.indices(n))
        scalar_obj = False
    else:
        idx = onp.asarray(obj)
        if idx.dtype.kind == "b" or (idx.dtype.kind not in "iu" and not (idx.size == 0 and idx.dtype.kind == "f")):
            raise ArgumentTypeError("insert: argument 'obj' must be an int, a slice or integers, got %r" % (obj,))
        idx = idx.astype(onp.int64)
        scalar_obj = idx.ndim == 0
        if idx.ndim > 1:
            raise ValueError("insert: argument 'obj' must be a scalar or a 1-D sequence, got %d-D" % idx.ndim)
    block, k = _block(values, arr, axis, scalar_obj, idx.size)
    host_values = onp.arange(n, n + k, dtype=onp.int64)
    try:
        where = onp.insert(onp.arange(n, dtype=onp.int64), int(idx) if scalar_obj else idx,
                           host_values if not scalar_obj or k != 1 else host_values[0])
    except IndexError as e:
        raise IndexError("insert: argument 'obj': %s" % e) from None
    both = _invoke("Concat", [arr, block], dim=axis, num_args=2)
    return _invoke("take", [both, _nd_array(where, ctx=arr.context, dtype="int64")], axis=axis)
