"""Adam's relatives in MXNet 1.9.1: Adamax, Nadam and FTML.

FTML runs the fused ``ftml_update`` (d, v and z updated in place), as MXNet's
optimizer does. MXNet has no fused op for Adamax or Nadam, so each runs a few nd
ops that write their results in place (``[:] =``, ``*=``, ``+=``): the update
stays on the engine and the weight never goes to the host. The formulas are
MXNet 1.9.1's (python/mxnet/optimizer/optimizer.py).
"""
from ..ndarray import abs as nd_abs, clip, ftml_update, maximum, sqrt, square, zeros
from .optimizer import Optimizer, _check_arrays, register

__all__ = ["Adamax", "Nadam", "FTML"]


def _zeros_like(weight):
    return zeros(weight.shape, weight.context, dtype=weight.dtype)


class _PreprocessedGrad(Optimizer):
    """Optimizers whose first step is ``clip(rescale_grad * grad + wd * weight, clip_gradient)``."""

    def _decayed_grad(self, weight, grad, wd):
        g = grad * self.rescale_grad
        if wd:
            g += weight * wd
        if self.clip_gradient is not None:
            clip(g, -self.clip_gradient, self.clip_gradient, out=g)
        return g


@register
class Adamax(_PreprocessedGrad):
    """AdaMax (Kingma & Ba, 2014, section 7), Adam with the infinity norm::

        g = clip(rescale_grad * grad + wd * weight, clip_gradient)
        m = beta1 * m + (1 - beta1) * g
        u = maximum(beta2 * u, abs(g))
        weight -= lr / (1 - beta1 ** t) * m / u

    Parameters
    ----------
    learning_rate : float
        Default 0.002.
    beta1, beta2 : float
        Decay rates of the first moment and of the infinity norm.
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # m, u

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        lr /= 1.0 - self.beta1 ** t
        g = self._decayed_grad(weight, grad, wd)
        m_t, u_t = state
        m_t *= self.beta1
        m_t += g * (1.0 - self.beta1)
        u_t[:] = maximum(u_t * self.beta2, nd_abs(g))
        weight -= m_t / u_t * lr


@register
class Nadam(_PreprocessedGrad):
    """Nesterov Adam (Dozat, 2015), with MXNet's warming momentum schedule::

        g = clip(rescale_grad * grad + wd * weight, clip_gradient)
        mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * schedule_decay))
        mu_t1 = beta1 * (1 - 0.5 * 0.96 ** ((t + 1) * schedule_decay))
        m_schedule = m_schedule * mu_t                   (one product for the optimizer)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g ** 2
        m_bar = (1 - mu_t) * g / (1 - m_schedule) + mu_t1 * m / (1 - m_schedule * mu_t1)
        weight -= lr * m_bar / (sqrt(v / (1 - beta2 ** t)) + epsilon)

    ``m_schedule`` is shared by all weights, as in MXNet 1.9.1 (each weight's
    update multiplies it once).

    Parameters
    ----------
    learning_rate : float
        Default 0.001.
    beta1, beta2 : float
        Decay rates of the moment estimates.
    epsilon : float
        Added to the denominator.
    schedule_decay : float
        Decay of the momentum schedule.
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, schedule_decay=0.004, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.schedule_decay = schedule_decay
        self.m_schedule = 1.0

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # m, v

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        g = self._decayed_grad(weight, grad, wd)
        momentum_t = self.beta1 * (1.0 - 0.5 * (0.96 ** (t * self.schedule_decay)))
        momentum_t_1 = self.beta1 * (1.0 - 0.5 * (0.96 ** ((t + 1) * self.schedule_decay)))
        self.m_schedule = self.m_schedule * momentum_t
        m_schedule_next = self.m_schedule * momentum_t_1
        m_t, v_t = state
        m_t *= self.beta1
        m_t += g * (1.0 - self.beta1)
        v_t *= self.beta2
        v_t += square(g) * (1.0 - self.beta2)
        m_t_bar = g * ((1.0 - momentum_t) / (1.0 - self.m_schedule))
        m_t_bar += m_t * (momentum_t_1 / (1.0 - m_schedule_next))
        denom = sqrt(v_t * (1.0 / (1.0 - self.beta2 ** t)))
        denom += self.epsilon
        weight -= m_t_bar / denom * lr


@register
class FTML(_PreprocessedGrad):
    """Follow the Moving Leader (Zheng & Kwok, 2017), MXNet's ``ftml_update``::

        g = clip(rescale_grad * grad + wd * weight, clip_gradient)
        v = beta2 * v + (1 - beta2) * g ** 2
        d_t = (1 - beta1 ** t) / lr * (sqrt(v / (1 - beta2 ** t)) + epsilon)
        z = beta1 * z + (1 - beta1) * g - (d_t - beta1 * d) * weight
        d = d_t
        weight = -z / d_t

    Parameters
    ----------
    beta1 : float
        Default 0.6.
    beta2 : float
        Default 0.999.
    epsilon : float
        Default 1e-8.
    **kwargs
        As Optimizer.
    """

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight), _zeros_like(weight))  # d, v, z

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        kwargs = {"beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon,
                  "rescale_grad": self.rescale_grad, "t": t}
        if self.clip_gradient:
            kwargs["clip_grad"] = self.clip_gradient
        prev_d, prev_v, prev_z = state
        ftml_update(weight, grad, prev_d, prev_v, prev_z, out=weight, lr=lr, wd=wd, **kwargs)
