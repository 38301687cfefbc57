"""``weft.np.nonzero`` and ``weft.np.flatnonzero`` (MXNet 1.9.1's, issue 37
point 3), over the registry op ``_npx_nonzero`` (MXNet's registered name;
``weft.npx.nonzero`` returns its (N, ndim) array as it is). The op's output
size is known only once the input is computed (Note [Data-dependent output
shapes], core/opdef/dynamic_shape.h), so these wait for the input."""
# pylint: disable=invalid-name
from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke, ndarray

__all__ = ["nonzero", "flatnonzero"]


def _array_arg(func, value):
    if not isinstance(value, NDArray):
        raise ArgumentTypeError("%s: argument 'a' must be a weft.np.ndarray, got %s" % (func, type(value).__name__))
    return value


def nonzero(a):
    """The indices of the nonzero elements of ``a``: a tuple of ``a.ndim``
    int64 arrays, one per dimension (NumPy's ``numpy.nonzero``).

    A 0-d ``a`` counts as one element, as in MXNet 1.9.1 (checked there) and
    NumPy 1.x: ``(array([0]),)`` when it is nonzero, one empty index array when
    not (NumPy 2 raises ValueError instead)."""
    _array_arg("nonzero", a)
    if a.ndim == 0:
        return (flatnonzero(a),)
    rows = _invoke("_npx_nonzero", [a])  # (N, ndim)
    cols = _invoke("transpose", [rows])  # (ndim, N)
    if a.ndim == 1:
        return (_invoke("Reshape", [cols], shape=(-1,)),)
    return tuple(_invoke("SliceChannel", [cols], num_outputs=a.ndim, axis=0, squeeze_axis=True))


def flatnonzero(a):
    """The indices of the nonzero elements of ``a`` flattened, as a 1-D int64
    array (NumPy's ``numpy.flatnonzero``; a 0-d ``a`` counts as one element)."""
    _array_arg("flatnonzero", a)
    flat = _invoke("Reshape", [a], shape=(-1,))
    return _invoke("Reshape", [_invoke("_npx_nonzero", [flat])], shape=(-1,))


def _nonzero_method(self):
    """Same as weft.np.nonzero(self): a tuple of int64 index arrays, one per axis."""
    return nonzero(self)


_nonzero_method.__name__ = "nonzero"
_nonzero_method.__qualname__ = "ndarray.nonzero"
# MXNet's mx.np.ndarray has the method; this module is below weft.numpy's __init__,
# which imports it, so the class gets it as the other math methods do (Note
# [Operators installed from below] in _operators.py).
ndarray.nonzero = _nonzero_method
