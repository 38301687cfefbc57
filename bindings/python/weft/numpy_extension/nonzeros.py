"""``weft.npx.nonzero`` (MXNet 1.9.1's ``mxnet.numpy_extension.nonzero``,
issue 37 point 3): the registry op ``_npx_nonzero`` itself."""
from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ..numpy._array import _invoke

__all__ = ["nonzero"]


def nonzero(x):
    """The indices of the nonzero elements of ``x`` as an int64 array of shape
    (N, x.ndim), one row per element in row-major order (NumPy's
    ``argwhere``). A 0-d ``x`` counts as the 1-d ``(1,)``, as in MXNet 1.9.1
    (checked there): ``[[0]]`` when nonzero, shape ``(0, 1)`` when not; this
    differs from NumPy 2, whose ``argwhere`` gives shape ``(N, 0)``."""
    if not isinstance(x, NDArray):
        raise ArgumentTypeError("nonzero: argument 'x' must be a weft.np.ndarray, got %s" % type(x).__name__)
    return _invoke("_npx_nonzero", [x])
