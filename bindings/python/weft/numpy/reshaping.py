"""Shape functions of ``weft.np`` that keep the element order: ``reshape``,
``ravel``, ``expand_dims``, ``squeeze``, ``atleast_*d``, ``broadcast_to``,
``broadcast_arrays``, ``resize``; the queries ``ndim``, ``shape``, ``size``;
and ``shares_memory``/``may_share_memory``.

reshape, ravel, expand_dims, squeeze and atleast_*d return views (the same
memory and engine variable, as NumPy's views), recorded by autograd like any
op. Shapes follow NumPy, not MXNet's legacy ops: squeezing every axis gives a
0-d array, and reshape knows only -1 (0 is a zero-length axis, not "copy").
"""
# pylint: disable=protected-access,redefined-builtin,invalid-name
import math

import numpy as _onp

from ..base import ArgumentTypeError
from ..context import Context
from . import _args
from ._array import _invoke, _np, ndarray
from .creation import _as_ndarray, _broadcast_value, zeros

__all__ = ["reshape", "ravel", "expand_dims", "squeeze", "atleast_1d", "atleast_2d", "atleast_3d",
           "broadcast_to", "broadcast_arrays", "resize", "ndim", "shape", "size", "may_share_memory",
           "shares_memory"]


def _view(a, shape):
    return _np(a._view(tuple(shape)))


def _check_c_order(order, func):
    if order not in ("C", None):
        raise NotImplementedError("%s: argument order: only 'C' order is supported, got %r" % (func, order))


def infer_shape(size, newshape, func):
    """newshape (ints, at most one -1) resolved for an array of size elements."""
    newshape = (newshape,) if isinstance(newshape, (int, _onp.integer)) else newshape
    try:
        dims = [_args.index(d, func, "newshape") for d in newshape]
    except ArgumentTypeError:
        raise
    except TypeError:
        raise ArgumentTypeError("%s: argument newshape must be an int or a sequence of ints, got %r"
                                % (func, newshape)) from None
    unknown = [i for i, d in enumerate(dims) if d == -1]
    if len(unknown) > 1:
        raise ValueError("%s: can only specify one unknown dimension (-1), got %s" % (func, tuple(dims)))
    if any(d < -1 for d in dims):
        raise ValueError("%s: negative dimensions other than -1 are not allowed, got %s" % (func, tuple(dims)))
    known = 1
    for d in dims:
        if d != -1:
            known *= d
    if unknown:
        if known == 0 or size % known:
            raise ValueError("%s: cannot reshape array of size %d into shape %s" % (func, size, tuple(dims)))
        dims[unknown[0]] = size // known
    elif known != size:
        raise ValueError("%s: cannot reshape array of size %d into shape %s" % (func, size, tuple(dims)))
    return tuple(dims)


def reshape(a, newshape, order="C"):
    """a with a new shape of the same size (a view; -1 infers one dimension)."""
    _check_c_order(order, "reshape")
    a = _as_ndarray(a, "reshape")
    return _view(a, infer_shape(a.size, newshape, "reshape"))


def ravel(x, order="C"):
    """x flattened to 1-D (a view)."""
    _check_c_order(order, "ravel")
    x = _as_ndarray(x, "ravel", "x")
    return _view(x, (x.size,))


def expand_dims(a, axis):
    """a with a new axis of length 1 at position axis (an int or a tuple, in
    the result's axes, as NumPy)."""
    a = _as_ndarray(a, "expand_dims")
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = a.ndim + len(axes)
    new = _args.norm_axes(axes, out_ndim, "expand_dims")
    it = iter(a.shape)
    return _view(a, [1 if i in new else next(it) for i in range(out_ndim)])


def squeeze(x, axis=None):
    """x without its axes of length 1 (all, or those in axis; ValueError for an
    axis whose length is not 1). Squeezing every axis gives a 0-d array."""
    x = _as_ndarray(x, "squeeze", "x")
    shape = x.shape
    if axis is None:
        return _view(x, [d for d in shape if d != 1])
    axes = _args.norm_axes(axis, len(shape), "squeeze")
    for ax in axes:
        if shape[ax] != 1:
            raise ValueError("squeeze: cannot select an axis to squeeze out which has size not equal to one "
                             "(axis %d has size %d)" % (ax, shape[ax]))
    return _view(x, [d for i, d in enumerate(shape) if i not in axes])


def _atleast(arys, n, func):
    out = []
    for a in arys:
        a = _as_ndarray(a, func, "arys")
        s = a.shape
        if len(s) < n:
            if n == 3 and len(s) == 2:
                s = s + (1,)
            elif n == 3 and len(s) == 1:
                s = (1,) + s + (1,)
            else:
                s = (1,) * (n - len(s)) + s
        out.append(_view(a, s))
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    """Each input viewed with at least one axis (a list for several inputs)."""
    return _atleast(arys, 1, "atleast_1d")


def atleast_2d(*arys):
    """Each input viewed with at least two axes ((n,) becomes (1, n))."""
    return _atleast(arys, 2, "atleast_2d")


def atleast_3d(*arys):
    """Each input viewed with at least three axes ((n,) becomes (1, n, 1), (m, n) becomes (m, n, 1))."""
    return _atleast(arys, 3, "atleast_3d")


def broadcast_to(array, shape):
    """array broadcast to shape by NumPy's rules (a new array: MXNet has no
    read-only views)."""
    a = _as_ndarray(array, "broadcast_to", "array")
    return _broadcast_value(a, _args.shape_tuple(shape, "broadcast_to"), "broadcast_to")


def broadcast_shape(shapes, func):
    """The shape the shapes broadcast to (ValueError naming func when they do not)."""
    out = []
    for dims in zip(*[((1,) * (max(len(s) for s in shapes) - len(s)) + tuple(s)) for s in shapes]):
        big = {d for d in dims if d != 1}
        if len(big) > 1:
            raise ValueError("%s: shape mismatch: objects cannot be broadcast to a single shape: %s"
                             % (func, " ".join(str(tuple(s)) for s in shapes)))
        out.append(big.pop() if big else 1)
    return tuple(out)


def broadcast_arrays(*args):
    """The arrays broadcast against each other (a list of new arrays)."""
    arrs = [_as_ndarray(a, "broadcast_arrays", "args") for a in args]
    if not arrs:
        return []
    target = broadcast_shape([a.shape for a in arrs], "broadcast_arrays")
    return [_broadcast_value(a, target, "broadcast_arrays") for a in arrs]


def resize(a, new_shape):
    """An array of new_shape filled with a's elements in order, repeated as
    often as needed (NumPy's resize; zeros when a is empty)."""
    a = _as_ndarray(a, "resize")
    shape = _args.shape_tuple(new_shape, "resize", "new_shape")
    total = math.prod(shape)
    if total == 0 or a.size == 0:
        return zeros(shape, dtype=a.dtype, ctx=a.context)
    flat = _view(a, (a.size,))
    reps = -(-total // a.size)
    if reps > 1:
        flat = _invoke("tile", [flat], reps=(reps,))
    if reps * a.size != total:
        flat = _invoke("slice", [flat], begin=(0,), end=(total,))
    return _view(flat, shape)


def ndim(a):
    """The number of axes of a (an array, or anything NumPy takes)."""
    return a.ndim if isinstance(a, ndarray) else _onp.ndim(a)


def shape(a):
    """The shape of a as a tuple."""
    return a.shape if isinstance(a, ndarray) else _onp.shape(a)


def size(a, axis=None):
    """The number of elements of a, or its length along axis."""
    if not isinstance(a, ndarray):
        return _onp.size(a, axis)
    if axis is None:
        return a.size
    return a.shape[_args.norm_axis(axis, a.ndim, "size")]


def _host_view(a):
    # A NumPy array over the same CPU memory (DLPack, no copy) for an exact overlap test.
    return _onp.from_dlpack(a)


def shares_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """True when a and b have an element in common in memory. Exact for CPU
    arrays (the byte ranges are compared through DLPack views); for other
    devices and dtypes NumPy cannot view, True when both are views of one
    memory chunk."""
    a = _as_ndarray(a, "shares_memory")
    b = _as_ndarray(b, "shares_memory", "b")
    if not a.shares_memory(b):
        return False
    if a.size == 0 or b.size == 0:
        return False
    cpu = Context("cpu")
    if a.context.device_type != cpu.device_type:
        return True
    try:
        ha, hb = _host_view(a), _host_view(b)
    except (BufferError, TypeError, ValueError, RuntimeError):  # a dtype NumPy cannot view (bfloat16)
        return True
    return bool(_onp.shares_memory(ha, hb))


def may_share_memory(a, b, max_work=None):  # pylint: disable=unused-argument
    """True when a and b are views of one memory chunk (NumPy's cheap, possibly
    over-cautious test)."""
    a = _as_ndarray(a, "may_share_memory")
    b = _as_ndarray(b, "may_share_memory", "b")
    return bool(a.shares_memory(b))
