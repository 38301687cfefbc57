"""weft.sym.np.random (issue 39): MXNet 1.9.1's mx.sym.np.random names, traced by a
hybrid_forward using F.np.random.*: shapes, dtypes and the distributions' moments (20000
draws, 6 standard errors), reproducible under mx.random.seed, and only operators MXNet
1.9.1 registers (Note [Traced samplers])."""
import json
import math

import numpy as onp
import pytest

import weft as mx
from weft import gluon, np, npx
from np_mode_helpers import HybridFn

# A hybridized block must trace, never fall back to running imperatively; the draws ignore the
# block's one input (a HybridBlock needs one), which Gluon warns about.
pytestmark = [pytest.mark.filterwarnings(r"error:hybridize\(\)"),
              pytest.mark.filterwarnings("ignore:The 0-th input to HybridBlock is not used")]

# mx.sym.np.random's public names in MXNet 1.9.1 (dir() of its pip build, less current_context).
NAMES = ["beta", "chisquare", "choice", "exponential", "gamma", "gumbel", "logistic", "lognormal",
         "multivariate_normal", "normal", "pareto", "power", "rand", "randint", "rayleigh", "shuffle", "uniform",
         "weibull"]
N = 20000


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    mx.random.seed(7)
    yield
    npx.reset_np()


def _draw(fn, x=None):
    block = HybridFn(fn)
    block.hybridize()
    return block(np.array(onp.zeros(1, dtype="float32") if x is None else x)).asnumpy()


G = 0.5772156649015329  # Euler's constant: the Gumbel mean
# name, the traced call (x is an unused input), mean, variance
MOMENTS = [
    ("uniform", lambda F, x: F.np.random.uniform(2.0, 5.0, size=(N,)), 3.5, 9 / 12),
    ("rand", lambda F, x: F.np.random.rand(N), 0.5, 1 / 12),
    ("normal", lambda F, x: F.np.random.normal(1.0, 2.0, size=(N,)), 1.0, 4.0),
    ("lognormal", lambda F, x: F.np.random.lognormal(0.0, 0.5, size=(N,)), math.exp(0.125),
     (math.exp(0.25) - 1) * math.exp(0.25)),
    ("exponential", lambda F, x: F.np.random.exponential(2.0, size=(N,)), 2.0, 4.0),
    ("gamma", lambda F, x: F.np.random.gamma(2.0, 3.0, size=(N,)), 6.0, 18.0),
    ("beta", lambda F, x: F.np.random.beta(2.0, 3.0, size=(N,)), 0.4, 6 / (25 * 6)),
    ("chisquare", lambda F, x: F.np.random.chisquare(3.0, size=(N,)), 3.0, 6.0),
    ("logistic", lambda F, x: F.np.random.logistic(1.0, 2.0, size=(N,)), 1.0, math.pi ** 2 * 4 / 3),
    ("gumbel", lambda F, x: F.np.random.gumbel(0.0, 1.0, size=(N,)), G, math.pi ** 2 / 6),
    ("rayleigh", lambda F, x: F.np.random.rayleigh(2.0, size=(N,)), 2 * math.sqrt(math.pi / 2),
     (4 - math.pi) / 2 * 4),
    ("weibull", lambda F, x: F.np.random.weibull(2.0, size=(N,)), math.gamma(1.5), 1 - math.gamma(1.5) ** 2),
    ("pareto", lambda F, x: F.np.random.pareto(5.0, size=(N,)), 1 / 4, 5 / (16 * 3)),
    ("power", lambda F, x: F.np.random.power(3.0, size=(N,)), 0.75, 3 / (16 * 5)),
    ("randint", lambda F, x: F.np.random.randint(2, 7, size=(N,)), 4.0, (25 - 1) / 12),
    ("choice", lambda F, x: F.np.random.choice(5, size=(N,)), 2.0, 2.0),
]


@pytest.mark.parametrize("name,fn,mean,var", MOMENTS, ids=[m[0] for m in MOMENTS])
def test_traced_draws_have_the_distributions_moments(name, fn, mean, var):
    d = _draw(fn)
    assert d.shape == (N,)
    assert d.dtype == (onp.int64 if name in ("randint", "choice") else onp.float32)
    d = d.astype("float64")
    assert abs(d.mean() - mean) < 6 * math.sqrt(var / N), (name, d.mean(), mean)
    assert abs(d.var() - var) < 0.1 * var, (name, d.var(), var)


def test_symbol_parameters_broadcast_and_give_their_shape():
    loc = onp.array([[0.0], [100.0]], dtype="float32")  # (2, 1)
    d = _draw(lambda F, x: F.np.random.normal(x, 1.0), loc)
    assert d.shape == (2, 1) and abs(d[1, 0] - 100) < 6
    d = _draw(lambda F, x: F.np.random.normal(x, 0.5, size=(2, 5000)), loc)
    assert d.shape == (2, 5000)
    assert abs(d[0].mean()) < 0.05 and abs(d[1].mean() - 100) < 0.05
    d = _draw(lambda F, x: F.np.random.uniform(x, x + 1.0, size=(2, 3)), loc)
    assert ((d >= loc) & (d < loc + 1)).all()
    shape = onp.array([1.0, 50.0], dtype="float32")
    d = _draw(lambda F, x: F.np.random.gamma(x, 2.0, size=(4000, 2)), shape)
    onp.testing.assert_allclose(d.mean(axis=0), [2.0, 100.0], rtol=0.06)
    d = _draw(lambda F, x: F.np.random.exponential(x), onp.full((3, 4), 2.0, dtype="float32"))
    assert d.shape == (3, 4) and (d >= 0).all()
    for fn in (lambda F, x: F.np.random.beta(x, 2.0), lambda F, x: F.np.random.pareto(x),
               lambda F, x: F.np.random.weibull(x), lambda F, x: F.np.random.power(x),
               lambda F, x: F.np.random.rayleigh(x), lambda F, x: F.np.random.logistic(x),
               lambda F, x: F.np.random.gumbel(x), lambda F, x: F.np.random.chisquare(x),
               lambda F, x: F.np.random.lognormal(x)):
        assert _draw(fn, onp.full((2, 3), 2.0, dtype="float32")).shape == (2, 3)


def test_choice_without_replacement_with_p_and_from_a_symbol():
    d = _draw(lambda F, x: F.np.random.choice(10, size=(2, 5), replace=False))
    assert d.shape == (2, 5) and sorted(d.ravel()) == list(range(10))
    p = onp.array([0.1, 0.0, 0.9], dtype="float32")
    d = _draw(lambda F, x: F.np.random.choice(3, size=(N,), p=x), p)
    assert d.dtype == onp.int64 and not (d == 1).any()
    assert abs((d == 2).mean() - 0.9) < 0.02
    pop = onp.array([10.0, 20.0, 30.0], dtype="float32")
    d = _draw(lambda F, x: F.np.random.choice(x, size=(3000,)), pop)
    assert set(onp.unique(d)) == {10.0, 20.0, 30.0}
    assert abs(d.mean() - 20) < 1.0


def test_multivariate_normal_and_shuffle():
    mean = onp.array([1.0, -2.0], dtype="float32")

    class MVN(gluon.HybridBlock):
        def hybrid_forward(self, F, m, c):  # pylint: disable=arguments-differ
            return F.np.random.multivariate_normal(m, c, size=(N,))
    b = MVN()
    b.hybridize()
    cov = onp.array([[2.0, 0.6], [0.6, 1.0]], dtype="float32")
    d = b(np.array(mean), np.array(cov)).asnumpy().astype("float64")
    assert d.shape == (N, 2)
    onp.testing.assert_allclose(d.mean(axis=0), mean, atol=0.06)
    onp.testing.assert_allclose(onp.cov(d.T), cov, atol=0.08)
    x = onp.arange(12, dtype="float32").reshape(6, 2)
    d = _draw(lambda F, x: F.np.random.shuffle(x), x)
    assert sorted(map(tuple, d)) == sorted(map(tuple, x)) and (d[:, 1] - d[:, 0] == 1).all()


def test_dtype_and_seed():
    d = _draw(lambda F, x: F.np.random.normal(size=(3,), dtype="float64"))
    assert d.dtype == onp.float64
    assert _draw(lambda F, x: F.np.random.randint(5, size=(3,), dtype="int32")).dtype == onp.int32
    mx.random.seed(11)
    a = _draw(lambda F, x: F.np.random.uniform(size=(5,)) + F.np.random.gamma(x + 2.0))
    mx.random.seed(11)
    b = _draw(lambda F, x: F.np.random.uniform(size=(5,)) + F.np.random.gamma(x + 2.0))
    onp.testing.assert_array_equal(a, b)


def test_number_parameters_without_size_give_a_0d_draw():
    # Note [Traced samplers]: as NumPy, size None (or ()) with number parameters is one 0-d draw.
    for fn in (lambda F, x: F.np.random.uniform(), lambda F, x: F.np.random.normal(size=()),
               lambda F, x: F.np.random.randint(3), lambda F, x: F.np.random.choice(4),
               lambda F, x: F.np.random.gamma(2.0), lambda F, x: F.np.random.exponential()):
        assert _draw(fn).shape == ()
    assert 0 <= int(_draw(lambda F, x: F.np.random.randint(3))) < 3


def test_names_match_mxnet_and_write_mxnet_operators():
    assert sorted(mx.sym.np.random.__all__) == NAMES
    # The operators written, checked by hand against MXNet 1.9.1's MXListAllOpNames.
    mxnet_has = {"_random_uniform", "_random_normal", "_random_exponential", "_random_gamma", "_random_randint",
                 "_random_uniform_like", "_random_normal_like", "_random_exponential_like", "_sample_gamma",
                 "_sample_multinomial", "_shuffle", "_npi_arange", "slice_axis", "Reshape", "take", "_npx_cast",
                 "zeros_like", "ones_like", "_npi_zeros", "_np_reshape", "_npi_add", "_npi_add_scalar", "_npi_subtract",
                 "_npi_subtract_scalar", "_npi_rsubtract_scalar", "_npi_multiply", "_npi_multiply_scalar",
                 "_npi_true_divide", "_npi_true_divide_scalar", "_npi_rtrue_divide_scalar", "_npi_power",
                 "_npi_power_scalar", "_npi_exp", "_npi_log", "_npi_sqrt", "_npi_negative", "broadcast_to",
                 "_linalg_potrf", "_npi_cholesky", "dot", "sum", "broadcast_div", "_npi_true_divide"}
    a, b = mx.sym.var("a").as_np_ndarray(), mx.sym.var("b").as_np_ndarray()
    r = mx.sym.np.random
    outs = [r.uniform(size=(2,)), r.uniform(a, b), r.normal(a, 2.0), r.normal(size=(2,)), r.rand(2),
            r.randint(5, size=(3,)), r.exponential(a), r.gamma(a), r.gamma(2.0, a, size=(2,)), r.gamma(a, size=(3,)),
            r.beta(a, b), r.chisquare(a), r.lognormal(a), r.logistic(a), r.gumbel(a), r.rayleigh(a), r.weibull(a),
            r.pareto(a), r.power(a), r.weibull(2.0), r.uniform(), r.randint(3), r.choice(5, size=(2,)), r.choice(5, size=(2,), replace=False),
            r.choice(a, size=(2,)), r.choice(3, p=a), r.multivariate_normal(a, b, size=(3,)), r.shuffle(a)]
    ops = set()
    for o in outs:
        assert isinstance(o, mx.sym.np._Symbol)
        ops |= {n["op"] for n in json.loads(o.tojson())["nodes"]} - {"null"}
    assert ops <= mxnet_has, sorted(ops - mxnet_has)


def test_bad_input_raises_naming_the_function():
    a = mx.sym.var("a").as_np_ndarray()
    r = mx.sym.np.random
    with pytest.raises(ValueError, match="uniform: low"):
        r.uniform(2.0, 1.0)
    with pytest.raises(ValueError, match="normal: scale must be >= 0"):
        r.normal(0.0, -1.0)
    with pytest.raises(TypeError, match="normal: loc must be a number or a Symbol"):
        r.normal("x")
    with pytest.raises(ValueError, match="uniform: size must hold non-negative ints"):
        r.uniform(size=(2, -1))
    with pytest.raises(TypeError, match="normal: dtype must be float16, float32 or float64"):
        r.normal(size=(2,), dtype="int32")
    with pytest.raises(ValueError, match=r"randint: low \(3\) must be < high \(3\)"):
        r.randint(3, 3)
    with pytest.raises(TypeError, match="randint: low must be an int"):
        r.randint(a)
    with pytest.raises(ValueError, match="choice: cannot take a larger sample"):
        r.choice(3, size=(4,), replace=False)
    with pytest.raises(NotImplementedError, match="choice: replace=False with p"):
        r.choice(3, size=(2,), replace=False, p=a)
    with pytest.raises(TypeError, match="multivariate_normal: mean must be a Symbol"):
        r.multivariate_normal([0.0], a)
    with pytest.raises(TypeError, match="shuffle: x must be a Symbol"):
        r.shuffle(onp.zeros(3))
