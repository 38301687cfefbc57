"""weft.np.random: MXNet 1.9.1's ``mxnet.numpy.random`` (issue 37).

Every draw comes from the device's engine-tracked generator, so
``weft.random.seed(n)`` (``mx.random.seed``) makes a draw reproducible.

Note [np.random by composition]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The core has samplers for uniform, normal, exponential, gamma, randint and
categorical draws (``_random_*`` with number parameters, ``_sample_*`` with one
distribution per parameter element). The other distributions are transforms of
those, done with registry ops so that they stay on the device, in the engine's
order and under autograd:

  lognormal = exp(normal)            logistic = loc + scale*log(u/(1-u))
  gumbel    = loc - scale*log(-log u) rayleigh = scale*sqrt(2E)
  weibull   = E^(1/a)                 pareto   = exp(E/a) - 1   (Lomax, as NumPy and MXNet)
  power     = (1 - exp(-E))^(1/a)     chisquare = Gamma(df/2, scale 2)
  beta      = X/(X+Y), X~Gamma(a), Y~Gamma(b)
  multivariate_normal = mean + z L^T, L = cholesky(cov)

with u ~ U[0,1) and E ~ Exp(1). Transforms that take a logarithm of u are done
in float64 (a float32 u is 0 with probability 2^-24 per draw, which a
million-element draw would hit) and cast to the requested dtype at the end.

Array parameters broadcast against each other and against ``size`` as in
NumPy: a standard draw of the output shape is scaled and shifted with
broadcasting ops, which also gives the pathwise gradient with respect to
``loc``/``scale``-style parameters under autograd. Parameters are validated
on the host (NumPy's ``ValueError``); for array parameters that reads them,
a synchronisation MXNet avoids by checking in the kernel.
"""
# pylint: disable=redefined-builtin,invalid-name
import numbers

import numpy as _onp

from .. import dtypes as _dt
from ..context import current_context
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ._array import _invoke, _np
from ._random_args import (FLOATS, add, as_ctx, as_shape, cast, check, ctx_of, finish, float_dtype, mul, out_shape,
                           param, recip, std)

__all__ = ["beta", "chisquare", "choice", "exponential", "gamma", "gumbel", "logistic", "lognormal",
           "multinomial", "multivariate_normal", "normal", "pareto", "power", "rand", "randint", "randn",
           "rayleigh", "shuffle", "uniform", "weibull"]

# ---- distributions ----

def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the uniform distribution on [low, high) (``mxnet.numpy.random.uniform``).

    low, high: numbers or arrays (broadcast together and to ``size``); size:
    output shape (None: the parameters' broadcast shape, () for numbers, a 0-d
    array); dtype: float16/32/64, default float32 (float64 under
    ``npx.set_np(dtype=True)``)."""
    f = "uniform"
    size, dtype = as_shape(size, f), float_dtype(dtype, f)
    c = ctx_of((low, high), ctx, f)
    low, high = param(low, "low", f, c), param(high, "high", f, c)
    shape = out_shape(size, (low, high), f)
    if not isinstance(low, NDArray) and not isinstance(high, NDArray):
        if low > high:
            raise ValueError("uniform: low (%g) must be <= high (%g)" % (low, high))
        return finish(std("_random_uniform", shape, c, dtype, low=low, high=high), dtype, out, f)
    check(_sub(high, low, dtype), "high - low", f, lambda h: h >= 0, ">= 0 (low <= high)")
    u = std("_random_uniform", shape, c, dtype)
    return finish(add(mul(u, _sub(high, low, dtype)), low), dtype, out, f)


def _sub(a, b, dtype):
    """a - b for number or array parameters (arrays broadcast, in dtype)."""
    if isinstance(a, NDArray) and isinstance(b, NDArray):
        return _invoke("broadcast_sub", [cast(a, dtype), cast(b, dtype)])
    if isinstance(a, NDArray):
        return _invoke("_minus_scalar", [cast(a, dtype)], scalar=b)
    if isinstance(b, NDArray):
        return _invoke("_rminus_scalar", [cast(b, dtype)], scalar=a)
    return a - b


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the normal distribution N(loc, scale^2) (``mxnet.numpy.random.normal``).

    scale must be >= 0 (ValueError). Array parameters broadcast as NumPy's and
    get pathwise gradients under autograd, as MXNet's ``_npi_normal``."""
    f = "normal"
    size, dtype = as_shape(size, f), float_dtype(dtype, f)
    c = ctx_of((loc, scale), ctx, f)
    loc, scale = param(loc, "loc", f, c), param(scale, "scale", f, c)
    check(scale, "scale", f, lambda s: s >= 0, ">= 0")
    shape = out_shape(size, (loc, scale), f)
    if not isinstance(loc, NDArray) and not isinstance(scale, NDArray):
        return finish(std("_random_normal", shape, c, dtype, loc=loc, scale=scale), dtype, out, f)
    z = std("_random_normal", shape, c, dtype)
    return finish(add(mul(z, scale), loc), dtype, out, f)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples exp(N(mean, sigma^2)) (``mxnet.numpy.random.lognormal``); sigma >= 0."""
    f = "lognormal"
    dtype = float_dtype(dtype, f)
    x = normal(mean, sigma, size=size, dtype="float64", ctx=ctx)
    return finish(_invoke("exp", [x]), dtype, out, f)


def _log_uniform_draw(params, size, ctx, func):
    """(u in float64 of the output shape, ctx) for the log-transform samplers."""
    c = ctx_of(params, ctx, func)
    shape = out_shape(as_shape(size, func), params, func)
    return std("_random_uniform", shape, c, "float64"), c


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the logistic distribution (``mxnet.numpy.random.logistic``);
    scale >= 0. Output float32 (float64 under set_np(dtype=True)); MXNet 1.9.1's
    signature has no dtype."""
    f = "logistic"
    dtype = float_dtype(None, f)
    c0 = ctx_of((loc, scale), ctx, f)
    loc, scale = param(loc, "loc", f, c0), param(scale, "scale", f, c0)
    check(scale, "scale", f, lambda s: s >= 0, ">= 0")
    u, _ = _log_uniform_draw((loc, scale), size, ctx, f)
    # log(u / (1 - u)) = log(u) - log1p(-u)
    lu = _invoke("elemwise_sub", [_invoke("log", [u]), _invoke("log1p", [_invoke("negative", [u])])])
    return finish(add(mul(lu, scale), loc), dtype, out, f)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Gumbel distribution (``mxnet.numpy.random.gumbel``); scale >= 0.
    Output float32 (float64 under set_np(dtype=True)); MXNet 1.9.1 has no dtype here."""
    f = "gumbel"
    dtype = float_dtype(None, f)
    c0 = ctx_of((loc, scale), ctx, f)
    loc, scale = param(loc, "loc", f, c0), param(scale, "scale", f, c0)
    check(scale, "scale", f, lambda s: s >= 0, ">= 0")
    u, _ = _log_uniform_draw((loc, scale), size, ctx, f)
    g = _invoke("log", [_invoke("negative", [_invoke("log", [u])])])  # log(-log u), u in [0, 1)
    return finish(add(mul(g, _neg(scale)), loc), dtype, out, f)


def _neg(s):
    return _invoke("negative", [s]) if isinstance(s, NDArray) else -s


def _std_exponential(params, size, ctx, func):
    """E ~ Exp(1) in float64 of the output shape."""
    c = ctx_of(params, ctx, func)
    shape = out_shape(as_shape(size, func), params, func)
    return std("_random_exponential", shape, c, "float64", lam=1.0)


def _pow(x, a):
    """x ** a, a a number or an array (broadcast)."""
    if isinstance(a, NDArray):
        return _invoke("broadcast_power", [x, cast(a, _dt.name(x.dtype))])
    return _invoke("_power_scalar", [x], scalar=a)


def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the exponential distribution with mean ``scale`` (NumPy's
    parameter, not the rate) (``mxnet.numpy.random.exponential``); scale >= 0."""
    f = "exponential"
    dtype = float_dtype(None, f)
    c = ctx_of((scale,), ctx, f)
    scale = param(scale, "scale", f, c)
    check(scale, "scale", f, lambda s: s >= 0, ">= 0")
    return finish(mul(_std_exponential((scale,), size, ctx, f), scale), dtype, out, f)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Rayleigh distribution (``mxnet.numpy.random.rayleigh``); scale >= 0."""
    f = "rayleigh"
    dtype = float_dtype(None, f)
    c = ctx_of((scale,), ctx, f)
    scale = param(scale, "scale", f, c)
    check(scale, "scale", f, lambda s: s >= 0, ">= 0")
    e = _std_exponential((scale,), size, ctx, f)
    return finish(mul(_invoke("sqrt", [_invoke("_mul_scalar", [e], scalar=2.0)]), scale), dtype, out, f)


def weibull(a, size=None, ctx=None, out=None):
    """Samples from the Weibull distribution with shape a (``mxnet.numpy.random.weibull``); a >= 0."""
    f = "weibull"
    dtype = float_dtype(None, f)
    c = ctx_of((a,), ctx, f)
    a = param(a, "a", f, c)
    check(a, "a", f, lambda v: v >= 0, ">= 0")
    e = _std_exponential((a,), size, ctx, f)
    return finish(_pow(e, recip(a, "float64")), dtype, out, f)


def pareto(a, size=None, ctx=None, out=None):
    """Samples from the Pareto II (Lomax) distribution with shape a, as NumPy and
    MXNet (``mxnet.numpy.random.pareto``); a > 0."""
    f = "pareto"
    dtype = float_dtype(None, f)
    c = ctx_of((a,), ctx, f)
    a = param(a, "a", f, c)
    check(a, "a", f, lambda v: v > 0, "> 0")
    e = _std_exponential((a,), size, ctx, f)
    return finish(_invoke("expm1", [mul(e, recip(a, "float64"))]), dtype, out, f)


def power(a, size=None, ctx=None, out=None):
    """Samples in [0, 1] from the power distribution with exponent a - 1
    (``mxnet.numpy.random.power``); a > 0."""
    f = "power"
    dtype = float_dtype(None, f)
    c = ctx_of((a,), ctx, f)
    a = param(a, "a", f, c)
    check(a, "a", f, lambda v: v > 0, "> 0")
    e = _std_exponential((a,), size, ctx, f)
    u = _invoke("negative", [_invoke("expm1", [_invoke("negative", [e])])])  # 1 - exp(-E), uniform on (0, 1]
    return finish(_pow(u, recip(a, "float64")), dtype, out, f)


def gamma(shape, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the gamma distribution with shape k and scale theta
    (``mxnet.numpy.random.gamma``); shape > 0, scale > 0."""
    f = "gamma"
    size, dtype = as_shape(size, f), float_dtype(dtype, f)
    c = ctx_of((shape, scale), ctx, f)
    k, theta = param(shape, "shape", f, c), param(scale, "scale", f, c)
    check(k, "shape", f, lambda v: v > 0, "> 0")
    check(theta, "scale", f, lambda v: v > 0, "> 0")
    oshape = out_shape(size, (k, theta), f)
    return finish(_gamma_draw(k, theta, oshape, c, dtype), dtype, out, f)


def _broadcast_to(x, shape):
    """x broadcast to shape (legacy broadcast_to needs equal ranks: pad with 1s first)."""
    if tuple(x.shape) == tuple(shape):
        return x
    if x.ndim < len(shape):
        x = _invoke("reshape", [x], shape=(1,) * (len(shape) - x.ndim) + tuple(x.shape))
    return _invoke("broadcast_to", [x], shape=shape)


def _gamma_draw(k, theta, shape, ctx, dtype):
    if not isinstance(k, NDArray):
        g = std("_random_gamma", shape, ctx, dtype, alpha=k, beta=1.0)
    else:
        # One distribution per element: the shape parameter broadcast to the output.
        kb = _broadcast_to(cast(k, dtype), shape)
        ones = _invoke("ones_like", [kb])
        g = _invoke("_sample_gamma", [kb, ones], dtype=dtype)
    return mul(g, theta)


def chisquare(df, size=None, dtype=None, ctx=None):
    """Samples from the chi-square distribution with df degrees of freedom
    (``mxnet.numpy.random.chisquare``): Gamma(df/2, scale 2); df > 0."""
    f = "chisquare"
    size, dtype = as_shape(size, f), float_dtype(dtype, f)
    c = ctx_of((df,), ctx, f)
    df = param(df, "df", f, c)
    check(df, "df", f, lambda v: v > 0, "> 0")
    half = _invoke("_mul_scalar", [df], scalar=0.5) if isinstance(df, NDArray) else df / 2.0
    return _gamma_draw(half, 2.0, out_shape(size, (df,), f), c, dtype)


def beta(a, b, size=None, dtype=None, ctx=None):
    """Samples from the beta distribution (``mxnet.numpy.random.beta``) as
    X/(X+Y) with X ~ Gamma(a), Y ~ Gamma(b); a > 0, b > 0."""
    f = "beta"
    size, dtype = as_shape(size, f), float_dtype(dtype, f)
    c = ctx_of((a, b), ctx, f)
    a, b = param(a, "a", f, c), param(b, "b", f, c)
    check(a, "a", f, lambda v: v > 0, "> 0")
    check(b, "b", f, lambda v: v > 0, "> 0")
    shape = out_shape(size, (a, b), f)
    x = _gamma_draw(a, 1.0, shape, c, "float64")
    y = _gamma_draw(b, 1.0, shape, c, "float64")
    return cast(_invoke("elemwise_div", [x, _invoke("elemwise_add", [x, y])]), dtype)


def rand(*size, **kwargs):
    """Uniform samples on [0, 1) of shape ``size`` (``mxnet.numpy.random.rand``);
    keyword arguments as uniform's (dtype, ctx, out)."""
    return uniform(0.0, 1.0, size=size, **kwargs)


def randn(*size, **kwargs):
    """Standard normal samples of shape ``size`` (``mxnet.numpy.random.randn``);
    keyword arguments as normal's (loc, scale, dtype, ctx, out)."""
    return normal(size=size, **kwargs)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Integers drawn uniformly from [low, high), or [0, low) when high is None
    (``mxnet.numpy.random.randint``). dtype int32 or int64 (default int64, NumPy's
    default int; MXNet's docstring says 'np.int')."""
    f = "randint"
    for name, v in (("low", low), ("high", high)):
        if v is not None and (not isinstance(v, (numbers.Integral, _onp.integer)) or isinstance(v, bool)):
            raise TypeError("randint: %s must be an int, got %s" % (name, type(v).__name__))
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError("randint: low (%d) must be < high (%d)" % (low, high))
    name = "int64" if dtype is None else _dt.name(dtype)
    if name not in ("int32", "int64"):
        raise TypeError("randint: dtype must be int32 or int64, got %s" % name)
    shape = as_shape(size, f) or ()
    res = std("_random_randint", shape, as_ctx(ctx, f), name, low=int(low), high=int(high))
    return finish(res, name, out, f)


def shuffle(x):
    """Shuffles x in place along its first axis (``mxnet.numpy.random.shuffle``); returns None."""
    if not isinstance(x, NDArray):
        raise TypeError("shuffle: x must be an array, got %s" % type(x).__name__)
    _invoke("_shuffle", [x], out=x)


def _pvals(pvals, func, ctx):
    """pvals as a float64 host vector (validated) and as an np array on ctx whose
    last entry is what the others leave (NumPy's rule)."""
    host = pvals.asnumpy() if isinstance(pvals, NDArray) else pvals
    try:
        host = _onp.asarray(host, dtype=_onp.float64)
    except (TypeError, ValueError):
        raise TypeError("%s: pvals must be a sequence of floats, got %r" % (func, pvals)) from None
    if host.ndim != 1 or host.size == 0:
        raise ValueError("%s: pvals must be a non-empty 1-D sequence, got shape %s" % (func, host.shape))
    if not _onp.all((host >= 0) & (host <= 1)):
        raise ValueError("%s: pvals must lie in [0, 1]" % func)
    if host[:-1].sum() > 1.0 + 1e-12:
        raise ValueError("%s: sum(pvals[:-1]) > 1.0" % func)
    host = host.copy()
    host[-1] = max(0.0, 1.0 - host[:-1].sum())
    return host, _np(_nd_array(host, ctx=ctx, dtype="float64"))


def multinomial(n, pvals, size=None, **kwargs):
    """Counts of n draws among len(pvals) outcomes (``mxnet.numpy.random.multinomial``):
    an int64 array of shape size + (len(pvals),), or (len(pvals),) without size.

    pvals: probabilities (the last is taken as 1 - sum of the others, as NumPy
    does). Memory grows as n * len(pvals) * prod(size): each draw is kept as a
    one-hot row before the counts are summed. kwargs: ctx."""
    f = "multinomial"
    ctx = kwargs.pop("ctx", None)
    if kwargs:
        raise TypeError("multinomial: unexpected keyword arguments %s" % sorted(kwargs))
    if not isinstance(n, (numbers.Integral, _onp.integer)) or isinstance(n, bool):
        raise TypeError("multinomial: n must be an int, got %s" % type(n).__name__)
    if n < 0:
        raise ValueError("multinomial: n must be >= 0, got %d" % n)
    size = as_shape(size, f) or ()
    c = as_ctx(ctx, f)
    host, p = _pvals(pvals, f, c)
    idx = _invoke("_sample_multinomial", [p], shape=size + (int(n),), dtype="int32")
    hot = _invoke("one_hot", [idx], depth=host.size, dtype="int64")
    return _invoke("sum", [hot], axis=-2)


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """A random sample of range(a) (a an int) or of the elements of a 1-D array a
    (``mxnet.numpy.random.choice``), with or without replacement, uniform or
    with probabilities p. Indices are int64; size None gives a 0-d array (MXNet
    returns arrays, not Python scalars)."""
    f = "choice"
    size = as_shape(size, f)
    shape = size if size is not None else ()
    count = int(_onp.prod(shape)) if shape else 1
    c = as_ctx(ctx, f)
    if isinstance(a, NDArray):
        if a.ndim != 1:
            raise ValueError("choice: a must be 1-dimensional, got shape %s" % (a.shape,))
        pool = a.shape[0]
    elif isinstance(a, (numbers.Integral, _onp.integer)) and not isinstance(a, bool):
        pool = int(a)
    else:
        raise TypeError("choice: a must be an int or a 1-D array, got %s" % type(a).__name__)
    if pool <= 0:
        raise ValueError("choice: a must be greater than 0 (a non-empty population)")
    if p is not None:
        host, pv = _pvals(p, f, c)
        if host.size != pool:
            raise ValueError("choice: a and p must have the same size (%d and %d)" % (pool, host.size))
    if replace:
        if p is None:
            idx = std("_random_randint", shape, c, "int64", low=0, high=pool)
        else:
            idx = _invoke("_sample_multinomial", [pv], shape=(count,), dtype="int32")
            idx = _invoke("reshape", [cast(idx, "int64")], shape=shape)
    else:
        if count > pool:
            raise ValueError("choice: cannot take a larger sample (%d) than the population (%d) without "
                             "replacement" % (count, pool))
        if p is None:
            # Floyd's algorithm in the op: count draws, never a permutation of the whole pool
            # (Note [Choice by sampling rule] in core/op/random/np_choice.cc)
            idx = _invoke("_npi_choice", [], a=pool, size=(count,), replace=False, ctx=str(c))
        else:
            # Gumbel top-k: the k largest log p + Gumbel noise are a draw without replacement.
            g = gumbel(size=(pool,), ctx=c)
            keys = _invoke("elemwise_add", [_invoke("log", [pv]), cast(g, "float64")])
            idx = _invoke("topk", [keys], k=count, ret_typ="indices", dtype="int64") if count else \
                _invoke("slice", [cast(keys, "int64")], begin=(0,), end=(0,))
        idx = _invoke("reshape", [idx], shape=shape)
    if isinstance(a, NDArray):
        idx = _invoke("take", [a, idx])
        return finish(idx, _dt.name(a.dtype), out, f)
    return finish(idx, "int64", out, f)


def _factor(cov, func):
    """A with A A^T = cov (host, float64): Cholesky, or NumPy's SVD factor for a
    positive semidefinite cov."""
    host = cov.asnumpy() if isinstance(cov, NDArray) else cov
    try:
        host = _onp.asarray(host, dtype=_onp.float64)
    except (TypeError, ValueError):
        raise TypeError("%s: cov must be a 2-D array of numbers" % func) from None
    if host.ndim != 2 or host.shape[0] != host.shape[1]:
        raise ValueError("%s: cov must be a square 2-D array, got shape %s" % (func, host.shape))
    if not _onp.allclose(host, host.T, rtol=1e-6, atol=1e-8):
        raise ValueError("%s: cov must be symmetric" % func)
    try:
        return _onp.linalg.cholesky(host)
    except _onp.linalg.LinAlgError:
        u, s, _ = _onp.linalg.svd(host)
        if _onp.any(s < -1e-8 * max(1.0, s.max())) or not _onp.allclose(u * s @ u.T, host, atol=1e-6):
            raise ValueError("%s: cov must be positive semidefinite" % func) from None
        return u * _onp.sqrt(_onp.clip(s, 0, None))


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):
    """Samples from the multivariate normal N(mean, cov) (``mxnet.numpy.random.multivariate_normal``).

    mean: (..., d) array; cov: (d, d) positive semidefinite. The output has
    shape size + mean.shape (NumPy's size + (d,) for a 1-D mean). As in MXNet
    1.9.1 (whose ``_npi.mvn_fallback`` factors cov with host NumPy), cov is
    factored on the host; the normal draw comes from weft's generator and the
    result is a differentiable function of mean. check_valid and tol are not
    supported (NotImplementedError, as MXNet)."""
    f = "multivariate_normal"
    if check_valid is not None:
        raise NotImplementedError("multivariate_normal: parameter check_valid is not supported")
    if tol is not None:
        raise NotImplementedError("multivariate_normal: parameter tol is not supported")
    size = as_shape(size, f) or ()
    c = mean.context if isinstance(mean, NDArray) else current_context()
    m = param(mean, "mean", f, c)
    if not isinstance(m, NDArray) or m.ndim == 0:
        raise ValueError("multivariate_normal: mean must be an array of shape (..., d)")
    fac = _factor(cov, f)
    d = fac.shape[0]
    if m.shape[-1] != d:
        raise ValueError("multivariate_normal: mean has %d entries in its last axis, cov is %dx%d"
                         % (m.shape[-1], d, d))
    dtype = _dt.name(m.dtype) if _dt.name(m.dtype) in FLOATS else float_dtype(None, f)
    shape = tuple(size) + tuple(m.shape)
    z = std("_random_normal", (int(_onp.prod(shape)) // d, d), c, dtype)
    a = _np(_nd_array(fac, ctx=c, dtype=dtype))
    x = _invoke("reshape", [_invoke("dot", [z, a], transpose_b=True)], shape=shape)
    return _invoke("broadcast_add", [x, cast(m, dtype)])
