"""``weft.sym.np.random``: MXNet 1.9.1's ``mx.sym.np.random`` for a traced graph.

Note [Traced samplers]
~~~~~~~~~~~~~~~~~~~~~~
MXNet writes ``_npi_uniform``, ``_npi_normal``, ... which take number or array
parameters and broadcast them against ``size`` in the kernel. Weft draws with
the samplers MXNet 1.9.1 also registers (``_random_uniform`` with a shape,
``_random_uniform_like`` with another array's shape) and composes the rest, as
``weft.np.random`` does (Note [np.random by composition] in
weft/numpy/random.py): a standard draw of the output shape is scaled and
shifted with broadcasting operators. The output shape is ``size`` when given
(symbol parameters broadcast against the draw, so they must broadcast to size,
as in NumPy); without size it is the symbol parameters' broadcast shape (Note
[Broadcasting in a traced graph]: symbol parameters share one dtype), and for
number parameters alone a 0-d array, as in NumPy (a draw of shape (1,)
reshaped by ``_np_reshape``: Note [0-d results in a traced graph]).
Draws are float32 unless dtype says otherwise (float64 under
``npx.set_np(dtype=True)``).

``shuffle`` returns the shuffled symbol: MXNet's symbolic shuffle writes into
its argument and returns None, which a graph cannot express.
"""
# pylint: disable=redefined-builtin,invalid-name
import numbers

from ... import dtypes as _dt
from ...util import is_np_default_dtype
from ..symbol import Symbol
from ._broadcasting import _carrier
from ._symbol import binary, is_scalar, np_op

__all__ = ["beta", "chisquare", "choice", "exponential", "gamma", "gumbel", "logistic", "lognormal",
           "multivariate_normal", "normal", "pareto", "power", "rand", "randint", "rayleigh", "shuffle", "uniform",
           "weibull"]

_FLOATS = ("float16", "float32", "float64")


def _size(size, fname):
    if size is None:
        return None
    shape = tuple(size) if isinstance(size, (tuple, list)) else (size,)
    for d in shape:
        if not isinstance(d, numbers.Integral) or isinstance(d, bool) or d < 0:
            raise ValueError("%s: size must hold non-negative ints, got %r" % (fname, d))
    return tuple(int(d) for d in shape)


def _float_dtype(dtype, fname):
    if dtype is None:
        return "float64" if is_np_default_dtype() else "float32"
    name = _dt.name(dtype)
    if name not in _FLOATS:
        raise TypeError("%s: dtype must be float16, float32 or float64, got %s" % (fname, name))
    return name


def _params(fname, **given):
    """The symbol parameters, after checking every parameter is a Symbol or a number."""
    syms = []
    for arg, v in given.items():
        if isinstance(v, Symbol):
            syms.append(v)
        elif not is_scalar(v) or isinstance(v, bool):
            raise TypeError("%s: %s must be a number or a Symbol in a traced graph, got %s"
                            % (fname, arg, type(v).__name__))
    return syms


def _scalar(sym, size):
    """sym, a draw of shape (1,), as a 0-d array when size asks for one (None or ())."""
    return np_op("_np_reshape", sym, newshape=()) if not size else sym


def _draw(sampler, size, syms, dtype, **params):
    """A draw of sampler (``_random_<sampler>``) of the output shape (Note [Traced samplers])."""
    if size is not None or not syms:
        return _scalar(np_op("_random_" + sampler, shape=size or (1,), dtype=dtype, **params), size)
    like = np_op("_random_%s_like" % sampler, _carrier(*syms), **params)
    return np_op("_npx_cast", like, dtype=dtype)


def _recip(a, fname):
    """1 / a for a number or a symbol."""
    return 1.0 / a if is_scalar(a) else binary(fname, "true_divide", 1.0, a, reflected_scalar="rtrue_divide")


def _affine(z, scale, loc):
    """z * scale + loc, numbers or symbols (broadcasting: a symbol parameter broadcasts
    against a draw of shape size), skipping the identities."""
    if not (is_scalar(scale) and scale == 1):
        z = binary("random", "multiply", z, scale)
    if not (is_scalar(loc) and loc == 0):
        z = binary("random", "add", z, loc)
    return z


def _check_nonneg(fname, arg, v):
    if is_scalar(v) and v < 0:
        raise ValueError("%s: %s must be >= 0, got %r" % (fname, arg, v))


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Draws from [low, high) (MXNet's ``_npi_uniform``; Note [Traced samplers])."""
    f = "uniform"
    size, dtype, syms = _size(size, f), _float_dtype(dtype, f), _params(f, low=low, high=high)
    if not syms:
        if low > high:
            raise ValueError("uniform: low (%g) must be <= high (%g)" % (low, high))
        return _draw("uniform", size, syms, dtype, low=low, high=high)
    width = binary(f, "subtract", high, low)
    return _affine(_draw("uniform", size, syms, dtype), width, low)


def rand(*size, **kwargs):
    """Uniform draws on [0, 1) of shape size (``rand(2, 3)``)."""
    return uniform(0.0, 1.0, size=size if size else None, **kwargs)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Draws from N(loc, scale^2) (MXNet's ``_npi_normal``; Note [Traced samplers])."""
    f = "normal"
    size, dtype, syms = _size(size, f), _float_dtype(dtype, f), _params(f, loc=loc, scale=scale)
    _check_nonneg(f, "scale", scale)
    if not syms:
        return _draw("normal", size, syms, dtype, loc=loc, scale=scale)
    return _affine(_draw("normal", size, syms, dtype), scale, loc)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """exp(N(mean, sigma^2))."""
    return np_op("_npi_exp", normal(mean, sigma, size=size, dtype=dtype))


def _std_exponential(size, syms, dtype):
    return _draw("exponential", size, syms, dtype, lam=1.0)


def exponential(scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Draws from Exp with mean scale."""
    f = "exponential"
    size, syms = _size(size, f), _params(f, scale=scale)
    _check_nonneg(f, "scale", scale)
    return _affine(_std_exponential(size, syms, _float_dtype(None, f)), scale, 0)


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """loc + scale * log(u / (1 - u)), u ~ U[0, 1) drawn in float64 (log of a float32 0)."""
    f = "logistic"
    size, syms = _size(size, f), _params(f, loc=loc, scale=scale)
    _check_nonneg(f, "scale", scale)
    u = _draw("uniform", size, syms, "float64")
    z = np_op("_npi_log", binary(f, "true_divide", u, binary(f, "subtract", 1.0, u, reflected_scalar="rsubtract")))
    return _affine(np_op("_npx_cast", z, dtype=_float_dtype(None, f)), scale, loc)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """loc - scale * log(-log u), u ~ U[0, 1) drawn in float64."""
    f = "gumbel"
    size, syms = _size(size, f), _params(f, loc=loc, scale=scale)
    _check_nonneg(f, "scale", scale)
    u = _draw("uniform", size, syms, "float64")
    z = np_op("_npi_negative", np_op("_npi_log", np_op("_npi_negative", np_op("_npi_log", u))))
    return _affine(np_op("_npx_cast", z, dtype=_float_dtype(None, f)), scale, loc)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """scale * sqrt(2 E), E ~ Exp(1)."""
    f = "rayleigh"
    size, syms = _size(size, f), _params(f, scale=scale)
    _check_nonneg(f, "scale", scale)
    e = _std_exponential(size, syms, _float_dtype(None, f))
    return _affine(np_op("_npi_sqrt", binary(f, "multiply", e, 2.0)), scale, 0)


def _shape_param_draw(fname, a, size, transform):
    """transform(E, a) with E ~ Exp(1) for the a-parameterised samplers (weibull, pareto, power)."""
    size, syms = _size(size, fname), _params(fname, a=a)
    _check_nonneg(fname, "a", a)
    e = _std_exponential(size, syms, _float_dtype(None, fname))
    return transform(e, a)


def weibull(a, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """E ** (1 / a), E ~ Exp(1)."""
    return _shape_param_draw("weibull", a, size, lambda e, a: binary("weibull", "power", e, _recip(a, "weibull")))


def pareto(a, size=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """exp(E / a) - 1 (the Lomax form NumPy and MXNet draw), E ~ Exp(1)."""
    return _shape_param_draw("pareto", a, size, lambda e, a: binary(
        "pareto", "subtract", np_op("_npi_exp", binary("pareto", "true_divide", e, a)), 1.0))


def power(a, size=None):
    """(1 - exp(-E)) ** (1 / a), E ~ Exp(1)."""
    return _shape_param_draw("power", a, size, lambda e, a: binary(
        "power", "power", binary("power", "subtract", 1.0, np_op("_npi_exp", np_op("_npi_negative", e)),
                                 reflected_scalar="rsubtract"),
        _recip(a, "power")))


def gamma(shape, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Draws from Gamma(shape, scale). A symbol shape draws per element
    (``_sample_gamma``), broadcast to size first when size is given."""
    f = "gamma"
    size, dtype, syms = _size(size, f), _float_dtype(dtype, f), _params(f, shape=shape, scale=scale)
    _check_nonneg(f, "shape", shape)
    _check_nonneg(f, "scale", scale)
    if not isinstance(shape, Symbol):
        if not syms:
            return _draw("gamma", size, syms, dtype, alpha=shape, beta=scale)
        return _affine(_draw("gamma", size, syms, dtype, alpha=shape, beta=1.0), scale, 0)
    # _sample_gamma draws one value per element of alpha: alpha takes the output shape first
    # (size's, or the parameters' broadcast shape; same dtype as the draw, Note [Traced samplers]).
    full = np_op("_npi_zeros", shape=size, dtype=dtype) if size else _carrier(*syms)
    alpha = binary(f, "add", shape, full)
    out = np_op("_sample_gamma", alpha, np_op("ones_like", alpha), dtype=dtype)
    return _affine(out, scale, 0)


def chisquare(df, size=None, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """Gamma(df / 2, scale 2)."""
    half = df / 2.0 if is_scalar(df) else binary("chisquare", "multiply", df, 0.5)
    return gamma(half, 2.0, size=size, dtype=dtype)


def beta(a, b, size=None, dtype=None, ctx=None):  # pylint: disable=unused-argument
    """X / (X + Y), X ~ Gamma(a), Y ~ Gamma(b)."""
    if size is None and (isinstance(a, Symbol) or isinstance(b, Symbol)):
        syms = _params("beta", a=a, b=b)
        base = _carrier(*syms)  # both draws take the parameters' broadcast shape
        a, b = (binary("beta", "add", base, v) for v in (a, b))
    x, y = gamma(a, 1.0, size=size, dtype=dtype), gamma(b, 1.0, size=size, dtype=dtype)
    return binary("beta", "true_divide", x, binary("beta", "add", x, y))


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Integers in [low, high) ([0, low) without high); int64 unless dtype says int32.
    low and high are numbers, as in MXNet."""
    f = "randint"
    for arg, v in (("low", low), ("high", high)):
        if v is not None and (not isinstance(v, numbers.Integral) or isinstance(v, bool)):
            raise TypeError("%s: %s must be an int, got %s" % (f, arg, type(v).__name__))
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError("randint: low (%d) must be < high (%d)" % (low, high))
    name = "int64" if dtype is None else _dt.name(dtype)
    if name not in ("int32", "int64"):
        raise TypeError("randint: dtype must be int32 or int64, got %s" % name)
    size = _size(size, f)
    return _scalar(np_op("_random_randint", low=int(low), high=int(high), shape=size or (1,), dtype=name), size)


def _count(size):
    n = 1
    for d in size:
        n *= d
    return n


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):  # pylint: disable=unused-argument
    """Draws from arange(a) (a an int: int64 values) or from the elements of a 1-d
    symbol a, uniformly or with probabilities p (a 1-d Symbol). replace=False draws
    without replacement for an int a and no p (the first of a shuffled arange); the
    other replace=False cases raise NotImplementedError in a traced graph."""
    f = "choice"
    size = _size(size, f)
    shape = size or (1,)
    if isinstance(a, Symbol):
        if not replace:
            raise NotImplementedError("choice: replace=False needs the int population size in a traced graph")
        n = None
    elif isinstance(a, numbers.Integral) and not isinstance(a, bool):
        if a <= 0:
            raise ValueError("choice: a must be greater than 0 unless no samples are taken")
        n = int(a)
    else:
        raise TypeError("choice: a must be an int or a Symbol in a traced graph, got %s" % type(a).__name__)
    if p is not None and not isinstance(p, Symbol):
        raise NotImplementedError("choice: p must be a Symbol in a traced graph, got %s" % type(p).__name__)
    if p is None and n is None:
        # a Symbol population drawn uniformly: p = 1/len(a) each, from a's own length
        ones = np_op("_npx_cast", np_op("ones_like", a), dtype="float32")
        p = np_op("broadcast_div", ones, np_op("sum", ones))
    if p is not None:
        if not replace:
            raise NotImplementedError("choice: replace=False with p is not available in a traced graph")
        idx = np_op("_npx_cast", np_op("_sample_multinomial", p, shape=shape), dtype="int64")
    elif not replace:
        if _count(shape) > n:
            raise ValueError("choice: cannot take a larger sample than the population when replace=False")
        perm = np_op("_shuffle", np_op("_npi_arange", start=0, stop=n, dtype="int64"))
        idx = np_op("Reshape", np_op("slice_axis", perm, axis=0, begin=0, end=_count(shape)), shape=shape)
    else:
        idx = np_op("_random_randint", low=0, high=n, shape=shape, dtype="int64")
    return _scalar(idx if isinstance(a, numbers.Integral) else np_op("take", a, idx), size)


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):  # pylint: disable=unused-argument
    """mean + z @ L^T, z ~ N(0, I), L = cholesky(cov), for a 1-d mean symbol and a 2-d
    cov symbol; the draws have shape size + mean's shape."""
    f = "multivariate_normal"
    for arg, v in (("mean", mean), ("cov", cov)):
        if not isinstance(v, Symbol):
            raise TypeError("%s: %s must be a Symbol in a traced graph, got %s" % (f, arg, type(v).__name__))
    size = _size(size, f) or ()
    # mean as (1, ..., 1, d), then broadcast to size + (d,): broadcast_to's 0 keeps an axis.
    m = np_op("broadcast_to", np_op("Reshape", mean, shape=(1,) * len(size) + (-1,)), shape=size + (0,)) \
        if size else mean
    z = np_op("_random_normal_like", np_op("zeros_like", m))
    chol = np_op("_linalg_potrf", cov, lower=True)
    return np_op("_npi_add", m, np_op("dot", z, chol, transpose_b=True))


def shuffle(x):
    """x with its first axis shuffled (``_shuffle``): returned, where MXNet's symbolic
    shuffle writes into x and returns None (Note [Traced samplers])."""
    if not isinstance(x, Symbol):
        raise TypeError("shuffle: x must be a Symbol, got %s" % type(x).__name__)
    return np_op("_shuffle", x)
