"""Cases of _npi_gumbel, _npi_logistic, _npi_rayleigh, _npi_weibull, _npi_pareto and
_npi_bernoulli (MXNet 1.9.1's np.random samplers, core/op/random/np_samplers.cc): samples of
`size`, their mean and standard deviation within a few standard errors of the
distribution's, half of them below its median, reproducible under weft.random.seed."""
import math

import numpy as np

from .case import Case
from .init_random import check_reproducible

N = 20000
EULER = 0.5772156649015329


def _check(op, mean, std, median, std_tol=0.05, low=None):
    def check(outs, _inputs, attrs):
        x = outs[0]
        assert x.dtype == np.float32, x.dtype
        assert x.shape == tuple(attrs["size"]), x.shape
        x = x.astype(np.float64)
        assert np.isfinite(x).all()
        if low is not None:
            assert x.min() >= low, x.min()
        assert abs(x.mean() - mean) < 5 * std / math.sqrt(x.size), (x.mean(), mean)
        assert abs(x.std() - std) < std_tol * std, (x.std(), std)
        assert abs(np.mean(x < median) - 0.5) < 0.02, np.mean(x < median)
        check_reproducible(op, attrs)
    return check


def _case(op, check, name, **attrs):
    return Case([], attrs=dict(attrs, size=(N,)), check=check, name=name)


def _weibull(a):
    m = math.gamma(1 + 1 / a)
    return m, math.sqrt(math.gamma(1 + 2 / a) - m * m), math.log(2) ** (1 / a)


def _pareto(a):
    return 1 / (a - 1), math.sqrt(a / ((a - 1) ** 2 * (a - 2))), 2 ** (1 / a) - 1


CASES = {
    "_npi_gumbel": [
        _case("_npi_gumbel", _check("_npi_gumbel", 1 + EULER * 2, math.pi * 2 / math.sqrt(6),
                                    1 - 2 * math.log(math.log(2))), "gumbel", loc=1.0, scale=2.0),
    ],
    "_npi_logistic": [
        _case("_npi_logistic", _check("_npi_logistic", -0.5, 0.5 * math.pi / math.sqrt(3), -0.5), "logistic",
              loc=-0.5, scale=0.5),
    ],
    "_npi_rayleigh": [
        _case("_npi_rayleigh", _check("_npi_rayleigh", 2 * math.sqrt(math.pi / 2), 2 * math.sqrt((4 - math.pi) / 2),
                                      2 * math.sqrt(2 * math.log(2)), low=0), "rayleigh", scale=2.0),
    ],
    "_npi_weibull": [
        _case("_npi_weibull", _check("_npi_weibull", *_weibull(1.5), low=0), "weibull", a=1.5),
    ],
    "_npi_pareto": [
        _case("_npi_pareto", _check("_npi_pareto", *_pareto(6.0), std_tol=0.1, low=0), "pareto-lomax", a=6.0),
    ],
}


def _bernoulli_check(p, dtype):
    def check(outs, _inputs, attrs):
        x = outs[0]
        assert x.dtype == np.dtype(dtype), x.dtype
        assert x.shape == tuple(attrs["size"]), x.shape
        v = x.astype(np.float64)
        assert set(np.unique(v)) <= {0.0, 1.0}
        assert abs(v.mean() - p) < 5 * math.sqrt(p * (1 - p) / v.size), (v.mean(), p)
        check_reproducible("_npi_bernoulli", attrs)
    return check


CASES["_npi_bernoulli"] = [
    Case([], attrs={"prob": 0.3, "is_logit": False, "size": (N,)}, check=_bernoulli_check(0.3, np.float32),
         name="bernoulli-prob"),
    Case([], attrs={"logit": 0.5, "is_logit": True, "size": (N,), "dtype": "int32"},
         check=_bernoulli_check(1 / (1 + math.exp(-0.5)), np.int32), name="bernoulli-logit-int32"),
    Case([], attrs={"prob": 0.8, "is_logit": False, "size": (N,), "dtype": "bool"},
         check=_bernoulli_check(0.8, np.bool_), name="bernoulli-bool"),
]


def _multinomial_check(n, pvals, redraw=True):
    def check(outs, _inputs, attrs):
        x = outs[0]
        k = len(pvals)
        assert x.dtype == np.int64, x.dtype
        assert x.shape == tuple(attrs.get("size") or ()) + (k,), x.shape
        assert (x >= 0).all() and (x.sum(axis=-1) == n).all()
        p = np.array(pvals[:-1] + [1 - sum(pvals[:-1])])
        rows = x.reshape(-1, k).astype(np.float64)
        se = np.sqrt(n * p * (1 - p) / rows.shape[0])
        assert (np.abs(rows.mean(axis=0) - n * p) <= 5 * se + 1e-12).all(), (rows.mean(axis=0), n * p)
        if redraw:  # n = 0 draws nothing: every call gives zeros
            check_reproducible("_npi_multinomial", attrs)
    return check


CASES["_npi_multinomial"] = [
    Case([], attrs={"n": 10, "pvals": (0.2, 0.3, 0.5), "size": (4000,)}, check=_multinomial_check(10, [0.2, 0.3, 0.5]),
         name="multinomial"),
    Case([], attrs={"n": 7, "pvals": (0.25, 0.5), "size": (30, 40)}, check=_multinomial_check(7, [0.25, 0.5]),
         name="multinomial-last-takes-the-rest"),
    Case([], attrs={"n": 0, "pvals": (1.0,)}, check=_multinomial_check(0, [1.0], redraw=False),
         name="multinomial-n0-one-experiment"),
]
