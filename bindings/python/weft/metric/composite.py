"""``create`` (a metric from a name, a callable, a list or an instance) and CompositeEvalMetric,
which builds its children with it; the top of weft.metric's layers (see base.py)."""
from ..base import InvalidArgumentError
from .base import EvalMetric
from .custom import CustomMetric
from .registry import alias, create_by_name, register

__all__ = ["CompositeEvalMetric", "create"]


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
    return create_by_name(metric, *args, **kwargs)


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
