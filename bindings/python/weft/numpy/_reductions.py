"""``weft.np``'s reductions (MXNet 1.9.1's ``mx.np.sum`` ... ``average``,
``argmax``, ``cumsum``) with NumPy-mode shapes.

Note [NumPy-mode reductions over legacy ops]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The registry's reductions (``sum``, ``prod``, ``max``, ``min``, ``mean``)
take an axis tuple and keepdims, but a full reduction gives shape (1,) and
``axis=()`` means "all axes". NumPy mode wants a 0-d array for a full
reduction and the input itself (reduced over nothing) for ``axis=()``. So the
axis is normalised here (negative axes, range and duplicate checks with
NumPy's AxisError) and the op's output is viewed with the NumPy shape (a
view: autograd flows through it). The dtypes follow MXNet's ``_npi_sum``:
bool sums and products give int64, other types keep theirs unless dtype= is
given (then the input is cast first, as NumPy accumulates in dtype); means,
variances and deviations of integers give the default float type.
"""
# pylint: disable=redefined-builtin,invalid-name
import builtins

import numpy as onp

from ..base import DTypeError, error_for, ffi, invoke1, lib
from ..dtypes import FLAG_TO_NAME
from ..ndarray.ndarray import _new_obj
from ..ndarray.op_call import _fail, _op
from ._array import _invoke, _np, ndarray
from ._promotion import default_float_dtype, dtype_name, is_bool, is_float
from ._ufunc_core import cast, check_array, name_of, write_out

__all__ = ["sum", "prod", "product", "max", "min", "amax", "amin", "mean", "std", "var", "average", "all",
           "any", "sometrue", "cumsum", "argmax", "argmin"]

# The dtype flags of the float types, on which the fast paths below need no promotion.
_FLOAT_FLAGS = frozenset(f for f, n in FLAG_TO_NAME.items() if n in ("float16", "float32", "float64"))
_NO_DIMS = ffi.new("int64_t[1]")  # the (unread) dims of a 0-d shape

AxisError = getattr(getattr(onp, "exceptions", onp), "AxisError", None) or onp.AxisError


def normalize_axis(fname, axis, ndim):
    """axis (None, int or tuple) as a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for ax in axes:
        if not isinstance(ax, (int, onp.integer)) or isinstance(ax, bool):
            raise TypeError("%s: axis must be an integer or a tuple of integers, got %s"
                            % (fname, type(ax).__name__))
        if not -ndim <= ax < ndim:
            raise AxisError("%s: axis %d is out of bounds for array of dimension %d" % (fname, ax, ndim))
        a = int(ax) % ndim
        if a in out:
            raise ValueError("%s: duplicate value in 'axis'" % fname)
        out.append(a)
    return tuple(sorted(out))


def reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduce(opname, fname, a, axis, keepdims, identity_ok=True):
    a = check_array(fname, "a", a)
    axes = normalize_axis(fname, axis, a.ndim)
    shape = reduced_shape(a.shape, axes, keepdims)
    if not identity_ok and builtins.any(a.shape[i] == 0 for i in axes):
        raise ValueError("%s: zero-size array to reduction operation %s which has no identity"
                         % (fname, fname))
    if not axes:
        return _invoke("_plus_scalar", [a], scalar=0)
    res = _invoke(opname, [a], axis=axes, keepdims=bool(keepdims))
    return res if tuple(res.shape) == shape else _np(res._view(shape))


def _sum_dtype(a, dtype):
    if dtype is not None:
        return dtype_name(dtype)
    name = name_of(a)
    return "int64" if is_bool(name) else name


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Sum over axis (None: all; a tuple of axes; negative axes count from the end).

    A full reduction gives a 0-d array; bool input gives int64 (MXNet's
    ``_npi_sum``); dtype= casts before summing. ``initial`` is added to the
    result; ``where`` is not supported (MXNet 1.9.1 has no where= either)."""
    a = check_array("sum", "a", a)
    _no_where("sum", where)
    res = _reduce("sum", "sum", cast(a, _sum_dtype(a, dtype)), axis, keepdims)
    if initial is not None:
        res = _invoke("_plus_scalar", [res], scalar=initial)
    return write_out("sum", res, out)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Product over axis; dtypes and shapes as sum. ``initial`` multiplies the result."""
    a = check_array("prod", "a", a)
    _no_where("prod", where)
    res = _reduce("prod", "prod", cast(a, _sum_dtype(a, dtype)), axis, keepdims)
    if initial is not None:
        res = _invoke("_mul_scalar", [res], scalar=initial)
    return write_out("prod", res, out)


product = prod  # NumPy's deprecated alias (removed in NumPy 2.x), still in MXNet 1.9.1


def max(a, axis=None, out=None, keepdims=False):
    """The largest element over axis; ValueError for an empty reduction (as NumPy)."""
    return write_out("max", _reduce("max", "max", a, axis, keepdims, identity_ok=False), out)


def min(a, axis=None, out=None, keepdims=False):
    """The smallest element over axis; ValueError for an empty reduction (as NumPy)."""
    return write_out("min", _reduce("min", "min", a, axis, keepdims, identity_ok=False), out)


amax = max
amin = min


def _float_dtype(a, dtype):
    if dtype is not None:
        name = dtype_name(dtype)
        if not is_float(name):
            raise DTypeError("mean: dtype must be a float type, got %s" % name)
        return name
    name = name_of(a)
    return name if is_float(name) else default_float_dtype()


def _mean_all_fast(a, _cls=ndarray, _fl=_FLOAT_FLAGS, _new=_new_obj, _cnew=ffi.new, _reshape=lib.weft_ndarray_reshape):
    """mean(a) over every axis of a non-empty float ndarray with one cffi call
    and a 0-d view, or None: a loss's mean runs on every training step."""
    if a.__class__ is not _cls:
        return None
    f = a._dtype_flag
    if f not in _fl:
        return None
    s = a.shape
    if not s or 0 in s:
        return None
    h = invoke1(_op("mean"), a.handle, 0, b"")
    if not h:
        _fail("mean")
    o = _new(_cls)
    o.handle, o._dflag = h, f
    view = _cnew("weft_ndarray**")
    rc = _reshape(h, _NO_DIMS, 0, view)  # the op's (1,) as the 0-d result, a view (no copy)
    if rc:
        raise error_for(rc)
    r = _new(_cls)
    r.handle, r._shape, r._dflag = view[0], (), f
    return r


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    """The arithmetic mean over axis; integer and bool input give the default
    float type (MXNet's ``_npi_mean``); an empty reduction gives NaN."""
    if axis is None and dtype is None and out is None and not keepdims:
        res = _mean_all_fast(a)
        if res is not None:
            return res
    a = check_array("mean", "a", a)
    x = cast(a, _float_dtype(a, dtype))
    axes = normalize_axis("mean", axis, a.ndim)
    n = 1
    for i in axes:
        n *= a.shape[i]
    if n == 0:
        total = _reduce("sum", "mean", x, axes, keepdims)
        return write_out("mean", _invoke("_plus_scalar", [_invoke("zeros_like", [total])],
                                         scalar=float("nan")), out)
    # The legacy mean op (sum / n in one op, and one backward op): a loss's mean is on every step.
    return write_out("mean", _reduce("mean", "mean", x, axes, keepdims), out)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """The variance over axis: sum((a - mean)**2) / (N - ddof); integers give
    the default float type; N - ddof <= 0 gives inf or NaN as NumPy."""
    a = check_array("var", "a", a)
    if not isinstance(ddof, (int, onp.integer)):
        raise TypeError("var: ddof must be an integer, got %s" % type(ddof).__name__)
    x = cast(a, _float_dtype(a, dtype))
    axes = normalize_axis("var", axis, a.ndim)
    n = 1
    for i in axes:
        n *= a.shape[i]
    m = mean(x, axis=axes, keepdims=True)
    d = _invoke("broadcast_sub", [x, m])
    ss = _reduce("sum", "var", _invoke("square", [d]), axes, keepdims)
    denom = float(n - ddof)
    if denom <= 0:
        # NumPy divides by max(N - ddof, 0): 0/0 is NaN, x/0 is inf.
        return write_out("var", _invoke("_mul_scalar", [ss], scalar=float("inf")) if n else
                         _invoke("_plus_scalar", [ss], scalar=float("nan")), out)
    return write_out("var", _invoke("_div_scalar", [ss], scalar=denom), out)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """The standard deviation over axis: sqrt(var(a, axis, ddof))."""
    return write_out("std", _invoke("sqrt", [var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)]), out)


def average(a, axis=None, weights=None, returned=False, out=None):
    """The weighted average over axis: sum(a * w) / sum(w) (the mean without
    weights), by the registry op ``_npi_average`` (MXNet's name: a traced
    graph loads in MXNet), differentiable in ``a`` and ``weights``. 1-D
    weights with an int axis are laid along that axis, as NumPy.

    As in MXNet 1.9.1 (Note [np.average as MXNet returns it]): the result has
    ``a``'s dtype (an integer average is truncated, where NumPy gives float64);
    with returned=True the sum of weights is per output element for weights of
    ``a``'s shape, but 0-d for 1-D weights and the 0-d count without weights
    (NumPy broadcasts it to the average's shape). The weights are cast to
    ``a``'s dtype and not checked for a zero sum (that would wait for the
    result): a zero sum gives inf/NaN."""
    a = check_array("average", "a", a)
    axes = None if axis is None else normalize_axis("average", axis, a.ndim)
    if weights is None:
        res = _invoke("_npi_average", [a], axis=axes, returned=bool(returned), weighted=False)
    else:
        w = check_array("average", "weights", weights)
        if tuple(w.shape) != tuple(a.shape):
            if axis is None:
                raise TypeError("average: axis must be specified when shapes of a and weights differ")
            if w.ndim != 1:
                raise TypeError("average: 1D weights expected when shapes of a and weights differ")
            if len(axes) != 1:
                raise TypeError("average: a single axis is expected with 1D weights")
            if w.shape[0] != a.shape[axes[0]]:
                raise ValueError("average: length of weights (%d) differs from that of a along axis %d (%d)"
                                 % (w.shape[0], axes[0], a.shape[axes[0]]))
        w = w if name_of(w) == name_of(a) else cast(w, name_of(a))
        res = _invoke("_npi_average", [a, w], axis=axes, returned=bool(returned))
    if not returned:
        return write_out("average", res, out)
    avg, sum_w = res
    return write_out("average", avg, out), sum_w


def _count_true(fname, a, axis, keepdims):
    a = check_array(fname, "a", a)
    nz = cast(_invoke("_not_equal_scalar", [a], scalar=0), "int64")
    return a, _reduce("sum", fname, nz, axis, keepdims)


def any(a, axis=None, out=None, keepdims=False):
    """True where any element over axis is nonzero (False for an empty reduction)."""
    _, cnt = _count_true("any", a, axis, keepdims)
    return write_out("any", cast(_invoke("_greater_scalar", [cnt], scalar=0), "bool"), out)


def all(a, axis=None, out=None, keepdims=False):
    """True where every element over axis is nonzero (True for an empty reduction)."""
    a, cnt = _count_true("all", a, axis, keepdims)
    axes = normalize_axis("all", axis, a.ndim)
    n = 1
    for i in axes:
        n *= a.shape[i]
    return write_out("all", cast(_invoke("_equal_scalar", [cnt], scalar=n), "bool"), out)


sometrue = any  # NumPy's deprecated alias (removed in NumPy 2.x), still in MXNet 1.9.1


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along axis (None: over the flattened array); bool input
    gives int64, dtype= casts first."""
    a = check_array("cumsum", "a", a)
    x = cast(a, _sum_dtype(a, dtype))
    if axis is None:
        x = _np(x.reshape((-1,)))
        ax = 0
    else:
        if isinstance(axis, (tuple, list)):
            raise TypeError("cumsum: axis must be an integer or None")
        ax = normalize_axis("cumsum", axis, a.ndim)[0]
    if x.ndim == 0:
        return write_out("cumsum", _np(x.reshape((1,))), out)
    return write_out("cumsum", _invoke("_np_cumsum", [x], axis=ax), out)


def _arg(ascending, fname, a, axis, out, keepdims):
    """argmax/argmin as ``topk(k=1)`` returning int64 indices.

    The legacy argmax/argmin ops return indices in the input's dtype, which
    is inexact past 2**11 for float16 and 2**24 for float32; topk's order
    (Note [Sort order] in core/op/sort/topk_rules.h) keeps equal values in
    index order, so the first occurrence wins as in NumPy, and NaN counts as
    the largest value (argmax finds the first NaN, as NumPy; argmin skips NaN)."""
    a = check_array(fname, "a", a)
    if axis is None:
        if a.size == 0:
            raise ValueError("%s: attempt to get %s of an empty sequence" % (fname, fname))
        flat = _np(a.reshape((-1,)))
        res = _np(_invoke("topk", [flat], axis=0, k=1, ret_typ="indices", is_ascend=ascending,
                          dtype="int64").reshape((1,) * a.ndim if keepdims else ()))
        return write_out(fname, res, out)
    if isinstance(axis, (tuple, list)):
        raise TypeError("%s: axis must be an integer or None" % fname)
    ax = normalize_axis(fname, axis, a.ndim)[0]
    if a.shape[ax] == 0:
        raise ValueError("%s: attempt to get %s of an empty sequence" % (fname, fname))
    res = _invoke("topk", [a], axis=ax, k=1, ret_typ="indices", is_ascend=ascending, dtype="int64")
    return write_out(fname, _np(res.reshape(reduced_shape(a.shape, (ax,), keepdims))), out)


def argmax(a, axis=None, out=None, keepdims=False):
    """Indices (int64) of the largest elements along axis (None: of the flattened array)."""
    return _arg(False, "argmax", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, keepdims=False):
    """Indices (int64) of the smallest elements along axis (None: of the flattened array)."""
    return _arg(True, "argmin", a, axis, out, keepdims)


def _no_where(fname, where):
    if where is not None and where is not True:
        raise TypeError("%s: where= is not supported" % fname)
