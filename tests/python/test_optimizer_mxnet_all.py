"""The optimizers MXNet 1.9.1 registers beyond the fused ones (Adamax, Nadam, FTML,
LAMB, LARS, LBSGD, SGLD, DCASGD, GroupAdaGrad, ccSGD, Test), against NumPy
references written from MXNet 1.9.1's documented update formulas; plus
multi_precision, aggregate_num, lr_mult / wd_mult and the registry names."""
import math

import numpy as np
import pytest

import weft as mx
from weft import optimizer as opt

SHAPE = (3, 4)
STEPS = 4


def _pre(w, g, wd, p):
    """clip(rescale_grad * grad + wd * weight, clip_gradient)."""
    g = p["rescale_grad"] * g + wd * w
    return np.clip(g, -p["clip_gradient"], p["clip_gradient"]) if p["clip_gradient"] else g


def _rescaled(g, p):
    g = p["rescale_grad"] * g
    return np.clip(g, -p["clip_gradient"], p["clip_gradient"]) if p["clip_gradient"] else g


def ref_adamax(w, g, s, lr, wd, t, p):
    g = _pre(w, g, wd, p)
    s["m"] = p["beta1"] * s.get("m", 0.0) + (1 - p["beta1"]) * g
    s["u"] = np.maximum(p["beta2"] * s.get("u", 0.0), np.abs(g))
    return w - lr / (1 - p["beta1"] ** t) * s["m"] / s["u"]


def ref_nadam(w, g, s, lr, wd, t, p):
    g = _pre(w, g, wd, p)
    b1, b2, sd = p["beta1"], p["beta2"], p["schedule_decay"]
    mu_t = b1 * (1 - 0.5 * 0.96 ** (t * sd))
    mu_t1 = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * sd))
    s["sched"] = s.get("sched", 1.0) * mu_t
    s["m"] = b1 * s.get("m", 0.0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0.0) + (1 - b2) * g * g
    m_bar = (1 - mu_t) * g / (1 - s["sched"]) + mu_t1 * s["m"] / (1 - s["sched"] * mu_t1)
    return w - lr * m_bar / (np.sqrt(s["v"] / (1 - b2 ** t)) + p["epsilon"])


def ref_ftml(w, g, s, lr, wd, t, p):
    g = _pre(w, g, wd, p)
    b1, b2 = p["beta1"], p["beta2"]
    s["v"] = b2 * s.get("v", 0.0) + (1 - b2) * g * g
    d_t = (1 - b1 ** t) / lr * (np.sqrt(s["v"] / (1 - b2 ** t)) + p["epsilon"])
    s["z"] = b1 * s.get("z", 0.0) + (1 - b1) * g - (d_t - b1 * s.get("d", 0.0)) * w
    s["d"] = d_t
    return -s["z"] / d_t


def ref_lamb(w, g, s, lr, wd, t, p):
    g = _rescaled(g, p)
    b1, b2 = p["beta1"], p["beta2"]
    s["m"] = b1 * s.get("m", 0.0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0.0) + (1 - b2) * g * g
    if p["bias_correction"]:
        r = (s["m"] / (1 - b1 ** t)) / (np.sqrt(s["v"] / (1 - b2 ** t)) + p["epsilon"]) + wd * w
    else:
        r = s["m"] / (np.sqrt(s["v"]) + p["epsilon"]) + wd * w
    r1 = np.linalg.norm(w)
    if p["lower_bound"]:
        r1 = max(r1, p["lower_bound"])
    if p["upper_bound"]:
        r1 = min(r1, p["upper_bound"])
    r2 = np.linalg.norm(r)
    ratio = r1 / r2 if r1 > 0 and r2 > 0 else 1.0
    return w - lr * ratio * r


def _sgd(w, g, s, lr, wd, momentum, p):
    g = _rescaled(g, p) + wd * w
    if momentum:
        s["mom"] = momentum * s.get("mom", 0.0) - lr * g
        return w + s["mom"]
    return w - lr * g


def ref_lars(w, g, s, lr, wd, t, p):
    w_norm = np.linalg.norm(w)
    g_norm = np.linalg.norm(g * p["rescale_grad"])
    if w_norm > 0 and g_norm > 0:
        lr = lr * p["eta"] * w_norm / (g_norm + wd * w_norm + p["eps"])
    return _sgd(w, g, s, lr, wd, p["momentum"], p)


def ref_lbsgd(w, g, s, lr, wd, t, p):
    # batch_scale 1: every update is a step; 'linear' warm-up over warmup_epochs * updates_per_epoch
    nwup = p["warmup_epochs"] * p["updates_per_epoch"]
    mult = 1.0 + (p["batch_scale"] - 1) * t / nwup if t < nwup else float(p["batch_scale"])
    return _sgd(w, g, s, lr * mult, wd, p["momentum"], p)


def ref_dcasgd(w, g, s, lr, wd, t, p):
    g = _rescaled(g, p)
    prev = s.get("prev", W0_BY_TEST["dcasgd"])
    step = -lr * (g + wd * w + p["lamda"] * g * g * (w - prev))
    if p["momentum"]:
        s["mom"] = p["momentum"] * s.get("mom", 0.0) + step
        step = s["mom"]
    s["prev"] = w
    return w + step


W0_BY_TEST = {}
COMMON = {"rescale_grad": 1.0, "clip_gradient": None}
DEFAULTS = {
    "adamax": (ref_adamax, {"learning_rate": 0.002, "beta1": 0.9, "beta2": 0.999}),
    "nadam": (ref_nadam, {"learning_rate": 0.001, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8,
                          "schedule_decay": 0.004}),
    "ftml": (ref_ftml, {"learning_rate": 0.01, "beta1": 0.6, "beta2": 0.999, "epsilon": 1e-8}),
    "lamb": (ref_lamb, {"learning_rate": 0.001, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-6,
                        "lower_bound": None, "upper_bound": None, "bias_correction": True}),
    "lars": (ref_lars, {"learning_rate": 0.01, "momentum": 0.0, "eta": 0.001, "eps": 0}),
    "lbsgd": (ref_lbsgd, {"learning_rate": 0.01, "momentum": 0.0, "warmup_epochs": 5, "updates_per_epoch": 32,
                          "batch_scale": 1}),
    "dcasgd": (ref_dcasgd, {"learning_rate": 0.01, "momentum": 0.0, "lamda": 0.04}),
}

CASES = [
    ("adamax", {}),
    ("adamax", {"wd": 0.1, "clip_gradient": 0.3, "rescale_grad": 0.7, "learning_rate": 0.05}),
    ("nadam", {}),
    ("nadam", {"wd": 0.05, "clip_gradient": 0.4, "rescale_grad": 2.0, "learning_rate": 0.01,
               "schedule_decay": 0.1}),
    ("ftml", {}),
    ("ftml", {"wd": 0.05, "clip_gradient": 0.3, "beta1": 0.8, "learning_rate": 0.1}),
    ("lamb", {"wd": 0.01, "learning_rate": 0.01}),
    ("lamb", {"bias_correction": False, "clip_gradient": 0.3, "rescale_grad": 0.5}),
    ("lamb", {"lower_bound": 3.0, "wd": 0.1}),
    ("lamb", {"upper_bound": 0.5}),
    ("lars", {"momentum": 0.9, "wd": 0.01, "eta": 0.5, "learning_rate": 0.1}),
    ("lars", {"clip_gradient": 0.3, "rescale_grad": 0.5, "eps": 1e-3, "eta": 1.0}),
    ("lbsgd", {"momentum": 0.9, "wd": 0.01}),
    ("lbsgd", {"clip_gradient": 0.3, "learning_rate": 0.1}),
    ("dcasgd", {"wd": 0.01, "learning_rate": 0.1}),
    ("dcasgd", {"momentum": 0.9, "lamda": 0.5, "clip_gradient": 0.4, "learning_rate": 0.1}),
]


def _data(seed, dtype=np.float32):
    rng = np.random.RandomState(seed)
    w0 = rng.uniform(-1, 1, SHAPE).astype(dtype)
    grads = [rng.uniform(-1, 1, SHAPE).astype(dtype) for _ in range(STEPS)]
    return w0, grads


@pytest.mark.parametrize("name,kwargs", CASES, ids=["%s-%d" % (c[0], i) for i, c in enumerate(CASES)])
def test_matches_numpy_reference(name, kwargs):
    ref, defaults = DEFAULTS[name]
    p = dict(COMMON, **defaults)
    p.update(kwargs)
    w0, grads = _data(len(name) * 7 + len(kwargs))
    W0_BY_TEST[name] = w0.astype(np.float64)
    o = mx.optimizer.create(name, **kwargs)
    updater = opt.get_updater(o)
    weight = mx.nd.array(w0)
    handle = weight.handle
    w_ref, state = w0.astype(np.float64), {}
    for t, g in enumerate(grads, 1):
        updater(0, mx.nd.array(g), weight)
        w_ref = ref(w_ref, g.astype(np.float64), state, p["learning_rate"], p.get("wd", 0.0), t, p)
        np.testing.assert_allclose(weight.asnumpy(), w_ref, rtol=5e-5, atol=5e-6, err_msg="step %d" % t)
    assert weight.handle == handle  # updated in place
    assert o.num_update == STEPS


def test_lars_skips_bias_and_norm_parameters_and_their_weight_decay():
    w0, grads = _data(3)
    o = opt.LARS(learning_rate=0.1, eta=0.5, wd=0.1, param_idx2name={0: "fc_weight", 1: "fc_bias"})
    assert o._get_wd(0) == pytest.approx(0.1) and o._get_wd(1) == 0.0
    bias = mx.nd.array(w0)
    o.update(1, bias, mx.nd.array(grads[0]), o.create_state(1, bias))
    np.testing.assert_allclose(bias.asnumpy(), w0 - 0.1 * grads[0], rtol=1e-5, atol=1e-6)  # plain SGD rate


def test_lars_momentum_correction_follows_the_scheduler():
    sched = mx.lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=1.0)
    o = opt.LARS(learning_rate=1.0, momentum=0.9, eta=1e9, lr_scheduler=sched, param_idx2name={0: "b_bias"})
    w = mx.nd.zeros((2,))
    state = o.create_state(0, w)
    g = np.array([1.0, -2.0], dtype=np.float32)
    ref_w, mom = np.zeros(2), np.zeros(2)
    last = None
    for _ in range(3):
        o.update(0, w, mx.nd.array(g), state)
        lr = sched(o.num_update)
        m = 0.9 * (lr / last if last else 1.0)
        last = lr
        mom = m * mom - lr * g
        ref_w = ref_w + mom
        np.testing.assert_allclose(w.asnumpy(), ref_w, rtol=1e-5)


def test_lbsgd_accumulates_batch_scale_updates():
    w0, grads = _data(5)
    o = opt.LBSGD(learning_rate=0.1, batch_scale=2, warmup_epochs=1, updates_per_epoch=1)
    w = mx.nd.array(w0)
    state = o.create_state(0, w)
    o.update(0, w, mx.nd.array(grads[0]), state)
    np.testing.assert_array_equal(w.asnumpy(), w0)  # first of two: no step
    o.update(0, w, mx.nd.array(grads[1]), state)
    # two accumulated, past warm-up: rate 0.1 * batch_scale on the mean gradient
    np.testing.assert_allclose(w.asnumpy(), w0 - 0.2 * (grads[0] + grads[1]) / 2, rtol=1e-5, atol=1e-6)


def test_sgld_step_is_half_gradient_plus_gaussian_noise():
    mx.random.seed(7)
    shape = (200, 100)
    w0 = np.zeros(shape, dtype=np.float32)
    g = np.full(shape, 0.5, dtype=np.float32)
    lr = 0.04
    o = mx.optimizer.create("sgld", learning_rate=lr, wd=0.0)
    w = mx.nd.array(w0)
    o.update(0, w, mx.nd.array(g), o.create_state(0, w))
    noise = w.asnumpy() - (w0 - lr / 2 * g)
    assert abs(noise.mean()) < 0.01
    assert noise.std() == pytest.approx(math.sqrt(lr), rel=0.03)


def test_group_adagrad_one_accumulator_per_row():
    w0, grads = _data(11)
    o = mx.optimizer.create("groupadagrad", learning_rate=0.1)
    assert isinstance(o, mx.optimizer.contrib.GroupAdaGrad)
    w = mx.nd.array(w0)
    state = o.create_state(0, w)
    assert state.shape == (SHAPE[0], 1)
    ref, hist = w0.astype(np.float64), np.zeros((SHAPE[0], 1))
    for g in grads:
        o.update(0, w, mx.nd.array(g), state)
        hist += (g.astype(np.float64) ** 2).mean(axis=1, keepdims=True)
        ref -= 0.1 * g / np.sqrt(hist + 1e-6)
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    with pytest.raises(mx.base.InvalidArgumentError, match="weight decay"):
        opt.GroupAdaGrad(wd=0.1).update(0, w, mx.nd.array(grads[0]), state)


def test_test_and_ccsgd_optimizers():
    w = mx.nd.ones((2, 2))
    o = mx.optimizer.create("test", rescale_grad=0.5)
    state = o.create_state(0, w)
    o.update(0, w, mx.nd.ones((2, 2)), state)
    np.testing.assert_array_equal(w.asnumpy(), np.full((2, 2), 1.5))
    np.testing.assert_array_equal(state.asnumpy(), w.asnumpy())
    assert isinstance(mx.optimizer.create("ccsgd"), opt.SGD)


MXNET_191_NAMES = ["sgd", "signum", "ftml", "lars", "lbsgd", "lamb", "dcasgd", "nag", "sgld", "ccsgd", "adam",
                   "adagrad", "rmsprop", "adadelta", "ftrl", "adamax", "nadam", "test", "groupadagrad"]


def test_every_mxnet_191_name_is_registered():
    for name in MXNET_191_NAMES:
        assert name in opt.Optimizer.opt_registry, name
        assert isinstance(mx.optimizer.create(name.upper()), opt.Optimizer)


@pytest.mark.parametrize("name", ["adamax", "nadam", "ftml", "lamb", "lars", "lbsgd", "dcasgd"])
def test_multi_precision_updates_a_float32_master_copy(name):
    kwargs = dict(DEFAULTS[name][1])
    kwargs.pop("learning_rate")
    w0, grads = _data(21)
    o16 = mx.optimizer.create(name, multi_precision=True, learning_rate=0.01, **{
        k: v for k, v in kwargs.items() if v is not None})
    o32 = mx.optimizer.create(name, learning_rate=0.01, **{k: v for k, v in kwargs.items() if v is not None})
    w16 = mx.nd.array(w0.astype(np.float16), dtype=np.float16)
    w32 = mx.nd.array(w0.astype(np.float16).astype(np.float32))
    u16, u32 = opt.get_updater(o16), opt.get_updater(o32)
    for g in grads:
        g16 = g.astype(np.float16)
        u16(0, mx.nd.array(g16, dtype=np.float16), w16)
        u32(0, mx.nd.array(g16.astype(np.float32)), w32)
    assert w16.dtype == np.float16
    state = u16.states[0]
    master = state[1] if name in ("lars", "lbsgd") else state[0]
    assert master.dtype == np.float32
    np.testing.assert_allclose(master.asnumpy(), w32.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w16.asnumpy(), w32.asnumpy().astype(np.float16), rtol=1e-3)


@pytest.mark.parametrize("name", ["adamax", "lamb", "lars", "sgd"])
def test_aggregate_num_gives_the_same_updates(name):
    weights = [_data(30 + i)[0] for i in range(5)]
    grads = [_data(40 + i)[1][0] for i in range(5)]
    results = []
    for agg in (0, 2):
        o = mx.optimizer.create(name, aggregate_num=agg, learning_rate=0.1, wd=0.01)
        u = opt.get_updater(o)
        assert u.aggregate_updates == (agg > 0)
        ws = [mx.nd.array(w) for w in weights]
        for _ in range(2):
            u(list(range(5)), [mx.nd.array(g) for g in grads], ws)
        results.append([w.asnumpy() for w in ws])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("name", ["adamax", "nadam", "ftml", "lamb", "dcasgd", "sgld"])
def test_lr_mult_and_wd_mult(name):
    o = mx.optimizer.create(name, learning_rate=0.1, wd=0.2, param_idx2name={0: "a_weight", 1: "a_bias"})
    o.set_lr_mult({"a_weight": 0.5})
    o.set_wd_mult({"a_weight": 3.0})
    assert o._get_lr(0) == pytest.approx(0.05) and o._get_wd(0) == pytest.approx(0.6)
    assert o._get_lr(1) == pytest.approx(0.1) and o._get_wd(1) == 0.0
    # a zero rate leaves the weight where it was (the multiplier reaches the update)
    o.set_lr_mult({"a_weight": 0.0})
    w0, grads = _data(2)
    w = mx.nd.array(w0)
    if name == "ftml":
        return  # FTML divides by the rate: lr 0 is not a valid setting there, as in MXNet
    o.update(0, w, mx.nd.array(grads[0]), o.create_state(0, w))
    if name != "sgld":
        np.testing.assert_allclose(w.asnumpy(), w0, atol=1e-7)


@pytest.mark.parametrize("name", ["adamax", "nadam", "ftml", "lamb", "lars", "lbsgd", "sgld", "dcasgd"])
def test_trainer_steps_and_round_trips_states(name, tmp_path):
    mx.random.seed(0)
    net = mx.gluon.nn.Dense(3, in_units=4)
    net.initialize(mx.init.Xavier())
    trainer = mx.gluon.Trainer(net.collect_params(), name, {"learning_rate": 0.01})
    x = mx.nd.array(np.random.RandomState(0).uniform(size=(8, 4)))
    before = net.weight.data().asnumpy().copy()
    for _ in range(2):
        with mx.autograd.record():
            loss = (net(x) ** 2).sum()
        loss.backward()
        trainer.step(8)
    assert not np.allclose(net.weight.data().asnumpy(), before)
    path = str(tmp_path / "t.states")
    trainer.save_states(path)
    trainer.load_states(path)
    assert type(trainer.optimizer).__name__.lower() == name
    with mx.autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    trainer.step(8)   # the restored optimizer keeps updating
    assert np.all(np.isfinite(net.weight.data().asnumpy()))
