"""Shared helpers of the neural-network op cases (nn_act.py, nn_norm.py,
nn_misc.py, nn_optim.py): input makers, float64 references and central
finite differences, used to check every _backward_ operator against the
NumPy forward it differentiates. This module declares no CASES."""
import math

import numpy as np

from .case import Case

F16, F32, F64 = np.float16, np.float32, np.float64


def rand(shape, dtype=F32, lo=-1.0, hi=1.0):
    def make(rng):
        return rng.uniform(lo, hi, size=shape).astype(dtype)
    return make


def away_from_zero(shape, dtype=F32, lo=0.1, hi=1.0):
    """Uniform magnitudes in [lo, hi) with random signs (no kinks for relu-like ops)."""
    def make(rng):
        m = rng.uniform(lo, hi, size=shape)
        return (m * rng.choice([-1.0, 1.0], size=shape)).astype(dtype)
    return make


def ins(*makers):
    def make(rng):
        return [m(rng) if callable(m) else np.asarray(m) for m in makers]
    return make


def C(inputs, ref, name="", rtol=1e-5, atol=1e-6, **attrs):
    """A case: inputs(rng) -> list of arrays (from ins(...) or derived(...)), ref(*xs) -> outputs."""
    return Case(inputs=inputs, attrs=attrs, ref=ref, rtol=rtol, atol=atol, name=name)


def derived(make_base, derive):
    """Inputs computed from base inputs: derive(rng, *base) -> list of arrays."""
    def make_all(rng):
        return derive(rng, *make_base(rng))
    return make_all


def fd(f, xs, wrt, gy, eps=1e-6):
    """d/d xs[wrt] of sum(f(*xs) * gy) by central differences in float64."""
    xs = [np.array(x, dtype=F64) for x in xs]
    gy = np.asarray(gy, dtype=F64)
    x = xs[wrt]
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        old = x[idx]
        x[idx] = old + eps
        fp = np.sum(np.asarray(f(*xs), dtype=F64) * gy)
        x[idx] = old - eps
        fm = np.sum(np.asarray(f(*xs), dtype=F64) * gy)
        x[idx] = old
        g[idx] = (fp - fm) / (2 * eps)
    return g


erf = np.vectorize(math.erf, otypes=[F64])


def softmax64(x, axis=-1, t=1.0):
    z = np.asarray(x, F64) / t
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax64(x, axis=-1, t=1.0):
    z = np.asarray(x, F64) / t
    z = z - z.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def softplus(x):
    return np.logaddexp(0.0, x)
