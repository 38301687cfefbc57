"""weft.npx: MXNet's NumPy extensions (``from mxnet import npx``), issue 37.

Also importable as ``weft.numpy_extension`` (MXNet's ``mxnet.numpy_extension``):
the neural-network operators under their NumPy-mode names and the switches of
NumPy mode.
"""
from .nonzeros import *  # nonzero (issue 37 point 3)

__all__ = []
