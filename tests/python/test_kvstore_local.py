"""Level-1 KVStore ('local', 'device'): init/push/pull/pushpull, several devices
reduced before the update, updaters and optimizers, states saved without pickle,
and the errors for bad keys and shapes."""
import numpy as np
import pytest

import weft as mx

SHAPE = (2, 3)
CTXS = [mx.cpu(0), mx.cpu(1), mx.cpu(2)]


def _ones(scale=1.0, ctx=None):
    return mx.nd.array(np.full(SHAPE, scale, dtype=np.float32), ctx=ctx)


@pytest.fixture(params=["local", "device"])
def kv(request):
    return mx.kv.create(request.param)


def test_both_module_names():
    assert mx.kv is mx.kvstore
    assert mx.kv.create("local").type == "local"
    assert mx.kvstore.create("device").type == "device"


def test_single_process_identity(kv):
    assert kv.rank == 0
    assert kv.num_workers == 1
    kv.barrier()  # returns at once


@pytest.mark.parametrize("key", [3, "weight"])
def test_init_pull(kv, key):
    kv.init(key, _ones(2.0))
    out = mx.nd.zeros(SHAPE)
    kv.pull(key, out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full(SHAPE, 2.0))


def test_push_without_updater_stores_sum_of_devices(kv):
    kv.init(0, _ones(0.0))
    kv.push(0, [_ones(i + 1.0, ctx) for i, ctx in enumerate(CTXS)])
    outs = [mx.nd.zeros(SHAPE, ctx=ctx) for ctx in CTXS]
    kv.pull(0, out=outs)
    for o, ctx in zip(outs, CTXS):
        assert o.context == ctx
        np.testing.assert_array_equal(o.asnumpy(), np.full(SHAPE, 6.0))


def test_updater_sees_reduced_gradient(kv):
    kv.init("w", _ones(1.0))
    seen = []

    def updater(key, grad, weight):
        seen.append((key, grad.asnumpy().copy()))
        weight[:] = weight - 0.5 * grad

    kv.set_updater(updater)
    kv.push("w", [_ones(1.0, CTXS[0]), _ones(3.0, CTXS[1])])
    out = mx.nd.zeros(SHAPE)
    kv.pull("w", out=out)
    assert len(seen) == 1 and seen[0][0] == "w"
    np.testing.assert_array_equal(seen[0][1], np.full(SHAPE, 4.0))
    np.testing.assert_allclose(out.asnumpy(), np.full(SHAPE, 1.0 - 0.5 * 4.0))


def test_int_keys_reach_updater_as_ints(kv):
    kv.init([1, 2], [_ones(), _ones()])
    keys = []
    kv.set_updater(lambda k, g, w: keys.append(k))
    kv.push([1, 2], [_ones(), _ones()])
    assert keys == [1, 2]


def test_set_optimizer_matches_updater_on_one_array(kv):
    rng = np.random.RandomState(0)
    w0 = rng.randn(*SHAPE).astype(np.float32)
    grads = [rng.randn(*SHAPE).astype(np.float32) for _ in range(3)]
    kv.init(0, mx.nd.array(w0))
    kv.set_optimizer(mx.optimizer.create("adam", learning_rate=0.1))
    ref_w = mx.nd.array(w0)
    ref = mx.optimizer.get_updater(mx.optimizer.create("adam", learning_rate=0.1))
    out = mx.nd.zeros(SHAPE)
    for g in grads:
        kv.push(0, [mx.nd.array(g / 2, ctx=CTXS[0]), mx.nd.array(g / 2, ctx=CTXS[1])])
        ref(0, mx.nd.array(g), ref_w)
    kv.pull(0, out=out)
    np.testing.assert_allclose(out.asnumpy(), ref_w.asnumpy(), rtol=1e-5, atol=1e-6)


def test_pushpull_in_place(kv):
    kv.init(7, _ones(0.0))
    vals = [_ones(1.0, CTXS[0]), _ones(2.0, CTXS[1])]
    kv.pushpull(7, vals)
    for v in vals:
        np.testing.assert_array_equal(v.asnumpy(), np.full(SHAPE, 3.0))
    out = mx.nd.zeros(SHAPE)
    kv.pushpull(7, [_ones(1.0)], out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full(SHAPE, 1.0))


def test_push_is_an_engine_op_ordered_with_later_writes(kv):
    kv.init(0, _ones(0.0))
    g = _ones(1.0)
    kv.push(0, g)
    g[:] = 100.0  # written after the push was issued: the push must see 1
    out = mx.nd.zeros(SHAPE)
    kv.pull(0, out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full(SHAPE, 1.0))


def test_save_load_optimizer_states(kv, tmp_path):
    kv.init(0, _ones(1.0))
    kv.set_optimizer(mx.optimizer.create("sgd", learning_rate=0.1, momentum=0.9))
    kv.push(0, _ones(1.0))
    fname = str(tmp_path / "states")
    kv.save_optimizer_states(fname, dump_optimizer=True)
    with open(fname, "rb") as f:
        assert f.read(8) == b"WEFTOPTS"  # weft's data format, not a pickle
    kv2 = mx.kv.create(kv.type)
    kv2.init(0, _ones(1.0))
    kv2.set_optimizer(mx.optimizer.create("sgd", learning_rate=0.1, momentum=0.9))
    kv2.load_optimizer_states(fname)
    # the momentum came along: the same push moves both stores the same way
    kv.push(0, _ones(1.0))
    kv2.push(0, _ones(1.0))
    a, b = mx.nd.zeros(SHAPE), mx.nd.zeros(SHAPE)
    kv.pull(0, out=a)
    kv2.pull(0, out=b)
    # kv2 started from weight 1 (its own init) but with kv's momentum
    np.testing.assert_allclose(b.asnumpy(), 1.0 - 0.1 * (0.9 * 1.0 + 1.0), rtol=1e-6)


def test_errors_name_the_key(kv):
    kv.init("w", _ones())
    with pytest.raises(mx.ShapeError, match="key 'w'.*shape \\(2, 3\\).*\\(3, 2\\)"):
        kv.push("w", mx.nd.zeros((3, 2)))
    with pytest.raises(mx.ShapeError, match="key 'w'"):
        kv.pull("w", out=mx.nd.zeros((4,)))
    with pytest.raises(mx.DTypeError, match="key 'w'"):
        kv.push("w", mx.nd.zeros(SHAPE, dtype="float64"))
    with pytest.raises(mx.NotFoundError, match="key 'missing'"):
        kv.push("missing", _ones())
    with pytest.raises(mx.InvalidArgumentError, match="already initialised"):
        kv.init("w", _ones())
    with pytest.raises(mx.InvalidArgumentError, match="do not mix"):
        kv.init(5, _ones())
    with pytest.raises(mx.InvalidArgumentError, match="keys must be int or str"):
        kv.push(1.5, _ones())
    with pytest.raises(mx.InvalidArgumentError, match="NDArray"):
        kv.push("w", np.ones(SHAPE))


def test_failed_updater_fails_the_push(kv):
    kv.init(0, _ones())

    def broken(key, grad, weight):
        raise RuntimeError("broken updater")

    kv.set_updater(broken)
    with pytest.raises(RuntimeError, match="broken updater"):
        kv.push(0, _ones())


def test_dist_only_calls_refused_locally(kv):
    with pytest.raises(mx.InvalidArgumentError, match="row-sparse"):
        kv.row_sparse_pull(0, out=_ones())
    with pytest.raises(mx.InvalidArgumentError, match="no optimizer"):
        kv.save_optimizer_states("unused")


def test_unknown_type_and_unlaunched_dist():
    with pytest.raises(mx.InvalidArgumentError, match="unknown type 'nccl'"):
        mx.kv.create("nccl")


def test_dist_needs_launcher(monkeypatch):
    for var in ("WEFT_ROLE", "DMLC_ROLE"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(mx.InvalidArgumentError, match="weft.launch"):
        mx.kv.create("dist_sync")


def test_optimizer_spec_refuses_what_cannot_travel():
    spec = mx.kvstore.kvstore.optimizer_spec
    s = spec(mx.optimizer.create("sgd", learning_rate=0.2, momentum=0.5, wd=1e-4))
    assert s["name"] == "sgd" and s["momentum"] == 0.5 and s["learning_rate"] == 0.2
    with pytest.raises(mx.InvalidArgumentError, match="lr_scheduler"):
        spec(mx.optimizer.create("sgd", lr_scheduler=mx.lr_scheduler.FactorScheduler(step=2)))
    with pytest.raises(mx.InvalidArgumentError, match="AdaGrad cannot run on the servers"):
        spec(mx.optimizer.create("adagrad"))

    class MySGD(mx.optimizer.SGD):
        pass

    with pytest.raises(mx.InvalidArgumentError, match="MySGD cannot run on the servers"):
        spec(MySGD())


def _train_two_devices(kvstore, update_on_kvstore, steps=3):
    from weft import autograd, gluon  # pylint: disable=import-outside-toplevel
    ctxs = [mx.cpu(0), mx.cpu(1)]
    rng = np.random.RandomState(4)
    w0, cs = rng.randn(*SHAPE), [rng.randn(*SHAPE) for _ in range(steps)]
    p = gluon.Parameter("w", shape=SHAPE)
    p.initialize(mx.init.Zero(), ctx=ctxs)
    p.set_data(mx.nd.array(w0))
    trainer = gluon.Trainer([p], "adam", {"learning_rate": 0.1}, kvstore=kvstore,
                            update_on_kvstore=update_on_kvstore)
    for c in cs:
        for i, ctx in enumerate(ctxs):
            with autograd.record():
                loss = (p.data(ctx) * mx.nd.array((i + 1) * c, ctx=ctx)).sum()
            loss.backward()
        trainer.step(2)
    return trainer, [d.asnumpy() for d in p.list_data()]


@pytest.mark.parametrize("kvstore", ["device", "local"])
def test_trainer_updates_on_the_store_like_on_each_device(kvstore):
    _, (a, b) = _train_two_devices(kvstore, update_on_kvstore=False)
    trainer, (c, d) = _train_two_devices(kvstore, update_on_kvstore=True)
    assert trainer._update_on_kvstore and trainer._kvstore.type == kvstore  # pylint: disable=protected-access
    np.testing.assert_allclose(b, a, rtol=1e-6)
    np.testing.assert_allclose(c, a, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(d, c, rtol=1e-6)


def test_trainer_accepts_a_store_object_and_saves_its_states(tmp_path):
    store = mx.kv.create("device")
    trainer, _ = _train_two_devices(store, update_on_kvstore=True)
    assert trainer._kvstore is store  # pylint: disable=protected-access
    fname = str(tmp_path / "trainer.states")
    trainer.save_states(fname)
    trainer.load_states(fname)
    assert isinstance(trainer.optimizer, mx.optimizer.Adam)
