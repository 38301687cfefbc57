"""Optimizers with per-coordinate step sizes: Adam, AdamW, RMSProp, AdaGrad,
AdaDelta and Ftrl.

Adam, RMSProp (``rmsprop_update``; centered: ``rmspropalex_update``) and Ftrl
run one fused update op (``out=weight``), as MXNet's do; AdamW scales the weight
and runs ``adam_update``. AdaGrad (dense) and AdaDelta have no fused op in MXNet
and run a short sequence of nd ops, each writing its result in place (``out=`` / ``[:]`` / ``+=``), so they too stay on the engine
and never copy the weight to the host.
"""
import math

from ..ndarray import adam_update, clip, ftrl_update, rmsprop_update, rmspropalex_update, sqrt, square, zeros
from .optimizer import Optimizer, _check_arrays, register

__all__ = ["Adam", "AdamW", "RMSProp", "AdaGrad", "AdaDelta", "Ftrl"]


def _zeros_like(weight):
    return zeros(weight.shape, weight.context, dtype=weight.dtype)


@register
class Adam(Optimizer):
    """Adam (Kingma & Ba, 2014), fused ``adam_update`` with the bias correction
    folded into the rate, as MXNet 1.x::

        lr_t = lr * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)       (t: this weight's update count)
        g = clip(rescale_grad * grad + wd * weight, clip_gradient)
        mean = beta1 * mean + (1 - beta1) * g
        var = beta2 * var + (1 - beta2) * g ** 2
        weight = weight - lr_t * mean / (sqrt(var) + epsilon)

    Parameters
    ----------
    learning_rate : float
        Default 0.001 (it overrides an lr_scheduler's base_lr, as in MXNet).
    beta1, beta2 : float
        Decay rates of the moment estimates.
    epsilon : float
        Added to the denominator.
    lazy_update : bool
        Accepted for MXNet compatibility (gradients are dense here).
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, lazy_update=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # mean, variance

    def _corrected_lr(self, index):
        lr = self._get_lr(index)
        t = self._index_update_count[index]
        return lr * math.sqrt(1.0 - self.beta2 ** t) / (1.0 - self.beta1 ** t)

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._corrected_lr(index)
        wd = self._get_wd(index)
        mean, var = state
        adam_update(weight, grad, mean, var, out=weight, lr=lr, wd=wd, beta1=self.beta1, beta2=self.beta2,
                    epsilon=self.epsilon, **self._clip_kwargs())


@register
class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter, 2017), as MXNet 2's
    AdamW and the ``_adamw_update`` op with ``eta = lr_t``::

        lr_t = lr * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)   (lr when correct_bias is False)
        g = clip(rescale_grad * grad, clip_gradient)
        mean = beta1 * mean + (1 - beta1) * g
        var = beta2 * var + (1 - beta2) * g ** 2
        weight = weight - lr_t * (mean / (sqrt(var) + epsilon) + wd * weight)

    The decay never enters the moments. Runs as ``weight *= 1 - lr_t * wd``
    followed by the fused ``adam_update`` with wd=0 (the same result: the
    moment step does not depend on the weight).

    Parameters
    ----------
    learning_rate, beta1, beta2, epsilon
        As Adam.
    correct_bias : bool
        Fold Adam's bias correction into the rate (default True).
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, correct_bias=True, **kwargs):
        super().__init__(learning_rate=learning_rate, beta1=beta1, beta2=beta2, epsilon=epsilon, **kwargs)
        self.correct_bias = correct_bias

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._corrected_lr(index) if self.correct_bias else self._get_lr(index)
        wd = self._get_wd(index)
        mean, var = state
        if wd:
            weight *= 1.0 - lr * wd
        adam_update(weight, grad, mean, var, out=weight, lr=lr, wd=0.0, beta1=self.beta1, beta2=self.beta2,
                    epsilon=self.epsilon, **self._clip_kwargs())


@register
class RMSProp(Optimizer):
    """RMSProp. Plain (Tieleman & Hinton, 2012; fused ``rmsprop_update``)::

        g = clip(rescale_grad * grad + wd * weight, clip_gradient)
        n = (1 - gamma1) * g ** 2 + gamma1 * n
        weight = weight - lr * g / sqrt(n + epsilon)

    centered (Graves, 2013; fused ``rmspropalex_update``)::

        n = (1 - gamma1) * g ** 2 + gamma1 * n
        m = (1 - gamma1) * g + gamma1 * m
        delta = gamma2 * delta - lr * g / sqrt(n - m ** 2 + epsilon)
        weight = weight + delta

    and then the weight is clipped to [-clip_weights, clip_weights] when set.

    Parameters
    ----------
    learning_rate : float
        Default 0.001.
    gamma1 : float
        Decay of the squared-gradient average.
    gamma2 : float
        Momentum of the centered variant.
    epsilon : float
        Added under the square root.
    centered : bool
        Use the centered variant (state: n, m, delta) instead of the plain one (state: n,).
    clip_weights : float or None
        Clip the weights after each update.
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.001, gamma1=0.9, gamma2=0.9, epsilon=1e-8, centered=False,
                 clip_weights=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.centered = centered
        self.epsilon = epsilon
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        if self.centered:
            return (_zeros_like(weight), _zeros_like(weight), _zeros_like(weight))  # n, g, delta
        return (_zeros_like(weight),)  # n

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        if not self.centered:
            kwargs = self._clip_kwargs()
            if self.clip_weights:
                kwargs["clip_weights"] = self.clip_weights
            (n,) = state
            rmsprop_update(weight, grad, n, out=weight, lr=lr, wd=wd, gamma1=self.gamma1, epsilon=self.epsilon,
                           **kwargs)
            return
        n, mean_g, delta = state
        kwargs = self._clip_kwargs()
        if self.clip_weights:
            kwargs["clip_weights"] = self.clip_weights
        rmspropalex_update(weight, grad, n, mean_g, delta, out=weight, lr=lr, wd=wd, gamma1=self.gamma1,
                           gamma2=self.gamma2, epsilon=self.epsilon, **kwargs)


@register
class AdaGrad(Optimizer):
    """AdaGrad (Duchi et al., 2011), in-place nd ops::

        g = clip(rescale_grad * grad, clip_gradient)
        history = history + g ** 2
        weight = weight - lr * (g / sqrt(history + eps) + wd * weight)

    Parameters
    ----------
    eps : float
        Added under the square root (``float_stable_eps``).
    **kwargs
        As Optimizer.
    """

    def __init__(self, eps=1e-7, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        return _zeros_like(weight)  # history

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        history = state
        g = grad * self.rescale_grad
        if self.clip_gradient is not None:
            clip(g, -self.clip_gradient, self.clip_gradient, out=g)
        history += square(g)
        step = g / sqrt(history + self.float_stable_eps)
        if wd:
            step += weight * wd
        step *= -lr
        weight += step


@register
class AdaDelta(Optimizer):
    """AdaDelta (Zeiler, 2012), in-place nd ops; it has no learning rate::

        g = clip(rescale_grad * grad, clip_gradient)
        acc_g = rho * acc_g + (1 - rho) * g ** 2
        delta = sqrt(acc_delta + epsilon) / sqrt(acc_g + epsilon) * g
        acc_delta = rho * acc_delta + (1 - rho) * delta ** 2
        weight = weight - (delta + wd * weight)

    Unlike MXNet 1.x, the caller's gradient is not scaled in place.

    Parameters
    ----------
    rho : float
        Decay rate of both running averages.
    epsilon : float
        Added under the square roots.
    **kwargs
        As Optimizer.
    """

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # accumulated g, accumulated delta

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        wd = self._get_wd(index)
        self._update_count(index)
        g = grad * self.rescale_grad
        if self.clip_gradient is not None:
            clip(g, -self.clip_gradient, self.clip_gradient, out=g)
        acc_g, acc_delta = state
        acc_g *= self.rho
        acc_g += square(g) * (1.0 - self.rho)
        delta = sqrt(acc_delta + self.epsilon) / sqrt(acc_g + self.epsilon) * g
        acc_delta *= self.rho
        acc_delta += square(delta) * (1.0 - self.rho)
        if wd:
            delta += weight * wd
        weight -= delta


@register
class Ftrl(Optimizer):
    """FTRL-Proximal (McMahan et al., 2013), fused ``ftrl_update``::

        g = clip(rescale_grad * grad, clip_gradient)
        z = z + g - (sqrt(n + g ** 2) - sqrt(n)) * weight / lr
        n = n + g ** 2
        weight = (sign(z) * lamda1 - z) / ((beta + sqrt(n)) / lr + wd) * (abs(z) > lamda1)

    Parameters
    ----------
    lamda1 : float
        L1 regularisation strength.
    learning_rate : float
        Default 0.1.
    beta : float
        Per-coordinate learning-rate parameter.
    **kwargs
        As Optimizer.
    """

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.lamda1 = lamda1
        self.beta = beta

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # z, n

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        wd = self._get_wd(index)
        lr = self._get_lr(index)
        z, n = state
        ftrl_update(weight, grad, z, n, out=weight, lr=lr, wd=wd, lamda1=self.lamda1, beta=self.beta,
                    **self._clip_kwargs())
