"""weft.gluon.contrib: Gluon extras (MXNet 1.x's ``mxnet.gluon.contrib``).

``estimator`` (Estimator and its event handlers) and ``data`` (IntervalSampler,
the WikiText language-model datasets).
"""
from . import estimator
from . import data

__all__ = ["estimator", "data"]
