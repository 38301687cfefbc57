"""The rest of MXNet 1.9.1's SGD family: SGLD, DCASGD, ccSGD, and the Test optimizer.

SGLD and DCASGD have no fused op in MXNet either: each is a few nd ops in place. ccSGD is SGD.
"""
import math

from ..ndarray import clip, zeros
from ..ndarray import random as nd_random
from .optimizer import Optimizer, _check_arrays, register
from .sgd import SGD

__all__ = ["SGLD", "DCASGD", "ccSGD", "Test"]


def _rescaled_clipped(opt, grad):
    g = grad * opt.rescale_grad
    if opt.clip_gradient is not None:
        clip(g, -opt.clip_gradient, opt.clip_gradient, out=g)
    return g


@register
class SGLD(Optimizer):
    """Stochastic Gradient Langevin Dynamics (Welling & Teh, 2011)::

        g = clip(rescale_grad * grad, clip_gradient)
        weight += -lr / 2 * (g + wd * weight) + normal(0, sqrt(lr))

    The noise comes from weft.random (seed it with ``weft.random.seed``).
    """

    def create_state(self, index, weight):
        return None

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        g = _rescaled_clipped(self, grad)
        if wd:
            g += weight * wd
        weight -= g * (lr / 2)
        weight += nd_random.normal(0, math.sqrt(lr), shape=weight.shape, dtype=weight.dtype, ctx=weight.context)


@register
class DCASGD(Optimizer):
    """Delay-compensated asynchronous SGD (Zheng et al., 2016)::

        g = clip(rescale_grad * grad, clip_gradient)
        step = -lr * (g + wd * weight + lamda * g * g * (weight - previous_weight))
        mom = momentum * mom + step        (momentum != 0; else mom = step)
        previous_weight = weight
        weight += mom

    Parameters
    ----------
    momentum : float
        The momentum coefficient.
    lamda : float
        Scale of the delay compensation (default 0.04).
    **kwargs
        As Optimizer.
    """

    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.weight_previous = {}
        self.lamda = lamda

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return (None, weight.copy())  # previous weight
        return (zeros(weight.shape, weight.context, dtype=weight.dtype), weight.copy())

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        g = _rescaled_clipped(self, grad)
        mom, previous_weight = state
        step = g + weight * wd
        step += g * g * (weight - previous_weight) * self.lamda
        step *= -lr
        if mom is not None:
            mom *= self.momentum
            mom += step
            step = mom
        previous_weight[:] = weight
        weight += step


@register
class ccSGD(SGD):  # pylint: disable=invalid-name
    """Deprecated in MXNet: the same as SGD, kept so old scripts run."""


@register
class Test(Optimizer):
    """MXNet's Test optimizer: ``weight += rescale_grad * grad``; the state is a
    copy of the weight after the update."""

    def create_state(self, index, weight):
        return zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        weight += grad * self.rescale_grad
        state[:] = weight
