"""Argument checks shared by the ``weft.np`` functions.

Every error names the function and the argument and has NumPy's exception
type (``TypeError`` for a bad dtype or a non-integer, ``ValueError`` for a bad
shape, ``numpy.AxisError`` -- both a ``ValueError`` and an ``IndexError`` --
for an axis out of range), so code written against NumPy catches them.
"""
import operator

import numpy as _onp

from .. import dtypes as _dt
from ..base import ArgumentTypeError, DTypeError, ShapeError

# numpy.exceptions appeared in NumPy 1.25; numpy.AxisError left the top level in 2.0.
AxisError = getattr(getattr(_onp, "exceptions", None), "AxisError", None) or getattr(_onp, "AxisError")


def dtype_name(dtype, func, arg="dtype"):
    """The weft dtype name of dtype (anything weft.dtypes.flag accepts)."""
    try:
        return _dt.name(_dt.flag(dtype))
    except DTypeError as err:
        raise DTypeError("%s: argument %s: %s" % (func, arg, err)) from None


def index(v, func, arg):
    """v as a Python int (operator.index: no silent truncation of floats)."""
    try:
        return operator.index(v)
    except TypeError:
        raise ArgumentTypeError("%s: argument %s must be an integer, got %s"
                                % (func, arg, type(v).__name__)) from None


def shape_tuple(shape, func, arg="shape"):
    """shape (an int or a sequence of ints) as a tuple of non-negative ints."""
    if shape is None:
        return ()
    if isinstance(shape, (int, _onp.integer)):
        shape = (shape,)
    try:
        dims = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise ArgumentTypeError("%s: argument %s must be an int or a sequence of ints, got %r"
                                % (func, arg, shape)) from None
    if any(d < 0 for d in dims):
        raise ShapeError("%s: argument %s: negative dimensions are not allowed, got %s" % (func, arg, dims))
    return dims


def norm_axis(axis, ndim, func, arg="axis"):
    """axis in [-ndim, ndim) as a non-negative int."""
    a = index(axis, func, arg)
    if not -ndim <= a < ndim:
        raise AxisError("%s: argument %s: axis %d is out of bounds for array of dimension %d"
                        % (func, arg, a, ndim))
    return a + ndim if a < 0 else a


def norm_axes(axes, ndim, func, arg="axis"):
    """A tuple of distinct axes, each normalised by norm_axis."""
    if not isinstance(axes, (tuple, list)):
        axes = (axes,)
    out = tuple(norm_axis(a, ndim, func, arg) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError("%s: argument %s: repeated axis in %s" % (func, arg, tuple(axes)))
    return out
