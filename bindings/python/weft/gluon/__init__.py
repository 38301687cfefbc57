"""weft.gluon: MXNet 1.x's Gluon interface.

Parameter / ParameterDict / Constant, Block / HybridBlock / SymbolBlock, the
layers of ``weft.gluon.nn``, ``weft.gluon.utils`` and ``weft.gluon.data``
(datasets, samplers, batchify functions and DataLoader).
"""
from . import data
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict
from .block import Block, HybridBlock, SymbolBlock
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
