"""``weft.np.polyval`` and ``weft.np.interp`` (MXNet 1.9.1's, issue 37 point
3): the registry ops ``_npi_polyval`` (with its gradient for both arguments)
and ``_npi_interp``, under MXNet's registered names."""
# pylint: disable=invalid-name
import numbers

import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["polyval", "interp"]


def polyval(p, x):
    """Evaluates the polynomial with coefficients ``p`` (1-D, highest power
    first) at every element of ``x``: ``p[0] * x**(N-1) + ... + p[N-1]``.

    As in MXNet 1.9.1, ``p`` and ``x`` are both ``weft.np.ndarray`` (the result
    has ``x``'s shape; MXNet hands two numbers to NumPy, which refuses a
    scalar ``p`` with a TypeError, as this function does). Arrays
    of different dtypes are cast to NumPy's common type first (MXNet leaves
    that unstated; NumPy's rule is followed). Bad input: TypeError for mixed
    or bool arguments, ValueError for a ``p`` that is not 1-D."""
    if not (isinstance(p, NDArray) and isinstance(x, NDArray)):
        raise ArgumentTypeError("polyval: arguments 'p' and 'x' must both be weft.np.ndarray, "
                                "got %s and %s" % (type(p).__name__, type(x).__name__))
    if p.dtype != x.dtype:
        common = onp.result_type(p.dtype, x.dtype).name
        p = p if p.dtype == common else _invoke("Cast", [p], dtype=common)
        x = x if x.dtype == common else _invoke("Cast", [x], dtype=common)
    return _invoke("_npi_polyval", [p, x])


def _float_arg(func, name, value):
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ArgumentTypeError("%s: argument '%s' must be a real number or None, got %s"
                                % (func, name, type(value).__name__)) from None


def interp(x, xp, fp, left=None, right=None, period=None):
    """The one-dimensional piecewise linear interpolant of the points
    (``xp``, ``fp``) at ``x`` (NumPy's ``numpy.interp``): ``left``/``right``
    (default ``fp[0]``/``fp[-1]``) outside ``xp``'s range, ``period`` for
    periodic x-coordinates (then ``left``/``right`` are ignored).

    ``xp`` must be increasing (not checked, as in NumPy). The result is float64
    with ``x``'s shape, as NumPy's (MXNet leaves the dtype unstated; NumPy's
    rule is followed); a Python number ``x`` gives a 0-d array. Bad input:
    TypeError for non-array ``xp``/``fp``, ValueError for a ``period`` of 0,
    an empty or non-1-D ``xp`` or ``fp`` of another shape."""
    for name, v in (("xp", xp), ("fp", fp)):
        if not isinstance(v, NDArray):
            raise ArgumentTypeError("interp: argument '%s' must be a weft.np.ndarray, got %s"
                                    % (name, type(v).__name__))
    left, right, period = (_float_arg("interp", "left", left), _float_arg("interp", "right", right),
                           _float_arg("interp", "period", period))
    if period == 0:
        raise ValueError("interp: argument 'period' must be a non-zero value")
    xp, fp = [v if v.dtype == onp.float64 else _invoke("Cast", [v], dtype="float64") for v in (xp, fp)]
    attrs = {k: v for k, v in (("left", left), ("right", right), ("period", period)) if v is not None}
    if isinstance(x, numbers.Real) and not isinstance(x, NDArray):  # MXNet's form for a number: no x input
        return _invoke("_npi_interp", [xp, fp], x_scalar=float(x), x_is_scalar=True, **attrs)
    if not isinstance(x, NDArray):
        host = onp.asarray(x)
        if host.dtype.kind not in "biuf":
            raise ArgumentTypeError("interp: argument 'x' must be a weft.np.ndarray or real numbers, got %s"
                                    % type(x).__name__)
        x = _nd_array(host, ctx=xp.context, dtype="float64").as_np_ndarray()
    if x.dtype != onp.float64:
        x = _invoke("Cast", [x], dtype="float64")
    return _invoke("_npi_interp", [xp, fp, x], **attrs)
