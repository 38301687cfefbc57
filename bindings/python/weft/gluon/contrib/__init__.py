"""weft.gluon.contrib: Gluon extras (MXNet 1.x's ``mxnet.gluon.contrib``).

For now only ``estimator`` (Estimator and its event handlers).
"""
from . import estimator

__all__ = ["estimator"]
