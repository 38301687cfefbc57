"""The arithmetic and comparison operators of ``weft.np.ndarray`` (installed on
the class when weft.np is imported).

Note [Operators installed from below]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
_array.py defines the class and sits below every function module (they all
call its ``_invoke``), so the class cannot import the math without an import
circle. This module sits above both and sets the dunders on the class once;
weft/numpy/__init__.py imports it. The classic NDArray dunders (MXNet's
legacy semantics: no bool results, no promotion) stay untouched.

In-place operators (``a += b``) compute the NumPy-mode result and write it
into ``a`` in ``a``'s dtype; as NumPy, the result must have ``a``'s shape.

Note [Operator fast path]
~~~~~~~~~~~~~~~~~~~~~~~~~
``+ - * /`` on float arrays are most of what a training loop runs, and there
NumPy's rules reduce to the legacy ones: two float arrays of the same dtype
need no promotion or cast, and a Python float or int never changes a float
array's dtype (Note [MXNet's type promotion]). For exactly those operands the
dunders call the legacy op (``elemwise_mul`` for equal shapes, ``broadcast_mul``
after NumPy's broadcast check otherwise, ``_mul_scalar`` ...) with one cffi
call, as ``weft.nd``'s dunders do, and set the result's shape and dtype caches;
everything else (ints, bools, mixed dtypes, 0-d and zero-size arrays, NumPy
scalars, out=) takes the general path through weft.np's functions. The values are the same either way
(the broadcast op of equal shapes is the element-wise op), and so are the
gradients. ``w -= lr * g`` also gets the legacy fused update (Note [In-place
axpy fusion]); ``_inplace_fast`` calls ``is_temporary`` from the dunder itself,
at the call depth that check is calibrated for. benchmarks/np_vs_nd.py measures it.
While autograd records, in-place operators take the general path (below).

Note [In-place operators under autograd]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
``z *= x`` on a recorded ``z`` used to run ``multiply(z, x)`` and write the
result into z's buffer; the tape's multiply node then read z's buffer at
backward for its gradient (d/dx = z) and found the new value: a silently wrong
gradient. While recording, an in-place operator on an array of the tape
therefore runs its op on a recorded copy of the old value (``_copyto``, whose
gradient is the identity) and writes the result into the array with a recorded
``_copyto``, so the array's tape entry moves to the result and the op's
gradient reads the copy. MXNet 1.9.1 refuses in-place operators on arrays of
the graph inside ``record()``; Weft computes them. Other ops recorded earlier
that read the array (``y = z * x; z += 1``) still find the new value at
backward: the tape keeps no versions (Note [Assignment under autograd]).
"""
# pylint: disable=protected-access
from ..autograd import is_recording as _is_recording
from ..base import error_for, into1, into2, invoke1, invoke2
from ..dtypes import FLAG_TO_NAME
from ..ndarray import axpy
from ..ndarray.attr_text import _scalar_attr
from ..ndarray.ndarray import NDArray, _new_obj
from ..ndarray.op_call import _fail, _op, has_op
from . import _arithmetic as _ar
from . import _elementwise as _el
from . import _products as _pr
from ._array import _invoke, _invoke_default, ndarray
from ._ufunc_core import broadcast_shape, is_py_scalar, write_out

__all__ = []


def _binary(fn):
    def op(self, other):
        if not (isinstance(other, NDArray) or is_py_scalar(other)):
            return NotImplemented
        return fn(self, other)
    return op


def _reflected(fn):
    def op(self, other):
        if not (isinstance(other, NDArray) or is_py_scalar(other)):
            return NotImplemented
        return fn(other, self)
    return op


def _inplace(fn, name):
    def op(self, other):
        if not (isinstance(other, NDArray) or is_py_scalar(other)):
            return NotImplemented
        if _is_recording() and self._on_tape:
            # Note [In-place operators under autograd]: the op reads a copy of the old value.
            return write_out(name, fn(_invoke("_copyto", [self]), other), self)
        return write_out(name, fn(self, other), self)
    return op


_BINARY = {"add": _ar.add, "sub": _ar.subtract, "mul": _ar.multiply, "truediv": _ar.true_divide,
           "floordiv": _ar.floor_divide, "mod": _ar.mod, "pow": _ar.power,
           "and": _ar.bitwise_and, "or": _ar.bitwise_or, "xor": _ar.bitwise_xor}
_COMPARE = {"eq": _ar.equal, "ne": _ar.not_equal, "gt": _ar.greater, "ge": _ar.greater_equal,
            "lt": _ar.less, "le": _ar.less_equal}


_FLOATS = frozenset(f for f, n in FLAG_TO_NAME.items() if n in ("float16", "float32", "float64"))
# dunder -> (same-shape op, array-scalar op, scalar-array op, axpy kind); Note [Operator fast path]
_FAST = {"add": ("elemwise_add", "_plus_scalar", "_plus_scalar", "add", "broadcast_add", "add"),
         "sub": ("elemwise_sub", "_minus_scalar", "_rminus_scalar", "subtract", "broadcast_sub", "subtract"),
         "mul": ("elemwise_mul", "_mul_scalar", "_mul_scalar", None, "broadcast_mul", "multiply"),
         "truediv": ("elemwise_div", "_div_scalar", "_rdiv_scalar", None, "broadcast_div", "true_divide")}


def _fast_shape(x):
    """x's shape when the fast path may take it (not 0-d, not zero-size), else None."""
    s = x.shape
    return s if s and 0 not in s else None


def _binary_fast(names, general, reverse):
    """A dunder with Note [Operator fast path] in front of `general`."""
    same, sop, rop, bop = (_op(n) for n in names[:3] + names[4:5])
    sop = rop if reverse else sop
    fname = names[5]

    def op(self, other, _fl=_FLOATS, _cls=ndarray, _nd=NDArray, _new=_new_obj):
        t = other.__class__
        if t is _cls or t is _nd:
            f = self._dtype_flag
            if f in _fl and f == other._dtype_flag:
                s, so = _fast_shape(self), _fast_shape(other)
                if s is not None and so is not None:
                    if s == so:
                        k = same
                    else:  # NumPy's broadcast (or its error, named as the general path names it)
                        k, s = bop, (broadcast_shape(fname, so, s) if reverse else broadcast_shape(fname, s, so))
                    h = invoke2(k, other.handle, self.handle, 0, b"") if reverse else \
                        invoke2(k, self.handle, other.handle, 0, b"")
                    if not h:
                        _fail(names[0] if k is same else names[4])
                    o = _new(_cls)
                    o.handle, o._shape, o._dflag = h, s, f
                    return o
        elif t is float or t is int:
            f = self._dtype_flag
            if f in _fl:
                s = _fast_shape(self)
                if s is not None:
                    h = invoke1(sop, self.handle, 1, _scalar_attr(other))
                    if not h:
                        _fail(names[2 if reverse else 1])
                    o = _new(_cls)
                    o.handle, o._shape, o._dflag = h, s, f
                    return o
        return general(self, other)
    return op


def _inplace_fast(names, general):
    """An in-place dunder with Note [Operator fast path] (and the axpy fusion) in front of `general`."""
    same, sop = _op(names[0]), _op(names[1])
    kind = names[3] if axpy.ENABLED else None

    def op(self, other, _fl=_FLOATS, _cls=ndarray, _nd=NDArray, _temp=axpy.is_temporary, _fuse=axpy.fuse,
           _rec=_is_recording):
        t = other.__class__
        # The fusion first: the core fuses only a float32 multiply that is still pending, has
        # w's shape and was pushed while autograd did not record (Note [In-place axpy fusion]),
        # so it needs no check here, and each Python step taken before it gives the engine
        # time to start the multiply, which then cannot be fused.
        if kind is not None and (t is _cls or t is _nd) and _temp(other, kind) and _fuse(self, other, kind):
            return self
        if _rec():  # Note [In-place operators under autograd]
            return general(self, other)
        if t is _cls or t is _nd:
            f = self._dtype_flag
            if f in _fl and f == other._dtype_flag:
                s = _fast_shape(self)
                if s is not None and s == other.shape:
                    rc = into2(same, self.handle, other.handle, self.handle, 0, b"")
                    if rc:
                        raise error_for(rc)
                    return self
        elif t is float or t is int:
            f = self._dtype_flag
            if f in _fl and _fast_shape(self) is not None:
                rc = into1(sop, self.handle, self.handle, 1, _scalar_attr(other))
                if rc:
                    raise error_for(rc)
                return self
        return general(self, other)
    return op


def _neg(self, _fl=_FLOATS, _cls=ndarray):
    """-self; a float ndarray goes straight to the op (Note [Default-parameter calls] in _array.py)."""
    if self.__class__ is _cls and self._dtype_flag in _fl:
        return _invoke_default("negative", self, shape=self.shape)
    return _el.negative(self)


def _install():
    fast = all(has_op(n) for names in _FAST.values() for n in names[:3] + names[4:5])
    for name, fn in _BINARY.items():
        binary, reflected, inplace = _binary(fn), _reflected(fn), _inplace(fn, "__i%s__" % name)
        if fast and name in _FAST:
            binary = _binary_fast(_FAST[name], binary, False)
            reflected = _binary_fast(_FAST[name], reflected, True)
            inplace = _inplace_fast(_FAST[name], inplace)
        setattr(ndarray, "__%s__" % name, binary)
        setattr(ndarray, "__r%s__" % name, reflected)
        setattr(ndarray, "__i%s__" % name, inplace)
    for name, fn in _COMPARE.items():
        setattr(ndarray, "__%s__" % name, _binary(fn))
    ndarray.__matmul__ = lambda self, other: _pr.matmul(self, other) if isinstance(other, NDArray) \
        else NotImplemented
    ndarray.__rmatmul__ = lambda self, other: _pr.matmul(other, self) if isinstance(other, NDArray) \
        else NotImplemented
    ndarray.__neg__ = _neg
    ndarray.__pos__ = lambda self: _el.positive(self)
    ndarray.__abs__ = lambda self: _el.absolute(self)
    ndarray.__invert__ = lambda self: _el.invert(self)


_install()
