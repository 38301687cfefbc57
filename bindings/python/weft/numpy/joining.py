"""Joining arrays in ``weft.np``: ``concatenate``, ``stack``, ``hstack``,
``vstack`` (``row_stack``), ``dstack``, ``column_stack`` and ``append``.

Shapes are checked here, so a mismatch is a ValueError naming the function;
inputs of different dtypes are joined in NumPy's result dtype; zero-size
inputs are left out of the op (Concat and stack take only non-empty arrays),
and an all-empty join is an empty array of the joined shape.
"""
# pylint: disable=protected-access,invalid-name
import numpy as _onp

from .. import dtypes as _dt
from . import _args
from ._array import _invoke, _np
from .creation import _as_ndarray, zeros
from .reshaping import atleast_1d, atleast_2d, atleast_3d

__all__ = ["concatenate", "stack", "hstack", "vstack", "row_stack", "dstack", "column_stack", "append"]


def _common_dtype(arrs):
    """The dtype all arrs are converted to (NumPy's result_type of theirs)."""
    return _onp.result_type(*[a.dtype for a in arrs]) if len({a.dtype for a in arrs}) > 1 else arrs[0].dtype


def _write_out(res, out, func):
    if out is None:
        return res
    if out.shape != res.shape:
        raise ValueError("%s: argument out has shape %s, the result %s" % (func, out.shape, res.shape))
    res.copyto(out)
    return out


def _arrays(seq, func, arg):
    if isinstance(seq, _onp.ndarray) or hasattr(seq, "handle"):
        seq = list(seq)
    arrs = [_as_ndarray(a, func, arg) for a in seq]
    if not arrs:
        raise ValueError("%s: need at least one array to join" % func)
    dt = _common_dtype(arrs)
    return [a if a.dtype == dt else _np(a.astype(_dt.name(_dt.flag(dt)))) for a in arrs]


def concatenate(seq, axis=0, out=None):
    """The arrays of seq joined along an existing axis (flattened first when axis is None)."""
    arrs = _arrays(seq, "concatenate", "seq")
    if axis is None:
        arrs = [_np(a._view((a.size,))) for a in arrs]
        axis = 0
    n = arrs[0].ndim
    if n == 0:
        raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
    ax = _args.norm_axis(axis, n, "concatenate")
    first = arrs[0].shape
    for i, a in enumerate(arrs):
        if a.ndim != n:
            raise ValueError("concatenate: all the input arrays must have the same number of dimensions, "
                             "but array 0 has %d and array %d has %d" % (n, i, a.ndim))
        if any(d != e for j, (d, e) in enumerate(zip(first, a.shape)) if j != ax):
            raise ValueError("concatenate: all the input array dimensions except for the concatenation axis "
                             "must match exactly, but array 0 has shape %s and array %d has shape %s"
                             % (first, i, a.shape))
    shape = list(first)
    shape[ax] = sum(a.shape[ax] for a in arrs)
    full = [a for a in arrs if a.size]
    if not full:
        res = zeros(tuple(shape), dtype=arrs[0].dtype, ctx=arrs[0].context)
    elif len(full) == 1:
        res = _invoke("_copyto", full)
    else:
        res = _invoke("Concat", full, dim=ax, num_args=len(full))
    return _write_out(res, out, "concatenate")


def stack(arrays, axis=0, out=None):
    """The arrays (all of one shape) joined along a new axis."""
    arrs = _arrays(arrays, "stack", "arrays")
    first = arrs[0].shape
    for i, a in enumerate(arrs):
        if a.shape != first:
            raise ValueError("stack: all input arrays must have the same shape, but array 0 has shape %s "
                             "and array %d has shape %s" % (first, i, a.shape))
    ax = _args.norm_axis(axis, len(first) + 1, "stack")
    shape = first[:ax] + (len(arrs),) + first[ax:]
    if arrs[0].size == 0:
        res = zeros(shape, dtype=arrs[0].dtype, ctx=arrs[0].context)
    else:
        res = _invoke("stack", arrs, axis=ax, num_args=len(arrs))
    return _write_out(res, out, "stack")


def _as_list(x):
    return x if isinstance(x, list) else [x]


def hstack(tup):
    """The arrays joined along axis 1 (axis 0 for 1-D arrays)."""
    arrs = _as_list(atleast_1d(*_arrays(tup, "hstack", "tup")))
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1)


def vstack(tup):
    """The arrays (1-D ones as rows) joined along axis 0."""
    return concatenate(_as_list(atleast_2d(*_arrays(tup, "vstack", "tup"))), 0)


row_stack = vstack


def dstack(tup):
    """The arrays joined along axis 2 (after atleast_3d)."""
    return concatenate(_as_list(atleast_3d(*_arrays(tup, "dstack", "tup"))), 2)


def column_stack(tup):
    """1-D arrays as columns (and 2-D arrays as they are) joined along axis 1."""
    arrs = _arrays(tup, "column_stack", "tup")
    cols = [_np(a._view((a.size, 1))) if a.ndim < 2 else a for a in arrs]
    return concatenate(cols, 1)


def append(arr, values, axis=None):
    """values appended to arr: both flattened when axis is None, else joined along axis."""
    return concatenate([arr, values], axis=axis)
