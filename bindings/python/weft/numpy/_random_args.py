"""Argument handling shared by weft.np.random and weft.npx.random: size,
ctx, dtype and distribution parameters checked as NumPy does (ValueError /
TypeError naming the function), and the few registry calls the samplers are
composed of (Note [np.random by composition] in random.py)."""
# pylint: disable=invalid-name
import numbers
import operator

import numpy as _onp

from .. import dtypes as _dt
from ..context import Context, current_context
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ..util import _default_float_dtype
from ._array import _invoke, _np

FLOATS = ("float16", "float32", "float64")


# ---- argument handling ----

def as_shape(size, func):
    """size as a shape tuple, or None."""
    if size is None:
        return None
    try:
        if isinstance(size, (numbers.Integral, _onp.integer)) and not isinstance(size, bool):
            shape = (operator.index(size),)
        else:
            shape = tuple(operator.index(d) for d in size)
    except TypeError:
        raise TypeError("%s: size must be None, an int or a tuple of ints, got %r" % (func, size)) from None
    if any(d < 0 for d in shape):
        raise ValueError("%s: size must not hold negative dimensions, got %r" % (func, shape))
    return shape


def as_ctx(ctx, func):
    if ctx is None:
        return current_context()
    if isinstance(ctx, Context):
        return ctx
    if isinstance(ctx, str):
        return Context(ctx)
    raise TypeError("%s: ctx must be a weft.Context or a string like 'cpu(0)', got %s" % (func, type(ctx).__name__))


def float_dtype(dtype, func):
    """The output dtype name: dtype, or the default float dtype (float64 under
    npx.set_np(dtype=True))."""
    if dtype is None:
        return _dt.name(_default_float_dtype())
    try:
        name = _dt.name(dtype)
    except TypeError:
        raise TypeError("%s: dtype must be a floating dtype, got %r" % (func, dtype)) from None
    if name not in FLOATS:
        raise TypeError("%s: dtype must be one of %s, got %s" % (func, ", ".join(FLOATS), name))
    return name


def param(v, name, func, ctx):
    """A distribution parameter: a Python float, or an array (np/nd array, host
    NumPy array or list) as an np array on ctx."""
    if isinstance(v, NDArray):
        return v
    if isinstance(v, (numbers.Real, _onp.number)) and not isinstance(v, (bool, _onp.bool_)):
        return float(v)
    if isinstance(v, (list, tuple, _onp.ndarray)):
        try:
            host = _onp.asarray(v, dtype=_onp.float64)
        except (TypeError, ValueError):
            raise TypeError("%s: %s must be a number or an array of numbers, got %r" % (func, name, v)) from None
        return _np(_nd_array(host, ctx=ctx, dtype="float64"))
    raise TypeError("%s: %s must be a number or an array, got %s" % (func, name, type(v).__name__))


def check(v, name, func, ok, what):
    """Raises ValueError unless ok(host values of v) holds everywhere."""
    host = v.asnumpy() if isinstance(v, NDArray) else _onp.asarray(v)
    if host.size and not _onp.all(ok(host)):
        raise ValueError("%s: %s must be %s" % (func, name, what))


def out_shape(size, params, func):
    """NumPy's rule: the output has shape size when given (the parameters must
    broadcast to it), else the parameters' broadcast shape."""
    shapes = [p.shape for p in params if isinstance(p, NDArray)]
    try:
        bshape = _onp.broadcast_shapes(*shapes) if shapes else ()
    except ValueError:
        raise ValueError("%s: parameter shapes %s do not broadcast together" % (func, shapes)) from None
    if size is None:
        return bshape
    try:
        if _onp.broadcast_shapes(bshape, size) != size:
            raise ValueError
    except ValueError:
        raise ValueError("%s: parameters of shape %s do not broadcast to size %s" % (func, bshape, size)) from None
    return size


def ctx_of(params, ctx, func):
    for p in params:
        if isinstance(p, NDArray):
            return p.context if ctx is None else as_ctx(ctx, func)
    return as_ctx(ctx, func)


# ---- building blocks (np arrays in, np arrays out) ----

def cast(x, dtype):
    return x if _dt.name(x.dtype) == dtype else _invoke("Cast", [x], dtype=dtype)


def mul(x, s):
    if isinstance(s, NDArray):
        return _invoke("broadcast_mul", [x, cast(s, _dt.name(x.dtype))])
    return x if s == 1.0 else _invoke("_mul_scalar", [x], scalar=s)


def add(x, s):
    if isinstance(s, NDArray):
        return _invoke("broadcast_add", [x, cast(s, _dt.name(x.dtype))])
    return x if s == 0.0 else _invoke("_plus_scalar", [x], scalar=s)


def recip(s, dtype):
    """1/s for a number or an array parameter (in dtype)."""
    if isinstance(s, NDArray):
        return _invoke("_rdiv_scalar", [cast(s, dtype)], scalar=1.0)
    return 1.0 / s


def std(opname, shape, ctx, dtype, **attrs):
    return _invoke(opname, [], shape=shape, ctx=str(ctx), dtype=dtype, **attrs)


def finish(res, dtype, out, func):
    res = cast(res, dtype)
    if out is None:
        return res
    if not isinstance(out, NDArray):
        raise TypeError("%s: out must be an array, got %s" % (func, type(out).__name__))
    if tuple(out.shape) != tuple(res.shape):
        raise ValueError("%s: out has shape %s, the result has shape %s" % (func, out.shape, res.shape))
    res.copyto(out)
    return out
