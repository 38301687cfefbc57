"""Random sampling, MXNet 1.x's ``mx.nd.random`` (also weft.random).

As in MXNet, a sampler called with numbers as its distribution parameters runs
the registry's ``_random_<d>`` operator (output shape ``shape``, default (1,));
called with NDArrays it runs ``_sample_<d>``, one distribution per parameter
element (output shape = the parameters' shape + ``shape``). The ``*_like``
samplers take the shape (and dtype) of an array. Every draw comes from the
device's generator, an engine variable reseeded by ``weft.random.seed``.
"""
from numbers import Number

from ..base import ArgumentTypeError
from ..context import current_context
from .attr_text import _Null
from .creation import _ctx
from .ndarray_class import NDArray
from .op_call import _call
from .. import dtypes as _dt

__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial", "negative_binomial",
           "generalized_negative_binomial", "shuffle", "randint", "uniform_like", "normal_like",
           "exponential_like", "gamma_like", "poisson_like", "negative_binomial_like",
           "generalized_negative_binomial_like", "current_context"]


def _numeric(v):
    return isinstance(v, Number) and not isinstance(v, bool)


def _random_helper(random, sampler, params, shape, dtype, ctx, out, kwargs):
    """MXNet's dispatch: NDArray parameters -> `sampler` (_sample_<d>), numbers
    -> `random` (_random_<d>)."""
    names = list(params)
    values = [params[k] for k in names]
    if isinstance(values[0], NDArray):
        for k, v in zip(names[1:], values[1:]):
            if not isinstance(v, NDArray):
                raise ArgumentTypeError("%s: distribution parameters must all have the same type, but '%s' is an "
                                        "NDArray and '%s' is %s" % (random, names[0], k, type(v).__name__))
        if sampler is None:
            raise ArgumentTypeError("%s: NDArray-valued '%s' is not supported (MXNet has no sampler for it); "
                                    "pass numbers" % (random, names[0]))
        attrs = dict(kwargs)
        if shape is not _Null:
            attrs["shape"] = (shape,) if isinstance(shape, int) else tuple(shape)
        if dtype is not _Null and dtype is not None:
            attrs["dtype"] = _dt.name(dtype)
        return _call(sampler, values, out=out, **attrs)
    if _numeric(values[0]):
        for k, v in zip(names[1:], values[1:]):
            if not _numeric(v):
                raise ArgumentTypeError("%s: distribution parameters must all have the same type, but '%s' is a "
                                        "number and '%s' is %s" % (random, names[0], k, type(v).__name__))
        attrs = dict(params)
        if out is not None:
            if not isinstance(out, NDArray):
                raise ArgumentTypeError("%s: out= must be an NDArray" % random)
            attrs.update(shape=out.shape, dtype=_dt.name(out._dtype_flag), ctx=out.context)
        else:
            if shape is _Null:
                shape = 1
            attrs["shape"] = (shape,) if isinstance(shape, int) else tuple(shape)
            if dtype is not _Null and dtype is not None:
                attrs["dtype"] = _dt.name(dtype)
            attrs["ctx"] = _ctx(ctx)
        attrs.update(kwargs)
        return _call(random, [], out=out, **attrs)
    raise ArgumentTypeError("%s: distribution parameters must be either NDArray or numbers, but got %s"
                            % (random, type(values[0]).__name__))


def uniform(low=0, high=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from uniform distributions on [low, high).

    Parameters
    ----------
    low, high : float or NDArray
        Bounds of the interval (NDArrays: one distribution per element).
    shape : int or tuple of ints
        Number of samples (per distribution when the parameters are NDArrays).
    dtype : {'float16', 'float32', 'float64'}
        Output dtype (default float32, or the parameters' dtype).
    ctx : Context
        Device of the output (default: the current context; NDArray parameters: theirs).
    out : NDArray
        Array to write the result into.
    """
    return _random_helper("_random_uniform", "_sample_uniform", {"low": low, "high": high}, shape, dtype, ctx,
                          out, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from normal distributions N(loc, scale**2). Parameters as uniform()."""
    return _random_helper("_random_normal", "_sample_normal", {"loc": loc, "scale": scale}, shape, dtype, ctx, out,
                          kwargs)


def randn(*shape, **kwargs):
    """Samples from a normal distribution with the shape given positionally:
    ``randn(2, 3, loc=0, scale=1, dtype=None, ctx=None, out=None)``."""
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    dtype = kwargs.pop("dtype", _Null)
    ctx = kwargs.pop("ctx", None)
    out = kwargs.pop("out", None)
    if not (_numeric(loc) and _numeric(scale)):
        raise ArgumentTypeError("randn: loc and scale must be numbers, got %s and %s"
                                % (type(loc).__name__, type(scale).__name__))
    return _random_helper("_random_normal", "_sample_normal", {"loc": loc, "scale": scale}, shape, dtype, ctx, out,
                          kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from Poisson distributions with rate lam (a floating-point output)."""
    return _random_helper("_random_poisson", "_sample_poisson", {"lam": lam}, shape, dtype, ctx, out, kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from exponential distributions with scale beta = 1/lambda
    (density exp(-x/beta)/beta); the operators take the rate 1/scale."""
    return _random_helper("_random_exponential", "_sample_exponential", {"lam": 1.0 / scale}, shape, dtype, ctx,
                          out, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from gamma distributions with shape alpha and scale beta."""
    return _random_helper("_random_gamma", "_sample_gamma", {"alpha": alpha, "beta": beta}, shape, dtype, ctx, out,
                          kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from negative binomial distributions: k (limit of unsuccessful
    experiments, >= 0) and p (failure probability in each experiment, in [0, 1])."""
    return _random_helper("_random_negative_binomial", "_sample_negative_binomial", {"k": k, "p": p}, shape, dtype,
                          ctx, out, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from generalized negative binomial distributions: mu (mean) and
    alpha (dispersion, 1/k)."""
    return _random_helper("_random_generalized_negative_binomial", "_sample_generalized_negative_binomial",
                          {"mu": mu, "alpha": alpha}, shape, dtype, ctx, out, kwargs)


def multinomial(data, shape=_Null, get_prob=False, out=None, dtype="int32", **kwargs):
    """Samples from the multinomial distributions of data (..., k) (rows summing
    to 1): output (..., shape) of outcomes in `dtype`; with get_prob also the
    log-probabilities of the draws (a head gradient on them reaches `data`)."""
    return _call("_sample_multinomial", [data], out=out, shape=shape, get_prob=get_prob, dtype=dtype, **kwargs)


def shuffle(data, **kwargs):
    """A random permutation of data along its first axis."""
    out = kwargs.pop("out", None)
    return _call("_shuffle", [data], out=out, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples integers uniformly from [low, high); dtype 'int32' (default) or 'int64'."""
    return _random_helper("_random_randint", None, {"low": low, "high": high}, shape, dtype, ctx, out, kwargs)


def _like(opname, data, params, out, kwargs):
    attrs = {k: v for k, v in params.items() if v is not _Null}
    attrs.update(kwargs)
    return _call(opname, [data], out=out, **attrs)


def uniform_like(data=None, low=_Null, high=_Null, out=None, **kwargs):
    """Uniform samples on [low, high) with the shape and dtype of data."""
    return _like("_random_uniform_like", data, {"low": low, "high": high}, out, kwargs)


def normal_like(data=None, loc=_Null, scale=_Null, out=None, **kwargs):
    """Normal samples with the shape and dtype of data."""
    return _like("_random_normal_like", data, {"loc": loc, "scale": scale}, out, kwargs)


def exponential_like(data=None, lam=_Null, out=None, **kwargs):
    """Exponential samples (rate lam) with the shape and dtype of data."""
    return _like("_random_exponential_like", data, {"lam": lam}, out, kwargs)


def gamma_like(data=None, alpha=_Null, beta=_Null, out=None, **kwargs):
    """Gamma samples (shape alpha, scale beta) with the shape and dtype of data."""
    return _like("_random_gamma_like", data, {"alpha": alpha, "beta": beta}, out, kwargs)


def poisson_like(data=None, lam=_Null, out=None, **kwargs):
    """Poisson samples (rate lam) with the shape and dtype of data."""
    return _like("_random_poisson_like", data, {"lam": lam}, out, kwargs)


def negative_binomial_like(data=None, k=_Null, p=_Null, out=None, **kwargs):
    """Negative binomial samples with the shape and dtype of data."""
    return _like("_random_negative_binomial_like", data, {"k": k, "p": p}, out, kwargs)


def generalized_negative_binomial_like(data=None, mu=_Null, alpha=_Null, out=None, **kwargs):
    """Generalized negative binomial samples with the shape and dtype of data."""
    return _like("_random_generalized_negative_binomial_like", data, {"mu": mu, "alpha": alpha}, out, kwargs)
