"""Cases of BatchNorm, LayerNorm and InstanceNorm with their backward
operators. The harness runs with is_train=False, so BatchNorm normalises
with the moving statistics here; training mode (batch statistics, moving
statistics updated in place) is tested in tests/cpp/nn_misc_test.cc.
Backward references are finite differences of the float64 forward."""
import numpy as np

from .case import Case
from .nn_ref import F16, F32, F64, C, derived, fd, ins, rand

# ---- BatchNorm --------------------------------------------------------------------------------------


def bcast(v, ndim, axis):
    shape = [1] * ndim
    shape[axis] = -1
    return np.asarray(v, F64).reshape(shape)


def bn64(x, gamma, beta, mm, mv, eps=1e-3, fix_gamma=True, axis=1):
    x = np.asarray(x, F64)
    ax = axis % x.ndim
    g = np.ones_like(np.asarray(gamma, F64)) if fix_gamma else gamma
    return (x - bcast(mm, x.ndim, ax)) / np.sqrt(bcast(mv, x.ndim, ax) + eps) * bcast(g, x.ndim, ax) + \
        bcast(beta, x.ndim, ax)


def bn_ref(**kw):
    def ref(x, gamma, beta, mm, mv):
        return bn64(x, gamma, beta, mm, mv, **kw).astype(x.dtype)
    return ref


def _bn_three_outputs(got, xs, attrs):
    """output_mean_var=True: output, mean and inverse std are all visible (MXNet)."""
    assert len(got) == 3, "BatchNorm(output_mean_var=True) must return 3 outputs, got %d" % len(got)
    np.testing.assert_allclose(got[0], bn_ref()(*xs), rtol=1e-5, atol=1e-6)
    assert got[1].shape == got[2].shape == (xs[0].shape[1],)


def bn_inputs(shape, axis=1, dtype=F32, pdtype=None):
    c = shape[axis]
    p = pdtype or dtype
    return ins(rand(shape, dtype, -2, 2), rand((c,), p, 0.5, 1.5), rand((c,), p), rand((c,), p, -0.5, 0.5),
               rand((c,), p, 0.5, 2.0))


def bn_grad_inputs(shape, axis=1):
    c = shape[axis]

    def derive(rng, x, gamma, beta, mm, mv):
        gy = rng.uniform(-1, 1, size=shape)
        mean = rng.uniform(-1, 1, size=(c,))  # saved statistics: unused when not training
        var = rng.uniform(0.5, 1, size=(c,))
        return [gy, mean, var, x, gamma, beta, mm, mv]
    return derived(bn_inputs(shape, axis, F64), derive)


def bn_grad_ref(**kw):
    def ref(gy, mean, var, x, gamma, beta, mm, mv):
        f = lambda a, g, b: bn64(a, g, b, mm, mv, **kw)  # noqa: E731
        return tuple(fd(f, [x, gamma, beta], i, gy) for i in range(3))
    return ref


BATCH_NORM = [
    C(bn_inputs((2, 3, 2, 2)), bn_ref(), name="default_fix_gamma"),
    C(bn_inputs((2, 3, 2, 2)), bn_ref(fix_gamma=False), name="learned_gamma", fix_gamma=False),
    C(bn_inputs((4, 3), axis=-1), bn_ref(fix_gamma=False, axis=-1), name="axis_last", fix_gamma=False, axis=-1),
    C(bn_inputs((2, 4, 3), dtype=F64), bn_ref(eps=1e-5, fix_gamma=False), name="float64_eps", fix_gamma=False, eps=1e-5),
    C(bn_inputs((2, 3, 4)), bn_ref(fix_gamma=False), name="use_global_stats", fix_gamma=False,
      use_global_stats=True),
    C(bn_inputs((2, 3, 4), dtype=F16, pdtype=F32), bn_ref(fix_gamma=False), name="float16_float32_params",
      rtol=5e-3, atol=5e-3, fix_gamma=False),
    Case(inputs=bn_inputs((2, 3, 2)), name="output_mean_var_three_outputs", check=_bn_three_outputs,
         attrs=dict(output_mean_var=True, cudnn_off=True, momentum=0.5)),
]

BACKWARD_BATCH_NORM = [
    C(bn_grad_inputs((2, 3, 2)), bn_grad_ref(fix_gamma=False), name="learned_gamma", rtol=1e-6, atol=1e-7,
      fix_gamma=False),
    C(bn_grad_inputs((2, 3, 2)), bn_grad_ref(), name="fix_gamma", rtol=1e-6, atol=1e-7),
    C(bn_grad_inputs((4, 3), axis=-1), bn_grad_ref(fix_gamma=False, axis=-1), name="axis_last", rtol=1e-6,
      atol=1e-7, fix_gamma=False, axis=-1),
]

# ---- LayerNorm / InstanceNorm -----------------------------------------------------------------------------


def ln64(x, gamma, beta, axis=-1, eps=1e-5):
    x = np.asarray(x, F64)
    ax = axis % x.ndim
    m = x.mean(axis=ax, keepdims=True)
    v = ((x - m) ** 2).mean(axis=ax, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * bcast(gamma, x.ndim, ax) + bcast(beta, x.ndim, ax)


def ln_stats(x, axis=-1, eps=1e-5):
    x = np.asarray(x, F64)
    m = x.mean(axis=axis, keepdims=True)
    return m, np.sqrt(((x - m) ** 2).mean(axis=axis, keepdims=True) + eps)


def ln_ref(**kw):
    return lambda x, g, b: ln64(x, g, b, **kw).astype(x.dtype)


def ln_inputs(shape, axis=-1, dtype=F32):
    c = shape[axis]
    return ins(rand(shape, dtype, -2, 2), rand((c,), dtype, 0.5, 1.5), rand((c,), dtype))


def ln_grad_inputs(shape, axis=-1, eps=1e-5):
    def derive(rng, x, g, b):
        m, s = ln_stats(x, axis, eps)
        return [rng.uniform(-1, 1, size=shape), x, g, m, s]
    return derived(ln_inputs(shape, axis, F64), derive)


def ln_grad_ref(axis=-1, eps=1e-5):
    def ref(gy, x, g, m, s):
        beta = np.zeros_like(g)
        f = lambda a, gg, bb: ln64(a, gg, bb, axis, eps)  # noqa: E731
        return tuple(fd(f, [x, g, beta], i, gy) for i in range(3))
    return ref


def in64(x, gamma, beta, eps=1e-3):
    x = np.asarray(x, F64)
    red = tuple(range(2, x.ndim))
    m = x.mean(axis=red, keepdims=True)
    v = ((x - m) ** 2).mean(axis=red, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * bcast(gamma, x.ndim, 1) + bcast(beta, x.ndim, 1)


def in_grad_inputs(shape, eps=1e-3):
    def derive(rng, x, g, b):
        xx = x.reshape(shape[0], shape[1], -1)
        return [rng.uniform(-1, 1, size=shape), x, g, xx.mean(-1), xx.var(-1)]
    return derived(ln_inputs(shape, 1, F64), derive)


def in_grad_ref(eps=1e-3):
    def ref(gy, x, g, m, v):
        f = lambda a, gg, bb: in64(a, gg, bb, eps)  # noqa: E731
        return tuple(fd(f, [x, g, np.zeros_like(g)], i, gy) for i in range(3))
    return ref


CASES = {
    "BatchNorm": BATCH_NORM,
    "_backward_BatchNorm": BACKWARD_BATCH_NORM,
    "LayerNorm": [
        C(ln_inputs((3, 5)), ln_ref(), name="last_axis"),
        C(ln_inputs((2, 3, 4), axis=1), ln_ref(axis=1), name="axis1", axis=1),
        C(ln_inputs((2, 6), dtype=F64), ln_ref(eps=1e-3), name="float64_eps", eps=1e-3),
        C(ln_inputs((2, 8), dtype=F16), ln_ref(), name="float16", rtol=5e-3, atol=5e-3),
    ],
    "_backward_LayerNorm": [
        C(ln_grad_inputs((3, 4)), ln_grad_ref(), name="last_axis", rtol=1e-5, atol=1e-7),
        C(ln_grad_inputs((2, 3, 2), axis=1), ln_grad_ref(axis=1), name="axis1", rtol=1e-5, atol=1e-7, axis=1),
    ],
    "InstanceNorm": [
        C(ln_inputs((2, 3, 4), axis=1), lambda x, g, b: in64(x, g, b).astype(x.dtype), name="3d"),
        C(ln_inputs((2, 2, 3, 2), axis=1, dtype=F64), lambda x, g, b: in64(x, g, b, 1e-5).astype(x.dtype),
          name="4d_float64_eps", eps=1e-5),
    ],
    "_backward_InstanceNorm": [
        C(in_grad_inputs((2, 3, 4)), in_grad_ref(), name="3d", rtol=1e-5, atol=1e-7),
    ],
}
