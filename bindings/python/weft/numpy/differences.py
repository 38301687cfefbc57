"""``weft.np.diff`` and ``weft.np.ediff1d``: differences of consecutive
elements (MXNet 1.9.1's ``mxnet.numpy.diff``/``ediff1d``, issue 37 point 3).

``diff`` and ``ediff1d`` run the registry ops ``_npi_diff`` and
``_npi_ediff1d`` (MXNet's registered names, so a graph MXNet wrote in NumPy
mode loads), which have gradients.
"""
# pylint: disable=invalid-name
import operator

import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["diff", "ediff1d"]


def _int_arg(func, name, value):
    """value as a Python int, else TypeError naming func and the argument (as NumPy's operator.index)."""
    if isinstance(value, (bool, onp.bool_)):
        raise ArgumentTypeError("%s: argument '%s' must be an integer, got bool" % (func, name))
    try:
        return operator.index(value)
    except TypeError:
        raise ArgumentTypeError("%s: argument '%s' must be an integer, got %s"
                                % (func, name, type(value).__name__)) from None


def _array_arg(func, name, value):
    if not isinstance(value, NDArray):
        raise ArgumentTypeError("%s: argument '%s' must be a weft.np.ndarray, got %s"
                                % (func, name, type(value).__name__))
    return value


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along ``axis``: ``out[i] = a[i+1] - a[i]``,
    applied ``n`` times (NumPy's ``numpy.diff``).

    The output has ``a``'s dtype (integers wrap, bool gives ``a[i+1] != a[i]``)
    and ``a``'s shape with ``axis`` shortened by ``n`` (to 0 when ``n`` is at
    least its length). ``prepend``/``append`` raise NotImplementedError, as in
    MXNet 1.9.1. Bad input: TypeError for a non-array ``a`` or a non-integer
    ``n``/``axis``; ValueError for a 0-d ``a``, ``n < 0`` or an axis out of
    range."""
    if prepend is not None or append is not None:
        raise NotImplementedError("diff: 'prepend' and 'append' options are not supported (as in MXNet 1.9.1)")
    _array_arg("diff", "a", a)
    n = _int_arg("diff", "n", n)
    axis = _int_arg("diff", "axis", axis)
    if n == 0:  # NumPy returns the input itself
        return a
    return _invoke("_npi_diff", [a], n=n, axis=axis)


def _edge(name, value, like):
    """to_begin/to_end as a 1-D array of like's dtype on like's device."""
    if isinstance(value, NDArray):
        flat = _invoke("Reshape", [value], shape=(-1,))
        return flat if flat.dtype == like.dtype else _invoke("Cast", [flat], dtype=onp.dtype(like.dtype).name)
    try:
        host = onp.asarray(value).ravel()
    except (TypeError, ValueError) as e:
        raise ArgumentTypeError("ediff1d: argument '%s' must be array-like, got %s (%s)"
                                % (name, type(value).__name__, e)) from None
    if host.dtype.kind not in "biuf":
        raise ArgumentTypeError("ediff1d: argument '%s' must hold numbers, got dtype %s" % (name, host.dtype))
    return _nd_array(host, ctx=like.context, dtype=like.dtype).as_np_ndarray()


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences between consecutive elements of the flattened ``ary``,
    with ``to_begin`` and ``to_end`` (scalars or arrays, flattened) put before
    and after them (NumPy's ``numpy.ediff1d``), by the registry op
    ``_npi_ediff1d`` (MXNet's name, so a traced graph loads in MXNet; it has a
    gradient for ``ary`` and array edges).

    As in MXNet 1.9.1, ``to_begin``/``to_end`` are cast to ``ary``'s dtype (NumPy
    refuses values that do not cast safely)."""
    _array_arg("ediff1d", "ary", ary)
    inputs, attrs = [ary], {}
    for name, value in (("to_begin", to_begin), ("to_end", to_end)):
        if value is None:
            continue
        number = not isinstance(value, (NDArray, bool, onp.bool_)) and isinstance(value, (int, float, onp.number))
        if number and abs(value) < 2 ** 53:  # exact as a double: an attribute, as MXNet's frontend passes it
            attrs[name + "_scalar"] = float(value)
        else:
            inputs.append(_edge(name, value, ary))
            attrs[name + "_arr_given"] = True
    return _invoke("_npi_ediff1d", inputs, **attrs)
