"""weft.contrib (``mx.contrib``): MXNet 1.9.1's contributed Python modules.

``io`` (DataLoaderIter), ``autograd`` (the first autograd interface), ``ndarray`` /
``nd`` and ``symbol`` / ``sym`` (the ``_contrib_*`` operators: the same modules as
weft.nd.contrib and weft.sym.contrib), ``text`` (vocabularies, embeddings),
``tensorboard`` (LogMetricsCallback), ``svrg_optimization`` (SVRGModule), and
``quantization`` / ``amp``, which raise NotImplementedError for now (Note [Low
precision is a later issue] in quantization.py). ``contrib.onnx`` is weft.onnx's.
"""
import sys as _sys

from ..ndarray import contrib as ndarray
from ..symbol import contrib as symbol
from . import autograd
from . import io
from . import tensorboard
from . import text
from . import quantization
from . import amp
from . import svrg_optimization

nd, sym, quant = ndarray, symbol, quantization

# `import weft.contrib.ndarray` / `from weft.contrib.symbol import X` find the shared modules
_sys.modules.setdefault(__name__ + ".ndarray", ndarray)
_sys.modules.setdefault(__name__ + ".nd", ndarray)
_sys.modules.setdefault(__name__ + ".symbol", symbol)
_sys.modules.setdefault(__name__ + ".sym", symbol)

__all__ = ["autograd", "io", "ndarray", "nd", "symbol", "sym", "tensorboard", "text", "quantization", "quant",
           "amp", "svrg_optimization"]
