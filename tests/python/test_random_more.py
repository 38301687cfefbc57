"""weft.nd.random / weft.sym.random / weft.random as MXNet 1.x's mx.nd.random:
numbers dispatch to _random_<d>, NDArrays to _sample_<d>; the *_like samplers,
randn, multinomial, shuffle; reproducibility under weft.random.seed; shape
inference of the array-parameter samplers; the generator surviving a failed
call. Operator-level cases: tests/python/op_cases/random_more.py."""
import numpy as np
import pytest
from scipy import stats

import weft
from op_cases.random_more import check_sample_stats

F32, F64 = np.float32, np.float64


def _seeded(fn, seed=7):
    weft.random.seed(seed)
    return fn().asnumpy()


@pytest.mark.parametrize("name, args, ref", [
    ("exponential", {"scale": 0.5}, ("exponential", 2.0)),
    ("gamma", {"alpha": 2.0, "beta": 3.0}, ("gamma", 2.0, 3.0)),
    ("poisson", {"lam": 5.0}, ("poisson", 5.0)),
    ("negative_binomial", {"k": 4, "p": 0.3}, ("negative_binomial", 4, 0.3)),
    ("generalized_negative_binomial", {"mu": 3.0, "alpha": 0.2}, ("generalized_negative_binomial", 3.0, 0.2)),
    ("uniform", {"low": -1.0, "high": 2.0}, ("uniform", -1.0, 2.0)),
    ("normal", {"loc": 1.0, "scale": 2.0}, ("normal", 1.0, 2.0)),
])
def test_scalar_parameters_at_a_fixed_seed(name, args, ref):
    fn = getattr(weft.nd.random, name)
    x = _seeded(lambda: fn(shape=(30000,), **args))
    assert x.shape == (30000,) and x.dtype == F32
    check_sample_stats(ref[0], x, *ref[1:])
    np.testing.assert_array_equal(x, _seeded(lambda: fn(shape=(30000,), **args)))
    assert getattr(weft.random, name) is fn


def test_default_shape_is_one_sample():
    assert weft.nd.random.exponential().shape == (1,)
    assert weft.nd.random.gamma(2.0, 1.0, shape=3).shape == (3,)


@pytest.mark.parametrize("name, params, sampler", [
    ("exponential", ([1.0, 4.0],), None),
    ("gamma", ([2.0, 0.5], [1.0, 3.0]), "gamma"),
    ("poisson", ([1.0, 20.0],), "poisson"),
    ("negative_binomial", ([3.0, 10.0], [0.4, 0.8]), "negative_binomial"),
    ("generalized_negative_binomial", ([2.0, 5.0], [0.5, 0.1]), "generalized_negative_binomial"),
    ("uniform", ([0.0, 2.0], [1.0, 5.0]), "uniform"),
    ("normal", ([0.0, -3.0], [1.0, 0.5]), "normal"),
])
def test_array_parameters_run_the_sample_ops(name, params, sampler):
    arrays = [weft.nd.array(np.array(p, F64), dtype=F64) for p in params]
    x = getattr(weft.nd.random, name)(*arrays, shape=(20000,), dtype="float64").asnumpy()
    assert x.shape == (2, 20000) and x.dtype == F64
    assert getattr(weft.nd.random, name)(*arrays).dtype == F32  # dtype None: float32, as MXNet
    for i in range(2):
        if name == "exponential":  # the binding passes the rate 1/scale
            check_sample_stats("exponential", x[i], 1.0 / params[0][i])
        else:
            check_sample_stats(sampler, x[i], *[p[i] for p in params])


def test_mixed_parameter_types_are_refused():
    with pytest.raises(weft.base.ArgumentTypeError, match="same type"):
        weft.nd.random.gamma(weft.nd.array([1.0]), 2.0)
    with pytest.raises(weft.base.ArgumentTypeError, match="NDArray or numbers"):
        weft.nd.random.normal("a", 1.0)


def test_randn_and_out():
    x = weft.nd.random.randn(300, 200, loc=2.0, scale=0.5).asnumpy()
    assert x.shape == (300, 200)
    check_sample_stats("normal", x.ravel(), 2.0, 0.5)
    out = weft.nd.zeros((4, 5), dtype="float64")
    weft.nd.random.poisson(3.0, out=out)
    assert out.asnumpy().dtype == F64 and np.all(out.asnumpy() == np.round(out.asnumpy()))


def test_like_samplers():
    data = weft.nd.zeros((100, 300), dtype="float64")
    for name, kw, ref in [("uniform_like", {"low": 1.0, "high": 2.0}, ("uniform", 1.0, 2.0)),
                          ("normal_like", {}, ("normal", 0.0, 1.0)),
                          ("exponential_like", {"lam": 2.0}, ("exponential", 2.0)),
                          ("gamma_like", {"alpha": 3.0}, ("gamma", 3.0, 1.0)),
                          ("poisson_like", {"lam": 2.0}, ("poisson", 2.0)),
                          ("negative_binomial_like", {"k": 2, "p": 0.5}, ("negative_binomial", 2, 0.5)),
                          ("generalized_negative_binomial_like", {"mu": 2.0, "alpha": 0.5},
                           ("generalized_negative_binomial", 2.0, 0.5))]:
        x = getattr(weft.nd.random, name)(data, **kw).asnumpy()
        assert x.shape == (100, 300) and x.dtype == F64, name
        check_sample_stats(ref[0], x.ravel(), *ref[1:])


def test_multinomial_and_shuffle_bindings():
    probs = weft.nd.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    s, logp = weft.nd.random.multinomial(probs, shape=100, get_prob=True)
    s = s.asnumpy()
    assert s.shape == (2, 100) and s.dtype == np.int32
    assert set(np.unique(s[0])) <= {0, 1} and np.all(s[1] == 2)
    np.testing.assert_allclose(logp.asnumpy()[0], np.log(0.5), rtol=1e-6)
    assert weft.nd.random.multinomial(weft.nd.array([0.3, 0.7])).shape == (1,)  # as MXNet
    x = weft.nd.array(np.arange(10, dtype=F32))
    y = weft.nd.random.shuffle(x).asnumpy()
    assert sorted(y.tolist()) == list(range(10))


def test_symbol_random_dispatch():
    mu = weft.sym.Variable("mu")
    sigma = weft.sym.Variable("sigma")
    s = weft.sym.random.normal(mu, sigma, shape=(3,))
    assert s.list_arguments() == ["mu", "sigma"]
    _, outs, _ = s.infer_shape(mu=(2,), sigma=(2,))
    assert tuple(outs[0]) == (2, 3)
    r = weft.sym.random.poisson(lam=2.0, shape=(4, 4))
    _, outs, _ = r.infer_shape()
    assert tuple(outs[0]) == (4, 4)
    m = weft.sym.random.multinomial(weft.sym.Variable("p"), shape=(5,))
    assert len(m.list_outputs()) == 2  # get_prob defaults to True symbolically, as MXNet's


def test_sample_shape_inference_backward():
    """_sample_<d> infers the parameters' shape back from a known output shape."""
    lam = weft.sym.Variable("lam")
    s = weft.sym._sample_exponential(lam, shape=(4, 5))
    args, outs, _ = s.infer_shape(lam=(3, 2))
    assert tuple(outs[0]) == (3, 2, 4, 5)
    y = weft.sym.Variable("y")
    loss = weft.sym.elemwise_add(s, y)
    args, outs, _ = loss.infer_shape_partial(y=(3, 2, 4, 5))
    assert tuple(args[0]) == (3, 2), args


def test_failed_call_keeps_the_generator_usable():
    """A rejected call fails before anything is pushed, so later draws still work."""
    with pytest.raises(weft.base.InvalidArgumentError, match="_random_exponential.*'lam'"):
        weft.nd.random.exponential(scale=-1.0).asnumpy()
    with pytest.raises(weft.base.InvalidArgumentError, match="_random_negative_binomial.*'p'"):
        weft.nd.random.negative_binomial(2, 1.5)
    assert np.isfinite(weft.nd.random.gamma(2.0, 2.0, shape=(10,)).asnumpy()).all()
    # p = 0 is in MXNet's range: no success ever, an infinite count
    assert np.isinf(weft.nd.random.negative_binomial(2, 0.0, shape=(3,)).asnumpy()).all()


def test_shuffle_permutations_are_uniform():
    """Each of the 6 orders of 3 rows comes up about equally often."""
    weft.random.seed(4321)
    x = weft.nd.array(np.arange(3, dtype=F32))
    counts = {}
    for _ in range(1200):
        k = tuple(weft.nd.random.shuffle(x).asnumpy().astype(int))
        counts[k] = counts.get(k, 0) + 1
    assert len(counts) == 6 and all(abs(c - 200) < 60 for c in counts.values()), counts


def test_pdf_dirichlet_single_vector():
    """A single k-vector sample gives a density of shape (1,), as MXNet."""
    x = np.array([0.2, 0.3, 0.5], F64)
    a = np.array([1.5, 2.0, 2.5], F64)
    y = weft.nd.random_pdf_dirichlet(weft.nd.array(x, dtype=F64), weft.nd.array(a, dtype=F64)).asnumpy()
    assert y.shape == (1,)
    np.testing.assert_allclose(y, [stats.dirichlet.pdf(x, a)], rtol=1e-10)


def test_rand_zipfian():
    """mx.nd.contrib.rand_zipfian (a Python function in MXNet too): the draws follow
    P(c) = log((c + 2) / (c + 1)) / log(range_max + 1); the expected counts are
    num_sampled times those probabilities."""
    weft.random.seed(5)
    true = weft.nd.array([0, 3, 9])
    n, rmax = 40000, 10
    s, ect, ecs = weft.nd.contrib.rand_zipfian(true, n, rmax)
    s = s.asnumpy()
    assert s.dtype == np.int64 and s.shape == (n,) and s.min() >= 0 and s.max() < rmax
    p = np.log((np.arange(rmax) + 2.0) / (np.arange(rmax) + 1.0)) / np.log(rmax + 1)
    assert abs(p.sum() - 1) < 1e-12  # exp(U) - 1 lies in [0, range_max): the modulo only guards rounding
    freq = np.bincount(s, minlength=rmax) / n
    assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / n)), (freq, p)
    np.testing.assert_allclose(ect.asnumpy(), n * np.log(np.array([2.0, 5.0, 11.0]) / [1.0, 4.0, 10.0])
                               / np.log(rmax + 1), rtol=1e-12)
    np.testing.assert_allclose(ecs.asnumpy(), n * np.log((s + 2.0) / (s + 1.0)) / np.log(rmax + 1), rtol=1e-12)
    sym = weft.sym.contrib.rand_zipfian(weft.sym.Variable("t"), 4, 5)
    assert len(sym) == 3


def test_symbolic_executor_samples_and_differentiates_pdf():
    """_sample_normal draws inside a bound executor; _random_pdf_normal's gradient through the graph passes."""
    mu, sigma, x = weft.sym.Variable("mu"), weft.sym.Variable("sigma"), weft.sym.Variable("x")
    ex = weft.sym.random.normal(mu, sigma, shape=(2000,)).bind(
        weft.cpu(), {"mu": weft.nd.array([0.0, 10.0]), "sigma": weft.nd.array([1.0, 0.1])})
    y = ex.forward()[0].asnumpy()
    assert y.shape == (2, 2000) and abs(y[0].mean()) < 0.15 and abs(y[1].mean() - 10) < 0.015
    p = weft.sym.random_pdf_normal(x, mu, sigma, is_log=True)
    ex = p.simple_bind(weft.cpu(), x=(2, 3), mu=(2,), sigma=(2,))
    ex.arg_dict["x"][:] = weft.nd.ones((2, 3))
    ex.arg_dict["mu"][:] = weft.nd.array([0.0, 1.0])
    ex.arg_dict["sigma"][:] = weft.nd.array([1.0, 2.0])
    out = ex.forward(is_train=True)[0].asnumpy()
    np.testing.assert_allclose(out, stats.norm.logpdf(np.ones((2, 3)), [[0.0], [1.0]], [[1.0], [2.0]]), rtol=1e-6)
    ex.backward(weft.nd.ones((2, 3)))
    np.testing.assert_allclose(ex.grad_dict["mu"].asnumpy(), [3.0, 0.0], atol=1e-6)  # sum (x - mu) / sigma^2
    np.testing.assert_allclose(ex.grad_dict["sigma"].asnumpy(), [0.0, -1.5], atol=1e-6)  # ((x-mu)^2 - s^2) / s^3
    np.testing.assert_allclose(ex.grad_dict["x"].asnumpy(), [[-1.0] * 3, [0.0] * 3], atol=1e-6)  # (mu - x) / s^2
