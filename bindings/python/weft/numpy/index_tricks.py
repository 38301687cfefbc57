"""``weft.np.unravel_index`` and ``weft.np.diag_indices_from`` (MXNet 1.9.1's,
issue 37 point 3): index arrays built from existing registry ops.

``unravel_index`` runs the legacy ``_unravel_index`` op (the same row-major
rule; MXNet 1.9.1 itself runs this function as a host fallback,
``_npi.unravel_index_fallback``), ``diag_indices_from`` is ``_arange``."""
# pylint: disable=invalid-name
import numbers
import operator

import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.creation import arange as _nd_arange
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["unravel_index", "diag_indices_from"]


def _shape_arg(func, shape):
    """shape as a tuple of non-negative ints, else TypeError/ValueError naming func."""
    dims = (shape,) if isinstance(shape, numbers.Integral) else shape
    try:
        dims = tuple(operator.index(d) for d in dims)
    except TypeError:
        raise ArgumentTypeError("%s: argument 'shape' must be an int or a tuple of ints, got %r"
                                % (func, shape)) from None
    if any(d < 0 for d in dims):
        raise ValueError("%s: argument 'shape' has a negative dimension: %r" % (func, dims))
    return dims


def unravel_index(indices, shape, order='C'):
    """The multi-indices into an array of ``shape`` of the flat (row-major)
    ``indices``: a tuple of ``len(shape)`` int64 arrays of ``indices``' shape
    (NumPy's ``numpy.unravel_index``).

    As in MXNet 1.9.1: a Python int ``indices`` is answered by official NumPy,
    ``order='F'`` raises NotImplementedError, and array indices are not
    bounds-checked (an index past ``prod(shape)`` wraps in the first dimension).
    Bad input: TypeError for non-integer indices or shape."""
    if order not in ('C', 'F'):
        raise ValueError("unravel_index: argument 'order' must be 'C' or 'F', got %r" % (order,))
    if order == 'F':
        raise NotImplementedError("unravel_index: column-major order 'F' is not supported (as in MXNet 1.9.1)")
    dims = _shape_arg("unravel_index", shape)
    if isinstance(indices, numbers.Integral):
        return onp.unravel_index(indices, dims)
    if not isinstance(indices, NDArray):
        raise ArgumentTypeError("unravel_index: argument 'indices' must be a weft.np.ndarray or an int, got %s"
                                % type(indices).__name__)
    if onp.dtype(indices.dtype).kind not in "iu":
        raise ArgumentTypeError("unravel_index: argument 'indices' must hold integers, got dtype %s"
                                % indices.dtype)
    if not dims:
        raise ValueError("unravel_index: argument 'shape' must have at least one dimension")
    flat = _invoke("Reshape", [indices], shape=(-1,))
    rows = _invoke("_unravel_index", [flat], shape=dims)  # (ndim, N), indices' dtype
    if rows.dtype != onp.int64:
        rows = _invoke("Cast", [rows], dtype="int64")
    if len(dims) == 1:
        parts = [_invoke("Reshape", [rows], shape=(-1,))]
    else:
        parts = _invoke("SliceChannel", [rows], num_outputs=len(dims), axis=0, squeeze_axis=True)
    if indices.ndim == 1:
        return tuple(parts)
    # reshape_like: Reshape reads a 0 in its target as "keep this dimension" (MXNet's rule)
    return tuple(_invoke("reshape_like", [p, indices]) for p in parts)


def diag_indices_from(arr):
    """The indices of the main diagonal of ``arr`` (at least 2-d, every
    dimension of one length): a tuple of ``arr.ndim`` int64 arrays, each
    ``arange(n)`` (NumPy's ``numpy.diag_indices_from``; the same array
    object ``arr.ndim`` times, as NumPy returns it)."""
    if not isinstance(arr, NDArray):
        raise ArgumentTypeError("diag_indices_from: argument 'arr' must be a weft.np.ndarray, got %s"
                                % type(arr).__name__)
    if arr.ndim < 2:
        raise ValueError("diag_indices_from: input array must be at least 2-d, got %d-d" % arr.ndim)
    n = arr.shape[0]
    if any(d != n for d in arr.shape):
        raise ValueError("diag_indices_from: all dimensions of input must be of equal length, got shape %s"
                         % (arr.shape,))
    idx = _nd_arange(0, n, ctx=arr.context, dtype="int64").as_np_ndarray()
    return (idx,) * arr.ndim
