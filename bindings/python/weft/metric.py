"""Evaluation metrics (MXNet 1.x's mx.metric).

A metric accumulates ``sum_metric`` over ``num_inst`` instances with
``update(labels, preds)`` and reports ``get() -> (name, sum_metric / num_inst)``.
Labels and predictions are NDArrays or numpy arrays, or lists of them (one per
output). ``global_sum_metric`` / ``global_num_inst`` keep counting across
``reset_local()`` (``get_global()``); ``reset()`` clears both.

Metrics read their inputs on the host (``asnumpy``), as MXNet's do.
"""
import math

import numpy

from .base import InvalidArgumentError
from .ndarray import NDArray
from . import registry

__all__ = ["EvalMetric", "CompositeEvalMetric", "Accuracy", "TopKAccuracy", "F1", "MAE", "MSE", "RMSE",
           "CrossEntropy", "NegativeLogLikelihood", "Perplexity", "PearsonCorrelation", "Loss", "CustomMetric",
           "np", "create", "register", "alias", "check_label_shapes"]


def _as_numpy(x):
    if isinstance(x, NDArray):
        return x.asnumpy()
    return numpy.asarray(x)


def _is_array(x):
    return isinstance(x, (NDArray, numpy.ndarray))


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Checks that labels and preds have the same length (or shape, with
    shape=True); with wrap, a single array becomes a one-element list."""
    if not shape:
        label_shape, pred_shape = len(labels), len(preds)
    else:
        label_shape, pred_shape = labels.shape, preds.shape
    if label_shape != pred_shape:
        raise InvalidArgumentError("Shape of labels {} does not match shape of predictions {}"
                                   .format(label_shape, pred_shape))
    if wrap:
        if _is_array(labels):
            labels = [labels]
        if _is_array(preds):
            preds = [preds]
    return labels, preds


def _wrap_pair(labels, preds):
    """Both as lists of arrays, of equal length."""
    if _is_array(labels):
        labels = [labels]
    if _is_array(preds):
        preds = [preds]
    return check_label_shapes(labels, preds)


class EvalMetric:
    """Base class of the metrics.

    Parameters
    ----------
    name : str
        The metric's name in get().
    output_names, label_names : list of str or None
        The outputs / labels update_dict uses (None: all, in order).
    """

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return "EvalMetric: {}".format(dict(self.get_name_value()))

    def get_config(self):
        """The metric's settings as a dict ``create`` accepts."""
        config = self._kwargs.copy()
        config.update({"metric": self.__class__.__name__, "name": self.name, "output_names": self.output_names,
                       "label_names": self.label_names})
        return config

    def update_dict(self, label, pred):
        """update from dicts of name -> array."""
        if self.output_names is not None:
            pred = [pred[name] for name in self.output_names]
        else:
            pred = list(pred.values())
        if self.label_names is not None:
            label = [label[name] for name in self.label_names]
        else:
            label = list(label.values())
        self.update(label, pred)

    def update(self, labels, preds):
        """Accumulates a batch."""
        raise NotImplementedError()

    def reset(self):
        """Clears the local and global statistics."""
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        """Clears the local statistics only."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def _add(self, value, count):
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def get(self):
        """(name, value); value is nan before any update."""
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, self.sum_metric / self.num_inst)

    def get_global(self):
        """(name, value) over everything since the last reset()."""
        if self._has_global_stats:
            if self.global_num_inst == 0:
                return (self.name, float("nan"))
            return (self.name, self.global_sum_metric / self.global_num_inst)
        return self.get()

    def get_name_value(self):
        """[(name, value), ...]."""
        name, value = self.get()
        if not isinstance(name, list):
            name = [name]
        if not isinstance(value, list):
            value = [value]
        return list(zip(name, value))

    def get_global_name_value(self):
        """[(name, value), ...] of get_global()."""
        if not self._has_global_stats:
            return self.get_name_value()
        name, value = self.get_global()
        if not isinstance(name, list):
            name = [name]
        if not isinstance(value, list):
            value = [value]
        return list(zip(name, value))


register = registry.get_register_func(EvalMetric, "metric")
alias = registry.get_alias_func(EvalMetric, "metric")
_create = registry.get_create_func(EvalMetric, "metric")


def create(metric, *args, **kwargs):
    """A metric from a name ('acc', 'f1', 'mse' ...), a callable (a CustomMetric),
    a list of those (a CompositeEvalMetric) or an instance."""
    if callable(metric) and not isinstance(metric, EvalMetric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = CompositeEvalMetric()
        for child in metric:
            composite.add(create(child, *args, **kwargs))
        return composite
    return _create(metric, *args, **kwargs)


@register
@alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; get() returns lists of names and values."""

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.metrics = [create(m) for m in (metrics or [])]

    def add(self, metric):
        """Adds a child metric (anything create accepts)."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The child metric at index."""
        try:
            return self.metrics[index]
        except IndexError:
            raise InvalidArgumentError("Metric index {} is out of range 0 and {}"
                                       .format(index, len(self.metrics))) from None

    def update_dict(self, labels, preds):  # pylint: disable=arguments-renamed
        if self.label_names is not None:
            labels = {name: label for name, label in labels.items() if name in self.label_names}
        if self.output_names is not None:
            preds = {name: pred for name, pred in preds.items() if name in self.output_names}
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        for metric in getattr(self, "metrics", []):
            metric.reset()

    def reset_local(self):
        for metric in self.metrics:
            metric.reset_local()

    def _collect(self, getter):
        names, values = [], []
        for metric in self.metrics:
            name, value = getter(metric)
            names.extend(name if isinstance(name, list) else [name])
            values.extend(value if isinstance(value, list) else [value])
        return (names, values)

    def get(self):
        return self._collect(lambda m: m.get())

    def get_global(self):
        return self._collect(lambda m: m.get_global())

    def get_config(self):
        config = super().get_config()
        config.update({"metrics": [m.get_config() for m in self.metrics]})
        return config


@register
@alias("acc")
class Accuracy(EvalMetric):
    """Fraction of predictions equal to the label. Predictions with a different
    shape from the label are class scores: their argmax over ``axis`` is taken."""

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            pred = _as_numpy(pred)
            label = _as_numpy(label)
            if pred.shape != label.shape:
                pred = numpy.argmax(pred, axis=self.axis)
            pred = pred.astype("int32").ravel()
            label = label.astype("int32").ravel()
            check_label_shapes(label, pred)
            self._add(int((pred == label).sum()), len(pred))


@register
@alias("top_k_accuracy", "top_k_acc")
class TopKAccuracy(EvalMetric):
    """Fraction of labels among the top_k highest-scored classes."""

    def __init__(self, top_k=1, name="top_k_accuracy", output_names=None, label_names=None):
        super().__init__(name, top_k=top_k, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.top_k = top_k
        if self.top_k <= 1:
            raise InvalidArgumentError("Please use Accuracy if top_k is no more than 1")
        self.name += "_%d" % self.top_k

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            pred = _as_numpy(pred).astype("float32")
            if pred.ndim > 2:
                raise InvalidArgumentError("Predictions should be no more than 2 dims")
            label = _as_numpy(label).astype("int32")
            check_label_shapes(label, pred)
            num_samples = pred.shape[0]
            if pred.ndim == 1:
                self._add(int((pred.astype("int32") == label.ravel()).sum()), num_samples)
                continue
            num_classes = pred.shape[1]
            top_k = min(num_classes, self.top_k)
            top = numpy.argpartition(pred, -top_k, axis=1)[:, num_classes - top_k:]
            self._add(int((top == label.reshape(-1, 1)).sum()), num_samples)


class _BinaryStats:
    """True/false positive/negative counts of a binary classifier, local and global."""

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        pred = _as_numpy(pred)
        label = _as_numpy(label).astype("int32").ravel()
        pred_label = numpy.argmax(pred, axis=1) if pred.ndim > 1 else (pred > 0.5).astype("int32")
        check_label_shapes(label, pred_label)
        if len(numpy.unique(label)) > 2:
            raise InvalidArgumentError("F1 currently only supports binary classification.")
        pred_true = pred_label == 1
        label_true = label == 1
        counts = (int((pred_true & label_true).sum()), int((pred_true & ~label_true).sum()),
                  int((~pred_true & label_true).sum()), int((~pred_true & ~label_true).sum()))
        for prefix in ("", "global_"):
            for field, n in zip(("true_positives", "false_positives", "false_negatives", "true_negatives"), counts):
                setattr(self, prefix + field, getattr(self, prefix + field) + n)

    @staticmethod
    def _fscore(tp, fp, fn):
        precision = tp / (tp + fp) if tp + fp > 0 else 0.0
        recall = tp / (tp + fn) if tp + fn > 0 else 0.0
        if precision + recall > 0:
            return 2 * precision * recall / (precision + recall)
        return 0.0

    @property
    def fscore(self):
        """F1 of the local counts."""
        return self._fscore(self.true_positives, self.false_positives, self.false_negatives)

    @property
    def global_fscore(self):
        """F1 of the global counts."""
        return self._fscore(self.global_true_positives, self.global_false_positives, self.global_false_negatives)

    @property
    def total_examples(self):
        """Examples counted locally."""
        return self.true_positives + self.false_positives + self.false_negatives + self.true_negatives

    @property
    def global_total_examples(self):
        """Examples counted globally."""
        return (self.global_true_positives + self.global_false_positives + self.global_false_negatives
                + self.global_true_negatives)

    def local_reset_stats(self):
        """Clears the local counts."""
        self.true_positives = self.false_positives = self.false_negatives = self.true_negatives = 0

    def reset_stats(self):
        """Clears the local and global counts."""
        self.local_reset_stats()
        self.global_true_positives = self.global_false_positives = 0
        self.global_false_negatives = self.global_true_negatives = 0


@register
class F1(EvalMetric):
    """F1 score of a binary classifier (class 1 is positive; predictions are
    class scores of shape (n, 2), or probabilities of class 1 of shape (n,)).

    average='macro' averages the F1 of each update (batch); 'micro' computes F1
    over the counts of all updates."""

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        if average not in ("macro", "micro"):
            raise InvalidArgumentError("F1: average must be 'macro' or 'micro', got %r" % (average,))
        self.average = average
        self.metrics = _BinaryStats()
        super().__init__(name=name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            self.metrics.update_binary_stats(label, pred)
        if self.average == "macro":
            self._add(self.metrics.fscore, 1)
            self.metrics.reset_stats()
        else:
            self.sum_metric = self.metrics.fscore * self.metrics.total_examples
            self.global_sum_metric = self.metrics.global_fscore * self.metrics.global_total_examples
            self.num_inst = self.metrics.total_examples
            self.global_num_inst = self.metrics.global_total_examples

    def reset(self):
        super().reset()
        self.metrics.reset_stats()

    def reset_local(self):
        super().reset_local()
        self.metrics.local_reset_stats()


def _as_columns(label, pred):
    label = _as_numpy(label)
    pred = _as_numpy(pred)
    if label.ndim == 1:
        label = label.reshape(label.shape[0], 1)
    if pred.ndim == 1:
        pred = pred.reshape(pred.shape[0], 1)
    return label, pred


@register
class MAE(EvalMetric):
    """Mean absolute error, averaged over updates (each array's mean counts once)."""

    def __init__(self, name="mae", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            label, pred = _as_columns(label, pred)
            self._add(float(numpy.abs(label - pred).mean()), 1)


@register
class MSE(EvalMetric):
    """Mean squared error, averaged over updates (each array's mean counts once)."""

    def __init__(self, name="mse", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            label, pred = _as_columns(label, pred)
            self._add(float(((label - pred) ** 2.0).mean()), 1)


@register
class RMSE(EvalMetric):
    """Root mean squared error of each array, averaged over updates."""

    def __init__(self, name="rmse", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            label, pred = _as_columns(label, pred)
            self._add(float(numpy.sqrt(((label - pred) ** 2.0).mean())), 1)


def _picked_probs(label, pred):
    label = _as_numpy(label).ravel()
    pred = _as_numpy(pred)
    if label.shape[0] != pred.shape[0]:
        raise InvalidArgumentError("labels (%d) and predictions (%d) differ in length"
                                   % (label.shape[0], pred.shape[0]))
    return pred[numpy.arange(label.shape[0]), numpy.int64(label)], label.shape[0]


@register
@alias("ce")
class CrossEntropy(EvalMetric):
    """Mean of -log(p[label] + eps) over the instances; preds are probabilities
    of shape (n, classes)."""

    def __init__(self, eps=1e-12, name="cross-entropy", output_names=None, label_names=None):
        super().__init__(name, eps=eps, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            prob, n = _picked_probs(label, pred)
            self._add(float((-numpy.log(prob + self.eps)).sum()), n)


@register
@alias("nll_loss")
class NegativeLogLikelihood(EvalMetric):
    """Mean of -log(p[label] + eps), like CrossEntropy (MXNet's name for it)."""

    def __init__(self, eps=1e-12, name="nll-loss", output_names=None, label_names=None):
        super().__init__(name, eps=eps, output_names=output_names, label_names=label_names, has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            prob, n = _picked_probs(label, pred)
            self._add(float((-numpy.log(prob + self.eps)).sum()), n)


@register
@alias("ppl")
class Perplexity(EvalMetric):
    """exp of the mean negative log-probability of the labels; positions whose
    label is ignore_label are left out. preds hold probabilities along axis
    (default the last), labels the classes of the other axes."""

    def __init__(self, ignore_label, axis=-1, name="perplexity", output_names=None, label_names=None):
        super().__init__(name, ignore_label=ignore_label, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        loss = 0.0
        num = 0
        for label, pred in zip(labels, preds):
            pred = _as_numpy(pred)
            label = _as_numpy(label)
            if label.size != pred.size // pred.shape[self.axis]:
                raise InvalidArgumentError("shape mismatch: %s vs. %s" % (label.shape, pred.shape))
            probs = numpy.moveaxis(pred, self.axis, -1).reshape(-1, pred.shape[self.axis])
            label = label.reshape(-1).astype("int64")
            picked = probs[numpy.arange(label.shape[0]), label].astype("float64")
            if self.ignore_label is not None:
                ignore = label == self.ignore_label
                num -= int(ignore.sum())
                picked = numpy.where(ignore, 1.0, picked)
            loss -= float(numpy.log(numpy.maximum(1e-10, picked)).sum())
            num += picked.size
        self._add(loss, num)

    def get(self):
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.sum_metric / self.num_inst))

    def get_global(self):
        if self.global_num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.global_sum_metric / self.global_num_inst))


@register
@alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of each (label, pred) pair, averaged over updates."""

    def __init__(self, name="pearsonr", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            label = _as_numpy(label).ravel()
            pred = _as_numpy(pred).ravel()
            check_label_shapes(label, pred, False, True)
            self._add(float(numpy.corrcoef(pred, label)[0, 1]), 1)


@register
class Loss(EvalMetric):
    """Mean of the given loss values (labels are ignored)."""

    def __init__(self, name="loss", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def update(self, _, preds):  # pylint: disable=arguments-renamed
        if _is_array(preds):
            preds = [preds]
        for pred in preds:
            pred = _as_numpy(pred)
            self._add(float(pred.sum()), pred.size)


@register
class CustomMetric(EvalMetric):
    """A metric from ``feval(label, pred)`` on numpy arrays, returning a value
    (counted as one instance) or a (sum, count) pair."""

    def __init__(self, feval, name=None, allow_extra_outputs=False, output_names=None, label_names=None):
        if name is None:
            name = feval.__name__
            if name.find("<") != -1:
                name = "custom(%s)" % name
        super().__init__(name, feval=feval, allow_extra_outputs=allow_extra_outputs, output_names=output_names,
                         label_names=label_names, has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if _is_array(labels):
            labels = [labels]
        if _is_array(preds):
            preds = [preds]
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds)
        for pred, label in zip(preds, labels):
            reval = self._feval(_as_numpy(label), _as_numpy(pred))
            if isinstance(reval, tuple):
                self._add(reval[0], reval[1])
            else:
                self._add(reval, 1)

    def get_config(self):
        raise NotImplementedError("CustomMetric cannot be serialized")


def np(numpy_feval, name=None, allow_extra_outputs=False):  # pylint: disable=invalid-name
    """A CustomMetric from a function of numpy (label, pred)."""
    def feval(label, pred):
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)
