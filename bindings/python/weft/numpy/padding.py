"""``weft.np.pad`` (MXNet 1.9.1's ``mxnet.numpy.pad``, issue 37 point 3): the
registry op ``_npi_pad`` (MXNet's registered name), the pads filled axis by
axis as NumPy does (Note [Pad axis by axis, as NumPy] in
core/op/shape/np_pad_rules.h)."""
# pylint: disable=invalid-name
import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["pad"]

_MODES = ("constant", "edge", "reflect", "symmetric", "maximum", "minimum")  # the op's `mode` enum


def pad(x, pad_width, mode="constant", **kwargs):
    """``x`` padded by ``pad_width`` (an int, a (before, after) pair, or one
    pair per axis) in ``mode``: constant (``constant_values``, default 0), edge,
    reflect, symmetric, maximum, minimum (NumPy's ``numpy.pad``).

    As in MXNet 1.9.1, NumPy's other modes (wrap, mean, median, linear_ramp,
    empty, a function), ``stat_length``, per-side ``constant_values`` and
    ``reflect_type='odd'`` raise NotImplementedError. The gradient covers
    constant, edge, reflect and symmetric. Bad input: TypeError for a
    non-array ``x`` or non-integer widths, ValueError for negative widths or
    a shape that does not broadcast to (ndim, 2)."""
    if not isinstance(x, NDArray):
        raise ArgumentTypeError("pad: argument 'x' must be a weft.np.ndarray, got %s" % type(x).__name__)
    if not isinstance(mode, str) or mode not in _MODES:
        raise NotImplementedError("pad: mode %r is not supported (constant, edge, reflect, symmetric, maximum, "
                                  "minimum are)" % (mode,))
    constant = kwargs.pop("constant_values", 0)
    reflect_type = kwargs.pop("reflect_type", "even")
    stat_length = kwargs.pop("stat_length", None)
    if kwargs:
        raise TypeError("pad: unexpected keyword argument(s) %s" % sorted(kwargs))
    if stat_length is not None:
        raise NotImplementedError("pad: argument 'stat_length' is not supported (the whole axis is used)")
    if reflect_type != "even":
        raise NotImplementedError("pad: reflect_type %r is not supported ('even' is)" % (reflect_type,))
    if onp.ndim(constant) != 0:
        raise NotImplementedError("pad: argument 'constant_values' must be one number (per-side values are not "
                                  "supported)")
    widths = onp.asarray(pad_width)
    if widths.dtype.kind not in "iu":
        raise ArgumentTypeError("pad: argument 'pad_width' must hold integers, got %r" % (pad_width,))
    if (widths < 0).any():
        raise ValueError("pad: argument 'pad_width' must be non-negative, got %r" % (pad_width,))
    try:
        widths = onp.broadcast_to(widths, (x.ndim, 2))
    except ValueError:
        raise ValueError("pad: argument 'pad_width' of shape %s cannot be broadcast to (%d, 2)"
                         % (widths.shape, x.ndim)) from None
    text = "(" + ", ".join("(%d, %d)" % (int(b), int(a)) for b, a in widths) + ")"
    return _invoke("_npi_pad", [x], pad_width=text, mode=mode, constant_values=float(constant),
                   reflect_type="even")
