"""Helpers shared by the estimator and its event handlers."""
from .... import metric as _metric
from ....base import InvalidArgumentError
from ....context import Context, cpu


def _import_tqdm():
    try:
        # tqdm is optional (progress bars): without it the handlers log plain lines.
        import tqdm  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return tqdm


def _sort(handlers):
    return sorted(handlers, key=lambda h: getattr(h, "priority", 0))


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
