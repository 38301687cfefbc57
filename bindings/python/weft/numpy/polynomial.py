"""``weft.np.polyval`` (MXNet 1.9.1's ``mxnet.numpy.polyval``, issue 37 point
3): the registry op ``_npi_polyval`` (MXNet's registered name), with its
gradient for both arguments."""
# pylint: disable=invalid-name
import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["polyval"]


def polyval(p, x):
    """Evaluates the polynomial with coefficients ``p`` (1-D, highest power
    first) at every element of ``x``: ``p[0] * x**(N-1) + ... + p[N-1]``.

    As in MXNet 1.9.1, ``p`` and ``x`` are both ``weft.np.ndarray`` (the result
    has ``x``'s shape; MXNet hands two numbers to NumPy, which refuses a
    scalar ``p`` with a TypeError, as this function does). Arrays
    of different dtypes are cast to NumPy's common type first (MXNet leaves
    that unstated; NumPy's rule is followed). Bad input: TypeError for mixed
    or bool arguments, ValueError for a ``p`` that is not 1-D."""
    if not (isinstance(p, NDArray) and isinstance(x, NDArray)):
        raise ArgumentTypeError("polyval: arguments 'p' and 'x' must both be weft.np.ndarray, "
                                "got %s and %s" % (type(p).__name__, type(x).__name__))
    if p.dtype != x.dtype:
        common = onp.result_type(p.dtype, x.dtype).name
        p = p if p.dtype == common else _invoke("Cast", [p], dtype=common)
        x = x if x.dtype == common else _invoke("Cast", [x], dtype=common)
    return _invoke("_npi_polyval", [p, x])
