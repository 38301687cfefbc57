"""NDArray: a lazy array over a ``weft_ndarray`` handle.

Every operation is pushed to the engine and returns at once; reading data
(``asnumpy``, ``asscalar``, ``wait_to_read``, ``weft.nd.waitall``) waits.

Hot path (see benchmarks/dispatch.py): ``x * 1.0001`` runs ``__mul__`` ->
one cffi call (``wpy_invoke1`` in API mode) -> a new NDArray made with
``object.__new__``; the scalar's attribute text is cached, op handles are
resolved at import. Nothing is inspected at call time.

This module holds the class; the modules built on it are imported at its end
and their names re-exported here, where callers have always found them:
attr_text (attribute text), op_call (calling operators by name), arithmetic
(add ..., the arithmetic dunders), creation (array, zeros ...), reshaping
(MXNet's reshape codes, moveaxis, concatenate), serialization (save, load).
"""
# pylint: disable=protected-access,invalid-name,wrong-import-position,cyclic-import
import numbers
import warnings

import numpy as np

from .. import dtypes as _dt
from ..base import ArgumentTypeError, InvalidArgumentError, ShapeError, WeftError, check_call, ffi, lib
from ..base import h_ctx, h_dims, h_dtype, h_ndim
from ..context import Context, _from_flags

__all__ = [
    "NDArray", "array", "empty", "zeros", "ones", "full", "arange", "eye", "zeros_like", "ones_like",
    "waitall", "add", "subtract", "multiply", "divide", "true_divide", "power", "maximum", "minimum",
    "modulo", "equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal", "negative",
    "moveaxis", "concatenate", "logical_and", "logical_or", "logical_xor", "histogram",
]

_new_obj = object.__new__
_NULL = ffi.NULL
_unpack = ffi.unpack


# ---- the array ------------------------------------------------------------------------
class NDArray:
    """An n-dimensional array on a device, computed lazily by the engine.

    Mirrors ``mxnet.nd.NDArray``: ``shape``, ``dtype``, ``context``, ``asnumpy()``,
    arithmetic operators, indexing, in-place updates, ``copyto`` ... Operators
    generated from the registry are module functions in ``weft.nd`` and many are
    also methods (``x.sum(axis=1)``).
    """

    # _shape and _dflag cache the handle's shape and dtype flag, which never change
    # (no C call changes them in place); both are read on every operator call.
    __slots__ = ("handle", "_shape", "_dflag", "_grad", "__weakref__")
    # numpy defers to NDArray's reflected operators (np_array + nd_array).
    __array_priority__ = 1000.0
    writable = True

    def __init__(self, handle, writable=True):  # pylint: disable=unused-argument
        if not isinstance(handle, ffi.CData):
            raise ArgumentTypeError("NDArray(handle): expected a weft_ndarray* handle, got %s"
                                    % type(handle).__name__)
        self.handle = handle

    def __del__(self, _free=lib.weft_ndarray_free):
        try:
            h = self.handle
        except AttributeError:
            return
        _free(h)

    # -- properties -----------------------------------------------------------------
    @property
    def shape(self):
        """Tuple of ints."""
        try:
            return self._shape
        except AttributeError:
            pass
        h = self.handle
        n = h_ndim(h)
        if n < 0:
            raise WeftError("invalid NDArray handle")
        s = tuple(_unpack(h_dims(h), n)) if n else ()
        self._shape = s
        return s

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        s = 1
        for d in self.shape:
            s *= d
        return s

    @property
    def dtype(self):
        """The element type as a numpy dtype (bfloat16: see weft.dtypes)."""
        return _dt.FLAG_TO_NP[self._dtype_flag]

    @property
    def _dtype_flag(self):
        try:
            return self._dflag
        except AttributeError:
            pass
        f = h_dtype(self.handle)
        if f >= 0:
            self._dflag = f
        return f

    @property
    def context(self):
        """The device (a weft.Context)."""
        v = h_ctx(self.handle)
        return _from_flags(v >> 16, v & 0xFFFF)

    ctx = context

    @property
    def stype(self):
        return "default"

    @property
    def T(self):
        """Transpose (arrays with fewer than two axes are returned as they are)."""
        if len(self.shape) < 2:
            return self
        return _call("transpose", [self])

    @property
    def grad(self):
        """The gradient array attached by ``attach_grad`` (None without one)."""
        return getattr(self, "_grad", None)

    def attach_grad(self, grad_req="write", stype=None):
        """Makes this array a variable for ``autograd``: a zero gradient array of
        the same shape and dtype is attached as ``.grad`` ('write' overwrites it
        at each backward, 'add' accumulates, 'null' computes none)."""
        if stype not in (None, "default"):
            raise InvalidArgumentError("attach_grad: only the dense ('default') storage type is supported")
        from .. import autograd  # pylint: disable=import-outside-toplevel
        g = zeros(self.shape, ctx=self.context, dtype=self._dtype_flag)
        autograd.mark_variables([self], [g], grad_req)

    def detach(self):
        """The same memory as a new array that is not on the autograd tape."""
        out = ffi.new("weft_ndarray**")
        check_call(lib.weft_ndarray_detach(self.handle, out))
        return _wrap(out[0])

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        """``autograd.backward([self], [out_grad])``."""
        from .. import autograd  # pylint: disable=import-outside-toplevel
        autograd.backward([self], None if out_grad is None else [out_grad], retain_graph=retain_graph,
                          train_mode=train_mode)

    @property
    def _fresh_grad(self):
        """Whether a backward wrote this variable's gradient since the flag was
        last cleared (MXNet's ``_fresh_grad``; gluon.Trainer reads and clears it
        to find stale gradients). False for an array with no gradient attached."""
        v = ffi.new("int*")
        check_call(lib.weft_autograd_get_fresh_grad(self.handle, v))
        return bool(v[0])

    @_fresh_grad.setter
    def _fresh_grad(self, fresh):
        check_call(lib.weft_autograd_set_fresh_grad(self.handle, 1 if fresh else 0))

    @property
    def _on_tape(self):
        v = ffi.new("int*")
        check_call(lib.weft_ndarray_on_tape(self.handle, v))
        return bool(v[0])

    # -- host transfers ---------------------------------------------------------------
    def asnumpy(self):
        """A numpy copy of the data (waits for pending writes)."""
        shape = self.shape
        res = np.empty(shape, dtype=_dt.FLAG_TO_NP[h_dtype(self.handle)])
        if res.nbytes == 0:
            check_call(lib.weft_ndarray_wait_to_read(self.handle))
            return res
        check_call(lib.weft_ndarray_copy_to_host(self.handle, ffi.from_buffer(res, require_writable=True),
                                                 res.nbytes))
        return res

    def asscalar(self):
        """The only element as a numpy scalar."""
        if self.size != 1:
            raise ValueError("The current array is not a scalar (shape %s)" % (self.shape,))
        return self.asnumpy().reshape(-1)[0]

    def item(self):
        return self.asscalar().item()

    def __array__(self, dtype=None, copy=None):  # pylint: disable=unused-argument
        a = self.asnumpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def tolist(self):
        return self.asnumpy().tolist()

    def wait_to_read(self):
        """Waits until every pending write to this array has run (rethrows its error)."""
        check_call(lib.weft_ndarray_wait_to_read(self.handle))

    def wait_to_write(self):
        check_call(lib.weft_ndarray_wait_to_write(self.handle))

    def _sync_copyfrom(self, source):
        """Blocking copy of a numpy array (converted to this dtype) into this array."""
        src = _host_as(np.asarray(source), self._dtype_flag, self.shape)
        if src is None:  # bfloat16 without ml_dtypes: convert on the device
            tmp = array(np.asarray(source, dtype=np.float32), ctx=self.context, dtype="float32")
            tmp = _broadcast_to_nd(tmp, self.shape)
            check_call(lib.weft_ndarray_copy(tmp.handle, self.handle))
            return
        if src.nbytes:
            check_call(lib.weft_ndarray_copy_from_host(self.handle, ffi.from_buffer(src), src.nbytes))

    # -- python protocol --------------------------------------------------------------
    def __repr__(self):
        shape_info = "x".join("%d" % d for d in self.shape)
        host = self.asnumpy()
        if host.dtype.names == ("bfloat16",):  # raw bits: show the values
            host = _bf16_bits_to_float32(host)
        return "\n%s\n<%s %s @%s>" % (str(host), self.__class__.__name__, shape_info, self.context)

    __str__ = __repr__

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d NDArray")
        return shape[0]

    def __iter__(self):
        shape = self.shape
        if not shape:
            raise TypeError("iteration over a 0-d NDArray")
        for i in range(shape[0]):
            yield self[i]

    def __bool__(self):
        n = self.size
        if n == 0:
            warnings.warn("The truth value of an empty NDArray is ambiguous; returning False.",
                          DeprecationWarning, stacklevel=2)
            return False
        if n == 1:
            return bool(self.asscalar())
        raise ValueError("The truth value of an NDArray with multiple elements is ambiguous.")

    __hash__ = object.__hash__

    def __reduce__(self):
        return (_unpickle, (_save_bytes([self]),))

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # -- copies and views ---------------------------------------------------------------
    def copy(self):
        """A deep copy on the same context."""
        return self.copyto(self.context)

    def copyto(self, other):
        """Copies into ``other`` (an NDArray: same shape, dtype converted) or to a new
        array on ``other`` (a Context). Returns the destination."""
        if isinstance(other, NDArray):
            if other.handle == self.handle:
                warnings.warn("You are attempting to copy an array to itself", RuntimeWarning, stacklevel=2)
                return other
            check_call(lib.weft_ndarray_copy(self.handle, other.handle))
            return other
        if isinstance(other, Context):
            out = ffi.new("weft_ndarray**")
            check_call(lib.weft_ndarray_copy_to_context(self.handle, other.device_typeid, other.device_id, out))
            return _wrap(out[0])
        raise ArgumentTypeError("copyto does not support type %s" % type(other).__name__)

    def as_in_context(self, context):
        """This array when it is on ``context`` already, else a copy there."""
        if self.context == context:
            return self
        return self.copyto(context)

    def astype(self, dtype, copy=True):
        """A copy converted to dtype (``copy=False`` returns self when the dtype matches)."""
        f = _dt.flag(dtype)
        if not copy and f == self._dtype_flag:
            return self
        if f != self._dtype_flag and self.context.device_type == "gpu":
            # A GPU copy moves bytes; converting is the Cast kernel (NDArray::Copy).
            from . import Cast  # pylint: disable=import-outside-toplevel
            return Cast(self, dtype=_dt.name(f))
        res = empty(self.shape, ctx=self.context, dtype=f)
        check_call(lib.weft_ndarray_copy(self.handle, res.handle))
        return res

    def _view(self, shape):
        shape = tuple(int(d) for d in shape)
        out = ffi.new("weft_ndarray**")
        check_call(lib.weft_ndarray_reshape(self.handle, shape, len(shape), out))
        return _wrap(out[0])

    def _at(self, i):
        out = ffi.new("weft_ndarray**")
        check_call(lib.weft_ndarray_at(self.handle, i, out))
        return _wrap(out[0])

    def _slice(self, begin, end):
        out = ffi.new("weft_ndarray**")
        check_call(lib.weft_ndarray_slice(self.handle, begin, end, out))
        return _wrap(out[0])

    def reshape(self, *shape, **kwargs):
        """A view with a new shape (shares memory and dependencies).

        Accepts ``reshape(2, 3)``, ``reshape((2, 3))``, ``reshape(shape=(2, 3))`` and
        MXNet's special values: 0 copies a dimension, -1 infers one, -2 copies the
        rest, -3 merges two, -4 splits one in two; ``reverse=True`` applies them
        from the right."""
        reverse = kwargs.pop("reverse", False)
        if "shape" in kwargs:
            if shape:
                raise ArgumentTypeError("reshape: give the shape positionally or as shape=, not both")
            shape = kwargs.pop("shape")
        if kwargs:
            raise ArgumentTypeError("reshape: unknown argument(s) %s" % ", ".join(sorted(kwargs)))
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        elif len(shape) == 1 and shape[0] is None:
            shape = ()
        target = infer_reshape(self.shape, tuple(int(d) for d in shape), reverse)
        return self._view(target)

    # flatten / expand_dims / squeeze: MXNet 1.x's NDArray methods. By default they
    # run the operator and return a new array; inplace=True returns a view sharing
    # this array's memory (a write through it changes this array).
    def flatten(self, inplace=False):
        """(d0, d1*d2*...) like MXNet's Flatten: a new array, or with
        ``inplace=True`` a view sharing this array's memory."""
        if not inplace:
            return _call("Flatten", [self])
        shape = self.shape
        if not shape:
            return self._view((1, 1))
        rest = 1
        for d in shape[1:]:
            rest *= d
        return self._view((shape[0], rest))

    def expand_dims(self, axis, inplace=False):
        """A new axis of length 1 at ``axis`` (in [-ndim-1, ndim]): a new array, or
        with ``inplace=True`` a view sharing this array's memory."""
        if not inplace:
            return _call("expand_dims", [self], axis=axis)
        shape = list(self.shape)
        n = len(shape)
        if not -n - 1 <= axis <= n:
            raise InvalidArgumentError("expand_dims: axis %d is out of range for a %d-d array" % (axis, n))
        if axis < 0:
            axis += n + 1
        shape.insert(axis, 1)
        return self._view(shape)

    def squeeze(self, axis=None, inplace=False):
        """Removes the axes of length 1 (all, or those in ``axis``), keeping at least
        one axis as MXNet 1.x does: a new array, or with ``inplace=True`` a view
        sharing this array's memory."""
        if not inplace:
            return _call("squeeze", [self]) if axis is None else _call("squeeze", [self], axis=axis)
        shape = list(self.shape)
        n = len(shape)
        if axis is None:
            keep = [d for d in shape if d != 1]
        else:
            axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
            if len(set(axes)) != len(axes):
                raise InvalidArgumentError("squeeze: axis %s contains a duplicate" % (tuple(axes),))
            resolved = []
            for a in axes:
                if not -n <= a < n:
                    raise InvalidArgumentError("squeeze: axis %d is out of range for a %d-d array" % (a, n))
                r = a + n if a < 0 else a
                if shape[r] != 1:
                    raise InvalidArgumentError("squeeze: axis %d must have size 1, got %d" % (a, shape[r]))
                resolved.append(r)
            keep = [d for i, d in enumerate(shape) if i not in resolved]
        return self._view(keep or [1])

    def slice_assign(self, rhs, begin, end, step):
        """Writes ``rhs`` into the region ``self[begin:end:step]`` (tuples per axis, None
        entries allowed) in place and returns self (the ``_slice_assign`` operator
        with out=self). rhs must have the region's shape."""
        return _call("_slice_assign", [self, rhs], out=self, begin=begin, end=end, step=step)

    def slice_assign_scalar(self, value, begin, end, step):
        """Sets the region ``self[begin:end:step]`` to the number ``value`` (converted to
        this array's dtype) in place and returns self (``_slice_assign_scalar``)."""
        if isinstance(value, bool) or not isinstance(value, (numbers.Number, np.generic)):
            raise ArgumentTypeError("slice_assign_scalar: value must be a number, got %s" % type(value).__name__)
        return _call("_slice_assign_scalar", [self], out=self, scalar=value, begin=begin, end=end, step=step)

    def as_nd_ndarray(self):
        """This array itself: it is already a classic (non-numpy) NDArray."""
        return self

    def as_np_ndarray(self):
        """The same array as a ``weft.np.ndarray`` (no copy; Note [One array, two
        classes] in weft/numpy/_array.py)."""
        from ..numpy._array import _clone, ndarray  # pylint: disable=import-outside-toplevel
        return _clone(self, ndarray)

    def to_dlpack_for_read(self):
        """A DLPack capsule viewing this array once its pending writes are done
        (``weft.nd.to_dlpack_for_read(self)``)."""
        from ..dlpack import to_dlpack_for_read  # pylint: disable=import-outside-toplevel
        return to_dlpack_for_read(self)

    def to_dlpack_for_write(self):
        """A DLPack capsule viewing this array once its pending reads and writes are
        done (``weft.nd.to_dlpack_for_write(self)``)."""
        from ..dlpack import to_dlpack_for_write  # pylint: disable=import-outside-toplevel
        return to_dlpack_for_write(self)

    def broadcast_to(self, shape):
        """A new array (never a view, even for the same shape) with this array
        broadcast to ``shape``, as MXNet's NDArray.broadcast_to: axes of length 1
        are repeated, and missing leading axes count as length 1."""
        cur = self.shape
        shape = tuple(int(d) for d in shape)
        padded = (1,) * (len(shape) - len(cur)) + cur
        if len(shape) < len(cur) or any(a != b and a != 1 for a, b in zip(padded, shape)):
            raise ShapeError("operands could not be broadcast together with remapped shapes "
                             "[original->remapped]: %s and requested shape %s" % (cur, shape))
        src = self if padded == cur else self._view(padded)
        return _call("broadcast_to", [src], shape=shape)

    def broadcast_like(self, other):
        """``self.broadcast_to(other.shape)`` (MXNet's NDArray.broadcast_like)."""
        return self.broadcast_to(other.shape)

    def zeros_like(self, **kwargs):
        return zeros_like(self, **kwargs)

    def ones_like(self, **kwargs):
        return ones_like(self, **kwargs)

    def tostype(self, stype):
        if stype != "default":
            raise InvalidArgumentError("only the dense ('default') storage type is supported")
        return self

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule viewing this array (no copy; see weft.dlpack)."""
        from ..dlpack import ndarray_dlpack  # pylint: disable=import-outside-toplevel
        return ndarray_dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        from ..dlpack import ndarray_dlpack_device  # pylint: disable=import-outside-toplevel
        return ndarray_dlpack_device(self)

    def shares_memory(self, other):
        """True when both arrays view the same memory chunk."""
        r = ffi.new("int*")
        check_call(lib.weft_ndarray_shares_memory(self.handle, other.handle, r))
        return bool(r[0])

    # -- indexing ---------------------------------------------------------------------------
    def __getitem__(self, key):
        from .indexing import getitem  # pylint: disable=import-outside-toplevel
        return getitem(self, key)

    def __setitem__(self, key, value):
        from .indexing import setitem  # pylint: disable=import-outside-toplevel
        setitem(self, key, value)

    # -- operators (fast paths are filled in below, see _install_operators) -------------------
    def __neg__(self):
        if _OPS.get("negative") is not None:
            return _call("negative", [self])
        return _scalar_call("_mul_scalar", self, -1.0)

    def __pos__(self):
        return self

    def __abs__(self):
        return _call("abs", [self])

    def __eq__(self, other):
        if not (isinstance(other, NDArray) or _is_scalar(other)):
            return NotImplemented
        return _ufunc(self, other, "equal")

    def __ne__(self, other):
        if not (isinstance(other, NDArray) or _is_scalar(other)):
            return NotImplemented
        return _ufunc(self, other, "not_equal")

    def __gt__(self, other):
        return _ufunc(self, other, "greater")

    def __ge__(self, other):
        return _ufunc(self, other, "greater_equal")

    def __lt__(self, other):
        return _ufunc(self, other, "lesser")

    def __le__(self, other):
        return _ufunc(self, other, "lesser_equal")

    def __pow__(self, other):
        return _ufunc(self, other, "power")

    def __rpow__(self, other):
        return _rufunc(self, other, "power")

    def __mod__(self, other):
        return _ufunc(self, other, "modulo")

    def __rmod__(self, other):
        return _rufunc(self, other, "modulo")

    def __imod__(self, other):
        return _ufunc(self, other, "modulo", out=self)

    def __ipow__(self, other):
        return _ufunc(self, other, "power", out=self)

    def __floordiv__(self, other):
        return _floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _floor_divide(other, self)


def _bf16_bits_to_float32(host):
    bits = np.ascontiguousarray(host).view(np.uint16).astype(np.uint32) << 16
    return bits.view(np.float32).reshape(host.shape)


def _wrap(h, _new=_new_obj, _cls=NDArray):
    o = _new(_cls)
    o.handle = h
    return o


def waitall():
    """Waits for every pushed operation; raises the first error an operation stored."""
    check_call(lib.weft_wait_all())


# ---- the modules built on the class (each imports NDArray from here) ---------------------------
from .attr_text import (_Null, _NullType, _SCALAR_TEXT, _is_scalar, _item_str, _scalar_attr,  # noqa: E402
                        attr_str, dtype_attr_str, shape_attr_str)
from .op_call import _OPS, _PARAM_NAMES, _call, _fail, _op, _param_names, _scalar_call, has_op, invoke  # noqa: E402
from .arithmetic import (_PY_OPS, _UFUNCS, _floor_divide, _helper, _install_operators, _make_fast,  # noqa: E402
                         _rufunc, _same_op, _ufunc, add, divide, equal, greater, greater_equal, lesser,
                         lesser_equal, maximum, minimum, modulo, multiply, negative, not_equal, power,
                         subtract, true_divide, logical_and, logical_or, logical_xor)
from .stats import histogram  # noqa: E402
from .creation import (_ctx, _ctx_dtype_attrs, _host_as, _shape_tuple, arange, array, empty, eye,  # noqa: E402
                       full, ones, ones_like, zeros, zeros_like)
from .reshaping import _broadcast_to_nd, concatenate, infer_reshape, moveaxis  # noqa: E402
from .serialization import (_arrays_and_keys, _c_lists, _published, _save_bytes, _unpickle, load,  # noqa: E402
                            load_frombuffer, save)
