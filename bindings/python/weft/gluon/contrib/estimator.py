"""Estimator: a training loop with event handlers (MXNet 1.x's
``mxnet.gluon.contrib.estimator``), kept small.

    est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(),
                    train_metrics=mx.metric.Accuracy(), trainer=trainer)
    est.fit(train_loader, val_data=test_loader, epochs=10,
            event_handlers=[CheckpointHandler('ckpt', 'digits')])
    est.evaluate(test_loader)          # {'validation accuracy': ..., ...}
    est.plot_history('curves.png')     # when matplotlib is importable

``fit`` runs, per batch: forward and loss under ``autograd.record()``,
``backward``, then the batch-end handlers (GradientUpdateHandler calls
``trainer.step(batch_size)``, MetricHandler updates the training metrics, the
LoggingHandler advances the progress bar); per epoch: the epoch-end handlers
(ValidationHandler runs ``evaluate``, the per-epoch values go to
``est.history``, CheckpointHandler saves, LoggingHandler prints a line).
Handlers run in order of ``priority`` (lower first); a batch_end or epoch_end
that returns True stops training after every handler of that stage has run.

The training metrics are named "training <name>" and the validation metrics
(copies of the training ones unless given) "validation <name>"; a Loss metric
is added to each when none is given.

Differences from MXNet, on purpose: the progress bar is tqdm's (plain lines when
tqdm is not installed); CheckpointHandler exports hybridized HybridBlocks with
``net.export`` (Note [Checkpoint files]) and has no batch_period or
resume_from_checkpoint; there is no BatchProcessor class (override
``fit_batch`` / ``evaluate_batch`` instead).
"""
# pylint: disable=unused-argument,too-many-arguments,too-many-instance-attributes
import copy
import math
import os
import sys
import time
import warnings

from ... import autograd
from ... import metric as _metric
from ...base import InvalidArgumentError
from ...context import Context, cpu
from ..block import HybridBlock
from ..loss import Loss as _GluonLoss, SoftmaxCrossEntropyLoss
from ..trainer import Trainer
from ..utils import split_and_load

__all__ = ["Estimator", "TrainBegin", "TrainEnd", "EpochBegin", "EpochEnd", "BatchBegin", "BatchEnd",
           "EventHandler", "StoppingHandler", "MetricHandler", "ValidationHandler", "LoggingHandler",
           "CheckpointHandler", "EarlyStoppingHandler", "GradientUpdateHandler"]


# -- event handler interfaces -------------------------------------------------------------------
class EventHandler:
    """Base of the handlers; ``priority`` orders handlers of one stage (lower first)."""
    priority = 0


class TrainBegin(EventHandler):
    def train_begin(self, estimator, *args, **kwargs):
        pass


class TrainEnd(EventHandler):
    def train_end(self, estimator, *args, **kwargs):
        pass


class EpochBegin(EventHandler):
    def epoch_begin(self, estimator, *args, **kwargs):
        pass


class EpochEnd(EventHandler):
    def epoch_end(self, estimator, *args, **kwargs):
        """Return True to stop training."""
        return False


class BatchBegin(EventHandler):
    def batch_begin(self, estimator, *args, **kwargs):
        pass


class BatchEnd(EventHandler):
    def batch_end(self, estimator, *args, **kwargs):
        """Called with batch=, pred=, label=, loss= (lists, one entry per device);
        return True to stop training."""
        return False


# -- the handlers fit adds by default -----------------------------------------------------------
class StoppingHandler(TrainBegin, BatchEnd, EpochEnd):
    """Stops after max_epoch epochs or max_batch batches; keeps
    ``estimator.current_epoch`` (epochs finished) and ``estimator.current_batch``."""
    priority = math.inf

    def __init__(self, max_epoch=None, max_batch=None):
        self.max_epoch = max_epoch
        self.max_batch = max_batch

    def train_begin(self, estimator, *args, **kwargs):
        estimator.current_epoch = 0
        estimator.current_batch = 0
        estimator.stop_training = False

    def batch_end(self, estimator, *args, **kwargs):
        estimator.current_batch += 1
        if self.max_batch is not None and estimator.current_batch >= self.max_batch:
            estimator.stop_training = True
        return estimator.stop_training

    def epoch_end(self, estimator, *args, **kwargs):
        estimator.current_epoch += 1
        if self.max_epoch is not None and estimator.current_epoch >= self.max_epoch:
            estimator.stop_training = True
        return estimator.stop_training


class GradientUpdateHandler(BatchEnd):
    """``trainer.step(batch_size)`` after each batch (batch_size: the samples in the batch)."""
    priority = -2000

    def batch_end(self, estimator, *args, **kwargs):
        loss = kwargs["loss"]
        batch_size = sum(l.shape[0] for l in loss)
        estimator.trainer.step(batch_size)
        return False


class MetricHandler(EpochBegin, BatchEnd):
    """Resets the training metrics each epoch and updates them after each batch
    (Loss metrics with the loss, the others with (label, pred))."""
    priority = -1000

    def __init__(self, metrics):
        self.metrics = list(metrics)

    def epoch_begin(self, estimator, *args, **kwargs):
        for m in self.metrics:
            m.reset()

    def batch_end(self, estimator, *args, **kwargs):
        _update_metrics(self.metrics, kwargs["label"], kwargs["pred"], kwargs["loss"])
        return False


class ValidationHandler(TrainBegin, EpochEnd):
    """Runs ``eval_fn(val_data)`` (the estimator's evaluate) every epoch_period epochs."""
    priority = -1000

    def __init__(self, val_data, eval_fn, epoch_period=1):
        self.val_data = val_data
        self.eval_fn = eval_fn
        self.epoch_period = epoch_period

    def epoch_end(self, estimator, *args, **kwargs):
        if (estimator.current_epoch + 1) % self.epoch_period == 0:
            self.eval_fn(self.val_data)
        return False


class _HistoryHandler(TrainBegin, EpochEnd):
    """Appends each epoch's metric values to ``estimator.history``."""
    priority = -500

    def train_begin(self, estimator, *args, **kwargs):
        estimator.history = {"epoch": []}

    def epoch_end(self, estimator, *args, **kwargs):
        hist = estimator.history
        hist["epoch"].append(estimator.current_epoch + 1)
        n = len(hist["epoch"])
        for m in estimator.train_metrics + estimator.val_metrics:
            for name, value in m.get_name_value():
                hist.setdefault(name, [None] * (n - 1)).append(value if m.num_inst else None)
        for values in hist.values():
            if len(values) < n:
                values.append(None)
        return False


class LoggingHandler(TrainBegin, TrainEnd, EpochBegin, BatchEnd, EpochEnd):
    """A progress bar per epoch showing the training metrics, and one line per
    epoch with the training and validation metrics. Without a bar,
    ``log_interval`` batches (an int) also print a line.

    Parameters
    ----------
    log_interval : 'epoch' or int
    metrics : list of EvalMetric, or None for the estimator's
    progress_bar : None (a tqdm bar when tqdm is installed and stderr is a
        terminal), True (a bar whenever tqdm is installed) or False
    file : where lines go (default sys.stdout)
    """
    priority = math.inf

    def __init__(self, log_interval="epoch", metrics=None, progress_bar=None, file=None):
        if log_interval != "epoch" and not (isinstance(log_interval, int) and log_interval > 0):
            raise InvalidArgumentError("log_interval must be 'epoch' or a positive int, got %r" % (log_interval,))
        self.log_interval = log_interval
        self.metrics = metrics
        self.file = file
        self._tqdm = _import_tqdm() if progress_bar is not False else None
        if progress_bar is None and not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
            self._tqdm = None
        if progress_bar is True and self._tqdm is None:
            warnings.warn("LoggingHandler: tqdm is not installed; printing lines instead of a progress bar",
                          stacklevel=2)
        self._bar = None
        self._epoch_start = self._train_start = 0.0
        self._batch_in_epoch = 0

    def _out(self):
        return self.file if self.file is not None else sys.stdout

    def _print(self, line):
        if self._tqdm is not None:
            self._tqdm.tqdm.write(line, file=self._out())
        else:
            print(line, file=self._out(), flush=True)

    def _metrics(self, estimator, which):
        metrics = self.metrics if self.metrics is not None else estimator.train_metrics + estimator.val_metrics
        prefix = "training " if which == "train" else "validation "
        out = []
        for m in metrics:
            for name, value in m.get_name_value():
                if name.startswith(prefix) and m.num_inst:
                    out.append((name[len(prefix):], value))
        return out

    def train_begin(self, estimator, *args, **kwargs):
        self._train_start = time.time()
        goal = ("%d epochs" % estimator.max_epoch) if estimator.max_epoch else ("%d batches" % estimator.max_batch)
        self._print("Training for %s on %s" % (goal, ", ".join(str(c) for c in estimator.context)))

    def train_end(self, estimator, *args, **kwargs):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self._print("Training finished: %d epochs, %d batches in %.1f s"
                    % (estimator.current_epoch, estimator.current_batch, time.time() - self._train_start))

    def epoch_begin(self, estimator, *args, **kwargs):
        self._epoch_start = time.time()
        self._batch_in_epoch = 0
        if self._tqdm is not None:
            total = estimator.batches_per_epoch
            desc = "Epoch %d" % (estimator.current_epoch + 1)
            if estimator.max_epoch:
                desc += "/%d" % estimator.max_epoch
            self._bar = self._tqdm.tqdm(total=total, desc=desc, unit="batch", leave=False, file=sys.stderr,
                                        dynamic_ncols=True)

    def batch_end(self, estimator, *args, **kwargs):
        self._batch_in_epoch += 1
        if self._bar is not None:
            self._bar.update(1)
            if self._batch_in_epoch % 10 == 0:
                self._bar.set_postfix({k: "%.4f" % v for k, v in self._metrics(estimator, "train")}, refresh=False)
        elif isinstance(self.log_interval, int) and self._batch_in_epoch % self.log_interval == 0:
            self._print("[Epoch %d][Batch %d] %s" % (estimator.current_epoch + 1, self._batch_in_epoch,
                                                     _fmt(self._metrics(estimator, "train"))))
        return False

    def epoch_end(self, estimator, *args, **kwargs):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        line = "[Epoch %d] train: %s" % (estimator.current_epoch + 1, _fmt(self._metrics(estimator, "train")))
        val = self._metrics(estimator, "val")
        if val:
            line += " | validation: %s" % _fmt(val)
        self._print(line + " (%.1f s)" % (time.time() - self._epoch_start))
        return False


# -- optional handlers ----------------------------------------------------------------------------
def _monitor_mode(monitor, mode):
    if mode not in ("auto", "min", "max"):
        raise InvalidArgumentError("mode must be 'auto', 'min' or 'max', got %r" % (mode,))
    if mode != "auto":
        return mode
    name = monitor.get()[0].lower()
    return "max" if ("acc" in name or "f1" in name or "pearson" in name) else "min"


class CheckpointHandler(TrainBegin, EpochEnd):
    """Saves the model and the trainer's states every epoch_period epochs.

    Note [Checkpoint files]
        With ``prefix = model_dir/model_prefix`` and N the number of epochs done:
        a hybridized HybridBlock is saved with ``net.export(prefix, N)``, which
        writes ``prefix-symbol.json`` and ``prefix-%04d.params`` (loadable with
        ``SymbolBlock.imports``); any other Block with
        ``save_parameters(prefix-%04d.params)``. The trainer's states go to
        ``prefix-%04d.states``. Only the newest ``max_checkpoints`` .params /
        .states pairs are kept. With ``save_best`` and a ``monitor`` metric,
        the best epoch so far is also saved under ``prefix-best`` (epoch 0:
        ``prefix-best-0000.params``).

    Parameters
    ----------
    model_dir : str (created when missing)
    model_prefix : str
    monitor : EvalMetric or None (needed by save_best)
    verbose : int (1: print a line per save)
    save_best : bool
    mode : 'auto', 'min' or 'max' (whether a larger monitor value is better)
    epoch_period : int
    max_checkpoints : int
    """

    def __init__(self, model_dir, model_prefix="model", monitor=None, verbose=0, save_best=False, mode="auto",
                 epoch_period=1, max_checkpoints=5):
        if save_best and monitor is None:
            raise InvalidArgumentError("CheckpointHandler: save_best needs a monitor metric")
        if not (isinstance(epoch_period, int) and epoch_period > 0):
            raise InvalidArgumentError("epoch_period must be a positive int, got %r" % (epoch_period,))
        self.model_dir = model_dir
        self.model_prefix = model_prefix
        self.monitor = monitor
        self.verbose = verbose
        self.save_best = save_best
        self.mode = _monitor_mode(monitor, mode) if monitor is not None else mode
        self.epoch_period = epoch_period
        self.max_checkpoints = max_checkpoints
        self.saved_checkpoints = []   # paths of the .params files kept
        self.best = None

    def train_begin(self, estimator, *args, **kwargs):
        os.makedirs(self.model_dir, exist_ok=True)
        self.saved_checkpoints = []
        self.best = None

    def epoch_end(self, estimator, *args, **kwargs):
        epoch = estimator.current_epoch + 1
        if epoch % self.epoch_period == 0:
            prefix = os.path.join(self.model_dir, self.model_prefix)
            params = self._save(estimator, prefix, epoch)
            self.saved_checkpoints.append(params)
            while len(self.saved_checkpoints) > self.max_checkpoints:
                old = self.saved_checkpoints.pop(0)
                for path in (old, old[:-len(".params")] + ".states"):
                    if os.path.exists(path):
                        os.remove(path)
        if self.save_best:
            value = self.monitor.get()[1]
            if self.monitor.num_inst and not math.isnan(value) and (
                    self.best is None or (value > self.best if self.mode == "max" else value < self.best)):
                self.best = value
                self._save(estimator, os.path.join(self.model_dir, self.model_prefix + "-best"), 0)
        return False

    def _save(self, estimator, prefix, epoch):
        net = estimator.net
        params = "%s-%04d.params" % (prefix, epoch)
        if isinstance(net, HybridBlock) and _is_hybridized(net):
            net.export(prefix, epoch=epoch)
        else:
            net.save_parameters(params)
        estimator.trainer.save_states("%s-%04d.states" % (prefix, epoch))
        if self.verbose:
            print("[Epoch %d] checkpoint %s" % (estimator.current_epoch + 1, params), flush=True)
        return params


class EarlyStoppingHandler(TrainBegin, EpochEnd):
    """Stops when ``monitor`` has not improved by min_delta for patience epochs."""

    def __init__(self, monitor, min_delta=0, patience=0, mode="auto", baseline=None):
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = patience
        self.mode = _monitor_mode(monitor, mode)
        self.baseline = baseline
        self.wait = 0
        self.best = None
        self.stopped_epoch = None

    def train_begin(self, estimator, *args, **kwargs):
        self.wait = 0
        self.stopped_epoch = None
        self.best = self.baseline

    def epoch_end(self, estimator, *args, **kwargs):
        value = self.monitor.get()[1]
        if not self.monitor.num_inst or math.isnan(value):
            return False
        better = self.best is None or (value > self.best + self.min_delta if self.mode == "max"
                                       else value < self.best - self.min_delta)
        if better:
            self.best = value
            self.wait = 0
            return False
        self.wait += 1
        if self.wait > self.patience:
            self.stopped_epoch = estimator.current_epoch + 1
            estimator.stop_training = True
            return True
        return False


# -- the estimator ---------------------------------------------------------------------------------
class Estimator:
    """Trains and evaluates a Gluon network.

    Parameters
    ----------
    net : Block
    loss : gluon.loss.Loss (or any Block / callable ``loss(pred, label)``)
    train_metrics : EvalMetric or list of them (default: Accuracy for
        SoftmaxCrossEntropyLoss, none otherwise; a Loss metric is always added)
    val_metrics : EvalMetric or list (default: copies of the training metrics)
    initializer : Initializer for a network whose parameters are not initialized
    trainer : gluon.Trainer (default: SGD with learning rate 0.001, with a warning)
    context : Context or list of Contexts (default cpu()); batches are split across them
    val_net, val_loss : used by evaluate (default: net and loss)
    """

    def __init__(self, net, loss, train_metrics=None, val_metrics=None, initializer=None, trainer=None,
                 context=None, val_net=None, val_loss=None):
        self.net = net
        self.loss = loss
        self.val_net = val_net if val_net is not None else net
        self.val_loss = val_loss if val_loss is not None else loss
        self.context = _check_context(context)
        self._initialize(initializer)
        self.trainer = self._check_trainer(trainer)
        self.train_metrics = _check_metrics(train_metrics)
        self.val_metrics = _check_metrics(val_metrics)
        self._add_default_metrics()
        self.history = {"epoch": []}
        self.max_epoch = self.max_batch = None
        self.batches_per_epoch = None
        self.current_epoch = self.current_batch = 0
        self.stop_training = False
        self.batch_axis = 0

    def _initialize(self, initializer):
        params = self.net.collect_params()
        initialized = True
        for p in params.values():
            try:
                p.list_ctx()
            except Exception:  # pylint: disable=broad-except
                initialized = False
                break
        if not initialized:
            self.net.initialize(init=initializer, ctx=self.context)
        elif initializer is not None:
            warnings.warn("Network already initialized; the initializer given to the Estimator is ignored. "
                          "Call net.initialize(force_reinit=True) yourself to re-initialize.", stacklevel=3)

    def _check_trainer(self, trainer):
        if trainer is None:
            warnings.warn("No trainer specified; using SGD with learning rate 0.001", stacklevel=3)
            return Trainer(self.net.collect_params(), "sgd", {"learning_rate": 0.001})
        if not isinstance(trainer, Trainer):
            raise InvalidArgumentError("trainer must be a gluon.Trainer, got %s" % type(trainer).__name__)
        return trainer

    def _add_default_metrics(self):
        if not self.train_metrics and isinstance(self.loss, SoftmaxCrossEntropyLoss):
            self.train_metrics = [_metric.Accuracy()]
        if not any(isinstance(m, _metric.Loss) for m in self.train_metrics):
            name = getattr(self.loss, "name", None) if isinstance(self.loss, _GluonLoss) else None
            self.train_metrics.append(_metric.Loss(name="loss" if not name else name.rstrip("0123456789")))
        if not self.val_metrics:
            self.val_metrics = [copy.deepcopy(m) for m in self.train_metrics]
        elif not any(isinstance(m, _metric.Loss) for m in self.val_metrics):
            self.val_metrics.append(copy.deepcopy([m for m in self.train_metrics if isinstance(m, _metric.Loss)][0]))
        for m in self.train_metrics:
            if not m.name.startswith("training "):
                m.name = "training " + m.name
        for m in self.val_metrics:
            if m.name.startswith("training "):
                m.name = "validation " + m.name[len("training "):]
            elif not m.name.startswith("validation "):
                m.name = "validation " + m.name

    # -- batches ---------------------------------------------------------------------------------
    def _get_data_and_label(self, batch, batch_axis=0):
        if not isinstance(batch, (list, tuple)) or len(batch) < 2:
            raise InvalidArgumentError("Estimator: each batch must be a (data, label) pair, got %s"
                                       % type(batch).__name__)
        data = split_and_load(batch[0], self.context, batch_axis=batch_axis, even_split=False)
        label = split_and_load(batch[1], self.context, batch_axis=batch_axis, even_split=False)
        return data, label

    def fit_batch(self, train_batch, batch_axis=0):
        """Forward, loss and backward on one batch; returns (data, label, pred, loss), each a list per device."""
        data, label = self._get_data_and_label(train_batch, batch_axis)
        with autograd.record():
            pred = [self.net(x) for x in data]
            loss = [self.loss(y_hat, y) for y_hat, y in zip(pred, label)]
        for l in loss:
            l.backward()
        return data, label, pred, loss

    def evaluate_batch(self, val_batch, batch_axis=0):
        """Forward and loss of val_net on one batch, updating the validation metrics."""
        data, label = self._get_data_and_label(val_batch, batch_axis)
        pred = [self.val_net(x) for x in data]
        loss = [self.val_loss(y_hat, y) for y_hat, y in zip(pred, label)]
        _update_metrics(self.val_metrics, label, pred, loss)
        return data, label, pred, loss

    def evaluate(self, val_data, batch_axis=0, event_handlers=None):
        """Runs val_net over val_data (in inference mode); returns
        ``{metric name: value}`` of the validation metrics."""
        for m in self.val_metrics:
            m.reset()
        handlers = _sort(event_handlers or [])
        for batch in val_data:
            for h in handlers:
                if isinstance(h, BatchBegin):
                    h.batch_begin(self, batch=batch)
            _, label, pred, loss = self.evaluate_batch(batch, batch_axis)
            for h in handlers:
                if isinstance(h, BatchEnd):
                    h.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
        return dict(nv for m in self.val_metrics for nv in m.get_name_value())

    # -- fit -----------------------------------------------------------------------------------------
    def fit(self, train_data, val_data=None, epochs=None, event_handlers=None, batches=None, batch_axis=0):
        """Trains for ``epochs`` epochs or ``batches`` batches (exactly one of
        them), evaluating on val_data after each epoch when given."""
        if (epochs is None) == (batches is None):
            raise InvalidArgumentError("fit needs exactly one of epochs or batches")
        for what, n in (("epochs", epochs), ("batches", batches)):
            if n is not None and not (isinstance(n, int) and n > 0):
                raise InvalidArgumentError("fit: %s must be a positive int, got %r" % (what, n))
        self.max_epoch, self.max_batch, self.batch_axis = epochs, batches, batch_axis
        try:
            self.batches_per_epoch = len(train_data)
        except TypeError:
            self.batches_per_epoch = None
        handlers = self._prepare_handlers(val_data, event_handlers, batch_axis)
        stage = {name: [h for h in handlers if isinstance(h, klass)]
                 for name, klass in (("train_begin", TrainBegin), ("epoch_begin", EpochBegin),
                                     ("batch_begin", BatchBegin), ("batch_end", BatchEnd),
                                     ("epoch_end", EpochEnd), ("train_end", TrainEnd))}
        self.stop_training = False
        for h in stage["train_begin"]:
            h.train_begin(self)
        while True:
            for h in stage["epoch_begin"]:
                h.epoch_begin(self)
            for batch in train_data:
                for h in stage["batch_begin"]:
                    h.batch_begin(self, batch=batch)
                _, label, pred, loss = self.fit_batch(batch, batch_axis)
                if any([h.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
                        for h in stage["batch_end"]]):
                    self.stop_training = True
                    break
            if any([h.epoch_end(self) for h in stage["epoch_end"]]) or self.stop_training:
                break
        for h in stage["train_end"]:
            h.train_end(self)
        return self.history

    def _prepare_handlers(self, val_data, event_handlers, batch_axis):
        handlers = list(event_handlers or [])
        has = lambda klass: any(isinstance(h, klass) for h in handlers)  # noqa: E731
        if not has(StoppingHandler):
            handlers.append(StoppingHandler(self.max_epoch, self.max_batch))
        else:
            for h in handlers:
                if isinstance(h, StoppingHandler):
                    h.max_epoch, h.max_batch = self.max_epoch, self.max_batch
        if not has(GradientUpdateHandler):
            handlers.append(GradientUpdateHandler())
        if not has(MetricHandler):
            handlers.append(MetricHandler(self.train_metrics))
        if val_data is not None and not has(ValidationHandler):
            handlers.append(ValidationHandler(val_data, lambda d: self.evaluate(d, batch_axis=batch_axis)))
        if not has(LoggingHandler):
            handlers.append(LoggingHandler())
        handlers.append(_HistoryHandler())
        return _sort(handlers)

    # -- curves ----------------------------------------------------------------------------------------
    def plot_history(self, path):
        """Plots each metric of ``history`` per epoch (training and validation on
        one panel) to a PNG at path and returns path; returns None (and writes
        nothing) when matplotlib is not importable or nothing was trained."""
        try:
            import matplotlib  # pylint: disable=import-outside-toplevel
            matplotlib.use("Agg")
            from matplotlib import pyplot as plt  # pylint: disable=import-outside-toplevel
        except ImportError:
            return None
        epochs = self.history.get("epoch", [])
        if not epochs:
            return None
        panels = {}
        for name, values in self.history.items():
            if name == "epoch":
                continue
            base = name.split(" ", 1)[1] if name.startswith(("training ", "validation ")) else name
            panels.setdefault(base, []).append((name, values))
        fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 3.5), squeeze=False)
        for ax, (base, series) in zip(axes[0], sorted(panels.items())):
            for name, values in series:
                pts = [(e, v) for e, v in zip(epochs, values) if v is not None]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
            ax.set_title(base)
            ax.set_xlabel("epoch")
            ax.grid(True, alpha=0.3)
            ax.legend()
        fig.tight_layout()
        fig.savefig(path, format="png", dpi=100)
        plt.close(fig)
        return path


# -- helpers -----------------------------------------------------------------------------------------
def _import_tqdm():
    try:
        import tqdm  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return tqdm


def _fmt(pairs):
    return ", ".join("%s=%.4f" % (k, v) for k, v in pairs) if pairs else "-"


def _sort(handlers):
    return sorted(handlers, key=lambda h: getattr(h, "priority", 0))


def _is_hybridized(net):
    return bool(getattr(net, "_active", False))


def _check_context(context):
    if context is None:
        return [cpu()]
    if isinstance(context, Context):
        return [context]
    if isinstance(context, (list, tuple)) and context and all(isinstance(c, Context) for c in context):
        return list(context)
    raise InvalidArgumentError("context must be a Context or a non-empty list of Contexts, got %r" % (context,))


def _check_metrics(metrics):
    if metrics is None:
        return []
    if isinstance(metrics, _metric.CompositeEvalMetric):
        return list(metrics.metrics)
    if isinstance(metrics, _metric.EvalMetric):
        return [metrics]
    if isinstance(metrics, (list, tuple)) and all(isinstance(m, _metric.EvalMetric) for m in metrics):
        return list(metrics)
    raise InvalidArgumentError("metrics must be an EvalMetric or a list of them, got %r" % (metrics,))


def _update_metrics(metrics, label, pred, loss):
    for m in metrics:
        if isinstance(m, _metric.Loss):
            m.update(0, loss)
        else:
            m.update(label, pred)


# MXNet's module layout: gluon.contrib.estimator.{estimator,event_handler}.
event_handler = sys.modules[__name__]
estimator = sys.modules[__name__]
