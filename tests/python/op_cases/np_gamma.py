"""Cases of _npi_gamma (np.random.gamma, MXNet 1.9.1's registered name; an np sampler of
core/op/random/np_samplers.cc by the legacy samplers' Marsaglia-Tsang rule): the moments and
median of `size` draws, float64 by dtype, reproducible under weft.random.seed. Its array
parameters: tests/python/test_np_gamma_nodes.py."""
import math

import numpy as np

from .case import Case
from .np_samplers import _check

N = 20000
GAMMA2_MEDIAN = 1.6783469900166608  # of Gamma(2, 1): 1 - exp(-x) (1 + x) = 1/2


def _float64(check):
    def checked(outs, inputs, attrs):
        assert outs[0].dtype == np.float64, outs[0].dtype
        check([outs[0].astype(np.float32)], inputs, attrs)
    return checked


CASES = {
    "_npi_gamma": [
        # shape 1: the exponential of mean `scale`, median scale * log 2
        Case([], attrs={"shape": 1.0, "scale": 2.0, "size": (N,)},
             check=_check("_npi_gamma", 2.0, 2.0, 2.0 * math.log(2), low=0), name="gamma-shape1"),
        Case([], attrs={"shape": 2.0, "scale": 0.5, "size": (N,), "dtype": "float64"},
             check=_float64(_check("_npi_gamma", 1.0, 0.5 * math.sqrt(2), 0.5 * GAMMA2_MEDIAN, low=0)),
             name="gamma-shape2-float64"),
        # below shape 1 the rule boosts a Gamma(shape + 1) draw by U^(1/shape)
        Case([], attrs={"shape": 0.5, "size": (N,)},
             check=_check("_npi_gamma", 0.5, math.sqrt(0.5), 0.2274682115, low=0), name="gamma-shape0.5"),
    ],
}
