"""weft.gluon.nn: neural network layers (MXNet 1.x's ``mxnet.gluon.nn``).

Block, HybridBlock and SymbolBlock are re-exported here as in MXNet.
"""
# pylint: disable=wildcard-import
from ..block import Block, HybridBlock
from ..symbol_block import SymbolBlock
from .activations import *  # noqa: F401,F403
from .basic_layers import *  # noqa: F401,F403
from .conv_layers import *  # noqa: F401,F403
from .group_norm import GroupNorm
from . import activations, basic_layers, conv_layers

__all__ = (["Block", "HybridBlock", "SymbolBlock"] + activations.__all__ + basic_layers.__all__
           + conv_layers.__all__ + ["GroupNorm"])
