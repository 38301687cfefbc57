"""weft.np: MXNet's NumPy interface (``from mxnet import np``), issue 37.

Also importable as ``weft.numpy`` (MXNet's module path, ``mxnet.numpy``).
The array type is ``ndarray`` (Note [One array, two classes] in _array.py);
the functions are built from the registry's operators.
"""
from ._array import ndarray
from . import linalg

__all__ = ["ndarray"]
