"""The metric registry: ``register`` and ``alias`` (class decorators the metrics use) and the
lookup by name that ``create`` (composite.py) calls."""
from .. import registry
from .base import EvalMetric

__all__ = ["register", "alias"]

register = registry.get_register_func(EvalMetric, "metric")
alias = registry.get_alias_func(EvalMetric, "metric")
create_by_name = registry.get_create_func(EvalMetric, "metric")
