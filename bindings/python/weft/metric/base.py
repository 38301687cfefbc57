"""Evaluation metrics (MXNet 1.x's mx.metric).

A metric accumulates ``sum_metric`` over ``num_inst`` instances with
``update(labels, preds)`` and reports ``get() -> (name, sum_metric / num_inst)``.
Labels and predictions are NDArrays or numpy arrays, or lists of them (one per
output). ``global_sum_metric`` / ``global_num_inst`` keep counting across
``reset_local()`` (``get_global()``); ``reset()`` clears both.

Metrics read their inputs on the host (``asnumpy``), as MXNet's do. This file
holds the base class and the helpers the metrics share; registry.py holds
``register``/``alias``, composite.py ``create`` and CompositeEvalMetric, and the
metrics themselves are in the other sibling files. The layering, bottom up:
base < registry < (classification, regression, probability, custom) < composite,
so no file imports one that imports it back (issue 36 point 4).
"""
import numpy

from ..base import InvalidArgumentError
from ..ndarray import NDArray

__all__ = ["EvalMetric", "check_label_shapes"]


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
