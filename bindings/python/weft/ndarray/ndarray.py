"""NDArray: a lazy array over a ``weft_ndarray`` handle, plus creation helpers.

Every operation is pushed to the engine and returns at once; reading data
(``asnumpy``, ``asscalar``, ``wait_to_read``, ``weft.nd.waitall``) waits.

Hot path (see benchmarks/dispatch.py): ``x * 1.0001`` runs ``__mul__`` ->
one cffi call (``wpy_invoke1`` in API mode) -> a new NDArray made with
``object.__new__``; the scalar's attribute text is cached, op handles are
resolved at import. Nothing is inspected at call time.
"""
# pylint: disable=too-many-lines,protected-access,invalid-name
import numbers
import operator
import os
import warnings

import numpy as np

from .. import dtypes as _dt
from ..base import (ArgumentTypeError, DTypeError, InvalidArgumentError, NotFoundError, ShapeError, WeftError,
                    check_call, error_for, ffi, lib, op_exists, op_handle, raise_last)
from ..base import (h_ctx, h_dims, h_dtype, h_ndim, into1, into2, intoN, invoke0, invoke1, invoke2,
                    invokeN, last_nout, out_at)
from ..context import Context, _from_flags, current_context

__all__ = [
    "NDArray", "array", "empty", "zeros", "ones", "full", "arange", "eye", "zeros_like", "ones_like",
    "waitall", "add", "subtract", "multiply", "divide", "true_divide", "power", "maximum", "minimum",
    "modulo", "equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal", "negative",
    "moveaxis", "concatenate",
]

_new_obj = object.__new__
_NULL = ffi.NULL
_unpack = ffi.unpack


class _NullType:
    """Marks an attribute the caller did not give (the op's default applies)."""
    __slots__ = ()

    def __repr__(self):
        return "<required>"

    def __reduce__(self):
        return "_Null"


_Null = _NullType()


# ---- attribute text (MXNet's conventions) ----------------------------------------
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
        return v
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


# ---- the array ------------------------------------------------------------------------
class NDArray:
    """An n-dimensional array on a device, computed lazily by the engine.

    Mirrors ``mxnet.nd.NDArray``: ``shape``, ``dtype``, ``context``, ``asnumpy()``,
    arithmetic operators, indexing, in-place updates, ``copyto`` ... Operators
    generated from the registry are module functions in ``weft.nd`` and many are
    also methods (``x.sum(axis=1)``).
    """

    __slots__ = ("handle", "_shape", "_grad", "__weakref__")
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
        return _dt.FLAG_TO_NP[h_dtype(self.handle)]

    @property
    def _dtype_flag(self):
        return h_dtype(self.handle)

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

    def reshape_like(self, other):
        return self._view(other.shape)

    def flatten(self):
        """(d0, d1*d2*...) like MXNet's Flatten (a view)."""
        shape = self.shape
        if not shape:
            return self._view((1, 1))
        rest = 1
        for d in shape[1:]:
            rest *= d
        return self._view((shape[0], rest))

    def expand_dims(self, axis):
        """A view with a new axis of length 1 at ``axis``."""
        shape = list(self.shape)
        n = len(shape)
        if not -n - 1 <= axis <= n:
            raise InvalidArgumentError("expand_dims: axis %d out of range for %d-d array" % (axis, n))
        if axis < 0:
            axis += n + 1
        shape.insert(axis, 1)
        return self._view(shape)

    def squeeze(self, axis=None):
        """A view without axes of length 1 (or only ``axis``)."""
        shape = self.shape
        if axis is None:
            axes = [i for i, d in enumerate(shape) if d == 1]
        else:
            axes = [a + len(shape) if a < 0 else a for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]
            for a in axes:
                if not 0 <= a < len(shape) or shape[a] != 1:
                    raise InvalidArgumentError("squeeze: axis %s is not of length 1 in shape %s" % (a, shape))
        return self._view([d for i, d in enumerate(shape) if i not in axes])

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


def _unpickle(data):
    return load_frombuffer(data)[0]


# ---- op calls by name ------------------------------------------------------------------
_OPS = {}  # name -> handle or None when the registry lacks it


def _op(name):
    try:
        h = _OPS[name]
    except KeyError:
        h = _OPS[name] = op_handle(name) if op_exists(name) else None
    if h is None:
        raise NotFoundError("operator '%s' is not registered in this build of weft" % name)
    return h


def has_op(name):
    if name not in _OPS:
        _OPS[name] = op_handle(name) if op_exists(name) else None
    return _OPS[name] is not None


def _fail(opname):
    """After a helper returned NULL: raise the stored error (or report no output)."""
    raise_last()
    raise WeftError("%s: the operator returned no output" % opname)


def invoke(op, opname, ins, pieces, out):
    """Runs op on input handles with attribute pieces ['key\\0value', ...].

    Returns a new NDArray, a list of them (several visible outputs), or ``out``.
    Shared by the generated functions and the helpers."""
    n = len(pieces)
    blob = "\0".join(pieces).encode() if n else b""
    nin = len(ins)
    if out is None:
        if nin == 1:
            h = invoke1(op, ins[0], n, blob)
        elif nin == 2:
            h = invoke2(op, ins[0], ins[1], n, blob)
        elif nin == 0:
            h = invoke0(op, n, blob)
        else:
            h = invokeN(op, nin, ins, n, blob)
        if not h:
            raise_last()
            return [] if last_nout() == 0 else None
        k = last_nout()
        if k == 1:
            o = _new_obj(NDArray)
            o.handle = h
            return o
        return [_wrap(out_at(i)) for i in range(k)]
    oc = out.__class__
    if oc is NDArray or isinstance(out, NDArray):
        if nin == 1:
            rc = into1(op, ins[0], out.handle, n, blob)
        elif nin == 2:
            rc = into2(op, ins[0], ins[1], out.handle, n, blob)
        else:
            rc = intoN(op, nin, ins if nin else _NULL, 1, [out.handle], n, blob)
    elif oc is list or oc is tuple:
        for o in out:
            if not isinstance(o, NDArray):
                raise ArgumentTypeError("%s: out= must hold NDArrays, got %s" % (opname, type(o).__name__))
        if not out:
            raise ArgumentTypeError("%s: out= is an empty list" % opname)
        rc = intoN(op, nin, ins if nin else _NULL, len(out), [o.handle for o in out], n, blob)
    else:
        raise ArgumentTypeError("%s: out= must be an NDArray or a list of NDArrays, got %s"
                                % (opname, type(out).__name__))
    if rc:
        raise error_for(rc)
    return out


def _call(opname, inputs, out=None, **attrs):
    """Calls a registry op by name: inputs are NDArrays, attrs keyword values."""
    op = _op(opname)
    ins = []
    for i, x in enumerate(inputs):
        if not isinstance(x, NDArray):
            raise ArgumentTypeError("%s: input %d must be an NDArray, got %s" % (opname, i, type(x).__name__))
        ins.append(x.handle)
    # MXNet's imperative functions accept a symbol-style name= and ignore it.
    pieces = [k + "\0" + attr_str(v) for k, v in attrs.items() if v is not _Null and k != "name"]
    return invoke(op, opname, ins, pieces, out)


def _scalar_call(opname, x, scalar, out=None):
    op = _op(opname)
    blob = _scalar_attr(scalar)
    if out is None:
        h = invoke1(op, x.handle, 1, blob)
        if not h:
            _fail(opname)
        return _wrap(h)
    rc = into1(op, x.handle, out.handle, 1, blob)
    if rc:
        raise error_for(rc)
    return out


# ---- arithmetic dispatch (scalar / same shape / broadcast), as MXNet's _ufunc_helper ----
# kind -> (same-shape ops in order of preference, broadcast op, scalar op, reversed scalar op)
_UFUNCS = {
    "add": (("elemwise_add", "_plus"), "broadcast_add", "_plus_scalar", "_plus_scalar"),
    "subtract": (("elemwise_sub", "_minus"), "broadcast_sub", "_minus_scalar", "_rminus_scalar"),
    "multiply": (("elemwise_mul", "_mul"), "broadcast_mul", "_mul_scalar", "_mul_scalar"),
    "divide": (("elemwise_div", "_div"), "broadcast_div", "_div_scalar", "_rdiv_scalar"),
    "modulo": (("_mod",), "broadcast_mod", "_mod_scalar", "_rmod_scalar"),
    "power": (("_power",), "broadcast_power", "_power_scalar", "_rpower_scalar"),
    "maximum": (("_maximum",), "broadcast_maximum", "_maximum_scalar", "_maximum_scalar"),
    "minimum": (("_minimum",), "broadcast_minimum", "_minimum_scalar", "_minimum_scalar"),
    "equal": (("_equal",), "broadcast_equal", "_equal_scalar", "_equal_scalar"),
    "not_equal": (("_not_equal",), "broadcast_not_equal", "_not_equal_scalar", "_not_equal_scalar"),
    "greater": (("_greater",), "broadcast_greater", "_greater_scalar", "_lesser_scalar"),
    "greater_equal": (("_greater_equal",), "broadcast_greater_equal", "_greater_equal_scalar",
                      "_lesser_equal_scalar"),
    "lesser": (("_lesser",), "broadcast_lesser", "_lesser_scalar", "_greater_scalar"),
    "lesser_equal": (("_lesser_equal",), "broadcast_lesser_equal", "_lesser_equal_scalar",
                     "_greater_equal_scalar"),
}
_PY_OPS = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
           "divide": operator.truediv, "modulo": operator.mod, "power": operator.pow,
           "maximum": max, "minimum": min, "equal": lambda a, b: float(a == b),
           "not_equal": lambda a, b: float(a != b), "greater": lambda a, b: float(a > b),
           "greater_equal": lambda a, b: float(a >= b), "lesser": lambda a, b: float(a < b),
           "lesser_equal": lambda a, b: float(a <= b)}


def _same_op(kind):
    for name in _UFUNCS[kind][0]:
        if has_op(name):
            return name
    return _UFUNCS[kind][1]


def _ufunc(lhs, rhs, kind, out=None):
    """lhs (NDArray) <kind> rhs (NDArray or scalar)."""
    if rhs.__class__ is NDArray or isinstance(rhs, NDArray):
        if lhs.shape == rhs.shape:
            return _call(_same_op(kind), [lhs, rhs], out=out)
        return _call(_UFUNCS[kind][1], [lhs, rhs], out=out)
    if _is_scalar(rhs):
        return _scalar_call(_UFUNCS[kind][2], lhs, rhs, out=out)
    raise ArgumentTypeError("%s: type %s is not supported (NDArray or a number expected)"
                            % (kind, type(rhs).__name__))


def _floor_divide(lhs, rhs):
    """lhs // rhs like NumPy: floor(lhs / rhs), computed in float64 and returned in
    the array operand's dtype (exact for every dtype but int64 beyond 2**53)."""
    arr = lhs if isinstance(lhs, NDArray) else rhs
    wide = lambda v: v.astype("float64") if isinstance(v, NDArray) else v
    if isinstance(lhs, NDArray):
        q = _ufunc(wide(lhs), wide(rhs), "divide")
    else:
        q = _rufunc(wide(rhs), lhs, "divide")
    return _call("floor", [q]).astype(arr.dtype)


def _rufunc(arr, scalar, kind):
    """scalar <kind> arr."""
    if _is_scalar(scalar):
        return _scalar_call(_UFUNCS[kind][3], arr, scalar)
    raise ArgumentTypeError("%s: type %s is not supported (NDArray or a number expected)"
                            % (kind, type(scalar).__name__))


def _helper(kind):
    def fn(lhs, rhs):
        if isinstance(lhs, NDArray):
            return _ufunc(lhs, rhs, kind)
        if isinstance(rhs, NDArray):
            return _rufunc(rhs, lhs, kind)
        if _is_scalar(lhs) and _is_scalar(rhs):
            return _PY_OPS[kind](lhs, rhs)
        raise ArgumentTypeError("%s: type %s and %s are not supported"
                                % (kind, type(lhs).__name__, type(rhs).__name__))
    fn.__name__ = kind
    fn.__qualname__ = kind
    fn.__doc__ = ("Element-wise %s of two arrays or an array and a scalar, with broadcasting.\n\n"
                  "Same shapes use the element-wise op, different shapes the broadcast_* op, and a\n"
                  "scalar operand the _*_scalar op (MXNet's dispatch).\n\n"
                  "Parameters\n----------\nlhs : NDArray or scalar\nrhs : NDArray or scalar\n\n"
                  "Returns\n-------\nNDArray\n" % kind)
    return fn


add = _helper("add")
subtract = _helper("subtract")
multiply = _helper("multiply")
divide = _helper("divide")
true_divide = divide
modulo = _helper("modulo")
power = _helper("power")
maximum = _helper("maximum")
minimum = _helper("minimum")
equal = _helper("equal")
not_equal = _helper("not_equal")
greater = _helper("greater")
greater_equal = _helper("greater_equal")
lesser = _helper("lesser")
lesser_equal = _helper("lesser_equal")


def negative(arr):
    """-arr."""
    return arr.__neg__()


def _make_fast(kind, reverse=False, inplace=False):
    """The dunder for kind: scalars go straight to one cffi call."""
    _, _, sname, rsname = _UFUNCS[kind]
    name = rsname if reverse else sname
    try:
        hs = _op(name)
    except NotFoundError:
        hs = None

    if inplace:
        def method(self, other, _h=hs, _into=into1, _sattr=_SCALAR_TEXT):
            t = other.__class__
            if _h is not None and (t is float or t is int):
                try:
                    blob = _sattr[other]
                except KeyError:
                    blob = _scalar_attr(other)
                rc = _into(_h, self.handle, self.handle, 1, blob)
                if rc:
                    raise error_for(rc)
                return self
            if not (t is NDArray or isinstance(other, NDArray) or _is_scalar(other)):
                return NotImplemented
            _ufunc(self, other, kind, out=self)
            return self
    elif reverse:
        def method(self, other, _h=hs, _inv=invoke1, _new=_new_obj, _cls=NDArray, _sattr=_SCALAR_TEXT):
            t = other.__class__
            if _h is not None and (t is float or t is int):
                try:
                    blob = _sattr[other]
                except KeyError:
                    blob = _scalar_attr(other)
                h = _inv(_h, self.handle, 1, blob)
                if h:
                    o = _new(_cls)
                    o.handle = h
                    return o
                _fail(name)
            if not _is_scalar(other):
                return NotImplemented
            return _rufunc(self, other, kind)
    else:
        def method(self, other, _h=hs, _inv=invoke1, _new=_new_obj, _cls=NDArray, _sattr=_SCALAR_TEXT):
            t = other.__class__
            if _h is not None and (t is float or t is int):
                try:
                    blob = _sattr[other]
                except KeyError:
                    blob = _scalar_attr(other)
                h = _inv(_h, self.handle, 1, blob)
                if h:
                    o = _new(_cls)
                    o.handle = h
                    return o
                _fail(name)
            if not (t is NDArray or isinstance(other, NDArray) or _is_scalar(other)):
                return NotImplemented
            return _ufunc(self, other, kind)
    return method


def _install_operators():
    """(Re)binds the arithmetic dunders; called at import once the registry is known."""
    for kind, dunder in (("add", "add"), ("subtract", "sub"), ("multiply", "mul"), ("divide", "truediv")):
        setattr(NDArray, "__%s__" % dunder, _make_fast(kind))
        setattr(NDArray, "__r%s__" % dunder, _make_fast(kind, reverse=True))
        setattr(NDArray, "__i%s__" % dunder, _make_fast(kind, inplace=True))
    NDArray.__div__ = NDArray.__truediv__
    NDArray.__rdiv__ = NDArray.__rtruediv__
    NDArray.__idiv__ = NDArray.__itruediv__


# ---- creation ----------------------------------------------------------------------------
def _ctx(ctx):
    if ctx is None:
        return current_context()
    if isinstance(ctx, Context):
        return ctx
    return Context(ctx)


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(int(d) for d in shape)
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
    if source_array.dtype.kind in "OUSVcMm" and source_array.dtype.names is None:
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


def waitall():
    """Waits for every pushed operation; raises the first error an operation stored."""
    check_call(lib.weft_wait_all())


def moveaxis(tensor, source, destination):
    """Moves an axis to a new position (via transpose)."""
    n = tensor.ndim
    source = source + n if source < 0 else source
    destination = destination + n if destination < 0 else destination
    if not (0 <= source < n and 0 <= destination < n):
        raise InvalidArgumentError("moveaxis: axis out of range for %d-d array" % n)
    axes = [i for i in range(n) if i != source]
    axes.insert(destination, source)
    return _call("transpose", [tensor], axes=tuple(axes))


def concatenate(arrays, axis=0, always_copy=True):  # pylint: disable=unused-argument
    """Joins arrays along an existing axis (MXNet's nd.concatenate)."""
    arrays = list(arrays)
    if not arrays:
        raise InvalidArgumentError("concatenate: no arrays given")
    for name in ("concat", "Concat"):
        if has_op(name):
            return _call(name, arrays, dim=axis, num_args=len(arrays))
    raise NotFoundError("operator 'concat' is not registered in this build of weft")


_PARAM_NAMES = {}


def _param_names(opname):
    if opname not in _PARAM_NAMES:
        import json  # pylint: disable=import-outside-toplevel
        from ..base import op_schema  # pylint: disable=import-outside-toplevel
        _PARAM_NAMES[opname] = {p["name"] for p in json.loads(op_schema(opname))["params"]} \
            if has_op(opname) else set()
    return _PARAM_NAMES[opname]


def _broadcast_to_nd(x, shape):
    """x (NDArray) broadcast to shape: a view when only leading 1s are missing,
    else the broadcast_to op."""
    shape = tuple(shape)
    xs = x.shape
    if xs == shape:
        return x
    if len(xs) > len(shape):
        if all(d == 1 for d in xs[:len(xs) - len(shape)]):
            return _broadcast_to_nd(x._view(xs[len(xs) - len(shape):]), shape)
        raise ShapeError("cannot broadcast a value of shape %s to shape %s" % (xs, shape))
    padded = (1,) * (len(shape) - len(xs)) + xs
    for a, b in zip(padded, shape):
        if a != b and a != 1:
            raise ShapeError("cannot broadcast a value of shape %s to shape %s" % (xs, shape))
    if padded != xs:
        x = x._view(padded)
    if padded == shape:
        return x
    return _call("broadcast_to", [x], shape=shape)


# ---- MXNet reshape codes --------------------------------------------------------------------
def infer_reshape(dshape, target, reverse=False):
    """The shape MXNet's reshape gives for codes 0, -1, -2, -3, -4 in target."""
    dshape = tuple(dshape)
    target = tuple(target)
    if reverse:
        dshape = dshape[::-1]
        target = target[::-1]
    out = []
    src = 0
    inf = -1
    i = 0
    bad = InvalidArgumentError("reshape: cannot reshape %s to %s%s"
                               % (dshape[::-1] if reverse else dshape, target[::-1] if reverse else target,
                                  " (reverse)" if reverse else ""))
    try:
        while i < len(target):
            p = target[i]
            if p > 0:
                out.append(p)
                src += 1
            elif p == 0:
                out.append(dshape[src])
                src += 1
            elif p == -1:
                if inf >= 0:
                    raise bad
                inf = len(out)
                out.append(1)
                src += 1
            elif p == -2:
                out.extend(dshape[src:])
                src = len(dshape)
            elif p == -3:
                out.append(dshape[src] * dshape[src + 1])
                src += 2
            elif p == -4:
                d0 = dshape[src]
                src += 1
                d1, d2 = target[i + 1], target[i + 2]
                i += 2
                if d1 == -1 and d2 != -1 and d2:
                    d1 = d0 // d2
                elif d2 == -1 and d1 != -1 and d1:
                    d2 = d0 // d1
                if d1 * d2 != d0 or d1 < 0 or d2 < 0:
                    raise bad
                out.extend((d1, d2))
            else:
                raise bad
            i += 1
    except IndexError:
        raise bad from None
    size = 1
    for d in dshape:
        size *= d
    if inf >= 0:
        known = 1
        for j, d in enumerate(out):
            if j != inf:
                known *= d
        if known == 0 or size % known:
            raise bad
        out[inf] = size // known
    total = 1
    for d in out:
        total *= d
    if total != size:
        raise ShapeError("reshape: cannot reshape array of shape %s (size %d) into shape %s"
                         % (dshape[::-1] if reverse else dshape, size, tuple(out[::-1] if reverse else out)))
    return tuple(out[::-1] if reverse else out)


# ---- save / load (MXNet .params format) --------------------------------------------------------
def _arrays_and_keys(data, what):
    if isinstance(data, NDArray):
        return [data], None
    if isinstance(data, dict):
        keys = list(data.keys())
        for k in keys:
            if not isinstance(k, str):
                raise ArgumentTypeError("%s: dict keys must be str, got %s" % (what, type(k).__name__))
        arrays = [data[k] for k in keys]
    elif isinstance(data, (list, tuple)):
        keys = None
        arrays = list(data)
    else:
        raise ArgumentTypeError("%s: data must be an NDArray, a list or a dict of NDArrays, got %s"
                                % (what, type(data).__name__))
    for a in arrays:
        if not isinstance(a, NDArray):
            raise ArgumentTypeError("%s: only NDArrays can be saved, got %s" % (what, type(a).__name__))
    return arrays, keys


def _c_lists(arrays, keys):
    handles = ffi.new("weft_ndarray*[]", [a.handle for a in arrays]) if arrays else _NULL
    if keys is None:
        return handles, _NULL, None
    keep = [ffi.new("char[]", k.encode("utf-8")) for k in keys]
    ckeys = ffi.new("const char*[]", keep) if keep else ffi.new("const char*[1]")
    return handles, ckeys, keep


def save(fname, data):
    """Saves an NDArray, a list or a dict (str -> NDArray) in MXNet's .params format."""
    arrays, keys = _arrays_and_keys(data, "save")
    handles, ckeys, keep = _c_lists(arrays, keys)
    check_call(lib.weft_ndarray_save(os.fsencode(fname), len(arrays), handles, ckeys))
    del keep


def _save_bytes(arrays, keys=None):
    handles, ckeys, keep = _c_lists(arrays, keys)
    buf = ffi.new("const char**")
    size = ffi.new("size_t*")
    check_call(lib.weft_ndarray_save_to_buffer(len(arrays), handles, ckeys, buf, size))
    del keep
    return bytes(ffi.buffer(buf[0], size[0]))


def _published(n, arrs, nk, keys):
    # Take ownership of every handle first, so nothing leaks if decoding fails.
    arrays = [_wrap(arrs[0][i]) for i in range(n[0])]
    if keys[0] == _NULL or nk[0] == 0:
        return arrays
    names = [ffi.string(keys[0][i]).decode("utf-8", "surrogateescape") for i in range(nk[0])]
    return dict(zip(names, arrays))


def load(fname):
    """Loads a .params file: a list, or a dict when the file has names."""
    n, arrs, nk, keys = ffi.new("int*"), ffi.new("weft_ndarray***"), ffi.new("int*"), ffi.new("const char***")
    check_call(lib.weft_ndarray_load(os.fsencode(fname), n, arrs, nk, keys))
    return _published(n, arrs, nk, keys)


def load_frombuffer(buf):
    """Like load, from bytes in memory."""
    if isinstance(buf, str):
        raise ArgumentTypeError("load_frombuffer: expected bytes, got str")
    try:
        mv = memoryview(buf)
    except TypeError:
        raise ArgumentTypeError("load_frombuffer: expected a bytes-like object, got %s"
                                % type(buf).__name__) from None
    data = bytes(mv) if not mv.c_contiguous else buf
    n, arrs, nk, keys = ffi.new("int*"), ffi.new("weft_ndarray***"), ffi.new("int*"), ffi.new("const char***")
    cbuf = ffi.from_buffer(data) if len(mv) else _NULL
    check_call(lib.weft_ndarray_load_from_buffer(cbuf, mv.nbytes, n, arrs, nk, keys))
    return _published(n, arrs, nk, keys)
