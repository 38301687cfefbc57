"""weft.contrib.tensorboard.LogMetricsCallback (MXNet 1.9.1's mx.contrib.tensorboard).

The writer module is replaced by a recording one in sys.modules, so the callback's
behaviour is checked whether or not tensorboardX / PyTorch are installed."""
import sys
import types
from collections import namedtuple

import pytest

import weft as mx
from weft.contrib import tensorboard

Param = namedtuple("Param", ["epoch", "nbatch", "eval_metric", "locals"])


class _Writer:
    made = []

    def __init__(self, logdir):
        self.logdir = logdir
        self.scalars = []
        _Writer.made.append(self)

    def add_scalar(self, tag, value, global_step=None):
        self.scalars.append((tag, value, global_step))


@pytest.fixture
def fake_tensorboardx(monkeypatch):
    _Writer.made = []
    monkeypatch.setitem(sys.modules, "tensorboardX", types.SimpleNamespace(SummaryWriter=_Writer))
    return _Writer


def test_writes_each_metric(fake_tensorboardx, tmp_path):
    cb = tensorboard.LogMetricsCallback(str(tmp_path), prefix="train")
    assert fake_tensorboardx.made[0].logdir == str(tmp_path)
    metric = mx.metric.create(["acc", "ce"])
    metric.update([mx.nd.array([1, 0])], [mx.nd.array([[0.2, 0.8], [0.9, 0.1]])])
    cb(Param(epoch=3, nbatch=0, eval_metric=metric, locals=None))
    cb(Param(epoch=4, nbatch=0, eval_metric=None, locals=None))  # nothing to write
    rows = fake_tensorboardx.made[0].scalars
    assert [(t, s) for t, _, s in rows] == [("train-accuracy", 3), ("train-cross-entropy", 3)]
    assert rows[0][1] == 1.0
    cb2 = tensorboard.LogMetricsCallback(str(tmp_path))
    cb2(Param(epoch=0, nbatch=0, eval_metric=metric, locals=None))
    assert fake_tensorboardx.made[1].scalars[0][0] == "accuracy"


def test_no_writer_is_a_clear_import_error(monkeypatch, tmp_path):
    for name in ("tensorboardX", "torch", "torch.utils", "torch.utils.tensorboard", "mxboard"):
        monkeypatch.setitem(sys.modules, name, None)  # None in sys.modules makes the import fail
    with pytest.raises(ImportError, match="tensorboardX.*torch.utils.tensorboard"):
        tensorboard.LogMetricsCallback(str(tmp_path))
