"""Metrics of predicted probabilities: CrossEntropy, NegativeLogLikelihood and Perplexity."""
import math

import numpy

from .base import EvalMetric, InvalidArgumentError, _as_numpy, _wrap_pair
from .registry import alias, register

__all__ = ["CrossEntropy", "NegativeLogLikelihood", "Perplexity"]


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
