"""``weft.np.unique`` (MXNet 1.9.1's ``mxnet.numpy.unique``, issue 37 point
3): the registry op ``_npi_unique`` (MXNet's registered name), whose output
sizes are known only once the input is computed (Note [Data-dependent output
shapes], core/opdef/dynamic_shape.h)."""
# pylint: disable=invalid-name
import operator

from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["unique"]


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """The sorted unique elements of ``ar`` (flattened when ``axis`` is None)
    or its unique slices along ``axis`` (NumPy's ``numpy.unique``), with
    optionally the indices of their first occurrences, the inverse indices and
    the counts (int64), returned as a tuple in that order when any is asked.

    As in MXNet 1.9.1 and NumPy 1.x, the inverse is 1-D (NumPy 2 reshapes it
    to ``ar``'s shape when ``axis`` is None). NaNs collapse into one, as
    NumPy's default ``equal_nan``. Bad input: TypeError for a non-array
    ``ar`` or a non-integer ``axis``; ValueError for an axis out of range."""
    if not isinstance(ar, NDArray):
        raise ArgumentTypeError("unique: argument 'ar' must be a weft.np.ndarray, got %s" % type(ar).__name__)
    attrs = dict(return_index=bool(return_index), return_inverse=bool(return_inverse),
                 return_counts=bool(return_counts))
    if axis is not None:
        try:
            attrs["axis"] = operator.index(axis)
        except TypeError:
            raise ArgumentTypeError("unique: argument 'axis' must be an integer or None, got %s"
                                    % type(axis).__name__) from None
    res = _invoke("_npi_unique", [ar], **attrs)
    return tuple(res) if isinstance(res, list) else res
