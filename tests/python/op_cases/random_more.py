"""Cases of the random family beyond uniform/normal/randint (core/op/random):
the samplers _random_<d>, _random_<d>_like and _sample_<d> (exponential, gamma,
poisson, negative binomials; uniform and normal for the _like/_sample forms),
_sample_multinomial and its backward op, _shuffle, and the densities
_random_pdf_<d> with their backward ops.

Samplers are checked by statistics at a fixed seed (the moments, plus a
Kolmogorov-Smirnov or a frequency test against scipy.stats), by reproducibility
under weft.random.seed, and by rejecting bad parameters with a message naming
the op and the argument. Densities are checked against scipy.stats; their
gradients (the backward ops, and autograd through the forward op) against
central finite differences of the reference."""
import numpy as np
import pytest
from scipy import special, stats

from .case import Case

F32, F64 = np.float32, np.float64
SEED = 4321


def _weft():
    import weft  # pylint: disable=import-outside-toplevel
    return weft


def _draw(op, xs, attrs, seed):
    weft = _weft()
    weft.random.seed(seed)
    ins = [weft.nd.array(x, dtype=x.dtype) for x in xs]
    a = getattr(weft.nd, op)(*ins, **attrs)
    b = getattr(weft.nd, op)(*ins, **attrs)
    first = lambda r: (r[0] if isinstance(r, (list, tuple)) else r).asnumpy()  # noqa: E731
    return first(a), first(b)


def check_reproducible(op, xs, attrs):
    """Two draws after seed(s) equal two draws after seed(s) again; the second
    draw differs from the first, and another seed gives other values."""
    a1, b1 = _draw(op, xs, attrs, 1234)
    a2, b2 = _draw(op, xs, attrs, 1234)
    np.testing.assert_array_equal(a1, a2, err_msg=op + ": not reproducible under one seed")
    np.testing.assert_array_equal(b1, b2, err_msg=op + ": not reproducible under one seed")
    assert not np.array_equal(a1, b1), op + ": consecutive draws must differ"
    c, _ = _draw(op, xs, attrs, 99)
    assert not np.array_equal(a1, c), op + ": another seed must give other values"


def check_rejects(op, xs, attrs, match):
    """op(*xs, **attrs) fails with a message naming op and the argument."""
    weft = _weft()
    with pytest.raises(weft.base.WeftError, match=match) as info:
        ins = [weft.nd.array(x, dtype=x.dtype) for x in xs]
        r = getattr(weft.nd, op)(*ins, **attrs)
        (r[0] if isinstance(r, (list, tuple)) else r).asnumpy()
    assert op in str(info.value), "%s: the error does not name the op: %s" % (op, info.value)


# ---- the distributions: scipy frozen distributions, parameters as MXNet's ---------------------------

def dist(name, a, b=None):
    """scipy.stats distribution of MXNet's sampler `name` with parameters (a, b)."""
    if name == "uniform":
        return stats.uniform(loc=a, scale=b - a)
    if name == "normal":
        return stats.norm(loc=a, scale=b)
    if name == "exponential":
        return stats.expon(scale=1.0 / a)
    if name == "gamma":
        return stats.gamma(a, scale=b)
    if name == "poisson":
        return stats.poisson(a)
    if name == "negative_binomial":
        return stats.nbinom(a, b)
    if name == "generalized_negative_binomial":
        return stats.nbinom(1.0 / b, 1.0 / (1.0 + a * b))
    raise ValueError(name)


DISCRETE = {"poisson", "negative_binomial", "generalized_negative_binomial"}


def check_sample_stats(name, x, a, b=None):
    """x (1-D, many draws) is distributed as dist(name, a, b): mean within 5
    standard errors, variance within 12%, and a KS (continuous) or frequency
    (discrete) test against scipy."""
    x = np.asarray(x, dtype=F64).ravel()
    d = dist(name, a, b)
    n = x.size
    mean, var = d.mean(), d.var()
    assert abs(x.mean() - mean) < 5 * np.sqrt(var / n) + 1e-12, (name, a, b, x.mean(), mean)
    assert abs(x.var() - var) < 0.12 * var + 1e-12, (name, a, b, x.var(), var)
    if name in DISCRETE:
        assert np.all(x == np.round(x)) and x.min() >= 0, (name, "non-integer or negative counts")
        for v in range(int(max(0, mean - 2 * np.sqrt(var))), int(mean + 2 * np.sqrt(var)) + 1):
            p = d.pmf(v)
            assert abs(np.mean(x == v) - p) < 5 * np.sqrt(p * (1 - p) / n) + 1e-3, (name, v, np.mean(x == v), p)
    else:
        assert stats.kstest(x, d.cdf).pvalue > 1e-4, (name, a, b, stats.kstest(x, d.cdf))


# ---- _random_<d> ------------------------------------------------------------------------------------

def scalar_check(name, a, b=None, dtype="float32"):
    op = "_random_" + name

    def check(outs, _xs, attrs):
        x = outs[0]
        assert x.dtype == np.dtype(dtype), (op, x.dtype)
        assert x.shape == tuple(attrs["shape"]), (op, x.shape)
        check_sample_stats(name, x, a, b)
        check_reproducible(op, [], attrs)
    return check


def scalar_case(name, params, shape=(20000,), dtype=None):
    attrs = dict(params, shape=shape)
    if dtype:
        attrs["dtype"] = dtype
    vals = list(params.values())
    return Case(inputs=[], attrs=attrs, check=scalar_check(name, *vals, dtype=dtype or "float32"),
                name="%s %s" % (params, dtype or ""))


SCALAR_BAD = {
    "_random_exponential": [({"lam": -1.0}, "'lam'"), ({"lam": 0.0}, "'lam'")],
    "_random_gamma": [({"alpha": -1.0}, "'alpha'"), ({"beta": 0.0}, "'beta'")],
    "_random_poisson": [({"lam": -0.5}, "'lam'")],
    "_random_negative_binomial": [({"p": 1.5}, "'p'"), ({"p": -0.1}, "'p'"), ({"k": -1}, "'k'")],
    "_random_generalized_negative_binomial": [({"mu": -1.0}, "'mu'"), ({"alpha": -0.5}, "'alpha'")],
}


def with_rejections(case, op, bad, xs=()):
    """Adds to case.check: each (attrs, match) of `bad` is rejected naming op and the argument."""
    inner = case.check

    def check(outs, inputs, attrs):
        inner(outs, inputs, attrs)
        for extra, match in bad:
            check_rejects(op, list(xs), dict(attrs, **extra), match)
    case.check = check
    return case


CASES = {
    "_random_exponential": [
        with_rejections(scalar_case("exponential", {"lam": 2.5}), "_random_exponential",
                        SCALAR_BAD["_random_exponential"]),
        scalar_case("exponential", {"lam": 0.5}, shape=(100, 200), dtype="float64"),
        scalar_case("exponential", {"lam": 1.0}, shape=(20000,), dtype="float16"),
    ],
    "_random_gamma": [
        with_rejections(scalar_case("gamma", {"alpha": 3.0, "beta": 0.5}), "_random_gamma",
                        SCALAR_BAD["_random_gamma"]),
        scalar_case("gamma", {"alpha": 0.4, "beta": 2.0}, dtype="float64"),  # alpha < 1: the boosted branch
        scalar_case("gamma", {"alpha": 1.0, "beta": 1.0}, shape=(100, 200)),
    ],
    "_random_poisson": [
        with_rejections(scalar_case("poisson", {"lam": 4.0}), "_random_poisson", SCALAR_BAD["_random_poisson"]),
        scalar_case("poisson", {"lam": 30.0}, dtype="float64"),  # the rejection branch (lam >= 12)
        scalar_case("poisson", {"lam": 0.3}, shape=(100, 200)),
    ],
    "_random_negative_binomial": [
        with_rejections(scalar_case("negative_binomial", {"k": 3, "p": 0.4}), "_random_negative_binomial",
                        SCALAR_BAD["_random_negative_binomial"]),
        scalar_case("negative_binomial", {"k": 20, "p": 0.7}, shape=(50000,), dtype="float64"),
    ],
    "_random_generalized_negative_binomial": [
        with_rejections(scalar_case("generalized_negative_binomial", {"mu": 2.0, "alpha": 0.3}, shape=(50000,)),
                        "_random_generalized_negative_binomial",
                        SCALAR_BAD["_random_generalized_negative_binomial"]),
        scalar_case("generalized_negative_binomial", {"mu": 6.0, "alpha": 1.5}, shape=(50000,), dtype="float64"),
    ],
}


# ---- _random_<d>_like -------------------------------------------------------------------------------

LIKE_PARAMS = {
    "uniform": ({"low": -1.0, "high": 3.0}, {"low": 4.0}, "'low'"),
    "normal": ({"loc": 1.5, "scale": 0.5}, {"scale": -1.0}, "'scale'"),
    "exponential": ({"lam": 3.0}, {"lam": -2.0}, "'lam'"),
    "gamma": ({"alpha": 2.0, "beta": 1.5}, {"beta": -1.0}, "'beta'"),
    "poisson": ({"lam": 7.0}, {"lam": -1.0}, "'lam'"),
    "negative_binomial": ({"k": 4, "p": 0.5}, {"p": 2.0}, "'p'"),
    "generalized_negative_binomial": ({"mu": 3.0, "alpha": 0.5}, {"alpha": -1.0}, "'alpha'"),
}


def like_check(name, params):
    op = "_random_%s_like" % name

    def check(outs, xs, attrs):
        x = outs[0]
        assert x.shape == xs[0].shape and x.dtype == xs[0].dtype, (op, x.shape, x.dtype)
        check_sample_stats(name, x, *params.values())
        check_reproducible(op, xs, attrs)
    return check


def like_cases(name):
    params, bad, match = LIKE_PARAMS[name]
    op = "_random_%s_like" % name
    base = Case(inputs=[np.zeros((200, 150), F32)], attrs=dict(params), check=like_check(name, params), name="f32")
    return [
        with_rejections(base, op, [(bad, match)], xs=[np.zeros((200, 150), F32)]),
        Case(inputs=[np.ones((30000,), F64)], attrs=dict(params), check=like_check(name, params), name="f64"),
    ]


for _n in LIKE_PARAMS:
    CASES["_random_%s_like" % _n] = like_cases(_n)


# ---- _sample_<d> ------------------------------------------------------------------------------------

SAMPLE_PARAMS = {  # one row per distribution; valid parameter sets; an invalid one and the input it names
    "uniform": ([[0.0, 1.0], [-2.0, 5.0]], ([3.0], [1.0]), "'low'"),
    "normal": ([[0.0, 1.0], [3.0, 0.25]], ([0.0], [-1.0]), "'sigma'"),
    "exponential": ([[1.0], [4.0]], ([-1.0],), "'lam'"),
    "gamma": ([[2.5, 0.7], [0.5, 3.0]], ([1.0], [-1.0]), "'beta'"),
    "poisson": ([[1.0], [15.0]], ([-3.0],), "'lam'"),
    "negative_binomial": ([[20.0, 0.4], [3.0, 0.77]], ([2.0], [1.5]), "'p'"),
    "generalized_negative_binomial": ([[2.0, 1.0], [2.5, 0.1]], ([-2.0], [0.5]), "'mu'"),
}


def sample_inputs(sets, dtype):
    return [np.array([s[k] for s in sets], dtype=dtype) for k in range(len(sets[0]))]


def sample_check(name, sets, n, out_dtype):
    op = "_sample_" + name

    def check(outs, xs, attrs):
        x = outs[0]
        assert x.shape == xs[0].shape + tuple(attrs["shape"]), (op, x.shape)
        assert x.dtype == np.dtype(out_dtype), (op, x.dtype)
        for i, s in enumerate(sets):
            check_sample_stats(name, x[i].ravel()[:n], *s)
        check_reproducible(op, xs, attrs)
    return check


def sample_cases(name):
    sets, bad, match = SAMPLE_PARAMS[name]
    op = "_sample_" + name
    n = 20000
    ok = sample_inputs(sets, F32)
    base = Case(inputs=ok, attrs={"shape": (n,)}, check=sample_check(name, sets, n, "float32"), name="f32")
    bad_in = [np.asarray(v, F32) for v in bad]
    inner = base.check

    def check(outs, xs, attrs):
        inner(outs, xs, attrs)
        # A bad parameter value is only seen by the kernel, which must not throw (the failure would stay
        # on the device generator): its distribution draws NaN.
        weft = _weft()
        y = getattr(weft.nd, op)(*[weft.nd.array(v) for v in bad_in], shape=(3,)).asnumpy()
        assert y.shape == (1, 3) and np.all(np.isnan(y)), (op, match, y)
        if len(ok) > 1:  # parameters of different shapes
            check_rejects(op, [ok[0], np.ones((3,), F32)], {"shape": (2,)}, "'%s'" % _SECOND[name])
    base.check = check
    return [
        base,
        Case(inputs=sample_inputs(sets, F64), attrs={"shape": (100, 200), "dtype": "float32"},
             check=sample_check(name, sets, n, "float32"), name="f64 in, float32 out, 2-d shape"),
        Case(inputs=sample_inputs(sets, F64), attrs={"shape": (n,), "dtype": "float64"},
             check=sample_check(name, sets, n, "float64"), name="f64"),
        Case(inputs=sample_inputs(sets, F64), attrs={"shape": (n,)}, check=sample_check(name, sets, n, "float32"),
             name="f64 in, dtype None: float32 out, as MXNet"),
    ]


_SECOND = {"uniform": "high", "normal": "sigma", "gamma": "beta", "negative_binomial": "p",
           "generalized_negative_binomial": "alpha"}

for _n in SAMPLE_PARAMS:
    CASES["_sample_" + _n] = sample_cases(_n)
    _sets = SAMPLE_PARAMS[_n][0]
    if all(float(v).is_integer() for s in _sets for v in s):  # integer parameters are accepted, as MXNet
        CASES["_sample_" + _n].append(Case(inputs=sample_inputs(_sets, np.int32), attrs={"shape": (20000,)},
                                           check=sample_check(_n, _sets, 20000, "float32"), name="int32 params"))




# ---- _sample_multinomial ----------------------------------------------------------------------------

PROBS = np.array([[0.0, 0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1, 0.0], [0.2, 0.2, 0.2, 0.2, 0.2]])


def multinomial_check(n, dtype="int32", get_prob=False):
    def check(outs, xs, attrs):
        s = outs[0]
        assert s.dtype == np.dtype(dtype), s.dtype
        assert s.shape == xs[0].shape[:-1] + tuple(attrs.get("shape", ())), s.shape
        data = xs[0].reshape(-1, xs[0].shape[-1]).astype(F64)
        flat = s.reshape(data.shape[0], -1).astype(np.int64)
        for r in range(data.shape[0]):
            freq = np.bincount(flat[r], minlength=data.shape[1]) / flat.shape[1]
            se = np.sqrt(data[r] * (1 - data[r]) / flat.shape[1])
            assert np.all(np.abs(freq - data[r]) <= 5 * se + 1e-12), (r, freq, data[r])
        if get_prob:
            assert len(outs) == 2 and outs[1].dtype == xs[0].dtype
            want = np.log(np.take_along_axis(data, flat, axis=1)).reshape(s.shape)
            np.testing.assert_allclose(outs[1].astype(F64), want, rtol=1e-5, atol=1e-6)
        else:
            assert len(outs) == 1
        check_reproducible("_sample_multinomial", xs, attrs)
    return check


def multinomial_grad_check(outs, xs, attrs):
    """The head gradient on the log-probabilities reaches data as sum og / p at the drawn outcomes."""
    multinomial_check(attrs["shape"][0], get_prob=True)(outs, xs, attrs)
    weft = _weft()
    data = weft.nd.array(xs[0], dtype=xs[0].dtype)
    data.attach_grad()
    og = np.random.default_rng(3).random((xs[0].shape[0],) + tuple(attrs["shape"]))
    with weft.autograd.record():
        s, logp = weft.nd._sample_multinomial(data, **attrs)
    logp.backward(weft.nd.array(og, dtype=xs[0].dtype))
    s = s.asnumpy().astype(np.int64)
    want = np.zeros(xs[0].shape)
    for r in range(s.shape[0]):
        for j in range(s.shape[1]):
            want[r, s[r, j]] += og[r, j] / xs[0][r, s[r, j]]
    np.testing.assert_allclose(data.grad.asnumpy(), want, rtol=1e-4, atol=1e-6)
    check_rejects("_sample_multinomial", [np.float32(0.5) * np.ones((), F32)], {}, "'data'")
    check_rejects("_sample_multinomial", [xs[0].astype(np.int32)], {}, "'data'")


def multinomial_backward_ref(og, data, sample):
    g = np.zeros(data.shape, F64)
    for r in range(data.shape[0]):
        for j in range(sample.shape[1]):
            g[r, sample[r, j]] += og[r, j] / data[r, sample[r, j]]
    return g.astype(data.dtype)


CASES["_sample_multinomial"] = [
    Case(inputs=[PROBS.astype(F32)], attrs={"shape": (4000,), "get_prob": True}, check=multinomial_grad_check,
         name="get_prob, gradient"),
    Case(inputs=[PROBS.astype(F64)], attrs={"shape": (20, 200), "dtype": "float64"},
         check=multinomial_check(4000, "float64"), name="float64 outcomes"),
    Case(inputs=[PROBS[0].astype(F32)], attrs={"shape": (5000,), "dtype": "uint8"},
         check=multinomial_check(5000, "uint8"), name="one distribution"),
]
CASES["_backward_sample_multinomial"] = [
    Case(inputs=lambda rng: [rng.random((3, 6)), PROBS + 0.05, rng.integers(0, 5, size=(3, 6)).astype(np.int32)],
         ref=multinomial_backward_ref, rtol=1e-6, atol=1e-8, name="float64"),
]


# ---- _shuffle ---------------------------------------------------------------------------------------

def shuffle_check(outs, xs, _attrs):
    x, y = xs[0], outs[0]
    assert y.shape == x.shape and y.dtype == x.dtype
    rows = x.reshape(x.shape[0], -1)
    got = y.reshape(y.shape[0], -1)
    # every output row is an input row, each used once
    idx = [int(np.flatnonzero((rows == r).all(axis=1))[0]) for r in got]
    assert sorted(idx) == list(range(x.shape[0])), idx
    check_reproducible("_shuffle", xs, {})


CASES["_shuffle"] = [
    Case(inputs=[np.arange(60, dtype=F32).reshape(20, 3)], check=shuffle_check, name="rows"),
    Case(inputs=[np.arange(50, dtype=np.int32)], check=shuffle_check, name="1-d int32"),
    Case(inputs=[np.arange(120, dtype=F64).reshape(10, 3, 4)], check=shuffle_check, name="3-d"),
]




# ---- _random_pdf_<d> --------------------------------------------------------------------------------

def _lead(p, sample):
    """Parameters p broadcast against sample (p has sample's leading shape)."""
    return p.reshape(p.shape + (1,) * (sample.ndim - p.ndim))


def pdf_np(name, x, a, b=None):
    """The density by scipy.stats (MXNet's parametrisations: gamma beta is a rate here)."""
    x = x.astype(F64)
    a = _lead(a.astype(F64), x)
    b = None if b is None else _lead(b.astype(F64), x)
    if name == "uniform":
        return np.broadcast_to(1.0 / (b - a), x.shape)
    if name == "normal":
        return stats.norm.pdf(x, a, b)
    if name == "gamma":
        return stats.gamma.pdf(x, a, scale=1.0 / b)
    if name == "exponential":
        return stats.expon.pdf(x, scale=1.0 / a)
    if name == "poisson":
        return stats.poisson.pmf(x, a)
    if name == "negative_binomial":
        return stats.nbinom.pmf(x, a, b)
    if name == "generalized_negative_binomial":
        return stats.nbinom.pmf(x, 1.0 / b, 1.0 / (1.0 + a * b))
    raise ValueError(name)


def dirichlet_np(x, alpha):
    x = x.astype(F64)
    alpha = alpha.astype(F64)
    lead = alpha.shape[:-1]
    a = alpha.reshape(lead + (1,) * (x.ndim - alpha.ndim) + alpha.shape[-1:])
    lp = np.sum((a - 1) * np.log(x), axis=-1) + special.gammaln(a.sum(-1)) - special.gammaln(a).sum(-1)
    out = np.exp(lp)
    return out.reshape((1,)) if x.ndim == 1 else out


def pdf_ref(name):
    def ref(*xs, is_log=False):
        y = dirichlet_np(*xs) if name == "dirichlet" else pdf_np(name, *xs)
        return (np.log(y) if is_log else y).astype(xs[0].dtype)
    return ref


SMOOTH_SAMPLE = {"normal", "gamma", "exponential", "dirichlet"}  # MXNet gives the sample a gradient


def _fd_grads(f, xs, og, h=1e-6, skip=()):
    """Central differences of sum(og * f(*xs)) w.r.t. every input (zeros for the inputs in skip)."""
    grads = []
    for k in range(len(xs)):
        g = np.zeros(xs[k].shape)
        if k in skip:
            grads.append(g)
            continue
        for idx in np.ndindex(xs[k].shape):
            up = [x.astype(F64).copy() for x in xs]
            dn = [x.astype(F64).copy() for x in xs]
            up[k][idx] += h
            dn[k][idx] -= h
            g[idx] = np.sum(og * (f(*up) - f(*dn))) / (2 * h)
        grads.append(g)
    return grads


def pdf_grads_ref(name, xs, og, is_log):
    fwd = pdf_ref(name)
    f = lambda *v: fwd(*v, is_log=is_log).astype(F64)  # noqa: E731
    # MXNet gives the uniform's and the discrete distributions' samples no gradient.
    return _fd_grads(f, xs, og, skip=() if name in SMOOTH_SAMPLE else (0,))


def pdf_grad_check(name):
    """Autograd through _random_pdf_<name> equals central differences of the scipy reference."""
    op = "_random_pdf_" + name

    def check(outs, xs, attrs):
        weft = _weft()
        xs64 = [x.astype(F64) for x in xs]
        og = np.random.default_rng(11).random(outs[0].shape)
        ins = [weft.nd.array(x, dtype=F64) for x in xs64]
        for v in ins:
            v.attach_grad()
        with weft.autograd.record():
            y = getattr(weft.nd, op)(*ins, **attrs)
        y.backward(weft.nd.array(og, dtype=F64))
        want = pdf_grads_ref(name, xs64, og, attrs.get("is_log", False))
        for k, (v, w) in enumerate(zip(ins, want)):
            np.testing.assert_allclose(v.grad.asnumpy(), w, rtol=2e-4, atol=1e-6,
                                       err_msg="%s: gradient of input %d vs finite differences" % (op, k))
        # the parameters must have the sample's leading shape
        bad = [xs[0]] + [np.ones((7,) + x.shape[1:], x.dtype) for x in xs[1:]]
        check_rejects(op, bad, attrs, "'%s'" % PDF_INPUTS[name][0])
        check_rejects(op, [xs[0].astype(np.int32)] + list(xs[1:]), attrs, "'sample'")
    return check


PDF_INPUTS = {"uniform": ("low", "high"), "normal": ("mu", "sigma"), "gamma": ("alpha", "beta"),
              "exponential": ("lam",), "poisson": ("lam",), "negative_binomial": ("k", "p"),
              "generalized_negative_binomial": ("mu", "alpha"), "dirichlet": ("alpha",)}


def pdf_inputs(name, dtype, pshape=(2, 3), n=4):
    """(sample, params...) with params of shape pshape and n samples per parameter set."""
    def make(rng):
        if name == "dirichlet":
            alpha = rng.uniform(0.5, 3.0, size=pshape + (3,))
            x = rng.dirichlet([1.0, 1.0, 1.0], size=pshape + (n,))
            return [x.astype(dtype), alpha.astype(dtype)]
        shape = pshape + (n,)
        if name == "uniform":
            lo = rng.uniform(-2, 0, pshape)
            hi = lo + rng.uniform(0.5, 2, pshape)
            return [(_lead(lo, np.zeros(shape)) + rng.uniform(0, 0.5, shape)).astype(dtype), lo.astype(dtype),
                    hi.astype(dtype)]
        if name == "normal":
            return [rng.normal(size=shape).astype(dtype), rng.normal(size=pshape).astype(dtype),
                    rng.uniform(0.5, 2, pshape).astype(dtype)]
        if name == "gamma":
            return [rng.uniform(0.2, 4, shape).astype(dtype), rng.uniform(0.5, 3, pshape).astype(dtype),
                    rng.uniform(0.5, 2, pshape).astype(dtype)]
        if name == "exponential":
            return [rng.uniform(0.1, 3, shape).astype(dtype), rng.uniform(0.5, 2, pshape).astype(dtype)]
        counts = rng.integers(0, 8, shape).astype(dtype)
        if name == "poisson":
            return [counts, rng.uniform(0.5, 5, pshape).astype(dtype)]
        if name == "negative_binomial":
            return [counts, rng.uniform(1, 6, pshape).astype(dtype), rng.uniform(0.2, 0.8, pshape).astype(dtype)]
        return [counts, rng.uniform(0.5, 4, pshape).astype(dtype), rng.uniform(0.2, 1.5, pshape).astype(dtype)]
    return make


def pdf_cases(name):
    ref = pdf_ref(name)
    return [
        Case(inputs=pdf_inputs(name, F32), ref=ref, rtol=2e-4, atol=1e-6, check=pdf_grad_check(name), name="f32"),
        Case(inputs=pdf_inputs(name, F64, pshape=(3,), n=5), attrs={"is_log": True}, ref=ref,
             ref_takes_attrs=True, rtol=1e-9, atol=1e-10, check=pdf_grad_check(name), name="log f64"),
        Case(inputs=pdf_inputs(name, F64, pshape=(2, 2), n=1), ref=ref, rtol=1e-9, atol=1e-12,
             name="one sample per set"),
    ]


def pdf_backward_inputs(name, is_log):
    make = pdf_inputs(name, F64, pshape=(2,), n=3)

    def inputs(rng):
        xs = make(rng)
        y = pdf_ref(name)(*xs, is_log=is_log)
        return [rng.random(y.shape)] + xs + [y]
    return inputs


def pdf_backward_ref(name, is_log):
    def ref(og, *rest):
        xs = list(rest[:-1])
        return tuple(g.astype(F64) for g in pdf_grads_ref(name, xs, og, is_log))
    return ref


for _n in PDF_INPUTS:
    CASES["_random_pdf_" + _n] = pdf_cases(_n)
    CASES["_backward_pdf_" + _n] = [
        Case(inputs=pdf_backward_inputs(_n, False), ref=pdf_backward_ref(_n, False), rtol=2e-5, atol=1e-7,
             name="pdf"),
        Case(inputs=pdf_backward_inputs(_n, True), attrs={"is_log": True}, ref=pdf_backward_ref(_n, True),
             rtol=2e-5, atol=1e-7, name="log pdf"),
    ]
