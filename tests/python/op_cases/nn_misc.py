"""Cases of the regression outputs, smooth_l1, BlockGrad, make_loss, MakeLoss,
add_n, Dropout, Embedding, Pad, UpSampling, SequenceMask and SequenceLast,
with their backward operators. Backward references are finite differences
of the float64 forward (linear ops: exact) or MXNet's analytic rules. The
harness runs with is_train=False: Dropout's training mode is tested in
tests/cpp/nn_misc_test.cc, mode='always' here."""
import numpy as np

from .case import Case
from .nn_ref import F16, F32, F64, C, away_from_zero, fd, ins, rand

# ---- regression outputs ---------------------------------------------------------------------------


def reg_grad_ref(kind, grad_scale=1.0):
    def ref(label, out):
        o, lab = np.asarray(out, F64), np.asarray(label, F64).reshape(out.shape)
        num_output = label.size / label.shape[0]
        d = np.sign(o - lab) if kind == "mae" else o - lab
        return (d * grad_scale / num_output).astype(out.dtype), np.zeros_like(label)
    return ref


def reg_cases(logistic):
    fwd = (lambda x, l: (1 / (1 + np.exp(-x.astype(F64)))).astype(x.dtype)) if logistic else (lambda x, l: x)
    return [
        C(ins(rand((3, 4)), rand((3, 4))), fwd, name="2d"),
        C(ins(rand((5, 1)), rand((5,))), fwd, name="column_data_1d_label"),
        C(ins(rand((2, 3), F64), rand((2, 3), F64)), fwd, name="float64", grad_scale=2.0),
    ]


def reg_grad_cases(kind):
    return [
        C(ins(rand((3, 4), F64), away_from_zero((3, 4), F64)), reg_grad_ref(kind), name="2d"),
        C(ins(rand((5,), F64), rand((5, 1), F64)), reg_grad_ref(kind, 0.5), name="1d_label_scaled",
          grad_scale=0.5),
        C(ins(rand((2, 3)), rand((2, 3))), reg_grad_ref(kind, 3.0), name="float32", grad_scale=3.0),
    ]

# ---- smooth_l1, identities, MakeLoss, add_n ---------------------------------------------------------------


def smooth_l1_64(x, sigma=1.0):
    x = np.asarray(x, F64)
    s2 = sigma * sigma
    return np.where(np.abs(x) < 1 / s2, 0.5 * s2 * x * x, np.abs(x) - 0.5 / s2)


def make_loss_grad_ref(grad_scale=1.0, valid_thresh=0.0, normalization="null"):
    def ref(x):
        s = grad_scale
        if normalization == "batch":
            s /= x.shape[0]
        elif normalization == "valid":
            s /= max(1, int(np.sum(x.astype(F64) > valid_thresh)))
        return np.full(x.shape, s, dtype=x.dtype)
    return ref


def add_n_ref(*xs):
    if np.issubdtype(xs[0].dtype, np.integer):
        return sum(x.astype(np.int64) for x in xs).astype(xs[0].dtype)
    return sum(x.astype(F64) for x in xs).astype(xs[0].dtype)


# ---- Dropout --------------------------------------------------------------------------------------------


def dropout_check(p, axes=()):
    def check(got, xs, attrs):
        x, y = xs[0].astype(F64), got[0].astype(F64)
        ratio = y / x
        kept = np.isclose(ratio, 1 / (1 - p), rtol=1e-5)
        assert np.all(kept | (y == 0)), "Dropout: every output is 0 or x / (1 - p)"
        frac = kept.mean()
        # The mask has one draw per position outside the shared axes: the fraction's spread
        # is binomial over that many draws (a fixed 0.1 failed about one run in six on the
        # variational case's 48 draws); 4.5 standard deviations.
        draws = kept.size // int(np.prod([kept.shape[a] for a in axes])) if axes else kept.size
        tol = 4.5 * np.sqrt(p * (1 - p) / draws)
        assert abs(frac - (1 - p)) < tol, "Dropout: kept fraction %.3f, expected %.3f +- %.3f" % (frac, 1 - p, tol)
        for a in axes:  # one mask value along the variational axes
            assert np.all(kept == np.take(kept, [0], axis=a)), "Dropout: mask must be shared along axis %d" % a
    return check


def dropout_case(shape, p, axes=(), name=""):
    attrs = dict(p=p, mode="always")
    if axes:
        attrs["axes"] = axes
    return Case(inputs=ins(away_from_zero(shape)), attrs=attrs, check=dropout_check(p, axes), name=name)


def dropout_grad_inputs(shape, mask_shape, p):
    def make(rng):
        keep = (rng.random(mask_shape) >= p).astype(F32) / (1 - p)
        return [rng.uniform(-1, 1, size=shape).astype(F32), keep]
    return make

# ---- Embedding ---------------------------------------------------------------------------------------------


def emb_index(data, input_dim):
    return np.clip(np.trunc(np.nan_to_num(data.astype(F64), nan=0.0)), 0, input_dim - 1).astype(np.int64)


def emb_ref(input_dim, output_dim, **_):
    return lambda data, w: w[emb_index(data, input_dim)]


def emb_grad_ref(input_dim, output_dim, **_):
    def ref(gy, data):
        gw = np.zeros((input_dim, output_dim), F64)
        np.add.at(gw, emb_index(data, input_dim).ravel(), gy.reshape(-1, output_dim).astype(F64))
        return np.zeros_like(data), gw.astype(gy.dtype)
    return ref


def emb_case(data, input_dim, output_dim, wdtype=F32, name="", **extra):
    attrs = dict(input_dim=input_dim, output_dim=output_dim, **extra)
    return C(ins(np.asarray(data, F32), rand((input_dim, output_dim), wdtype)), emb_ref(**attrs), name=name, **attrs)


def emb_grad_case(data, input_dim, output_dim, name="", **extra):
    data = np.asarray(data, F32)
    attrs = dict(input_dim=input_dim, output_dim=output_dim, **extra)
    return C(ins(rand(data.shape + (output_dim,)), data), emb_grad_ref(**attrs), name=name, **attrs)

# ---- Pad ---------------------------------------------------------------------------------------------------


def pad_pairs(pad_width):
    return [(pad_width[2 * i], pad_width[2 * i + 1]) for i in range(len(pad_width) // 2)]


def pad64(x, pad_width, mode="constant", constant_value=0.0):
    x = np.asarray(x, F64)
    if mode == "constant":
        return np.pad(x, pad_pairs(pad_width), mode="constant", constant_values=constant_value)
    return np.pad(x, pad_pairs(pad_width), mode=mode)


def pad_ref(**kw):
    return lambda x: pad64(x, **kw).astype(x.dtype)


def pad_grad_inputs(in_shape, pad_width):
    out_shape = tuple(d + a + b for d, (a, b) in zip(in_shape, pad_pairs(pad_width)))
    return ins(rand(out_shape, F64))


def pad_grad_ref(in_shape, **kw):
    def ref(gy):
        return fd(lambda x: pad64(x, **kw), [np.zeros(in_shape)], 0, gy)
    return ref


def pad_case(shape, name, dtype=F32, **kw):
    return C(ins(rand(shape, dtype)), pad_ref(**kw), name=name, **kw)


def pad_grad_case(shape, name, **kw):
    return C(pad_grad_inputs(shape, kw["pad_width"]), pad_grad_ref(shape, **kw), name=name, rtol=1e-6,
             atol=1e-7, **kw)

# ---- UpSampling ------------------------------------------------------------------------------------------------


def up64(x, s):
    return np.repeat(np.repeat(np.asarray(x, F64), s, axis=2), s, axis=3)


def up_ref(scale, multi_input_mode="concat", **_):
    def ref(*xs):
        oh = xs[0].shape[2] * scale
        ups = [up64(x, oh // x.shape[2]) for x in xs]
        out = sum(ups) if multi_input_mode == "sum" else np.concatenate(ups, axis=1)
        return out.astype(xs[0].dtype)
    return ref


def up_grad_ref(scale, **_):
    def ref(gy):
        n, c, oh, ow = gy.shape
        return gy.astype(F64).reshape(n, c, oh // scale, scale, ow // scale, scale).sum(axis=(3, 5)).astype(gy.dtype)
    return ref

# ---- SequenceMask / SequenceLast ------------------------------------------------------------------------------------


def seq_lengths(batch, max_len, dtype=F32):
    return lambda rng: rng.integers(1, max_len + 1, size=batch).astype(dtype)


def seq_mask64(x, lengths=None, value=0.0, axis=0):
    y = np.array(x, F64)
    if lengths is None:
        return y
    for b, n in enumerate(lengths.astype(np.int64)):
        idx = [slice(None)] * y.ndim
        idx[1 - axis] = b
        idx[axis] = slice(int(n), None)
        y[tuple(idx)] = value
    return y


def seq_mask_ref(value=0.0, axis=0, **_):
    return lambda x, lengths=None: seq_mask64(x, lengths, value, axis).astype(x.dtype)


def seq_mask_grad_ref(axis=0, **_):
    def ref(gy, lengths=None):
        g = seq_mask64(gy, lengths, 0.0, axis).astype(gy.dtype)
        return g if lengths is None else (g, np.zeros_like(lengths))
    return ref


def seq_last64(x, lengths=None, axis=0):
    x = np.asarray(x, F64)
    steps, batch = x.shape[axis], x.shape[1 - axis]
    ls = np.full(batch, steps) if lengths is None else lengths.astype(np.int64)
    xt = x if axis == 0 else np.swapaxes(x, 0, 1)
    return np.stack([xt[ls[b] - 1, b] for b in range(batch)])


def seq_last_ref(axis=0, **_):
    return lambda x, lengths=None: seq_last64(x, lengths, axis).astype(x.dtype)


def seq_last_grad_ref(axis=0, **_):
    def ref(gy, x, lengths=None):
        g = fd(lambda v: seq_last64(v, lengths, axis), [x], 0, gy).astype(gy.dtype)
        return g if lengths is None else (g, np.zeros_like(lengths))
    return ref


def seq_last_grad_inputs(shape, axis, with_len):
    out_shape = tuple(d for i, d in enumerate(shape) if i != axis)
    makers = [rand(out_shape, F64), rand(shape, F64)]
    if with_len:
        makers.append(seq_lengths(shape[1 - axis], shape[axis], F64))
    return ins(*makers)


CASES = {
    "LinearRegressionOutput": reg_cases(False),
    "MAERegressionOutput": reg_cases(False),
    "LogisticRegressionOutput": reg_cases(True),
    "_backward_linear_reg_out": reg_grad_cases("linear"),
    "_backward_mae_reg_out": reg_grad_cases("mae"),
    "_backward_logistic_reg_out": reg_grad_cases("logistic"),
    "smooth_l1": [
        C(ins(rand((3, 4), lo=-3, hi=3)), lambda x: smooth_l1_64(x).astype(x.dtype), name="default"),
        C(ins(rand((3, 4), F64, -3, 3)), lambda x: smooth_l1_64(x, 2.0), name="sigma2_f64", scalar=2.0),
    ],
    "_backward_smooth_l1": [
        C(ins(rand((3, 4), F64), away_from_zero((3, 4), F64, 0.05, 3)),
          lambda gy, x: fd(lambda v: smooth_l1_64(v, 0.5), [x], 0, gy), name="sigma_half", rtol=1e-6,
          atol=1e-7, scalar=0.5),
        C(ins(rand((3, 4), F64), away_from_zero((3, 4), F64, 0.05, 3)),
          lambda gy, x: fd(lambda v: smooth_l1_64(v, 2.0), [x], 0, gy), name="sigma2", rtol=1e-6, atol=1e-7,
          scalar=2.0),
    ],
    "BlockGrad": [
        C(ins(rand((2, 3))), lambda x: x, name="float32"),
        C(ins(lambda rng: rng.integers(-5, 5, size=(4,)).astype(np.int32)), lambda x: x, name="int32"),
    ],
    "make_loss": [C(ins(rand((2, 3), F64)), lambda x: x, name="float64")],
    "MakeLoss": [C(ins(rand((2, 3))), lambda x: x, name="identity", grad_scale=2.0, normalization="batch")],
    "_backward_MakeLoss": [
        C(ins(rand((4, 3))), make_loss_grad_ref(), name="null"),
        C(ins(rand((4, 3))), make_loss_grad_ref(2.0, normalization="batch"), name="batch", grad_scale=2.0,
          normalization="batch"),
        C(ins(rand((4, 3), F64)), make_loss_grad_ref(1.0, 0.2, "valid"), name="valid", valid_thresh=0.2,
          normalization="valid"),
    ],
    "add_n": [
        C(ins(rand((2, 3))), add_n_ref, name="one"),
        C(ins(rand((2, 3)), rand((2, 3)), rand((2, 3))), add_n_ref, name="three"),
        C(ins(*[rand((5000,), F64)] * 4), add_n_ref, name="four_blocks_f64"),
        C(ins(*[lambda rng: rng.integers(-100, 100, size=(3, 3)).astype(np.int32)] * 3), add_n_ref, name="int32"),
        C(ins(rand((4,), F16), rand((4,), F16)), add_n_ref, name="float16", rtol=1e-3, atol=1e-3),
    ],
    "Dropout": [
        C(ins(rand((3, 4))), lambda x: x, name="inference_identity", p=0.5),
        C(ins(rand((3, 4))), lambda x: x, name="always_p0", p=0.0, mode="always"),
        C(ins(rand((3, 4))), lambda x: np.zeros_like(x), name="always_p1", p=1.0, mode="always"),
        dropout_case((40, 50), 0.5, name="always_half"),
        dropout_case((40, 50), 0.2, name="always_p02"),
        dropout_case((8, 30, 6), 0.5, axes=(1,), name="variational_axes"),
    ],
    "_backward_Dropout": [
        C(dropout_grad_inputs((3, 4), (3, 4), 0.5), lambda gy, m: gy * m, name="always", p=0.5, mode="always"),
        C(dropout_grad_inputs((2, 3, 4), (2, 1, 4), 0.5), lambda gy, m: gy * m, name="axes", p=0.5,
          mode="always", axes=(1,)),
        C(dropout_grad_inputs((3, 4), (3, 4), 0.5), lambda gy, m: gy, name="inference_identity", p=0.5),
    ],
    "Embedding": [
        emb_case([[0, 2], [1, 3]], 4, 3, name="basic"),
        emb_case([0, 5, -1, 2.7], 4, 2, name="clipped_and_truncated"),
        emb_case([[1, 0, 1]], 3, 5, F64, name="float64", dtype="float64"),
    ],
    "_backward_Embedding": [
        emb_grad_case([[0, 2], [2, 3]], 4, 3, name="repeated_index"),
        emb_grad_case([0, 7, -3, 1], 3, 2, name="clipped"),
    ],
    "Pad": [
        pad_case((1, 2, 2, 3), "constant", pad_width=(0, 0, 0, 0, 1, 2, 2, 1), constant_value=1.5),
        pad_case((1, 1, 2, 3), "edge", mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 2, 2)),
        pad_case((1, 1, 3, 4), "reflect", mode="reflect", pad_width=(0, 0, 0, 0, 2, 1, 3, 2)),
        pad_case((2, 3, 2, 2, 2), "5d_edge_f64", dtype=F64, mode="edge", pad_width=(0, 0, 0, 0, 1, 0, 0, 1, 2, 2)),
        pad_case((3, 4), "2d_constant", pad_width=(1, 0, 0, 2)),
    ],
    "_backward_Pad": [
        pad_grad_case((1, 1, 2, 3), "constant", pad_width=(0, 0, 0, 0, 1, 2, 2, 1)),
        pad_grad_case((1, 1, 2, 3), "edge", mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 2, 2)),
        pad_grad_case((1, 1, 3, 4), "reflect", mode="reflect", pad_width=(0, 0, 0, 0, 2, 1, 3, 2)),
    ],
    "UpSampling": [
        C(ins(rand((1, 2, 2, 3))), up_ref(2), name="one_input", scale=2, sample_type="nearest"),
        C(ins(rand((2, 2, 2, 2)), rand((2, 1, 1, 1))), up_ref(2), name="concat_two_scales", scale=2,
          sample_type="nearest", num_args=2),
        C(ins(rand((1, 2, 2, 2), F64), rand((1, 2, 4, 4), F64)), up_ref(2, "sum"), name="sum_f64", scale=2,
          sample_type="nearest", multi_input_mode="sum", num_args=2),
    ],
    "_backward_UpSampling": [
        C(ins(rand((1, 2, 4, 6))), up_grad_ref(2), name="scale2", scale=2, sample_type="nearest", num_args=1),
        C(ins(rand((2, 1, 3, 3), F64)), up_grad_ref(3), name="scale3_f64", scale=3, sample_type="nearest",
          num_args=1),
    ],
    "SequenceMask": [
        C(ins(rand((4, 3, 2))), seq_mask_ref(), name="no_length"),
        C(ins(rand((4, 3, 2)), seq_lengths(3, 4)), seq_mask_ref(value=-1.0), name="lengths_axis0",
          use_sequence_length=True, value=-1.0),
        C(ins(rand((3, 5), F64), seq_lengths(3, 5, np.int32)), seq_mask_ref(axis=1), name="axis1_int_lengths",
          use_sequence_length=True, axis=1),
    ],
    "_backward_SequenceMask": [
        C(ins(rand((4, 3, 2))), seq_mask_grad_ref(), name="no_length"),
        C(ins(rand((4, 3)), seq_lengths(3, 4)), seq_mask_grad_ref(), name="lengths", use_sequence_length=True),
        C(ins(rand((3, 4, 2)), seq_lengths(3, 4)), seq_mask_grad_ref(axis=1), name="lengths_axis1",
          use_sequence_length=True, axis=1),
    ],
    "SequenceLast": [
        C(ins(rand((4, 3, 2))), seq_last_ref(), name="no_length"),
        C(ins(rand((4, 3, 2)), seq_lengths(3, 4)), seq_last_ref(), name="lengths", use_sequence_length=True),
        C(ins(rand((3, 5), F64), seq_lengths(3, 5, F64)), seq_last_ref(axis=1), name="axis1",
          use_sequence_length=True, axis=1),
    ],
    "_backward_SequenceLast": [
        C(seq_last_grad_inputs((4, 3, 2), 0, False), seq_last_grad_ref(), name="no_length"),
        C(seq_last_grad_inputs((4, 3, 2), 0, True), seq_last_grad_ref(), name="lengths", use_sequence_length=True),
        C(seq_last_grad_inputs((3, 5), 1, True), seq_last_grad_ref(axis=1), name="axis1", use_sequence_length=True,
          axis=1),
    ],
}
