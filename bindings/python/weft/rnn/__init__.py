"""weft.rnn (``mx.rnn``): MXNet 1.x's legacy symbolic RNN package: the cells
(mx.rnn.rnn_cell), the bucketing sentence iterator (mx.rnn.io) and RNN checkpoints
(mx.rnn.rnn). For Gluon's RNN layers see weft.gluon.rnn.
"""
from . import io, rnn, rnn_cell
from .rnn_cell import *  # noqa: F401,F403
from .io import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403

__all__ = rnn_cell.__all__ + io.__all__ + rnn.__all__
