"""weft.gluon.Trainer: updates against NumPy formulas of MXNet 1.x's SGD and
Adam (rescale_grad = 1/batch_size, lr_mult / wd_mult, grad_req 'null'), the
learning rate, save/load_states, allreduce_grads + update, the kvstore
argument, several devices and parameters that never got a gradient."""
import math
import os

import numpy as np
import pytest

import weft as mx
from weft import autograd
from weft.gluon.parameter import Parameter, ParameterDict
from weft.gluon.trainer import Trainer

SHAPE = (3, 4)


def _param(name, value, **kwargs):
    p = Parameter(name, shape=value.shape, **kwargs)
    p.initialize(mx.init.Constant(0.0))
    p.set_data(mx.nd.array(value))
    return p


def _backward(params, coefs):
    """loss = sum_i sum(p_i * c_i), so each gradient is c_i (on every copy)."""
    for ctx_i in range(len(params[0].list_ctx())):
        with autograd.record():
            total = None
            for p, c in zip(params, coefs):
                if p.grad_req == "null":
                    continue
                term = (p.list_data()[ctx_i] * mx.nd.array(c, ctx=p.list_ctx()[ctx_i])).sum()
                total = term if total is None else total + term
        total.backward()


def _coefs(rng, n):
    return [rng.randn(*SHAPE) for _ in range(n)]


def test_sgd_momentum_wd_and_multipliers():
    rng = np.random.RandomState(0)
    w0 = [rng.randn(*SHAPE) for _ in range(3)]
    params = [_param("a_weight", w0[0]), _param("b_weight", w0[1], lr_mult=0.5, wd_mult=0.0),
              _param("c_frozen", w0[2], grad_req="null")]
    lr, mom, wd, batch = 0.1, 0.9, 0.01, 8
    trainer = Trainer(params, "sgd", {"learning_rate": lr, "momentum": mom, "wd": wd})
    ref = [w.copy() for w in w0]
    state = [np.zeros(SHAPE) for _ in w0]
    mults = [(1.0, 1.0), (0.5, 0.0)]
    for _ in range(3):
        cs = _coefs(rng, 3)
        _backward(params, cs)
        trainer.step(batch)
        for i, (lm, wm) in enumerate(mults):
            g = cs[i] / batch + wd * wm * ref[i]
            state[i] = mom * state[i] - lr * lm * g
            ref[i] = ref[i] + state[i]
    for p, r in zip(params[:2], ref[:2]):
        np.testing.assert_allclose(p.data().asnumpy(), r, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(params[2].data().asnumpy(), w0[2].astype(np.float32))
    assert trainer.optimizer.rescale_grad == pytest.approx(1.0 / batch)


def test_adam_matches_formula():
    rng = np.random.RandomState(1)
    w0 = rng.randn(*SHAPE)
    p = _param("w", w0)
    lr, b1, b2, eps, batch = 0.01, 0.9, 0.999, 1e-8, 4
    trainer = Trainer({"w": p}, "adam", {"learning_rate": lr})
    w, m, v = w0.copy(), np.zeros(SHAPE), np.zeros(SHAPE)
    for t in range(1, 4):
        c = rng.randn(*SHAPE)
        _backward([p], [c])
        trainer.step(batch)
        g = c / batch
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w = w - lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
    np.testing.assert_allclose(p.data().asnumpy(), w, rtol=1e-5, atol=1e-6)


def test_params_forms_and_optimizer_instance():
    rng = np.random.RandomState(2)
    pd = ParameterDict("net_")
    b = pd.get("b", shape=SHAPE)
    a = pd.get("a", shape=SHAPE)
    pd.initialize(mx.init.Zero())
    trainer = Trainer(pd, "sgd")
    assert [p.name for p in trainer._params] == ["net_a", "net_b"]  # sorted by name, as MXNet
    assert trainer.optimizer.param_dict[0] is a and trainer.optimizer.param_dict[1] is b
    sgd = mx.optimizer.SGD(learning_rate=0.5)
    trainer = Trainer([a, b], sgd)
    assert trainer.optimizer is sgd and trainer.learning_rate == 0.5
    c = rng.randn(*SHAPE)
    _backward([a], [c])
    trainer.step(1, ignore_stale_grad=True)
    np.testing.assert_allclose(a.data().asnumpy(), -0.5 * c, rtol=1e-6)
    with pytest.raises(ValueError, match="optimizer_params"):
        Trainer([a], sgd, {"learning_rate": 0.1})
    with pytest.raises(ValueError, match="Parameters"):
        Trainer([a, "b"], "sgd")
    with pytest.raises(ValueError, match="list or dict"):
        Trainer(a, "sgd")
    with pytest.raises(ValueError, match="Cannot find optimizer"):
        Trainer([a], "no_such_optimizer")


def test_learning_rate():
    p = _param("w", np.ones(SHAPE))
    trainer = Trainer([p], "sgd", {"learning_rate": 0.2})
    assert trainer.learning_rate == pytest.approx(0.2)
    trainer.set_learning_rate(0.05)
    assert trainer.learning_rate == pytest.approx(0.05)
    _backward([p], [np.ones(SHAPE)])
    trainer.step(1)
    np.testing.assert_allclose(p.data().asnumpy(), np.full(SHAPE, 0.95), rtol=1e-6)
    sched = mx.lr_scheduler.FactorScheduler(step=1, factor=0.5, base_lr=1.0)
    trainer = Trainer([p], "sgd", {"lr_scheduler": sched})
    with pytest.raises(UserWarning):
        trainer.set_learning_rate(0.1)


@pytest.mark.parametrize("kvstore", [None, "local", "device"])
def test_kvstore_accepted(kvstore):
    p = _param("w", np.zeros(SHAPE))
    trainer = Trainer([p], "sgd", {"learning_rate": 1.0}, kvstore=kvstore)
    _backward([p], [np.ones(SHAPE)])
    trainer.step(2)
    np.testing.assert_allclose(p.data().asnumpy(), np.full(SHAPE, -0.5))


@pytest.mark.parametrize("kvstore,message", [
    ("dist_sync", "needs a job started by python -m weft.launch"),
    ("dist_async", "needs a job started by python -m weft.launch"),
    ("dist_device_sync", "needs a job started by python -m weft.launch"),
    ("nccl", "no KVStore of this type"), ("horovod", "no KVStore of this type"),
    (object(), "kvstore must be None, a store name or a weft.kvstore.KVStore")])
def test_kvstore_refused(kvstore, message, monkeypatch):
    for var in ("WEFT_ROLE", "DMLC_ROLE"):
        monkeypatch.delenv(var, raising=False)
    p = _param("w", np.zeros(SHAPE))
    with pytest.raises(ValueError, match=message):
        Trainer([p], "sgd", kvstore=kvstore)


def test_allreduce_then_update_equals_step():
    rng = np.random.RandomState(3)
    w0, c = rng.randn(*SHAPE), rng.randn(*SHAPE)
    p1, p2 = _param("w", w0), _param("w", w0)
    t1 = Trainer([p1], "adam", {"learning_rate": 0.1})
    t2 = Trainer([p2], "adam", {"learning_rate": 0.1}, update_on_kvstore=False)
    for _ in range(2):
        _backward([p1], [c])
        t1.step(3)
        _backward([p2], [c])
        t2.allreduce_grads()
        t2.update(3)
    np.testing.assert_allclose(p1.data().asnumpy(), p2.data().asnumpy(), rtol=1e-6)


def test_save_load_states_round_trip(tmp_path):
    rng = np.random.RandomState(4)
    w0 = rng.randn(*SHAPE)
    cs = _coefs(rng, 4)
    p1 = _param("w", w0)
    t1 = Trainer([p1], "adam", {"learning_rate": 0.05, "wd": 0.01})
    for c in cs[:2]:
        _backward([p1], [c])
        t1.step(2)
    fname = os.path.join(str(tmp_path), "trainer.states")
    t1.save_states(fname)
    with open(fname, "rb") as f:
        assert f.read(8) == b"WEFTOPTS"  # weft's pickle-free format
    # a fresh trainer on a copy of the weights continues exactly where t1 is
    p2 = _param("w", p1.data().asnumpy())
    t2 = Trainer([p2], "sgd", {"learning_rate": 9.0})
    t2.load_states(fname)
    assert type(t2.optimizer).__name__ == "Adam"
    assert t2.learning_rate == pytest.approx(0.05)
    assert t2.optimizer.num_update == 2
    assert t2.optimizer.param_dict[0] is p2
    for c in cs[2:]:
        _backward([p1], [c])
        t1.step(2)
        _backward([p2], [c])
        t2.step(2)
    np.testing.assert_allclose(p2.data().asnumpy(), p1.data().asnumpy(), rtol=1e-6, atol=1e-7)


def test_unused_deferred_parameter_is_reported():
    used = _param("used", np.zeros(SHAPE))
    unused = Parameter("never_used", shape=(0, 4), allow_deferred_init=True)
    unused.initialize()
    trainer = Trainer([used, unused], "sgd", {"learning_rate": 1.0})
    _backward([used], [np.ones(SHAPE)])
    with pytest.raises(UserWarning, match="never_used"):
        trainer.step(1)
    trainer.step(1, ignore_stale_grad=True)
    np.testing.assert_allclose(used.data().asnumpy(), np.full(SHAPE, -1.0))


def test_stale_gradient_is_reported_and_skipped():
    a = _param("a", np.zeros(SHAPE))
    b = _param("b_sometimes", np.zeros(SHAPE))
    trainer = Trainer([a, b], "sgd", {"learning_rate": 1.0})
    _backward([a, b], [np.ones(SHAPE), np.ones(SHAPE)])
    trainer.step(1)  # both fresh
    np.testing.assert_allclose(b.data().asnumpy(), np.full(SHAPE, -1.0))
    # b is not used by this backward: its gradient is the old one.
    _backward([a], [np.ones(SHAPE)])
    with pytest.raises(UserWarning, match="b_sometimes.*has not been updated by backward"):
        trainer.step(1)
    trainer.step(1, ignore_stale_grad=True)  # a is updated, b is skipped
    np.testing.assert_allclose(a.data().asnumpy(), np.full(SHAPE, -2.0))
    np.testing.assert_allclose(b.data().asnumpy(), np.full(SHAPE, -1.0))
    # A second step without a backward in between: every gradient is stale.
    with pytest.raises(UserWarning, match="`a`"):
        trainer.step(1)
    trainer.step(1, ignore_stale_grad=True)
    np.testing.assert_allclose(a.data().asnumpy(), np.full(SHAPE, -2.0))


def test_fresh_grad_flag_follows_backward():
    x = mx.nd.ones(SHAPE)
    assert x._fresh_grad is False  # no gradient attached
    with pytest.raises(mx.base.WeftError, match="no gradient attached"):
        x._fresh_grad = True
    x.attach_grad()
    assert x._fresh_grad is False
    with autograd.record():
        y = (x * 2).sum()
    y.backward()
    assert x._fresh_grad is True
    x._fresh_grad = False
    assert x._fresh_grad is False
    with autograd.record():  # autograd.grad returns gradients and leaves the mark alone
        y = (x * 3).sum()
    autograd.grad(y, [x])
    assert x._fresh_grad is False
    x.attach_grad()  # a new gradient starts unmarked
    assert x._fresh_grad is False


def test_stale_gradient_through_hybridized_block():
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.Dense(3, in_units=4), mx.gluon.nn.Dense(2, in_units=3))
    net.initialize()
    net.hybridize()
    extra = _param("extra", np.zeros(SHAPE))
    params = list(net.collect_params().values()) + [extra]
    trainer = Trainer(params, "sgd", {"learning_rate": 0.1})
    with autograd.record():
        loss = net(mx.nd.ones((5, 4))).sum()
    loss.backward()
    with pytest.raises(UserWarning, match="extra"):
        trainer.step(5)
    trainer.step(5, ignore_stale_grad=True)


def test_several_devices():
    ctxs = [mx.cpu(0), mx.cpu(1)]
    rng = np.random.RandomState(5)
    w0, c = rng.randn(*SHAPE), rng.randn(*SHAPE)

    def run(kvstore, **kwargs):
        p = Parameter("w", shape=SHAPE)
        p.initialize(mx.init.Zero(), ctx=ctxs)
        p.set_data(mx.nd.array(w0))
        trainer = Trainer([p], "sgd", {"learning_rate": 0.1}, kvstore=kvstore, **kwargs)
        for i, ctx in enumerate(ctxs):  # copy i sees gradient (i + 1) * c
            with autograd.record():
                loss = (p.data(ctx) * mx.nd.array((i + 1) * c, ctx=ctx)).sum()
            loss.backward()
        trainer.step(2)
        return trainer, [d.asnumpy() for d in p.list_data()]

    _, (a, b) = run("device")  # summed: both copies get 3c
    np.testing.assert_allclose(a, w0 - 0.1 * 3 * c / 2, rtol=1e-5)
    np.testing.assert_allclose(b, a, rtol=1e-6)
    a_dev = a
    _, (a, b) = run(None)  # no store: each copy keeps its own gradient, as in MXNet
    np.testing.assert_allclose(a, w0 - 0.1 * c / 2, rtol=1e-5)
    np.testing.assert_allclose(b, w0 - 0.1 * 2 * c / 2, rtol=1e-5)
    _, (a2, b2) = run("device", update_on_kvstore=True)  # the store updates: same weights
    np.testing.assert_allclose(a2, a_dev, rtol=1e-6)
    np.testing.assert_allclose(b2, a_dev, rtol=1e-6)
    with pytest.raises(ValueError, match="compression"):
        run("device", compression_params={"type": "2bit", "threshold": 0.5})


def test_states_follow_reset_ctx():
    rng = np.random.RandomState(6)
    w0 = rng.randn(*SHAPE)
    cs = _coefs(rng, 3)
    p1, p2 = _param("w", w0), _param("w", w0)
    t1 = Trainer([p1], "adam", {"learning_rate": 0.1})
    t2 = Trainer([p2], "adam", {"learning_rate": 0.1})
    for i, c in enumerate(cs):
        if i == 1:
            p2.reset_ctx(mx.cpu(1))
        _backward([p1], [c])
        t1.step(1)
        _backward([p2], [c])
        t2.step(1)
    assert p2.list_ctx() == [mx.cpu(1)]
    np.testing.assert_allclose(p2.data().asnumpy(), p1.data().asnumpy(), rtol=1e-6)
