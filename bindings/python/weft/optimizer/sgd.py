"""Momentum-style optimizers: SGD, NAG and Signum, each one fused update op per
step (``out=weight``, so the engine updates the weight and its momentum in place).

float16 weights with ``multi_precision`` keep a float32 master copy: SGD and NAG
store ``(momentum, weight32)`` as MXNet does and run MXNet's mixed-precision ops
(``mp_sgd_update``, ``mp_sgd_mom_update``, ``mp_nag_mom_update``), which update
the master copy and write its float16 cast into the weight in one step.

SGD takes MXNet 1.9.1's aggregated form: with ``aggregate_num`` > 0 (MXNet's
default: env ``MXNET_OPTIMIZER_AGGREGATION_SIZE``, 4) the Updater hands it lists
of weights of one dtype, updated by one ``multi_sgd_update`` /
``multi_sgd_mom_update`` / ``multi_mp_sgd_update`` / ``multi_mp_sgd_mom_update``.
"""
import os

import numpy

from ..ndarray import (mp_nag_mom_update, mp_sgd_mom_update, mp_sgd_update, multi_mp_sgd_mom_update,
                       multi_mp_sgd_update, multi_sgd_mom_update, multi_sgd_update, nag_mom_update,
                       sgd_mom_update, sgd_update, signsgd_update, signum_update, zeros)
from .optimizer import Optimizer, _check_arrays, register

__all__ = ["SGD", "NAG", "Signum"]

# The multi_* update ops take at most this many weights per call (their kernels' limit).
_MAX_MULTI_WEIGHTS = 60


class _MomentumOptimizer(Optimizer):
    """SGD and NAG: a momentum buffer when momentum != 0, and the MXNet state
    layout ``(momentum, weight32)`` under multi_precision."""

    def __init__(self, momentum=0.0, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def create_state(self, index, weight):
        if self.momentum != 0.0:
            return zeros(weight.shape, weight.context, dtype=weight.dtype)
        return None

    def create_state_multi_precision(self, index, weight):
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy = weight.astype(numpy.float32)
            return (self.create_state(index, weight_master_copy), weight_master_copy)
        return super().create_state_multi_precision(index, weight)

    def _step(self, weight, grad, mom, lr, wd):
        raise NotImplementedError()

    def _step_mp(self, weight, grad, mom, weight32, lr, wd):
        raise NotImplementedError()

    def _update_one(self, index, weight, grad, state, multi_precision):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        if not multi_precision:
            self._step(weight, grad, state, lr, wd)
            return
        mom, weight32 = state
        self._step_mp(weight, grad, mom, weight32, lr, wd)

    def _update_impl(self, index, weight, grad, state, multi_precision):
        if isinstance(index, (list, tuple)):  # MXNet's aggregated form: lists of each
            for i, w, g, s in zip(index, weight, grad, state):
                self._update_one(i, w, g, s, multi_precision)
            return
        self._update_one(index, weight, grad, state, multi_precision)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        first = weight[0] if isinstance(index, (list, tuple)) else weight
        use_mp = self.multi_precision and first.dtype == numpy.float16
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


@register
class SGD(_MomentumOptimizer):
    """Stochastic gradient descent, with momentum and weight decay (fused
    ``sgd_update`` / ``sgd_mom_update``)::

        rescaled_grad = clip(rescale_grad * grad, clip_gradient) + wd * weight
        state = momentum * state - lr * rescaled_grad     (momentum != 0)
        weight = weight + state                           (else: weight -= lr * rescaled_grad)

    Parameters
    ----------
    momentum : float
        The momentum coefficient.
    lazy_update : bool
        Accepted for MXNet compatibility (gradients are dense here).
    **kwargs
        As Optimizer (learning_rate, wd, rescale_grad, clip_gradient, multi_precision ...).
    """

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(momentum=momentum, **kwargs)
        self.lazy_update = lazy_update
        if "aggregate_num" not in kwargs:  # MXNet 1.9.1's SGD reads its group size from the environment
            self.aggregate_num = int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "4"))

    def _step(self, weight, grad, mom, lr, wd):
        kwargs = self._clip_kwargs()
        if mom is not None:
            sgd_mom_update(weight, grad, mom, out=weight, lr=lr, wd=wd, momentum=self.momentum, **kwargs)
        else:
            sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)

    def _step_mp(self, weight, grad, mom, weight32, lr, wd):
        kwargs = self._clip_kwargs()
        if mom is not None:
            mp_sgd_mom_update(weight, grad, mom, weight32, out=weight, lr=lr, wd=wd, momentum=self.momentum,
                              **kwargs)
        else:
            mp_sgd_update(weight, grad, weight32, out=weight, lr=lr, wd=wd, **kwargs)

    def _update_impl(self, index, weight, grad, state, multi_precision):
        if not isinstance(index, (list, tuple)):
            self._update_one(index, weight, grad, state, multi_precision)
            return
        for w, g in zip(weight, grad):
            _check_arrays(w, g)
        self._update_count(index)
        lrs = self._get_lrs(index)
        wds = self._get_wds(index)
        kwargs = self._clip_kwargs()
        if self.momentum > 0:
            kwargs["momentum"] = self.momentum
        for start in range(0, len(index), _MAX_MULTI_WEIGHTS):
            chunk = slice(start, start + _MAX_MULTI_WEIGHTS)
            self._multi_step(weight[chunk], grad[chunk], state[chunk], lrs[chunk], wds[chunk], multi_precision,
                             kwargs)

    def _multi_step(self, weights, grads, states, lrs, wds, multi_precision, kwargs):
        """One multi_* update op over a group (MXNet's aggregated SGD)."""
        groups = []
        for w, g, s in zip(weights, grads, states):
            if not multi_precision:
                groups += [w, g] + ([s] if self.momentum > 0 else [])
            else:
                mom, weight32 = s
                groups += [w, g] + ([mom] if self.momentum > 0 else []) + [weight32]
        if multi_precision:
            op = multi_mp_sgd_mom_update if self.momentum > 0 else multi_mp_sgd_update
        else:
            op = multi_sgd_mom_update if self.momentum > 0 else multi_sgd_update
        op(*groups, out=list(weights), num_weights=len(weights), lrs=tuple(lrs), wds=tuple(wds), **kwargs)


@register
class NAG(_MomentumOptimizer):
    """Nesterov accelerated gradient (fused ``nag_mom_update``; ``sgd_update``
    without momentum)::

        rescaled_grad = clip(rescale_grad * grad, clip_gradient) + wd * weight
        state = momentum * state + rescaled_grad
        weight = weight - lr * (momentum * state + rescaled_grad)

    Parameters
    ----------
    momentum : float
        The momentum coefficient.
    **kwargs
        As Optimizer.
    """

    def _step(self, weight, grad, mom, lr, wd):
        kwargs = self._clip_kwargs()
        if mom is not None:
            nag_mom_update(weight, grad, mom, out=weight, lr=lr, wd=wd, momentum=self.momentum, **kwargs)
        else:
            sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)

    def _step_mp(self, weight, grad, mom, weight32, lr, wd):
        kwargs = self._clip_kwargs()
        if mom is not None:
            mp_nag_mom_update(weight, grad, mom, weight32, out=weight, lr=lr, wd=wd, momentum=self.momentum,
                              **kwargs)
        else:
            mp_sgd_update(weight, grad, weight32, out=weight, lr=lr, wd=wd, **kwargs)


@register
class Signum(Optimizer):
    """SIGN momentUM (Bernstein et al., 2018), fused ``signum_update``; with
    momentum 0 it is SignSGD (``signsgd_update``)::

        state = momentum * state - (1 - momentum) * (clip(rescale_grad * grad) + wd * weight)
        weight = (1 - lr * wd_lh) * weight + lr * sign(state)

    Parameters
    ----------
    learning_rate : float
        The step size (default 0.01).
    momentum : float
        The momentum coefficient (default 0.9).
    wd_lh : float
        Decoupled weight decay (Loshchilov & Hutter), applied to the weight directly.
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index, weight):
        if self.momentum != 0.0:
            return zeros(weight.shape, weight.context, dtype=weight.dtype)
        return None

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = self._clip_kwargs()
        if state is not None:
            if self.momentum > 0:
                kwargs["momentum"] = self.momentum
            if self.wd_lh:
                kwargs["wd_lh"] = self.wd_lh
            signum_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            signsgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
