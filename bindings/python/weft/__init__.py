"""Weft: a deep-learning library in the lineage of MXNet 1.x.

``import weft as mx`` runs most MXNet 1.x NDArray scripts: weft.nd, weft.cpu(),
weft.gpu(), weft.Context, weft.random ... See bindings/python/README.md.
"""
import sys as _sys

from .base import (ArgumentTypeError, DTypeError, EngineError, InternalError, InvalidArgumentError,
                   NotFoundError, OutOfMemoryError, ShapeError, WeftError, WeftIOError)
from . import base
from .context import Context, cpu, cpu_pinned, current_context, gpu
from . import dtypes
from . import ndarray
from . import ndarray as nd
from . import random
from .ndarray import NDArray, waitall

__version__ = "0.1.0"
MXNetError = WeftError  # scripts that catch mx.base.MXNetError port unchanged

_sys.modules.setdefault(__name__ + ".nd", ndarray)

__all__ = [
    "WeftError", "InvalidArgumentError", "ShapeError", "DTypeError", "OutOfMemoryError", "NotFoundError",
    "EngineError", "WeftIOError", "InternalError", "ArgumentTypeError", "Context", "cpu", "gpu",
    "cpu_pinned", "current_context", "nd", "ndarray", "random", "NDArray", "waitall", "dtypes",
]
