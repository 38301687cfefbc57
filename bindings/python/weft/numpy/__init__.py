"""weft.np: MXNet's NumPy interface (``from mxnet import np``), issue 37.

Also importable as ``weft.numpy`` (MXNet's module path, ``mxnet.numpy``).
The array type is ``ndarray`` (Note [One array, two classes] in _array.py);
the functions are built from the registry's operators.
"""
from ._array import ndarray
from .constants import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .reshaping import *  # noqa: F401,F403
from .rearranging import *  # noqa: F401,F403
from .joining import *  # noqa: F401,F403
from .splitting import *  # noqa: F401,F403
from .repeating import *  # noqa: F401,F403
from .text_io import *  # noqa: F401,F403
from ._arithmetic import *  # noqa: F401,F403
from ._elementwise import *  # noqa: F401,F403
from ._reductions import *  # noqa: F401,F403
from ._sorting import *  # noqa: F401,F403
from ._products import *  # noqa: F401,F403
from ._statistics import *  # noqa: F401,F403
from .triangular import *  # noqa: F401,F403
from .fallback import *  # noqa: F401,F403  (Note [Host NumPy fallback])
from . import _methods  # noqa: F401  (installs ndarray's methods: Note [Methods installed on ndarray])
from . import _operators  # noqa: F401  (installs ndarray's operators)
from . import _math_methods  # noqa: F401  (installs ndarray's math methods)
from . import _ufunc_protocol  # noqa: F401  (installs ndarray.__array_ufunc__)
from . import random  # noqa: F401
from .differences import *  # diff, ediff1d (issue 37 point 3)
from .polynomial import *  # polyval, interp (issue 37 point 3)
from .nonzeros import *  # nonzero, flatnonzero (issue 37 point 3)
from .index_tricks import *  # unravel_index, diag_indices_from (issue 37 point 3)
from .counting import *  # bincount (issue 37 point 3)
from .contraction import *  # tensordot, einsum (issue 37 point 3)
from .setops import *  # unique (issue 37 point 3)
from .deletion import *  # delete, insert (issue 37 point 3)
from .padding import *  # pad (issue 37 point 3)
from . import linalg
