"""Regression metrics: MAE, MSE, RMSE and PearsonCorrelation."""
import numpy

from .base import EvalMetric, InvalidArgumentError, _as_numpy, _wrap_pair, check_label_shapes
from .registry import alias, register

__all__ = ["MAE", "MSE", "RMSE", "PearsonCorrelation"]


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



@register
@alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of labels and predictions.

    average='macro': numpy.corrcoef of each (label, pred) pair, averaged over
    the pairs. 'micro': one correlation over everything seen, kept with MXNet
    1.9.1's streaming update (Welford's means and squared deviations per batch;
    the co-moment adds sum((label - new label mean) * (pred - old pred mean)))."""

    def __init__(self, name="pearsonr", output_names=None, label_names=None, average="macro"):
        if average not in ("macro", "micro"):
            raise InvalidArgumentError("PearsonCorrelation: average must be 'macro' or 'micro', got %r"
                                       % (average,))
        self.average = average
        super().__init__(name, output_names=output_names, label_names=label_names, has_global_stats=True)

    def reset_micro(self):
        """Clears the streaming statistics of average='micro'."""
        self._sse_p = self._mean_p = self._sse_l = self._mean_l = 0.0
        self._pred_nums = self._label_nums = 0
        self._conv = 0.0

    def reset(self):
        super().reset()
        self.reset_micro()

    def reset_local(self):
        super().reset_local()
        self.reset_micro()

    @staticmethod
    def update_variance(new_values, count, mean, m_2):
        """Welford's update of (count, mean, sum of squared deviations) by a batch."""
        count += len(new_values)
        delta = new_values - mean
        mean += numpy.sum(delta / count)
        m_2 += numpy.sum(delta * (new_values - mean))
        return count, mean, m_2

    def update(self, labels, preds):
        labels, preds = _wrap_pair(labels, preds)
        for label, pred in zip(labels, preds):
            label = _as_numpy(label).ravel().astype(numpy.float64)
            pred = _as_numpy(pred).ravel().astype(numpy.float64)
            check_label_shapes(label, pred, False, True)
            if self.average == "macro":
                self._add(float(numpy.corrcoef(pred, label)[0, 1]), 1)
                continue
            self._add(0.0, 1)
            self._label_nums, self._mean_l, self._sse_l = self.update_variance(
                label, self._label_nums, self._mean_l, self._sse_l)
            self._conv += numpy.sum((label - self._mean_l) * (pred - self._mean_p))
            self._pred_nums, self._mean_p, self._sse_p = self.update_variance(
                pred, self._pred_nums, self._mean_p, self._sse_p)

    def _micro(self):
        n = self._label_nums
        return float(self._conv / ((n - 1) * numpy.sqrt(self._sse_p / (n - 1)) * numpy.sqrt(self._sse_l / (n - 1))))

    def get(self):
        if self.num_inst == 0:
            return (self.name, float("nan"))
        if self.average == "micro":
            return (self.name, self._micro())
        return (self.name, self.sum_metric / self.num_inst)

    def get_global(self):
        if self.average == "micro":
            return self.get()  # the streaming statistics are reset with the local ones, as in MXNet
        return super().get_global()
