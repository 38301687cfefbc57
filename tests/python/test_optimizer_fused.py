"""The optimizers that run MXNet 1.9.1's fused update ops (FTML, LAMB, SGD and
NAG with float16 multi_precision, SGD's aggregated multi_* path, centered
RMSProp, GroupAdaGrad, LBSGD's master copy): a few steps through an Updater
against a NumPy re-implementation of MXNet's documented formula, and a check
that the fused op named is the one that ran (so the test fails if the class
falls back to an nd-op sequence)."""
import numpy as np
import pytest

import weft as mx
from weft import optimizer as opt
from weft.optimizer import adamax_nadam, adaptive, contrib, large_batch, sgd

F16, F32 = np.float16, np.float32
STEPS = 3


def _clip(g, c):
    return np.clip(g, -c, c) if c else g


@pytest.fixture
def spy(monkeypatch):
    """spy(module, 'op') wraps module.op and returns the list its calls go to."""

    def install(module, name):
        calls = []
        real = getattr(module, name)

        def wrapper(*args, **kwargs):
            calls.append(kwargs)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)
        return calls

    return install


def _data(n_weights, shape=(3, 4), seed=17):
    r = np.random.default_rng(seed)
    w0 = [r.uniform(-1, 1, shape).astype(F32) for _ in range(n_weights)]
    grads = [[r.uniform(-1, 1, shape).astype(F32) for _ in range(n_weights)] for _ in range(STEPS)]
    return w0, grads


def _run(o, w0, grads, dtype=F32, batched=True):
    """STEPS updates of every weight through an Updater; the weights and updater back."""
    up = opt.get_updater(o)
    weights = [mx.nd.array(w, dtype=dtype) for w in w0]
    for step in grads:
        gs = [mx.nd.array(g, dtype=dtype) for g in step]
        if batched:
            up(list(range(len(weights))), gs, weights)
        else:
            for i, (g, w) in enumerate(zip(gs, weights)):
                up(i, g, w)
    return [w.asnumpy() for w in weights], up


# -- NumPy references of MXNet 1.9.1's formulas (float64 unless a float32 master is the point) --------
def ref_sgd(w, gs, lr, wd, momentum, rescale=1.0, clip=None, nesterov=False, dtype=np.float64):
    w = w.astype(dtype)
    mom = np.zeros_like(w)
    for g in gs:
        g = _clip(rescale * g.astype(dtype), clip) + wd * w
        if nesterov:
            if momentum:
                mom = momentum * mom + g
                w = w - lr * (momentum * mom + g)
            else:
                w = w - lr * g
        elif momentum:
            mom = momentum * mom - lr * g
            w = w + mom
        else:
            w = w - lr * g
    return w


def ref_ftml(w, gs, lr, wd, beta1, beta2, eps, rescale=1.0, clip=None):
    w = w.astype(np.float64)
    d = np.zeros_like(w)
    v = np.zeros_like(w)
    z = np.zeros_like(w)
    for t, g in enumerate(gs, 1):
        g = _clip(rescale * g + wd * w, clip)
        v = beta2 * v + (1 - beta2) * g * g
        d_t = (1 - beta1 ** t) / lr * (np.sqrt(v / (1 - beta2 ** t)) + eps)
        z = beta1 * z + (1 - beta1) * g - (d_t - beta1 * d) * w
        d = d_t
        w = -z / d_t
    return w


def ref_lamb(w, gs, lr, wd, beta1, beta2, eps, lower=None, upper=None, bias_correction=True, rescale=1.0,
             clip=None, dtype=np.float64):
    w = w.astype(dtype)
    mean = np.zeros_like(w)
    var = np.zeros_like(w)
    for t, g in enumerate(gs, 1):
        g = _clip(rescale * g.astype(dtype), clip)
        mean = beta1 * mean + (1 - beta1) * g
        var = beta2 * var + (1 - beta2) * g * g
        if bias_correction:
            r = mean / (1 - beta1 ** t) / (np.sqrt(var / (1 - beta2 ** t)) + eps) + wd * w
        else:
            r = mean / (np.sqrt(var) + eps) + wd * w
        r1 = np.linalg.norm(w)
        if lower:
            r1 = max(r1, lower)
        if upper:
            r1 = min(r1, upper)
        r2 = np.linalg.norm(r)
        ratio = r1 / r2 if r1 > 0 and r2 > 0 else 1.0
        w = w - lr * ratio * r
    return w


def ref_rmsprop_centered(w, gs, lr, wd, gamma1, gamma2, eps, clip_weights=None):
    w = w.astype(np.float64)
    n = np.zeros_like(w)
    m = np.zeros_like(w)
    delta = np.zeros_like(w)
    for g in gs:
        g = g + wd * w
        n = (1 - gamma1) * g * g + gamma1 * n
        m = (1 - gamma1) * g + gamma1 * m
        delta = gamma2 * delta - lr * g / np.sqrt(n - m * m + eps)
        w = w + delta
        if clip_weights:
            w = np.clip(w, -clip_weights, clip_weights)
    return w


def ref_group_adagrad(w, gs, lr, eps, rescale=1.0):
    w = w.astype(np.float64)
    hist = np.zeros((w.shape[0], 1))
    for g in gs:
        g = rescale * g
        hist += np.mean(g * g, axis=1, keepdims=True)
        w = w - lr * g / np.sqrt(hist + eps)
    return w


def _per_weight(ref, w0, grads, **kw):
    return [ref(w, [step[i] for step in grads], **kw) for i, w in enumerate(w0)]


# -- FTML -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("clip", [None, 0.3])
def test_ftml_runs_ftml_update(spy, clip):
    calls = spy(adamax_nadam, "ftml_update")
    w0, grads = _data(2)
    o = opt.FTML(learning_rate=0.05, wd=0.01, beta1=0.6, beta2=0.99, rescale_grad=0.5, clip_gradient=clip)
    got, _ = _run(o, w0, grads)
    want = _per_weight(ref_ftml, w0, [[g * 1.0 for g in s] for s in grads], lr=0.05, wd=0.01, beta1=0.6,
                       beta2=0.99, eps=1e-8, rescale=0.5, clip=clip)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=1e-5)
    assert len(calls) == 2 * STEPS and [c["t"] for c in calls[::2]] == [1, 2, 3]
    assert ("clip_grad" in calls[0]) == bool(clip)


# -- LAMB -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bias_correction,lower,upper", [(True, None, None), (False, 0.5, 1.0)])
def test_lamb_runs_both_phases(spy, bias_correction, lower, upper):
    p1, p2 = spy(large_batch, "lamb_update_phase1"), spy(large_batch, "lamb_update_phase2")
    w0, grads = _data(2)
    o = opt.LAMB(learning_rate=0.02, wd=0.01, lower_bound=lower, upper_bound=upper,
                 bias_correction=bias_correction, clip_gradient=0.8)
    got, _ = _run(o, w0, grads)
    want = _per_weight(ref_lamb, w0, grads, lr=0.02, wd=0.01, beta1=0.9, beta2=0.999, eps=1e-6, lower=lower,
                       upper=upper, bias_correction=bias_correction, clip=0.8)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
    assert len(p1) == len(p2) == 2 * STEPS
    assert ("lower_bound" in p2[0]) == bool(lower)


def test_lamb_multi_precision_float16(spy):
    p1, p2 = spy(large_batch, "mp_lamb_update_phase1"), spy(large_batch, "mp_lamb_update_phase2")
    w0, grads = _data(2)
    w0 = [w.astype(F16).astype(F32) for w in w0]
    grads = [[g.astype(F16).astype(F32) for g in s] for s in grads]
    o = opt.LAMB(learning_rate=0.02, wd=0.01, multi_precision=True)
    got, up = _run(o, w0, grads, dtype=F16)
    want = _per_weight(ref_lamb, w0, grads, lr=0.02, wd=0.01, beta1=0.9, beta2=0.999, eps=1e-6, dtype=np.float64)
    for i, (a, b) in enumerate(zip(got, want)):
        weight32, (mean, var) = up.states[i]
        assert a.dtype == F16 and weight32.dtype == F32 and mean.dtype == F32
        np.testing.assert_allclose(weight32.asnumpy(), b, rtol=1e-4, atol=1e-6)
        np.testing.assert_array_equal(a, weight32.asnumpy().astype(F16))
    assert len(p1) == len(p2) == 2 * STEPS


# -- SGD / NAG: float16 master copies ---------------------------------------------------------------------
@pytest.mark.parametrize("momentum", [0.0, 0.9])
@pytest.mark.parametrize("klass,nesterov", [(opt.SGD, False), (opt.NAG, True)])
def test_sgd_nag_multi_precision_use_mp_ops(spy, klass, nesterov, momentum):
    module_calls = {name: spy(sgd, name) for name in ("mp_sgd_update", "mp_sgd_mom_update", "mp_nag_mom_update")}
    w0, grads = _data(2)
    w0 = [w.astype(F16).astype(F32) for w in w0]
    grads = [[g.astype(F16).astype(F32) for g in s] for s in grads]
    o = klass(learning_rate=0.1, momentum=momentum, wd=0.01, rescale_grad=0.5, clip_gradient=0.4,
              multi_precision=True, aggregate_num=0)
    got, up = _run(o, w0, grads, dtype=F16, batched=False)
    want = _per_weight(ref_sgd, w0, grads, lr=0.1, wd=0.01, momentum=momentum, rescale=0.5, clip=0.4,
                       nesterov=nesterov)
    for i, (a, b) in enumerate(zip(got, want)):
        mom, weight32 = up.states[i]
        assert weight32.dtype == F32 and (mom is None) == (momentum == 0.0)
        np.testing.assert_allclose(weight32.asnumpy(), b, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(a, weight32.asnumpy().astype(F16))
    expected = "mp_sgd_update" if not momentum else ("mp_nag_mom_update" if nesterov else "mp_sgd_mom_update")
    assert {k: len(v) for k, v in module_calls.items()} == {
        k: (2 * STEPS if k == expected else 0) for k in module_calls}


# -- SGD: MXNet's aggregated multi_* path ----------------------------------------------------------------
def test_sgd_aggregation_size_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", raising=False)
    assert opt.SGD().aggregate_num == 4
    monkeypatch.setenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "2")
    assert opt.SGD().aggregate_num == 2
    assert opt.SGD(aggregate_num=0).aggregate_num == 0


@pytest.mark.parametrize("multi_precision", [False, True])
@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_sgd_aggregated_runs_one_multi_op_per_group(spy, momentum, multi_precision):
    names = ("multi_sgd_update", "multi_sgd_mom_update", "multi_mp_sgd_update", "multi_mp_sgd_mom_update")
    module_calls = {name: spy(sgd, name) for name in names}
    w0, grads = _data(5)
    dtype = F16 if multi_precision else F32
    if multi_precision:
        w0 = [w.astype(F16).astype(F32) for w in w0]
        grads = [[g.astype(F16).astype(F32) for g in s] for s in grads]
    o = opt.SGD(learning_rate=0.1, momentum=momentum, wd=0.01, clip_gradient=0.5, multi_precision=multi_precision,
                aggregate_num=2, param_idx2name={i: "w%d_weight" % i for i in range(5)})
    o.set_lr_mult({"w1_weight": 0.5})
    o.set_wd_mult({"w3_weight": 0.0})
    got, up = _run(o, w0, grads, dtype=dtype)
    for i, w in enumerate(w0):
        lr = 0.1 * (0.5 if i == 1 else 1.0)
        wd = 0.0 if i == 3 else 0.01
        want = ref_sgd(w, [s[i] for s in grads], lr=lr, wd=wd, momentum=momentum, clip=0.5)
        if multi_precision:
            weight32 = up.states[i][1].asnumpy()
            np.testing.assert_allclose(weight32, want, rtol=1e-5, atol=1e-6)
            np.testing.assert_array_equal(got[i], weight32.astype(F16))
        else:
            np.testing.assert_allclose(got[i], want, rtol=1e-5, atol=1e-6)
    expected = "multi_%ssgd_%supdate" % ("mp_" if multi_precision else "", "mom_" if momentum else "")
    calls = module_calls[expected]
    # 5 weights in groups of aggregate_num=2: 3 calls a step, the per-weight rates passed as lists
    assert len(calls) == 3 * STEPS and [c["num_weights"] for c in calls[:3]] == [2, 2, 1]
    assert list(calls[0]["lrs"]) == pytest.approx([0.1, 0.05]) and list(calls[1]["wds"]) == pytest.approx([0.01, 0])
    assert all(len(v) == 0 for k, v in module_calls.items() if k != expected)


def test_sgd_aggregated_matches_unaggregated():
    w0, grads = _data(3)
    a, _ = _run(opt.SGD(learning_rate=0.1, momentum=0.9, wd=0.01, aggregate_num=4), w0, grads)
    b, _ = _run(opt.SGD(learning_rate=0.1, momentum=0.9, wd=0.01, aggregate_num=0), w0, grads)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-7)


# -- the rest: centered RMSProp, GroupAdaGrad, LBSGD's float16 master copy --------------------------------
def test_rmsprop_centered_runs_rmspropalex_update(spy):
    calls = spy(adaptive, "rmspropalex_update")
    w0, grads = _data(2)
    o = opt.RMSProp(learning_rate=0.01, gamma1=0.9, gamma2=0.8, epsilon=1e-6, centered=True, wd=0.01,
                    clip_weights=0.9)
    got, _ = _run(o, w0, grads)
    want = _per_weight(ref_rmsprop_centered, w0, grads, lr=0.01, wd=0.01, gamma1=0.9, gamma2=0.8, eps=1e-6,
                       clip_weights=0.9)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
    assert len(calls) == 2 * STEPS and calls[0]["clip_weights"] == 0.9


def test_group_adagrad_runs_the_contrib_op(spy):
    calls = spy(contrib, "group_adagrad_update")
    w0, grads = _data(2)
    o = opt.contrib.GroupAdaGrad(learning_rate=0.1, rescale_grad=0.5)
    got, _ = _run(o, w0, grads)
    assert o.float_stable_eps == 1e-5  # MXNet 1.9.1's default
    want = _per_weight(ref_group_adagrad, w0, grads, lr=0.1, eps=1e-5, rescale=0.5)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert len(calls) == 2 * STEPS


def test_lbsgd_multi_precision_uses_mp_sgd_mom_update(spy):
    calls = spy(large_batch, "mp_sgd_mom_update")
    w0, grads = _data(1)
    w0 = [w.astype(F16).astype(F32) for w in w0]
    grads = [[g.astype(F16).astype(F32) for g in s] for s in grads]
    o = opt.LBSGD(learning_rate=0.1, momentum=0.9, wd=0.01, multi_precision=True, warmup_epochs=0)
    got, up = _run(o, w0, grads, dtype=F16)
    want = ref_sgd(w0[0], [s[0] for s in grads], lr=0.1, wd=0.01, momentum=0.9)
    weight32 = up.states[0][1].asnumpy()
    np.testing.assert_allclose(weight32, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got[0], weight32.astype(F16))
    assert len(calls) == STEPS
