"""weft.npx: MXNet's NumPy extensions (``from mxnet import npx``), issue 37.

Also importable as ``weft.numpy_extension`` (MXNet's ``mxnet.numpy_extension``):
the neural-network operators under their NumPy-mode names (Note [npx operators
over the legacy registry] in nn.py), devices, save/load, the ``random`` and
``image`` submodules, and the switches of NumPy mode (Note [NumPy mode switches]
in weft/util.py). ``_default_float_dtype()`` gives float32, or float64 under
``set_np(dtype=True)``; weft.np's modules import it from weft.util (below both
packages) rather than from here.
"""
# _default_float_dtype is re-exported for code that looks for it here (it is not in __all__).
from ..util import _default_float_dtype, is_np_array, is_np_shape, reset_np, set_np  # noqa: F401
from .nn import *  # noqa: F401,F403
from .reshaping import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .detection import *  # noqa: F401,F403
from .device import *  # noqa: F401,F403
from .serialization import *  # noqa: F401,F403
from . import nn as _nn, reshaping as _reshaping, indexing as _indexing, elementwise as _elementwise
from . import detection as _detection, device as _device, serialization as _serialization
from . import image, random
from .nonzeros import *  # nonzero (issue 37 point 3)

__all__ = (["set_np", "reset_np", "is_np_array", "is_np_shape", "image", "random", "nonzero"] + _nn.__all__ + _reshaping.__all__
           + _indexing.__all__ + _elementwise.__all__ + _detection.__all__ + _device.__all__
           + _serialization.__all__)
