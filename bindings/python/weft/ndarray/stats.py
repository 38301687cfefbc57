"""``weft.nd.histogram``: MXNet's ``mx.nd.histogram`` front of the ``_histogram``
operator (bins as a count with a range, or as an array of edges)."""
# pylint: disable=redefined-builtin
import numbers

from ..base import ArgumentTypeError
from .ndarray_class import NDArray
from .op_call import _call


def histogram(a, bins=10, range=None):
    """Compute the histogram of the input data.

    Parameters
    ----------
    a : NDArray
        Input data. The histogram is computed over the flattened array.
    bins : int or NDArray
        If bins is an int, it defines the number of equal-width bins in the
        given range (10, by default). If bins is an NDArray, it defines the bin
        edges, including the rightmost edge, allowing for non-uniform bin widths.
    range : (float, float), optional
        The lower and upper range of the bins. If not provided, range is simply
        (a.min(), a.max()) (widened by 0.5 on each side when they are equal, as
        NumPy does). Values outside the range are ignored.

    Returns
    -------
    (NDArray, NDArray)
        The counts (int64) and the bin edges.
    """
    if isinstance(bins, NDArray):
        return tuple(_call("_histogram", [a, bins]))
    if isinstance(bins, numbers.Integral) and not isinstance(bins, bool):
        if range is None:
            lo, hi = float(a.min().asscalar()), float(a.max().asscalar())
            if lo == hi:
                lo, hi = lo - 0.5, hi + 0.5
            range = (lo, hi)
        return tuple(_call("_histogram", [a], bin_cnt=int(bins), range=tuple(float(r) for r in range)))
    raise ArgumentTypeError("histogram: bins argument should be either an integer or an NDArray, got %s"
                            % type(bins).__name__)
