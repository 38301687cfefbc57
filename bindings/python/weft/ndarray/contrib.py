"""Operators registered as '_contrib_<name>', exposed as weft.nd.contrib.<name> (filled at import)."""

import math as _math

from ..context import current_context
from .random import uniform

from .control_flow import cond, foreach, while_loop  # noqa: F401  (MXNet's imperative control flow)

__all__ = ["rand_zipfian", "foreach", "while_loop", "cond"]


def rand_zipfian(true_classes, num_sampled, range_max, ctx=None):
    """Samples num_sampled classes from [0, range_max) with replacement under the
    approximately log-uniform (Zipfian) distribution
    P(class) = (log(class + 2) - log(class + 1)) / log(range_max + 1),
    as MXNet's mx.nd.contrib.rand_zipfian (a Python function there too, over the
    uniform sampler). Returns (sampled classes, int64; the expected count of each
    true class, float64; the expected count of each sampled class, float64)."""
    if ctx is None:
        ctx = current_context()
    log_range = _math.log(range_max + 1)
    rand = uniform(0, log_range, shape=(num_sampled,), dtype="float64", ctx=ctx)
    # exp(U) - 1 is the continuous log-uniform draw; the modulo keeps it below range_max
    sampled_classes = (rand.exp() - 1).astype("int64") % range_max
    true_cls = true_classes.as_in_context(ctx).astype("float64")
    expected_count_true = ((true_cls + 2.0) / (true_cls + 1.0)).log() / log_range * num_sampled
    sampled_cls_fp64 = sampled_classes.astype("float64")
    expected_prob_sampled = ((sampled_cls_fp64 + 2.0) / (sampled_cls_fp64 + 1.0)).log() / log_range
    return sampled_classes, expected_count_true, expected_prob_sampled * num_sampled
