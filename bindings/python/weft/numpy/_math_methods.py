"""The math methods of ``weft.np.ndarray`` (``x.sum()``, ``x.sqrt()`` ...; the
math names of MXNet 1.9.1's ``mx.np.ndarray``), installed on the class when
weft.np is imported (Note [Operators installed from below] in _operators.py).

The NumPy-mode methods take NumPy's parameters and return NumPy-mode results
(0-d full reductions, bool comparisons). ``sort`` returns a sorted copy as
MXNet's ``mx.np.ndarray.sort`` does (NumPy's sorts in place). ``norm``,
``nansum``, ``nanprod``, ``rsqrt`` and ``rcbrt`` are MXNet's legacy methods
with no ``mx.np`` function: they keep the legacy operators' parameters, with
NumPy-mode result shapes.
"""
# pylint: disable=protected-access,redefined-builtin
from . import _elementwise as _el
from . import _products as _pr
from . import _reductions as _rd
from . import _sorting as _so
from ._array import _invoke, _np, ndarray
from ._ufunc_core import check_ufunc_kwargs, write_out

__all__ = []

_UNARY = ("abs", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil", "cos", "cosh",
          "degrees", "exp", "expm1", "fix", "floor", "log", "log10", "log1p", "log2", "radians", "reciprocal",
          "rint", "sign", "sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc", "rsqrt", "rcbrt")


def _unary_method(name):
    fn = getattr(_el, name)

    def method(self, out=None, **kwargs):
        return fn(self, out=out, **kwargs)
    method.__name__ = name
    method.__qualname__ = "ndarray." + name
    method.__doc__ = "Same as weft.np.%s(self) (rsqrt/rcbrt: 1/sqrt, 1/cbrt)." % name
    return method


def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Same as weft.np.sum(self, ...)."""
    return _rd.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)


def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """Same as weft.np.prod(self, ...)."""
    return _rd.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)


def mean(self, axis=None, dtype=None, out=None, keepdims=False):
    """Same as weft.np.mean(self, ...)."""
    return _rd.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)


def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Same as weft.np.std(self, ...)."""
    return _rd.std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)


def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Same as weft.np.var(self, ...)."""
    return _rd.var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)


def max(self, axis=None, out=None, keepdims=False):
    """Same as weft.np.max(self, ...)."""
    return _rd.max(self, axis=axis, out=out, keepdims=keepdims)


def min(self, axis=None, out=None, keepdims=False):
    """Same as weft.np.min(self, ...)."""
    return _rd.min(self, axis=axis, out=out, keepdims=keepdims)


def all(self, axis=None, out=None, keepdims=False):
    """Same as weft.np.all(self, ...)."""
    return _rd.all(self, axis=axis, out=out, keepdims=keepdims)


def any(self, axis=None, out=None, keepdims=False):
    """Same as weft.np.any(self, ...)."""
    return _rd.any(self, axis=axis, out=out, keepdims=keepdims)


def argmax(self, axis=None, out=None):
    """Same as weft.np.argmax(self, ...)."""
    return _rd.argmax(self, axis=axis, out=out)


def argmin(self, axis=None, out=None):
    """Same as weft.np.argmin(self, ...)."""
    return _rd.argmin(self, axis=axis, out=out)


def cumsum(self, axis=None, dtype=None, out=None):
    """Same as weft.np.cumsum(self, ...)."""
    return _rd.cumsum(self, axis=axis, dtype=dtype, out=out)


def argsort(self, axis=-1, kind=None, order=None):
    """Same as weft.np.argsort(self, ...)."""
    return _so.argsort(self, axis=axis, kind=kind, order=order)


def sort(self, axis=-1, kind=None, order=None):
    """A sorted copy, as weft.np.sort(self, ...) (MXNet's method returns a copy;
    NumPy's sorts in place)."""
    return _so.sort(self, axis=axis, kind=kind, order=order)


def clip(self, min=None, max=None, out=None):
    """Same as weft.np.clip(self, min, max)."""
    return _el.clip(self, min, max, out=out)


def dot(self, b, out=None):
    """Same as weft.np.dot(self, b)."""
    return _pr.dot(self, b, out=out)


def round(self, decimals=0, out=None, **kwargs):
    """Same as weft.np.round(self, decimals) (halves to even)."""
    check_ufunc_kwargs("round", kwargs)
    return _el.around(self, decimals, out=out)


def _legacy_reduce(opname, self, axis, keepdims, **attrs):
    axes = _rd.normalize_axis(opname, axis, self.ndim)
    shape = _rd.reduced_shape(self.shape, axes, keepdims)
    if not axes:
        return _invoke("_plus_scalar", [self], scalar=0)
    res = _invoke(opname, [self], axis=axes, keepdims=bool(keepdims), **attrs)
    return res if tuple(res.shape) == shape else _np(res._view(shape))


def norm(self, ord=2, axis=None, keepdims=False):
    """The legacy ``norm`` operator (ord 1 or 2 over axis; all axes by default:
    the flattened vector's norm), with a 0-d result for a full reduction."""
    if ord not in (1, 2):
        raise ValueError("norm: ord must be 1 or 2 (the legacy operator's), got %r" % (ord,))
    return _legacy_reduce("norm", self, axis, keepdims, ord=ord)


def nansum(self, axis=None, keepdims=False, out=None):
    """The sum over axis treating NaN as 0 (the legacy ``nansum`` operator)."""
    return write_out("nansum", _legacy_reduce("nansum", self, axis, keepdims), out)


def nanprod(self, axis=None, keepdims=False, out=None):
    """The product over axis treating NaN as 1 (the legacy ``nanprod`` operator)."""
    return write_out("nanprod", _legacy_reduce("nanprod", self, axis, keepdims), out)


def _install():
    for name in _UNARY:
        setattr(ndarray, name, _unary_method(name))
    for fn in (sum, prod, mean, std, var, max, min, all, any, argmax, argmin, cumsum, argsort, sort, clip, dot,
               round, norm, nansum, nanprod):
        fn.__qualname__ = "ndarray." + fn.__name__
        setattr(ndarray, fn.__name__, fn)


_install()
