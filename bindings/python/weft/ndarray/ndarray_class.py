"""NDArray: a lazy array over a ``weft_ndarray`` handle -- the class and its handle.

Every operation is pushed to the engine and returns at once; reading data
(``asnumpy``, ``asscalar``, ``wait_to_read``, ``weft.nd.waitall``) waits.

Hot path (see benchmarks/dispatch.py): ``x * 1.0001`` runs ``__mul__`` ->
one cffi call (``wpy_invoke1`` in API mode) -> a new NDArray made with
``object.__new__``; the scalar's attribute text is cached, op handles are
resolved at import. Nothing is inspected at call time.

Note [NDArray leaf]
~~~~~~~~~~~~~~~~~~~
This module is the bottom of weft.ndarray: it imports nothing of weft above base, dtypes and
context, and every other module of the package (attr_text, op_call, arithmetic, creation,
reshaping, indexing, serialization, dlpack, ...) and weft.autograd import the class from here.
The class holds what needs only the handle and the C API (shape, dtype, asnumpy, copies,
views, waits). The methods that run operators or build on those modules are written there, in
the class body of a holder class (op_methods.py, dlpack.py, weft/autograd.py,
weft/_np_methods.py), and copied onto NDArray by ``install_methods`` where a package that sees
both the class and the holder assembles them: weft/ndarray/__init__.py for its own modules'
holders, weft/__init__.py for autograd's and weft.numpy's, which sit above weft.ndarray.
So no module imports one that imports it back, and the package weft.ndarray imports nothing
above it (issue 36 point 4), where ndarray.py used to import its siblings at its end and they
imported it back. ndarray.py is now the facade that re-exports the old names
(weft.ndarray.ndarray.NDArray, _wrap, invoke, array, ...).
"""
# pylint: disable=protected-access,invalid-name
import warnings

import numpy as np

from .. import dtypes as _dt
from ..base import ArgumentTypeError, InvalidArgumentError, WeftError, check_call, ffi, lib
from ..base import h_ctx, h_dims, h_dtype, h_ndim
from ..context import Context, _from_flags

__all__ = ["NDArray", "waitall", "install_methods"]

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
    def grad(self):
        """The gradient array attached by ``attach_grad`` (None without one)."""
        return getattr(self, "_grad", None)

    def detach(self):
        """The same memory as a new array that is not on the autograd tape."""
        out = ffi.new("weft_ndarray**")
        check_call(lib.weft_ndarray_detach(self.handle, out))
        return _wrap(out[0])

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

    def as_nd_ndarray(self):
        """This array itself: it is already a classic (non-numpy) NDArray."""
        return self

    def broadcast_like(self, other):
        """``self.broadcast_to(other.shape)`` (MXNet's NDArray.broadcast_like)."""
        return self.broadcast_to(other.shape)

    def tostype(self, stype):
        if stype != "default":
            raise InvalidArgumentError("only the dense ('default') storage type is supported")
        return self

    def shares_memory(self, other):
        """True when both arrays view the same memory chunk."""
        r = ffi.new("int*")
        check_call(lib.weft_ndarray_shares_memory(self.handle, other.handle, r))
        return bool(r[0])

    # Indexing, the operator dunders and the methods that run operators: op_methods.py
    # (Note [NDArray leaf]); the arithmetic fast paths: arithmetic._install_operators.
    def __pos__(self):
        return self


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


def install_methods(cls, holder):
    """Copies the methods and properties written in the class body of ``holder`` onto ``cls``
    (Note [NDArray leaf]). The holder is never instantiated or subclassed: it only lets the
    methods be written as methods, in the module whose imports they need. Each function is
    renamed ``NDArray.<name>`` so that help(), tracebacks and introspection see a method of
    the class, as when it was written in the class body."""
    for name, value in vars(holder).items():
        if name in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__"):
            continue
        parts = (value.fget, value.fset, value.fdel) if isinstance(value, property) else (value,)
        for fn in parts:
            if callable(fn) and hasattr(fn, "__qualname__"):
                fn.__qualname__ = "%s.%s" % (cls.__qualname__, name)
        setattr(cls, name, value)
