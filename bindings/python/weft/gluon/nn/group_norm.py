"""GroupNorm (Wu & He, 2018) as MXNet 1.9.1's ``gluon.nn.GroupNorm`` computes it,
with the ``GroupNorm`` operator (core/op/norm/group_norm.cc).

MXNet 1.x normalizes each sample's channel groups over their channels and
spatial positions with the population variance, then scales and shifts each
*group* (gamma and beta have shape (num_groups,), not (channels,) as in MXNet
2 and PyTorch)::

    x5 = x.reshape(N, G, C // G, *spatial)
    y = (x5 - mean(x5)) / sqrt(var(x5) + eps)        (mean, var per (n, g))
    out = (y * gamma[g] + beta[g]).reshape(x.shape)
"""
from ...base import InvalidArgumentError
from ..block import HybridBlock

__all__ = ["GroupNorm"]


class GroupNorm(HybridBlock):
    """Group normalization over axis 1 (channels) of (N, C, ...) input.

    Parameters
    ----------
    num_groups : int
        Groups the channels are split into (C must be a multiple).
    epsilon : float
        Added to the variance.
    center, scale : bool
        Whether beta / gamma are learned (otherwise fixed at their initial values).
    beta_initializer, gamma_initializer
        Initializers of the (num_groups,) shift and scale.
    """

    def __init__(self, num_groups=1, epsilon=1e-5, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        if not (isinstance(num_groups, int) and num_groups > 0):
            raise InvalidArgumentError("GroupNorm: num_groups must be a positive int, got %r" % (num_groups,))
        self._kwargs = {"eps": epsilon, "num_groups": num_groups, "center": center, "scale": scale}
        self._num_groups = num_groups
        self._epsilon = epsilon
        self.gamma = self.params.get("gamma", grad_req="write" if scale else "null", shape=(num_groups,),
                                     init=gamma_initializer, allow_deferred_init=True)
        self.beta = self.params.get("beta", grad_req="write" if center else "null", shape=(num_groups,),
                                    init=beta_initializer, allow_deferred_init=True)

    def forward(self, x, *args):
        shape = getattr(x, "shape", None)
        if shape is not None and (len(shape) < 2 or shape[1] % self._num_groups):
            raise InvalidArgumentError("GroupNorm: input of shape %s: axis 1 must exist and be a multiple of "
                                       "num_groups=%d" % (shape, self._num_groups))
        return super().forward(x, *args)

    def hybrid_forward(self, F, data, gamma, beta):  # pylint: disable=arguments-differ
        return F.GroupNorm(data, gamma, beta, num_groups=self._num_groups, eps=self._epsilon)

    def __repr__(self):
        return "{name}({content})".format(name=self.__class__.__name__,
                                          content=", ".join("=".join([k, repr(v)]) for k, v in self._kwargs.items()))
