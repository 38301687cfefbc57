"""mx.rnn.rnn_cell: the legacy symbolic RNN cells under MXNet 1.9.1's module name.

The cells live in smaller modules (cell_base, cells, composite, fused_cell, conv_cells); this
module gathers them where MXNet scripts import them from
(``from mxnet.rnn.rnn_cell import LSTMCell``).
"""
from .cell_base import BaseRNNCell, RNNParams
from .cells import GRUCell, LSTMCell, RNNCell
from .composite import (BidirectionalCell, DropoutCell, ModifierCell, ResidualCell, SequentialRNNCell,
                        ZoneoutCell)
from .conv_cells import BaseConvRNNCell, ConvGRUCell, ConvLSTMCell, ConvRNNCell
from .fused_cell import FusedRNNCell

__all__ = ["RNNParams", "BaseRNNCell", "RNNCell", "LSTMCell", "GRUCell", "FusedRNNCell", "SequentialRNNCell",
           "BidirectionalCell", "DropoutCell", "ModifierCell", "ZoneoutCell", "ResidualCell", "BaseConvRNNCell",
           "ConvRNNCell", "ConvLSTMCell", "ConvGRUCell"]
