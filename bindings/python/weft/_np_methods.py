"""NDArray.as_np_ndarray: the classic array seen as a ``weft.np.ndarray``. weft.numpy builds on
weft.ndarray, so the method cannot live with the class (Note [NDArray leaf] in
weft/ndarray/ndarray_class.py); weft/__init__.py copies it onto NDArray once both are imported."""
from .numpy._array import _clone, ndarray

__all__ = ["NDArrayNumpyMethods"]


class NDArrayNumpyMethods:
    """Holder of NDArray.as_np_ndarray (never instantiated)."""

    def as_np_ndarray(self):
        """The same array as a ``weft.np.ndarray`` (no copy; Note [One array, two
        classes] in weft/numpy/_array.py)."""
        return _clone(self, ndarray)
