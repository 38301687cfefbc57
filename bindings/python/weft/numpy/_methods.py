"""The methods of ``weft.np.ndarray`` built on the ``weft.np`` functions
(shape, indexing, copies, conversions), and the legacy-only methods that
MXNet's ``mx.np.ndarray`` refuses.

Note [Methods installed on ndarray]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The class lives in _array.py, below every module that makes arrays; its
methods call those modules (``x.reshape`` is ``weft.np.reshape``). Defining
them in _array.py would make _array import the modules that import it, so
this module, above them all, sets them on the class once at import
(``weft.np`` imports it). The math methods (``sum``, ``exp``, ...) and the
operators belong to weft.np's math modules, which can install theirs the same way.

``ndarray`` subclasses ``weft.nd.NDArray`` (Note [One array, two classes]), so
without an override here it would inherit the legacy methods with MXNet 1.x's
semantics. Legacy-only methods that MXNet's np.ndarray defines only to raise
(``one_hot``, ``pick``, ``slice_axis``, ...) raise the same AttributeError here.
"""
# pylint: disable=protected-access,invalid-name
from .. import dtypes as _dt
from ..context import Context
from ..ndarray.ndarray import NDArray
from . import _args, creation, indexing, rearranging, repeating, reshaping, splitting
from ._array import _invoke, _np, ndarray

__all__ = []


def _shape_args(args, kwargs, method):
    shape = kwargs.pop("shape", kwargs.pop("newshape", None))
    if shape is None:
        shape = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    elif args:
        raise TypeError("%s: give the shape positionally or as a keyword, not both" % method)
    return shape


def reshape(self, *args, **kwargs):
    """a.reshape(shape) or a.reshape(d0, d1, ...): weft.np.reshape (a view; -1 infers one axis)."""
    order = kwargs.pop("order", "C")
    shape = _shape_args(args, kwargs, "ndarray.reshape")
    if kwargs:
        raise TypeError("ndarray.reshape: unknown argument(s) %s" % ", ".join(sorted(kwargs)))
    return reshaping.reshape(self, shape, order=order)


def reshape_view(self, *args, **kwargs):
    """A view with a new shape (always a view here: weft.np.reshape never copies)."""
    return reshape(self, *args, **kwargs)


def transpose(self, *axes):
    """a.transpose(), a.transpose(axes) or a.transpose(i, j, ...): weft.np.transpose."""
    if not axes or (len(axes) == 1 and axes[0] is None):
        return rearranging.transpose(self)
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = axes[0]
    return rearranging.transpose(self, axes)


def T(self):
    """The transpose (axes reversed; a copy, as in MXNet)."""
    return rearranging.transpose(self)


def swapaxes(self, axis1, axis2):
    """weft.np.swapaxes(a, axis1, axis2)."""
    return rearranging.swapaxes(self, axis1, axis2)


def flatten(self, order="C"):
    """A 1-D copy of the array (NumPy's flatten)."""
    return _invoke("_copyto", [reshaping.ravel(self, order)])


def squeeze(self, axis=None):
    """weft.np.squeeze(a, axis) (a view)."""
    return reshaping.squeeze(self, axis)


def expand_dims(self, axis):
    """weft.np.expand_dims(a, axis) (a view)."""
    return reshaping.expand_dims(self, axis)


def broadcast_to(self, shape):
    """weft.np.broadcast_to(a, shape)."""
    return reshaping.broadcast_to(self, shape)


def repeat(self, repeats, axis=None):
    """weft.np.repeat(a, repeats, axis)."""
    return repeating.repeat(self, repeats, axis)


def tile(self, reps):
    """weft.np.tile(a, reps)."""
    return repeating.tile(self, reps)


def take(self, indices, axis=None, mode="raise", out=None):
    """weft.np.take(a, indices, axis, mode, out)."""
    return repeating.take(self, indices, axis=axis, mode=mode, out=out)


def split(self, indices_or_sections, axis=0):
    """weft.np.split(a, indices_or_sections, axis)."""
    return splitting.split(self, indices_or_sections, axis)


def flip(self, axis=None):
    """weft.np.flip(a, axis)."""
    return rearranging.flip(self, axis)


def diag(self, k=0):
    """weft.np.diag(a, k)."""
    return creation.diag(self, k)


def zeros_like(self, dtype=None):
    """weft.np.zeros_like(a, dtype)."""
    return creation.zeros_like(self, dtype=dtype)


def ones_like(self, dtype=None):
    """weft.np.ones_like(a, dtype)."""
    return creation.ones_like(self, dtype=dtype)


def copy(self, order="C"):
    """A copy on the same device (recorded by autograd)."""
    if order not in ("C", "K", "A"):
        raise NotImplementedError("ndarray.copy: argument order: only 'C' order is supported, got %r" % (order,))
    return creation.copy(self)


# pylint: disable-next=unused-argument,redefined-outer-name
def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """A copy converted to dtype (this array itself when copy=False and the dtype
    already matches); order, casting and subok are accepted for NumPy's signature."""
    name = _args.dtype_name(dtype, "ndarray.astype")
    if not copy and _dt.flag(name) == self._dtype_flag:
        return self
    return _np(NDArray.astype(self, name))


def copyto(self, other):
    """Copies into other (an array: same shape) or to a new array on other (a device)."""
    if isinstance(other, NDArray) and other.shape != self.shape:
        raise ValueError("ndarray.copyto: argument other has shape %s, this array %s" % (other.shape, self.shape))
    res = NDArray.copyto(self, other)
    return res if isinstance(other, NDArray) else _np(res)


def as_in_ctx(self, ctx):
    """This array when it is on device ctx already, else a copy there."""
    if not isinstance(ctx, Context):
        raise TypeError("ndarray.as_in_ctx: argument ctx must be a weft.Context, got %s" % type(ctx).__name__)
    return _np(NDArray.as_in_context(self, ctx))


def __getitem__(self, key):
    return indexing.getitem(self, key)


def __setitem__(self, key, value):
    indexing.setitem(self, key, value)


def attach_grad(self, grad_req="write", stype=None):
    """Makes this array an autograd variable; its ``.grad`` is a weft.np.ndarray."""
    NDArray.attach_grad(self, grad_req, stype)
    g = getattr(self, "_grad", None)
    if g is not None:
        _np(g)


def _refused(name):
    def method(self, *args, **kwargs):  # pylint: disable=unused-argument
        raise AttributeError("weft.numpy.ndarray object has no attribute %s" % name)
    method.__name__ = name
    method.__doc__ = ("Refused, as in MXNet's mx.np.ndarray: %s is a method of the classic weft.nd.NDArray "
                      "only (convert with as_nd_ndarray())." % name)
    return method


# Legacy-only, non-math methods MXNet 1.9.1's np.ndarray refuses (python/mxnet/numpy/multiarray.py).
_REFUSED = ("argmax_channel", "one_hot", "pick", "broadcast_axes", "broadcast_like", "slice", "slice_axis",
            "slice_like", "depth_to_space", "space_to_depth", "reshape_like", "shape_array", "size_array",
            "split_v2", "pad")

_METHODS = dict(reshape=reshape, reshape_view=reshape_view, transpose=transpose, T=property(T),
                swapaxes=swapaxes, flatten=flatten, squeeze=squeeze, expand_dims=expand_dims,
                broadcast_to=broadcast_to, repeat=repeat, tile=tile, take=take, split=split, flip=flip,
                diag=diag, zeros_like=zeros_like, ones_like=ones_like, copy=copy, astype=astype, copyto=copyto,
                as_in_ctx=as_in_ctx, as_in_context=as_in_ctx, __getitem__=__getitem__,
                __setitem__=__setitem__, attach_grad=attach_grad)


def _install():
    for name, fn in _METHODS.items():
        if not isinstance(fn, property):
            fn.__qualname__ = "ndarray." + name
        setattr(ndarray, name, fn)
    for name in _REFUSED:
        setattr(ndarray, name, _refused(name))


_install()
