"""Cases of the linalg family (core/op/linalg): gemm, gemm2 (with axis), trmm,
trsm, syrk, potrf, potri, gelqf, syevd, inverse, det, slogdet, sumlogdiag and
the diagonal/triangle extract/make ops, float32 and float64, against NumPy
(references written from MXNet's documented formulas). Gradients are checked
by finite differences in tests/python/test_linalg_grad.py."""
import numpy as np

from .nn_ref import F32, F64, C, ins, rand


def spd(shape, dtype=F64):
    """Symmetric positive-definite matrices (batch..., n, n)."""
    def make(rng):
        m = rng.uniform(-1, 1, size=shape)
        n = shape[-1]
        return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dtype)
    return make


def lower_factor(shape, dtype=F64, lower=True):
    """Triangular matrices with a diagonal away from zero (the other triangle random: it must be ignored)."""
    def make(rng):
        m = rng.uniform(-1, 1, size=shape)
        n = shape[-1]
        d = np.arange(n)
        m[..., d, d] = rng.uniform(1.0, 2.0, size=shape[:-1])
        return m.astype(dtype)
    return make


def well_conditioned(shape, dtype=F64):
    def make(rng):
        n = shape[-1]
        return (rng.uniform(-1, 1, size=shape) + 2 * n ** 0.5 * np.eye(n) * rng.choice([-1, 1])).astype(dtype)
    return make


def lu_ref(a):
    """The hidden outputs of det/slogdet: P A = L U per matrix, packed row-major (L unit lower below the
    diagonal, U on and above), and the pivots as LAPACK's getrf gives them (1-based, int32)."""
    a = np.asarray(a, dtype=F64)
    n = a.shape[-1]
    flat = a.reshape(-1, n, n).copy()
    piv = np.zeros(flat.shape[:-1], dtype=np.int32)
    for m, w in enumerate(flat):
        for k in range(n):
            p = k + int(np.argmax(np.abs(w[k:, k])))
            piv[m, k] = p + 1
            w[[k, p]] = w[[p, k]]
            if w[k, k] != 0:
                w[k + 1:, k] /= w[k, k]
                w[k + 1:, k + 1:] -= np.outer(w[k + 1:, k], w[k, k + 1:])
    return flat.reshape(a.shape), piv.reshape(a.shape[:-1])


def a_from_lu(lu, piv):
    """A = P^-1 L U back from lu_ref's packing."""
    n = lu.shape[-1]
    out = []
    for w, p in zip(lu.reshape(-1, n, n).astype(F64), piv.reshape(-1, n)):
        a = (np.tril(w, -1) + np.eye(n)) @ np.triu(w)
        for k in reversed(range(n)):
            a[[k, p[k] - 1]] = a[[p[k] - 1, k]]
        out.append(a)
    return np.array(out).reshape(lu.shape)


def det_grad_inputs(shape, dtype, slog):
    """(out_grad, det | sign_grad, logabsdet_grad, LU, pivot) for the det/slogdet backward ops."""
    def make(rng):
        a = well_conditioned(shape, F64)(rng)
        lu, piv = lu_ref(a)
        per = shape[:-2] or (1,)
        g = rng.uniform(-1, 1, size=per)
        second = rng.uniform(-1, 1, size=per) if slog else np.linalg.det(a).reshape(per)
        return [g.astype(dtype), second.astype(dtype), lu.astype(dtype), piv]
    return make


def det_grad_ref(slog):
    def ref(g0, g1, lu, piv):
        a = a_from_lu(lu, piv)
        scale = g1 if slog else g0.astype(F64) * g1
        inv_t = np.swapaxes(np.linalg.inv(a), -1, -2)
        return (inv_t * scale.reshape(a.shape[:-2] + (1, 1) if a.ndim > 2 else (1, 1))).astype(lu.dtype)
    return ref


def tri(a, lower):
    return np.tril(a) if lower else np.triu(a)


def op_t(a, t):
    return np.swapaxes(a, -1, -2) if t else a


def per_matrix(v, a):
    return v.reshape(1) if a.ndim == 2 else v


def gemm_ref(mac):
    def ref(*xs, transpose_a=False, transpose_b=False, alpha=1.0, beta=1.0, axis=-2):
        a, b = xs[0].astype(F64), xs[1].astype(F64)
        a, b = np.swapaxes(a, axis, -2), np.swapaxes(b, axis, -2)
        o = alpha * op_t(a, transpose_a) @ op_t(b, transpose_b)
        if mac:
            o = o + beta * np.swapaxes(xs[2].astype(F64), axis, -2)
        return np.swapaxes(o, axis, -2).astype(xs[0].dtype)
    return ref


def case(inputs, ref, rtol=1e-5, atol=1e-6, name="", **attrs):
    c = C(inputs, ref, name=name, rtol=rtol, atol=atol, **attrs)
    c.ref_takes_attrs = True
    return c


def trmm_ref(a, b, transpose=False, rightside=False, lower=True, alpha=1.0):
    m = op_t(tri(a.astype(F64), lower), transpose)
    o = alpha * (b.astype(F64) @ m if rightside else m @ b.astype(F64))
    return o.astype(a.dtype)


def trsm_ref(a, b, transpose=False, rightside=False, lower=True, alpha=1.0):
    m = op_t(tri(a.astype(F64), lower), transpose)
    bb = alpha * b.astype(F64)
    o = np.swapaxes(np.linalg.solve(np.swapaxes(m, -1, -2), np.swapaxes(bb, -1, -2)), -1, -2) if rightside \
        else np.linalg.solve(m, bb)
    return o.astype(a.dtype)


def syrk_ref(a, transpose=False, alpha=1.0):
    x = a.astype(F64)
    o = alpha * (np.swapaxes(x, -1, -2) @ x if transpose else x @ np.swapaxes(x, -1, -2))
    return o.astype(a.dtype)


def potrf_ref(a, lower=True):
    x = a.astype(F64)
    s = np.tril(x) + np.swapaxes(np.tril(x, -1), -1, -2) if lower else np.triu(x) + np.swapaxes(np.triu(x, 1), -1, -2)
    l = np.linalg.cholesky(s)
    return (l if lower else np.swapaxes(l, -1, -2)).astype(a.dtype)


def potri_ref(a, lower=True):
    t = tri(a.astype(F64), lower)
    s = t @ np.swapaxes(t, -1, -2) if lower else np.swapaxes(t, -1, -2) @ t
    return np.linalg.inv(s).astype(a.dtype)


def gelqf_ref(a):
    # A = L Q with A^T = Q' R (LAPACK's Householder QR; numpy.linalg.qr calls the same geqrf/orgqr).
    x = np.asarray(a, F64)
    qs, ls = [], []
    for m in x.reshape((-1,) + x.shape[-2:]):
        q, r = np.linalg.qr(m.T)
        qs.append(q.T)
        ls.append(r.T)
    q = np.stack(qs).reshape(x.shape)
    l = np.stack(ls).reshape(x.shape[:-1] + (x.shape[-2],))
    return q.astype(a.dtype), l.astype(a.dtype)


def syevd_ref(a):
    x = np.asarray(a, F64)
    s = np.tril(x) + np.swapaxes(np.tril(x, -1), -1, -2)
    w, v = np.linalg.eigh(s)
    u = np.swapaxes(v, -1, -2)  # eigenvectors as rows
    k = np.argmax(np.abs(u), axis=-1)
    sign = np.sign(np.take_along_axis(u, k[..., None], axis=-1))
    return (u * sign).astype(a.dtype), w.astype(a.dtype)


def slogdet_ref(a):
    s, l = np.linalg.slogdet(a.astype(F64))
    return per_matrix(s, a).astype(a.dtype), per_matrix(l, a).astype(a.dtype)


def extractdiag_ref(a, offset=0):
    return np.diagonal(a, offset=offset, axis1=-2, axis2=-1).copy()


def makediag_ref(a, offset=0):
    n = a.shape[-1] + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), a.dtype)
    j = np.arange(a.shape[-1])
    r, c = (j, j + offset) if offset >= 0 else (j - offset, j)
    out[..., r, c] = a
    return out


def trian_positions(n, offset, lower):
    """(rows, cols) of the packed triangle in MXNet's order (Note [Packed triangles])."""
    k = abs(offset)
    m = n - k
    if offset < 0 or (offset == 0 and lower):
        rc = [(r + k, c) for r in range(m) for c in range(r + 1)]
    else:
        rc = [(c, r + k) for r in range(m) for c in range(r + 1)]
    return np.array([p[0] for p in rc]), np.array([p[1] for p in rc])


def extracttrian_ref(a, offset=0, lower=True):
    r, c = trian_positions(a.shape[-1], offset, lower)
    return a[..., r, c].copy()


def maketrian_ref(a, offset=0, lower=True):
    m = int(round((np.sqrt(8 * a.shape[-1] + 1) - 1) / 2))
    n = m + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), a.dtype)
    r, c = trian_positions(n, offset, lower)
    out[..., r, c] = a
    return out


TOL32 = dict(rtol=1e-4, atol=1e-5)

CASES = {
    "_linalg_gemm": [
        case(ins(rand((3, 4), F64), rand((4, 5), F64), rand((3, 5), F64)), gemm_ref(True), alpha=2.0, beta=0.5),
        case(ins(rand((2, 4, 3)), rand((2, 5, 4)), rand((2, 3, 5))), gemm_ref(True), name="transposed float32",
             transpose_a=True, transpose_b=True, **TOL32),
        case(ins(rand((2, 3, 2, 4), F64), rand((2, 4, 2, 5), F64), rand((2, 3, 2, 5), F64)), gemm_ref(True),
             name="axis=1", axis=1, beta=-1.0),
    ],
    "_linalg_gemm2": [
        case(ins(rand((3, 4), F64), rand((4, 5), F64)), gemm_ref(False), alpha=-1.5),
        case(ins(rand((2, 2, 3, 4)), rand((2, 2, 5, 4))), gemm_ref(False), name="batch, transpose_b",
             transpose_b=True, **TOL32),
        case(ins(rand((3, 2, 4), F64), rand((3, 2, 4), F64)), gemm_ref(False), name="axis=0, transpose_a",
             axis=0, transpose_a=True),
    ],
    "_linalg_trmm": [
        case(ins(rand((3, 3), F64), rand((3, 4), F64)), trmm_ref, alpha=2.0),
        case(ins(rand((2, 3, 3)), rand((2, 4, 3))), trmm_ref, name="right, upper, transposed", rightside=True,
             lower=False, transpose=True, **TOL32),
    ],
    "_linalg_trsm": [
        case(ins(lower_factor((3, 3)), rand((3, 4), F64)), trsm_ref, alpha=0.5),
        case(ins(lower_factor((2, 3, 3), F32), rand((2, 4, 3))), trsm_ref, name="right, upper, transposed",
             rightside=True, lower=False, transpose=True, **TOL32),
        case(ins(lower_factor((2, 3, 3)), rand((2, 3, 2), F64)), trsm_ref, name="left, transposed", transpose=True),
    ],
    "_linalg_syrk": [
        case(ins(rand((3, 4), F64)), syrk_ref, alpha=1.5),
        case(ins(rand((2, 3, 4))), syrk_ref, name="transposed float32", transpose=True, **TOL32),
    ],
    "_linalg_potrf": [
        case(ins(spd((4, 4))), potrf_ref),
        case(ins(spd((2, 3, 3), F32)), potrf_ref, name="upper float32", lower=False, **TOL32),
    ],
    "_linalg_potri": [
        case(ins(lower_factor((4, 4))), potri_ref),
        case(ins(lower_factor((2, 3, 3), F32)), potri_ref, name="upper float32", lower=False, **TOL32),
    ],
    "_linalg_gelqf": [
        case(ins(rand((3, 5), F64)), gelqf_ref, rtol=1e-6, atol=1e-8),
        case(ins(rand((2, 3, 3))), gelqf_ref, name="square batch float32", **TOL32),
    ],
    "_linalg_syevd": [
        case(ins(spd((4, 4))), syevd_ref, rtol=1e-6, atol=1e-8),
        case(ins(spd((2, 3, 3), F32)), syevd_ref, name="batch float32", rtol=1e-3, atol=1e-4),
    ],
    "_linalg_inverse": [
        case(ins(well_conditioned((4, 4))), lambda a: np.linalg.inv(a)),
        case(ins(well_conditioned((2, 3, 3), F32)), lambda a: np.linalg.inv(a), name="batch float32", **TOL32),
    ],
    "_linalg_det": [
        case(ins(well_conditioned((3, 3))), lambda a: per_matrix(np.linalg.det(a), a)),
        case(ins(rand((2, 2, 4, 4))), lambda a: np.linalg.det(a.astype(F64)).astype(F32), name="batch float32",
             **TOL32),
    ],
    "_linalg_slogdet": [
        case(ins(rand((3, 3), F64)), slogdet_ref),
        case(ins(rand((2, 4, 4))), slogdet_ref, name="batch float32", **TOL32),
    ],
    "_backward_linalg_det": [
        case(det_grad_inputs((3, 3), F64, False), det_grad_ref(False)),
        case(det_grad_inputs((2, 4, 4), F32, False), det_grad_ref(False), name="batch float32", **TOL32),
    ],
    "_backward_linalg_slogdet": [
        case(det_grad_inputs((2, 3, 3), F64, True), det_grad_ref(True)),
        case(det_grad_inputs((4, 4), F32, True), det_grad_ref(True), name="float32", **TOL32),
    ],
    "_linalg_sumlogdiag": [
        case(ins(spd((3, 3))), lambda a: per_matrix(np.log(np.diagonal(a, axis1=-2, axis2=-1)).sum(-1), a)),
        case(ins(spd((2, 4, 4), F32)), lambda a: np.log(np.diagonal(a, axis1=-2, axis2=-1)).sum(-1),
             name="batch float32", **TOL32),
    ],
    "_linalg_extractdiag": [
        case(ins(rand((4, 4), F64)), extractdiag_ref),
        case(ins(rand((2, 4, 4))), extractdiag_ref, name="offset -2", offset=-2),
        case(ins(rand((2, 3, 3))), extractdiag_ref, name="offset 1", offset=1),
    ],
    "_linalg_makediag": [
        case(ins(rand((3,), F64)), makediag_ref),
        case(ins(rand((2, 3))), makediag_ref, name="offset 2", offset=2),
        case(ins(rand((2, 2, 3))), makediag_ref, name="offset -1", offset=-1),
    ],
    "_linalg_extracttrian": [
        case(ins(rand((4, 4), F64)), extracttrian_ref),
        case(ins(rand((2, 4, 4))), extracttrian_ref, name="upper", lower=False),
        case(ins(rand((2, 4, 4))), extracttrian_ref, name="offset 1", offset=1),
        case(ins(rand((4, 4))), extracttrian_ref, name="offset -2", offset=-2),
    ],
    "_linalg_maketrian": [
        case(ins(rand((6,), F64)), maketrian_ref),
        case(ins(rand((2, 10))), maketrian_ref, name="upper", lower=False),
        case(ins(rand((2, 6))), maketrian_ref, name="offset 1", offset=1),
        case(ins(rand((3,))), maketrian_ref, name="offset -2", offset=-2),
    ],
}


def khatri_rao_ref(*xs, num_args=None):
    out = xs[0].astype(F64)
    for x in xs[1:]:
        out = (out[:, None, :] * x.astype(F64)[None, :, :]).reshape(-1, x.shape[1])
    return out.astype(xs[0].dtype)


CASES["khatri_rao"] = [
    case(ins(np.array([[1, -1], [2, -3]], F32), np.array([[1, 4], [2, 5], [3, 6]], F32)), khatri_rao_ref,
         name="MXNet's example", num_args=2),
    case(ins(rand((2, 3), F64), rand((3, 3), F64), rand((4, 3), F64)), khatri_rao_ref, name="three", num_args=3),
    case(ins(rand((5, 2))), khatri_rao_ref, name="one", num_args=1),
]
