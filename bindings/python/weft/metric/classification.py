"""Classification metrics: Accuracy, TopKAccuracy, F1, MCC and PCC."""
import math

import numpy

from .base import EvalMetric, InvalidArgumentError, _as_numpy, _wrap_pair, check_label_shapes
from .registry import alias, register

__all__ = ["Accuracy", "TopKAccuracy", "F1", "MCC", "PCC"]


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

    def __init__(self, what="F1"):
        self.what = what
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        pred = _as_numpy(pred)
        label = _as_numpy(label).astype("int32").ravel()
        pred_label = numpy.argmax(pred, axis=1) if pred.ndim > 1 else (pred > 0.5).astype("int32")
        check_label_shapes(label, pred_label)
        if len(numpy.unique(label)) > 2:
            raise InvalidArgumentError("%s currently only supports binary classification." % self.what)
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

    def matthewscc(self, use_global=False):
        """Matthews correlation of the local (or global) counts; the zero terms
        of the denominator are left out, as in MXNet."""
        prefix = "global_" if use_global else ""
        if not getattr(self, prefix + "total_examples"):
            return 0.0
        tp, fp, fn, tn = (float(getattr(self, prefix + f)) for f in
                          ("true_positives", "false_positives", "false_negatives", "true_negatives"))
        denom = 1.0
        for term in (tp + fp, tp + fn, tn + fp, tn + fn):
            if term != 0.0:
                denom *= term
        return (tp * tn - fp * fn) / math.sqrt(denom)

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


class _BinaryAveraged(EvalMetric):
    """F1 and MCC: a score of the binary counts, averaged per update ('macro')
    or over all the counts ('micro')."""

    def __init__(self, name, output_names, label_names, average):
        if average not in ("macro", "micro"):
            raise InvalidArgumentError("%s: average must be 'macro' or 'micro', got %r"
                                       % (type(self).__name__, average))
        self.average = average
        self.metrics = _BinaryStats(type(self).__name__)
        super().__init__(name=name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def _score(self, use_global):
        raise NotImplementedError()

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            self.metrics.update_binary_stats(label, pred)
        if self.average == "macro":
            self._add(self._score(False), 1)
            self.metrics.reset_stats()
        else:
            self.sum_metric = self._score(False) * self.metrics.total_examples
            self.global_sum_metric = self._score(True) * self.metrics.global_total_examples
            self.num_inst = self.metrics.total_examples
            self.global_num_inst = self.metrics.global_total_examples

    def reset(self):
        super().reset()
        self.metrics.reset_stats()

    def reset_local(self):
        super().reset_local()
        self.metrics.local_reset_stats()


@register
class F1(_BinaryAveraged):
    """F1 score of a binary classifier (class 1 is positive; predictions are
    class scores of shape (n, 2), or probabilities of class 1 of shape (n,)).

    average='macro' averages the F1 of each update (batch); 'micro' computes F1
    over the counts of all updates."""

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        super().__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self.metrics.global_fscore if use_global else self.metrics.fscore


@register
class MCC(_BinaryAveraged):
    """Matthews correlation coefficient of a binary classifier (class 1 is
    positive; predictions as F1's)::

        MCC = (TP * TN - FP * FN) / sqrt((TP + FP) (TP + FN) (TN + FP) (TN + FN))

    (zero factors of the denominator are dropped). average='macro' averages
    the MCC of each update, 'micro' computes it over all the counts."""

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        super().__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self.metrics.matthewscc(use_global)


@register
class PCC(EvalMetric):
    """Multiclass Matthews correlation (Pearson correlation of the one-hot
    label and prediction) from the K x K confusion matrix C (rows: predicted,
    columns: true), which grows with the largest class seen::

        n = sum(C), x = C.sum(axis=1), y = C.sum(axis=0)
        PCC = sum(diag(C) * n - x * y) / sqrt(sum(x * (n - x)) * sum(y * (n - y)))

    nan when either sum under the root is 0. Predictions of a different shape
    from the label are class scores (argmax over axis 1)."""

    def __init__(self, name="pcc", output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super().__init__(name=name, output_names=output_names, label_names=label_names,
                         has_global_stats=has_global_stats)

    def _grow(self, inc):
        self.lcm = numpy.pad(self.lcm, ((0, inc), (0, inc)), "constant", constant_values=(0))
        self.gcm = numpy.pad(self.gcm, ((0, inc), (0, inc)), "constant", constant_values=(0))
        self.k += inc

    @staticmethod
    def _calc_mcc(cmat):
        n = cmat.sum()
        x = cmat.sum(axis=1)
        y = cmat.sum(axis=0)
        cov_xx = numpy.sum(x * (n - x))
        cov_yy = numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float("nan")
        cov_xy = numpy.sum(cmat.diagonal() * n - x * y)
        return float(cov_xy / (cov_xx * cov_yy) ** 0.5)

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            label = _as_numpy(label).astype("int32")
            pred = _as_numpy(pred)
            pred = pred.argmax(axis=1) if pred.shape != label.shape else pred.astype("int32")
            label, pred = label.ravel(), pred.ravel()
            check_label_shapes(label, pred)
            if label.size and (label.min() < 0 or pred.min() < 0):
                raise InvalidArgumentError("PCC: classes must be non-negative")
            n = int(max(pred.max(initial=0), label.max(initial=0)))
            if n >= self.k:
                self._grow(n + 1 - self.k)
            batch = numpy.zeros((self.k, self.k))
            numpy.add.at(batch, (pred, label), 1)
            self.lcm += batch
            self.gcm += batch
        self.num_inst += 1
        self.global_num_inst += 1

    @property
    def sum_metric(self):
        return self._calc_mcc(self.lcm) * self.num_inst

    @sum_metric.setter
    def sum_metric(self, _):
        pass  # derived from the confusion matrix; the base class's resets write it

    @property
    def global_sum_metric(self):
        return self._calc_mcc(self.gcm) * self.global_num_inst

    @global_sum_metric.setter
    def global_sum_metric(self, _):
        pass

    def reset(self):
        self.global_num_inst = 0
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        self.num_inst = 0
        self.lcm = numpy.zeros((self.k, self.k))
