"""Event handlers of the Estimator (MXNet 1.9.1's
``mxnet.gluon.contrib.estimator.event_handler``).

Each handler that numbers epochs or batches keeps its own counters, starting at
0, as MXNet's do: a one-epoch fit logs ``[Epoch 0]`` and its checkpoint is
``prefix-epoch0batchN``.
"""
# pylint: disable=unused-argument,too-many-arguments,too-many-instance-attributes
import logging
import math
import os
import re
import sys
import time
import warnings

from ....base import InvalidArgumentError
from .utils import _import_tqdm, _update_metrics

__all__ = ["TrainBegin", "TrainEnd", "EpochBegin", "EpochEnd", "BatchBegin", "BatchEnd", "EventHandler",
           "StoppingHandler", "MetricHandler", "ValidationHandler", "LoggingHandler", "CheckpointHandler",
           "EarlyStoppingHandler", "GradientUpdateHandler"]


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

    def __init__(self, priority=-2000):
        self.priority = priority

    def batch_end(self, estimator, *args, **kwargs):
        loss = kwargs["loss"]
        batch_size = sum(l.shape[0] for l in loss)
        estimator.trainer.step(batch_size)
        return False


class MetricHandler(EpochBegin, BatchEnd):
    """Resets the training metrics each epoch and updates them after each batch
    (Loss metrics with the loss, the others with (label, pred))."""
    priority = -1000

    def __init__(self, metrics, priority=-1000):
        self.metrics = list(metrics)
        self.priority = priority

    def epoch_begin(self, estimator, *args, **kwargs):
        for m in self.metrics:
            m.reset()

    def batch_end(self, estimator, *args, **kwargs):
        _update_metrics(self.metrics, kwargs["label"], kwargs["pred"], kwargs["loss"])
        return False


class ValidationHandler(TrainBegin, BatchEnd, EpochEnd):
    """Runs ``eval_fn(val_data=..., batch_axis=..., event_handlers=...)`` (the
    estimator's evaluate, or a function of that signature) every epoch_period
    epochs and every batch_period batches (MXNet 1.9.1's ValidationHandler)."""

    def __init__(self, val_data, eval_fn, epoch_period=1, batch_period=None, priority=-1000, event_handlers=None):
        for what, period in (("epoch_period", epoch_period), ("batch_period", batch_period)):
            if period is not None and not (isinstance(period, int) and period > 0):
                raise InvalidArgumentError("%s must be a positive int or None, got %r" % (what, period))
        self.val_data = val_data
        self.eval_fn = eval_fn
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.priority = priority
        self.event_handlers = event_handlers
        self.current_batch = 0
        self.current_epoch = 0

    def _evaluate(self, estimator):
        self.eval_fn(val_data=self.val_data, batch_axis=estimator.batch_axis, event_handlers=self.event_handlers)

    def train_begin(self, estimator, *args, **kwargs):
        self.current_batch = 0
        self.current_epoch = 0

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.batch_period and self.current_batch % self.batch_period == 0:
            self._evaluate(estimator)
        return False

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.epoch_period and self.current_epoch % self.epoch_period == 0:
            self._evaluate(estimator)
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
    """MXNet 1.9.1's training log, plus a tqdm progress bar per epoch::

        Training begin: using optimizer Adam with current learning rate 0.0500
        Train for 2 epochs.
        [Epoch 0] Begin, current learning rate: 0.0500                 (log_interval an int)
        [Epoch 0][Batch 0][Samples 16] time/interval: 0.012s training accuracy: 0.9000, ...
        [Epoch 0] Finished in 0.052s, training accuracy: 0.9000, ..., validation accuracy: 0.9500, ...
        Train finished using total 0s with 2 epochs. training accuracy: 0.9500, ...

    Epochs and batches count from 0, as MXNet's.

    Parameters
    ----------
    log_interval : 'epoch' or int
        'epoch': a line per epoch; an int: also a line every log_interval batches.
    metrics : list of EvalMetric, or None for the estimator's training and validation metrics
    priority : float
        Order among handlers (default: last).
    progress_bar : None (a tqdm bar when tqdm is installed and stderr is a
        terminal), True (a bar whenever tqdm is installed) or False
    file : where lines go (default sys.stdout)
    """

    def __init__(self, log_interval="epoch", metrics=None, priority=math.inf, progress_bar=None, file=None):
        if log_interval != "epoch" and not (isinstance(log_interval, int) and log_interval > 0):
            raise InvalidArgumentError("log_interval must be 'epoch' or a positive int, got %r" % (log_interval,))
        self.log_interval = log_interval
        self.metrics = metrics
        self.priority = priority
        self.file = file
        self.logger = logging.getLogger(__name__)
        self._tqdm = _import_tqdm() if progress_bar is not False else None
        if progress_bar is None and not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
            self._tqdm = None
        if progress_bar is True and self._tqdm is None:
            warnings.warn("LoggingHandler: tqdm is not installed; printing lines instead of a progress bar",
                          stacklevel=2)
        self._bar = None
        self.current_epoch = 0
        self.batch_index = 0
        self.processed_samples = 0
        self.train_start = self.epoch_start = self.log_interval_time = 0.0

    def _print(self, line):
        out = self.file if self.file is not None else sys.stdout
        if self._tqdm is not None:
            self._tqdm.tqdm.write(line, file=out)
        else:
            print(line, file=out, flush=True)

    def _metric_text(self, estimator, training_only=False):
        metrics = self.metrics if self.metrics is not None else estimator.train_metrics + (
            [] if training_only else estimator.val_metrics)
        return "".join("%s: %.4f, " % (name, value) for m in metrics if m.num_inst
                       for name, value in m.get_name_value())

    def train_begin(self, estimator, *args, **kwargs):
        self.train_start = time.time()
        trainer = estimator.trainer
        self._print("Training begin: using optimizer %s with current learning rate %.4f "
                    % (type(trainer.optimizer).__name__, trainer.learning_rate))
        if estimator.max_epoch:
            self._print("Train for %d epochs." % estimator.max_epoch)
        else:
            self._print("Train for %d batches." % estimator.max_batch)
        self.current_epoch = 0
        self.batch_index = 0
        self.processed_samples = 0
        self.log_interval_time = 0.0

    def train_end(self, estimator, *args, **kwargs):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        msg = "Train finished using total %ds with %d epochs. " % (time.time() - self.train_start,
                                                                    self.current_epoch)
        self._print((msg + self._metric_text(estimator)).rstrip(", "))

    def epoch_begin(self, estimator, *args, **kwargs):
        self.epoch_start = time.time()
        self.batch_index = 0
        self.processed_samples = 0
        self.log_interval_time = time.time()
        if isinstance(self.log_interval, int):
            self._print("[Epoch %d] Begin, current learning rate: %.4f"
                        % (self.current_epoch, estimator.trainer.learning_rate))
        if self._tqdm is not None:
            desc = "Epoch %d" % self.current_epoch
            if estimator.max_epoch:
                desc += "/%d" % (estimator.max_epoch - 1)
            self._bar = self._tqdm.tqdm(total=estimator.batches_per_epoch, desc=desc, unit="batch", leave=False,
                                        file=sys.stderr, dynamic_ncols=True)

    def batch_end(self, estimator, *args, **kwargs):
        batch = kwargs.get("batch")
        if isinstance(batch, (list, tuple)) and batch and hasattr(batch[0], "shape"):
            self.processed_samples += batch[0].shape[0]
        if self._bar is not None:
            self._bar.update(1)
            if (self.batch_index + 1) % 10 == 0:
                self._bar.set_postfix_str(self._metric_text(estimator, True).rstrip(", "), refresh=False)
        if isinstance(self.log_interval, int) and self.batch_index % self.log_interval == 0:  # MXNet: 0, k, 2k ...
            interval = time.time() - self.log_interval_time
            msg = "[Epoch %d][Batch %d][Samples %s] time/interval: %.3fs " % (
                self.current_epoch, self.batch_index, self.processed_samples, interval)
            self._print((msg + self._metric_text(estimator, True)).rstrip(", "))
            self.log_interval_time = time.time()
        self.batch_index += 1
        return False

    def epoch_end(self, estimator, *args, **kwargs):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        msg = "[Epoch %d] Finished in %.3fs, " % (self.current_epoch, time.time() - self.epoch_start)
        self._print((msg + self._metric_text(estimator)).rstrip(", "))
        self.current_epoch += 1
        return False


# -- optional handlers ----------------------------------------------------------------------------
def _monitor_mode(monitor, mode):
    if mode not in ("auto", "min", "max"):
        raise InvalidArgumentError("mode must be 'auto', 'min' or 'max', got %r" % (mode,))
    if mode != "auto":
        return mode
    name = monitor.get()[0].lower()
    return "max" if ("acc" in name or "f1" in name or "pearson" in name) else "min"


class CheckpointHandler(TrainBegin, BatchEnd, EpochEnd):
    """Saves the model and the trainer's states, with MXNet 1.9.1's file names.

    Note [Checkpoint files]
        In model_dir, with E and B the epoch and batch counters (from 0; B counts
        every batch of the fit): every epoch_period epochs (at the epoch's end)
        and every batch_period batches, ``prefix-epochEbatchB.params``
        (``net.save_parameters``) and ``prefix-epochEbatchB.states``
        (``trainer.save_states``); only the newest ``max_checkpoints`` are kept.
        With ``save_best``, each time ``monitor`` improves: ``prefix-best.params``
        and ``prefix-best.states``. After the first batch, a hybridized
        HybridBlock's graph goes to ``prefix-symbol.json``.
        ``net.load_parameters(prefix-best.params)`` reloads the best model into
        the same architecture (the names are save_parameters' structural
        ones, as in MXNet). With ``resume_from_checkpoint``
        the newest ``prefix-epochEbatchB`` files are loaded at train_begin, the
        fit trains only the remaining epochs / batches, and the new files are
        numbered on from the loaded ones as MXNet numbers them (epoch E + 1 + e,
        batch B + 1 + b).

    Parameters
    ----------
    model_dir : str (created when missing)
    model_prefix : str
    monitor : EvalMetric or None (needed by save_best)
    verbose : int (1: log a line per save)
    save_best : bool
    mode : 'auto', 'min' or 'max' (whether a larger monitor value is better)
    epoch_period : int or None
    batch_period : int or None
    max_checkpoints : int
    resume_from_checkpoint : bool
    """

    def __init__(self, model_dir, model_prefix="model", monitor=None, verbose=0, save_best=False, mode="auto",
                 epoch_period=1, batch_period=None, max_checkpoints=5, resume_from_checkpoint=False):
        if save_best and monitor is None:
            raise InvalidArgumentError("CheckpointHandler: save_best needs a monitor metric")
        for what, period in (("epoch_period", epoch_period), ("batch_period", batch_period)):
            if period is not None and not (isinstance(period, int) and period > 0):
                raise InvalidArgumentError("%s must be a positive int or None, got %r" % (what, period))
        self.model_dir = model_dir
        self.model_prefix = model_prefix
        self.monitor = monitor
        self.verbose = verbose
        self.save_best = save_best
        self.mode = _monitor_mode(monitor, mode) if monitor is not None else mode
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.max_checkpoints = max_checkpoints
        self.resume_from_checkpoint = resume_from_checkpoint
        self.logger = logging.getLogger(__name__)
        self.saved_checkpoints = []   # file prefixes kept, oldest first
        self.current_epoch = self.current_batch = 0
        self.trained_epoch = self.trained_batch = -1
        self.best = None

    def train_begin(self, estimator, *args, **kwargs):
        os.makedirs(self.model_dir, exist_ok=True)
        self.current_epoch = self.current_batch = 0
        self.best = None
        if self.resume_from_checkpoint:
            self._resume_from_checkpoint(estimator)

    def batch_end(self, estimator, *args, **kwargs):
        if self.current_batch == 0:
            self._save_symbol(estimator)
        if self.batch_period and (self.current_batch + 1) % self.batch_period == 0:
            self._save_checkpoint(estimator)
        self.current_batch += 1
        return False

    def epoch_end(self, estimator, *args, **kwargs):
        if self.epoch_period and (self.current_epoch + 1) % self.epoch_period == 0:
            self._save_checkpoint(estimator)
        self.current_epoch += 1
        return False

    def _save_checkpoint(self, estimator):
        if self.resume_from_checkpoint:  # continue the numbering of the run resumed
            epoch = self.current_epoch + self.trained_epoch + 1 if self.epoch_period is not None else 0
            batch = self.current_batch + self.trained_batch + 1
        else:
            epoch, batch = self.current_epoch, self.current_batch
        prefix = "%s-epoch%dbatch%d" % (self.model_prefix, epoch, batch)
        self._save_params_and_trainer(estimator, prefix)
        if self.verbose > 0:
            self.logger.info("[Epoch %d] CheckpointHandler: trained total %d batches, saving model at %s "
                             "with prefix: %s", self.current_epoch, self.current_batch + 1, self.model_dir, prefix)
        if not self.save_best:
            return
        name, value = self.monitor.get()
        if not self.monitor.num_inst or math.isnan(value):
            warnings.warn("CheckpointHandler: %s has no value yet; the best model is not saved. Give a "
                          "monitor that is updated before the checkpoint." % name, stacklevel=3)
            return
        if self.best is None or (value > self.best if self.mode == "max" else value < self.best):
            self._save_params_and_trainer(estimator, self.model_prefix + "-best")
            if self.verbose > 0:
                self.logger.info("[Epoch %d] CheckpointHandler: %s improved from %s to %0.5f, updating best model "
                                 "at %s with prefix: %s", self.current_epoch, name, self.best, value,
                                 self.model_dir, self.model_prefix + "-best")
            self.best = value

    def _save_symbol(self, estimator):
        net = estimator.net
        path = os.path.join(self.model_dir, self.model_prefix + "-symbol.json")
        graph = getattr(net, "_cached_graph", None)
        if graph:
            graph[1].save(path)
        else:
            self.logger.info("Model architecture(symbol file) is not saved, please use HybridBlock to construct "
                             "your model, and call net.hybridize() before passing to Estimator in order to save "
                             "model architecture as %s.", path)

    def _save_params_and_trainer(self, estimator, file_prefix):
        estimator.net.save_parameters(os.path.join(self.model_dir, file_prefix + ".params"))
        estimator.trainer.save_states(os.path.join(self.model_dir, file_prefix + ".states"))
        if "best" in file_prefix:
            return
        self.saved_checkpoints.append(file_prefix)
        if len(self.saved_checkpoints) > self.max_checkpoints:
            old = self.saved_checkpoints.pop(0)
            for ext in (".params", ".states"):
                path = os.path.join(self.model_dir, old + ext)
                if os.path.exists(path):
                    os.remove(path)

    def _resume_from_checkpoint(self, estimator):
        """MXNet 1.9.1's resume: the newest prefix-epochEbatchB (largest E, then
        B) is loaded and the fit's epochs / batches shrink by E + 1 / B + 1."""
        pattern = re.compile(r"^%s-epoch(\d+)batch(\d+)\.params$" % re.escape(self.model_prefix))
        found = []
        for fname in os.listdir(self.model_dir):
            match = pattern.match(fname)
            if match:
                found.append((int(match.group(1)), int(match.group(2))))
        if not found:
            self.logger.info("CheckpointHandler: No checkpoint found, training from scratch for %s",
                             "%d batches" % estimator.max_batch if estimator.max_batch
                             else "%d epochs" % estimator.max_epoch)
            return
        self.trained_epoch, self.trained_batch = max(found)
        msg = "CheckpointHandler: Checkpoint resumed from epoch %d batch %d, continue to train for " % (
            self.trained_epoch, self.trained_batch)
        if estimator.max_epoch:
            if self.trained_epoch >= estimator.max_epoch - 1:
                raise InvalidArgumentError("Found checkpoint with maximum number of epoch %d reached, please specify "
                                           "resume_from_checkpoint=False (default value) if you wan to train from "
                                           "scratch." % estimator.max_epoch)
            estimator.max_epoch = estimator.max_epoch - self.trained_epoch - 1
            msg += "%d epochs " % estimator.max_epoch
        if estimator.max_batch:
            if self.trained_batch >= estimator.max_batch - 1:
                raise InvalidArgumentError("Found checkpoint with maximum number of batch %d reached, please specify "
                                           "resume_from_checkpoint=False (default value) if you wan to train from "
                                           "scratch." % estimator.max_batch)
            estimator.max_batch = estimator.max_batch - self.trained_batch - 1
            msg += "%d batches " % estimator.max_batch
        for handler in getattr(estimator, "_handlers", []):
            if isinstance(handler, StoppingHandler):
                handler.max_epoch, handler.max_batch = estimator.max_epoch, estimator.max_batch
        prefix = os.path.join(self.model_dir, "%s-epoch%dbatch%d" % (self.model_prefix, self.trained_epoch,
                                                                       self.trained_batch))
        for path in (prefix + ".params", prefix + ".states"):
            if not os.path.exists(path):
                raise InvalidArgumentError("Failed to load checkpoint, %s does not exist" % path)
        estimator.net.load_parameters(prefix + ".params", ctx=estimator.context)
        estimator.trainer.load_states(prefix + ".states")
        self.logger.warning(msg)


class EarlyStoppingHandler(TrainBegin, EpochEnd, TrainEnd):
    """Stops when ``monitor`` has not improved by min_delta for patience epochs
    (MXNet 1.9.1's rule: the wait counts epochs without improvement and training
    stops when it reaches patience; ``stopped_epoch`` is that epoch, from 0)."""

    def __init__(self, monitor, min_delta=0, patience=0, mode="auto", baseline=None):
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = patience
        self.mode = _monitor_mode(monitor, mode)
        self.baseline = baseline
        self.logger = logging.getLogger(__name__)
        self.wait = 0
        self.best = None
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False

    def train_begin(self, estimator, *args, **kwargs):
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        self.best = self.baseline

    def epoch_end(self, estimator, *args, **kwargs):
        value = self.monitor.get()[1]
        if self.monitor.num_inst and not math.isnan(value):
            better = self.best is None or (value > self.best + self.min_delta if self.mode == "max"
                                           else value < self.best - self.min_delta)
            if better:
                self.best = value
                self.wait = 0
            else:
                self.wait += 1
                if self.wait >= self.patience:
                    self.stopped_epoch = self.current_epoch
                    self.stop_training = True
        self.current_epoch += 1
        if self.stop_training:
            estimator.stop_training = True
        return self.stop_training

    def train_end(self, estimator, *args, **kwargs):
        if self.stopped_epoch > 0:
            self.logger.info("[Epoch %d] EarlyStoppingHanlder: early stopping due to %s not improving",
                             self.stopped_epoch, self.monitor.get()[0])
