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
from ..base import ArgumentTypeError, check_call, ffi, lib
from ..ndarray.ndarray import NDArray, _new_obj
from ..ndarray.op_call import _call

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

    def as_np_ndarray(self):
        """This array (already a ``weft.np.ndarray``)."""
        return self


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

