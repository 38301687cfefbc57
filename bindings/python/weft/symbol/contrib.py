"""Symbol functions of the ``_contrib_<x>`` operators, as ``weft.sym.contrib.<x>`` (filled at import)."""

import math as _math

from ..base import ArgumentTypeError
from .random import uniform
from .symbol import Symbol

__all__ = ["rand_zipfian"]


def rand_zipfian(true_classes, num_sampled, range_max):
    """The symbolic twin of weft.nd.contrib.rand_zipfian (MXNet's
    mx.sym.contrib.rand_zipfian): (sampled classes, expected counts of the true
    classes, expected counts of the sampled classes)."""
    if not isinstance(true_classes, Symbol):
        raise ArgumentTypeError("rand_zipfian: true_classes must be a Symbol, got %s" % type(true_classes).__name__)
    log_range = _math.log(range_max + 1)
    rand = uniform(0, log_range, shape=(num_sampled,), dtype="float64")
    sampled_classes = (rand.exp() - 1).astype("int64") % range_max
    true_cls = true_classes.astype("float64")
    expected_count_true = ((true_cls + 2.0) / (true_cls + 1.0)).log() / log_range * num_sampled
    sampled_cls_fp64 = sampled_classes.astype("float64")
    expected_prob_sampled = ((sampled_cls_fp64 + 2.0) / (sampled_cls_fp64 + 1.0)).log() / log_range
    return sampled_classes, expected_count_true, expected_prob_sampled * num_sampled


# MXNet's symbolic control flow: subgraph operators (_foreach, _while_loop, _cond).
from .control_flow import cond, foreach, while_loop  # noqa: E402  pylint: disable=wrong-import-position

__all__ += ["foreach", "while_loop", "cond"]
