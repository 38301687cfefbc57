"""Large-batch optimizers of MXNet 1.9.1: LARS, LBSGD and LAMB.

Each scales the step of a whole layer (one weight array) by a trust ratio of
norms. LARS and LBSGD read the norms on the host (as MXNet's do in their
unaggregated paths) and finish with the fused ``sgd_update`` / ``sgd_mom_update``;
LAMB runs MXNet's fused ``lamb_update_phase1`` / ``lamb_update_phase2`` (their
``mp_`` twins for float16 weights under multi_precision), the norms staying on
the engine as one-element arrays.
"""
import logging
import math

import numpy

from ..ndarray import (lamb_update_phase1, lamb_update_phase2, mp_lamb_update_phase1, mp_lamb_update_phase2,
                       mp_sgd_mom_update, mp_sgd_update, sgd_mom_update, sgd_update, zeros)
from .optimizer import Optimizer, _check_arrays, register

__all__ = ["LARS", "LBSGD", "LAMB"]


def _l2norm(array, scale=1.0):
    """||array * scale||_2 as a Python float, accumulated in float32 as MXNet does."""
    value = float(array.astype(numpy.float32).norm().asscalar())
    return value * abs(scale)


class _MasterCopyMomentum(Optimizer):
    """SGD-style state: a momentum buffer (or None), and MXNet's ``(momentum,
    weight32)`` layout when multi_precision applies to a float16 weight."""

    def create_state(self, index, weight):
        if self.momentum != 0.0:
            return zeros(weight.shape, weight.context, dtype=weight.dtype)
        return None

    def create_state_multi_precision(self, index, weight):
        if self.multi_precision and weight.dtype == numpy.float16:
            weight32 = weight.astype(numpy.float32)
            return (self.create_state(index, weight32), weight32)
        return super().create_state_multi_precision(index, weight)

    def _sgd_step(self, weight, grad, mom, lr, wd, momentum):
        kwargs = {"rescale_grad": self.rescale_grad}
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        if mom is not None:
            sgd_mom_update(weight, grad, mom, out=weight, lr=lr, wd=wd, momentum=momentum, **kwargs)
        else:
            sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)

    def _sgd_step_mp(self, weight, grad, state, lr, wd, momentum, use_mp):
        """The SGD step on the weight, or on its float32 master copy cast back."""
        if not use_mp:
            self._sgd_step(weight, grad, state, lr, wd, momentum)
            return
        mom, weight32 = state
        kwargs = {"rescale_grad": self.rescale_grad}
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        if mom is not None:  # MXNet's mixed-precision ops: weight32 updated, weight = its float16 cast
            mp_sgd_mom_update(weight, grad, mom, weight32, out=weight, lr=lr, wd=wd, momentum=momentum, **kwargs)
        else:
            mp_sgd_update(weight, grad, weight32, out=weight, lr=lr, wd=wd, **kwargs)


def _no_lars(name):
    """Biases and normalisation parameters keep the plain rate (MXNet's LARS)."""
    return name.endswith("gamma") or name.endswith("beta") or name.endswith("bias")


@register
class LARS(_MasterCopyMomentum):
    """Layer-wise Adaptive Rate Scaling (You et al., 2017), SGD with momentum
    whose rate is scaled per layer::

        w_norm = ||weight||,  g_norm = ||rescale_grad * grad||
        lr_layer = lr * eta * w_norm / (g_norm + wd * w_norm + eps)   (w_norm > 0 and g_norm > 0)
        lr_layer = lr                                                  (otherwise, or for names
                                                                        ending in gamma/beta/bias)

    then the SGD update with lr_layer. With ``momentum_correction`` the
    momentum is multiplied by ``lr / previous lr`` when a scheduler changes the
    rate (Goyal et al., 2017). Names not ending in ``_weight`` get no weight
    decay when ``param_idx2name`` is given.

    Parameters
    ----------
    momentum : float
        The momentum coefficient.
    lazy_update : bool
        Accepted for MXNet compatibility (gradients are dense here).
    eta : float
        The LARS coefficient (default 0.001).
    eps : float
        Added to the denominator (default 0).
    momentum_correction : bool
        Scale the momentum with the change of the global rate (default True).
    **kwargs
        As Optimizer.
    """

    def __init__(self, momentum=0.0, lazy_update=True, eta=0.001, eps=0, momentum_correction=True, **kwargs):
        self.momentum = momentum
        super().__init__(**kwargs)
        self.momentum_correction = momentum_correction
        self.lazy_update = lazy_update
        self.eta = eta
        self.eps = eps
        self.last_lr = None
        self.cur_lr = None

    def set_wd_mult(self, args_wd_mult):
        self.wd_mult = {}
        for name in self.idx2name.values():
            if not name.endswith("_weight"):
                self.wd_mult[name] = 0.0
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__wd_mult__" in attr[name]:
                    self.wd_mult[name] = float(attr[name]["__wd_mult__"])
        self.wd_mult.update(args_wd_mult)

    def _get_lrs(self, indices):
        lrs = super()._get_lrs(indices)
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        if self.cur_lr is not None:
            self.last_lr = self.cur_lr
        self.cur_lr = lr
        if self.last_lr is None:
            self.last_lr = self.cur_lr
        return lrs

    def _lars_lr(self, index, weight, grad, lr, wd):
        name = self.idx2name.get(index, str(index))
        if _no_lars(name):
            return lr
        w_norm = _l2norm(weight)
        g_norm = _l2norm(grad, self.rescale_grad)
        if w_norm > 0.0 and g_norm > 0.0:
            return lr * self.eta * w_norm / (g_norm + wd * w_norm + self.eps)
        return lr

    def _update_impl(self, indices, weights, grads, states, multi_precision):
        if not isinstance(indices, (list, tuple)):
            indices, weights, grads, states = [indices], [weights], [grads], [states]
        for weight, grad in zip(weights, grads):
            _check_arrays(weight, grad)
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        momentum = self.momentum
        if self.momentum > 0 and self.momentum_correction and self.last_lr != 0:
            momentum = self.momentum * (self.cur_lr / self.last_lr)
        for index, weight, grad, state, lr, wd in zip(indices, weights, grads, states, lrs, wds):
            use_mp = multi_precision and weight.dtype == numpy.float16
            master = state[1] if use_mp else weight
            lr = self._lars_lr(index, master, grad, lr, wd)
            self._sgd_step_mp(weight, grad, state, lr, wd, momentum, use_mp)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=self.multi_precision)


@register
class LBSGD(_MasterCopyMomentum):
    """Large-batch SGD (MXNet 1.9.1's LBSGD): gradients are accumulated over
    ``batch_scale`` updates; every ``batch_scale``-th update runs SGD on their
    mean with the rate multiplied by the warm-up factor::

        nwup = warmup_epochs * updates_per_epoch,  n = accumulated update count
        mult = batch_scale                                     (n >= nwup)
        mult = 1 + (batch_scale - 1) * n / nwup                ('linear')
        mult = 1 + (batch_scale - 1) * (n / nwup) ** 2         ('power2')
        mult = 1 + (batch_scale - 1) * sqrt(n / nwup)          ('sqrt')
        mult = clip(sqrt(|w|^2 / (|g|^2 + wd * |w|^2 + 1e-18)), 0.01, 100)   ('lars')

    The other updates leave the weight unchanged (MXNet runs sgd_update with
    lr=0 there).

    Parameters
    ----------
    momentum : float
        The momentum coefficient.
    multi_precision : bool
        float32 master copy for float16 weights.
    warmup_strategy : str
        'linear', 'power2', 'sqrt' or 'lars' (anything else: factor 1).
    warmup_epochs : int
        Epochs of warm-up (default 5).
    batch_scale : int
        Updates accumulated per step (default 1).
    updates_per_epoch : int
        Updates per epoch, for the warm-up (default 32).
    begin_epoch : int
        The epoch to start from.
    num_epochs : int
        Total epochs (kept for MXNet compatibility).
    **kwargs
        As Optimizer.
    """

    def __init__(self, momentum=0.0, multi_precision=False, warmup_strategy="linear", warmup_epochs=5,
                 batch_scale=1, updates_per_epoch=32, begin_epoch=0, num_epochs=60, **kwargs):
        super().__init__(multi_precision=multi_precision, **kwargs)
        logging.info("Running Large-Batch SGD Algorithm")
        logging.info("(Batch_scale=%f, warmup_epochs=%d, warmup_strategy=%s, updates_per_epoch=%d)",
                     batch_scale, warmup_epochs, warmup_strategy, updates_per_epoch)
        self.momentum = momentum
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads = {}
        self.adaptive = False
        self.admult = 1

    def _get_lbmult(self, nup):
        nwup = self.warmup_epochs * self.updates_per_epoch
        maxmult = float(self.batch_scale)
        if nup >= nwup:
            return maxmult
        if nwup <= 1:
            return 1.0
        if self.warmup_strategy == "linear":
            return 1.0 + (maxmult - 1) * nup / nwup
        if self.warmup_strategy == "power2":
            return 1.0 + (maxmult - 1) * (nup * nup) / (nwup * nwup)
        if self.warmup_strategy == "sqrt":
            return 1.0 + (maxmult - 1) * math.sqrt(float(nup) / nwup)
        return 1.0

    @staticmethod
    def _get_lars(weight, g, wd):
        weight2 = _l2norm(weight) ** 2
        grad2 = _l2norm(g) ** 2
        lars = math.sqrt(weight2 / (grad2 + wd * weight2 + 1e-18))
        return min(max(lars, 0.01), 100.0)

    def _cumulate_gradient(self, grad, index):
        # states restored by Updater.set_states carry no accumulated arrays: start over
        cumgrads = self.__dict__.setdefault("cumgrads", {})
        cgrad = cumgrads.get(index)
        if cgrad and cgrad["num_cums"] > 0:
            cgrad = {"cum_grad": cgrad["cum_grad"] + grad, "num_cums": cgrad["num_cums"] + 1}
        else:
            cgrad = {"cum_grad": grad.copy(), "num_cums": self.init_updates + 1}
        cumgrads[index] = cgrad
        return cgrad

    def _update_one(self, index, weight, grad, state, use_mp):
        _check_arrays(weight, grad)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        self._update_count(index)
        cgrad = self._cumulate_gradient(grad, index)
        if cgrad["num_cums"] % self.batch_scale != 0:
            return
        grad = cgrad["cum_grad"] / self.batch_scale
        if self.warmup_strategy == "lars":
            lbmult = self._get_lars(state[1] if use_mp else weight, grad, wd)
        else:
            lbmult = self._get_lbmult(cgrad["num_cums"])
        self._sgd_step_mp(weight, grad, state, lr * lbmult, wd, self.momentum, use_mp)
        cgrad["cum_grad"] = 0  # MXNet's reset: the next update adds to 0

    def update(self, index, weight, grad, state):
        self._update_one(index, weight, grad, state, use_mp=False)

    def update_multi_precision(self, index, weight, grad, state):
        if isinstance(index, (list, tuple)):
            for i, w, g, s in zip(index, weight, grad, state):
                self.update_multi_precision(i, w, g, s)
            return
        self._update_one(index, weight, grad, state,
                         use_mp=self.multi_precision and weight.dtype == numpy.float16)


@register
class LAMB(Optimizer):
    """Layer-wise Adaptive Moments for Batch training (You et al., 2019), as
    MXNet's ``lamb_update_phase1`` / ``lamb_update_phase2``::

        g = clip(rescale_grad * grad, clip_gradient)
        mean = beta1 * mean + (1 - beta1) * g
        var = beta2 * var + (1 - beta2) * g ** 2
        r = mean / (1 - beta1 ** t) / (sqrt(var / (1 - beta2 ** t)) + epsilon) + wd * weight
            (without bias_correction: mean / (sqrt(var) + epsilon) + wd * weight)
        r1 = ||weight||, clamped to [lower_bound, upper_bound] where given;  r2 = ||r||
        weight -= lr * (r1 / r2 if r1 > 0 and r2 > 0 else 1) * r

    With multi_precision a float16 weight is updated through its float32 copy
    (state ``(weight32, (mean, var))``) by ``mp_lamb_update_phase1/2``.

    Parameters
    ----------
    learning_rate : float
        Default 0.001.
    beta1, beta2 : float
        Decay rates of the moment estimates.
    epsilon : float
        Default 1e-6.
    lower_bound, upper_bound : float or None
        Bounds of the weight norm in the trust ratio.
    bias_correction : bool
        Correct the moments' bias (default True).
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6, lower_bound=None,
                 upper_bound=None, bias_correction=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bias_correction

    def create_state(self, index, weight):
        return (zeros(weight.shape, weight.context, dtype=weight.dtype),
                zeros(weight.shape, weight.context, dtype=weight.dtype))  # mean, var

    def _update_impl(self, index, weight, grad, state, multi_precision):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        kwargs = {"beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon,
                  "bias_correction": self.bias_correction, "t": t, "rescale_grad": self.rescale_grad}
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        bounds = {}
        if self.lower_bound:  # MXNet passes the bounds only when truthy
            bounds["lower_bound"] = self.lower_bound
        if self.upper_bound:
            bounds["upper_bound"] = self.upper_bound
        if multi_precision:
            weight32, (mean, var) = state
            g = mp_lamb_update_phase1(weight, grad, mean, var, weight32, wd=wd, **kwargs)
            mp_lamb_update_phase2(weight, g, weight32.norm(), g.norm(), weight32, lr=lr, out=weight, **bounds)
        else:
            mean, var = state
            g = lamb_update_phase1(weight, grad, mean, var, wd=wd, **kwargs)
            lamb_update_phase2(weight, g, weight.norm(), g.norm(), lr=lr, out=weight, **bounds)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        if isinstance(index, (list, tuple)):
            for i, w, g, s in zip(index, weight, grad, state):
                self.update_multi_precision(i, w, g, s)
            return
        self._update_impl(index, weight, grad, state,
                          multi_precision=self.multi_precision and weight.dtype == numpy.float16)
