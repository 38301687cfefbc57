"""weft.gluon.contrib.estimator: fit on a tiny dataset improves accuracy, the
per-epoch history, checkpoints (net.export for hybridized blocks,
save_parameters otherwise), evaluate, stopping by batches and early stopping,
the progress output and the curve plot; and the digits demo in a short run."""
import importlib.util
import io
import os
import re

import numpy as np
import pytest

import weft as mx
from weft import gluon
from weft.gluon import nn
from weft.gluon.contrib.estimator import (BatchEnd, BatchProcessor, CheckpointHandler, EarlyStoppingHandler,
                                          Estimator, LoggingHandler)

HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
HAS_TQDM = importlib.util.find_spec("tqdm") is not None
HAS_SKLEARN = importlib.util.find_spec("sklearn") is not None
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))


def _blobs(n_per_class=40, seed=0):
    rng = np.random.RandomState(seed)
    centers = np.array([[2.0, 0.0], [-2.0, 1.0], [0.0, -2.5]])
    x = np.concatenate([c + rng.randn(n_per_class, 2) * 0.7 for c in centers]).astype(np.float32)
    y = np.repeat(np.arange(3), n_per_class).astype(np.float32)
    return x, y


def _loaders(batch_size=16):
    x, y = _blobs(seed=0)
    xv, yv = _blobs(n_per_class=20, seed=1)
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=batch_size, shuffle=True)
    val = gluon.data.DataLoader(gluon.data.ArrayDataset(xv, yv), batch_size=32)
    return train, val, xv


def _make(hybrid=True, lr=0.05):
    np.random.seed(0)
    mx.random.seed(0)
    if hybrid:
        net = nn.HybridSequential()
    else:
        net = nn.Sequential()
    with net.name_scope():
        net.add(nn.Dense(16, activation="relu"), nn.Dense(3))
    net.initialize(mx.init.Xavier())
    if hybrid:
        net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": lr})
    est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(), train_metrics=mx.metric.Accuracy(),
                    trainer=trainer)
    return net, est


def _quiet():
    return LoggingHandler(progress_bar=False, file=io.StringIO())


def test_fit_improves_and_checkpoints_through_export(tmp_path):
    train, val, xv = _loaders()
    net, est = _make()
    before = est.evaluate(val)["validation accuracy"]
    ckpt = CheckpointHandler(str(tmp_path), model_prefix="blobs", max_checkpoints=2,
                             monitor=est.val_metrics[0], save_best=True)
    history = est.fit(train, val_data=val, epochs=4, event_handlers=[ckpt, _quiet()])
    assert history is est.history
    assert history["epoch"] == [1, 2, 3, 4]
    assert set(history) == {"epoch", "training accuracy", "training softmaxcrossentropyloss",
                            "validation accuracy", "validation softmaxcrossentropyloss"}
    after = est.evaluate(val)["validation accuracy"]
    assert history["validation accuracy"][-1] == pytest.approx(after)
    assert after > max(before, 0.9)
    assert history["training softmaxcrossentropyloss"][-1] < history["training softmaxcrossentropyloss"][0]
    files = sorted(os.listdir(str(tmp_path)))
    # MXNet 1.9.1's names: epoch (from 0) and batches so far; the newest two kept; the best; the graph
    assert files == ["blobs-best.params", "blobs-best.states", "blobs-epoch2batch24.params",
                     "blobs-epoch2batch24.states", "blobs-epoch3batch32.params", "blobs-epoch3batch32.states",
                     "blobs-symbol.json"]
    x = mx.nd.array(xv)
    net2, _ = _make()   # MXNet's fit tutorial reloads with load_parameters on the same architecture
    net2.load_parameters(os.path.join(str(tmp_path), "blobs-epoch3batch32.params"))
    np.testing.assert_allclose(net2(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    net2.load_parameters(os.path.join(str(tmp_path), "blobs-best.params"))
    with open(os.path.join(str(tmp_path), "blobs-symbol.json")) as f:
        graph = mx.sym.load_json(f.read())
    assert "data" in graph.list_arguments() and len(graph.list_arguments()) == 5
    best = np.argmax(history["validation accuracy"])
    assert ckpt.best == pytest.approx(history["validation accuracy"][best])
    # the states file restores a trainer
    est.trainer.load_states(os.path.join(str(tmp_path), "blobs-epoch3batch32.states"))
    assert type(est.trainer.optimizer).__name__ == "Adam"


def test_plain_block_checkpoints_with_save_parameters(tmp_path):
    train, _, _ = _loaders()
    net, est = _make(hybrid=False)
    est.fit(train, epochs=2, event_handlers=[CheckpointHandler(str(tmp_path), "plain"), _quiet()])
    files = sorted(os.listdir(str(tmp_path)))
    assert files == ["plain-epoch0batch8.params", "plain-epoch0batch8.states", "plain-epoch1batch16.params",
                     "plain-epoch1batch16.states"]  # no -symbol.json: the block is not hybridized
    net2 = nn.Sequential()
    with net2.name_scope():
        net2.add(nn.Dense(16, activation="relu"), nn.Dense(3))
    net2.load_parameters(os.path.join(str(tmp_path), "plain-epoch1batch16.params"))
    x = mx.nd.array(_blobs()[0][:5])
    np.testing.assert_allclose(net2(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)


def test_batches_limit_and_handler_stop():
    train, _, _ = _loaders(batch_size=8)   # 15 batches per epoch
    _, est = _make()
    est.fit(train, batches=20, event_handlers=[_quiet()])
    assert est.current_batch == 20 and est.current_epoch == 2

    class StopAt(BatchEnd):
        def batch_end(self, estimator, *args, **kwargs):
            return estimator.current_batch >= 3   # runs before StoppingHandler counts the 4th

    est.fit(train, epochs=5, event_handlers=[StopAt(), _quiet()])
    assert est.current_batch == 4 and est.current_epoch == 1
    with pytest.raises(ValueError, match="exactly one"):
        est.fit(train, epochs=1, batches=1)
    with pytest.raises(ValueError, match="exactly one"):
        est.fit(train)


def test_early_stopping():
    train, val, _ = _loaders()
    _, est = _make(lr=0.0)   # nothing improves
    stop = EarlyStoppingHandler(monitor=est.val_metrics[0], patience=1)
    est.fit(train, val_data=val, epochs=10, event_handlers=[stop, _quiet()])
    # MXNet's rule: epoch 0 sets the best, epoch 1 does not improve and the wait reaches patience
    assert stop.stopped_epoch == 1 and est.current_epoch == 2


def test_logging_lines_and_progress_bar(capsys):
    train, val, _ = _loaders()
    _, est = _make()
    out = io.StringIO()
    est.fit(train, val_data=val, epochs=2, event_handlers=[LoggingHandler(progress_bar=False, file=out)])
    lines = out.getvalue().splitlines()
    assert lines[0] == "Training begin: using optimizer Adam with current learning rate 0.0500 "
    assert lines[1] == "Train for 2 epochs."
    # epochs numbered from 0, as MXNet's LoggingHandler numbers them
    assert re.match(r"\[Epoch 0\] Finished in \d+\.\d{3}s, training accuracy: \d\.\d{4}, "
                    r"training softmaxcrossentropyloss: \d\.\d{4}, validation accuracy: \d\.\d{4}, ", lines[2])
    assert lines[3].startswith("[Epoch 1] Finished in ")
    assert re.match(r"Train finished using total \d+s with 2 epochs\. training accuracy: ", lines[-1])
    out = io.StringIO()
    est.fit(train, epochs=1, event_handlers=[LoggingHandler(log_interval=4, progress_bar=False, file=out)])
    lines = out.getvalue().splitlines()
    assert lines[2] == "[Epoch 0] Begin, current learning rate: 0.0500"
    # batches 0, 4 of the 8 (MXNet logs when the batch index is a multiple of log_interval)
    assert re.match(r"\[Epoch 0\]\[Batch 0\]\[Samples 16\] time/interval: \d+\.\d{3}s training accuracy: ",
                    lines[3])
    assert lines[4].startswith("[Epoch 0][Batch 4][Samples 80] ")
    assert lines[-2].startswith("[Epoch 0] Finished in ")
    if HAS_TQDM:
        est.fit(train, epochs=1, event_handlers=[LoggingHandler(progress_bar=True, file=io.StringIO())])
        assert "Epoch 0/0" in capsys.readouterr().err


@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="matplotlib is not installed")
def test_plot_history(tmp_path):
    train, val, _ = _loaders()
    _, est = _make()
    assert est.plot_history(str(tmp_path / "none.png")) is None   # nothing trained yet
    est.fit(train, val_data=val, epochs=2, event_handlers=[_quiet()])
    path = est.plot_history(str(tmp_path / "curves.png"))
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_defaults_and_argument_errors():
    net = nn.Dense(3, in_units=2)
    with pytest.warns(UserWarning, match="No trainer"):
        est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss())
    assert [m.name for m in est.train_metrics] == ["training accuracy", "training softmaxcrossentropyloss"]
    assert [m.name for m in est.val_metrics] == ["validation accuracy", "validation softmaxcrossentropyloss"]
    assert net.weight.list_ctx() == [mx.cpu()]   # initialized by the estimator
    with pytest.raises(ValueError, match="trainer"):
        Estimator(net, loss=gluon.loss.L2Loss(), trainer="sgd")
    with pytest.raises(ValueError, match="metrics"):
        Estimator(net, loss=gluon.loss.L2Loss(), train_metrics="acc",
                  trainer=gluon.Trainer(net.collect_params(), "sgd"))
    with pytest.raises(ValueError, match="save_best"):
        CheckpointHandler("unused", save_best=True)


@pytest.mark.skipif(not HAS_SKLEARN, reason="scikit-learn is not installed (the demo's data set)")
def test_digits_demo_short_run(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("digits_demo", os.path.join(ROOT, "examples", "digits_demo.py"))
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    rc = demo.main(["--epochs", "2", "--min-accuracy", "0", "--out", str(tmp_path), "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "predictions identical" in out and "test accuracy:" in out
    assert os.path.exists(os.path.join(str(tmp_path), "digits-symbol.json"))
    assert os.path.exists(os.path.join(str(tmp_path), "digits-0002.params"))


def test_batch_processor_and_batch_period_checkpoints(tmp_path):
    train, _, _ = _loaders()   # 8 batches per epoch

    class ScaledLoss(BatchProcessor):
        calls = 0

        def fit_batch(self, estimator, train_batch, batch_axis=0):
            ScaledLoss.calls += 1
            return super().fit_batch(estimator, train_batch, batch_axis)

    net, est = _make()
    est.batch_processor = ScaledLoss()
    ckpt = CheckpointHandler(str(tmp_path), "b", epoch_period=None, batch_period=5, max_checkpoints=10)
    est.fit(train, epochs=2, event_handlers=[ckpt, _quiet()])
    assert ScaledLoss.calls == 16
    files = sorted(f for f in os.listdir(str(tmp_path)) if f.endswith(".params"))
    assert files == ["b-epoch0batch4.params", "b-epoch1batch14.params", "b-epoch1batch9.params"]
    with pytest.raises(ValueError, match="BatchProcessor"):
        Estimator(net, loss=gluon.loss.L2Loss(), trainer=est.trainer, batch_processor=object())


def test_resume_from_checkpoint_trains_the_remaining_epochs(tmp_path):
    train, _, _ = _loaders()
    net, est = _make()
    est.fit(train, epochs=1, event_handlers=[CheckpointHandler(str(tmp_path), "r"), _quiet()])
    assert os.path.exists(os.path.join(str(tmp_path), "r-epoch0batch8.params"))
    net2, est2 = _make()
    resume = CheckpointHandler(str(tmp_path), "r", resume_from_checkpoint=True)
    est2.fit(train, epochs=3, event_handlers=[resume, _quiet()])
    assert est2.current_epoch == 2   # epochs 1 and 2 were left
    # numbered on as MXNet 1.9.1 numbers resumed checkpoints: epoch E + 1 + e, batch B + 1 + b
    assert sorted(f for f in os.listdir(str(tmp_path)) if f.endswith(".params")) == [
        "r-epoch0batch8.params", "r-epoch1batch17.params", "r-epoch2batch25.params"]
    done = CheckpointHandler(str(tmp_path), "r", resume_from_checkpoint=True)
    with pytest.raises(ValueError, match="maximum number of epoch"):
        _make()[1].fit(train, epochs=3, event_handlers=[done, _quiet()])


def test_validation_handler_periods_call_eval_fn_as_mxnet_does():
    train, val, _ = _loaders()   # 8 batches per epoch
    _, est = _make()
    calls = []

    def eval_fn(val_data, batch_axis, event_handlers):
        calls.append((val_data is val, batch_axis, event_handlers))

    from weft.gluon.contrib.estimator import ValidationHandler
    handler = ValidationHandler(val, eval_fn, epoch_period=2, batch_period=5, event_handlers=["h"])
    est.fit(train, epochs=2, event_handlers=[handler, _quiet()])
    # batches 5, 10, 15 and the end of epoch 2
    assert calls == [(True, 0, ["h"])] * 4


def test_estimator_logger_is_mxnets(capsys):
    _, est = _make()
    est.logger.info("hello from a handler")
    assert "hello from a handler" in capsys.readouterr().out
