"""Cases of the signal family (core/op/signal): _contrib_hawkesll and its backward, _contrib_count_sketch, and _contrib_fft and _contrib_ifft
against numpy.fft in MXNet's interleaved (re, im) layout; ifft is not
normalised (MXNet). Their gradients are checked by finite differences in
tests/python/test_linalg_grad.py."""
import numpy as np

from .case import Case
from .nn_ref import F32, F64, ins, rand


def fft_ref(x, compute_size=128):
    z = np.fft.fft(x.astype(F64), axis=-1)
    out = np.stack([z.real, z.imag], axis=-1).reshape(x.shape[:-1] + (2 * x.shape[-1],))
    return out.astype(x.dtype)


def ifft_ref(x, compute_size=128):
    z = x.astype(F64)[..., 0::2] + 1j * x.astype(F64)[..., 1::2]
    return (np.fft.ifft(z, axis=-1).real * z.shape[-1]).astype(x.dtype)


def case(inputs, ref, rtol, atol, name="", **attrs):
    return Case(inputs=inputs, attrs=attrs, ref=ref, rtol=rtol, atol=atol, ref_takes_attrs=True, name=name)


CASES = {
    "_contrib_fft": [
        case(ins(rand((3, 8), F64)), fft_ref, 1e-9, 1e-10),
        case(ins(rand((2, 1, 3, 5))), fft_ref, 1e-4, 1e-5, name="4-D, odd length, float32", compute_size=2),
    ],
    "_contrib_ifft": [
        case(ins(rand((3, 16), F64)), ifft_ref, 1e-9, 1e-10),
        case(ins(rand((2, 2, 1, 6))), ifft_ref, 1e-4, 1e-5, name="4-D float32"),
    ],
}


def count_sketch_ref(data, h, s, out_dim, processing_batch_size=32):
    x = data.astype(F64).reshape(-1, data.shape[-1])
    out = np.zeros((x.shape[0], out_dim))
    for i in range(x.shape[1]):
        out[:, int(h[0, i])] += s[0, i] * x[:, i]
    return out.reshape(data.shape[:-1] + (out_dim,)).astype(data.dtype)


def sketch_inputs(shape, out_dim, dtype):
    def make(rng):
        d = shape[-1]
        return [rng.uniform(-1, 1, size=shape).astype(dtype),
                rng.integers(0, out_dim, size=(1, d)).astype(dtype),
                rng.choice([-1.0, 1.0], size=(1, d)).astype(dtype)]
    return make


CASES["_contrib_count_sketch"] = [
    case(sketch_inputs((4, 7), 3, F32), count_sketch_ref, 1e-5, 1e-6, out_dim=3),
    case(sketch_inputs((2, 1, 3, 6), 4, F64), count_sketch_ref, 1e-12, 1e-12, name="4-D float64", out_dim=4,
         processing_batch_size=2),
]


def hawkesll_ref(mu, alpha, beta, state, lags, marks, valid_length, max_time):
    """Note [Hawkes log-likelihood] (core/op/signal/hawkes_rules.h), written directly from the intensity:
    sum over events of log lambda_c(t_j) minus the integral of every lambda_k over [0, max_time]."""
    mu, alpha, beta, state = (np.asarray(x, F64) for x in (mu, alpha, beta, state))
    N, K = mu.shape
    ll = np.zeros(N)
    out_state = np.zeros((N, K))
    for i in range(N):
        times = np.cumsum(np.asarray(lags[i], F64))[: int(valid_length[i])]
        ms = np.asarray(marks[i])[: int(valid_length[i])]
        T_end = float(max_time[i])
        for k in range(K):
            tk = times[ms == k]
            # the initial state acts as an excitation of unit weight at time 0 scaled by state
            for j, t in enumerate(tk):
                exc = state[i, k] * np.exp(-beta[k] * t) + np.sum(np.exp(-beta[k] * (t - tk[:j])))
                ll[i] += np.log(mu[i, k] + alpha[k] * beta[k] * exc)
            integral = mu[i, k] * T_end + alpha[k] * (state[i, k] * (1 - np.exp(-beta[k] * T_end))
                                                      + np.sum(1 - np.exp(-beta[k] * (T_end - tk))))
            ll[i] -= integral
            out_state[i, k] = state[i, k] * np.exp(-beta[k] * T_end) + np.sum(np.exp(-beta[k] * (T_end - tk)))
    return ll.astype(mu.dtype), out_state


def hawkes_inputs(N, K, T, dtype):
    def make(rng):
        lags = rng.uniform(0.1, 1.0, size=(N, T))
        valid = rng.integers(1, T + 1, size=(N,))
        max_time = np.array([lags[i, : valid[i]].sum() + rng.uniform(0.1, 1.0) for i in range(N)])
        return [rng.uniform(0.2, 1.0, size=(N, K)).astype(dtype), rng.uniform(0.1, 0.6, size=(K,)).astype(dtype),
                rng.uniform(0.5, 2.0, size=(K,)).astype(dtype), rng.uniform(0.0, 1.0, size=(N, K)).astype(dtype),
                lags.astype(dtype), rng.integers(0, K, size=(N, T)).astype(np.int32), valid.astype(dtype),
                max_time.astype(dtype)]
    return make


def hawkes_typed(dtype):
    def ref(*xs):
        ll, st = hawkesll_ref(*xs)
        return ll.astype(dtype), st.astype(dtype)
    return ref


def hawkes_backward_inputs(N, K, T, dtype):
    base = hawkes_inputs(N, K, T, dtype)

    def make(rng):
        xs = base(rng)
        return [rng.standard_normal(N).astype(dtype), rng.standard_normal((N, K)).astype(dtype)] + xs
    return make


def hawkes_backward_ref(g, g_state, *xs):
    """d (sum g * loglike) / d (lda, alpha, beta) by central differences of hawkesll_ref; zeros for the rest."""
    grads = []
    for w in range(3):
        x = np.array(xs[w], F64)
        d = np.zeros_like(x)
        for idx in np.ndindex(*x.shape):
            vals = []
            for e in (1e-6, -1e-6):
                y = x.copy()
                y[idx] += e
                args = list(xs)
                args[w] = y
                vals.append(np.sum(hawkesll_ref(*args)[0] * g))
            d[idx] = (vals[0] - vals[1]) / 2e-6
        grads.append(d.astype(xs[w].dtype))
    return grads + [np.zeros_like(x) for x in xs[3:]]


CASES["_contrib_hawkesll"] = [
    Case(inputs=hawkes_inputs(3, 2, 5, F64), ref=hawkes_typed(F64), rtol=1e-10, atol=1e-10),
    Case(inputs=hawkes_inputs(2, 3, 4, F32), ref=hawkes_typed(F32), rtol=1e-4, atol=1e-5, name="float32"),
]
CASES["_contrib_backward_hawkesll"] = [
    Case(inputs=hawkes_backward_inputs(3, 2, 5, F64), ref=hawkes_backward_ref, rtol=1e-5, atol=1e-6),
]
