"""``weft.np.bincount`` (MXNet 1.9.1's ``mxnet.numpy.bincount``, issue 37
point 3): the registry op ``_npi_bincount`` (MXNet's registered name), whose
output length is known only once ``x`` is computed (Note [Data-dependent
output shapes], core/opdef/dynamic_shape.h)."""
# pylint: disable=invalid-name
import operator

from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["bincount"]


def bincount(x, weights=None, minlength=0):
    """The number of occurrences of each value in the non-negative integer 1-D
    ``x`` (or the sum of ``weights`` per value), over
    ``max(x.max() + 1, minlength)`` bins (NumPy's ``numpy.bincount``).

    As in MXNet 1.9.1 the result is int64 without weights and of the weights'
    dtype with them (NumPy gives float64). Bad input: TypeError for a
    non-integer ``x`` or a non-array argument; ValueError for negative values,
    a negative ``minlength``, shapes that differ, or more than 2**31 bins."""
    if not isinstance(x, NDArray):
        raise ArgumentTypeError("bincount: argument 'x' must be a weft.np.ndarray, got %s" % type(x).__name__)
    try:
        minlength = operator.index(minlength)
    except TypeError:
        raise ArgumentTypeError("bincount: argument 'minlength' must be an integer, got %s"
                                % type(minlength).__name__) from None
    if minlength < 0:
        raise ValueError("bincount: argument 'minlength' must not be negative, got %d" % minlength)
    if weights is None:
        return _invoke("_npi_bincount", [x], minlength=minlength, has_weights=False)
    if not isinstance(weights, NDArray):
        raise ArgumentTypeError("bincount: argument 'weights' must be a weft.np.ndarray, got %s"
                                % type(weights).__name__)
    return _invoke("_npi_bincount", [x, weights], minlength=minlength, has_weights=True)
