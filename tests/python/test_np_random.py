"""weft.np.random (issue 37): moments of large draws against each distribution's
mean and variance, shapes/dtypes/size, broadcasting array parameters, seed
reproducibility, autograd through loc/scale, and bad parameters."""
import math

import numpy as onp
import pytest

import weft as mx
import weft.numpy.random  # noqa: F401  # MXNet code imports the module path
from weft import np

N = 200000


def _a(x, dtype="float32"):
    return mx.nd.array(onp.asarray(x), dtype=dtype).as_np_ndarray()


def _gam(x):
    return math.gamma(x)


# (name, args, kwargs, mean, var)
MOMENTS = [
    ("uniform", (-1.0, 3.0), {}, 1.0, 16 / 12),
    ("normal", (2.0, 3.0), {}, 2.0, 9.0),
    ("lognormal", (0.5, 0.4), {}, math.exp(0.5 + 0.08), (math.exp(0.16) - 1) * math.exp(1 + 0.16)),
    ("logistic", (1.0, 2.0), {}, 1.0, 4 * math.pi ** 2 / 3),
    ("gumbel", (1.0, 2.0), {}, 1.0 + 2.0 * 0.5772156649, math.pi ** 2 / 6 * 4),
    ("exponential", (2.5,), {}, 2.5, 6.25),
    ("rayleigh", (2.0,), {}, 2.0 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4),
    ("weibull", (2.0,), {}, _gam(1.5), _gam(2.0) - _gam(1.5) ** 2),
    ("pareto", (5.0,), {}, 1 / 4.0, 5.0 / (4.0 ** 2 * 3.0)),
    ("power", (3.0,), {}, 3 / 4.0, 3.0 / (16 * 5)),
    ("gamma", (3.0, 2.0), {}, 6.0, 12.0),
    ("gamma", (0.5,), {}, 0.5, 0.5),
    ("chisquare", (4.0,), {}, 4.0, 8.0),
    ("beta", (2.0, 5.0), {}, 2 / 7, 10 / (49 * 8)),
]


@pytest.mark.parametrize("name,args,kwargs,mean,var", MOMENTS, ids=[m[0] + str(m[1]) for m in MOMENTS])
def test_moments(name, args, kwargs, mean, var):
    mx.random.seed(123)
    x = getattr(np.random, name)(*args, size=(N,), **kwargs)
    assert isinstance(x, np.ndarray) and x.shape == (N,) and x.dtype == onp.float32
    h = x.asnumpy().astype(onp.float64)
    assert onp.all(onp.isfinite(h))
    sd = math.sqrt(var)
    assert abs(h.mean() - mean) < 5 * sd / math.sqrt(N) + 1e-6, (h.mean(), mean)
    assert abs(h.var() - var) < 0.05 * var, (h.var(), var)


def test_bounds_of_bounded_distributions():
    mx.random.seed(5)
    u = np.random.uniform(2.0, 3.0, size=(10000,)).asnumpy()
    assert u.min() >= 2.0 and u.max() < 3.0
    p = np.random.power(2.0, size=(10000,)).asnumpy()
    assert p.min() >= 0 and p.max() <= 1
    b = np.random.beta(0.5, 0.5, size=(10000,)).asnumpy()
    assert b.min() >= 0 and b.max() <= 1
    assert np.random.pareto(2.0, size=(10000,)).asnumpy().min() >= 0


def test_randint_and_rand_randn():
    mx.random.seed(9)
    r = np.random.randint(3, 7, size=(20000,))
    assert r.dtype == onp.int64 and r.shape == (20000,)
    h = r.asnumpy()
    assert set(onp.unique(h)) == {3, 4, 5, 6}
    assert np.random.randint(5, size=(2, 2), dtype="int32").dtype == onp.int32
    assert np.random.randint(4).shape == ()
    assert np.random.rand(2, 3).shape == (2, 3) and np.random.rand().shape == ()
    z = np.random.randn(4, 50000).asnumpy()
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02


def test_shapes_dtypes_and_size():
    assert np.random.uniform().shape == ()  # MXNet returns a 0-d array, not a float
    assert np.random.normal(size=5).shape == (5,)
    assert np.random.normal(size=(0, 3)).shape == (0, 3)
    assert np.random.uniform(size=(2, 3), dtype="float64").dtype == onp.float64
    assert np.random.gamma(2.0, size=(2,), dtype=onp.float16).dtype == onp.float16
    assert np.random.uniform(ctx=mx.cpu(0), size=2).context == mx.cpu(0)
    out = _a(onp.zeros((2, 3)))
    assert np.random.normal(size=(2, 3), out=out) is out
    assert onp.any(out.asnumpy() != 0)


def test_default_dtype_follows_set_np():
    mx.npx.set_np(dtype=True)
    try:
        assert np.random.uniform(size=2).dtype == onp.float64
        assert np.random.logistic(size=2).dtype == onp.float64
    finally:
        mx.npx.reset_np()
    assert np.random.uniform(size=2).dtype == onp.float32


def test_array_parameters_broadcast():
    mx.random.seed(3)
    loc = _a([0.0, 100.0, -100.0])
    x = np.random.normal(loc, 0.1, size=(4000, 3)).asnumpy()
    onp.testing.assert_allclose(x.mean(axis=0), [0, 100, -100], atol=0.02)
    assert np.random.normal(loc, _a([[1.0], [2.0]])).shape == (2, 3)  # no size: broadcast shape
    lo, hi = _a([0.0, 10.0]), _a([1.0, 20.0])
    u = np.random.uniform(lo, hi, size=(5000, 2)).asnumpy()
    assert u[:, 0].max() < 1 and u[:, 1].min() >= 10 and abs(u[:, 1].mean() - 15) < 0.3
    g = np.random.gamma(_a([1.0, 4.0]), 2.0, size=(20000, 2)).asnumpy()
    onp.testing.assert_allclose(g.mean(axis=0), [2.0, 8.0], rtol=0.03)
    w = np.random.weibull(_a([1.0, 2.0]), size=(20000, 2)).asnumpy()
    onp.testing.assert_allclose(w.mean(axis=0), [1.0, _gam(1.5)], rtol=0.03)
    onp.testing.assert_allclose(np.random.exponential([1.0, 3.0], size=(20000, 2)).asnumpy().mean(axis=0),
                                [1.0, 3.0], rtol=0.03)
    with pytest.raises(ValueError, match="normal"):
        np.random.normal(_a([1.0, 2.0, 3.0]), 1.0, size=(2,))


def test_seed_reproduces():
    for f in (lambda: np.random.normal(size=(5,)), lambda: np.random.beta(2, 3, size=(5,)),
              lambda: np.random.choice(10, size=4, replace=False), lambda: np.random.multinomial(20, [0.5, 0.5]),
              lambda: np.random.logistic(size=3), lambda: np.random.randint(100, size=5)):
        mx.random.seed(42)
        a = f().asnumpy()
        mx.random.seed(42)
        b = f().asnumpy()
        mx.random.seed(43)
        c = f().asnumpy()
        onp.testing.assert_array_equal(a, b)
        assert a.size == 0 or not onp.array_equal(a, c) or a.size < 3


def test_multinomial():
    mx.random.seed(11)
    c = np.random.multinomial(100, [0.2, 0.3, 0.5], size=(4000,))
    assert c.shape == (4000, 3) and c.dtype == onp.int64
    h = c.asnumpy()
    assert onp.all(h.sum(axis=1) == 100)
    onp.testing.assert_allclose(h.mean(axis=0), [20, 30, 50], rtol=0.02)
    assert np.random.multinomial(5, [1.0]).asnumpy().tolist() == [5]
    assert np.random.multinomial(0, [0.5, 0.5]).asnumpy().tolist() == [0, 0]
    # The last probability is what the others leave, as in NumPy.
    assert np.random.multinomial(10, [1.0, 0.7]).asnumpy().tolist() == [10, 0]
    with pytest.raises(ValueError, match="multinomial: sum"):
        np.random.multinomial(10, [0.8, 0.7, 0.1])
    with pytest.raises(ValueError, match="multinomial: n"):
        np.random.multinomial(-1, [0.5, 0.5])


def test_choice():
    mx.random.seed(2)
    i = np.random.choice(4, size=(40000,), p=[0.1, 0.2, 0.3, 0.4]).asnumpy()
    onp.testing.assert_allclose(onp.bincount(i, minlength=4) / 40000, [0.1, 0.2, 0.3, 0.4], atol=0.01)
    perm = np.random.choice(50, size=50, replace=False).asnumpy()
    assert sorted(perm.tolist()) == list(range(50))
    pk = np.random.choice(6, size=(2, 3), replace=False, p=[0.1, 0.1, 0.2, 0.2, 0.2, 0.2]).asnumpy()
    assert pk.shape == (2, 3) and len(set(pk.ravel().tolist())) == 6
    src = _a([10.0, 20.0, 30.0])
    picked = np.random.choice(src, size=(100,)).asnumpy()
    assert set(picked.tolist()) <= {10.0, 20.0, 30.0}
    assert np.random.choice(3).shape == ()
    with pytest.raises(ValueError, match="choice: cannot take a larger sample"):
        np.random.choice(3, size=4, replace=False)
    with pytest.raises(ValueError, match="choice: a and p"):
        np.random.choice(3, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="choice: a must be greater than 0"):
        np.random.choice(0)


def test_multivariate_normal():
    mx.random.seed(8)
    cov = [[2.0, 0.6], [0.6, 1.0]]
    x = np.random.multivariate_normal(_a([1.0, -1.0]), cov, size=(50000,))
    assert x.shape == (50000, 2) and x.dtype == onp.float32
    h = x.asnumpy().astype(onp.float64)
    onp.testing.assert_allclose(h.mean(axis=0), [1, -1], atol=0.03)
    onp.testing.assert_allclose(onp.cov(h.T), cov, atol=0.05)
    # positive semidefinite (singular) covariance is accepted, as NumPy's SVD factor allows
    s = np.random.multivariate_normal(_a([0.0, 0.0]), [[1.0, 1.0], [1.0, 1.0]], size=(100,)).asnumpy()
    onp.testing.assert_allclose(s[:, 0], s[:, 1], atol=1e-5)
    with pytest.raises(ValueError, match="positive semidefinite"):
        np.random.multivariate_normal(_a([0.0, 0.0]), [[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(NotImplementedError):
        np.random.multivariate_normal(_a([0.0]), [[1.0]], check_valid="warn")


def test_shuffle_in_place():
    mx.random.seed(4)
    x = _a(onp.arange(20).reshape(10, 2))
    assert np.random.shuffle(x) is None
    h = x.asnumpy()
    assert sorted(h[:, 0].tolist()) == list(range(0, 20, 2)) and onp.all(h[:, 1] == h[:, 0] + 1)
    with pytest.raises(TypeError, match="shuffle"):
        np.random.shuffle([1, 2, 3])


def test_gradient_through_loc_and_scale():
    loc, scale = _a([1.0, 2.0]), _a([0.5, 3.0])
    loc.attach_grad()
    scale.attach_grad()
    mx.random.seed(6)
    with mx.autograd.record():
        y = np.random.normal(loc, scale, size=(3, 2))
    y.backward()
    mx.random.seed(6)
    z = np.random.normal(size=(3, 2)).asnumpy()  # the same standard draw
    onp.testing.assert_allclose(loc.grad.asnumpy(), [3.0, 3.0])
    onp.testing.assert_allclose(scale.grad.asnumpy(), z.sum(axis=0), rtol=1e-5)
    onp.testing.assert_allclose(y.asnumpy(), z * [0.5, 3.0] + [1.0, 2.0], rtol=1e-5)


@pytest.mark.parametrize("call,match", [
    (lambda: np.random.normal(0, -1.0), "normal: scale"),
    (lambda: np.random.normal(0, _a([1.0, -1.0])), "normal: scale"),
    (lambda: np.random.uniform(2.0, 1.0), "uniform: low"),
    (lambda: np.random.gamma(-1.0), "gamma: shape"),
    (lambda: np.random.gamma(1.0, 0.0), "gamma: scale"),
    (lambda: np.random.beta(1.0, -2.0), "beta: b"),
    (lambda: np.random.chisquare(0.0), "chisquare: df"),
    (lambda: np.random.pareto(0.0), "pareto: a"),
    (lambda: np.random.power(-1.0), "power: a"),
    (lambda: np.random.weibull(-1.0), "weibull: a"),
    (lambda: np.random.exponential(-2.0), "exponential: scale"),
    (lambda: np.random.rayleigh(-2.0), "rayleigh: scale"),
    (lambda: np.random.logistic(0, -2.0), "logistic: scale"),
    (lambda: np.random.gumbel(0, -2.0), "gumbel: scale"),
    (lambda: np.random.randint(5, 5), "randint: low"),
    (lambda: np.random.normal(size=(-1, 2)), "normal: size"),
])
def test_bad_parameters_raise_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call,match", [
    (lambda: np.random.uniform(size=2, dtype="int32"), "uniform: dtype"),
    (lambda: np.random.randint(5, dtype="float32"), "randint: dtype"),
    (lambda: np.random.randint(2.5), "randint: low"),
    (lambda: np.random.normal(size=2.5), "normal: size"),
    (lambda: np.random.normal("a"), "normal: loc"),
    (lambda: np.random.choice("abc"), "choice: a"),
])
def test_bad_types_raise_type_error(call, match):
    with pytest.raises(TypeError, match=match):
        call()


# ---- weft.npx.random ----

def test_npx_random_module_paths():
    import weft.npx.random  # noqa: F401  # pylint: disable=import-outside-toplevel
    import weft.numpy_extension.random  # noqa: F401  # pylint: disable=import-outside-toplevel
    assert mx.npx.random is mx.numpy_extension.random and mx.np.random is mx.numpy.random
    assert {"bernoulli", "normal_n", "seed", "uniform_n"} <= set(dir(mx.npx.random))


def test_npx_random_seed_reproduces_np_draws():
    mx.npx.random.seed(77)
    a = np.random.normal(size=(6,)).asnumpy()
    mx.random.seed(77)
    b = np.random.normal(size=(6,)).asnumpy()
    onp.testing.assert_array_equal(a, b)


def test_bernoulli():
    mx.random.seed(12)
    x = mx.npx.random.bernoulli(0.3, size=(50000,))
    assert x.dtype == onp.float32 and x.shape == (50000,)
    h = x.asnumpy()
    assert set(onp.unique(h)) == {0.0, 1.0} and abs(h.mean() - 0.3) < 0.01
    y = mx.npx.random.bernoulli(logit=_a([-50.0, 50.0, 0.0]), size=(20000, 3)).asnumpy()
    onp.testing.assert_allclose(y.mean(axis=0), [0, 1, 0.5], atol=0.015)
    assert mx.npx.random.bernoulli(_a([0.5, 0.5]), dtype="int32").dtype == onp.int32
    with pytest.raises(ValueError, match="bernoulli: either"):
        mx.npx.random.bernoulli()
    with pytest.raises(ValueError, match="bernoulli: either"):
        mx.npx.random.bernoulli(0.5, 0.1)
    with pytest.raises(ValueError, match="bernoulli: prob"):
        mx.npx.random.bernoulli(1.5)


def test_uniform_n_normal_n_batch_shape():
    mx.random.seed(13)
    u = mx.npx.random.uniform_n(_a([0.0, 10.0]), 20.0, batch_shape=(3000,))
    assert u.shape == (3000, 2)
    h = u.asnumpy()
    onp.testing.assert_allclose(h.mean(axis=0), [10, 15], rtol=0.03)
    assert mx.npx.random.uniform_n(batch_shape=4).shape == (4,)
    assert mx.npx.random.uniform_n().shape == ()
    n = mx.npx.random.normal_n(_a([[0.0], [5.0]]), 1.0, batch_shape=(2000,), dtype="float64")
    assert n.shape == (2000, 2, 1) and n.dtype == onp.float64
    onp.testing.assert_allclose(n.asnumpy().mean(axis=0).ravel(), [0, 5], atol=0.1)
    with pytest.raises(TypeError, match="normal_n: batch_shape"):
        mx.npx.random.normal_n(batch_shape="x")
