"""Cases of Activation, LeakyReLU, softmax / log_softmax / SoftmaxActivation,
softmax_cross_entropy and SoftmaxOutput, with their backward operators.
Backward references are finite differences of the float64 forward where the
forward's input is available (or recoverable from its output), and MXNet's
analytic rules otherwise (SoftmaxOutput's normalisations)."""
import numpy as np

from .nn_ref import (F16, F32, F64, C, away_from_zero, derived, erf, fd, ins, log_softmax64, rand, softmax64,
                     softplus)

# ---- Activation -----------------------------------------------------------------------------------


def act64(x, act_type):
    x = np.asarray(x, F64)
    return {
        "relu": lambda: np.maximum(x, 0),
        "sigmoid": lambda: 1 / (1 + np.exp(-x)),
        "log_sigmoid": lambda: -softplus(-x),
        "mish": lambda: x * np.tanh(softplus(x)),
        "tanh": lambda: np.tanh(x),
        "softrelu": lambda: np.where(x > 20, x, softplus(x)),
        "softsign": lambda: x / (1 + np.abs(x)),
    }[act_type]()


def act_ref(act_type):
    return lambda x: act64(x, act_type).astype(x.dtype)


# The input recovered from the output (the derivative only needs a point with that output).
INVERSE = {
    "relu": lambda y: np.where(y > 0, y, -1.0),
    "sigmoid": lambda y: np.log(y / (1 - y)),
    "log_sigmoid": lambda y: -np.log(np.expm1(-y)),
    "tanh": np.arctanh,
    "softrelu": lambda y: np.log(np.expm1(y)),
}
NEEDS_DATA = ("softsign", "mish")


def act_grad_inputs(act_type, shape, dtype=F64):
    def derive(rng, x):
        y = act64(x, act_type).astype(dtype)
        gy = rng.uniform(-1, 1, size=shape).astype(dtype)
        return [gy, y, x] if act_type in NEEDS_DATA else [gy, y]
    return derived(ins(away_from_zero(shape, dtype, 0.05, 2.0)), derive)


def act_grad_ref(act_type):
    def ref(gy, y, x=None):
        point = x if x is not None else INVERSE[act_type](np.asarray(y, F64))
        return fd(lambda v: act64(v, act_type), [point], 0, gy).astype(gy.dtype)
    return ref


ACT_TYPES = ["relu", "sigmoid", "log_sigmoid", "mish", "tanh", "softrelu", "softsign"]

ACTIVATION = [C(ins(rand((3, 4), lo=-3, hi=3)), act_ref(t), name=t, act_type=t) for t in ACT_TYPES] + [
    C(ins(rand((2, 5), F64, -30, 30)), act_ref("softrelu"), name="softrelu_large_f64", act_type="softrelu"),
    C(ins(rand((2, 3, 4), F64)), act_ref("tanh"), name="float64", act_type="tanh"),
    C(ins(rand((4, 4), F16)), act_ref("sigmoid"), name="float16", rtol=2e-3, atol=2e-3, act_type="sigmoid"),
]

BACKWARD_ACTIVATION = [C(act_grad_inputs(t, (3, 4)), act_grad_ref(t), name=t, rtol=1e-6, atol=1e-7, act_type=t)
                       for t in ACT_TYPES] + [
    C(act_grad_inputs("relu", (2, 3), F32), act_grad_ref("relu"), name="relu_f32", act_type="relu"),
]

# ---- LeakyReLU --------------------------------------------------------------------------------------

SELU_A, SELU_L = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def gamma_b(x, gamma):
    g = np.asarray(gamma, F64)
    if g.size == 1 or g.shape == x.shape:
        return g
    return g.reshape((1, -1) + (1,) * (x.ndim - 2))


def leaky64(x, act_type="leaky", slope=0.25, gamma=None, lower_bound=0.125, upper_bound=0.334):
    x = np.asarray(x, F64)
    if act_type == "leaky":
        return np.where(x > 0, x, slope * x)
    if act_type == "elu":
        return np.where(x > 0, x, slope * np.expm1(x))
    if act_type == "selu":
        return SELU_L * np.where(x > 0, x, SELU_A * np.expm1(x))
    if act_type == "gelu":
        return 0.5 * x * (1 + erf(x / np.sqrt(2)))
    if act_type == "prelu":
        return np.where(x > 0, x, gamma_b(x, gamma) * x)
    return np.where(x > 0, x, x * (lower_bound + upper_bound) / 2)  # rrelu, inference


def leaky_ref(**kw):
    def ref(x, gamma=None):
        return leaky64(x, gamma=gamma, **kw).astype(x.dtype)
    return ref


def leaky_grad_ref(**kw):
    def ref(gy, x, extra=None):
        if kw.get("act_type") == "prelu":
            gx = fd(lambda v, g: leaky64(v, gamma=g, **kw), [x, extra], 0, gy)
            gg = fd(lambda v, g: leaky64(v, gamma=g, **kw), [x, extra], 1, gy)
            return gx.astype(gy.dtype), gg.astype(gy.dtype)
        if kw.get("act_type") == "rrelu":
            return (np.where(x > 0, 1.0, extra) * gy).astype(gy.dtype)
        return fd(lambda v: leaky64(v, **kw), [x], 0, gy).astype(gy.dtype)
    return ref


LEAKY = [
    C(ins(rand((3, 4))), leaky_ref(), name="default_leaky"),
    C(ins(rand((3, 4))), leaky_ref(act_type="leaky", slope=0.1), name="leaky_slope", act_type="leaky", slope=0.1),
    C(ins(rand((3, 4), lo=-3, hi=3)), leaky_ref(act_type="elu", slope=0.7), name="elu", act_type="elu", slope=0.7),
    C(ins(rand((3, 4), lo=-3, hi=3)), leaky_ref(act_type="selu"), name="selu", act_type="selu"),
    C(ins(rand((3, 4), lo=-3, hi=3)), leaky_ref(act_type="gelu"), name="gelu", act_type="gelu"),
    C(ins(rand((2, 3, 2)), rand((3,), lo=0, hi=0.5)), leaky_ref(act_type="prelu"), name="prelu_channel",
      act_type="prelu"),
    C(ins(rand((2, 3)), rand((1,), lo=0, hi=0.5)), leaky_ref(act_type="prelu"), name="prelu_scalar",
      act_type="prelu"),
    C(ins(rand((2, 3), F64), rand((2, 3), F64)), leaky_ref(act_type="prelu"), name="prelu_elementwise_f64",
      act_type="prelu"),
    C(ins(rand((3, 4))), leaky_ref(act_type="rrelu", lower_bound=0.2, upper_bound=0.4), name="rrelu_inference",
      act_type="rrelu", lower_bound=0.2, upper_bound=0.4),
    C(ins(rand((4, 4), F16)), leaky_ref(), name="float16", rtol=2e-3, atol=2e-3),
]


def leaky_grad_inputs(shape, extra=None):
    makers = [rand(shape, F64), away_from_zero(shape, F64, 0.05, 2.0)]
    if extra is not None:
        makers.append(extra)
    return ins(*makers)


BACKWARD_LEAKY = [
    C(leaky_grad_inputs((3, 4)), leaky_grad_ref(act_type="leaky", slope=0.1), name="leaky", act_type="leaky",
      slope=0.1),
    C(leaky_grad_inputs((3, 4)), leaky_grad_ref(act_type="elu", slope=0.7), name="elu", act_type="elu", slope=0.7),
    C(leaky_grad_inputs((3, 4)), leaky_grad_ref(act_type="selu"), name="selu", act_type="selu"),
    C(leaky_grad_inputs((3, 4)), leaky_grad_ref(act_type="gelu"), name="gelu", act_type="gelu"),
    C(leaky_grad_inputs((2, 3, 2), rand((3,), F64, 0, 0.5)), leaky_grad_ref(act_type="prelu"), name="prelu_channel",
      act_type="prelu"),
    C(leaky_grad_inputs((2, 3), rand((1,), F64, 0, 0.5)), leaky_grad_ref(act_type="prelu"), name="prelu_scalar",
      act_type="prelu"),
    C(leaky_grad_inputs((2, 3), rand((2, 3), F64, 0.1, 0.3)), leaky_grad_ref(act_type="rrelu"), name="rrelu_mask",
      act_type="rrelu"),
]

# ---- softmax / log_softmax / SoftmaxActivation ---------------------------------------------------------


def softmax_ref(log=False, axis=-1, temperature=1.0, dtype=None):
    def ref(x):
        f = log_softmax64 if log else softmax64
        return f(x, axis, temperature).astype(dtype or x.dtype)
    return ref


def softmax_cases(log):
    return [
        C(ins(rand((3, 5), lo=-3, hi=3)), softmax_ref(log), name="last_axis"),
        C(ins(rand((2, 3, 4), lo=-3, hi=3)), softmax_ref(log, axis=1), name="axis1", axis=1),
        C(ins(rand((2, 3, 4), lo=-3, hi=3)), softmax_ref(log, axis=0), name="axis0", axis=0),
        C(ins(rand((3, 4), F64, -3, 3)), softmax_ref(log, temperature=2.5), name="temperature_f64",
          temperature=2.5),
        C(ins(rand((2, 6), lo=-3, hi=3)), softmax_ref(log, dtype=F64), name="dtype_float64", dtype="float64"),
        C(ins(rand((3, 8), F16, -3, 3)), softmax_ref(log), name="float16", rtol=5e-3, atol=5e-3),
        C(ins(rand((2, 4), lo=-80, hi=80)), softmax_ref(log), name="large_values", rtol=1e-5, atol=1e-5),
    ]


# use_length (Note [Softmax with length] in core/op/softmax/softmax.cc): row r is the
# softmax of its first length[r] elements, zeros past them (log_softmax's too).
def masked_softmax64(x, length, axis=-1, t=1.0, log=False):
    x = np.moveaxis(np.asarray(x, F64), axis, -1)
    lens = np.asarray(length).reshape(x.shape[:-1] if x.ndim > 1 else (1,))
    out = np.zeros_like(x)
    for idx in np.ndindex(*x.shape[:-1]):
        n = int(min(max(np.floor(lens[idx] if x.ndim > 1 else lens[0]), 0), x.shape[-1]))
        if n:
            row = x[idx][:n]
            out[idx][:n] = (log_softmax64 if log else softmax64)(row, -1, t)
    return np.moveaxis(out, -1, axis)


def masked_softmax_ref(log=False, axis=-1, t=1.0):
    return lambda x, length: masked_softmax64(x, length, axis, t, log).astype(x.dtype)


def softmax_length_cases(log, sign=1.0):
    t = sign  # softmin: the temperature negated
    return [
        C(ins(rand((3, 5), lo=-3, hi=3), np.array([5, 2, 0], np.int32)), masked_softmax_ref(log, -1, t),
          name="use_length", use_length=True),
        C(ins(rand((2, 6, 3), F64, -3, 3), np.array([[1, 6, 3], [9, 4, -2]], np.int64)),
          masked_softmax_ref(log, 1, t), name="use_length_axis1_clamped", use_length=True, axis=1),
        C(ins(rand((4,), lo=-3, hi=3), np.array([3.0], F32)), masked_softmax_ref(log, -1, t),
          name="use_length_1d_float_length", use_length=True),
    ]


def masked_softmax_grad_ref(log, axis=-1, t=1.0):
    def ref(gy, y, length):
        # the rows' valid parts are ordinary softmax gradients; zeros past them
        gx = np.zeros_like(np.asarray(gy, F64))
        g, o, out = (np.moveaxis(np.asarray(a, F64), axis, -1) for a in (gy, y, gx))
        lens = np.asarray(length).reshape(g.shape[:-1])
        for idx in np.ndindex(*g.shape[:-1]):
            n = int(min(max(lens[idx], 0), g.shape[-1]))
            gr, yr = g[idx][:n], o[idx][:n]
            out[idx][:n] = (gr - np.exp(yr) * gr.sum()) / t if log else yr * (gr - (gr * yr).sum()) / t
        return np.moveaxis(out, -1, axis).astype(gy.dtype)
    return ref


def softmax_length_grad_inputs(log, shape, length, axis=-1, t=1.0):
    def make(rng):
        x = rng.uniform(-2, 2, size=shape)
        return [rng.uniform(-1, 1, size=shape), masked_softmax64(x, length, axis, t, log), np.asarray(length)]
    return make


def softmax_length_grad_cases(log, sign=1.0):
    return [
        C(softmax_length_grad_inputs(log, (3, 4), np.array([4, 1, 0], np.int32), t=sign),
          masked_softmax_grad_ref(log, t=sign), name="use_length", use_length=True),
        C(softmax_length_grad_inputs(log, (2, 5, 2), np.array([[2, 5], [3, 1]], np.int64), axis=1, t=sign),
          masked_softmax_grad_ref(log, axis=1, t=sign), name="use_length_axis1", use_length=True, axis=1),
    ]


def softmax_grad_inputs(log, shape, axis=-1, t=1.0):
    def derive(rng, x):
        y = (log_softmax64 if log else softmax64)(x, axis, t)
        return [rng.uniform(-1, 1, size=shape), y]
    return derived(ins(rand(shape, F64, -2, 2)), derive)


def softmax_grad_ref(log, axis=-1, t=1.0):
    def ref(gy, y):
        # A point with this output: log_softmax(x) = y for x = y * t; softmax(x) = y for x = t * log(y).
        x = y * t if log else t * np.log(y)
        f = (lambda v: log_softmax64(v, axis, t)) if log else (lambda v: softmax64(v, axis, t))
        return fd(f, [x], 0, gy).astype(gy.dtype)
    return ref


def softmax_grad_cases(log):
    return [
        C(softmax_grad_inputs(log, (3, 4)), softmax_grad_ref(log), name="last_axis"),
        C(softmax_grad_inputs(log, (2, 3, 2), axis=1), softmax_grad_ref(log, axis=1), name="axis1", axis=1),
        C(softmax_grad_inputs(log, (2, 5), t=2.0), softmax_grad_ref(log, t=2.0), name="temperature",
          temperature=2.0),
    ]


def softmax_activation_ref(mode):
    def ref(x):
        if mode == "channel":
            return softmax64(x, 1).astype(x.dtype)
        return softmax64(x.reshape(x.shape[0], -1), 1).reshape(x.shape).astype(x.dtype)
    return ref


def softmax_activation_grad_ref(mode):
    fwd = softmax_activation_ref(mode)

    def ref(gy, y):
        axis = 1 if mode == "channel" else None
        if axis is None:
            x = np.log(y.reshape(y.shape[0], -1)).reshape(y.shape)
        else:
            x = np.log(y)
        return fd(lambda v: fwd(v), [x], 0, gy).astype(gy.dtype)
    return ref


def sa_grad_inputs(shape, mode):
    def derive(rng, x):
        return [rng.uniform(-1, 1, size=shape), softmax_activation_ref(mode)(x)]
    return derived(ins(rand(shape, F64, -2, 2)), derive)


# ---- softmax_cross_entropy ------------------------------------------------------------------------------


def labels(n, k, dtype=F32):
    return lambda rng: rng.integers(0, k, size=n).astype(dtype)


def sce64(x, label):
    ls = log_softmax64(x, 1)
    return np.array([-ls[np.arange(x.shape[0]), label.astype(np.int64)].sum()])


def sce_ref(x, label):
    return sce64(x, label).astype(x.dtype)


def sce_grad_ref(gout, x, label):
    gx = fd(lambda v: sce64(v, label), [x], 0, gout)
    return gx.astype(x.dtype), np.zeros_like(label)


# ---- SoftmaxOutput --------------------------------------------------------------------------------------


def so_forward_ref(multi_output=False, preserve_shape=False):
    def ref(x, label):
        if multi_output:
            return softmax64(x, 1).astype(x.dtype)
        if preserve_shape:
            return softmax64(x, -1).astype(x.dtype)
        return softmax64(x.reshape(x.shape[0], -1), 1).reshape(x.shape).astype(x.dtype)
    return ref


def so_grad_ref(grad_scale=1.0, ignore_label=-1.0, multi_output=False, use_ignore=False, preserve_shape=False,
                normalization="null", smooth_alpha=0.0):
    """MXNet 1.x softmax_output-inl.h rules, written independently over float64."""
    def ref(out, label):
        o = np.asarray(out, F64)
        lab = np.asarray(label, F64)
        if lab.shape == o.shape:
            return ((o - lab) * grad_scale).astype(out.dtype), np.zeros_like(label)
        if multi_output:
            n, k = o.shape[0], o.shape[1]
            o3 = o.reshape(n, k, -1)
            s = o3.shape[2]
            lab2 = lab.reshape(n, s)
            g = o3.copy()
            for i in range(n):
                for j in range(s):
                    li = int(lab2[i, j])
                    if use_ignore and li == int(ignore_label):
                        g[i, :, j] = 0
                        continue
                    if smooth_alpha > 0:
                        g[i, :, j] -= smooth_alpha / (k - 1)
                        if 0 <= li < k:
                            g[i, li, j] += smooth_alpha / (k - 1) - (1 - smooth_alpha)
                    elif 0 <= li < k:
                        g[i, li, j] -= 1
            labs = lab2.ravel()
        else:
            rows = o.size // o.shape[-1] if preserve_shape else o.shape[0]
            o2 = o.reshape(rows, -1)
            k = o2.shape[1]
            labs = lab.ravel()
            g = o2.copy()
            for r in range(rows):
                li = int(labs[r])
                if use_ignore and li == int(ignore_label):
                    g[r] = 0
                    continue
                if smooth_alpha > 0:
                    g[r] -= smooth_alpha / (k - 1)
                    if 0 <= li < k:
                        g[r, li] += smooth_alpha / (k - 1) - (1 - smooth_alpha)
                elif 0 <= li < k:
                    g[r, li] -= 1
        if normalization == "batch":
            cnt = o.shape[0] if multi_output else labs.size
        elif normalization == "valid":
            cnt = max(1, int(np.sum(labs.astype(np.int64) != int(ignore_label))))
        else:
            cnt = 1
        scale = grad_scale / cnt
        if multi_output and normalization != "valid":
            scale /= g.shape[2]
        return (g * scale).reshape(o.shape).astype(out.dtype), np.zeros_like(label)
    return ref


def so_grad_inputs(shape, label_shape, k, dtype=F64, ignore=None):
    def derive(rng, x):
        if len(shape) > 2 and label_shape[1:] == shape[2:]:
            out = softmax64(x, 1)
        else:
            out = softmax64(x.reshape(shape[0], -1), 1).reshape(shape)
        lab = rng.integers(0, k, size=label_shape).astype(dtype)
        if ignore is not None:
            lab.flat[::3] = ignore
        return [out.astype(dtype), lab]
    return derived(ins(rand(shape, F64, -2, 2)), derive)


def so_grad_ce_fd(out, label):
    """Cross-check of the default rule: d/dx sum(-log softmax(x)[label]) by finite differences."""
    x = np.log(out)
    g = fd(lambda v: sce64(v, label), [x], 0, np.ones(1))
    return g.astype(out.dtype), np.zeros_like(label)


SOFTMAX_OUTPUT = [
    C(ins(rand((3, 5), lo=-3, hi=3), labels(3, 5)), so_forward_ref(), name="default"),
    C(ins(rand((2, 3, 4), lo=-3, hi=3), labels((2, 3), 4)), so_forward_ref(), name="3d_flattened"),
    C(ins(rand((2, 3, 4), lo=-3, hi=3), labels((2, 3), 4)), so_forward_ref(preserve_shape=True),
      name="preserve_shape", preserve_shape=True),
    C(ins(rand((2, 4, 3), F64, -3, 3), labels((2, 3), 4, F64)), so_forward_ref(multi_output=True),
      name="multi_output_f64", multi_output=True),
    C(ins(rand((3, 4), lo=-3, hi=3), rand((3, 4), lo=0, hi=1)), so_forward_ref(), name="probability_label"),
]

BACKWARD_SOFTMAX_OUTPUT = [
    C(so_grad_inputs((4, 5), (4,), 5), so_grad_ce_fd, name="default_is_ce_gradient"),
    C(so_grad_inputs((4, 5), (4,), 5), so_grad_ref(grad_scale=0.5, normalization="batch"), name="batch_scale",
      grad_scale=0.5, normalization="batch"),
    C(so_grad_inputs((6, 4), (6,), 4, ignore=1), so_grad_ref(use_ignore=True, ignore_label=1, normalization="valid"),
      name="ignore_valid", use_ignore=True, ignore_label=1, normalization="valid"),
    C(so_grad_inputs((6, 4), (6,), 4, ignore=1), so_grad_ref(ignore_label=1, normalization="valid"),
      name="valid_without_use_ignore", ignore_label=1, normalization="valid"),
    C(so_grad_inputs((2, 3, 4), (2, 3), 4), so_grad_ref(preserve_shape=True), name="preserve_shape",
      preserve_shape=True),
    C(so_grad_inputs((2, 4, 3), (2, 3), 4), so_grad_ref(multi_output=True), name="multi_output_null",
      multi_output=True),
    C(so_grad_inputs((2, 4, 3), (2, 3), 4, ignore=0),
      so_grad_ref(multi_output=True, use_ignore=True, ignore_label=0, normalization="valid"),
      name="multi_output_ignore_valid", multi_output=True, use_ignore=True, ignore_label=0, normalization="valid"),
    C(so_grad_inputs((2, 4, 3), (2, 3), 4), so_grad_ref(multi_output=True, normalization="batch"),
      name="multi_output_batch", multi_output=True, normalization="batch"),
    C(so_grad_inputs((4, 5), (4,), 5), so_grad_ref(smooth_alpha=0.1), name="smooth_alpha", smooth_alpha=0.1),
    C(derived(ins(rand((3, 4), F64, 0, 1), rand((3, 4), F64, 0, 1)), lambda rng, a, b: [a, b]),
      so_grad_ref(grad_scale=2.0), name="probability_label", grad_scale=2.0),
    C(so_grad_inputs((4, 5), (4,), 5, dtype=F32), so_grad_ref(), name="float32"),
]

CASES = {
    "Activation": ACTIVATION,
    "_backward_Activation": BACKWARD_ACTIVATION,
    "LeakyReLU": LEAKY,
    "_backward_LeakyReLU": BACKWARD_LEAKY,
    "softmax": softmax_cases(False) + softmax_length_cases(False),
    "log_softmax": softmax_cases(True) + softmax_length_cases(True),
    "_backward_softmax": softmax_grad_cases(False) + softmax_length_grad_cases(False),
    "_backward_log_softmax": softmax_grad_cases(True) + softmax_length_grad_cases(True),
    "SoftmaxActivation": [
        C(ins(rand((2, 3, 4), lo=-3, hi=3)), softmax_activation_ref("instance"), name="instance"),
        C(ins(rand((2, 3, 2, 2), lo=-3, hi=3)), softmax_activation_ref("channel"), name="channel", mode="channel"),
    ],
    "_backward_SoftmaxActivation": [
        C(sa_grad_inputs((2, 3, 2), "instance"), softmax_activation_grad_ref("instance"), name="instance"),
        C(sa_grad_inputs((2, 3, 2), "channel"), softmax_activation_grad_ref("channel"), name="channel",
          mode="channel"),
    ],
    "softmax_cross_entropy": [
        C(ins(rand((4, 5), lo=-3, hi=3), labels(4, 5)), sce_ref, name="float32"),
        C(ins(rand((3, 6), F64, -3, 3), labels(3, 6, F64)), sce_ref, name="float64"),
    ],
    "_backward_softmax_cross_entropy": [
        C(ins(rand((1,), F64, 0.5, 2), rand((4, 5), F64, -2, 2), labels(4, 5, F64)), sce_grad_ref, name="float64"),
    ],
    "SoftmaxOutput": SOFTMAX_OUTPUT,
    "_backward_SoftmaxOutput": BACKWARD_SOFTMAX_OUTPUT,
}
