"""weft.np.linalg (issue 37): the 20 names of MXNet 1.9.1's mx.np.linalg with
its signatures and output counts, values against numpy.linalg in float32 and
float64 (batched, zero-size batches), reconstruction identities for the
decompositions, LinAlgError/ValueError/TypeError for bad input naming the
function, and autograd gradients against finite differences of weft's own
forward in float64 for the functions that are differentiated."""
import importlib
import inspect
from pathlib import Path

import numpy as onp
import pytest

import weft
from weft import autograd
from weft import np as wnp

LA = wnp.linalg
F32, F64 = onp.float32, onp.float64
TOL = {F32: dict(rtol=2e-4, atol=2e-5), F64: dict(rtol=1e-9, atol=1e-10)}
REFERENCE = (Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "mxnet-1.9.1-numpy.txt")
NAMES = ["cholesky", "cond", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq", "matrix_power",
         "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "svd", "tensorinv", "tensorsolve"]


def A(x, dtype=None):
    x = onp.asarray(x, dtype=dtype)
    return weft.nd.array(x, dtype=x.dtype).as_np_ndarray()


def H(x):
    return x.asnumpy()


def rng(seed=0):
    return onp.random.default_rng(seed)


def spd(r, shape, dtype=F64):
    m = r.uniform(-1, 1, size=shape)
    return (m @ onp.swapaxes(m, -1, -2) + shape[-1] * onp.eye(shape[-1])).astype(dtype)


def well(r, shape, dtype=F64):
    n = shape[-1]
    return (r.uniform(-1, 1, size=shape) + 2 * n ** 0.5 * onp.eye(n)).astype(dtype)


# ---- names and signatures ----

def test_names_and_module_paths():
    assert importlib.import_module("weft.numpy.linalg") is LA
    assert importlib.import_module("weft.np.linalg") is LA
    for name in NAMES:
        assert callable(getattr(LA, name)), name
    assert sorted(set(NAMES) & set(LA.__all__)) == NAMES


@pytest.mark.skipif(not REFERENCE.is_file(), reason="the MXNet 1.9.1 name list is not beside the repository")
def test_every_reference_name_exists():
    listed = [line.split()[1] for line in REFERENCE.read_text().splitlines()
              if line.split() and line.split()[0] == "mx.np.linalg"]
    assert len(listed) == 20
    assert [n for n in listed if not hasattr(LA, n)] == []


def test_mxnet_signatures():
    sig = lambda f: str(inspect.signature(f))  # noqa: E731
    assert sig(LA.svd) == "(a)"
    assert sig(LA.eigh) == "(a, UPLO='L')" and sig(LA.eigvalsh) == "(a, UPLO='L')"
    assert sig(LA.norm) == "(x, ord=None, axis=None, keepdims=False)"
    assert sig(LA.lstsq) == "(a, b, rcond='warn')"
    assert sig(LA.qr) == "(a, mode='reduced')"
    assert sig(LA.pinv) == "(a, rcond=1e-15, hermitian=False)"
    assert sig(LA.matrix_rank) == "(M, tol=None, hermitian=False)"
    assert sig(LA.tensorinv) == "(a, ind=2)" and sig(LA.tensorsolve) == "(a, b, axes=None)"


# ---- values against numpy.linalg ----

@pytest.mark.parametrize("dtype", [F32, F64])
def test_square_functions_match_numpy(dtype):
    r = rng(1)
    a, s = well(r, (3, 4, 4), dtype), spd(r, (2, 3, 3), dtype)
    a64, s64 = a.astype(F64), s.astype(F64)
    t = TOL[dtype]
    for got, want in [(LA.inv(A(a)), onp.linalg.inv(a64)), (LA.det(A(a)), onp.linalg.det(a64)),
                      (LA.cholesky(A(s)), onp.linalg.cholesky(s64)), (LA.eigvalsh(A(s)), onp.linalg.eigvalsh(s64)),
                      (LA.slogdet(A(a))[1], onp.linalg.slogdet(a64)[1]),
                      (LA.slogdet(A(a))[0], onp.linalg.slogdet(a64)[0]),
                      (LA.matrix_power(A(a), 3), onp.linalg.matrix_power(a64, 3)),
                      (LA.matrix_power(A(a), -2), onp.linalg.matrix_power(a64, -2)),
                      (LA.matrix_power(A(a), 0), onp.linalg.matrix_power(a64, 0))]:
        assert type(got) is wnp.ndarray and got.dtype == dtype
        onp.testing.assert_allclose(H(got), want, rtol=t["rtol"] * 10, atol=t["atol"] * 10)
    assert LA.det(A(a[0])).shape == () and LA.slogdet(A(a[0]))[1].shape == ()
    onp.testing.assert_allclose(H(LA.det(A(a[0]))), onp.linalg.det(a64[0]), rtol=t["rtol"])


@pytest.mark.parametrize("dtype", [F32, F64])
def test_eigh_reconstructs_and_matches(dtype):
    r = rng(2)
    s = spd(r, (2, 4, 4), dtype)
    s_up = s.copy()
    s_up[..., onp.tril_indices(4, -1)[0], onp.tril_indices(4, -1)[1]] = 7.0  # junk below: UPLO='U' ignores it
    t = TOL[dtype]
    for arr, uplo in [(s, "L"), (s_up, "U")]:
        w, v = LA.eigh(A(arr), UPLO=uplo)
        w, v = H(w).astype(F64), H(v).astype(F64)
        onp.testing.assert_allclose(w, onp.linalg.eigvalsh(s.astype(F64)), rtol=t["rtol"] * 10, atol=t["atol"] * 10)
        onp.testing.assert_allclose(v @ (w[..., None] * onp.swapaxes(v, -1, -2)), s, rtol=1e-3 if dtype == F32
                                    else 1e-9, atol=1e-3 if dtype == F32 else 1e-9)
    onp.testing.assert_allclose(H(LA.eigvalsh(A(s_up), UPLO="u")), onp.linalg.eigvalsh(s.astype(F64)),
                                rtol=t["rtol"] * 10, atol=t["atol"] * 10)


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (2, 3, 6)])
def test_svd_and_qr_reconstruct(dtype, shape):
    r = rng(3)
    a = r.uniform(-1, 1, size=shape).astype(dtype)
    k = min(shape[-2:])
    ut, l, v = LA.svd(A(a))
    assert ut.shape == shape[:-1] + (k,) and l.shape == shape[:-2] + (k,) and v.shape == shape[:-2] + (k, shape[-1])
    ut, l, v = H(ut).astype(F64), H(l).astype(F64), H(v).astype(F64)
    tol = 1e-4 if dtype == F32 else 1e-10
    onp.testing.assert_allclose(l, onp.linalg.svd(a.astype(F64), compute_uv=False), rtol=tol, atol=tol)
    onp.testing.assert_allclose(ut * l[..., None, :] @ v, a, rtol=tol, atol=tol)
    onp.testing.assert_allclose(onp.swapaxes(ut, -1, -2) @ ut, onp.broadcast_to(onp.eye(k), l.shape + (k,)),
                                atol=tol)
    q, rr = LA.qr(A(a))
    qn, rn = onp.linalg.qr(a.astype(F64))
    assert q.shape == qn.shape and rr.shape == rn.shape
    onp.testing.assert_allclose(H(q), qn, rtol=tol * 10, atol=tol * 10)  # the same geqrf, so the same signs
    onp.testing.assert_allclose(H(rr), rn, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_eig_and_eigvals(dtype):
    r = rng(4)
    p = well(r, (2, 4, 4))
    d = onp.sort(r.uniform(1, 2, size=(2, 4)), axis=-1) + onp.arange(4)
    a = (p * d[..., None, :] @ onp.linalg.inv(p)).astype(dtype)
    w, v = LA.eig(A(a))
    w, v = H(w).astype(F64), H(v).astype(F64)
    tol = 2e-3 if dtype == F32 else 1e-8
    onp.testing.assert_allclose(onp.sort(w, -1), d, rtol=tol)
    onp.testing.assert_allclose(a.astype(F64) @ v, v * w[..., None, :], atol=tol * 10)
    onp.testing.assert_allclose(onp.sort(H(LA.eigvals(A(a))), -1), d, rtol=tol)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_solve_and_tensor_functions(dtype):
    r = rng(5)
    a = well(r, (2, 3, 3), dtype)
    b_mat, b_vec = r.uniform(-1, 1, (2, 3, 2)).astype(dtype), r.uniform(-1, 1, (2, 3)).astype(dtype)
    t = TOL[dtype]
    x = H(LA.solve(A(a), A(b_mat)))
    onp.testing.assert_allclose(x, onp.linalg.solve(a.astype(F64), b_mat.astype(F64)), rtol=t["rtol"] * 10,
                                atol=t["atol"] * 10)
    xv = H(LA.solve(A(a), A(b_vec)))
    assert xv.shape == (2, 3)
    onp.testing.assert_allclose(onp.einsum("bij,bj->bi", a.astype(F64), xv), b_vec, rtol=1e-3, atol=1e-4)
    ti = r.uniform(-1, 1, (4, 6, 8, 3)).astype(dtype)
    onp.testing.assert_allclose(H(LA.tensorinv(A(ti), ind=2)), onp.linalg.tensorinv(ti.astype(F64), 2),
                                rtol=1e-2 if dtype == F32 else 1e-8, atol=1e-3 if dtype == F32 else 1e-9)
    ta = (r.uniform(-1, 1, (2, 3, 6)) + 0).astype(dtype)
    ta = ta + 3 * onp.eye(6).reshape(2, 3, 6).astype(dtype)
    tb = r.uniform(-1, 1, (2, 3)).astype(dtype)
    onp.testing.assert_allclose(H(LA.tensorsolve(A(ta), A(tb))), onp.linalg.tensorsolve(ta.astype(F64), tb),
                                rtol=1e-3 if dtype == F32 else 1e-9, atol=1e-4 if dtype == F32 else 1e-10)
    tc = r.uniform(-1, 1, (6, 2, 3)).astype(dtype) + 3 * onp.eye(6).reshape(6, 2, 3).astype(dtype)
    onp.testing.assert_allclose(H(LA.tensorsolve(A(tc), A(tb), axes=(0,))),
                                onp.linalg.tensorsolve(tc.astype(F64), tb, axes=(0,)),
                                rtol=1e-3 if dtype == F32 else 1e-9, atol=1e-4 if dtype == F32 else 1e-10)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_pinv_rank_cond_lstsq(dtype):
    r = rng(6)
    a = r.uniform(-1, 1, (2, 5, 3)).astype(dtype)
    low = (r.uniform(-1, 1, (5, 2)) @ r.uniform(-1, 1, (2, 4))).astype(dtype)  # rank 2
    tol = 1e-3 if dtype == F32 else 1e-9
    onp.testing.assert_allclose(H(LA.pinv(A(a))), onp.linalg.pinv(a.astype(F64)), rtol=tol, atol=tol)
    onp.testing.assert_allclose(H(LA.pinv(A(low), rcond=1e-5)), onp.linalg.pinv(low.astype(F64), rcond=1e-5),
                                rtol=tol * 10, atol=tol * 10)
    onp.testing.assert_allclose(H(LA.pinv(A(a), rcond=A(onp.array([0.1, 1e-15], dtype)))),
                                onp.linalg.pinv(a.astype(F64), rcond=onp.array([0.1, 1e-15])), rtol=tol, atol=tol)
    rank = LA.matrix_rank(A(low))
    assert rank.dtype == onp.int64 and int(H(rank)) == 2 == onp.linalg.matrix_rank(low)
    assert H(LA.matrix_rank(A(a))).tolist() == [3, 3]
    assert int(H(LA.matrix_rank(A(low), tol=100.0))) == onp.linalg.matrix_rank(low.astype(F64), tol=100.0)
    assert int(H(LA.matrix_rank(A(onp.zeros(3, dtype))))) == 0 and int(H(LA.matrix_rank(A(onp.ones(3, dtype))))) == 1
    sq = well(r, (2, 3, 3), dtype)
    for p in [None, 2, -2, 1, -1, "fro", "nuc", onp.inf, -onp.inf]:
        onp.testing.assert_allclose(H(LA.cond(A(sq), p)), onp.linalg.cond(sq.astype(F64), p), rtol=tol * 10,
                                    err_msg=str(p))
    b = r.uniform(-1, 1, (5, 2)).astype(dtype)
    for aa, bb in [(a[0], b), (a[0], b[:, 0]), (low, b), (a[0].T.copy(), b[:3])]:
        got = LA.lstsq(A(aa), A(bb), rcond=None)
        # rcond=None cuts at eps(dtype) * max(M, N), as MXNet (NumPy computes float32 in float64 with eps64).
        want = onp.linalg.lstsq(aa.astype(F64), bb.astype(F64), rcond=onp.finfo(dtype).eps * max(aa.shape))
        assert len(got) == 4
        for g, w in zip(got, want):
            assert H(g).shape == onp.shape(w)
            onp.testing.assert_allclose(H(g), w, rtol=tol * 10, atol=tol * 10)
    with pytest.warns(FutureWarning):
        x = LA.lstsq(A(a[0]), A(b))[0]
    onp.testing.assert_allclose(H(x), onp.linalg.lstsq(a[0].astype(F64), b, rcond=-1)[0], rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_norm_matches_numpy(dtype):
    r = rng(7)
    v = r.uniform(-1, 1, (6,)).astype(dtype)
    m = r.uniform(-1, 1, (2, 3, 4)).astype(dtype)
    tol = 1e-5 if dtype == F32 else 1e-12
    for ordv in [None, 1, -1, 2, -2, 0, 3, 0.5, onp.inf, -onp.inf]:
        onp.testing.assert_allclose(H(LA.norm(A(v), ordv)), onp.linalg.norm(v.astype(F64), ordv), rtol=tol * 10,
                                    err_msg=str(ordv))
        got = LA.norm(A(m), ordv, axis=1, keepdims=True)
        onp.testing.assert_allclose(H(got), onp.linalg.norm(m.astype(F64), ordv, axis=1, keepdims=True),
                                    rtol=tol * 10, err_msg=str(ordv))
    for ordm in [None, "fro", "nuc", 1, -1, 2, -2, onp.inf, -onp.inf]:
        for axis in [(1, 2), (2, 0), (-1, -2)]:
            got = LA.norm(A(m), ordm, axis=axis)
            want = onp.linalg.norm(m.astype(F64), ordm, axis=axis)
            assert got.shape == want.shape
            onp.testing.assert_allclose(H(got), want, rtol=tol * 100, err_msg="%s %s" % (ordm, axis))
    got = LA.norm(A(m))
    assert got.shape == () and abs(float(H(got)) - onp.linalg.norm(m.astype(F64))) <= 1e-5
    assert LA.norm(A(m), keepdims=True).shape == (1, 1, 1)
    onp.testing.assert_allclose(H(LA.norm(A(m[0]), "fro")), onp.linalg.norm(m[0].astype(F64), "fro"), rtol=tol)


def test_multi_dot_matches_numpy():
    r = rng(8)
    xs = [r.uniform(-1, 1, s) for s in [(3,), (3, 4), (4, 5), (5,)]]
    onp.testing.assert_allclose(H(LA.multi_dot([A(x) for x in xs])), onp.linalg.multi_dot(xs), rtol=1e-12)
    assert LA.multi_dot([A(x) for x in xs]).shape == ()
    assert LA.multi_dot([A(x) for x in xs[1:]]).shape == (3,)
    assert LA.multi_dot([A(x) for x in xs[:3]]).shape == (5,)
    onp.testing.assert_allclose(H(LA.multi_dot([A(x) for x in xs[1:3]])), xs[1] @ xs[2], rtol=1e-12)


def test_zero_size_batches():
    e = A(onp.zeros((0, 3, 3)))
    for f in [LA.inv, LA.det, LA.cholesky, LA.eigvalsh, LA.eigvals]:
        assert H(f(e)).size == 0
    assert LA.det(e).shape == (0,) and LA.inv(e).shape == (0, 3, 3)
    assert [x.shape for x in LA.slogdet(e)] == [(0,), (0,)]
    assert [x.shape for x in LA.svd(e)] == [(0, 3, 3), (0, 3), (0, 3, 3)]
    assert [x.shape for x in LA.eigh(e)] == [(0, 3), (0, 3, 3)]
    assert [x.shape for x in LA.eig(e)] == [(0, 3), (0, 3, 3)]
    assert [x.shape for x in LA.qr(A(onp.zeros((0, 4, 3))))] == [(0, 4, 3), (0, 3, 3)]
    assert LA.solve(e, A(onp.zeros((0, 3, 2)))).shape == (0, 3, 2)
    assert LA.pinv(A(onp.zeros((0, 4, 3)))).shape == (0, 3, 4)
    assert LA.matrix_rank(e).shape == (0,)
    assert [x.shape for x in LA.svd(A(onp.zeros((2, 0, 3))))] == [(2, 0, 0), (2, 0), (2, 0, 3)]
    assert LA.pinv(A(onp.zeros((2, 0, 3)))).shape == (2, 3, 0)


# ---- errors ----

def test_linalg_errors_name_the_function():
    assert issubclass(LA.LinAlgError, ValueError) and issubclass(LA.LinAlgError, weft.base.MXNetError)
    sing = A(onp.array([[1.0, 2.0], [2.0, 4.0]]))
    for call, name in [(lambda: LA.inv(sing), "inv"), (lambda: LA.solve(sing, A(onp.ones(2))), "solve"),
                       (lambda: LA.cholesky(A(-onp.eye(2))), "cholesky"),
                       (lambda: LA.eig(A(onp.array([[0.0, -1.0], [1.0, 0.0]]))), "eig"),
                       (lambda: LA.eigvals(A(onp.array([[0.0, -1.0], [1.0, 0.0]]))), "eigvals"),
                       (lambda: LA.eig(A(onp.array([[1.0, onp.inf], [0.0, 1.0]]))), "eig: .*inf or NaN"),
                       (lambda: LA.tensorinv(A(onp.zeros((2, 2, 4)))), "tensorinv"),
                       (lambda: LA.inv(A(onp.ones((2, 3)))), "inv"), (lambda: LA.det(A(onp.ones(3))), "det"),
                       (lambda: LA.svd(A(onp.ones(3))), "svd")]:
        with pytest.raises(LA.LinAlgError, match=name):
            call()
    assert float(H(LA.det(sing))) == 0.0 and float(H(LA.slogdet(sing)[0])) == 0.0  # no error, as NumPy


def test_bad_arguments_raise_numpy_exception_types():
    a = A(onp.eye(3))
    cases = [(TypeError, lambda: LA.inv(onp.eye(3)), "inv: argument 'a'"),
             (TypeError, lambda: LA.det(A(onp.eye(3, dtype=onp.int32))), "det: argument 'a' has dtype int32"),
             (ValueError, lambda: LA.eigh(a, UPLO="X"), "eigh: UPLO"),
             (NotImplementedError, lambda: LA.qr(a, mode="complete"), "qr: mode"),
             (ValueError, lambda: LA.qr(a, mode="bogus"), "qr: unrecognized mode"),
             (ValueError, lambda: LA.solve(a, A(onp.ones((2, 3)))), "solve: argument 'b'"),
             (TypeError, lambda: LA.solve(a, A(onp.ones(3, F32))), "solve: arguments 'a'"),
             (ValueError, lambda: LA.norm(A(onp.ones(3)), "fro"), "norm: invalid norm order"),
             (ValueError, lambda: LA.norm(a, "bad", axis=(0, 1)), "norm: invalid norm order"),
             (ValueError, lambda: LA.norm(a, axis=(0, 0)), "norm: argument 'axis'"),
             (ValueError, lambda: LA.norm(a, axis=5), "norm: argument 'axis'"),
             (ValueError, lambda: LA.norm(A(onp.ones((2, 2, 2))), 2), "norm: improper number"),
             (ValueError, lambda: LA.tensorinv(a, ind=0), "tensorinv: argument 'ind'"),
             (TypeError, lambda: LA.matrix_power(a, 1.5), "matrix_power: argument 'n'"),
             (ValueError, lambda: LA.multi_dot([a]), "multi_dot: argument 'arrays'"),
             (ValueError, lambda: LA.multi_dot([a, A(onp.ones((2, 2)))]), "multi_dot: argument 'arrays\\[1\\]'"),
             (LA.LinAlgError, lambda: LA.lstsq(a, A(onp.ones(2)), rcond=None), "lstsq: argument 'b'"),
             (LA.LinAlgError, lambda: LA.tensorsolve(a, A(onp.ones(2))), "tensorsolve"),
             (TypeError, lambda: LA.pinv(a, rcond="x"), "pinv: argument 'rcond'")]
    for exc, call, msg in cases:
        with pytest.raises(exc, match=msg):
            call()


# ---- gradients by finite differences (float64) ----

def _grad_check(f, xs, seed=0, eps=1e-6, tol=1e-5, sym=()):
    """autograd's gradients of sum_i <h_i, f(xs)_i> against central differences of weft's own forward."""
    r = rng(seed)
    arrays = [A(x) for x in xs]
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        out = f(*arrays)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    heads = [r.standard_normal(o.shape) for o in outs]
    autograd.backward(outs, [A(h) for h in heads])

    def value(vals):
        o = f(*[A(v) for v in vals])
        os = list(o) if isinstance(o, (list, tuple)) else [o]
        return sum(float(onp.sum(H(v) * h)) for v, h in zip(os, heads))

    for i, x in enumerate(xs):
        g = H(arrays[i].grad)
        for _ in range(2):
            e = r.standard_normal(x.shape)
            if i in sym:
                e = e + onp.swapaxes(e, -1, -2)
            num = (value([v + eps * e if j == i else v for j, v in enumerate(xs)]) -
                   value([v - eps * e if j == i else v for j, v in enumerate(xs)])) / (2 * eps)
            got = float(onp.sum(g * e))
            assert abs(num - got) <= tol * max(1.0, abs(num)), "input %d: autograd %r, finite differences %r" % (
                i, got, num)


GRADS = {
    "det": (LA.det, lambda r: [well(r, (2, 3, 3))], ()),
    "slogdet": (lambda a: LA.slogdet(a)[1], lambda r: [well(r, (3, 3))], ()),
    "inv": (LA.inv, lambda r: [well(r, (2, 3, 3))], ()),
    "solve matrices": (LA.solve, lambda r: [well(r, (2, 3, 3)), r.uniform(-1, 1, (2, 3, 2))], ()),
    "solve vectors": (LA.solve, lambda r: [well(r, (3, 3)), r.uniform(-1, 1, (3,))], ()),
    "cholesky": (LA.cholesky, lambda r: [spd(r, (2, 3, 3))], (0,)),
    "svd wide": (LA.svd, lambda r: [r.uniform(-1, 1, (3, 5))], ()),
    "svd tall batch": (LA.svd, lambda r: [r.uniform(-1, 1, (2, 4, 3))], ()),
    "svd square": (LA.svd, lambda r: [r.uniform(-1, 1, (3, 3))], ()),
    "eigh": (LA.eigh, lambda r: [spd(r, (3, 3))], (0,)),
    "qr": (LA.qr, lambda r: [r.uniform(-1, 1, (4, 3))], ()),
    "norm fro": (LA.norm, lambda r: [r.uniform(-1, 1, (3, 4))], ()),
    "norm 2": (lambda x: LA.norm(x, 2), lambda r: [r.uniform(-1, 1, (3, 4))], ()),
    "norm nuc": (lambda x: LA.norm(x, "nuc"), lambda r: [r.uniform(-1, 1, (3, 4))], ()),
    "norm vector 3": (lambda x: LA.norm(x, 3, axis=1), lambda r: [r.uniform(0.5, 1, (2, 4))], ()),
    "pinv": (LA.pinv, lambda r: [r.uniform(-1, 1, (4, 3))], ()),
    "tensorinv": (LA.tensorinv, lambda r: [well(r, (4, 4)).reshape(2, 2, 4)], ()),
    "tensorsolve": (LA.tensorsolve, lambda r: [well(r, (4, 4)).reshape(2, 2, 4), r.uniform(-1, 1, (2, 2))], ()),
    "matrix_power": (lambda a: LA.matrix_power(a, 3), lambda r: [r.uniform(-1, 1, (2, 3, 3))], ()),
    "multi_dot": (lambda a, b, c: LA.multi_dot([a, b, c]),
                  lambda r: [r.uniform(-1, 1, (3,)), r.uniform(-1, 1, (3, 4)), r.uniform(-1, 1, (4, 2))], ()),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients_match_finite_differences(name):
    f, make, sym = GRADS[name]
    _grad_check(f, make(rng(11)), sym=sym)
