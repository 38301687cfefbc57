"""weft.initializer (weft.init): fills, statistics, dispatch by name, reproducibility."""
import json
import math

import numpy as np
import pytest

import weft as mx
import weft.init  # noqa: F401  (the alias module must import)
from weft.initializer import InitDesc


def _init(initializer, name, shape, dtype="float32"):
    arr = mx.nd.zeros(shape, dtype=dtype)
    initializer(InitDesc(name), arr)
    return arr.asnumpy()


def test_init_alias_module():
    assert mx.init is mx.initializer
    import sys
    assert sys.modules["weft.init"] is mx.initializer


def test_constant_fills():
    assert (_init(mx.init.Zero(), "a_weight", (3, 2)) == 0).all()
    assert (_init(mx.init.One(), "a_weight", (3, 2)) == 1).all()
    assert (_init(mx.init.Constant(2.5), "a_weight", (3, 2)) == 2.5).all()
    np.testing.assert_array_equal(_init(mx.init.Constant([1, 2]), "a_weight", (3, 2)), [[1, 2]] * 3)
    assert isinstance(mx.init.create("zeros"), mx.init.Zero) and isinstance(mx.init.create("ONES"), mx.init.One)
    assert json.loads(mx.init.Constant(np.array([1.0, 2.0])).dumps()) == ["constant", {"value": [1.0, 2.0]}]


def test_uniform_and_normal_statistics():
    mx.random.seed(1)
    u = _init(mx.init.Uniform(0.5), "w_weight", (200, 100))
    assert u.min() >= -0.5 and u.max() <= 0.5
    assert abs(u.mean()) < 0.01 and u.std() == pytest.approx(0.5 / math.sqrt(3), rel=0.03)
    n = _init(mx.init.Normal(0.2), "w_weight", (200, 100))
    assert abs(n.mean()) < 0.01 and n.std() == pytest.approx(0.2, rel=0.03)


@pytest.mark.parametrize("factor_type", ["avg", "in", "out"])
def test_xavier_uniform_bounds(factor_type):
    shape = (64, 32, 3, 3)
    fan_in, fan_out = 32 * 9, 64 * 9
    factor = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}[factor_type]
    bound = math.sqrt(3.0 / factor)
    w = _init(mx.init.Xavier(factor_type=factor_type, magnitude=3), "conv_weight", shape)
    assert np.abs(w).max() <= bound * (1 + 1e-6)
    assert np.abs(w).max() > 0.98 * bound
    assert w.std() == pytest.approx(bound / math.sqrt(3), rel=0.03)


def test_xavier_gaussian_and_msra():
    shape = (128, 256)
    w = _init(mx.init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2), "fc_weight", shape)
    assert w.std() == pytest.approx(math.sqrt(2.0 / 256), rel=0.03)
    msra = mx.init.MSRAPrelu(factor_type="avg", slope=0.25)
    w = _init(msra, "fc_weight", shape)
    assert w.std() == pytest.approx(math.sqrt(2.0 / (1 + 0.25 ** 2) / 192), rel=0.03)
    assert json.loads(msra.dumps()) == ["msraprelu", {"factor_type": "avg", "slope": 0.25}]
    with pytest.raises(ValueError, match="2D"):
        _init(mx.init.Xavier(), "fc_weight", (10,))
    with pytest.raises(ValueError):
        _init(mx.init.Xavier(factor_type="nope"), "fc_weight", (3, 3))


@pytest.mark.parametrize("shape", [(8, 16), (16, 8), (4, 2, 3, 3)])
@pytest.mark.parametrize("rand_type", ["uniform", "normal"])
def test_orthogonal(shape, rand_type):
    scale = 1.5
    w = _init(mx.init.Orthogonal(scale=scale, rand_type=rand_type), "w_weight", shape).reshape(shape[0], -1)
    rows, cols = w.shape
    gram = w @ w.T if rows <= cols else w.T @ w
    np.testing.assert_allclose(gram, scale ** 2 * np.eye(min(rows, cols)), atol=1e-5)


def test_name_dispatch():
    init = mx.init.Uniform(0.1)
    assert (_init(init, "fc_bias", (4,)) == 0).all()
    assert (_init(init, "bn_gamma", (4,)) == 1).all()
    assert (_init(init, "bn_beta", (4,)) == 0).all()
    assert (_init(init, "bn_moving_mean", (4,)) == 0).all()
    assert (_init(init, "bn_moving_var", (4,)) == 1).all()
    assert (_init(init, "q_min", (2,)) == 0).all() and (_init(init, "q_max", (2,)) == 1).all()
    w = _init(init, "fc_weight", (50, 4))
    assert np.abs(w).max() <= 0.1 and np.abs(w).max() > 0
    with pytest.raises(ValueError, match="Unknown initialization pattern"):
        _init(init, "mystery", (2,))


def test_desc_attrs_and_legacy_names():
    arr = mx.nd.zeros((2, 3))
    mx.init.Uniform()(InitDesc("fc_weight", attrs={"__init__": mx.init.Constant(3).dumps()}), arr)
    assert (arr.asnumpy() == 3).all()
    var = mx.sym.var("v_weight", init=mx.init.One())
    desc = InitDesc("v_weight", attrs=var.attr_dict()["v_weight"])
    mx.init.Zero()(desc, arr)
    assert (arr.asnumpy() == 1).all() and desc.global_init is not None
    with pytest.warns(DeprecationWarning):
        mx.init.Uniform()("fc_bias", arr)
    assert (arr.asnumpy() == 0).all()
    with pytest.warns(DeprecationWarning):
        loc = mx.nd.zeros((6,))
        mx.init.Uniform()("stn_loc_bias", loc)
    assert loc.asnumpy().tolist() == [1, 0, 0, 0, 1, 0]


def test_mixed_patterns():
    mixed = mx.init.Mixed([".*bias", "conv.*", ".*"], [mx.init.Constant(5), mx.init.One(), mx.init.Uniform(0.1)])
    arr = mx.nd.zeros((3, 3))
    mixed(InitDesc("fc_bias"), arr)  # a pattern's initializer still dispatches on the suffix: bias -> 0
    assert (arr.asnumpy() == 0).all()
    mixed(InitDesc("conv1_weight"), arr)
    assert (arr.asnumpy() == 1).all()
    mixed(InitDesc("fc_weight"), arr)
    assert np.abs(arr.asnumpy()).max() <= 0.1 and (arr.asnumpy() != 1).any()
    strict = mx.init.Mixed(["conv.*"], [mx.init.One()])
    with pytest.raises(ValueError, match="did not match"):
        strict(InitDesc("fc_weight"), arr)
    with pytest.raises(ValueError):
        mx.init.Mixed([".*"], [])


def test_seed_makes_it_reproducible():
    def draw():
        a = _init(mx.init.Xavier(), "fc_weight", (20, 30))
        b = _init(mx.init.Orthogonal(), "fc_weight", (6, 6))
        return a, b

    mx.random.seed(123)
    a1, b1 = draw()
    mx.random.seed(123)
    a2, b2 = draw()
    mx.random.seed(124)
    a3, _ = draw()
    np.testing.assert_array_equal(a1, a2)
    np.testing.assert_array_equal(b1, b2)
    assert not np.array_equal(a1, a3)


def test_create_and_dumps_round_trip():
    x = mx.init.Xavier(rnd_type="gaussian", factor_type="out", magnitude=2.5)
    y = mx.init.create(x.dumps())
    assert isinstance(y, mx.init.Xavier) and y.rnd_type == "gaussian" and y.factor_type == "out"
    assert y.magnitude == 2.5 and mx.init.create(x) is x
    assert isinstance(mx.init.create("normal", sigma=0.5), mx.init.Normal)
    with pytest.raises(ValueError, match="nosuchinit"):
        mx.init.create("nosuchinit")


def test_lstm_bias_bilinear_and_load():
    b = _init(mx.init.LSTMBias(forget_bias=2.0), "lstm_i2h_weight", (8,))
    assert b.tolist() == [0, 0, 2, 2, 0, 0, 0, 0]
    k = _init(mx.init.Bilinear(), "up_weight", (1, 1, 4, 4))
    np.testing.assert_allclose(k[0, 0, 0], [0.0625, 0.1875, 0.1875, 0.0625])
    np.testing.assert_allclose(k[0, 0], k[0, 0].T)
    load = mx.init.Load({"arg:fc_weight": mx.nd.ones((2, 2)) * 4}, default_init=mx.init.Zero())
    arr = mx.nd.zeros((2, 2))
    load("fc_weight", arr)
    assert (arr.asnumpy() == 4).all()
    load(InitDesc("other_weight"), arr)
    assert (arr.asnumpy() == 0).all()


def test_float16_arrays():
    w = _init(mx.init.Xavier(), "fc_weight", (16, 16), dtype="float16")
    assert w.dtype == np.float16 and np.abs(w).max() > 0
