"""Weft: a deep-learning library in the lineage of MXNet 1.x.

``import weft as mx`` runs most MXNet 1.x NDArray and Symbol scripts: weft.nd,
weft.sym, weft.cpu(), weft.gpu(), weft.Context, weft.random, weft.AttrScope,
weft.name ... See bindings/python/README.md.
"""
import importlib as _importlib
import sys as _sys

from .base import (ArgumentTypeError, DTypeError, EngineError, InternalError, InvalidArgumentError,
                   NotFoundError, OutOfMemoryError, ShapeError, WeftError, WeftIOError)
from . import base
from .context import Context, cpu, cpu_pinned, current_context, gpu, num_gpus
from . import dtypes
from . import ndarray
from . import ndarray as nd
from . import random
from .ndarray import NDArray, waitall
from . import attribute, name
from .attribute import AttrScope
from . import symbol
from . import symbol as sym
from . import executor
from .executor import Executor
from . import optimizer, lr_scheduler, initializer, metric
from . import initializer as init
from . import autograd
from .ndarray.ndarray_class import install_methods as _install_methods
# attach_grad / backward: weft.autograd builds on weft.ndarray (Note [NDArray leaf]).
_install_methods(NDArray, autograd.NDArrayAutogradMethods)
from . import cached_op
from . import gluon
from . import kvstore
from . import kvstore as kv
from . import predictor
from . import visualization
from . import visualization as viz
from . import io, recordio, image
from . import model, callback, feedforward
# mx.model.FeedForward: feedforward.py builds on model.py's checkpoints (and on callback.py and
# weft.module, which import model.py too), so model.py cannot import it back; the package
# assembles the name, as MXNet's module path has it.
model.FeedForward = feedforward.FeedForward
from . import module
from . import module as mod
from . import test_utils
from . import runtime, engine, util
# MXNet 1.9.1 exposes these NumPy-mode switches at top level (mx.np_shape, mx.use_np_shape, ...).
from .util import is_np_array, is_np_shape, np_array, np_shape, set_np_shape, use_np, use_np_array, use_np_shape
from . import monitor
from . import operator  # custom operators (mx.operator); installs nd.Custom / sym.Custom
from .monitor import Monitor
from . import profiler  # mx.profiler: engine traces and aggregate tables
from . import libinfo  # mx.libinfo.find_lib_path() / find_include_path() (issue 42)
from . import numpy, numpy_extension  # mx.np / mx.npx (issue 37)
from . import numpy as np
from ._np_methods import NDArrayNumpyMethods as _NDArrayNumpyMethods
_install_methods(NDArray, _NDArrayNumpyMethods)  # as_np_ndarray (Note [NDArray leaf])
from . import rnn  # mx.rnn: the legacy symbolic RNN cells (issue 41)
from . import contrib  # mx.contrib (issue 41)
from . import numpy_extension as npx
# MXNet's F.np / F.npx in hybrid_forward: weft.nd.np, weft.nd.npx (weft.numpy sits above weft.ndarray).
ndarray.np, ndarray.npx = numpy, numpy_extension
ndarray.CachedOp = cached_op.CachedOp  # MXNet exports it as mx.nd.CachedOp
initializer.FusedRNN = rnn.fused_cell.FusedRNN  # mx.init.FusedRNN: lives beside FusedRNNCell, which it needs
test_utils.mx = _sys.modules[__name__]  # MXNet's test_utils has `mx` (Note [Star-import surface])
rnd, mon, img = random, monitor, image  # MXNet's short aliases (mx.rnd, mx.mon, mx.img)

__version__ = libinfo.__version__  # as MXNet, whose version lives in mx.libinfo
MXNetError = WeftError  # scripts that catch mx.base.MXNetError port unchanged

_sys.modules.setdefault(__name__ + ".nd", ndarray)
_sys.modules.setdefault(__name__ + ".sym", symbol)
_sys.modules.setdefault(__name__ + ".init", initializer)
_sys.modules.setdefault(__name__ + ".kv", kvstore)
_sys.modules.setdefault(__name__ + ".viz", visualization)
_sys.modules.setdefault(__name__ + ".mod", module)
_sys.modules.setdefault(__name__ + ".np", numpy)
_sys.modules.setdefault(__name__ + ".npx", numpy_extension)
# Submodules under the aliases too, so ``import weft.npx.random`` finds the loaded
# module instead of executing the file a second time as a new module.
_sys.modules.setdefault(__name__ + ".np.random", numpy.random)
_sys.modules.setdefault(__name__ + ".npx.random", numpy_extension.random)
_sys.modules.setdefault(__name__ + ".npx.image", numpy_extension.image)
# weft.dlpack (MXNet's mxnet.dlpack path) is weft/ndarray/dlpack.py: from_dlpack, to_dlpack_* and
# from_numpy are weft.nd functions and NDArray methods, so the code sits in that package.
dlpack = ndarray.dlpack
_sys.modules.setdefault(__name__ + ".dlpack", dlpack)

__all__ = [
    "WeftError", "InvalidArgumentError", "ShapeError", "DTypeError", "OutOfMemoryError", "NotFoundError",
    "EngineError", "WeftIOError", "InternalError", "ArgumentTypeError", "Context", "cpu", "gpu",
    "cpu_pinned", "current_context", "num_gpus", "nd", "ndarray", "random", "NDArray", "waitall", "dtypes",
    "sym", "symbol", "Executor", "executor", "AttrScope", "attribute", "name",
    "optimizer", "lr_scheduler", "initializer", "init", "metric", "autograd", "cached_op", "gluon", "viz",
    "visualization",
]


def __getattr__(name):
    """``mx.onnx`` on first use (PEP 562): weft.onnx loads the onnx package, about
    a second that every ``import weft`` would otherwise pay (issue 40)."""
    if name == "onnx":
        return _importlib.import_module(".onnx", __name__)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
