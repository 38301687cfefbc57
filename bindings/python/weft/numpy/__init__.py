"""weft.np: MXNet's NumPy interface (``from mxnet import np``), issue 37.

Also importable as ``weft.numpy`` (MXNet's module path, ``mxnet.numpy``).
The array type is ``ndarray`` (Note [One array, two classes] in _array.py);
the functions are built from the registry's operators.
"""
from ._array import ndarray
from .differences import *  # diff, ediff1d (issue 37 point 3)
from .polynomial import *  # polyval, interp (issue 37 point 3)
from .nonzeros import *  # nonzero, flatnonzero (issue 37 point 3)
from .index_tricks import *  # unravel_index, diag_indices_from (issue 37 point 3)
from .counting import *  # bincount (issue 37 point 3)
from .contraction import *  # tensordot, einsum (issue 37 point 3)
from .setops import *  # unique (issue 37 point 3)
from .deletion import *  # delete, insert (issue 37 point 3)
from .padding import *  # pad (issue 37 point 3)

__all__ = ["ndarray"]
