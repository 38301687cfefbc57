"""Elementwise ``npx`` functions: erf, erfinv, gamma, gammaln, cast, and
constraint_check (legacy ops with np arrays in and out; Note [npx operators
over the legacy registry] in nn.py)."""
# pylint: disable=invalid-name
import numpy as _onp

from .. import dtypes as _dt
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ..numpy._array import _invoke, _np

__all__ = ["erf", "erfinv", "gamma", "gammaln", "cast", "constraint_check"]


def _need(x, name, func):
    if not isinstance(x, NDArray):
        raise TypeError("%s: %s must be an array, got %s" % (func, name, type(x).__name__))
    return x


def erf(data, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.erf``: the Gauss error function, elementwise."""
    return _invoke("erf", [_need(data, "data", "erf")], out=out)


def erfinv(data, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.erfinv``: the inverse error function, elementwise."""
    return _invoke("erfinv", [_need(data, "data", "erfinv")], out=out)


def gamma(data, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.gamma``: the gamma function, elementwise."""
    return _invoke("gamma", [_need(data, "data", "gamma")], out=out)


def gammaln(data, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.gammaln``: log |gamma(x)|, elementwise."""
    return _invoke("gammaln", [_need(data, "data", "gammaln")], out=out)


def cast(data, dtype, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.cast``: data converted to dtype (floats to ints truncate toward zero)."""
    try:
        dname = _dt.name(dtype)
    except TypeError:
        raise TypeError("cast: unsupported dtype %r" % (dtype,)) from None
    return _invoke("Cast", [_need(data, "data", "cast")], out=out, dtype=dname)


# pylint: disable-next=redefined-builtin,unused-argument
def constraint_check(input, msg="Constraint violated!", out=None, name=None):
    """``npx.constraint_check``: raises ValueError(msg) unless every element of
    input is true; returns a 0-d bool array True (MXNet's output).

    MXNet raises from the kernel when the array is read; here the check reads
    the input at the call (a synchronisation), so the error surfaces where the
    constraint is stated."""
    _need(input, "input", "constraint_check")
    if not isinstance(msg, str):
        raise TypeError("constraint_check: msg must be a str, got %s" % type(msg).__name__)
    if not bool(_onp.all(input.asnumpy())):
        raise ValueError(msg)
    res = _np(_nd_array(_onp.array(True), ctx=input.context, dtype="bool"))
    if out is not None:
        res.copyto(out)
        return out
    return res
