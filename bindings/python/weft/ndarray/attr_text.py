"""Attribute values as the text operators take (MXNet's conventions), and the
``_Null`` marker of an attribute the caller did not give.

The encoded scalar operand of the ``_*_scalar`` ops (``b"scalar\\0<text>"``) is
cached: loops reuse the same scalars, and the arithmetic hot path reads the
cache directly.
"""
# pylint: disable=invalid-name
import numbers

import numpy as np

from .. import dtypes as _dt
from ..base import ArgumentTypeError, WeftError, check_str
from ..context import Context
from .ndarray_class import NDArray


class _NullType:
    """Marks an attribute the caller did not give (the op's default applies)."""
    __slots__ = ()

    def __repr__(self):
        return "<required>"

    def __reduce__(self):
        return "_Null"


_Null = _NullType()


def _item_str(v):
    if v is None:
        return "None"
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, np.generic):
        return str(v.item())
    return str(v)


def attr_str(v):
    """An attribute value as text the way MXNet's bindings write it: bool ->
    'True'/'False', tuples -> '(2, 3)', None -> 'None', dtypes -> their name,
    Context -> 'cpu(0)', numbers -> str()."""
    t = v.__class__
    if t is str:
        return v if "\0" not in v else check_str(v, "attribute value")
    if t is int or t is float:
        return str(v)
    if t is bool:
        return "True" if v else "False"
    if v is None:
        return "None"
    if t is tuple or t is list:
        items = [_item_str(x) for x in v]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(v, Context):
        return str(v)
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, (np.generic, float, int, bool))):
        return _dt.name(v)
    if isinstance(v, (np.generic,)):
        return _item_str(v)
    if isinstance(v, NDArray):
        raise ArgumentTypeError("an NDArray cannot be an attribute value (pass it as an input)")
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            return _item_str(v[()])
        return attr_str(tuple(v.tolist()))
    if isinstance(v, bytes):
        return v.decode("utf-8")
    return str(v)


def shape_attr_str(v):
    """Like attr_str, but a bare integer becomes a 1-tuple '(n,)'."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return "(%d,)" % v
    return attr_str(v)


def dtype_attr_str(v):
    if v is None:
        return "None"
    if isinstance(v, str) and v in _dt.NAME_TO_FLAG:
        return v
    try:
        return _dt.name(v)
    except WeftError:
        return attr_str(v)


_SCALAR_TEXT = {}


def _scalar_attr(v):
    """b'scalar\\0<text>' for a Python/numpy number (cached: loops reuse scalars)."""
    try:
        return _SCALAR_TEXT[v]
    except (KeyError, TypeError):
        pass
    t = v.__class__
    if t is bool or isinstance(v, np.bool_):
        text = "1" if v else "0"
    elif isinstance(v, np.generic):
        text = str(v.item())
    elif isinstance(v, numbers.Real):
        text = str(v) if (t is float or t is int) else str(float(v) if not isinstance(v, numbers.Integral) else int(v))
    else:
        raise ArgumentTypeError("type %s is not supported as a scalar operand" % type(v).__name__)
    b = ("scalar\0" + text).encode()
    if v != 0:  # 0.0 == -0.0 (same hash): never cache zeros, their sign matters
        if len(_SCALAR_TEXT) > 4096:
            _SCALAR_TEXT.clear()
        _SCALAR_TEXT[v] = b
    return b


def _is_scalar(v):
    t = v.__class__
    if t is float or t is int or t is bool:
        return True
    return isinstance(v, (numbers.Real, np.bool_)) and not isinstance(v, np.ndarray)
