"""Shape functions of ``weft.np`` that reorder elements: ``transpose``,
``swapaxes``, ``moveaxis``, ``rollaxis``, ``flip``/``fliplr``/``flipud``,
``rot90`` and ``roll``.

Each runs registry ops (transpose, reverse, slice, Concat), so autograd
records them; the results are new arrays, not views (MXNet's np does the same).
Zero-size inputs never reach an op: their result is an empty array of the
right shape.
"""
# pylint: disable=protected-access,invalid-name
from . import _args
from ._array import _invoke, _np
from .creation import _as_ndarray, zeros

__all__ = ["transpose", "swapaxes", "moveaxis", "rollaxis", "flip", "fliplr", "flipud", "rot90", "roll"]


def _permute(a, axes):
    axes = tuple(axes)
    shape = tuple(a.shape[i] for i in axes)
    if a.size == 0:
        return zeros(shape, dtype=a.dtype, ctx=a.context)
    if axes == tuple(range(a.ndim)):
        return _invoke("_copyto", [a])
    return _invoke("transpose", [a], axes=axes)


def transpose(a, axes=None):
    """a with its axes permuted (reversed when axes is None)."""
    a = _as_ndarray(a, "transpose")
    n = a.ndim
    if axes is None:
        return _permute(a, range(n - 1, -1, -1))
    if len(axes) != n:
        raise ValueError("transpose: argument axes %s don't match array of dimension %d" % (tuple(axes), n))
    return _permute(a, _args.norm_axes(axes, n, "transpose", "axes"))


def swapaxes(a, axis1, axis2):
    """a with axes axis1 and axis2 interchanged."""
    a = _as_ndarray(a, "swapaxes")
    i = _args.norm_axis(axis1, a.ndim, "swapaxes", "axis1")
    j = _args.norm_axis(axis2, a.ndim, "swapaxes", "axis2")
    order = list(range(a.ndim))
    order[i], order[j] = order[j], order[i]
    return _permute(a, order)


def moveaxis(a, source, destination):
    """a with the axes in source moved to the positions in destination (ints or sequences)."""
    a = _as_ndarray(a, "moveaxis")
    n = a.ndim
    src = _args.norm_axes(source, n, "moveaxis", "source")
    dst = _args.norm_axes(destination, n, "moveaxis", "destination")
    if len(src) != len(dst):
        raise ValueError("moveaxis: arguments source and destination must have the same number of elements")
    order = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _permute(a, order)


def rollaxis(a, axis, start=0):
    """a with axis rolled back until it lies before position start (NumPy's rollaxis)."""
    a = _as_ndarray(a, "rollaxis")
    n = a.ndim
    axis = _args.norm_axis(axis, n, "rollaxis")
    start = _args.index(start, "rollaxis", "start")
    if not -n <= start <= n:
        raise _args.AxisError("rollaxis: argument start %d is out of bounds for array of dimension %d"
                              % (start, n))
    if start < 0:
        start += n
    if axis < start:
        start -= 1
    order = [i for i in range(n) if i != axis]
    order.insert(start, axis)
    return _permute(a, order)


def flip(m, axis=None):
    """m with the order of elements reversed along axis (an int, a tuple, or all axes)."""
    m = _as_ndarray(m, "flip", "m")
    axes = tuple(range(m.ndim)) if axis is None else _args.norm_axes(axis, m.ndim, "flip")
    if m.size == 0 or not axes:
        return zeros(m.shape, dtype=m.dtype, ctx=m.context) if m.size == 0 else _invoke("_copyto", [m])
    return _invoke("reverse", [m], axis=axes)


def fliplr(m):
    """m flipped along axis 1 (m must have at least 2 axes)."""
    m = _as_ndarray(m, "fliplr", "m")
    if m.ndim < 2:
        raise ValueError("fliplr: argument m must be at least 2-d, got %d-d" % m.ndim)
    return flip(m, 1)


def flipud(m):
    """m flipped along axis 0 (m must have at least 1 axis)."""
    m = _as_ndarray(m, "flipud", "m")
    if m.ndim < 1:
        raise ValueError("flipud: argument m must be at least 1-d, got 0-d")
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1)):
    """m rotated by 90 degrees k times in the plane of axes (from the first axis towards the second)."""
    m = _as_ndarray(m, "rot90", "m")
    k = _args.index(k, "rot90", "k")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("rot90: argument axes must hold 2 axes, got %d" % len(axes))
    a0, a1 = (_args.norm_axis(x, m.ndim, "rot90", "axes") for x in axes)
    if a0 == a1:
        raise ValueError("rot90: argument axes must be different, got %s" % (axes,))
    k %= 4
    if k == 0:
        return flip(m, ())
    if k == 2:
        return flip(m, (a0, a1))
    order = list(range(m.ndim))
    order[a0], order[a1] = order[a1], order[a0]
    if k == 1:
        return _permute(flip(m, a1), order)
    return flip(_permute(m, order), a1)


def _slice_axis(a, axis, begin, end):
    b = [None] * a.ndim
    e = [None] * a.ndim
    b[axis], e[axis] = begin, end
    return _invoke("slice", [a], begin=tuple(b), end=tuple(e))


def roll(a, shift, axis=None):
    """a with its elements shifted by shift along axis (elements leaving one
    end come back at the other; the flattened array when axis is None)."""
    a = _as_ndarray(a, "roll")
    if axis is None:
        flat = _np(a._view((a.size,)))
        return _np(roll(flat, shift, 0)._view(a.shape))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    if len(axes) != len(shifts):
        raise ValueError("roll: arguments shift and axis must have the same length (%d and %d)"
                         % (len(shifts), len(axes)))
    total = [0] * a.ndim
    for ax, s in zip(axes, shifts):
        total[_args.norm_axis(ax, a.ndim, "roll")] += _args.index(s, "roll", "shift")
    res = a
    if a.size == 0:
        return zeros(a.shape, dtype=a.dtype, ctx=a.context)
    for ax, s in enumerate(total):
        n = a.shape[ax]
        s %= n
        if s:
            parts = [_slice_axis(res, ax, n - s, n), _slice_axis(res, ax, 0, n - s)]
            res = _invoke("Concat", parts, dim=ax, num_args=2)
    return _invoke("_copyto", [res]) if res is a else res
