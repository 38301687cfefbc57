"""weft.optimizer.contrib (MXNet 1.9.1's mx.optimizer.contrib): GroupAdaGrad."""
from ..base import InvalidArgumentError
from ..ndarray import zeros
from ..ndarray.contrib import group_adagrad_update
from .optimizer import Optimizer, _check_arrays, register

__all__ = ["GroupAdaGrad"]


@register
class GroupAdaGrad(Optimizer):
    """AdaGrad with one accumulator per row (Duchi et al., 2011; MXNet's
    GroupAdaGrad for embeddings), fused ``_contrib_group_adagrad_update`` as in MXNet::

        g = clip(rescale_grad * grad, clip_gradient)
        history += mean(g ** 2, axis=1, keepdims=True)
        weight -= lr * g / sqrt(history + eps)

    Weight decay is not supported (wd must be 0), as in MXNet.

    Parameters
    ----------
    learning_rate : float
        Default 0.01.
    eps : float
        Added under the square root (default 1e-5, as MXNet 1.9.1).
    **kwargs
        As Optimizer.
    """

    def __init__(self, learning_rate=0.01, eps=1e-5, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        if len(weight.shape) != 2:
            raise InvalidArgumentError("GroupAdaGrad: weights must be 2-D, got shape %s" % (weight.shape,))
        return zeros((weight.shape[0], 1), weight.context, dtype=weight.dtype)  # history

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        if self._get_wd(index) != 0:
            raise InvalidArgumentError("GroupAdaGrad does not support weight decay (wd must be 0)")
        kwargs = self._clip_kwargs()
        group_adagrad_update(weight, grad, state, out=weight, lr=lr, epsilon=self.float_stable_eps, **kwargs)
