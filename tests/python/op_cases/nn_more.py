"""Cases of the MXNet 1.x layers added for issue 17 (helper nn): SequenceReverse,
L2Normalization, GroupNorm, SVMOutput, IdentityAttachKLSparseReg, CTCLoss, the
BatchNorm variants (_contrib_SyncBatchNorm, _contrib_BatchNormWithReLU),
_contrib_SparseEmbedding, im2col/col2im and the interleaved attention products,
with their backward operators. References are written from MXNet's documented
formulas in float64; backward references are finite differences of those
forwards (nn_ref.fd) or, for the loss layers whose gradient ignores the head
gradient, MXNet's documented gradient. The CTC reference is the textbook
forward recursion (Graves et al. 2006), written here independently of the kernel."""
import numpy as np

from .case import Case
from .nn_misc import emb_case
from .nn_norm import bn64, bn_inputs
from .nn_ref import F16, F32, F64, C, derived, fd, ins, rand

# ---- SequenceReverse --------------------------------------------------------------------------------------


def rev64(x, lengths=None):
    x = np.asarray(x, F64)
    y = x.copy()
    for b in range(x.shape[1]):
        n = x.shape[0] if lengths is None else int(np.clip(np.trunc(lengths[b]), 0, x.shape[0]))
        y[:n, b] = x[:n, b][::-1]
    return y


def rev_ref(x, lengths=None):
    return rev64(x, lengths).astype(x.dtype)


def lengths_of(batch, max_len, dtype=F32):
    return lambda rng: rng.integers(1, max_len + 1, size=batch).astype(dtype)

# ---- L2Normalization --------------------------------------------------------------------------------------


def l2_axes(ndim, mode):
    return {"instance": tuple(range(1, ndim)), "channel": (1,), "spatial": tuple(range(2, ndim))}[mode]


def l2_64(x, mode="instance", eps=1e-10):
    x = np.asarray(x, F64)
    return x / np.sqrt((x * x).sum(axis=l2_axes(x.ndim, mode), keepdims=True) + eps)


def l2_ref(mode="instance", eps=1e-10):
    return lambda x: l2_64(x, mode, eps).astype(x.dtype)


def l2_grad_inputs(shape, mode, eps=1e-10):
    def derive(rng, x):
        norm = np.sqrt((x * x).sum(axis=l2_axes(x.ndim, mode), keepdims=True) + eps)
        norm_out = norm.reshape({"instance": (shape[0],), "channel": norm.shape,
                                 "spatial": (shape[0], shape[1])}[mode])
        return [rng.uniform(-1, 1, size=shape), x / norm, norm_out]
    return derived(ins(rand(shape, F64)), derive)


def l2_grad_ref(mode, eps=1e-10):
    def ref(gy, y, norm):
        shape = [1] * y.ndim
        if mode == "instance":
            shape[0] = -1
        elif mode == "spatial":
            shape[0], shape[1] = y.shape[0], y.shape[1]
        else:
            shape = list(norm.shape)
        nb = np.asarray(norm).reshape(shape)
        x = y * np.sqrt(nb ** 2 - eps)  # the input the forward normalised
        return fd(lambda a: l2_64(a, mode, eps), [x], 0, gy)
    return ref

# ---- GroupNorm ---------------------------------------------------------------------------------------------


def gn_stats(x, groups, eps):
    g = np.asarray(x, F64).reshape(x.shape[0], groups, -1)
    mean = g.mean(axis=2)
    std = np.sqrt(g.var(axis=2) + eps)
    return mean, std


def gn64(x, gamma, beta, num_groups=1, eps=1e-5):
    x = np.asarray(x, F64)
    g = x.reshape(x.shape[0], num_groups, -1)
    y = (g - g.mean(axis=2, keepdims=True)) / np.sqrt(g.var(axis=2, keepdims=True) + eps)
    y = y * np.asarray(gamma, F64).reshape(1, -1, 1) + np.asarray(beta, F64).reshape(1, -1, 1)
    return y.reshape(x.shape)


def gn_ref(num_groups=1, eps=1e-5, three=False):
    def ref(x, gamma, beta):
        y = gn64(x, gamma, beta, num_groups, eps).astype(x.dtype)
        if not three:
            return y
        mean, std = gn_stats(x, num_groups, eps)
        return y, mean.astype(x.dtype), std.astype(x.dtype)
    return ref


def gn_inputs(shape, groups, dtype=F32):
    return ins(rand(shape, dtype, -2, 2), rand((groups,), dtype, 0.5, 1.5), rand((groups,), dtype))


def gn_grad_inputs(shape, groups, eps=1e-5):
    def derive(rng, x, gamma, beta):
        mean, std = gn_stats(x, groups, eps)
        return [rng.uniform(-1, 1, size=shape), x, gamma, mean, std]
    return derived(gn_inputs(shape, groups, F64), derive)


def gn_grad_ref(groups, eps=1e-5):
    def ref(gy, x, gamma, mean, std):
        f = lambda a, g, b: gn64(a, g, b, groups, eps)  # noqa: E731
        beta = np.zeros_like(gamma)
        return tuple(fd(f, [x, gamma, beta], i, gy) for i in range(3))
    return ref

# ---- SVMOutput ---------------------------------------------------------------------------------------------


def svm_grad64(label, out, margin=1.0, regularization_coefficient=1.0, use_linear=False):
    o = np.asarray(out, F64).reshape(-1, out.shape[-1])
    k = np.asarray(label, F64).reshape(-1).astype(np.int64)
    onehot = np.zeros_like(o, dtype=bool)
    onehot[np.arange(o.shape[0]), k] = True
    reg = regularization_coefficient
    if use_linear:
        g = np.where(onehot, -reg * (margin > o), reg * (margin > -o))
    else:
        g = np.where(onehot, np.where(margin > o, -2 * reg * (margin - o), 0.0),
                     np.where(margin > -o, 2 * reg * (margin + o), 0.0))
    return g.reshape(out.shape)


def svm_grad_ref(**kw):
    return lambda label, out: (svm_grad64(label, out, **kw).astype(out.dtype), np.zeros_like(label))


def svm_grad_inputs(shape, dtype=F32):
    def make(rng):
        label = rng.integers(0, shape[-1], size=shape[:-1]).astype(dtype)
        return [label, rng.uniform(-2, 2, size=shape).astype(dtype)]
    return make

def svm_inputs(shape, dtype=F32):
    """(data, label) for the forward."""
    return lambda rng: svm_grad_inputs(shape, dtype)(rng)[::-1]

# ---- IdentityAttachKLSparseReg ------------------------------------------------------------------------------


def kl_grad_ref(sparseness_target=0.1, penalty=0.001, momentum=0.9):
    def ref(gy, x, avg):
        ma = momentum * np.asarray(avg, F64) + (1 - momentum) * np.asarray(x, F64).mean(axis=0)
        g = np.asarray(gy, F64) + penalty * (-sparseness_target / ma + (1 - sparseness_target) / (1 - ma))
        return g.astype(gy.dtype)
    return ref


def kl_grad_inputs(shape, dtype=F32):
    return ins(rand(shape, dtype), rand(shape, dtype, 0.05, 0.95), rand(shape[1:2], dtype, 0.2, 0.8))

# ---- CTCLoss ------------------------------------------------------------------------------------------------


def ctc_nll(x, label, blank):
    """-log p(label | x) for one sequence: x (T, C) activations, label a list of
    channels. The forward recursion over the blank-extended label, in log space."""
    x = np.asarray(x, F64)
    logp = x - np.logaddexp.reduce(x, axis=1, keepdims=True)
    ext = [blank]
    for c in label:
        ext += [int(c), blank]
    S, T = len(ext), x.shape[0]
    if T == 0:
        return np.inf
    alpha = np.full(S, -np.inf)
    alpha[0] = logp[0, ext[0]]
    if S > 1:
        alpha[1] = logp[0, ext[1]]
    for t in range(1, T):
        prev = alpha.copy()
        for s in range(S):
            a = prev[s]
            if s >= 1:
                a = np.logaddexp(a, prev[s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                a = np.logaddexp(a, prev[s - 2])
            alpha[s] = a + logp[t, ext[s]]
    total = alpha[S - 1] if S == 1 else np.logaddexp(alpha[S - 1], alpha[S - 2])
    return -total


def ctc64(data, label, data_lengths=None, label_lengths=None, blank_label="first"):
    T, N, Cn = data.shape
    blank, pad = (0, 0) if blank_label == "first" else (Cn - 1, -1)
    out = np.zeros(N)
    for b in range(N):
        tb = T if data_lengths is None else int(data_lengths[b])
        lab = list(np.asarray(label[b]).astype(np.int64))
        if label_lengths is None:
            lab = lab[:lab.index(pad)] if pad in lab else lab
        else:
            lab = lab[:int(label_lengths[b])]
        out[b] = ctc_nll(data[:tb, b], lab, blank)
    return out


def ctc_ref(use_data_lengths=False, use_label_lengths=False, blank_label="first"):
    def ref(data, label, *lengths):
        lengths = list(lengths)
        dl = lengths.pop(0) if use_data_lengths else None
        ll = lengths.pop(0) if use_label_lengths else None
        return ctc64(data, label, dl, ll, blank_label).astype(data.dtype)
    return ref


def ctc_grad_ref(og, grad, label, *lengths):
    g = np.asarray(grad, F64) * np.asarray(og, F64).reshape(1, -1, 1)
    return (g.astype(grad.dtype), np.zeros_like(label)) + tuple(np.zeros_like(n) for n in lengths)

# ---- im2col / col2im --------------------------------------------------------------------------------------


def win(kernel, stride=None, dilate=None, pad=None):
    nd = len(kernel)
    return (list(kernel), list(stride or [1] * nd), list(dilate or [1] * nd), list(pad or [0] * nd))


def col_pairs(img_shape, kernel, stride=None, dilate=None, pad=None):
    """(column row, column index, image position) triples of im2col, by brute force."""
    k, s, d, p = win(kernel, stride, dilate, pad)
    spatial = img_shape[2:]
    out = [(spatial[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(len(k))]
    pairs = []
    for ki, koff in enumerate(np.ndindex(*k)):
        for li, opos in enumerate(np.ndindex(*out)):
            pos = tuple(opos[i] * s[i] - p[i] + koff[i] * d[i] for i in range(len(k)))
            if all(0 <= pos[i] < spatial[i] for i in range(len(k))):
                pairs.append((ki, li, pos))
    return int(np.prod(k)), int(np.prod(out)), pairs


def im2col64(x, kernel, stride=None, dilate=None, pad=None):
    x = np.asarray(x, F64)
    n, c = x.shape[:2]
    K, L, pairs = col_pairs(x.shape, kernel, stride, dilate, pad)
    col = np.zeros((n, c, K, L))
    for ki, li, pos in pairs:
        col[:, :, ki, li] = x[(slice(None), slice(None)) + pos]
    return col.reshape(n, c * K, L)


def col2im64(col, output_size, kernel, stride=None, dilate=None, pad=None):
    col = np.asarray(col, F64)
    K = int(np.prod(kernel))
    n, c = col.shape[0], col.shape[1] // K
    shape = (n, c) + tuple(output_size)
    _, L, pairs = col_pairs(shape, kernel, stride, dilate, pad)
    col = col.reshape(n, c, K, L)
    img = np.zeros(shape)
    for ki, li, pos in pairs:
        img[(slice(None), slice(None)) + pos] += col[:, :, ki, li]
    return img


def im2col_ref(**kw):
    return lambda x: im2col64(x, **kw).astype(x.dtype)


def col2im_ref(**kw):
    return lambda col: col2im64(col, **kw).astype(col.dtype)


def im2col_grad_ref(**kw):
    return lambda gy, x: col2im64(gy, x.shape[2:], **kw).astype(gy.dtype)

# ---- interleaved attention products -------------------------------------------------------------------------


def heads_of(x, heads, parts):
    """(L, B, parts*H*D) -> parts arrays (B*H, L, D) per MXNet's interleaved layout."""
    L, B, W = x.shape
    t = np.asarray(x, F64).reshape(L, B, heads, parts, W // (heads * parts))
    return [t[:, :, :, j, :].transpose(1, 2, 0, 3).reshape(B * heads, L, -1) for j in range(parts)]


def merge_heads(o, B, heads):
    """(B*H, L, D) -> (L, B, H*D)."""
    BH, L, D = o.shape
    return o.reshape(B, heads, L, D).transpose(2, 0, 1, 3).reshape(L, B, heads * D)


def selfatt_qk64(qkv, heads):
    q, k, _ = heads_of(qkv, heads, 3)
    return np.matmul(q / np.sqrt(q.shape[-1]), k.transpose(0, 2, 1))


def selfatt_valatt64(qkv, att, heads):
    _, _, v = heads_of(qkv, heads, 3)
    return merge_heads(np.matmul(np.asarray(att, F64), v), qkv.shape[1], heads)


def encdec_qk64(q, kv, heads):
    (qh,) = heads_of(q, heads, 1)
    k, _ = heads_of(kv, heads, 2)
    return np.matmul(qh / np.sqrt(qh.shape[-1]), k.transpose(0, 2, 1))


def encdec_valatt64(kv, att, heads):
    _, v = heads_of(kv, heads, 2)
    return merge_heads(np.matmul(np.asarray(att, F64), v), kv.shape[1], heads)


def att_ref(f, heads):
    return lambda *xs: f(*xs, heads).astype(xs[0].dtype)


def att_grad_ref(f, heads):
    def ref(gy, *xs):
        g = lambda *a: f(*a, heads)  # noqa: E731
        return tuple(fd(g, list(xs), i, gy) for i in range(len(xs)))
    return ref


def att_grad_inputs(f, heads, shapes):
    def derive(rng, *xs):
        return [rng.uniform(-1, 1, size=f(*xs, heads).shape)] + list(xs)
    return derived(ins(*[rand(s, F64) for s in shapes]), derive)


SELF_QKV = (3, 2, 12)    # L=3, B=2, heads=2, D=2
ENC_Q, ENC_KV = (3, 2, 4), (4, 2, 8)  # Lq=3, Lk=4, B=2, heads=2, D=2

# ---- the BatchNorm variants -----------------------------------------------------------------------------


def bn_ref_relu(**kw):
    return lambda x, g, b, mm, mv: np.maximum(bn64(x, g, b, mm, mv, **kw), 0).astype(x.dtype)


def bn_ref_plain(**kw):
    return lambda x, g, b, mm, mv: bn64(x, g, b, mm, mv, **kw).astype(x.dtype)


CASES = {
    "SequenceReverse": [
        C(ins(rand((4, 3, 2))), rev_ref, name="no_length"),
        C(ins(rand((5, 3, 2)), lengths_of(3, 5)), rev_ref, name="lengths", use_sequence_length=True),
        C(ins(rand((4, 2), F64), np.array([2, 4], np.int32)), rev_ref, name="2d_int_lengths_f64",
          use_sequence_length=True),
        C(ins(rand((3, 2, 2), F16), np.array([1, 3], F32)), rev_ref, name="float16", use_sequence_length=True),
        C(ins(np.arange(12, dtype=np.int32).reshape(4, 3), np.array([4, 2, 0], np.int64)), rev_ref, name="int32",
          use_sequence_length=True),
    ],
    "L2Normalization": [
        C(ins(rand((3, 4))), l2_ref(), name="instance_2d"),
        C(ins(rand((2, 3, 4))), l2_ref(), name="instance_3d"),
        C(ins(rand((2, 3, 2, 2), F64)), l2_ref("channel"), name="channel_f64", mode="channel"),
        C(ins(rand((2, 3, 4))), l2_ref("spatial", 1e-3), name="spatial_eps", mode="spatial", eps=1e-3),
        C(ins(rand((2, 5), F16)), l2_ref(), name="float16", rtol=2e-3, atol=2e-3),
    ],
    "_backward_L2Normalization": [
        C(l2_grad_inputs((3, 4), "instance"), l2_grad_ref("instance"), name="instance", rtol=1e-5, atol=1e-7),
        C(l2_grad_inputs((2, 3, 2), "channel"), l2_grad_ref("channel"), name="channel", rtol=1e-5, atol=1e-7,
          mode="channel"),
        C(l2_grad_inputs((2, 2, 3), "spatial"), l2_grad_ref("spatial"), name="spatial", rtol=1e-5, atol=1e-7,
          mode="spatial"),
    ],
    "GroupNorm": [
        C(gn_inputs((2, 4, 3), 2), gn_ref(2), name="3d_two_groups", num_groups=2),
        C(gn_inputs((2, 6, 2, 2), 3, F64), gn_ref(3, 1e-3), name="4d_f64_eps", num_groups=3, eps=1e-3),
        C(gn_inputs((3, 4), 1), gn_ref(1), name="2d_one_group"),
        C(gn_inputs((2, 4, 3), 4), gn_ref(4, three=True), name="output_mean_var", num_groups=4,
          output_mean_var=True),
        C(gn_inputs((2, 4, 4), 2, F16), gn_ref(2), name="float16", rtol=5e-3, atol=5e-3, num_groups=2),
    ],
    "_backward_GroupNorm": [
        C(gn_grad_inputs((2, 4, 3), 2), gn_grad_ref(2), name="two_groups", rtol=1e-5, atol=1e-7, num_groups=2),
        C(gn_grad_inputs((2, 3, 2, 2), 3), gn_grad_ref(3), name="instance_like", rtol=1e-5, atol=1e-7,
          num_groups=3),
    ],
    "SVMOutput": [
        C(svm_inputs((3, 4)), lambda x, label: x, name="identity_forward"),
        C(svm_inputs((2, 3, 5), F64), lambda x, label: x, name="3d_f64", use_linear=True),
    ],
    "_backward_SVMOutput": [
        C(svm_grad_inputs((4, 5)), svm_grad_ref(), name="l2"),
        C(svm_grad_inputs((4, 3), F64), svm_grad_ref(use_linear=True, margin=0.5, regularization_coefficient=2.0),
          name="l1_margin_reg", use_linear=True, margin=0.5, regularization_coefficient=2.0),
        C(svm_grad_inputs((2, 2, 3)), svm_grad_ref(margin=1.5), name="3d", margin=1.5),
    ],
    "IdentityAttachKLSparseReg": [
        C(ins(rand((3, 4), F32, 0.1, 0.9), rand((4,), F32, 0.2, 0.8)), lambda x, avg: x, name="identity"),
    ],
    "_backward_IdentityAttachKLSparseReg": [
        C(kl_grad_inputs((3, 4)), kl_grad_ref(), name="defaults", rtol=1e-5, atol=1e-6),
        C(kl_grad_inputs((5, 2), F64), kl_grad_ref(0.2, 0.5, 0.5), name="params_f64", sparseness_target=0.2,
          penalty=0.5, momentum=0.5),
    ],
    "CTCLoss": [
        C(ins(rand((6, 2, 4), F32, -2, 2), np.array([[1, 2], [3, 0]], F32)), ctc_ref(), name="first_padded",
          rtol=1e-5, atol=1e-5),
        C(ins(rand((5, 3, 4), F64, -2, 2), np.array([[0, 0, 1], [2, -1, -1], [1, 2, 2]], F64)),
          ctc_ref(blank_label="last"), name="last_repeats_f64", blank_label="last"),
        C(ins(rand((6, 2, 5), F32, -2, 2), np.array([[1, 2, 3], [4, 4, 1]], np.int32), np.array([6, 4], F32),
              np.array([2, 3], F32)),
          ctc_ref(True, True), name="both_lengths", rtol=1e-5, atol=1e-5, use_data_lengths=True,
          use_label_lengths=True),
    ],
    "_backward_ctc_loss": [
        C(ins(rand((2,)), rand((4, 2, 3)), np.array([[1, 2], [2, 0]], F32)), ctc_grad_ref, name="scaled"),
        C(ins(rand((2,), F64), rand((3, 2, 3), F64), np.array([[1], [0]], F64), np.array([3, 2], F64)),
          ctc_grad_ref, name="data_lengths", use_data_lengths=True),
    ],
    "im2col": [
        C(ins(rand((2, 2, 4, 5))), im2col_ref(kernel=(2, 3)), name="2d", kernel=(2, 3)),
        C(ins(rand((1, 3, 5, 5), F64)), im2col_ref(kernel=(3, 3), stride=(2, 2), pad=(1, 1), dilate=(1, 2)),
          name="stride_pad_dilate_f64", kernel=(3, 3), stride=(2, 2), pad=(1, 1), dilate=(1, 2)),
        C(ins(rand((2, 2, 7))), im2col_ref(kernel=(3,), stride=(2,)), name="1d", kernel=(3,), stride=(2,)),
        C(ins(rand((1, 1, 3, 3, 4))), im2col_ref(kernel=(2, 2, 2), pad=(0, 1, 0)), name="3d", kernel=(2, 2, 2),
          pad=(0, 1, 0)),
    ],
    "_backward_im2col": [
        C(derived(ins(rand((1, 2, 4, 4))), lambda rng, x: [rng.uniform(-1, 1, size=im2col64(x, (3, 3), (1, 1), None,
                                                                                            (1, 1)).shape).astype(F32), x]),
          im2col_grad_ref(kernel=(3, 3), pad=(1, 1)), name="overlapping", kernel=(3, 3), pad=(1, 1)),
    ],
    "col2im": [
        C(ins(rand((2, 2 * 6, 4))), col2im_ref(output_size=(3, 4), kernel=(2, 3)), name="2d", output_size=(3, 4),
          kernel=(2, 3)),
        C(ins(rand((1, 9, 9), F64)), col2im_ref(output_size=(5, 5), kernel=(3, 3), stride=(2, 2), pad=(1, 1)),
          name="stride_pad_f64", output_size=(5, 5), kernel=(3, 3), stride=(2, 2), pad=(1, 1)),
        C(ins(rand((2, 6, 3))), col2im_ref(output_size=(7,), kernel=(3,), stride=(2,)), name="1d",
          output_size=(7,), kernel=(3,), stride=(2,)),
    ],
    "_contrib_interleaved_matmul_selfatt_qk": [
        C(ins(rand(SELF_QKV)), att_ref(selfatt_qk64, 2), name="two_heads", heads=2),
        C(ins(rand((2, 3, 6), F64)), att_ref(selfatt_qk64, 1), name="one_head_f64", heads=1),
    ],
    "_contrib_interleaved_matmul_selfatt_valatt": [
        C(ins(rand(SELF_QKV), rand((4, 3, 3))), att_ref(selfatt_valatt64, 2), name="two_heads", heads=2),
    ],
    "_contrib_interleaved_matmul_encdec_qk": [
        C(ins(rand(ENC_Q), rand(ENC_KV)), att_ref(encdec_qk64, 2), name="two_heads", heads=2),
    ],
    "_contrib_interleaved_matmul_encdec_valatt": [
        C(ins(rand(ENC_KV), rand((4, 3, 4))), att_ref(encdec_valatt64, 2), name="two_heads", heads=2),
        C(ins(rand((2, 1, 6), F64), rand((3, 5, 2), F64)), att_ref(encdec_valatt64, 3), name="three_heads_f64",
          heads=3),
    ],
    "_backward_interleaved_matmul_selfatt_qk": [
        C(att_grad_inputs(selfatt_qk64, 2, [SELF_QKV]), att_grad_ref(selfatt_qk64, 2), name="two_heads",
          rtol=1e-5, atol=1e-7, heads=2),
    ],
    "_backward_interleaved_matmul_selfatt_valatt": [
        C(att_grad_inputs(selfatt_valatt64, 2, [SELF_QKV, (4, 3, 3)]), att_grad_ref(selfatt_valatt64, 2),
          name="two_heads", rtol=1e-5, atol=1e-7, heads=2),
    ],
    "_backward_interleaved_matmul_encdec_qk": [
        C(att_grad_inputs(encdec_qk64, 2, [ENC_Q, ENC_KV]), att_grad_ref(encdec_qk64, 2), name="two_heads",
          rtol=1e-5, atol=1e-7, heads=2),
    ],
    "_backward_interleaved_matmul_encdec_valatt": [
        C(att_grad_inputs(encdec_valatt64, 2, [ENC_KV, (4, 3, 4)]), att_grad_ref(encdec_valatt64, 2),
          name="two_heads", rtol=1e-5, atol=1e-7, heads=2),
    ],
    "_contrib_SyncBatchNorm": [
        C(bn_inputs((2, 3, 2, 2)), bn_ref_plain(), name="default_fix_gamma", key="bn0"),
        C(bn_inputs((2, 3, 4), dtype=F64), bn_ref_plain(eps=1e-5, fix_gamma=False), name="f64_eps", key="bn1",
          fix_gamma=False, eps=1e-5, ndev=1),
    ],
    "_contrib_BatchNormWithReLU": [
        C(bn_inputs((2, 3, 2, 2)), bn_ref_relu(fix_gamma=False), name="learned_gamma", fix_gamma=False),
        C(bn_inputs((4, 3), axis=-1, dtype=F64), bn_ref_relu(fix_gamma=False, axis=-1), name="axis_last_f64",
          fix_gamma=False, axis=-1),
    ],
    "_contrib_SparseEmbedding": [
        emb_case([[0, 2], [1, 3]], 4, 3, name="dense_behaviour"),
    ],
}
