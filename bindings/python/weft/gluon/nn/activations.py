"""Activation layers (MXNet 1.x's ``gluon.nn.activations``)."""
# pylint: disable=arguments-differ
from ... import initializer
from ...base import InvalidArgumentError
from ..block import HybridBlock

__all__ = ["Activation", "LeakyReLU", "PReLU", "ELU", "SELU", "GELU", "Swish", "SiLU"]


class Activation(HybridBlock):
    """``F.Activation(x, act_type=activation)``: 'relu', 'sigmoid', 'tanh',
    'softrelu', 'softsign'. Named after the activation (``relu0_``)."""

    def __init__(self, activation, **kwargs):
        self._act_type = activation
        super().__init__(**kwargs)

    def _alias(self):
        return self._act_type

    def hybrid_forward(self, F, x):
        return F.Activation(x, act_type=self._act_type, name="fwd")

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._act_type)


class LeakyReLU(HybridBlock):
    """max(x, alpha * x) (``alpha`` >= 0)."""

    def __init__(self, alpha, **kwargs):
        if alpha < 0:
            raise InvalidArgumentError("Slope coefficient for LeakyReLU must be no less than 0.")
        super().__init__(**kwargs)
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type="leaky", slope=self._alpha, name="fwd")

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._alpha)


class PReLU(HybridBlock):
    """Leaky ReLU with a learned slope per channel (parameter ``alpha`` of
    shape ``(in_channels,)``, default initializer Constant(0.25))."""

    def __init__(self, alpha_initializer=None, in_channels=1, **kwargs):
        super().__init__(**kwargs)
        if alpha_initializer is None:
            alpha_initializer = initializer.Constant(0.25)
        with self.name_scope():
            self.alpha = self.params.get("alpha", shape=(in_channels,), init=alpha_initializer)

    def hybrid_forward(self, F, x, alpha):
        return F.LeakyReLU(x, gamma=alpha, act_type="prelu", name="fwd")


class ELU(HybridBlock):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type="elu", slope=self._alpha)


class SELU(HybridBlock):
    """Scaled ELU (Klambauer et al., 2017)."""

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type="selu", name="fwd")


class GELU(HybridBlock):
    """x * Phi(x), Phi the standard normal CDF."""

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type="gelu", name="fwd")


class Swish(HybridBlock):
    """x * sigmoid(beta * x)."""

    def __init__(self, beta=1.0, **kwargs):
        super().__init__(**kwargs)
        self._beta = beta

    def hybrid_forward(self, F, x):
        return x * F.sigmoid(self._beta * x, name="fwd")


class SiLU(HybridBlock):
    """x * sigmoid(x) (Swish with beta = 1)."""

    def hybrid_forward(self, F, x):
        return x * F.sigmoid(x, name="fwd")
