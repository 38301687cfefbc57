"""``npx.save`` / ``npx.load``: MXNet's NDArray file format (the one nd.save and
nd.load use, not .npy), with np arrays."""
from ..ndarray.ndarray import NDArray
from ..ndarray.serialization import load as _nd_load, save as _nd_save
from ..numpy._array import _np

__all__ = ["save", "load"]


def save(file, arr):  # pylint: disable=redefined-builtin
    """Saves an array, a list of arrays or a dict str -> array to file, in the
    format nd.save writes (readable by nd.load, npx.load and MXNet)."""
    if isinstance(arr, NDArray):
        arr = [arr]
    if isinstance(arr, dict):
        bad = [k for k, v in arr.items() if not isinstance(k, str) or not isinstance(v, NDArray)]
    elif isinstance(arr, (list, tuple)):
        bad = [v for v in arr if not isinstance(v, NDArray)]
    else:
        raise TypeError("save: arr must be an ndarray, a list of ndarrays or a dict of str to ndarray, got %s"
                        % type(arr).__name__)
    if bad:
        raise TypeError("save: only accepts dict str->ndarray or list of ndarrays (bad entry %r)" % (bad[0],))
    _nd_save(file, arr)


def load(file):  # pylint: disable=redefined-builtin
    """Loads a file written by npx.save or nd.save: a list of np arrays, or a dict
    str -> np array when the file has names."""
    res = _nd_load(file)
    if isinstance(res, dict):
        return {k: _np(v) for k, v in res.items()}
    return [_np(v) for v in res]
