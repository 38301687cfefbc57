"""The NDArray methods that run operators or build on the modules above the class: ``T``,
``reshape`` and its kin, ``astype``, ``broadcast_to``, indexing, the comparison and power
operators, pickling. Written in the class body of ``NDArrayOpMethods`` and copied onto NDArray
by weft/ndarray/__init__.py (Note [NDArray leaf] in ndarray_class.py); the arithmetic
dunders' fast paths are arithmetic._install_operators'."""
# pylint: disable=protected-access,invalid-name
import numbers

import numpy as np

from .. import dtypes as _dt
from ..base import ArgumentTypeError, InvalidArgumentError, ShapeError, check_call, ffi, lib
from .arithmetic import _floor_divide, _rufunc, _ufunc
from .attr_text import _is_scalar
from .creation import _host_as, array, empty, ones_like, zeros_like
from .indexing import getitem, setitem
from .ndarray_class import NDArray
from .op_call import _OPS, _call, _scalar_call
from .reshaping import _broadcast_to_nd, infer_reshape
from .serialization import _save_bytes, _unpickle

__all__ = ["NDArrayOpMethods"]


class NDArrayOpMethods:
    """Holder of NDArray methods (never instantiated; see the module's docstring)."""

    @property
    def T(self):
        """Transpose (arrays with fewer than two axes are returned as they are)."""
        if len(self.shape) < 2:
            return self
        return _call("transpose", [self])

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

    def __reduce__(self):
        return (_unpickle, (_save_bytes([self]),))

    def astype(self, dtype, copy=True):
        """A copy converted to dtype (``copy=False`` returns self when the dtype matches)."""
        f = _dt.flag(dtype)
        if not copy and f == self._dtype_flag:
            return self
        if f != self._dtype_flag and self.context.device_type == "gpu":
            # A GPU copy moves bytes; converting is the Cast kernel (NDArray::Copy).
            return _call("Cast", [self], dtype=_dt.name(f))
        res = empty(self.shape, ctx=self.context, dtype=f)
        check_call(lib.weft_ndarray_copy(self.handle, res.handle))
        return res

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

    def zeros_like(self, **kwargs):
        return zeros_like(self, **kwargs)

    def ones_like(self, **kwargs):
        return ones_like(self, **kwargs)

    def __getitem__(self, key):
        return getitem(self, key)

    def __setitem__(self, key, value):
        setitem(self, key, value)

    def __neg__(self):
        if _OPS.get("negative") is not None:
            return _call("negative", [self])
        return _scalar_call("_mul_scalar", self, -1.0)

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
