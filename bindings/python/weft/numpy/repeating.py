"""Repeating and picking elements in ``weft.np``: ``tile``, ``repeat`` and
``take``. All run registry ops (tile, repeat, take), so autograd records them.
"""
# pylint: disable=protected-access,invalid-name
import numpy as _onp

from ..ndarray.ndarray import NDArray
from . import _args
from ._array import _invoke, _np
from .creation import _as_ndarray, array, zeros

__all__ = ["tile", "repeat", "take"]


def tile(A, reps):
    """A repeated reps times along each axis (NumPy's rules for unequal lengths)."""
    a = _as_ndarray(A, "tile", "A")
    reps = (reps,) if isinstance(reps, (int, _onp.integer)) else tuple(reps)
    reps = tuple(_args.index(r, "tile", "reps") for r in reps)
    if any(r < 0 for r in reps):
        raise ValueError("tile: argument reps must be non-negative, got %s" % (reps,))
    d = max(len(reps), a.ndim)
    reps = (1,) * (d - len(reps)) + reps
    shape = (1,) * (d - a.ndim) + a.shape
    out_shape = tuple(s * r for s, r in zip(shape, reps))
    if 0 in out_shape:
        return zeros(out_shape, dtype=a.dtype, ctx=a.context)
    src = _np(a._view(shape)) if shape != a.shape else a
    if d == 0:
        return _invoke("_copyto", [src])
    return _invoke("tile", [src], reps=reps)


def repeat(a, repeats, axis=None):
    """Each element of a repeated after itself: repeats is an int, or one count
    per element along axis (a flattened a when axis is None)."""
    a = _as_ndarray(a, "repeat")
    if axis is None:
        a = _np(a._view((a.size,)))
        axis = 0
    if a.ndim == 0:
        a = _np(a._view((1,)))
    ax = _args.norm_axis(axis, a.ndim, "repeat")
    n = a.shape[ax]
    if isinstance(repeats, NDArray):
        repeats = repeats.asnumpy()
    counts = _onp.asarray(repeats)
    if counts.dtype.kind not in "iub":
        raise _args.ArgumentTypeError("repeat: argument repeats must hold integers, got dtype %s" % counts.dtype)
    if (counts < 0).any():
        raise ValueError("repeat: argument repeats may not contain negative values")
    if counts.ndim == 0 or counts.size == 1:
        r = int(counts.reshape(-1)[0])
        shape = list(a.shape)
        shape[ax] = n * r
        if r == 0 or a.size == 0:
            return zeros(tuple(shape), dtype=a.dtype, ctx=a.context)
        return _invoke("repeat", [a], repeats=r, axis=ax)
    if counts.ndim != 1 or counts.size != n:
        raise ValueError("repeat: argument repeats has %d counts for an axis of length %d" % (counts.size, n))
    idx = _onp.repeat(_onp.arange(n), counts)
    return take(a, array(idx, dtype="int64", ctx=a.context), axis=ax)


def take(a, indices, axis=None, mode="raise", out=None):
    """Elements of a at indices along axis (of the flattened a when axis is None).

    mode 'raise' (the default) refuses an index outside [-n, n) with an
    IndexError before anything runs (the indices are read on the host for
    that); 'wrap' wraps indices around, 'clip' clamps them to [0, n-1]."""
    a = _as_ndarray(a, "take")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError("take: argument mode must be 'raise', 'wrap' or 'clip', got %r" % (mode,))
    if axis is None:
        a = _np(a._view((a.size,)))
        axis = 0
    if a.ndim == 0:
        raise _args.AxisError("take: argument axis %s is out of bounds for array of dimension 0" % axis)
    ax = _args.norm_axis(axis, a.ndim, "take")
    n = a.shape[ax]
    host = indices.asnumpy() if isinstance(indices, NDArray) else _onp.asarray(indices)
    if host.dtype.kind not in "iu" and not (host.dtype.kind == "f" and isinstance(indices, NDArray)):
        if host.size or host.dtype.kind not in "f":
            raise IndexError("take: argument indices must be integers, got dtype %s" % host.dtype)
    shape = a.shape[:ax] + host.shape + a.shape[ax + 1:]
    if mode == "raise" and host.size and (host.min() < -n or host.max() >= n):
        bad = host[(host < -n) | (host >= n)].flat[0]
        raise IndexError("take: index %d is out of bounds for axis %d with size %d" % (bad, ax, n))
    if n == 0 and host.size:
        raise IndexError("take: cannot take from an empty axis %d" % ax)
    if 0 in shape:
        res = zeros(shape, dtype=a.dtype, ctx=a.context)
    else:
        if mode == "raise":
            host = _onp.where(host < 0, host + n, host)
            mode = "clip"
        idx = array(host.reshape(-1) if host.ndim == 0 else host, dtype="int64", ctx=a.context)
        res = _invoke("take", [a, idx], axis=ax, mode=mode)
        if host.ndim == 0:
            res = _np(res._view(shape))
    if out is not None:
        if out.shape != res.shape:
            raise ValueError("take: argument out has shape %s, the result %s" % (out.shape, res.shape))
        res.copyto(out)
        return out
    return res
