"""Cases of LRN (local response normalisation across channels, MXNet 1.x)
and _backward_LRN. The reference is MXNet's formula in float64:
tmp_norm = knorm + alpha / nsize * sum of data^2 over the channels
[c - nsize/2, c + nsize/2] clipped to [0, C), output = data * tmp_norm^-beta.
Only output is visible. Backward references: central finite differences of
the float64 forward (independent of the analytic rule the kernel uses), and
for float32 that analytic rule written out in NumPy."""
import numpy as np

from .nn_ref import F32, F64, C, derived, fd, ins, rand

DEFAULTS = dict(alpha=1e-4, beta=0.75, knorm=2.0)


def lrn_norm64(x, nsize, alpha=1e-4, knorm=2.0):
    x = np.asarray(x, F64)
    sq = x * x
    half = nsize // 2
    norm = np.empty_like(x)
    for c in range(x.shape[1]):
        lo, hi = max(0, c - half), min(x.shape[1], c + half + 1)
        norm[:, c] = knorm + alpha / nsize * sq[:, lo:hi].sum(axis=1)
    return norm


def lrn64(x, nsize, alpha=1e-4, beta=0.75, knorm=2.0):
    return np.asarray(x, F64) * lrn_norm64(x, nsize, alpha, knorm) ** -beta


def lrn_ref(nsize, **kw):
    p = dict(DEFAULTS, **kw)

    def ref(x):
        return lrn64(x, nsize, **p).astype(x.dtype)
    return ref


def lrn_case(shape, nsize, dtype=F32, name="", rtol=2e-5, atol=1e-6, **kw):
    return C(ins(rand(shape, dtype, -2, 2)), lrn_ref(nsize, **kw), name=name, rtol=rtol, atol=atol, nsize=nsize,
             **kw)


def lrn_grad_inputs(shape, nsize, dtype=F64, **kw):
    p = dict(DEFAULTS, **kw)

    def derive(rng, x):
        gy = rng.uniform(-1, 1, size=shape).astype(dtype)
        return [gy, x, lrn_norm64(x, nsize, p["alpha"], p["knorm"]).astype(dtype)]
    return derived(ins(rand(shape, dtype, -2, 2)), derive)


def lrn_grad_fd_ref(nsize, **kw):
    p = dict(DEFAULTS, **kw)

    def ref(gy, x, norm):
        return fd(lambda a: lrn64(a, nsize, **p), [x], 0, gy).astype(x.dtype)
    return ref


def lrn_grad_analytic_ref(nsize, **kw):
    """d data[c] = gy[c] norm[c]^-beta - 2 alpha beta / nsize * data[c] * sum_{|c' - c| <= nsize/2}
    gy[c'] data[c'] norm[c']^(-beta-1)."""
    p = dict(DEFAULTS, **kw)

    def ref(gy, x, norm):
        gy, x64, norm = (np.asarray(a, F64) for a in (gy, x, norm))
        scaled = gy * x64 * norm ** (-p["beta"] - 1)
        half = nsize // 2
        win = np.empty_like(x64)
        for c in range(x64.shape[1]):
            win[:, c] = scaled[:, max(0, c - half):min(x64.shape[1], c + half + 1)].sum(axis=1)
        g = gy * norm ** -p["beta"] - 2 * p["alpha"] * p["beta"] / nsize * x64 * win
        return g.astype(x.dtype)
    return ref


STRONG = dict(alpha=0.5, beta=0.75, knorm=1.0)  # alpha large enough that the window matters

CASES = {
    "LRN": [
        lrn_case((2, 5, 3, 3), 3, name="defaults_nsize3"),
        lrn_case((2, 6, 3, 4), 5, name="strong_nsize5", **STRONG),
        lrn_case((2, 4, 2, 3), 1, name="nsize1", alpha=0.3, beta=0.5, knorm=1.5),
        lrn_case((1, 3, 4, 2), 5, name="channels_below_nsize", **STRONG),
        lrn_case((2, 2, 3, 3), 7, name="two_channels_nsize7", alpha=1.0, beta=1.2, knorm=0.5),
        lrn_case((2, 7, 3, 5), 3, dtype=F64, name="float64", rtol=1e-12, atol=1e-14, **STRONG),
        lrn_case((2, 5, 6), 3, name="3d_ncw", **STRONG),
        lrn_case((1, 4, 2, 2, 3), 3, name="5d_ncdhw", **STRONG),
        lrn_case((1, 40, 20, 20), 5, name="large_parallel", **STRONG),
    ],
    "_backward_LRN": [
        C(lrn_grad_inputs((2, 5, 2, 2), 3, **STRONG), lrn_grad_fd_ref(3, **STRONG), name="fd_nsize3",
          rtol=1e-6, atol=1e-8, nsize=3, **STRONG),
        C(lrn_grad_inputs((1, 6, 2, 3), 5, alpha=0.8, beta=1.1, knorm=0.7),
          lrn_grad_fd_ref(5, alpha=0.8, beta=1.1, knorm=0.7), name="fd_nsize5", rtol=1e-6, atol=1e-8, nsize=5,
          alpha=0.8, beta=1.1, knorm=0.7),
        C(lrn_grad_inputs((2, 3, 2, 2), 1, **STRONG), lrn_grad_fd_ref(1, **STRONG), name="fd_nsize1", rtol=1e-6,
          atol=1e-8, nsize=1, **STRONG),
        C(lrn_grad_inputs((1, 2, 3, 2), 5, **STRONG), lrn_grad_fd_ref(5, **STRONG), name="fd_channels_below_nsize",
          rtol=1e-6, atol=1e-8, nsize=5, **STRONG),
        C(lrn_grad_inputs((2, 4, 3, 3), 3), lrn_grad_fd_ref(3), name="fd_defaults", rtol=1e-6, atol=1e-8, nsize=3),
        C(lrn_grad_inputs((2, 9, 5, 4), 5, F32, **STRONG), lrn_grad_analytic_ref(5, **STRONG), name="float32",
          rtol=1e-4, atol=1e-5, nsize=5, **STRONG),
        C(lrn_grad_inputs((1, 40, 20, 20), 5, F32, **STRONG), lrn_grad_analytic_ref(5, **STRONG),
          name="large_parallel", rtol=1e-4, atol=1e-5, nsize=5, **STRONG),
    ],
}
