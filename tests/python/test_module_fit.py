"""Module.fit as MXNet 1.9.1's (issue 41 point 3): the per-epoch numbers of a fixed-seed
fit equal those of a hand-written loop doing what MXNet's fit does (bind, init_params
with Uniform(0.01), init_optimizer with rescale_grad = 1/batch_size and no KVStore on one
device, then per batch forward_backward / update / update_metric, and score on the
validation data after each epoch), and fit logs MXNet's lines through ``logging``."""
import logging
import re

import numpy as np
import pytest

import weft as mx

N_EPOCH = 3
BATCH = 10


def _data(seed):
    """10 noisy clusters in 784-d, pixels in [0, 1] (an MNIST stand-in: learnable in a few epochs)."""
    rng = np.random.RandomState(seed)
    centres = rng.rand(10, 784).astype(np.float32)

    def make(n):
        y = rng.randint(0, 10, n)
        x = np.clip(centres[y] + 0.5 * rng.randn(n, 784), 0, 1).astype(np.float32)
        return x, y.astype(np.float32)

    return make(400), make(150)


def _mlp():
    """example/module/mnist_mlp.py's network."""
    data = mx.symbol.Variable("data")
    fc1 = mx.symbol.FullyConnected(data, name="fc1", num_hidden=128)
    act1 = mx.symbol.Activation(fc1, name="relu1", act_type="relu")
    fc2 = mx.symbol.FullyConnected(act1, name="fc2", num_hidden=64)
    act2 = mx.symbol.Activation(fc2, name="relu2", act_type="relu")
    fc3 = mx.symbol.FullyConnected(act2, name="fc3", num_hidden=10)
    return mx.symbol.SoftmaxOutput(fc3, name="softmax")


def _iters(batch_size=BATCH):
    (x, y), (xv, yv) = _data(0)
    # 400 training samples, 150 validation samples
    return mx.io.NDArrayIter(x, y, batch_size, shuffle=False), mx.io.NDArrayIter(xv, yv, batch_size)


OPT = {"learning_rate": 0.1, "momentum": 0.9}


def _epoch_values(text, kind):
    return [float(v) for v in re.findall(r"Epoch\[\d+\] %s-accuracy=([0-9.]+)" % kind, text)]


def _hand_loop():
    """What MXNet 1.9.1's BaseModule.fit does, written out with the intermediate API."""
    mx.random.seed(7)
    np.random.seed(7)
    train, val = _iters()
    mod = mx.mod.Module(_mlp())
    mod.bind(data_shapes=train.provide_data, label_shapes=train.provide_label, for_training=True)
    mod.init_params(initializer=mx.init.Uniform(0.01))
    opt = mx.optimizer.SGD(rescale_grad=1.0 / BATCH, **OPT)
    mod.init_optimizer(kvstore=None, optimizer=opt)
    metric = mx.metric.Accuracy()
    train_acc, val_acc = [], []
    for _ in range(N_EPOCH):
        metric.reset()
        for batch in train:
            mod.forward(batch, is_train=True)
            mod.backward()
            mod.update()
            mod.update_metric(metric, batch.label)
        train_acc.append(metric.get_global()[1])
        vm = mx.metric.Accuracy()
        val.reset()
        for batch in val:
            mod.forward(batch, is_train=False)
            mod.update_metric(vm, batch.label)
        val_acc.append(vm.get()[1])
        train.reset()
    return train_acc, val_acc, mod.get_params()[0]


def test_fit_matches_mxnets_fit_written_out(caplog):
    mx.random.seed(7)
    np.random.seed(7)
    train, val = _iters()
    mod = mx.mod.Module(_mlp())
    with caplog.at_level(logging.INFO):
        mod.fit(train, eval_data=val, optimizer_params=OPT, num_epoch=N_EPOCH)
    fit_train, fit_val = _epoch_values(caplog.text, "Train"), _epoch_values(caplog.text, "Validation")
    loop_train, loop_val, loop_params = _hand_loop()
    assert len(fit_train) == len(fit_val) == N_EPOCH
    # the log prints %f: six digits
    np.testing.assert_allclose(fit_train, loop_train, atol=1e-6)
    np.testing.assert_allclose(fit_val, loop_val, atol=1e-6)
    # the run learns (MXNet's defaults do not stall it at chance)
    assert fit_val[-1] > 0.4 and fit_train[-1] > fit_train[0]
    fit_params = mod.get_params()[0]
    for name, value in loop_params.items():
        np.testing.assert_allclose(fit_params[name].asnumpy(), value.asnumpy(), rtol=1e-5, atol=1e-7,
                                   err_msg=name)
    assert mod.score(val, "acc")[0][1] == pytest.approx(loop_val[-1])


def test_fit_logs_mxnets_lines(caplog):
    mx.random.seed(3)
    train, val = _iters(50)
    mod = mx.mod.Module(_mlp())
    with caplog.at_level(logging.DEBUG):
        mod.fit(train, eval_data=val, optimizer_params=OPT, num_epoch=2,
                batch_end_callback=mx.callback.Speedometer(50, 3))
    lines = [r.getMessage() for r in caplog.records]
    assert {r.name for r in caplog.records} == {"root"}  # MXNet logs through the logging module itself
    assert {r.levelno for r in caplog.records} == {logging.INFO}
    num = r"\d+\.\d{6}"
    for epoch in (0, 1):
        mine = [l for l in lines if l.startswith("Epoch[%d]" % epoch)]
        # 8 batches: Speedometer (frequent=3, auto_reset) reports after batches 3 and 6
        patterns = [r"Epoch\[%d\] Batch \[0-3\]\tSpeed: \d+\.\d\d samples/sec\taccuracy=%s" % (epoch, num),
                    r"Epoch\[%d\] Batch \[3-6\]\tSpeed: \d+\.\d\d samples/sec\taccuracy=%s" % (epoch, num),
                    r"Epoch\[%d\] Train-accuracy=%s" % (epoch, num),
                    r"Epoch\[%d\] Time cost=\d+\.\d{3}" % epoch,
                    r"Epoch\[%d\] Validation-accuracy=%s" % (epoch, num)]
        assert len(mine) == len(patterns), mine
        for line, pattern in zip(mine, patterns):
            assert re.fullmatch(pattern, line), (line, pattern)


def test_fit_force_init_begin_epoch_and_eval_end_callback(caplog):
    mx.random.seed(5)
    train, val = _iters(50)
    mod = mx.mod.Module(_mlp())
    mod.fit(train, num_epoch=1, optimizer_params=OPT)
    trained = {k: v.asnumpy() for k, v in mod.get_params()[0].items()}
    ends = []
    # a second fit keeps the trained parameters (init_params warns and does nothing) ...
    with pytest.warns(UserWarning, match="already initialized"):
        with caplog.at_level(logging.INFO):
            mod.fit(train, eval_data=val, num_epoch=3, begin_epoch=2, optimizer_params=OPT,
                    eval_end_callback=lambda p: ends.append((p.epoch, p.nbatch, p.eval_metric.get()[0])))
    # ... runs epochs begin_epoch .. num_epoch - 1 only, and calls eval_end_callback once per evaluation
    assert re.findall(r"Epoch\[(\d+)\] Train-", caplog.text) == ["2"]
    assert ends == [(2, 3, "accuracy")]
    # force_init re-draws them from the initializer (Uniform(0.01): all within 0.01)
    mod.fit(train, num_epoch=0, force_init=True, initializer=mx.init.Uniform(0.01), optimizer_params=OPT)
    again = mod.get_params()[0]
    assert all(np.abs(again[k].asnumpy()).max() <= 0.01 for k in trained if k.endswith("weight"))
    assert np.abs(trained["fc1_weight"]).max() > 0.01
    with pytest.raises(Exception, match="num_epoch"):
        mod.fit(train)
