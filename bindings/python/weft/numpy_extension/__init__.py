"""weft.npx: MXNet's NumPy extensions (``from mxnet import npx``), issue 37.

Also importable as ``weft.numpy_extension`` (MXNet's ``mxnet.numpy_extension``):
the neural-network operators under their NumPy-mode names and the switches of
NumPy mode (Note [NumPy mode switches] in weft/util.py).
"""
from ..util import _default_float_dtype, is_np_array, is_np_shape, reset_np, set_np

__all__ = ["set_np", "reset_np", "is_np_array", "is_np_shape"]
