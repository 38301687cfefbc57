"""weft.optimizer against NumPy references of MXNet 1.x's update formulas."""
import math
import warnings

import numpy as np
import pytest

import weft as mx
from weft import optimizer as opt
from weft.lr_scheduler import FactorScheduler

SHAPE = (3, 4)
STEPS = 4


def _clip(g, c):
    return np.clip(g, -c, c) if c else g


# -- NumPy references: ref(w, g, state, lr, wd, t, p) -> new w (state updated in place) ------------
def ref_sgd(w, g, s, lr, wd, t, p):
    g = _clip(p["rescale_grad"] * g, p["clip_gradient"]) + wd * w
    if p["momentum"]:
        s["mom"] = p["momentum"] * s.get("mom", 0.0) - lr * g
        return w + s["mom"]
    return w - lr * g


def ref_nag(w, g, s, lr, wd, t, p):
    g = _clip(p["rescale_grad"] * g, p["clip_gradient"]) + wd * w
    if p["momentum"]:
        s["mom"] = p["momentum"] * s.get("mom", 0.0) + g
        return w - lr * (p["momentum"] * s["mom"] + g)
    return w - lr * g


def ref_signum(w, g, s, lr, wd, t, p):
    if p["momentum"]:
        g = _clip(p["rescale_grad"] * g, p["clip_gradient"]) + wd * w
        s["mom"] = p["momentum"] * s.get("mom", 0.0) - (1 - p["momentum"]) * g
        return (1 - lr * p["wd_lh"]) * w + lr * np.sign(s["mom"])
    return (1 - lr * wd) * w - lr * np.sign(g)


def _adam_moments(g, s, p):
    s["m"] = p["beta1"] * s.get("m", 0.0) + (1 - p["beta1"]) * g
    s["v"] = p["beta2"] * s.get("v", 0.0) + (1 - p["beta2"]) * g * g
    return s["m"] / (np.sqrt(s["v"]) + p["epsilon"])


def ref_adam(w, g, s, lr, wd, t, p):
    lr_t = lr * math.sqrt(1 - p["beta2"] ** t) / (1 - p["beta1"] ** t)
    g = _clip(p["rescale_grad"] * g + wd * w, p["clip_gradient"])
    return w - lr_t * _adam_moments(g, s, p)


def ref_adamw(w, g, s, lr, wd, t, p):
    lr_t = lr * math.sqrt(1 - p["beta2"] ** t) / (1 - p["beta1"] ** t) if p["correct_bias"] else lr
    g = _clip(p["rescale_grad"] * g, p["clip_gradient"])
    return w - lr_t * (_adam_moments(g, s, p) + wd * w)


def ref_rmsprop(w, g, s, lr, wd, t, p):
    g = _clip(p["rescale_grad"] * g + wd * w, p["clip_gradient"])
    g1 = p["gamma1"]
    s["n"] = (1 - g1) * g * g + g1 * s.get("n", 0.0)
    if p["centered"]:
        s["g"] = (1 - g1) * g + g1 * s.get("g", 0.0)
        s["delta"] = p["gamma2"] * s.get("delta", 0.0) - lr * g / np.sqrt(s["n"] - s["g"] ** 2 + p["epsilon"])
        w = w + s["delta"]
    else:
        w = w - lr * g / np.sqrt(s["n"] + p["epsilon"])
    return _clip(w, p["clip_weights"])


def ref_adagrad(w, g, s, lr, wd, t, p):
    g = _clip(p["rescale_grad"] * g, p["clip_gradient"])
    s["h"] = s.get("h", 0.0) + g * g
    return w - lr * (g / np.sqrt(s["h"] + p["eps"]) + wd * w)


def ref_adadelta(w, g, s, lr, wd, t, p):
    g = _clip(p["rescale_grad"] * g, p["clip_gradient"])
    rho, eps = p["rho"], p["epsilon"]
    s["acc_g"] = rho * s.get("acc_g", 0.0) + (1 - rho) * g * g
    delta = np.sqrt(s.get("acc_d", 0.0) + eps) / np.sqrt(s["acc_g"] + eps) * g
    s["acc_d"] = rho * s.get("acc_d", 0.0) + (1 - rho) * delta * delta
    return w - (delta + wd * w)


def ref_ftrl(w, g, s, lr, wd, t, p):
    g = _clip(p["rescale_grad"] * g, p["clip_gradient"])
    n = s.get("n", np.zeros_like(w))
    s["z"] = s.get("z", 0.0) + g - (np.sqrt(n + g * g) - np.sqrt(n)) * w / lr
    s["n"] = n + g * g
    z = s["z"]
    return (np.sign(z) * p["lamda1"] - z) / ((p["beta"] + np.sqrt(s["n"])) / lr + wd) * (np.abs(z) > p["lamda1"])


COMMON = {"rescale_grad": 1.0, "clip_gradient": None}
DEFAULTS = {
    "sgd": (ref_sgd, {"learning_rate": 0.01, "momentum": 0.0}),
    "nag": (ref_nag, {"learning_rate": 0.01, "momentum": 0.0}),
    "signum": (ref_signum, {"learning_rate": 0.01, "momentum": 0.9, "wd_lh": 0.0}),
    "adam": (ref_adam, {"learning_rate": 0.001, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8}),
    "adamw": (ref_adamw, {"learning_rate": 0.001, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8,
                          "correct_bias": True}),
    "rmsprop": (ref_rmsprop, {"learning_rate": 0.001, "gamma1": 0.9, "gamma2": 0.9, "epsilon": 1e-8,
                              "centered": False, "clip_weights": None}),
    "adagrad": (ref_adagrad, {"learning_rate": 0.01, "eps": 1e-7}),
    "adadelta": (ref_adadelta, {"learning_rate": 0.01, "rho": 0.9, "epsilon": 1e-5}),
    "ftrl": (ref_ftrl, {"learning_rate": 0.1, "lamda1": 0.01, "beta": 1}),
}

CASES = [
    ("sgd", {}),
    ("sgd", {"momentum": 0.9, "wd": 0.01}),
    ("sgd", {"momentum": 0.9, "clip_gradient": 0.3, "rescale_grad": 0.5, "learning_rate": 0.1}),
    ("sgd", {"wd": 0.1, "clip_gradient": 0.2}),
    ("nag", {"momentum": 0.9, "wd": 0.01, "learning_rate": 0.1}),
    ("nag", {"clip_gradient": 0.25, "rescale_grad": 2.0}),
    ("signum", {"wd": 0.01, "learning_rate": 0.05}),
    ("signum", {"wd_lh": 0.1, "clip_gradient": 0.3}),
    ("signum", {"momentum": 0.0, "wd": 0.05}),
    ("adam", {}),
    ("adam", {"wd": 0.1, "clip_gradient": 0.4, "rescale_grad": 0.7, "learning_rate": 0.01}),
    ("adamw", {"wd": 0.1, "learning_rate": 0.01}),
    ("adamw", {"wd": 0.05, "correct_bias": False, "clip_gradient": 0.3}),
    ("rmsprop", {"wd": 0.01, "learning_rate": 0.01}),
    ("rmsprop", {"clip_gradient": 0.3, "clip_weights": 0.9, "rescale_grad": 1.5, "learning_rate": 0.05}),
    ("rmsprop", {"centered": True, "wd": 0.01, "learning_rate": 0.01}),
    ("rmsprop", {"centered": True, "clip_gradient": 0.3, "clip_weights": 0.9, "gamma2": 0.5,
                 "learning_rate": 0.05}),
    ("adagrad", {"wd": 0.01, "learning_rate": 0.1}),
    ("adagrad", {"clip_gradient": 0.3, "rescale_grad": 2.0}),
    ("adadelta", {"wd": 0.01}),
    ("adadelta", {"rho": 0.5, "clip_gradient": 0.3, "rescale_grad": 0.5}),
    ("ftrl", {"wd": 0.01}),
    ("ftrl", {"lamda1": 0.05, "beta": 0.5, "clip_gradient": 0.3, "rescale_grad": 2.0, "learning_rate": 0.5}),
]


def _data(seed, steps=STEPS, shape=SHAPE):
    rng = np.random.RandomState(seed)
    w0 = rng.uniform(-1, 1, shape).astype(np.float32)
    grads = [rng.uniform(-1, 1, shape).astype(np.float32) for _ in range(steps)]
    return w0, grads


def _params(name, kwargs):
    ref, defaults = DEFAULTS[name]
    p = dict(COMMON)
    p.update(defaults)
    p.update(kwargs)
    return ref, p


@pytest.mark.parametrize("name,kwargs", CASES, ids=["%s-%d" % (c[0], i) for i, c in enumerate(CASES)])
def test_matches_numpy_reference(name, kwargs):
    ref, p = _params(name, kwargs)
    w0, grads = _data(len(name) + len(kwargs))
    o = opt.create(name, **kwargs)
    updater = opt.get_updater(o)
    weight = mx.nd.array(w0)
    handle = weight.handle
    w_ref, state = w0.astype(np.float64), {}
    for t, g in enumerate(grads, 1):
        updater(0, mx.nd.array(g), weight)
        w_ref = ref(w_ref, g.astype(np.float64), state, p["learning_rate"], p.get("wd", 0.0), t, p)
        np.testing.assert_allclose(weight.asnumpy(), w_ref, rtol=2e-5, atol=2e-6, err_msg="step %d" % t)
    assert weight.handle == handle  # updated in place
    assert o.num_update == STEPS


FUSED = [("sgd", {}, "sgd", "sgd_update"), ("sgd", {"momentum": 0.9}, "sgd", "sgd_mom_update"),
         ("nag", {"momentum": 0.9}, "sgd", "nag_mom_update"), ("signum", {}, "sgd", "signum_update"),
         ("signum", {"momentum": 0.0}, "sgd", "signsgd_update"), ("adam", {}, "adaptive", "adam_update"),
         ("adamw", {"wd": 0.1}, "adaptive", "adam_update"), ("rmsprop", {}, "adaptive", "rmsprop_update"),
         ("ftrl", {}, "adaptive", "ftrl_update")]


@pytest.mark.parametrize("name,kwargs,module,opname", FUSED)
def test_fused_op_runs_in_place(monkeypatch, name, kwargs, module, opname):
    mod = getattr(opt, module)
    real = getattr(mod, opname)
    calls = []

    def spy(*args, **kw):
        calls.append(kw.get("out"))
        return real(*args, **kw)

    monkeypatch.setattr(mod, opname, spy)
    o = opt.create(name, **kwargs)
    weight = mx.nd.ones(SHAPE)
    o.update(0, weight, mx.nd.ones(SHAPE), o.create_state(0, weight))
    assert len(calls) == 1 and calls[0] is weight


def test_create_is_case_insensitive_and_bad_names_fail():
    for name, klass in [("SGD", opt.SGD), ("Adam", opt.Adam), ("adamW", opt.AdamW), ("RMSProp", opt.RMSProp),
                        ("nag", opt.NAG), ("AdaGrad", opt.AdaGrad), ("adadelta", opt.AdaDelta),
                        ("FTRL", opt.Ftrl), ("signum", opt.Signum)]:
        assert isinstance(opt.create(name), klass)
        assert isinstance(opt.Optimizer.create_optimizer(name), klass)
    with pytest.raises(ValueError, match="nosuchopt"):
        opt.create("nosuchopt")
    with pytest.raises(TypeError):
        opt.create("sgd", no_such_argument=1)


def test_register_custom_optimizer():
    @opt.register
    class MyTestOpt(opt.Optimizer):  # pylint: disable=unused-variable
        def update(self, index, weight, grad, state):
            weight[:] = 7.0

    o = opt.create("mytestopt")
    w = mx.nd.zeros((2,))
    opt.get_updater(o)(0, mx.nd.zeros((2,)), w)
    assert w.asnumpy().tolist() == [7.0, 7.0]
    del opt.Optimizer.opt_registry["mytestopt"]


def _mp_run(name, kwargs, ref):
    w0, grads = _data(7)
    grads16 = [g.astype(np.float16) for g in grads]
    o = opt.create(name, multi_precision=True, **kwargs)
    updater = opt.get_updater(o)
    weight = mx.nd.array(w0, dtype="float16")
    _, p = _params(name, kwargs)
    w32 = w0.astype(np.float16).astype(np.float64)
    state = {}
    for t, g in enumerate(grads16, 1):
        updater(0, mx.nd.array(g, dtype="float16"), weight)
        w32 = ref(w32, g.astype(np.float64), state, p["learning_rate"], p.get("wd", 0.0), t, p)
        assert weight.dtype == np.float16
        np.testing.assert_allclose(weight.asnumpy().astype(np.float64), w32.astype(np.float16), rtol=0, atol=2e-3)
    return updater.states[0], w32


def test_multi_precision_sgd_keeps_float32_master_copy():
    (mom, master), w32 = _mp_run("sgd", {"momentum": 0.9, "wd": 0.01, "learning_rate": 0.1}, ref_sgd)
    assert master.dtype == np.float32 and mom.dtype == np.float32
    np.testing.assert_allclose(master.asnumpy(), w32, rtol=1e-5, atol=1e-6)


def test_multi_precision_adam_uses_base_layout():
    (master, (mean, var)), w32 = _mp_run("adam", {"wd": 0.01, "learning_rate": 0.01}, ref_adam)
    assert master.dtype == np.float32 and mean.dtype == np.float32 and var.dtype == np.float32
    np.testing.assert_allclose(master.asnumpy(), w32, rtol=1e-5, atol=1e-6)


def test_float16_without_multi_precision_warns():
    o = opt.SGD(momentum=0.9)
    with pytest.warns(UserWarning, match="multi_precision"):
        state = o.create_state_multi_precision(0, mx.nd.ones((2,), dtype="float16"))
    assert state.dtype == np.float16


def test_lr_mult_and_wd_mult():
    o = opt.SGD(learning_rate=0.1, wd=0.01, param_idx2name={0: "fc_weight", 1: "fc_bias", 2: "bn_gamma"})
    assert o.wd_mult == {"fc_bias": 0.0}
    assert o._get_wd(0) == pytest.approx(0.01) and o._get_wd(1) == 0.0 and o._get_wd(2) == pytest.approx(0.01)
    o.set_lr_mult({"fc_weight": 0.5, 2: 3.0})
    o.set_wd_mult({"fc_weight": 2.0})
    assert o._get_lr(0) == pytest.approx(0.05) and o._get_lr(1) == pytest.approx(0.1)
    assert o._get_lr(2) == pytest.approx(0.3)
    assert o._get_wd(0) == pytest.approx(0.02)
    assert o._get_wd(1) == 0.0  # set_wd_mult keeps the no-decay default of non-weights
    w0, grads = _data(3)
    w = mx.nd.array(w0)
    o.update(0, w, mx.nd.array(grads[0]), None)
    np.testing.assert_allclose(w.asnumpy(), w0 - 0.05 * (grads[0] + 0.02 * w0), rtol=1e-6)


def test_param_dict_multipliers_take_precedence():
    class Param:  # pylint: disable=too-few-public-methods
        def __init__(self, lr_mult, wd_mult):
            self.lr_mult, self.wd_mult = lr_mult, wd_mult

    o = opt.SGD(learning_rate=1.0, wd=1.0, param_dict={0: Param(0.25, 0.5)})
    o.set_lr_mult({0: 10.0})
    assert o._get_lr(0) == 0.25 and o._get_wd(0) == 0.5 and o._get_lr(1) == 1.0


def test_symbol_lr_mult_attributes():
    net = mx.sym.FullyConnected(mx.sym.var("data"), weight=mx.sym.var("fc_weight", lr_mult=2.0, wd_mult=0.0),
                                num_hidden=3, name="fc")
    o = opt.SGD(learning_rate=0.1, wd=0.5, sym=net, param_idx2name={0: "fc_weight"})
    assert o._get_lr(0) == pytest.approx(0.2) and o._get_wd(0) == 0.0


def test_lr_scheduler_hookup_and_update_counts():
    sched = FactorScheduler(step=2, factor=0.5, base_lr=1.0)
    o = opt.SGD(lr_scheduler=sched)
    assert o.learning_rate == 1.0
    with pytest.raises(UserWarning):
        o.set_learning_rate(0.3)
    updater = opt.get_updater(o)
    w = mx.nd.zeros((2,))
    expected = 0.0
    for t in range(1, 6):
        updater(0, mx.nd.ones((2,)), w)
        expected -= 1.0 * 0.5 ** ((t - 1) // 2)
        np.testing.assert_allclose(w.asnumpy(), [expected] * 2, rtol=1e-6)
    assert o.num_update == 5 and o._index_update_count == {0: 5}
    updater(1, mx.nd.ones((2,)), mx.nd.zeros((2,)))  # a second weight: counted on its own
    assert o.num_update == 5 and o._index_update_count[1] == 1


def test_learning_rate_overrides_scheduler_base_lr():
    sched = FactorScheduler(step=10, base_lr=1.0)
    with pytest.warns(UserWarning, match="overwritten"):
        o = opt.SGD(learning_rate=0.2, lr_scheduler=sched)
    assert sched.base_lr == 0.2 and o.learning_rate == 0.2
    o = opt.SGD(learning_rate=0.5)
    o.set_learning_rate(0.25)
    assert o.learning_rate == 0.25 and o.lr == 0.25


def test_begin_num_update_and_per_device_counts():
    o = opt.Adam(begin_num_update=10)
    o._update_count(0)
    assert o._index_update_count[0] == 11 and o.num_update == 11
    o._set_current_context(1)
    o._update_count(0)
    assert o._index_update_count[0] == 11 and o._all_index_update_counts[0][0] == 11


def _run_steps(updater, weights, grads):
    for i, (w, g) in enumerate(zip(weights, grads)):
        updater(i, mx.nd.array(g), w)


def test_states_round_trip_without_pickle():
    w0, grads = _data(11, steps=4)
    o = opt.Adam(learning_rate=0.01, wd=0.01)
    up = opt.get_updater(o)
    weights = [mx.nd.array(w0), mx.nd.array(w0 * 2)]
    _run_steps(up, weights, grads[:2])
    blob = up.get_states()
    assert isinstance(blob, bytes) and blob[:8] == b"WEFTOPTS" and b"\x80\x04\x95" not in blob[:16]

    up2 = opt.get_updater(opt.Adam(learning_rate=0.01, wd=0.01))
    up2.set_states(blob)
    assert set(up2.states) == {0, 1} and not any(up2.states_synced.values())
    for (m1, v1), (m2, v2) in zip((up.states[0], up.states[1]), (up2.states[0], up2.states[1])):
        np.testing.assert_array_equal(m1.asnumpy(), m2.asnumpy())
        np.testing.assert_array_equal(v1.asnumpy(), v2.asnumpy())

    # With the optimizer: counters (Adam's bias correction) and settings come back too.
    full = up.get_states(dump_optimizer=True)
    up3 = opt.get_updater(opt.SGD())
    up3.set_states(full)
    assert isinstance(up3.optimizer, opt.Adam) and up3.optimizer is not o
    assert up3.optimizer.num_update == o.num_update and up3.optimizer._index_update_count == {0: 1, 1: 1}
    assert up3.optimizer.wd == 0.01 and up3.optimizer.lr == 0.01 and up3.optimizer.param_dict == {}
    weights3 = [w.copy() for w in weights]
    _run_steps(up, weights, grads[2:])
    _run_steps(up3, weights3, grads[2:])
    for a, b in zip(weights, weights3):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_states_round_trip_multi_precision_none_and_scheduler():
    sched = FactorScheduler(step=1, factor=0.5, base_lr=0.1)
    o = opt.SGD(multi_precision=True, lr_scheduler=sched)  # no momentum: state (None, weight32)
    up = opt.get_updater(o)
    w = mx.nd.ones((3,), dtype="float16")
    up("w", mx.nd.ones((3,), dtype="float16"), w)
    up("w", mx.nd.ones((3,), dtype="float16"), w)
    up2 = opt.get_updater(opt.SGD())
    up2.set_states(up.get_states(dump_optimizer=True))
    mom, master = up2.states["w"]
    assert mom is None and master.dtype == np.float32
    np.testing.assert_array_equal(master.asnumpy(), up.states["w"][1].asnumpy())
    sched2 = up2.optimizer.lr_scheduler
    assert isinstance(sched2, FactorScheduler) and sched2 is not sched
    assert sched2.base_lr == sched.base_lr and sched2.count == sched.count
    w2 = w.copy()
    up("w", mx.nd.ones((3,), dtype="float16"), w)
    up2("w", mx.nd.ones((3,), dtype="float16"), w2)
    np.testing.assert_array_equal(w.asnumpy(), w2.asnumpy())


def test_set_states_rejects_foreign_data():
    up = opt.get_updater(opt.SGD())
    with pytest.raises(ValueError, match="magic"):
        up.set_states(b"\x80\x04\x95 not ours")
    empty = opt.get_updater(opt.SGD()).get_states()
    up.set_states(empty)
    assert up.states == {}


def test_updater_lists_and_sync():
    o = opt.SGD(learning_rate=1.0, momentum=0.5)
    up = opt.get_updater(o)
    ws = [mx.nd.zeros((2,)), mx.nd.zeros((3,))]
    up([0, 1], [mx.nd.ones((2,)), mx.nd.ones((3,))], ws)
    assert ws[0].asnumpy().tolist() == [-1.0, -1.0] and ws[1].asnumpy().tolist() == [-1.0] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state = up.sync_state_context((ws[0], None, [ws[1]]), mx.cpu())
    assert state[0] is ws[0] and state[1] is None and state[2][0] is ws[1]
