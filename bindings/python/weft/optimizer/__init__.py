"""Optimizers (MXNet 1.x's mx.optimizer): ``weft.optimizer.create('sgd', ...)``,
the Optimizer classes, and ``get_updater`` / ``Updater``.

Registered names (case-insensitive): sgd, ccsgd, nag, signum, sgld, dcasgd,
lars, lbsgd, lamb, adam, adamw, adamax, nadam, ftml, rmsprop, adagrad, adadelta,
ftrl, test, and contrib's groupadagrad: every optimizer MXNet 1.9.1 registers.
Updates run in place on the engine: one fused update op per step where the registry has one (sgd_update, sgd_mom_update,
nag_mom_update, signum_update, signsgd_update, adam_update, rmsprop_update,
ftrl_update), otherwise a few in-place nd ops.
"""
from . import optimizer  # noqa: F401  (weft.optimizer.optimizer, as MXNet)
from .optimizer import Optimizer, create, register
from .sgd import NAG, SGD, Signum
from .adaptive import AdaDelta, AdaGrad, Adam, AdamW, Ftrl, RMSProp
from .adamax_nadam import FTML, Adamax, Nadam
from .large_batch import LAMB, LARS, LBSGD
from .sgd_variants import DCASGD, SGLD, Test, ccSGD
from . import contrib
from .contrib import GroupAdaGrad
from .updater import Updater, get_updater
from ..ndarray import abs as NDabs  # noqa: F401  (MXNet's optimizer module exports it)

__all__ = ["Optimizer", "register", "create", "Updater", "get_updater", "SGD", "NAG", "Signum", "Adam", "AdamW",
           "RMSProp", "AdaGrad", "AdaDelta", "Ftrl", "Adamax", "Nadam", "FTML", "LAMB", "LARS", "LBSGD", "SGLD",
           "DCASGD", "ccSGD", "Test", "GroupAdaGrad", "contrib", "NDabs"]
