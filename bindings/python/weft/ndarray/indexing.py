"""NDArray indexing with NumPy semantics.

Reading (``a[key]``):
  * an int, or a contiguous slice on axis 0 (also after leading ints), returns a
    *view* (weft_ndarray_at / weft_ndarray_slice: same memory, same engine var);
  * other basic keys (steps, slices on later axes, Ellipsis, None) run the
    ``slice`` op and reshape the result;
  * advanced keys: one integer array -> ``take`` along axis 0; a tuple of integer
    arrays -> ``gather_nd``; anything else NumPy accepts (boolean masks, mixes of
    slices and arrays) -> the flat positions are computed with NumPy on the host
    and gathered with ``take``. Index arrays given as NDArrays are copied to the
    host in the last two cases. A single NDArray index is not copied: take runs with
    mode='raise', so an index outside [0, n) fails at the next wait (no negative indices).
Writing (``a[key] = value``) with a scalar, NDArray, numpy array or list:
  * views: ``_full`` (scalar) or a copy into the view;
  * other basic keys: ``_slice_assign_scalar`` / ``_slice_assign`` with out=a;
  * advanced keys: ``_scatter_set_nd`` with out=a.
Integer indexing never yields a 0-d array: as in MXNet 1.x (and the core's
weft_ndarray_at), ``a[i]`` of a 1-d array and ``a[i, j]`` of a 2-d one have shape (1,).
Every other result has NumPy's shape.
"""
# pylint: disable=protected-access
import numbers

import numpy as np

from .. import dtypes as _dt
from ..base import ArgumentTypeError, check_call, lib
from .creation import _host_as, array, empty
from .ndarray_class import NDArray
from .op_call import _call
from .reshaping import _broadcast_to_nd

_INT_TYPES = (int, np.integer)


def _is_int(k):
    return isinstance(k, _INT_TYPES) and not isinstance(k, (bool, np.bool_))


def _is_advanced(k):
    return isinstance(k, (list, np.ndarray, NDArray)) or isinstance(k, (bool, np.bool_))


def _norm_index(i, n, axis):
    i = int(i)
    if i < -n or i >= n:
        raise IndexError("index %d is out of bounds for axis %d with size %d" % (i, axis, n))
    return i + n if i < 0 else i


def _expand(key, ndim):
    """key as a tuple of ints/slices/None covering ndim axes (Ellipsis expanded)."""
    if not isinstance(key, tuple):
        key = (key,)
    n_ell = sum(1 for k in key if k is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_real > ndim:
        raise IndexError("too many indices for array: array is %d-dimensional, but %d were indexed"
                         % (ndim, n_real))
    out = []
    for k in key:
        if k is Ellipsis:
            out.extend([slice(None)] * (ndim - n_real))
        else:
            out.append(k)
    if not n_ell:
        out.extend([slice(None)] * (ndim - n_real))
    return out


def _check_basic(k):
    if k is None or isinstance(k, slice) or _is_int(k):
        if isinstance(k, slice):
            for v in (k.start, k.stop, k.step):
                if v is not None and not _is_int(v):
                    if isinstance(v, NDArray) and v.size == 1:
                        continue
                    raise IndexError("slice indices must be integers or None, got %r" % (v,))
        return
    raise IndexError("only integers, slices (':'), ellipsis ('...'), None (newaxis) and integer or "
                     "boolean arrays are valid indices; got %s" % type(k).__name__)


def _slice_bounds(s, n):
    start, stop, step = s.indices(n)
    length = len(range(start, stop, step))
    return start, stop, step, length


# ---- reading ------------------------------------------------------------------------------
def getitem(a, key):
    shape = a.shape
    if _is_int(key):
        if not shape:
            raise IndexError("too many indices for a 0-d NDArray")
        return a._at(_norm_index(key, shape[0], 0))
    if isinstance(key, slice) and (key.step is None or key.step == 1) and shape:
        start, stop, _, length = _slice_bounds(key, shape[0])
        if length == shape[0]:
            return a
        if length == 0:
            return empty((0,) + shape[1:], ctx=a.context, dtype=a._dtype_flag)
        return a._slice(start, start + length)
    tkey = key if isinstance(key, tuple) else (key,)
    if any(_is_advanced(k) for k in tkey):
        return _advanced_get(a, tkey)
    for k in tkey:
        if k is not Ellipsis:
            _check_basic(k)
    return _basic_get(a, _expand(tkey, len(shape)))


def _basic_get(a, key):
    # Leading ints and one contiguous slice are views.
    cur = a
    i = 0
    while i < len(key) and _is_int(key[i]):
        cur = cur._at(_norm_index(key[i], cur.shape[0], i))
        i += 1
    rest = key[i:]
    if not rest:
        return cur
    shape = cur.shape
    if all(isinstance(k, slice) for k in rest):
        first = rest[0]
        full_after = all(k == slice(None) or _is_full(k, shape[j + 1]) for j, k in enumerate(rest[1:]))
        if full_after and (first.step is None or first.step == 1):
            start, _, _, length = _slice_bounds(first, shape[0])
            if length == shape[0]:
                return cur
            if length == 0:
                return empty((0,) + shape[1:], ctx=a.context, dtype=a._dtype_flag)
            return cur._slice(start, start + length)
    # General case: one slice op over the real axes, then a reshape for ints/None.
    begin, end, step, final = [], [], [], []
    axis = 0
    zero = False
    for k in rest:
        if k is None:
            final.append(1)
            continue
        n = shape[axis]
        if _is_int(k):
            j = _norm_index(k, n, axis + i)
            begin.append(j)
            end.append(j + 1)
            step.append(1)
        else:
            s0, s1, st, length = _slice_bounds(k, n)
            if length == 0:
                zero = True
            begin.append(s0)
            end.append(None if (st < 0 and s1 < 0) else s1)
            step.append(st)
            final.append(length)
        axis += 1
    if zero:
        return empty(tuple(final), ctx=a.context, dtype=a._dtype_flag)
    trivial = all(b == 0 and e == shape[j] and s == 1 for j, (b, e, s) in enumerate(zip(begin, end, step)))
    res = cur if trivial else _call("slice", [cur], begin=tuple(begin), end=tuple(end), step=tuple(step))
    if res.shape != tuple(final):
        res = res._view(final)
    return res


def _is_full(k, n):
    return isinstance(k, slice) and k.indices(n) == (0, n, 1)


def _host_index(k):
    """An advanced index entry as a numpy array (NDArray indices are copied to the host)."""
    if isinstance(k, NDArray):
        k = k.asnumpy()
    k = np.asarray(k)
    if k.dtype == np.bool_ or k.dtype.kind in "iu":
        return k
    if k.dtype.kind == "f" and k.size and np.all(np.floor(k) == k):
        return k.astype(np.int64)  # MXNet passes float index arrays around
    if k.size == 0:
        return k.astype(np.int64)
    raise IndexError("arrays used as indices must be of integer (or boolean) type, got %s" % k.dtype)


def _index_nd(idx, ctx):
    return array(idx, ctx=ctx, dtype=np.int64 if idx.size and (idx.max() >= 2 ** 31 - 1) else np.int32)


def _advanced_get(a, key):
    shape = a.shape
    ctx = a.context
    # One integer index array: take along axis 0.
    if len(key) == 1 and not isinstance(key[0], (bool, np.bool_)):
        k = key[0]
        if isinstance(k, NDArray) and k.dtype.kind in "iuf":  # MXNet scripts index with float arrays
            if not shape:
                raise IndexError("too many indices for a 0-d NDArray")
            return _call("take", [a, k], axis=0, mode="raise")  # bad indices fail at the next wait
        idx = _host_index(k)
        if idx.dtype != np.bool_ and shape:
            n = shape[0]
            if idx.size and (idx.min() < -n or idx.max() >= n):
                bad = idx[(idx < -n) | (idx >= n)].flat[0]
                raise IndexError("index %d is out of bounds for axis 0 with size %d" % (bad, n))
            idx = np.where(idx < 0, idx + n, idx)
            if idx.size == 0:
                return empty(idx.shape + shape[1:], ctx=ctx, dtype=a._dtype_flag)
            return _call("take", [a, _index_nd(idx, ctx)], axis=0)
    # Only integer arrays / ints on the leading axes: gather_nd.
    if all((_is_int(k) or isinstance(k, (list, np.ndarray, NDArray))) for k in key) and len(key) <= len(shape):
        parts = [_host_index(k) if not _is_int(k) else np.asarray(int(k)) for k in key]
        if all(p.dtype != np.bool_ for p in parts):
            try:
                parts = np.broadcast_arrays(*parts)
            except ValueError:
                raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                                 "shapes %s" % " ".join(str(p.shape) for p in parts)) from None
            norm = []
            for ax, p in enumerate(parts):
                n = shape[ax]
                if p.size and (p.min() < -n or p.max() >= n):
                    bad = p[(p < -n) | (p >= n)].flat[0]
                    raise IndexError("index %d is out of bounds for axis %d with size %d" % (bad, ax, n))
                norm.append(np.where(p < 0, p + n, p))
            bshape = norm[0].shape
            if norm[0].size == 0:
                return empty(bshape + shape[len(key):], ctx=ctx, dtype=a._dtype_flag)
            indices = np.stack(norm, axis=0)
            return _call("gather_nd", [a, _index_nd(indices, ctx)])
    # Anything else NumPy accepts: flat positions on the host, then take.
    hkey = tuple(_host_index(k) if _is_advanced(k) and not isinstance(k, (bool, np.bool_)) else k for k in key)
    positions = _positions(shape, hkey)
    if positions.size == 0:
        return empty(positions.shape, ctx=ctx, dtype=a._dtype_flag)
    flat = a._view((a.size,))
    res = _call("take", [flat, _index_nd(positions.reshape(-1), ctx)], axis=0)
    return res._view(positions.shape)


def _positions(shape, key):
    size = 1
    for d in shape:
        size *= d
    dt = np.int64 if size >= 2 ** 31 - 1 else np.int32
    return np.arange(size, dtype=dt).reshape(shape)[key]


# ---- writing ------------------------------------------------------------------------------
def _as_value(a, value):
    """(kind, value): ('scalar', number) | ('nd', NDArray) | ('np', numpy array)."""
    if isinstance(value, NDArray):
        return "nd", value
    if isinstance(value, (numbers.Number, np.generic)) and not isinstance(value, (complex, np.complexfloating)):
        return "scalar", value
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "biuf":
        return "scalar", value[()]
    try:
        v = np.asarray(value)
    except Exception:  # pylint: disable=broad-except
        v = None
    if v is None or v.dtype.kind not in "biuf" and v.dtype.names is None:
        raise ArgumentTypeError("NDArray does not support assignment with a value of type %s"
                                % type(value).__name__)
    return "np", v


def _scalar_text(v):
    if isinstance(v, (bool, np.bool_)):
        return 1 if v else 0
    if isinstance(v, np.generic):
        return v.item()
    return v


def _fill_view(v, kind, value):
    """Writes value into the whole of v (a view or an array)."""
    if kind == "scalar":
        _call("_full", [], out=v, shape=v.shape, ctx=v.context, dtype=_dt.name(v._dtype_flag),
              value=_scalar_text(value))
    elif kind == "nd":
        src = _broadcast_to_nd(value, v.shape)
        if src.handle == v.handle:
            return
        check_call(lib.weft_ndarray_copy(src.handle, v.handle))
    else:
        src = _host_as(value, v._dtype_flag, v.shape)
        if src is None:  # dtype numpy cannot hold: upload then convert
            tmp = array(value, ctx=v.context, dtype=np.float32)
            check_call(lib.weft_ndarray_copy(_broadcast_to_nd(tmp, v.shape).handle, v.handle))
        else:
            v._sync_copyfrom(src)


def _value_nd(a, kind, value, shape):
    """value as an NDArray of a's dtype and context with exactly shape."""
    if kind == "nd":
        if value.context != a.context:
            value = value.copyto(a.context)
        if value._dtype_flag != a._dtype_flag:
            value = value.astype(a._dtype_flag)
        return _broadcast_to_nd(value, shape)
    res = empty(shape, ctx=a.context, dtype=a._dtype_flag)
    _fill_view(res, kind, value)
    return res


def setitem(a, key, value):
    kind, value = _as_value(a, value)
    shape = a.shape
    tkey = key if isinstance(key, tuple) else (key,)
    if any(_is_advanced(k) for k in tkey):
        _advanced_set(a, tkey, kind, value)
        return
    for k in tkey:
        if k is not Ellipsis:
            _check_basic(k)
    key = [k for k in _expand(tkey, len(shape)) if k is not None]
    # Views: leading ints, then one contiguous slice, then full axes.
    cur = a
    i = 0
    while i < len(key) and _is_int(key[i]):
        cur = cur._at(_norm_index(key[i], cur.shape[0], i))
        i += 1
    rest = key[i:]
    cshape = cur.shape
    if not rest or (all(isinstance(k, slice) for k in rest)
                    and (rest[0].step is None or rest[0].step == 1)
                    and all(_is_full(k, cshape[j + 1]) for j, k in enumerate(rest[1:]))):
        if rest:
            start, _, _, length = _slice_bounds(rest[0], cshape[0])
            if length == 0:
                return
            if length != cshape[0]:
                cur = cur._slice(start, start + length)
        if cur.size:
            _fill_view(cur, kind, value)
        return
    # Strided or inner-axis regions: _slice_assign(_scalar) over the whole array.
    begin, end, step, region, result = [], [], [], [], []
    for axis, k in enumerate(key):
        n = shape[axis]
        if _is_int(k):
            j = _norm_index(k, n, axis)
            begin.append(j)
            end.append(j + 1)
            step.append(1)
            region.append(1)
        else:
            s0, s1, st, length = _slice_bounds(k, n)
            if length == 0:
                return
            begin.append(s0)
            end.append(None if (st < 0 and s1 < 0) else s1)
            step.append(st)
            region.append(length)
            result.append(length)
    attrs = dict(begin=tuple(begin), end=tuple(end), step=tuple(step))
    if kind == "scalar":
        _call("_slice_assign_scalar", [a], out=a, scalar=_scalar_text(value), **attrs)
        return
    if kind == "np":
        src = _host_as(value, a._dtype_flag, tuple(result)) if _dt.is_native_numpy(a._dtype_flag) else None
        rhs = array(src.reshape(region), ctx=a.context, dtype=a._dtype_flag) if src is not None else \
            _value_nd(a, kind, value, tuple(result))._view(region)
    else:
        rhs = _value_nd(a, kind, value, tuple(result))._view(region)
    _call("_slice_assign", [a, rhs], out=a, **attrs)


def _advanced_set(a, key, kind, value):
    shape = a.shape
    hkey = tuple(_host_index(k) if _is_advanced(k) and not isinstance(k, (bool, np.bool_)) else k for k in key)
    # Leading integer arrays only: indices address the first M axes directly.
    simple = all(_is_int(k) or (isinstance(k, np.ndarray) and k.dtype != np.bool_) for k in hkey) \
        and len(hkey) <= len(shape)
    if simple:
        parts = [np.asarray(int(k)) if _is_int(k) else k for k in hkey]
        try:
            parts = np.broadcast_arrays(*parts)
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together") from None
        norm = []
        for ax, p in enumerate(parts):
            n = shape[ax]
            if p.size and (p.min() < -n or p.max() >= n):
                bad = p[(p < -n) | (p >= n)].flat[0]
                raise IndexError("index %d is out of bounds for axis %d with size %d" % (bad, ax, n))
            norm.append(np.where(p < 0, p + n, p))
        bshape = norm[0].shape
        indices = np.stack(norm, axis=0).reshape(len(norm), -1)
        rshape = (indices.shape[1],) + tuple(shape[len(norm):])
        vshape = bshape + tuple(shape[len(norm):])
    else:
        pos = _positions(shape, hkey)
        vshape = pos.shape
        indices = np.stack(np.unravel_index(pos.reshape(-1), shape), axis=0) if shape else pos.reshape(0, -1)
        rshape = (indices.shape[1],)
    if indices.shape[1] == 0:
        return
    if kind == "np":
        try:
            v = np.broadcast_to(value, vshape)
        except ValueError:
            raise ValueError("cannot assign a value of shape %s to an index result of shape %s"
                             % (value.shape, vshape)) from None
        rhs = _value_nd(a, "np", np.ascontiguousarray(v).reshape(rshape), rshape)
    elif kind == "scalar":
        rhs = _value_nd(a, "scalar", value, rshape)
    else:
        rhs = _value_nd(a, "nd", value, vshape)._view(rshape)
    _call("_scatter_set_nd", [a, rhs, _index_nd(indices, a.context)], out=a, shape=shape)


# ---- MXNet's indexing helpers (mx.nd.get_indexing_dispatch_code, ...) --------------------------
# The dispatch codes of MXNet 1.9.1's ndarray.py.
_NDARRAY_UNSUPPORTED_INDEXING = -1
_NDARRAY_BASIC_INDEXING = 0
_NDARRAY_ADVANCED_INDEXING = 1
_NDARRAY_EMPTY_TUPLE_INDEXING = 2
# What indexing_key_expand_implicit_axes says about 0-d boolean indices.
_NDARRAY_NO_ZERO_DIM_BOOL_ARRAY = -1
_NDARRAY_ZERO_DIM_BOOL_ARRAY_FALSE = 0
_NDARRAY_ZERO_DIM_BOOL_ARRAY_TRUE = 1


def get_indexing_dispatch_code(key):
    """Returns a dispatch code for calling basic or advanced indexing functions:
    0 basic (ints, slices, None), 1 advanced (an array, list, tuple or range in
    the key), 2 an empty tuple inside the key. key must be a tuple."""
    assert isinstance(key, tuple)
    for idx in key:
        if isinstance(idx, (NDArray, np.ndarray, list, tuple, range)):
            if isinstance(idx, tuple) and len(idx) == 0:
                return _NDARRAY_EMPTY_TUPLE_INDEXING
            return _NDARRAY_ADVANCED_INDEXING
        if not (isinstance(idx, (slice,) + _INT_TYPES) or idx is None):
            raise ValueError("NDArray does not support slicing with key {} of type {}.".format(idx, type(idx)))
    return _NDARRAY_BASIC_INDEXING


def get_oshape_of_gather_nd_op(dshape, ishape):
    """The output shape of gather_nd for data shape dshape and index shape
    ishape: ishape[1:] + dshape[ishape[0]:]."""
    assert len(dshape) > 0 and len(ishape) > 0
    oshape = list(ishape[1:])
    if ishape[0] < len(dshape):
        oshape.extend(dshape[ishape[0]:])
    return tuple(oshape)


def _check_boolean_array_dimension(array_shape, axis, bool_shape):
    for i, val in enumerate(bool_shape):
        if array_shape[axis + i] != val:
            raise IndexError("boolean index did not match indexed array along axis {};"
                             " size is {} but corresponding boolean size is {}"
                             .format(axis + i, array_shape[axis + i], val))


def indexing_key_expand_implicit_axes(key, shape):
    """Makes the implicit axes of an indexing key explicit with slice(None)
    (an Ellipsis, or missing trailing axes), as MXNet 1.9.1 does; returns
    (expanded_key, prepend) where prepend tells a 0-d boolean index: -1 none,
    0 False, 1 True. A boolean NDArray index needs NumPy semantics, which weft's
    legacy arrays do not have: it raises ValueError after the shape check, as
    MXNet does outside npx.set_np()."""
    if not isinstance(key, tuple):
        key = (key,)
    ell_idx = None
    num_none = 0
    nonell_key = []
    prepend = _NDARRAY_NO_ZERO_DIM_BOOL_ARRAY
    axis = 0
    for i, idx in enumerate(key):
        if idx is Ellipsis:
            if ell_idx is not None:
                raise IndexError("Cannot use more than one ellipsis (`...`) for indexing")
            ell_idx = i
            continue
        if isinstance(idx, (bool, np.bool_)):
            prepend = _NDARRAY_ZERO_DIM_BOOL_ARRAY_TRUE if idx else _NDARRAY_ZERO_DIM_BOOL_ARRAY_FALSE
            continue
        if idx is None:
            num_none += 1
        if isinstance(idx, NDArray) and idx.ndim == 0:
            if idx.dtype == np.bool_:
                prepend = (_NDARRAY_ZERO_DIM_BOOL_ARRAY_TRUE if idx.asnumpy() else _NDARRAY_ZERO_DIM_BOOL_ARRAY_FALSE)
            else:
                nonell_key.append(int(idx.asnumpy()))
                axis += 1
        elif isinstance(idx, NDArray) and idx.dtype == np.bool_:
            _check_boolean_array_dimension(shape, axis, idx.shape)
            raise ValueError("Cannot perform boolean indexing in legacy mode. Please activate numpy semantics by "
                             "calling `npx.set_np()` in the global scope before calling this function.")
        else:
            nonell_key.append(idx)
            axis += 1
    nonell_key = tuple(nonell_key)
    if ell_idx is None:
        ell_idx = len(nonell_key)
    ell_ndim = len(shape) + num_none - len(nonell_key)
    expanded_key = nonell_key[:ell_idx] + (slice(None),) * ell_ndim + nonell_key[ell_idx:]
    return expanded_key, prepend
