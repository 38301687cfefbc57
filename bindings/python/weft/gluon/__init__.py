"""weft.gluon: MXNet 1.x's Gluon interface.

Parameter / ParameterDict / Constant, Block / HybridBlock / SymbolBlock, the
layers of ``weft.gluon.nn``, ``weft.gluon.utils`` and ``weft.gluon.data``
(datasets, samplers, batchify functions and DataLoader).
"""
from . import data
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict
from . import block
from .block import Block, HybridBlock
from .symbol_block import SymbolBlock
# MXNet defines SymbolBlock in gluon/block.py, so `from mxnet.gluon.block import SymbolBlock`
# must work here too; symbol_block.py builds on block.py, so block.py cannot import it back:
# the package assembles the name (Python always runs this __init__ before a submodule is used).
block.SymbolBlock = SymbolBlock
from . import nn, utils

__all__ = ["data", "Parameter", "ParameterDict", "Constant", "DeferredInitializationError", "Block",
           "HybridBlock", "SymbolBlock", "nn", "utils"]

# Losses, Trainer and contrib (the Estimator).
from . import loss, trainer
from .trainer import Trainer
from . import contrib

__all__ += ["loss", "trainer", "Trainer", "contrib"]

# The model zoo (vision networks) and recurrent layers and cells.
from . import model_zoo, rnn

__all__ += ["model_zoo", "rnn"]
