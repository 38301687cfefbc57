"""Cases of the np.linalg operators (core/op/linalg/np_*.cc): _npi_svd,
_npi_solve, _npi_eig, _npi_eigvals and the backward ops of svd and solve,
float32 and float64, against NumPy. The SVD reference applies the ops' sign
rule (Note [SVD signs] in core/op/linalg/np_linalg_rules.h); the backward
references are NumPy writings of the rules, checked against finite
differences in tests/python/test_np_linalg.py."""
import numpy as np

from .nn_ref import F32, F64, C, derived, ins, rand
from .linalg import well_conditioned

TOL32 = dict(rtol=1e-4, atol=1e-5)


def svd_ref(a):
    """NumPy's thin SVD with each row of V's largest-magnitude entry positive."""
    u, s, v = np.linalg.svd(a.astype(F64), full_matrices=False)
    idx = np.argmax(np.abs(v), axis=-1)[..., None]
    sign = np.sign(np.take_along_axis(v, idx, axis=-1))
    sign[sign == 0] = 1
    return ((u * np.swapaxes(sign, -1, -2)).astype(a.dtype), s.astype(a.dtype), (v * sign).astype(a.dtype))


def svd_backward_ref(du, ds, dv, u, s, v):
    """The real thin-SVD gradient (np_linalg_rules.h's SvdBackward), vectorised."""
    dtype = u.dtype
    f = lambda x: x.astype(F64)  # noqa: E731
    du, ds, dv, u, s, v = map(f, (du, ds, dv, u, s, v))
    m, k, n = u.shape[-2], s.shape[-1], v.shape[-1]
    sw = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
    J, K = sw(u) @ du, v @ sw(dv)
    e = s[..., None, :] ** 2 - s[..., :, None] ** 2
    e[..., np.arange(k), np.arange(k)] = 1
    inner = ((J - sw(J)) * s[..., None, :] + s[..., :, None] * (K - sw(K))) / e
    inner = inner * (1 - np.eye(k)) + ds[..., :, None] * np.eye(k)
    g = u @ inner @ v
    if m > k:
        g = g + (du - u @ J) / s[..., None, :] @ v
    elif n > k:
        g = g + u @ ((dv - sw(K) @ v) / s[..., :, None])
    return g.astype(dtype)


def svd_grad_inputs(shape, dtype):
    def make(rng):
        a = rng.uniform(-1, 1, size=shape)
        u, s, v = svd_ref(a)
        heads = [rng.uniform(-1, 1, size=u.shape), rng.uniform(-1, 1, size=s.shape),
                 rng.uniform(-1, 1, size=v.shape)]
        return [x.astype(dtype) for x in heads + [u, s, v]]
    return make


def solve_ref(a, b):
    a64, b64 = a.astype(F64), b.astype(F64)
    if b.ndim == a.ndim - 1:
        return np.linalg.solve(a64, b64[..., None])[..., 0].astype(a.dtype)
    return np.linalg.solve(a64, b64).astype(a.dtype)


def solve_backward_ref(g, a, x):
    vec = x.ndim == a.ndim - 1
    g2 = g[..., None] if vec else g
    x2 = x[..., None] if vec else x
    db = np.linalg.solve(np.swapaxes(a.astype(F64), -1, -2), g2.astype(F64))
    da = -db @ np.swapaxes(x2.astype(F64), -1, -2)
    return da.astype(a.dtype), (db[..., 0] if vec else db).astype(a.dtype)


def real_eig_matrix(shape, dtype):
    """P diag(d) P^-1 with distinct real d: real eigenvalues, a non-symmetric matrix."""
    def make(rng):
        n = shape[-1]
        p = rng.uniform(-1, 1, size=shape) + 2 * n ** 0.5 * np.eye(n)
        d = np.sort(rng.uniform(1, 3, size=shape[:-1]), axis=-1) + np.arange(n)
        return (p * d[..., None, :] @ np.linalg.inv(p)).astype(dtype)
    return make


def eigvals_ref(a):
    return np.sort(np.linalg.eigvals(a.astype(F64)).real, axis=-1).astype(a.dtype)


def check_eig(got, xs, attrs):
    """w sorted matches NumPy's; A v = v diag(w) with unit columns."""
    a = xs[0].astype(F64)
    w, v = got[0].astype(F64), got[1].astype(F64)
    tol = 1e-3 if xs[0].dtype == F32 else 1e-9
    np.testing.assert_allclose(np.sort(w, axis=-1), eigvals_ref(a), rtol=tol, atol=tol)
    np.testing.assert_allclose(a @ v, v * w[..., None, :], rtol=tol, atol=tol * 10)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, rtol=tol)


def check_eigvals(got, xs, attrs):
    tol = 1e-3 if xs[0].dtype == F32 else 1e-9
    np.testing.assert_allclose(np.sort(got[0], axis=-1), eigvals_ref(xs[0]), rtol=tol, atol=tol)


def C_check(inputs, check, name=""):
    c = C(inputs, None, name=name)
    c.check = check
    return c


def with_rhs(a_maker, b_shape, dtype):
    return derived(ins(a_maker), lambda rng, a: [a, rng.uniform(-1, 1, size=b_shape).astype(dtype)])


CASES = {
    "_npi_svd": [
        C(ins(rand((4, 6), F64)), svd_ref, rtol=1e-9, atol=1e-10),
        C(ins(rand((2, 5, 3), F32)), svd_ref, name="batch tall float32", **TOL32),
        C(ins(rand((0, 3, 3), F64)), svd_ref, name="empty batch"),
    ],
    "_backward_npi_svd": [
        C(svd_grad_inputs((3, 5), F64), svd_backward_ref, rtol=1e-8, atol=1e-9),
        C(svd_grad_inputs((2, 4, 3), F32), svd_backward_ref, name="batch tall float32", rtol=1e-3, atol=1e-4),
    ],
    "_npi_solve": [
        C(with_rhs(well_conditioned((4, 4)), (4, 2), F64), solve_ref),
        C(with_rhs(well_conditioned((2, 3, 3), F32), (2, 3), F32), solve_ref, name="batch of vectors float32",
          **TOL32),
        C(with_rhs(well_conditioned((0, 3, 3)), (0, 3, 1), F64), solve_ref, name="empty batch"),
    ],
    "_backward_npi_solve": [
        C(derived(ins(well_conditioned((3, 3))), lambda rng, a: [rng.uniform(-1, 1, size=(3, 2)), a,
                                                                  rng.uniform(-1, 1, size=(3, 2))]),
          solve_backward_ref),
        C(derived(ins(well_conditioned((2, 4, 4), F32)),
                  lambda rng, a: [rng.uniform(-1, 1, size=(2, 4)).astype(F32), a,
                                  rng.uniform(-1, 1, size=(2, 4)).astype(F32)]),
          solve_backward_ref, name="batch of vectors float32", **TOL32),
    ],
    "_npi_eig": [
        C_check(ins(real_eig_matrix((4, 4), F64)), check_eig),
        C_check(ins(real_eig_matrix((2, 3, 3), F32)), check_eig, name="batch float32"),
    ],
    "_npi_eigvals": [
        C_check(ins(real_eig_matrix((3, 3), F64)), check_eigvals),
        C_check(ins(real_eig_matrix((2, 4, 4), F32)), check_eigvals, name="batch float32"),
    ],
}
