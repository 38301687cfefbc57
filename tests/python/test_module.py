"""weft.mod (Module, BucketingModule, SequentialModule), weft.model checkpoints and
weft.callback, against MXNet 1.x's documented behaviour and NumPy references."""
import logging
import os

import numpy as np
import pytest

import weft as mx
from weft.test_utils import environment


class Batch:
    """The batch protocol Module reads: data, label, pad, provide_data/label, bucket_key."""

    def __init__(self, data, label=None, pad=0, bucket_key=None, provide_data=None, provide_label=None):
        self.data, self.label, self.pad = data, label, pad
        self.bucket_key = bucket_key
        self.provide_data, self.provide_label = provide_data, provide_label


class ArrayIter:
    """A minimal iterator (reset, iteration, provide_data/label, batch_size); the last
    batch is padded from the start as NDArrayIter's 'pad' mode does."""

    def __init__(self, x, y, batch_size, label_name="softmax_label"):
        self.x, self.y, self.batch_size = x, y, batch_size
        self.provide_data = [("data", (batch_size,) + x.shape[1:])]
        self.provide_label = [(label_name, (batch_size,) + y.shape[1:])]
        self.resets = 0

    def reset(self):
        self.resets += 1

    def __iter__(self):
        for i in range(0, len(self.x), self.batch_size):
            xb, yb = self.x[i:i + self.batch_size], self.y[i:i + self.batch_size]
            pad = self.batch_size - len(xb)
            if pad:
                xb, yb = np.concatenate([xb, self.x[:pad]]), np.concatenate([yb, self.y[:pad]])
            yield Batch([mx.nd.array(xb)], [mx.nd.array(yb)], pad)


def mlp(hidden=8, classes=3):
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=hidden, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.FullyConnected(net, num_hidden=classes, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def toy_data(n=24, dim=5, classes=3, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, dim).astype(np.float32)
    y = rng.randint(0, classes, size=n).astype(np.float32)
    return x, y


def _params(mod):
    arg, aux = mod.get_params()
    return {k: v.asnumpy() for k, v in arg.items()}, {k: v.asnumpy() for k, v in aux.items()}


def _fixed_init(mod, seed=1):
    rng = np.random.RandomState(seed)
    shapes = dict(zip(mod.symbol.list_arguments(), mod.symbol.infer_shape(data=mod.data_shapes[0][1])[0]))
    params = {n: mx.nd.array(rng.uniform(-0.5, 0.5, shapes[n]).astype(np.float32))
              for n in mod.symbol.list_arguments() if n not in ("data", "softmax_label")}
    mod.init_params(arg_params=params)
    return {k: v.asnumpy() for k, v in params.items()}


def _softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_one_sgd_step_matches_numpy():
    """forward/backward/update: SoftmaxOutput's gradient is softmax - onehot per sample,
    rescale_grad 1/batch_size, plain SGD w -= lr * g (MXNet's Module defaults)."""
    x, y = toy_data(n=6)
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)])
    p = _fixed_init(mod)
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1})
    mod.forward(Batch([mx.nd.array(x)], [mx.nd.array(y)]), is_train=True)
    h = np.maximum(x @ p["fc1_weight"].T + p["fc1_bias"], 0)
    prob = _softmax(h @ p["fc2_weight"].T + p["fc2_bias"])
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), prob, rtol=1e-5, atol=1e-6)
    mod.backward()
    mod.update()
    d2 = (prob - np.eye(3)[y.astype(int)]) / len(x)
    dh = (d2 @ p["fc2_weight"]) * (h > 0)
    got, _ = _params(mod)
    np.testing.assert_allclose(got["fc2_weight"], p["fc2_weight"] - 0.1 * d2.T @ h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["fc2_bias"], p["fc2_bias"] - 0.1 * d2.sum(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["fc1_weight"], p["fc1_weight"] - 0.1 * dh.T @ x, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("work_load_list,update_on_kvstore", [(None, "1"), ([1, 3], "1"), (None, "0")])
def test_data_parallel_equals_one_device(work_load_list, update_on_kvstore):
    """Two devices, each on its slice of the batch, with gradients summed through the
    KVStore, train exactly as one device on the whole batch -- with the update on the
    store, or (MXNET_UPDATE_ON_KVSTORE=0) on every device."""
    x, y = toy_data(n=8)
    results = []
    for context in ([mx.cpu(0)], [mx.cpu(0), mx.cpu(1)]):
        mod = mx.mod.Module(mlp(), context=context,
                            work_load_list=work_load_list if len(context) == 2 else None)
        mod.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)])
        _fixed_init(mod)
        with environment("MXNET_UPDATE_ON_KVSTORE", update_on_kvstore):
            mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.2, "momentum": 0.9})
        for _ in range(3):
            mod.forward_backward(Batch([mx.nd.array(x)], [mx.nd.array(y)]))
            mod.update()
        results.append((_params(mod)[0], mod.get_outputs()[0].asnumpy()))
        if len(context) == 2:
            assert mod._kvstore is not None  # pylint: disable=protected-access
            assert mod._update_on_kvstore == (update_on_kvstore == "1")  # pylint: disable=protected-access
            slices = mod._exec_group.slices  # pylint: disable=protected-access
            expected = [slice(0, 4), slice(4, 8)] if work_load_list is None else [slice(0, 2), slice(2, 8)]
            assert slices == expected
    (p1, out1), (p2, out2) = results
    if work_load_list is None:  # the same step from a list of per-device batches (MXNet's pre-sliced form)
        mod.forward_backward([Batch([mx.nd.array(x[:4])], [mx.nd.array(y[:4])]),
                              Batch([mx.nd.array(x[4:])], [mx.nd.array(y[4:])])])
        out_list = mod.get_outputs()[0].asnumpy()
        mod.forward(Batch([mx.nd.array(x)], [mx.nd.array(y)]), is_train=True)
        np.testing.assert_allclose(out_list, mod.get_outputs()[0].asnumpy(), rtol=1e-6)
        metric = mx.metric.create("acc")
        mod.update_metric(metric, [[mx.nd.array(y[:4])], [mx.nd.array(y[4:])]], pre_sliced=True)
        assert metric.get()[1] == pytest.approx((out_list.argmax(1) == y).mean())
    for k in p1:
        np.testing.assert_allclose(p2[k], p1[k], rtol=1e-5, atol=1e-6, err_msg=k)
    np.testing.assert_allclose(out2, out1, rtol=1e-5, atol=1e-6)


def test_fit_score_predict_and_callbacks(tmp_path, caplog):
    x, y = toy_data(n=30)
    train = ArrayIter(x, y, 8)
    mod = mx.mod.Module(mlp())
    seen = []
    prefix = str(tmp_path / "toy")
    with caplog.at_level(logging.INFO):
        mod.fit(train, eval_data=ArrayIter(x, y, 8), num_epoch=3, begin_epoch=1,
                optimizer_params={"learning_rate": 0.1},
                batch_end_callback=[mx.callback.Speedometer(8, frequent=2, auto_reset=False),
                                    lambda p: seen.append((p.epoch, p.nbatch))],
                epoch_end_callback=mx.callback.do_checkpoint(prefix))
    # epochs begin_epoch .. num_epoch-1, 4 batches each (the last padded)
    assert seen == [(e, b) for e in (1, 2) for b in range(4)]
    text = caplog.text
    assert "Epoch[1] Train-accuracy=" in text and "Epoch[2] Validation-accuracy=" in text
    assert "Epoch[1] Batch [0-2]\tSpeed: " in text
    assert train.resets == 2
    # do_checkpoint names files by epoch + 1, MXNet's way
    assert sorted(os.listdir(tmp_path)) == ["toy-0002.params", "toy-0003.params", "toy-symbol.json"]
    saved = mx.nd.load(prefix + "-0003.params")
    assert sorted(saved) == ["arg:fc1_bias", "arg:fc1_weight", "arg:fc2_bias", "arg:fc2_weight"]
    # predict strips the pad of the last batch; score counts padded rows (as MXNet)
    pred = mod.predict(ArrayIter(x, y, 8))
    assert pred.shape == (30, 3)
    expected = _softmax(np.maximum(x @ saved["arg:fc1_weight"].asnumpy().T + saved["arg:fc1_bias"].asnumpy(), 0)
                        @ saved["arg:fc2_weight"].asnumpy().T + saved["arg:fc2_bias"].asnumpy())
    np.testing.assert_allclose(pred.asnumpy(), expected, rtol=1e-4, atol=1e-5)
    ((name, acc),) = mod.score(ArrayIter(x, y, 8), "acc")
    y_pad = np.concatenate([y, y[:2]])
    p_pad = np.concatenate([expected, expected[:2]])
    assert name == "accuracy" and acc == pytest.approx((p_pad.argmax(1) == y_pad).mean())
    outs = list(mod.iter_predict(ArrayIter(x, y, 8)))
    assert [o[1] for o in outs] == [0, 1, 2, 3] and outs[-1][0][0].shape == (6, 3)
    # a bare array predicts one batch (the module reshapes to its size; with no labels
    # given MXNet warns that label_shapes do not match label_names)
    with pytest.warns(UserWarning, match="label_shapes"):
        bare = mod.predict(x[:5])
    np.testing.assert_allclose(bare.asnumpy(), expected[:5], rtol=1e-4, atol=1e-5)


def test_checkpoint_round_trip_and_load(tmp_path):
    x, y = toy_data(n=8)
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)])
    mod.init_params(initializer=mx.init.Xavier())
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    mod.forward_backward(Batch([mx.nd.array(x)], [mx.nd.array(y)]))
    mod.update()
    prefix = str(tmp_path / "m")
    mod.save_checkpoint(prefix, 7, save_optimizer_states=True)
    assert sorted(os.listdir(tmp_path)) == ["m-0007.params", "m-0007.states", "m-symbol.json"]
    sym, arg, aux = mx.model.load_checkpoint(prefix, 7)
    assert sym.list_arguments() == mod.symbol.list_arguments() and aux == {}
    mine, _ = _params(mod)
    for k, v in arg.items():
        np.testing.assert_array_equal(v.asnumpy(), mine[k])
    loaded = mx.mod.Module.load(prefix, 7, load_optimizer_states=True)
    loaded.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)])
    loaded.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    # the same next step from the restored weights and momenta
    for m in (mod, loaded):
        m.forward_backward(Batch([mx.nd.array(x)], [mx.nd.array(y)]))
        m.update()
    a, b = _params(mod)[0], _params(loaded)[0]
    for k in a:
        np.testing.assert_allclose(b[k], a[k], rtol=1e-6, atol=1e-7)
    # model.save_checkpoint writes the same layout
    mx.model.save_checkpoint(str(tmp_path / "n"), 1, mod.symbol, *mod.get_params())
    assert sorted(mx.model.load_params(str(tmp_path / "n"), 1)[0]) == sorted(arg)


def test_load_params_rejects_foreign_keys(tmp_path):
    mx.nd.save(str(tmp_path / "bad-0001.params"), {"weight": mx.nd.ones((2,))})
    with pytest.raises(mx.base.MXNetError, match="arg:<name>"):
        mx.model.load_params(str(tmp_path / "bad"), 1)


def test_fixed_params_and_input_grads():
    x, y = toy_data(n=4)
    mod = mx.mod.Module(mlp(), fixed_param_names=["fc1_weight"])
    mod.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)], inputs_need_grad=True)
    p = _fixed_init(mod)
    mod.init_optimizer(optimizer_params={"learning_rate": 1.0})
    mod.forward_backward(Batch([mx.nd.array(x)], [mx.nd.array(y)]))
    (dx,) = mod.get_input_grads()
    mod.update()
    got, _ = _params(mod)
    np.testing.assert_array_equal(got["fc1_weight"], p["fc1_weight"])  # fixed
    assert not np.allclose(got["fc1_bias"], p["fc1_bias"])
    h = np.maximum(x @ p["fc1_weight"].T + p["fc1_bias"], 0)
    d2 = _softmax(h @ p["fc2_weight"].T + p["fc2_bias"]) - np.eye(3)[y.astype(int)]
    np.testing.assert_allclose(dx.asnumpy(), ((d2 @ p["fc2_weight"]) * (h > 0)) @ p["fc1_weight"],
                               rtol=1e-5, atol=1e-6)


def test_reshape_keeps_parameters():
    x, y = toy_data(n=8)
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (8, 5))], label_shapes=[("softmax_label", (8,))])
    p = _fixed_init(mod)
    mod.reshape(data_shapes=[("data", (3, 5))], label_shapes=[("softmax_label", (3,))])
    assert mod.data_shapes[0][1] == (3, 5) and mod.output_shapes == [("softmax_output", (3, 3))]
    mod.forward(Batch([mx.nd.array(x[:3])], [mx.nd.array(y[:3])]), is_train=False)
    h = np.maximum(x[:3] @ p["fc1_weight"].T + p["fc1_bias"], 0)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), _softmax(h @ p["fc2_weight"].T + p["fc2_bias"]),
                               rtol=1e-5, atol=1e-6)


def test_bad_names_are_reported():
    with pytest.raises(ValueError, match="input with name 'images' is not found"):
        mx.mod.Module(mlp(), data_names=["images"])
    mod = mx.mod.Module(mlp())
    with pytest.raises(ValueError, match="don't match names specified by data_names"):
        mod.bind(data_shapes=[("x", (2, 5))])
    with pytest.raises(mx.base.MXNetError, match="work_load_list"):
        mx.mod.Module(mlp(), context=[mx.cpu(0), mx.cpu(1)], work_load_list=[1])


def _bucket_sym(key):
    """An input of length key, averaged to 4 features: the parameters do not depend on key."""
    data = mx.sym.var("data")
    net = mx.sym.reshape(data, shape=(0, key // 4, 4))
    net = mx.sym.mean(net, axis=1)
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(net, name="softmax"), ("data",), ("softmax_label",)


def test_bucketing_shares_parameters():
    mod = mx.mod.BucketingModule(_bucket_sym, default_bucket_key=8)
    mod.bind(data_shapes=[("data", (2, 8))], label_shapes=[("softmax_label", (2,))])
    mod.init_params(initializer=mx.init.Xavier())
    mod.init_optimizer(optimizer_params={"learning_rate": 0.5})
    before = _params(mod)[0]
    rng = np.random.RandomState(0)
    for key in (4, 8, 12, 4):
        batch = Batch([mx.nd.array(rng.randn(2, key))], [mx.nd.array([0, 2])], bucket_key=key,
                      provide_data=[("data", (2, key))], provide_label=[("softmax_label", (2,))])
        mod.forward_backward(batch)
        mod.update()
        assert mod.get_outputs()[0].shape == (2, 3)
    assert sorted(mod._buckets) == [4, 8, 12]  # pylint: disable=protected-access
    w = [m._exec_group.param_arrays[0][0] for m in mod._buckets.values()]  # pylint: disable=protected-access
    assert all(a.shares_memory(w[0]) for a in w[1:])
    after = _params(mod)[0]
    assert not np.allclose(after["fc_weight"], before["fc_weight"])


def test_sequential_module_chains():
    x, y = toy_data(n=6)
    net1 = mx.sym.Activation(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=8, name="fc1"), act_type="relu")
    net2 = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc2"), name="softmax")
    seq = mx.mod.SequentialModule()
    seq.add(mx.mod.Module(net1, label_names=None)).add(mx.mod.Module(net2), take_labels=True, auto_wiring=True)
    seq.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)])
    seq.init_params(initializer=mx.init.Xavier())
    seq.init_optimizer(optimizer_params={"learning_rate": 0.1})
    p = _params(seq)[0]
    assert sorted(p) == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    seq.forward_backward(Batch([mx.nd.array(x)], [mx.nd.array(y)]))
    seq.update()
    h = np.maximum(x @ p["fc1_weight"].T + p["fc1_bias"], 0)
    prob = _softmax(h @ p["fc2_weight"].T + p["fc2_bias"])
    np.testing.assert_allclose(seq.get_outputs()[0].asnumpy(), prob, rtol=1e-5, atol=1e-6)
    d2 = (prob - np.eye(3)[y.astype(int)]) / len(x)
    dh = (d2 @ p["fc2_weight"]) * (h > 0)
    got = _params(seq)[0]
    np.testing.assert_allclose(got["fc1_weight"], p["fc1_weight"] - 0.1 * dh.T @ x, rtol=1e-5, atol=1e-6)
    metric = mx.metric.create("acc")
    seq.update_metric(metric, [mx.nd.array(y)])
    assert metric.get()[1] == pytest.approx((prob.argmax(1) == y).mean())


def test_callbacks_log_mxnet_lines(tmp_path, caplog):
    metric = mx.metric.create("acc")
    metric.update([mx.nd.array([1, 0])], [mx.nd.array([[0.1, 0.9], [0.2, 0.8]])])
    with caplog.at_level(logging.INFO):
        mx.callback.log_train_metric(2)(mx.model.BatchEndParam(3, 4, metric, None))
        mx.callback.ProgressBar(total=4, length=8)(mx.model.BatchEndParam(0, 2, metric, None))
    assert "Iter[3] Batch[4] Train-accuracy=0.500000" in caplog.text
    assert "[====----] 50%" in caplog.text
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2,))])
    mod.init_params()
    cb = mx.callback.module_checkpoint(mod, str(tmp_path / "c"), period=2)
    cb(0)
    assert not os.listdir(tmp_path)
    cb(1)
    assert sorted(os.listdir(tmp_path)) == ["c-0002.params", "c-symbol.json"]


def test_with_weft_io_iterators():
    """mx.io.NDArrayIter / DataBatch / DataDesc, as MXNet scripts use them with Module."""
    x, y = toy_data(n=20)
    train = mx.io.NDArrayIter(x, y, batch_size=6, shuffle=True)  # last batch padded
    mod = mx.mod.Module(mlp())
    mod.fit(train, num_epoch=2, optimizer_params={"learning_rate": 0.1})
    assert isinstance(mod.data_shapes[0], mx.io.DataDesc) and mod.data_shapes[0].shape == (6, 5)
    pred = mod.predict(mx.io.NDArrayIter(x, y, batch_size=6))
    assert pred.shape == (20, 3)
    arg = _params(mod)[0]
    h = np.maximum(x @ arg["fc1_weight"].T + arg["fc1_bias"], 0)
    np.testing.assert_allclose(pred.asnumpy(), _softmax(h @ arg["fc2_weight"].T + arg["fc2_bias"]),
                               rtol=1e-4, atol=1e-5)
    batch = mx.io.DataBatch([mx.nd.array(x[:4])], [mx.nd.array(y[:4])],
                            provide_data=[mx.io.DataDesc("data", (4, 5))],
                            provide_label=[mx.io.DataDesc("softmax_label", (4,))])
    mod.forward(batch, is_train=False)  # a batch of another size reshapes the module
    assert mod.get_outputs()[0].shape == (4, 3) and mod.data_shapes[0].shape == (4, 5)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), pred.asnumpy()[:4], rtol=1e-5, atol=1e-6)


def test_bucketing_checkpoint_round_trip(tmp_path):
    mod = mx.mod.BucketingModule(_bucket_sym, default_bucket_key=8)
    mod.bind(data_shapes=[("data", (2, 8))], label_shapes=[("softmax_label", (2,))])
    mod.init_params(initializer=mx.init.Xavier())
    x4 = np.random.RandomState(1).randn(2, 4).astype(np.float32)
    batch = Batch([mx.nd.array(x4)], [mx.nd.array([0, 1])], bucket_key=4,
                  provide_data=[("data", (2, 4))], provide_label=[("softmax_label", (2,))])
    mod.forward(batch, is_train=False)
    expected = mod.get_outputs()[0].asnumpy()
    prefix = str(tmp_path / "b")
    mod.save_checkpoint(prefix, 3)
    assert sorted(os.listdir(tmp_path)) == ["b-0003.params", "b-4-symbol.json", "b-8-symbol.json", "b.buckets"]
    assert sorted(mx.nd.load(prefix + ".buckets")[0].asnumpy().tolist()) == [4, 8]
    loaded = mx.mod.BucketingModule.load(prefix, 3, sym_gen=_bucket_sym, default_bucket_key=8)
    loaded.bind(data_shapes=[("data", (2, 8))], label_shapes=[("softmax_label", (2,))], for_training=False)
    loaded.forward(batch, is_train=False)
    np.testing.assert_allclose(loaded.get_outputs()[0].asnumpy(), expected, rtol=1e-6)


def test_monitor_reports_every_interval(caplog):
    x, y = toy_data(n=8)
    mon = mx.Monitor(2, pattern="fc1_.*|softmax_output", sort=True)
    mod = mx.mod.Module(mlp())
    with caplog.at_level(logging.INFO):
        mod.fit(ArrayIter(x, y, 4), num_epoch=2, monitor=mon, optimizer_params={"learning_rate": 0.1})
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Batch:")]
    # 4 batches, a report at steps 1 and 3: fc1_bias, fc1_weight, softmax_output each
    assert len(lines) == 6
    assert [l.split()[2] for l in lines[:3]] == ["fc1_bias", "fc1_weight", "softmax_output"]
    arg = _params(mod)[0]
    res = mx.monitor.Monitor(1, pattern="fc1_weight")
    mod.install_monitor(res)
    res.tic()
    mod.forward(Batch([mx.nd.array(x[:4])], [mx.nd.array(y[:4])]), is_train=False)
    ((step, name, value),) = res.toc()
    w = arg["fc1_weight"]
    assert step == 1 and name == "fc1_weight"
    assert float(value) == pytest.approx(np.linalg.norm(w) / np.sqrt(w.size), rel=1e-5)


def test_python_loss_module_in_a_sequence_trains_like_softmax_output():
    """fc -> PythonLossModule(grad = softmax - onehot) takes the same SGD step as
    fc -> SoftmaxOutput (whose gradient is exactly that)."""
    x, y = toy_data(n=6)
    fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")

    def grad_func(scores, labels):
        return _softmax(scores.asnumpy()) - np.eye(3)[labels.asnumpy().astype(int)]

    seq = mx.mod.SequentialModule()
    seq.add(mx.mod.Module(fc, label_names=None))
    seq.add(mx.mod.PythonLossModule(grad_func=grad_func), take_labels=True, auto_wiring=True)
    ref = mx.mod.Module(mx.sym.SoftmaxOutput(fc, name="softmax"))
    rng = np.random.RandomState(3)
    init = {"fc_weight": mx.nd.array(rng.randn(3, 5)), "fc_bias": mx.nd.array(rng.randn(3))}
    for mod in (seq, ref):
        mod.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)])
        mod.init_params(arg_params={k: v.copy() for k, v in init.items()})
        mod.init_optimizer(optimizer_params={"learning_rate": 0.5})
        mod.forward_backward(Batch([mx.nd.array(x)], [mx.nd.array(y)]))
        mod.update()
    a, b = _params(seq)[0], _params(ref)[0]
    assert sorted(a) == ["fc_bias", "fc_weight"]
    for k in a:
        np.testing.assert_allclose(a[k], b[k], rtol=1e-5, atol=1e-6)
    assert not np.allclose(a["fc_weight"], init["fc_weight"].asnumpy())
    assert seq.output_shapes == [("pyloss_output", (6, 3))]


def test_feedforward_numpy_api(tmp_path):
    """The deprecated mx.model.FeedForward: numpy in, numpy out, MXNet checkpoint files."""
    x, y = toy_data(n=40)
    y = (x[:, 0] > 0).astype(np.float32)  # learnable
    with pytest.warns(DeprecationWarning):
        model = mx.model.FeedForward.create(mlp(classes=2), x, y, num_epoch=30, numpy_batch_size=10,
                                            learning_rate=0.5, initializer=mx.init.Xavier())
    prob = model.predict(x)
    assert prob.shape == (40, 2)
    arg = model.arg_params
    h = np.maximum(x @ arg["fc1_weight"].asnumpy().T + arg["fc1_bias"].asnumpy(), 0)
    np.testing.assert_allclose(prob, _softmax(h @ arg["fc2_weight"].asnumpy().T + arg["fc2_bias"].asnumpy()),
                               rtol=1e-4, atol=1e-5)
    assert model.score(mx.io.NDArrayIter(x, y, 10)) == pytest.approx((prob.argmax(1) == y).mean())
    assert (prob.argmax(1) == y).mean() > 0.9
    out, data, label = model.predict(mx.io.NDArrayIter(x[:15], y[:15], 10), return_data=True)
    assert out.shape == (15, 2) and data.shape == (15, 5) and label.shape == (15,)
    model.save(str(tmp_path / "ff"))
    assert sorted(os.listdir(tmp_path)) == ["ff-0030.params", "ff-symbol.json"]
    with pytest.warns(DeprecationWarning):
        again = mx.model.FeedForward.load(str(tmp_path / "ff"), 30)
    np.testing.assert_allclose(again.predict(x), prob, rtol=1e-6)
    with pytest.raises(ValueError, match="y must be specified"):
        model.fit(x)
