"""mx.contrib.svrg_optimization: stochastic variance reduced gradient (Johnson & Zhang 2013)
for Module (MXNet 1.9.1)."""
from . import svrg_module, svrg_optimizer
from .svrg_module import SVRGModule
from .svrg_optimizer import SVRGOptimizer

__all__ = ["SVRGModule", "SVRGOptimizer", "svrg_module", "svrg_optimizer"]
