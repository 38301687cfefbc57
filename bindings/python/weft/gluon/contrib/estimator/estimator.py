"""Estimator: a training loop with event handlers (MXNet 1.9.1's
``mxnet.gluon.contrib.estimator``).

    est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(),
                    train_metrics=mx.metric.Accuracy(), trainer=trainer)
    est.fit(train_loader, val_data=test_loader, epochs=10,
            event_handlers=[CheckpointHandler('ckpt', 'digits', save_best=True,
                                              monitor=est.val_metrics[0])])
    est.evaluate(test_loader)          # {'validation accuracy': ..., ...}
    est.plot_history('curves.png')     # when matplotlib is importable

``fit`` runs, per batch: the batch processor's ``fit_batch`` (forward and loss
under ``autograd.record()``, then ``backward``; ``BatchProcessor`` by default,
or the ``batch_processor`` given), then the batch-end handlers
(GradientUpdateHandler calls ``trainer.step(batch_size)``, MetricHandler
updates the training metrics, LoggingHandler advances the progress bar); per
epoch: the epoch-end handlers (ValidationHandler runs ``evaluate``, the
per-epoch values go to ``est.history``, CheckpointHandler saves, LoggingHandler
prints ``[Epoch N] Finished in ...``). Handlers run in order of ``priority``
(lower first); a batch_end or epoch_end that returns True stops training after
every handler of that stage has run.

The training metrics are named "training <name>" and the validation metrics
(copies of the training ones unless given) "validation <name>"; a Loss metric
is added to each when none is given.

Differences from MXNet, on purpose: the progress bar is tqdm's (plain lines when
tqdm is not installed) and ``.states`` files are weft's pickle-free trainer
states (weft/optimizer/updater.py).
"""
# pylint: disable=unused-argument,too-many-arguments,too-many-instance-attributes
import copy
import logging
import sys
import warnings

from .... import metric as _metric
from ....base import InvalidArgumentError
from ...loss import Loss as _GluonLoss, SoftmaxCrossEntropyLoss
from ...trainer import Trainer
from .batch_processor import BatchProcessor
from .event_handler import (BatchBegin, BatchEnd, EpochBegin, EpochEnd, GradientUpdateHandler, LoggingHandler,
                            MetricHandler, StoppingHandler, TrainBegin, TrainEnd, ValidationHandler,
                            _HistoryHandler)
from .utils import _check_context, _check_metrics, _sort, _update_metrics

__all__ = ["Estimator"]


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
    batch_processor : BatchProcessor or None
        Runs each training and validation batch (default: a BatchProcessor).
    """

    def __init__(self, net, loss, train_metrics=None, val_metrics=None, initializer=None, trainer=None,
                 context=None, val_net=None, val_loss=None, batch_processor=None):
        if batch_processor is None:
            batch_processor = BatchProcessor()
        elif not isinstance(batch_processor, BatchProcessor):
            raise InvalidArgumentError("batch_processor must be a BatchProcessor, got %s"
                                       % type(batch_processor).__name__)
        self.batch_processor = batch_processor
        # MXNet's estimator logger (INFO to stdout), for handlers that log through estimator.logger
        self.logger = logging.Logger(name="Estimator", level=logging.INFO)
        self.logger.addHandler(logging.StreamHandler(sys.stdout))
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

    # -- batches (delegated to the batch processor, as in MXNet 1.9.1) ---------------------------
    def _get_data_and_label(self, batch, ctx=None, batch_axis=0):
        return self.batch_processor._get_data_and_label(  # pylint: disable=protected-access
            batch, ctx if ctx is not None else self.context, batch_axis)

    def fit_batch(self, train_batch, batch_axis=0):
        """Forward, loss and backward on one batch; returns (data, label, pred, loss), each a list per device."""
        return self.batch_processor.fit_batch(self, train_batch, batch_axis)

    def evaluate_batch(self, val_batch, batch_axis=0):
        """Forward and loss of val_net on one batch, updating the validation metrics."""
        data, label, pred, loss = self.batch_processor.evaluate_batch(self, val_batch, batch_axis)
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
        self._handlers = handlers  # CheckpointHandler's resume adjusts the StoppingHandler
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
            handlers.append(ValidationHandler(val_data, self.evaluate))
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
            # matplotlib is optional and slow to import: only plot_history needs it.
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


