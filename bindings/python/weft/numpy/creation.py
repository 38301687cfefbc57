"""Making arrays in ``weft.np`` (MXNet's ``mx.np`` creation functions):
``array``, ``empty``/``zeros``/``ones``/``full`` and their ``*_like``,
``eye``/``identity``, ``arange``/``linspace``/``logspace``, ``meshgrid``,
``indices``, ``copy`` and the diagonal functions.

Every function takes MXNet's ``ctx=`` (the device; default the current
context) and ``dtype=``; the default dtype follows MXNet, not NumPy: float32
for data from Python floats and lists (Note [Default dtype switch] in
_dtype_default.py). Results are ``weft.np.ndarray``.
"""
# pylint: disable=protected-access,redefined-builtin,invalid-name
import math
import numbers

import numpy as _onp

from .. import dtypes as _dt
from ..base import ArgumentTypeError, DTypeError
from ..ndarray import creation as _nd_creation
from ..ndarray.ndarray import NDArray
from . import _args
from ._array import _invoke, _np, ndarray
from ._dtype_default import default_float, default_int, is_np_default_dtype

__all__ = ["array", "empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
           "eye", "identity", "arange", "linspace", "logspace", "meshgrid", "indices", "copy", "diag",
           "diagflat", "diagonal"]

_ctx = _nd_creation._ctx


def _check_order(order, func):
    if order != "C":
        raise NotImplementedError("%s: argument order: only 'C' order is supported, got %r" % (func, order))


def _float_or(dtype, func):
    """dtype's weft name; None and Python's float mean the default float dtype (MXNet's rule)."""
    if dtype is None or dtype is float:
        return default_float()
    return _args.dtype_name(dtype, func)


def _as_ndarray(a, func, arg="a"):
    """a as a weft.np.ndarray: arrays as they are (no copy), anything else through array()."""
    if isinstance(a, ndarray):
        return a
    if isinstance(a, NDArray):
        return a.as_np_ndarray()
    return array(a)


# ---- from data --------------------------------------------------------------------------------
def array(object, dtype=None, ctx=None):  # pylint: disable=redefined-outer-name
    """An array copied from a weft.np.ndarray, a NumPy array, a (nested) list or a scalar.

    Default dtype (MXNet 1.9.1's rule, not NumPy's): a weft.np.ndarray keeps its
    own; a NumPy array, a list or a Python scalar gives float32 (float64 under
    ``npx.set_np(dtype=True)``, which also keeps a NumPy array's dtype); a NumPy
    scalar keeps its dtype. A classic ``weft.nd.NDArray`` is refused with a
    ValueError, as MXNet does: ``as_np_ndarray()`` converts it without a copy."""
    if isinstance(object, ndarray):
        f = object._dtype_flag if dtype is None else _dt.flag(_args.dtype_name(dtype, "array"))
        return _np(_nd_creation.array(object, ctx=_ctx(ctx), dtype=f))
    if isinstance(object, NDArray):
        raise ValueError("array: argument object: to make a weft.np.ndarray from a weft.nd.NDArray use "
                         "its zero-copy as_np_ndarray() method")
    if dtype is None:
        if isinstance(object, _onp.ndarray):
            dtype = object.dtype if is_np_default_dtype() else default_float()
        elif isinstance(object, _onp.generic):
            dtype = object.dtype
        else:
            dtype = default_float()
    name = _args.dtype_name(dtype, "array")
    if object is None:
        raise ArgumentTypeError("array: argument object must be array-like, got None")
    host = object
    if not isinstance(host, _onp.ndarray):
        try:
            host = _onp.array(object, dtype=_dt.to_numpy(name) if name != "bfloat16" else _onp.float32)
        except (TypeError, ValueError) as err:
            raise ArgumentTypeError("array: argument object is not array-like (%s)" % err) from None
    if host.dtype.kind in "OUSVcMm" and host.dtype.names is None:
        raise DTypeError("array: argument object: arrays of dtype %s are not supported" % host.dtype)
    return _np(_nd_creation.array(host, ctx=_ctx(ctx), dtype=name))


def copy(a):
    """A copy of a (recorded by autograd: the gradient flows back to a)."""
    a = _as_ndarray(a, "copy")
    return _invoke("_copyto", [a])


# ---- filled arrays ----------------------------------------------------------------------------
def empty(shape, dtype=float, order="C", ctx=None):
    """A new array whose contents are not initialised (default dtype float32)."""
    _check_order(order, "empty")
    shape = _args.shape_tuple(shape, "empty")
    return _np(_nd_creation.empty(shape, ctx=_ctx(ctx), dtype=_float_or(dtype, "empty")))


def zeros(shape, dtype=None, order="C", ctx=None):
    """An array of zeros (default dtype float32)."""
    _check_order(order, "zeros")
    shape = _args.shape_tuple(shape, "zeros")
    return _invoke("_zeros", [], shape=shape, ctx=_ctx(ctx), dtype=_float_or(dtype, "zeros"))


def ones(shape, dtype=None, order="C", ctx=None):
    """An array of ones (default dtype float32)."""
    _check_order(order, "ones")
    shape = _args.shape_tuple(shape, "ones")
    return _invoke("_ones", [], shape=shape, ctx=_ctx(ctx), dtype=_float_or(dtype, "ones"))


def full(shape, fill_value, dtype=None, order="C", ctx=None, out=None):
    """An array of shape filled with fill_value.

    Default dtype as MXNet: float32 for a number, bool for a bool, the array's
    own for an array fill_value (which is broadcast to shape, as in NumPy)."""
    _check_order(order, "full")
    shape = _args.shape_tuple(shape, "full")
    if isinstance(fill_value, NDArray) or isinstance(fill_value, (list, tuple, _onp.ndarray)):
        value = _as_ndarray(fill_value, "full", "fill_value")
        if dtype is not None:
            value = value.astype(_args.dtype_name(dtype, "full"))
        if ctx is not None and value.context != _ctx(ctx):
            value = value.as_in_context(_ctx(ctx))
        res = _broadcast_value(value, shape, "full")
        if out is not None:
            res.copyto(out)
            return out
        return res
    if not isinstance(fill_value, (numbers.Number, _onp.generic)) or isinstance(fill_value, complex):
        raise ArgumentTypeError("full: argument fill_value must be a real number or an array, got %s"
                                % type(fill_value).__name__)
    if isinstance(fill_value, (bool, _onp.bool_)):
        name = "bool" if dtype is None else _args.dtype_name(dtype, "full")
        fill_value = int(fill_value)
    else:
        name = _float_or(dtype, "full")
        fill_value = fill_value.item() if isinstance(fill_value, _onp.generic) else fill_value
    if out is not None:
        if out.shape != shape:
            raise ValueError("full: argument out has shape %s, expected %s" % (out.shape, shape))
        return _invoke("_full", [], out=out, shape=shape, ctx=out.context, dtype=_dt.name(out._dtype_flag),
                       value=fill_value)
    return _invoke("_full", [], shape=shape, ctx=_ctx(ctx), dtype=name, value=fill_value)


def _broadcast_value(value, shape, func):
    vs = value.shape
    if len(vs) > len(shape) or any(a != b and a != 1 for a, b in zip(vs[::-1], shape[::-1])):
        raise ValueError("%s: could not broadcast an array of shape %s to shape %s" % (func, vs, shape))
    padded = (1,) * (len(shape) - len(vs)) + vs
    src = _np(value._view(padded)) if padded != vs else value
    if padded == shape:
        return copy(src)
    if 0 in shape:
        return _np(_nd_creation.empty(shape, ctx=value.context, dtype=value._dtype_flag))
    return _invoke("broadcast_to", [src], shape=shape)


def _like(func, a, dtype, order, ctx, shape=None):
    _check_order(order, func)
    a = _as_ndarray(a, func)
    name = _dt.name(a._dtype_flag) if dtype is None else _args.dtype_name(dtype, func)
    shape = a.shape if shape is None else _args.shape_tuple(shape, func)
    return shape, name, a.context if ctx is None else _ctx(ctx)


def empty_like(prototype, dtype=None, order="C", subok=False, shape=None):  # pylint: disable=unused-argument
    """An uninitialised array with prototype's shape, dtype and device (subok is
    accepted for NumPy's signature; the result is always a weft.np.ndarray)."""
    shape, name, ctx = _like("empty_like", prototype, dtype, order, None, shape)
    return _np(_nd_creation.empty(shape, ctx=ctx, dtype=name))


def zeros_like(a, dtype=None, order="C", ctx=None, out=None):
    """Zeros with a's shape, dtype (unless given) and device."""
    shape, name, ctx = _like("zeros_like", a, dtype, order, ctx)
    return full(shape, 0, dtype=name, ctx=ctx, out=out)


def ones_like(a, dtype=None, order="C", ctx=None, out=None):
    """Ones with a's shape, dtype (unless given) and device."""
    shape, name, ctx = _like("ones_like", a, dtype, order, ctx)
    return full(shape, 1, dtype=name, ctx=ctx, out=out)


def full_like(a, fill_value, dtype=None, order="C", ctx=None, out=None):
    """fill_value with a's shape, dtype (unless given) and device."""
    shape, name, ctx = _like("full_like", a, dtype, order, ctx)
    if isinstance(fill_value, (bool, _onp.bool_)):
        fill_value = int(fill_value)
    return full(shape, fill_value, dtype=name, ctx=ctx, out=out)


def eye(N, M=None, k=0, dtype=float, ctx=None, **kwargs):
    """An N x M matrix with ones on diagonal k (default dtype float32)."""
    if kwargs:
        raise ArgumentTypeError("eye: unknown argument(s) %s" % ", ".join(sorted(kwargs)))
    n = _args.index(N, "eye", "N")
    m = n if M is None else _args.index(M, "eye", "M")
    k = _args.index(k, "eye", "k")
    if n < 0 or m < 0:
        raise ValueError("eye: negative dimensions are not allowed, got N=%d M=%d" % (n, m))
    name = _float_or(dtype, "eye")
    if n == 0 or m == 0:
        return zeros((n, m), dtype=name, ctx=ctx)
    return _invoke("_eye", [], N=n, M=m, k=k, ctx=_ctx(ctx), dtype=name)


def identity(n, dtype=None, ctx=None):
    """The n x n identity matrix (default dtype float32)."""
    return eye(n, dtype=dtype, ctx=ctx)


# ---- ranges -----------------------------------------------------------------------------------
def _real(v, func, arg):
    if isinstance(v, (bool, _onp.bool_)) or not isinstance(v, (numbers.Real, _onp.integer, _onp.floating)):
        raise ArgumentTypeError("%s: argument %s must be a real number, got %s" % (func, arg, type(v).__name__))
    return v.item() if isinstance(v, _onp.generic) else v


def arange(start, stop=None, step=1, dtype=None, ctx=None):
    """Evenly spaced values in [start, stop) (MXNet's default dtype: float32;
    under ``npx.set_np(dtype=True)`` int64 for integer arguments, else float64)."""
    start = _real(start, "arange", "start")
    step = _real(step, "arange", "step")
    if stop is None:
        start, stop = 0, start
    else:
        stop = _real(stop, "arange", "stop")
    if step == 0:
        raise ValueError("arange: argument step must not be zero")
    if dtype is None:
        ints = all(isinstance(v, numbers.Integral) for v in (start, stop, step))
        name = default_int() if ints else default_float()
    else:
        name = _args.dtype_name(dtype, "arange")
    length = max(0, int(math.ceil((stop - start) / step)))
    if length == 0:
        return zeros((0,), dtype=name, ctx=ctx)
    return _invoke("_arange", [], start=start, stop=stop, step=step, repeat=1, ctx=_ctx(ctx), dtype=name)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):
    """num evenly spaced values over [start, stop] (or [start, stop) without
    endpoint); with retstep also the spacing. start and stop are numbers, as in
    MXNet 1.9.1 (NumPy also takes arrays), so the result is 1-D and axis is 0 or -1."""
    start = _real(start, "linspace", "start")
    stop = _real(stop, "linspace", "stop")
    num = _args.index(num, "linspace", "num")
    if num < 0:
        raise ValueError("linspace: argument num must be non-negative, got %d" % num)
    if _args.index(axis, "linspace", "axis") not in (0, -1):
        raise _args.AxisError("linspace: argument axis %d is out of bounds for the 1-d result" % axis)
    name = _float_or(dtype, "linspace")
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else float("nan")
    if num == 0:
        res = zeros((0,), dtype=name, ctx=ctx)
    else:
        res = _invoke("_linspace", [], start=start, stop=stop, num=num, endpoint=bool(endpoint),
                      ctx=_ctx(ctx), dtype=name)
    return (res, step) if retstep else res


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):
    """base ** linspace(start, stop, num, endpoint): num values spaced evenly on a log scale."""
    base = _real(base, "logspace", "base")
    name = _float_or(dtype, "logspace")
    exps = linspace(start, stop, num, endpoint=endpoint, dtype="float64", axis=axis, ctx=ctx)
    if exps.size == 0:
        return zeros((0,), dtype=name, ctx=ctx)
    res = _invoke("_rpower_scalar", [exps], scalar=float(base))
    return res if name == "float64" else _np(res.astype(name))


def meshgrid(*xi, **kwargs):
    """Coordinate matrices from coordinate vectors (NumPy's meshgrid: indexing
    'xy' or 'ij', sparse, copy)."""
    indexing = kwargs.pop("indexing", "xy")
    sparse = kwargs.pop("sparse", False)
    copy_ = kwargs.pop("copy", True)
    if kwargs:
        raise ArgumentTypeError("meshgrid: unknown argument(s) %s" % ", ".join(sorted(kwargs)))
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: argument indexing must be 'xy' or 'ij', got %r" % (indexing,))
    xs = [_as_ndarray(x, "meshgrid", "xi") for x in xi]
    n = len(xs)
    lens = [x.size for x in xs]
    if indexing == "xy" and n > 1:
        lens[0], lens[1] = lens[1], lens[0]
    out = []
    for i, x in enumerate(xs):
        pos = i
        if indexing == "xy" and n > 1 and i < 2:
            pos = 1 - i
        s = [1] * n
        s[pos] = x.size
        v = _np(x._view(tuple(s)))
        if sparse:
            out.append(copy(v) if copy_ else v)
        else:
            out.append(_broadcast_value(v, tuple(lens), "meshgrid"))
    return out


def indices(dimensions, dtype=None, ctx=None):
    """An array of shape (len(dimensions),) + dimensions whose i-th slice holds
    the index along axis i (default dtype int32, as MXNet)."""
    dims = _args.shape_tuple(dimensions, "indices", "dimensions")
    name = "int32" if dtype is None else _args.dtype_name(dtype, "indices")
    n = len(dims)
    if n == 0 or 0 in dims:
        return zeros((n,) + dims, dtype=name, ctx=ctx)
    parts = []
    for i, d in enumerate(dims):
        s = [1] * n
        s[i] = d
        r = _np(arange(d, dtype=name, ctx=ctx)._view(tuple(s)))
        parts.append(_broadcast_value(r, dims, "indices"))
    return _invoke("stack", parts, axis=0, num_args=n)


# ---- diagonals --------------------------------------------------------------------------------
def diag(v, k=0):
    """The k-th diagonal of a 2-D array, or a 2-D array with the 1-D v on its
    k-th diagonal."""
    v = _as_ndarray(v, "diag", "v")
    k = _args.index(k, "diag", "k")
    if v.ndim not in (1, 2):
        raise ValueError("diag: argument v must be 1-d or 2-d, got %d-d" % v.ndim)
    if v.ndim == 2:
        return diagonal(v, offset=k)
    n = v.size + abs(k)
    if v.size == 0:
        return zeros((n, n), dtype=v.dtype, ctx=v.context)
    return _invoke("diag", [v], k=k)


def diagflat(v, k=0):
    """A 2-D array with the flattened v on its k-th diagonal."""
    v = _as_ndarray(v, "diagflat", "v")
    return diag(_np(v._view((v.size,))), k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal at offset over axes axis1 and axis2: those axes are removed
    and the diagonal is the last axis (NumPy's diagonal; a new array, not a view)."""
    a = _as_ndarray(a, "diagonal")
    if a.ndim < 2:
        raise ValueError("diagonal: argument a must have at least 2 dimensions, got %d" % a.ndim)
    offset = _args.index(offset, "diagonal", "offset")
    ax1 = _args.norm_axis(axis1, a.ndim, "diagonal", "axis1")
    ax2 = _args.norm_axis(axis2, a.ndim, "diagonal", "axis2")
    if ax1 == ax2:
        raise ValueError("diagonal: axis1 and axis2 cannot be the same (%d)" % ax1)
    n1, n2 = a.shape[ax1], a.shape[ax2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    rest = tuple(d for i, d in enumerate(a.shape) if i not in (ax1, ax2))
    if length == 0 or a.size == 0:
        return zeros(rest + (length,), dtype=a.dtype, ctx=a.context)
    return _invoke("diag", [a], k=offset, axis1=ax1, axis2=ax2)
