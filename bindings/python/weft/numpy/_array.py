"""The array type of ``weft.np`` (MXNet's ``mxnet.numpy.ndarray``) and the
calls every ``weft.np``/``weft.npx`` function is built on.

Note [One array, two classes]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet 1.x has two front ends over one array: the classic ``mx.nd.NDArray``
and, since 1.6, ``mx.np.ndarray`` with NumPy's semantics (0-d results,
broadcasting everywhere, true division, a tuple shape, NumPy's exceptions).
Here, as in MXNet, ``ndarray`` is a subclass of ``NDArray`` over the same
engine handle: every op, the engine, autograd and serialization see one kind
of array, and the class only decides which Python semantics apply.
``as_nd_ndarray``/``as_np_ndarray`` make a second Python object over the
same chunk (``weft_ndarray_clone_handle``: no copy, writes show through).

An op's outputs are fresh ``NDArray`` objects made by ``op_call.invoke``;
``_invoke`` re-classes them in place (the subclass adds no slots, so the
object layout is the same), which costs no extra C call.
"""
# pylint: disable=protected-access,invalid-name
from ..base import ArgumentTypeError, check_call, ffi, invoke1, invoke2, lib
from ..ndarray.ndarray import NDArray, _new_obj
from ..ndarray.op_call import _call, _fail, _op
from ..ndarray.serialization import _save_bytes, _unpickle

__all__ = ["ndarray"]


class ndarray(NDArray):
    """An n-dimensional array with NumPy's semantics (``mxnet.numpy.ndarray``).

    Shares everything with ``weft.nd.NDArray`` (engine handle, device, lazy
    evaluation, autograd); see Note [One array, two classes].
    """

    __slots__ = ()

    def __repr__(self):
        # MXNet prints np arrays as NumPy does, with the device when it is not the CPU.
        text = repr(self.asnumpy())
        ctx = self.context
        if ctx.device_type != "cpu":
            text = text[:-1] + ", ctx=%s)" % ctx
        return text

    def __str__(self):
        return str(self.asnumpy())

    def as_nd_ndarray(self):
        """The same array as a classic ``weft.nd.NDArray`` (no copy)."""
        return _clone(self, NDArray)

    # -- autograd: the gradient of an np array is an np array ------------------------------
    @property
    def grad(self):
        """The gradient attached by ``attach_grad`` (a weft.np.ndarray; None without one)."""
        g = getattr(self, "_grad", None)
        return None if g is None else _np(g)

    def detach(self):
        """The same memory as a new array that is not on the autograd tape."""
        return _np(NDArray.detach(self))

    def __reduce__(self):
        # Pickled as the legacy array is (the saved bytes), and unpickled as an np array again.
        return (_unpickle_np, (_save_bytes([self]),))

    # -- conversions to Python and NumPy (NumPy's rules) -------------------------------------
    def item(self, *args):
        """An element as a Python scalar: the only one (size must be 1), or the
        one at a flat index or a tuple of indices."""
        if not args and self.size != 1:
            raise ValueError("ndarray.item: can only convert an array of size 1 to a Python scalar, "
                             "got size %d" % self.size)
        return self.asnumpy().item(*args)

    def asscalar(self):
        """The only element as a NumPy scalar (MXNet's deprecated spelling of item)."""
        if self.size != 1:
            raise ValueError("ndarray.asscalar: the array is not a scalar (shape %s)" % (self.shape,))
        return self.asnumpy().reshape(-1)[0]

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of unsized object (a 0-d weft.np.ndarray)")
        return shape[0]

    def __iter__(self):
        shape = self.shape
        if not shape:
            raise TypeError("iteration over a 0-d array")
        for i in range(shape[0]):
            yield self[i]

    def _one_element(self, what):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars (%s of shape %s)"
                            % (what, self.shape))
        return self.asnumpy().reshape(-1)[0]

    def __float__(self):
        return float(self._one_element("float()"))

    def __int__(self):
        return int(self._one_element("int()"))

    def __index__(self):
        if self.ndim != 0 or self.dtype.kind not in "iub":
            raise TypeError("only integer scalar arrays can be converted to a scalar index "
                            "(got dtype %s, shape %s)" % (self.dtype, self.shape))
        return int(self.asnumpy())

    def as_np_ndarray(self):
        """This array (already a ``weft.np.ndarray``)."""
        return self


def _unpickle_np(data):
    """An np array from the bytes ``ndarray.__reduce__`` saved."""
    return _np(_unpickle(data))


def _clone(x, cls):
    """A new Python object of class cls over x's chunk (no copy)."""
    out = ffi.new("weft_ndarray**")
    check_call(lib.weft_ndarray_clone_handle(x.handle, out))
    o = _new_obj(cls)
    o.handle = out[0]
    return o


def _np(x):
    """x (an op's fresh output, or a list of them) re-classed as ndarray."""
    if x.__class__ is NDArray:
        x.__class__ = ndarray
    elif isinstance(x, list):
        for o in x:
            if o.__class__ is NDArray:
                o.__class__ = ndarray
    return x


def _invoke(opname, inputs, out=None, **attrs):
    """Calls registry op `opname` on arrays (np or nd); outputs are np arrays.

    ``out`` (an array or a list) is written and returned as it is."""
    for i, x in enumerate(inputs):
        if not isinstance(x, NDArray):
            raise ArgumentTypeError("%s: input %d must be an array, got %s" % (opname, i, type(x).__name__))
    res = _call(opname, inputs, out=out, **attrs)
    if out is not None:
        return res
    return _np(res)


def _invoke_default(opname, x, y=None, shape=None, _cls=ndarray, _new=_new_obj):
    """Registry op `opname` (one output, every parameter at the op's default) on
    ndarray x (and y) with one cffi call; the output is an ndarray of x's dtype
    and, when given, `shape`. Note [Default-parameter calls]."""
    h = invoke1(_op(opname), x.handle, 0, b"") if y is None else invoke2(_op(opname), x.handle, y.handle, 0, b"")
    if not h:
        _fail(opname)
    o = _new(_cls)
    o.handle = h
    if shape is not None:
        o._shape = shape
    try:
        o._dflag = x._dflag
    except AttributeError:  # x's dtype not read yet: the output's is read when asked for
        pass
    return o


# Note [Default-parameter calls]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# A training step calls npx.relu, npx.log_softmax, npx.pick, unary minus ... once
# per layer per step, nearly always with every parameter at its default. Through
# _invoke each call checks its inputs in Python, formats every attribute as text
# (pick's axis, mode, keepdims), has the core parse that text again, and returns
# an output whose shape and dtype cost a C call each when next read: together
# 1.2 to 1.6 times nd's cost per call, and 1.3 times nd's front-end time per step
# of benchmarks/np_vs_nd.py's MLP.
# When the caller passed only defaults and ndarray inputs, the op's own
# defaults are MXNet's (each caller says which it relies on), so no attribute
# needs sending: the call goes straight to the core, and the output gets the
# shape and dtype the caller knows. Errors are the core's, raised as _invoke
# raises them.

