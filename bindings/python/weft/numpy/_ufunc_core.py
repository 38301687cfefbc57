"""The machinery of ``weft.np``'s element-wise functions: checking operands,
broadcasting with NumPy's error, casting to the promoted type
(Note [MXNet's type promotion]) and writing ``out=``.

Note [Ufuncs over legacy ops]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The registry's element-wise ops keep their input's dtype (``broadcast_add``
of two int32 arrays is int32, ``broadcast_equal`` returns 0/1 in the input
type). So a ``weft.np`` ufunc is: promote the operand dtypes by MXNet's rules,
``Cast`` each operand that differs (a no-op when equal, so the common
same-dtype case is one engine op), run the op, and ``Cast`` comparisons to
bool. Every step is a recorded op with a gradient, so autograd flows through.
Shapes are checked here before any op runs so that a bad pair raises NumPy's
ValueError naming the function and both shapes.
"""
# pylint: disable=protected-access
import numbers

import numpy as onp

from ..base import ArgumentTypeError, DTypeError, ShapeError
from ..dtypes import FLAG_TO_NAME
from ..ndarray.ndarray import NDArray
from ..ndarray.op_call import _scalar_call
from ..ndarray.creation import array as _nd_array
from ..ndarray.creation import zeros as _nd_zeros
from ._array import _invoke, _np
from ._promotion import (default_float_dtype, dtype_name, is_float, is_py_scalar, result_dtype,
                         scalar_result_dtype)

__all__ = []


def name_of(x, _names=FLAG_TO_NAME):
    """The engine dtype name of array x (read from the flag: numpy's dtype.name
    is slow, and this is on every element-wise call's path)."""
    return _names[x._dtype_flag]


def check_array(fname, argname, x):
    """x if it is an array, else TypeError naming the function and argument."""
    if isinstance(x, NDArray):
        return x
    raise ArgumentTypeError("%s: argument %s must be a weft.np.ndarray, got %s"
                            % (fname, argname, type(x).__name__))


def check_operand(fname, argname, x):
    """An operand of an element-wise function: an array or a real Python/NumPy scalar."""
    if isinstance(x, NDArray) or is_py_scalar(x):
        return x
    raise ArgumentTypeError("%s: argument %s must be a weft.np.ndarray or a real scalar, got %s"
                            % (fname, argname, type(x).__name__))


def cast(x, name):
    """x as dtype name (x itself when it already is: no engine op)."""
    if name_of(x) == name:
        return x
    return _invoke("Cast", [x], dtype=name)


def scalar_dtype(v):
    """The dtype a lone Python scalar takes as an array (NumPy's defaults, but the
    default float type for floats)."""
    if isinstance(v, (bool, onp.bool_)):
        return "bool"
    if isinstance(v, (numbers.Integral, onp.integer)):
        return "int64"
    return default_float_dtype()


def scalar_array(v, ctx=None, dtype=None):
    """A 0-d array holding scalar v."""
    name = dtype or scalar_dtype(v)
    return _np(_nd_array(onp.array([v], dtype=name), ctx=ctx, dtype=name).reshape(()))


def broadcast_shape(fname, *shapes):
    """The broadcast of shapes, or NumPy's ValueError naming fname and the shapes."""
    ndim = max(len(s) for s in shapes)
    out = []
    for i in range(ndim):
        d = 1
        for s in shapes:
            k = i - (ndim - len(s))
            if k < 0 or s[k] == 1:
                continue
            if d != 1 and s[k] != d:
                raise ShapeError("%s: operands could not be broadcast together with shapes %s"
                                 % (fname, " ".join(str(tuple(t)) for t in shapes)))
            d = s[k]
        out.append(d)
    return tuple(out)


def scalar_text(v):
    """A scalar operand as the ``_*_scalar`` ops take it (bools as 0/1)."""
    if isinstance(v, (bool, onp.bool_)):
        return int(v)
    if isinstance(v, onp.generic):
        return v.item()
    return v


def promote(fname, x1, x2):
    """(a1, a2, dtype): two operands (at least one array) cast to their MXNet
    promoted dtype; a scalar operand stays a scalar."""
    check_operand(fname, "x1", x1)
    check_operand(fname, "x2", x2)
    if isinstance(x1, NDArray) and isinstance(x2, NDArray):
        s1, s2 = x1.shape, x2.shape
        if s1 != s2:
            broadcast_shape(fname, s1, s2)
        n1, n2 = name_of(x1), name_of(x2)
        dt = result_dtype(n1, n2)
        return (x1 if n1 == dt else cast(x1, dt)), (x2 if n2 == dt else cast(x2, dt)), dt
    if isinstance(x1, NDArray):
        n1 = name_of(x1)
        dt = scalar_result_dtype(n1, x2)
        return (x1 if n1 == dt else cast(x1, dt)), x2, dt
    if isinstance(x2, NDArray):
        n2 = name_of(x2)
        dt = scalar_result_dtype(n2, x1)
        return x1, (x2 if n2 == dt else cast(x2, dt)), dt
    a1 = scalar_array(x1)
    dt = scalar_result_dtype(name_of(a1), x2)
    return cast(a1, dt), x2, dt


def apply_binary(ops, a1, a2):
    """Runs ops = (broadcast op, scalar op, reversed scalar op) on promoted operands."""
    bop, sop, rop = ops
    if isinstance(a1, NDArray) and isinstance(a2, NDArray):
        return _invoke(bop, [a1, a2])
    # The scalar ops go through op_call's cached scalar encoding (one cffi call).
    if isinstance(a1, NDArray):
        return _np(_scalar_call(sop, a1, scalar_text(a2)))
    return _np(_scalar_call(rop, a2, scalar_text(a1)))


def write_out(fname, res, out):
    """res, or res written into out: same shape, and converted to out's dtype
    under NumPy's default casting='same_kind' (float into an integer or bool
    array, or a number into a bool array, is a TypeError, as NumPy's
    ``i32 += 1.5``)."""
    if out is None:
        return res
    check_array(fname, "out", out)
    if tuple(out.shape) != tuple(res.shape):
        raise ShapeError("%s: out= has shape %s, the result has shape %s"
                         % (fname, tuple(out.shape), tuple(res.shape)))
    src, dst = name_of(res), name_of(out)
    if (is_float(src) and not is_float(dst)) or (dst == "bool" and src != "bool"):
        raise DTypeError("%s: cannot cast the result from %s to %s (out=) with casting rule 'same_kind'"
                         % (fname, src, dst))
    if src == dst:
        return _invoke("_copyto", [res], out=out)
    return _invoke("Cast", [res], out=out, dtype=dst)


def float_input(x):
    """x cast to a float type when it is an integer or bool array (the
    ``NUMPY_MIXED_TYPE_UNARY`` ops of MXNet: sqrt of int32 is default float)."""
    return x if is_float(name_of(x)) else cast(x, default_float_dtype())


def from_host(h, ref):
    """Host NumPy array h as a weft.np array on ref's device (a 0-d h gives a 0-d array)."""
    name = dtype_name(h.dtype)
    a = _nd_array(h.reshape(-1) if h.ndim == 0 else h, ctx=ref.context if ref is not None else None, dtype=name)
    return _np(a.reshape(()) if h.ndim == 0 else a)


_UFUNC_DEFAULTS = {"where": True, "casting": "same_kind", "order": "K", "dtype": None, "subok": True,
                   "signature": None, "extobj": None}


def check_ufunc_kwargs(fname, kwargs):
    """MXNet's ufuncs take NumPy's where=/casting=/order=/dtype=/subok= only at
    their defaults; anything else is a TypeError naming the function."""
    for k, v in kwargs.items():
        if k in _UFUNC_DEFAULTS and (v is _UFUNC_DEFAULTS[k] or v == _UFUNC_DEFAULTS[k]):
            continue
        if k in _UFUNC_DEFAULTS:
            raise ArgumentTypeError("%s: argument %s=%r is not supported" % (fname, k, v))
        raise ArgumentTypeError("%s: got an unexpected keyword argument '%s'" % (fname, k))


def zeros_of(shape, dtype, ctx):
    """A new np array of zeros."""
    shape = tuple(shape)
    if not shape:
        return _np(_nd_zeros((1,), ctx=ctx, dtype=dtype).reshape(()))
    return _np(_nd_zeros(shape, ctx=ctx, dtype=dtype))


def expand_to(v, shape):
    """v broadcast to shape (for ops such as ``where`` that want equal shapes)."""
    shape = tuple(shape)
    if tuple(v.shape) == shape:
        return v
    if v.ndim < len(shape):
        v = _np(v.reshape((1,) * (len(shape) - v.ndim) + tuple(v.shape)))
    # broadcast_to reads a 0 in the target as "keep this dim" (MXNet's rule), so
    # a length-1 dim broadcast to 0 is sliced to empty instead.
    for i, d in enumerate(shape):
        if d == 0 and v.shape[i] == 1:
            v = _invoke("slice_axis", [v], axis=i, begin=0, end=0)
    if tuple(v.shape) == shape:
        return v
    return _invoke("broadcast_to", [v], shape=shape)
