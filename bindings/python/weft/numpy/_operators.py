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
"""
# pylint: disable=protected-access
from ..ndarray.ndarray import NDArray
from . import _arithmetic as _ar
from . import _elementwise as _el
from . import _products as _pr
from ._array import ndarray
from ._ufunc_core import is_py_scalar, write_out

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
        return write_out(name, fn(self, other), self)
    return op


_BINARY = {"add": _ar.add, "sub": _ar.subtract, "mul": _ar.multiply, "truediv": _ar.true_divide,
           "floordiv": _ar.floor_divide, "mod": _ar.mod, "pow": _ar.power,
           "and": _ar.bitwise_and, "or": _ar.bitwise_or, "xor": _ar.bitwise_xor}
_COMPARE = {"eq": _ar.equal, "ne": _ar.not_equal, "gt": _ar.greater, "ge": _ar.greater_equal,
            "lt": _ar.less, "le": _ar.less_equal}


def _install():
    for name, fn in _BINARY.items():
        setattr(ndarray, "__%s__" % name, _binary(fn))
        setattr(ndarray, "__r%s__" % name, _reflected(fn))
        setattr(ndarray, "__i%s__" % name, _inplace(fn, "__i%s__" % name))
    for name, fn in _COMPARE.items():
        setattr(ndarray, "__%s__" % name, _binary(fn))
    ndarray.__matmul__ = lambda self, other: _pr.matmul(self, other) if isinstance(other, NDArray) \
        else NotImplemented
    ndarray.__rmatmul__ = lambda self, other: _pr.matmul(other, self) if isinstance(other, NDArray) \
        else NotImplemented
    ndarray.__neg__ = lambda self: _el.negative(self)
    ndarray.__pos__ = lambda self: _el.positive(self)
    ndarray.__abs__ = lambda self: _el.absolute(self)
    ndarray.__invert__ = lambda self: _el.invert(self)


_install()
