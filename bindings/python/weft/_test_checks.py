"""More of weft.test_utils (MXNet's names): optimizer and generator checks, small
forward helpers, matrix builders. Kept apart from test_utils.py for file size."""
import copy
import json
import os

import numpy as np

from . import ndarray as nd
from . import random as _random
from ._test_compare import almost_equal, assert_almost_equal, default_context
from .base import InvalidArgumentError

__all__ = ["assign_each", "assign_each2", "almost_equal_ignore_nan", "retry", "simple_forward", "set_env_var",
           "same_symbol_structure", "compare_ndarray_tuple", "compare_optimizer", "chi_square_check",
           "verify_generator", "create_2d_tensor", "create_vector", "collapse_sum_like"]


def assign_each(the_input, function):
    """function applied to every element (a float64 array; a copy when function is None)."""
    if function is None:
        return np.array(the_input)
    return np.vectorize(function, otypes=[np.float64])(the_input)


def assign_each2(input1, input2, function):
    """function applied elementwise to two arrays of one shape."""
    if function is None:
        return np.array(input1)
    if np.shape(input1) != np.shape(input2):
        raise InvalidArgumentError("assign_each2: shapes %s and %s differ" % (np.shape(input1), np.shape(input2)))
    return np.vectorize(function, otypes=[np.float64])(input1, input2)


def almost_equal_ignore_nan(a, b, rtol=None, atol=None):
    """almost_equal where a NaN in either array matches anything."""
    a, b = np.copy(a), np.copy(b)
    nan_mask = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan_mask] = 0
    b[nan_mask] = 0
    return almost_equal(a, b, rtol, atol)


def retry(n):
    """Decorator: reruns a stochastic test up to n times while it raises AssertionError."""
    if n <= 0:
        raise InvalidArgumentError("retry: n must be positive")

    def decorate(f):
        def wrapper(*args, **kwargs):
            err = None
            for _ in range(n):
                try:
                    f(*args, **kwargs)
                except AssertionError as e:  # pylint: disable=invalid-name
                    err = e
                    continue
                return
            raise err
        return wrapper
    return decorate


def simple_forward(sym, ctx=None, is_train=False, **inputs):
    """The outputs (NumPy; one bare) of sym bound to the given input arrays."""
    ctx = ctx or default_context()
    exe = sym.bind(ctx, args={k: nd.array(v) for k, v in inputs.items()})
    exe.forward(is_train=is_train)
    outputs = [x.asnumpy() for x in exe.outputs]
    return outputs[0] if len(outputs) == 1 else outputs


def set_env_var(key, val, default_val=""):
    """Sets an environment variable; returns its previous value (default_val when unset)."""
    prev_val = os.environ.get(key, default_val)
    os.environ[key] = val
    return prev_val


def same_symbol_structure(sym1, sym2):
    """True when the two graphs have the same operator at every node position."""
    nodes1 = json.loads(sym1.tojson())["nodes"]
    nodes2 = json.loads(sym2.tojson())["nodes"]
    return len(nodes1) == len(nodes2) and all(n1["op"] == n2["op"] for n1, n2 in zip(nodes1, nodes2))


def compare_ndarray_tuple(t1, t2, rtol=None, atol=None):
    """assert_almost_equal over (nested tuples of) arrays; None on either side is skipped."""
    if t1 is None or t2 is None:
        return
    if isinstance(t1, tuple):
        for s1, s2 in zip(t1, t2):
            compare_ndarray_tuple(s1, s2, rtol, atol)
    else:
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)


def compare_optimizer(opt1, opt2, shape, dtype, w_stype="default", g_stype="default", rtol=1e-4, atol=1e-5,
                      compare_states=True, ntensors=1):
    """One update of opt1 and opt2 from the same random weight and gradient must agree
    (states too). A list of shapes: opt2 updates all tensors in one call, opt1 one by one."""
    if w_stype != "default" or g_stype != "default":
        raise InvalidArgumentError("compare_optimizer: weft arrays are dense")
    ctx = default_context()
    if not isinstance(shape, list):
        w2 = _random.uniform(shape=shape, ctx=ctx, dtype=dtype)
        w1 = w2.copyto(ctx)
        g2 = _random.uniform(shape=shape, ctx=ctx, dtype=dtype)
        g1 = g2.copyto(ctx)
        state1 = opt1.create_state_multi_precision(0, w1)
        state2 = opt2.create_state_multi_precision(0, w2)
        if compare_states:
            compare_ndarray_tuple(state1, state2)
        opt1.update_multi_precision(0, w1, g1, state1)
        opt2.update_multi_precision(0, w2, g2, state2)
        if compare_states:
            compare_ndarray_tuple(state1, state2, rtol=rtol, atol=atol)
        assert_almost_equal(w1, w2, rtol=rtol, atol=atol)
        return
    dtypes = dtype if isinstance(dtype, list) else [dtype] * ntensors
    w1 = tuple(_random.uniform(shape=s, ctx=ctx, dtype=d) for s, d in zip(shape, dtypes))
    g1 = tuple(_random.uniform(shape=s, ctx=ctx, dtype=d) for s, d in zip(shape, dtypes))
    w2, g2 = copy.deepcopy(w1), copy.deepcopy(g1)
    state2 = [opt2.create_state_multi_precision(0, w2[i]) for i in range(ntensors)]
    opt2.update_multi_precision(list(range(ntensors)), list(w2), list(g2), state2)
    for i in range(ntensors):
        state1 = opt1.create_state_multi_precision(i, w1[i])
        opt1.update_multi_precision(i, w1[i], g1[i], state1)
        if compare_states:
            compare_ndarray_tuple(state1, state2[i], rtol, atol)
        compare_ndarray_tuple(w1[i], w2[i], rtol, atol)


def chi_square_check(generator, buckets, probs, nsamples=1000000):
    """Pearson's chi-square test of generator(nsamples) against bucket probabilities.

    buckets: (low, high) ranges (continuous) or values (discrete). Returns
    (p value, observed counts, expected counts). Needs scipy."""
    try:
        # scipy is optional (only this check needs it): imported when called.
        import scipy.stats as ss  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise ImportError("scipy is not available. Please check if the scipy python bindings are installed.") \
            from None
    if not isinstance(buckets, list) or len(probs) != len(buckets):
        raise InvalidArgumentError("chi_square_check: buckets must be a list as long as probs")
    samples = np.asarray(generator(nsamples))
    continuous = isinstance(buckets[0], (list, tuple))
    expected_freq = (nsamples * np.array(probs, dtype=np.float32)).astype(np.int32)
    obs_freq = np.zeros(len(buckets), dtype=np.int64)
    if continuous:
        edges = np.array([e for b in buckets for e in b], dtype=np.float32)
        ids = np.searchsorted(edges, samples, side="right") // 2
        for i in range(len(buckets)):
            obs_freq[i] = (ids == i).sum()
    else:
        for i, value in enumerate(buckets):
            obs_freq[i] = (samples == value).sum()
    # scipy requires equal totals; MXNet's expected counts are truncated, so rescale them
    f_exp = expected_freq * (obs_freq.sum() / max(expected_freq.sum(), 1))
    _, p = ss.chisquare(f_obs=obs_freq, f_exp=f_exp)
    return p, obs_freq, expected_freq


def verify_generator(generator, buckets, probs, nsamples=1000000, nrepeat=5, success_rate=0.2, alpha=0.05):
    """Runs chi_square_check nrepeat times; fails when fewer than success_rate of the runs have p > alpha."""
    results = [chi_square_check(generator, buckets, probs, nsamples) for _ in range(nrepeat)]
    cs_ret_l = [r[0] for r in results]
    if (np.array(cs_ret_l) > alpha).sum() < nrepeat * success_rate:
        raise AssertionError("Generator test fails, Chi-square p=%s, obs_freq=%s, expected_freq=%s.\nbuckets=%s, "
                             "probs=%s" % (str(cs_ret_l), str([r[1] for r in results]), str([r[2] for r in results]),
                                           str(buckets), str(probs)))
    return cs_ret_l


def create_2d_tensor(rows, columns, dtype=np.int64):
    """(rows, columns) NDArray whose row i is all i."""
    a = nd.arange(0, rows, dtype=dtype).reshape(rows, 1)
    return nd.broadcast_to(a, shape=(a.shape[0], columns))


def create_vector(size, dtype=np.int64):
    """arange(size) as an NDArray."""
    return nd.arange(0, size, dtype=dtype)


def collapse_sum_like(a, shape):
    """a summed down to shape (the reverse of broadcasting), as a NumPy array."""
    if len(shape) > a.ndim:
        raise InvalidArgumentError("collapse_sum_like: shape %s has more dimensions than %s" % (shape, a.shape))
    if not shape:
        return np.array(a.sum())
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and a.shape[lead + i] != 1)
    return a.sum(axis=axes).reshape(shape)
