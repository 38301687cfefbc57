"""MXNet 1.9.1's type promotion for ``weft.np`` arithmetic, and the switch of
NumPy's default float type.

Note [MXNet's type promotion]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet's NumPy mode does not copy NumPy's promotion table; its binary ops
(``_npi_add`` ... with ``NumpyBinaryMixedPrecisionType``) follow these rules,
which ``result_dtype`` implements:

* same dtypes give that dtype;
* a float and an integer (or bool) give the *float's* type
  (int32 + float16 is float16; NumPy would say float64);
* two floats or two integers give NumPy's promotion, widened to a type the
  engine has (int8 + uint8 is int16 in NumPy, int32 here: there is no int16);
* bool with an integer gives the integer type;
* a Python scalar never upcasts an array (``int32_array * 2`` stays int32,
  ``float16_array + 1.5`` stays float16); a Python float with an integer or
  bool array gives the default float type; a Python int with a bool array
  gives int64 (NumPy's default int);
* true division of integers (and bools) gives the default float type.

The default float type is float32 (MXNet's ``mx_real_t``) and float64 after
``npx.set_np(dtype=True)``: it is read through ``default_float_dtype()`` only,
which asks the switch's one home (Note [Default dtype switch] in
_dtype_default.py).
"""
import numbers

import numpy as onp

from ..base import DTypeError
from ._dtype_default import default_float

__all__ = []

# What NumPy's promotion may give that the engine lacks -> the type used instead.
_WIDEN = {"int16": "int32", "uint16": "int32", "uint32": "int64"}
_ENGINE_TYPES = ("float16", "float32", "float64", "uint8", "int8", "int32", "int64", "bool")


def default_float_dtype():
    """'float64' after ``npx.set_np(dtype=True)``, else 'float32'."""
    return default_float()


def dtype_name(dt):
    """A dtype (numpy dtype, type or name) as the engine's name; TypeError if the
    engine has no such type."""
    try:
        name = onp.dtype(dt).name
    except TypeError as e:
        raise DTypeError("data type %r not understood" % (dt,)) from e
    name = _WIDEN.get(name, name)
    if name not in _ENGINE_TYPES:
        raise DTypeError("data type %s is not supported by weft.np (supported: %s)"
                         % (name, ", ".join(_ENGINE_TYPES)))
    return name


def is_float(name):
    return name.startswith("float") or name == "bfloat16"


def is_bool(name):
    return name == "bool"


def is_py_scalar(v):
    return isinstance(v, (numbers.Number, onp.generic)) and not isinstance(v, complex)


def result_dtype(a, b):
    """The dtype of a binary op between two arrays of dtype names a and b
    (Note [MXNet's type promotion])."""
    if a == b:
        return a
    fa, fb = is_float(a), is_float(b)
    if fa and not fb:
        return a
    if fb and not fa:
        return b
    if is_bool(a):
        return b
    if is_bool(b):
        return a
    return dtype_name(onp.promote_types(a, b))


def scalar_result_dtype(arr, scalar):
    """The dtype of a binary op between an array of dtype name arr and a Python
    scalar (Note [MXNet's type promotion]: scalars do not upcast arrays)."""
    if isinstance(scalar, (bool, onp.bool_)):
        return arr
    if isinstance(scalar, (numbers.Integral, onp.integer)):
        return "int64" if is_bool(arr) else arr
    return arr if is_float(arr) else default_float_dtype()


def true_divide_dtype(name):
    """The dtype true division gives for operands promoted to name."""
    return name if is_float(name) else default_float_dtype()
