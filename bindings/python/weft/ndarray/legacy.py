"""MXNet 1.x module functions kept for old scripts: ``onehot_encode``
(deprecated in MXNet in favour of ``one_hot``)."""
from .. import dtypes as _dt
from ..base import ArgumentTypeError, ShapeError
from .ndarray import NDArray, _call

__all__ = ["onehot_encode"]


def onehot_encode(indices, out):
    """One-hot encodes the 1-d ``indices`` into the 2-d array ``out`` (row i gets a 1
    at column indices[i], 0 elsewhere) and returns out, as MXNet's deprecated
    ``mx.nd.onehot_encode``; the ``one_hot`` operator, written into out with
    out's dtype and depth out.shape[1]. Use ``one_hot`` in new code."""
    if not isinstance(indices, NDArray) or not isinstance(out, NDArray):
        raise ArgumentTypeError("onehot_encode: indices and out must be NDArrays, got %s and %s"
                                % (type(indices).__name__, type(out).__name__))
    if len(indices.shape) != 1 or len(out.shape) != 2 or out.shape[0] != indices.shape[0]:
        raise ShapeError("onehot_encode: expected 1-d indices (n,) and a 2-d out (n, depth), got %s and %s"
                         % (indices.shape, out.shape))
    return _call("one_hot", [indices], out=out, depth=out.shape[1], dtype=_dt.name(out._dtype_flag))
