"""weft.gluon.rnn: MXNet 1.x's recurrent layers (``RNN``, ``LSTM``, ``GRU``
over the fused RNN operator) and cells (``RNNCell``, ``LSTMCell``,
``GRUCell``, ``SequentialRNNCell``, ``DropoutCell``, ``ResidualCell``,
``ZoneoutCell``, ``BidirectionalCell``) with ``unroll``."""
from .rnn_cell import *  # noqa: F401,F403
from .rnn_layer import *  # noqa: F401,F403
from . import rnn_cell as _rnn_cell, rnn_layer as _rnn_layer

__all__ = _rnn_cell.__all__ + _rnn_layer.__all__
