"""weft.gluon.contrib: Gluon extras (MXNet 1.x's ``mxnet.gluon.contrib``).

``estimator`` (Estimator and its event handlers), ``data`` (IntervalSampler,
the WikiText language-model datasets), ``nn`` (Concurrent, Identity,
PixelShuffle, SyncBatchNorm) and ``rnn`` (convolutional cells,
VariationalDropoutCell, LSTMPCell).
"""
from . import estimator
from . import data
from . import nn
from . import rnn

__all__ = ["estimator", "data", "nn", "rnn"]
