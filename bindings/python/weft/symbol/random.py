"""Random sampling nodes, MXNet 1.x's ``mx.sym.random``.

As in MXNet, numbers as distribution parameters build a ``_random_<d>`` node,
Symbols build a ``_sample_<d>`` node (one distribution per parameter element;
output shape = the parameters' shape + ``shape``). Values are drawn when an
executor runs the node, from the device's generator (``weft.random.seed``).
"""
from numbers import Number

from ..base import ArgumentTypeError
from ..ndarray.ndarray import _Null
from . import _internal
from .symbol import Symbol

__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial", "negative_binomial",
           "generalized_negative_binomial", "shuffle", "randint", "uniform_like", "normal_like",
           "exponential_like", "gamma_like", "poisson_like", "negative_binomial_like",
           "generalized_negative_binomial_like"]


def _numeric(v):
    return isinstance(v, Number) and not isinstance(v, bool)


def _random_helper(random, sampler, params, shape, dtype, kwargs):
    names = list(params)
    values = [params[k] for k in names]
    if isinstance(values[0], Symbol):
        for k, v in zip(names[1:], values[1:]):
            if not isinstance(v, Symbol):
                raise ArgumentTypeError("%s: distribution parameters must all have the same type, but '%s' is a "
                                        "Symbol and '%s' is %s" % (random, names[0], k, type(v).__name__))
        if sampler is None:
            raise ArgumentTypeError("%s: Symbol-valued '%s' is not supported (MXNet has no sampler for it); pass "
                                    "numbers" % (random, names[0]))
        return getattr(_internal, sampler)(*values, shape=shape, dtype=dtype, **kwargs)
    if _numeric(values[0]):
        for k, v in zip(names[1:], values[1:]):
            if not _numeric(v):
                raise ArgumentTypeError("%s: distribution parameters must all have the same type, but '%s' is a "
                                        "number and '%s' is %s" % (random, names[0], k, type(v).__name__))
        return getattr(_internal, random)(**params, shape=shape, dtype=dtype, **kwargs)
    raise ArgumentTypeError("%s: distribution parameters must be either Symbol or numbers, but got %s"
                            % (random, type(values[0]).__name__))


def uniform(low=0, high=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling uniform distributions on [low, high)."""
    return _random_helper("_random_uniform", "_sample_uniform", {"low": low, "high": high}, shape, dtype, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling N(loc, scale**2)."""
    return _random_helper("_random_normal", "_sample_normal", {"loc": loc, "scale": scale}, shape, dtype, kwargs)


def randn(*shape, **kwargs):
    """A node sampling a normal distribution, shape given positionally."""
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    dtype = kwargs.pop("dtype", _Null)
    return _random_helper("_random_normal", "_sample_normal", {"loc": loc, "scale": scale}, shape, dtype, kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling Poisson distributions with rate lam."""
    return _random_helper("_random_poisson", "_sample_poisson", {"lam": lam}, shape, dtype, kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling exponential distributions with scale 1/lambda."""
    return _random_helper("_random_exponential", "_sample_exponential", {"lam": 1.0 / scale}, shape, dtype, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling gamma distributions with shape alpha and scale beta."""
    return _random_helper("_random_gamma", "_sample_gamma", {"alpha": alpha, "beta": beta}, shape, dtype, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling negative binomial distributions (k failures, failure probability p)."""
    return _random_helper("_random_negative_binomial", "_sample_negative_binomial", {"k": k, "p": p}, shape, dtype,
                          kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling generalized negative binomial distributions (mean mu, dispersion alpha)."""
    return _random_helper("_random_generalized_negative_binomial", "_sample_generalized_negative_binomial",
                          {"mu": mu, "alpha": alpha}, shape, dtype, kwargs)


def multinomial(data, shape=_Null, get_prob=True, dtype="int32", **kwargs):
    """A node sampling the multinomial distributions of data (..., k); with
    get_prob (MXNet's symbolic default) also the draws' log-probabilities."""
    return _internal._sample_multinomial(data, shape=shape, get_prob=get_prob, dtype=dtype, **kwargs)


def shuffle(data, **kwargs):
    """A node permuting data randomly along its first axis."""
    return _internal._shuffle(data, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling integers uniformly from [low, high)."""
    return _random_helper("_random_randint", None, {"low": low, "high": high}, shape, dtype, kwargs)


def _like(opname, data, params, kwargs):
    attrs = {k: v for k, v in params.items() if v is not _Null}
    attrs.update(kwargs)
    return getattr(_internal, opname)(data, **attrs)


def uniform_like(data=None, low=_Null, high=_Null, **kwargs):
    """A node of uniform samples with the shape and dtype of data."""
    return _like("_random_uniform_like", data, {"low": low, "high": high}, kwargs)


def normal_like(data=None, loc=_Null, scale=_Null, **kwargs):
    """A node of normal samples with the shape and dtype of data."""
    return _like("_random_normal_like", data, {"loc": loc, "scale": scale}, kwargs)


def exponential_like(data=None, lam=_Null, **kwargs):
    """A node of exponential samples with the shape and dtype of data."""
    return _like("_random_exponential_like", data, {"lam": lam}, kwargs)


def gamma_like(data=None, alpha=_Null, beta=_Null, **kwargs):
    """A node of gamma samples with the shape and dtype of data."""
    return _like("_random_gamma_like", data, {"alpha": alpha, "beta": beta}, kwargs)


def poisson_like(data=None, lam=_Null, **kwargs):
    """A node of Poisson samples with the shape and dtype of data."""
    return _like("_random_poisson_like", data, {"lam": lam}, kwargs)


def negative_binomial_like(data=None, k=_Null, p=_Null, **kwargs):
    """A node of negative binomial samples with the shape and dtype of data."""
    return _like("_random_negative_binomial_like", data, {"k": k, "p": p}, kwargs)


def generalized_negative_binomial_like(data=None, mu=_Null, alpha=_Null, **kwargs):
    """A node of generalized negative binomial samples with the shape and dtype of data."""
    return _like("_random_generalized_negative_binomial_like", data, {"mu": mu, "alpha": alpha}, kwargs)
