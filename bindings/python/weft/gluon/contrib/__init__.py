"""weft.gluon.contrib: Gluon extras (MXNet 1.x's ``mxnet.gluon.contrib``).

For now only ``estimator`` (Estimator and its event handlers).
"""
import sys as _sys

from . import estimator

# MXNet splits the estimator into estimator.estimator and estimator.event_handler;
# here both are the one module, so either import path works.
_sys.modules.setdefault(__name__ + ".estimator.estimator", estimator)
_sys.modules.setdefault(__name__ + ".estimator.event_handler", estimator)

__all__ = ["estimator"]
