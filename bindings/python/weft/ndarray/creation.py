"""Making arrays: ``empty``, ``array`` (from numpy, lists or NDArrays),
``zeros``, ``ones``, ``full``, ``arange``, ``eye``, ``zeros_like``, ``ones_like``,
and the host-side conversion of numpy data to a weft dtype."""
# pylint: disable=protected-access,invalid-name
import operator
import warnings

import numpy as np

from .. import dtypes as _dt
from ..base import ArgumentTypeError, DTypeError, ShapeError, check_call, ffi, lib
from ..context import Context, current_context
from .ndarray_class import NDArray, _wrap
from .op_call import _call, _param_names, has_op


def _ctx(ctx):
    if ctx is None:
        return current_context()
    if isinstance(ctx, Context):
        return ctx
    return Context(ctx)


def _shape_tuple(shape):
    """The shape as a tuple of ints; a float dimension is refused as NumPy
    refuses it (int() would truncate (2.5, 3) to (2, 3) silently)."""
    try:
        if isinstance(shape, (int, np.integer)):
            return (operator.index(shape),)
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        raise ArgumentTypeError("shape must be an int or a tuple of ints, got %r" % (shape,)) from None


def empty(shape, ctx=None, dtype=None):
    """A new array with uninitialised content (default dtype float32)."""
    shape = _shape_tuple(shape)
    ctx = _ctx(ctx)
    f = _dt.DEFAULT_FLAG if dtype is None else _dt.flag(dtype)
    out = ffi.new("weft_ndarray**")
    check_call(lib.weft_ndarray_create(shape, len(shape), f, ctx.device_typeid, ctx.device_id, out))
    return _wrap(out[0])


def _host_as(src, f, shape):
    """src as a C-contiguous numpy array of weft dtype f broadcast to shape, or None
    when numpy cannot represent that dtype (bfloat16 without ml_dtypes)."""
    target = _dt.FLAG_TO_NP[f]
    if f == 12 and not _dt.is_native_numpy(12):
        if src.dtype == target:
            return np.ascontiguousarray(np.broadcast_to(src, shape))
        return None
    if src.dtype != target:
        if src.dtype.kind in "fc" and target.kind in "iub" and src.size:
            src = np.where(np.isfinite(src), src, 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            src = src.astype(target)
    if src.shape != tuple(shape):
        extra = src.ndim - len(shape)
        if extra > 0 and all(d == 1 for d in src.shape[:extra]):  # numpy drops leading 1s
            src = src.reshape(src.shape[extra:])
        try:
            src = np.broadcast_to(src, shape)
        except ValueError:
            raise ShapeError("cannot broadcast a value of shape %s to shape %s"
                             % (src.shape, tuple(shape))) from None
    return np.ascontiguousarray(src)


def array(source_array, ctx=None, dtype=None):
    """An array copied from a numpy array, a (nested) list or an NDArray.

    As in MXNet 1.x, the default dtype is ``source_array.dtype`` when the source is
    an NDArray and float32 otherwise (numpy sources too: pass ``dtype=x.dtype`` to
    keep a numpy array's type)."""
    if isinstance(source_array, NDArray):
        f = source_array._dtype_flag if dtype is None else _dt.flag(dtype)
        res = empty(source_array.shape, ctx if ctx is not None else source_array.context, f)
        check_call(lib.weft_ndarray_copy(source_array.handle, res.handle))
        return res
    f = _dt.DEFAULT_FLAG if dtype is None else _dt.flag(dtype)
    if source_array is None:
        raise ArgumentTypeError("source_array must be array like object, got None")
    if not isinstance(source_array, np.ndarray):
        try:
            if f == 12 and not _dt.is_native_numpy(12):
                source_array = np.array(source_array, dtype=np.float32)
            else:
                source_array = np.array(source_array, dtype=_dt.FLAG_TO_NP[f])
        except (TypeError, ValueError) as e:
            raise ArgumentTypeError("source_array must be array like object (%s)" % e) from None
    # ml_dtypes' bfloat16 is a numpy "V"-kind dtype, and a real one (weft.dtypes).
    if source_array.dtype.kind in "OUSVcMm" and source_array.dtype.names is None \
            and source_array.dtype != _dt.bfloat16:
        raise DTypeError("cannot make an NDArray from a numpy array of dtype %s" % source_array.dtype)
    res = empty(source_array.shape, ctx, f)
    res._sync_copyfrom(source_array)
    return res


def _ctx_dtype_attrs(opname, ctx, dtype):
    return {"ctx": _ctx(ctx), "dtype": _dt.name(dtype) if dtype is not None else "float32"}


def zeros(shape, ctx=None, dtype=None, **kwargs):
    """An array of zeros (default dtype float32)."""
    kwargs.pop("stype", None)
    return _call("_zeros", [], shape=_shape_tuple(shape), **_ctx_dtype_attrs("_zeros", ctx, dtype), **kwargs)


def ones(shape, ctx=None, dtype=None, **kwargs):
    """An array of ones (default dtype float32)."""
    kwargs.pop("stype", None)
    return _call("_ones", [], shape=_shape_tuple(shape), **_ctx_dtype_attrs("_ones", ctx, dtype), **kwargs)


def full(shape, val, ctx=None, dtype=None, out=None):
    """An array filled with val (default dtype float32); fills ``out`` when given."""
    if out is not None:
        return _call("_full", [], out=out, shape=out.shape, ctx=out.context, dtype=_dt.name(out._dtype_flag),
                     value=float(val) if not isinstance(val, (int, np.integer)) else val)
    return _call("_full", [], shape=_shape_tuple(shape), value=val, **_ctx_dtype_attrs("_full", ctx, dtype))


def arange(start, stop=None, step=1.0, repeat=1, infer_range=None, ctx=None, dtype=None):
    """Evenly spaced values in [start, stop) (default dtype float32, like MXNet)."""
    attrs = dict(start=start, stop=stop, step=step, repeat=repeat)
    if infer_range is not None and "infer_range" in _param_names("_arange"):
        attrs["infer_range"] = infer_range
    return _call("_arange", [], **attrs, **_ctx_dtype_attrs("_arange", ctx, dtype))


def eye(N, M=0, k=0, ctx=None, dtype=None, **kwargs):
    """A 2-D array with ones on diagonal k (default dtype float32)."""
    return _call("_eye", [], N=N, M=M, k=k, **_ctx_dtype_attrs("_eye", ctx, dtype), **kwargs)


def zeros_like(data, **kwargs):
    """Zeros with data's shape, dtype and context."""
    if has_op("zeros_like"):
        return _call("zeros_like", [data], **kwargs)
    return zeros(data.shape, ctx=data.context, dtype=data._dtype_flag)


def ones_like(data, **kwargs):
    """Ones with data's shape, dtype and context."""
    if has_op("ones_like"):
        return _call("ones_like", [data], **kwargs)
    return ones(data.shape, ctx=data.context, dtype=data._dtype_flag)


def linspace(start, stop, num, endpoint=True, ctx=None, dtype=None):
    """num evenly spaced values over [start, stop] (or [start, stop) when not
    endpoint), MXNet's mx.nd.linspace (the _linspace op; default dtype float32)."""
    return _call("_linspace", [], start=start, stop=stop, num=num, endpoint=endpoint,
                 **_ctx_dtype_attrs("_linspace", ctx, dtype))


def onehot_encode(indices, out):
    """One-hot encodes indices into the matrix out (MXNet's deprecated
    mx.nd.onehot_encode; use one_hot): out[i, indices[i]] = 1, 0 elsewhere."""
    return _call("_onehot_encode", [indices, out], out=out)
