"""``weft.np``'s unary element-wise functions, ``clip``, ``where``,
``nan_to_num``, rounding and the ``is*`` predicates (MXNet 1.9.1's names).

Transcendental functions of integer or bool arrays give the default float
type (MXNet's ``NUMPY_MIXED_TYPE_UNARY`` ops); sign, rounding, abs, negative,
square and reciprocal keep the input dtype as MXNet's ``_npi_*`` kernels do.
"""
# pylint: disable=redefined-builtin,invalid-name
import numpy as onp

from ..base import ArgumentTypeError, DTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke
from .nonzeros import nonzero
from ._promotion import default_float_dtype, is_bool, is_float, result_dtype
from ._ufunc_core import (broadcast_shape, cast, check_array, check_operand, expand_to, float_input, name_of,
                          scalar_array, scalar_text, write_out)
from ._ufunc_core import check_ufunc_kwargs as _no_kwargs

__all__ = ["sqrt", "cbrt", "exp", "expm1", "log", "log10", "log1p", "log2", "sin", "cos", "tan", "arcsin",
           "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg",
           "degrees", "radians", "abs", "absolute", "fabs", "negative", "positive", "reciprocal", "square",
           "sign", "ceil", "floor", "trunc", "rint", "fix", "round", "round_", "around", "clip", "where",
           "nan_to_num", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "logical_not", "bitwise_not",
           "invert"]

# weft.np name -> registry op; the input is cast to the default float type first.
_FLOAT_UNARY = {"sqrt": "sqrt", "cbrt": "cbrt", "exp": "exp", "expm1": "expm1", "log": "log", "log10": "log10",
                "log1p": "log1p", "log2": "log2", "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "arcsin",
                "arccos": "arccos", "arctan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
                "arcsinh": "arcsinh", "arccosh": "arccosh", "arctanh": "arctanh", "deg2rad": "radians",
                "rad2deg": "degrees", "degrees": "degrees", "radians": "radians", "fabs": "abs",
                "rsqrt": "rsqrt", "rcbrt": "rcbrt"}
# name -> registry op keeping the input dtype.
_SAME_UNARY = {"abs": "abs", "absolute": "abs", "negative": "negative", "reciprocal": "reciprocal",
               "square": "square", "sign": "sign", "ceil": "ceil", "floor": "floor", "trunc": "trunc",
               "rint": "rint", "fix": "fix"}


def _unary_input(fname, x):
    check_operand(fname, "x", x)
    return x if isinstance(x, NDArray) else scalar_array(x)


def _make_float_unary(name, opname):
    def f(x, out=None, **kwargs):
        _no_kwargs(name, kwargs)
        return write_out(name, _invoke(opname, [float_input(_unary_input(name, x))]), out)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = ("Element-wise %s (MXNet's ``mx.np.%s``); integer or bool input gives the default float "
                 "type." % (name, name))
    return f


def _make_same_unary(name, opname):
    def f(x, out=None, **kwargs):
        _no_kwargs(name, kwargs)
        x = _unary_input(name, x)
        if is_bool(name_of(x)) and name in ("negative", "sign", "reciprocal"):
            raise DTypeError("%s: not supported for bool input" % name)
        return write_out(name, _invoke(opname, [x]), out)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = "Element-wise %s (MXNet's ``mx.np.%s``), in the input's dtype." % (name, name)
    if name == "rint":
        f.__doc__ += ("\n\nAs MXNet's kernel, halves round down (rint(0.5) == 0, rint(1.5) == 1, "
                      "rint(-0.5) == -1); NumPy rounds halves to even: use around for that.")
    return f


_FUNCS = {}
for _n, _op in _FLOAT_UNARY.items():
    _FUNCS[_n] = _make_float_unary(_n, _op)
for _n, _op in _SAME_UNARY.items():
    _FUNCS[_n] = _make_same_unary(_n, _op)
globals().update({k: v for k, v in _FUNCS.items() if k not in ("rsqrt", "rcbrt")})
rsqrt = _FUNCS["rsqrt"]  # ndarray methods only (not in mx.np)
rcbrt = _FUNCS["rcbrt"]


def positive(x, out=None, **kwargs):
    """+x (a copy; NumPy's positive)."""
    _no_kwargs("positive", kwargs)
    x = _unary_input("positive", x)
    if is_bool(name_of(x)):
        raise DTypeError("positive: not supported for bool input")
    return write_out("positive", _invoke("_plus_scalar", [x], scalar=0), out)


def around(x, decimals=0, out=None, **kwargs):
    """x rounded to `decimals` places, halves to even (NumPy's rule, which
    MXNet's ``_npi_around`` follows); integer input with decimals >= 0 is
    returned unchanged (copied), as NumPy.

    Composed as: scale by 10**decimals, floor, take the fraction, round up above
    one half, down below, and to the even neighbour at exactly one half."""
    _no_kwargs("around", kwargs)
    a = _unary_input("around", x)
    if not isinstance(decimals, (int, onp.integer)) or isinstance(decimals, bool):
        raise TypeError("around: decimals must be an integer, got %s" % type(decimals).__name__)
    dt = name_of(a)
    if not is_float(dt):
        if is_bool(dt):
            raise DTypeError("around: not supported for bool input")
        if decimals >= 0:
            return write_out("around", _invoke("_plus_scalar", [a], scalar=0), out)
    xf = float_input(a)
    with onp.errstate(over="ignore", under="ignore"):
        # NumPy's own scale: 10**decimals beyond float range gives inf or 0 and
        # a NaN result, as NumPy's around does, rather than a Python OverflowError.
        scale = float(onp.float64(10.0) ** decimals)
    y = _invoke("_mul_scalar", [xf], scalar=scale) if decimals else xf
    f = _invoke("floor", [y])
    frac = _invoke("broadcast_sub", [y, f])
    up = _invoke("_greater_scalar", [frac], scalar=0.5)
    half = _invoke("_equal_scalar", [frac], scalar=0.5)
    odd = _invoke("_equal_scalar", [_invoke("_mod_scalar", [f], scalar=2)], scalar=1)
    bump = _invoke("broadcast_logical_or", [up, _invoke("broadcast_logical_and", [half, odd])])
    r = _invoke("broadcast_add", [f, bump])
    r = _invoke("_div_scalar", [r], scalar=scale) if decimals else r
    return write_out("around", cast(r, dt), out)


def round(x, decimals=0, out=None, **kwargs):
    """The same as around (MXNet's ``mx.np.round``)."""
    _no_kwargs("round", kwargs)
    return around(x, decimals, out=out)


round_ = round


def clip(a, a_min, a_max, out=None):
    """a limited to [a_min, a_max] (scalars or None; both None is a ValueError)."""
    a = check_array("clip", "a", a)
    if a_min is None and a_max is None:
        raise ValueError("clip: array_clip: must set either max or min")
    for nm, v in (("a_min", a_min), ("a_max", a_max)):
        if v is not None and not isinstance(v, (int, float, onp.number)):
            raise TypeError("clip: %s must be a scalar or None, got %s" % (nm, type(v).__name__))
    res = a
    if a_min is not None:
        res = _invoke("_maximum_scalar", [res], scalar=scalar_text(a_min))
    if a_max is not None:
        res = _invoke("_minimum_scalar", [res], scalar=scalar_text(a_max))
    if res is a:
        res = _invoke("_plus_scalar", [a], scalar=0)
    return write_out("clip", res, out)


def where(condition, x=None, y=None):
    """Elements of x where condition is true, else of y, with broadcasting.

    Two arrays x and y take their promoted dtype (MXNet 1.9.1 refuses two
    different dtypes; NumPy promotes). A Python scalar takes MXNet 1.9.1's
    ``_npi_where_lscalar``/``_rscalar``/``_scalar2`` dtypes, which differ from
    NumPy's: with an array the result has the array's dtype (the scalar is cast
    to it as a C cast does: ``where(c, int32_array, 2.5)`` writes 2, a bool
    array takes any nonzero scalar as True); two scalars give the default
    float type.

    ``where(condition)`` alone is ``nonzero(condition)``, as in MXNet 1.9.1 and
    NumPy: a tuple of ``condition.ndim`` int64 index arrays. As in MXNet 1.9.1
    (and NumPy 1.x), a 0-d condition counts as one element: ``(array([0]),)``
    when it is true, an empty index array when not."""
    if x is None and y is None:
        if not isinstance(condition, NDArray):
            raise ArgumentTypeError("where: argument 'condition' must be a weft.np.ndarray when x and y are "
                                    "not given, got %s" % type(condition).__name__)
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    check_operand("where", "condition", condition)
    check_operand("where", "x", x)
    check_operand("where", "y", y)
    arrays = [v for v in (condition, x, y) if isinstance(v, NDArray)]
    if isinstance(x, NDArray) and isinstance(y, NDArray):
        dt = result_dtype(name_of(x), name_of(y))
    elif isinstance(x, NDArray) or isinstance(y, NDArray):
        dt = name_of(x if isinstance(x, NDArray) else y)
    else:
        dt = default_float_dtype()
    ctx = arrays[0].context if arrays else None
    c = condition if isinstance(condition, NDArray) else scalar_array(bool(condition), ctx)
    xa = cast(x, dt) if isinstance(x, NDArray) else _scalar_in(x, ctx, dt)
    ya = cast(y, dt) if isinstance(y, NDArray) else _scalar_in(y, ctx, dt)
    shape = broadcast_shape("where", c.shape, xa.shape, ya.shape)
    c, xa, ya = (expand_to(v, shape) for v in (c, xa, ya))
    return _invoke("where", [cast(c, dt), xa, ya])


def _scalar_in(v, ctx, dt):
    """Python scalar v as a 0-d array of dtype dt, converted as a C cast does
    (2.5 -> 2 for an int type, out of range -> inf for a float type), as
    MXNet's scalar where kernels convert it."""
    with onp.errstate(over="ignore", invalid="ignore"):
        return scalar_array(onp.array(v).astype(dt).item(), ctx, dt)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf, -inf -> neginf (default: the dtype's largest /
    smallest finite values); integer input is returned (copied) as is.
    ``copy=False`` writes into x."""
    x = check_array("nan_to_num", "x", x)
    dt = name_of(x)
    if not is_float(dt):
        return _invoke("_plus_scalar", [x], scalar=0) if copy else x
    info = onp.finfo(dt)
    pinf = float(info.max) if posinf is None else float(posinf)
    ninf = float(info.min) if neginf is None else float(neginf)
    fill = lambda v: _invoke("_plus_scalar", [_invoke("zeros_like", [x])], scalar=v)
    res = _invoke("where", [cast(isnan(x), dt), fill(float(nan)), x])
    res = _invoke("where", [_invoke("_equal_scalar", [x], scalar=float("inf")), fill(pinf), res])
    res = _invoke("where", [_invoke("_equal_scalar", [x], scalar=float("-inf")), fill(ninf), res])
    if copy:
        return res
    return _invoke("_plus_scalar", [res], out=x, scalar=0)


def _predicate(fname, x, float_fn, int_value):
    x = _unary_input(fname, x)
    if not is_float(name_of(x)):
        const = _invoke("_plus_scalar", [_invoke("zeros_like", [cast(x, "float32")])], scalar=int_value)
        return cast(const, "bool")
    return cast(float_fn(x), "bool")


def isnan(x, out=None, **kwargs):
    """True where x is NaN (x != x)."""
    _no_kwargs("isnan", kwargs)
    return write_out("isnan", _predicate("isnan", x, lambda v: _invoke("broadcast_not_equal", [v, v]), 0), out)


def isinf(x, out=None, **kwargs):
    """True where x is +inf or -inf."""
    _no_kwargs("isinf", kwargs)
    fn = lambda v: _invoke("_equal_scalar", [_invoke("abs", [v])], scalar=float("inf"))
    return write_out("isinf", _predicate("isinf", x, fn, 0), out)


def isfinite(x, out=None, **kwargs):
    """True where x is neither NaN nor infinite (x - x == 0)."""
    _no_kwargs("isfinite", kwargs)
    fn = lambda v: _invoke("_equal_scalar", [_invoke("broadcast_sub", [v, v])], scalar=0)
    return write_out("isfinite", _predicate("isfinite", x, fn, 1), out)


def isposinf(x, out=None, **kwargs):
    """True where x is +inf."""
    _no_kwargs("isposinf", kwargs)
    fn = lambda v: _invoke("_equal_scalar", [v], scalar=float("inf"))
    return write_out("isposinf", _predicate("isposinf", x, fn, 0), out)


def isneginf(x, out=None, **kwargs):
    """True where x is -inf."""
    _no_kwargs("isneginf", kwargs)
    fn = lambda v: _invoke("_equal_scalar", [v], scalar=float("-inf"))
    return write_out("isneginf", _predicate("isneginf", x, fn, 0), out)


def logical_not(x, out=None, **kwargs):
    """not x, as a bool array."""
    _no_kwargs("logical_not", kwargs)
    x = _unary_input("logical_not", x)
    return write_out("logical_not", cast(_invoke("logical_not", [x]), "bool"), out)


def bitwise_not(x, out=None, **kwargs):
    """~x for integer arrays and logical not for bool arrays (MXNet's
    _npi_bitwise_not); TypeError for floats."""
    _no_kwargs("bitwise_not", kwargs)
    x = _unary_input("bitwise_not", x)
    dt = name_of(x)
    if is_float(dt):
        raise DTypeError("bitwise_not: not supported for the input type %s; integers or bools expected" % dt)
    return write_out("bitwise_not", _invoke("_npi_bitwise_not", [x]), out)


invert = bitwise_not
