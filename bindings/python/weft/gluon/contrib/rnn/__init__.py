"""weft.gluon.contrib.rnn (MXNet 1.9.1's ``gluon.contrib.rnn``): the
convolutional cells Conv1D/2D/3D RNN/LSTM/GRU, VariationalDropoutCell and
LSTMPCell."""
from .conv_rnn_cell import *  # noqa: F401,F403
from .rnn_cell import *  # noqa: F401,F403
from . import conv_rnn_cell as _conv, rnn_cell as _cells

__all__ = _conv.__all__ + _cells.__all__
