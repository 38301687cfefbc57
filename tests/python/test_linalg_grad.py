"""Gradients of the linalg family (core/op/linalg) and of _contrib_fft/_contrib_ifft (core/op/signal) by finite differences: for
each op, weft.autograd's input gradients against central differences of the
NumPy reference (tests/python/op_cases/linalg.py) along random directions, in
float64. potrf reads a symmetric matrix, so its directions are symmetric.
Also: bad inputs are rejected
at the call naming the op and the argument."""
import numpy as np
import pytest

import weft
from weft import autograd, nd
from op_cases import linalg as L
from op_cases import signal as S

F64 = np.float64


def _directional_check(op, xs, attrs, ref, sym=False, seed=0, eps=1e-6, tol=1e-6):
    rng = np.random.default_rng(seed)
    arrays = [nd.array(x, dtype="float64") for x in xs]
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        out = getattr(nd, op)(*arrays, **attrs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    heads = [rng.standard_normal(o.shape) for o in outs]
    autograd.backward(outs, [nd.array(h, dtype="float64") for h in heads])

    def f(vals):
        r = ref(*vals, **attrs)
        rs = list(r) if isinstance(r, (list, tuple)) else [r]
        return sum(float(np.sum(np.asarray(v, F64) * h)) for v, h in zip(rs, heads))

    for i, x in enumerate(xs):
        g = arrays[i].grad.asnumpy()
        assert g.shape == x.shape
        for _ in range(3):
            e = rng.standard_normal(x.shape)
            if sym:
                e = e + np.swapaxes(e, -1, -2)
            plus = [v if j != i else v + eps * e for j, v in enumerate(xs)]
            minus = [v if j != i else v - eps * e for j, v in enumerate(xs)]
            num = (f(plus) - f(minus)) / (2 * eps)
            got = float(np.sum(g * e))
            assert abs(num - got) <= tol * max(1.0, abs(num)), \
                "%s %s: d/d input %d along a direction: autograd %r, finite differences %r" % (op, attrs, i, got, num)


def _make(maker, seed=1):
    return maker(np.random.default_rng(seed)).astype(F64)


def _gemm_ref(mac):
    return L.gemm_ref(mac)


GRAD_CASES = [
    ("_linalg_gemm2", [L.rand((3, 4), F64), L.rand((4, 5), F64)], dict(alpha=1.5), _gemm_ref(False), False),
    ("_linalg_gemm2", [L.rand((2, 4, 3), F64), L.rand((2, 5, 4), F64)], dict(transpose_a=True, transpose_b=True),
     _gemm_ref(False), False),
    ("_linalg_gemm2", [L.rand((2, 3, 2, 4), F64), L.rand((2, 4, 2, 5), F64)], dict(axis=1), _gemm_ref(False), False),
    ("_linalg_gemm", [L.rand((3, 4), F64), L.rand((5, 3), F64), L.rand((4, 5), F64)],
     dict(transpose_a=True, transpose_b=True, alpha=0.5, beta=2.0), _gemm_ref(True), False),
    ("_linalg_trmm", [L.rand((3, 3), F64), L.rand((3, 4), F64)], dict(alpha=2.0), L.trmm_ref, False),
    ("_linalg_trmm", [L.rand((2, 3, 3), F64), L.rand((2, 4, 3), F64)],
     dict(rightside=True, lower=False, transpose=True), L.trmm_ref, False),
    ("_linalg_trmm", [L.rand((3, 3), F64), L.rand((4, 3), F64)], dict(rightside=True), L.trmm_ref, False),
    ("_linalg_trmm", [L.rand((3, 3), F64), L.rand((3, 2), F64)], dict(transpose=True, lower=False), L.trmm_ref,
     False),
    ("_linalg_trsm", [L.lower_factor((3, 3)), L.rand((3, 4), F64)], dict(alpha=0.5), L.trsm_ref, False),
    ("_linalg_trsm", [L.lower_factor((2, 3, 3)), L.rand((2, 4, 3), F64)],
     dict(rightside=True, lower=False, transpose=True), L.trsm_ref, False),
    ("_linalg_trsm", [L.lower_factor((3, 3)), L.rand((2, 3), F64)], dict(rightside=True), L.trsm_ref, False),
    ("_linalg_trsm", [L.lower_factor((3, 3)), L.rand((3, 2), F64)], dict(transpose=True, lower=False), L.trsm_ref,
     False),
    ("_linalg_syrk", [L.rand((3, 4), F64)], dict(alpha=1.5), L.syrk_ref, False),
    ("_linalg_syrk", [L.rand((2, 3, 4), F64)], dict(transpose=True), L.syrk_ref, False),
    ("_linalg_potrf", [L.spd((4, 4))], {}, L.potrf_ref, True),
    ("_linalg_potrf", [L.spd((2, 3, 3))], dict(lower=False), L.potrf_ref, True),
    ("_linalg_potri", [L.lower_factor((3, 3))], {}, L.potri_ref, False),
    ("_linalg_potri", [L.lower_factor((2, 3, 3))], dict(lower=False), L.potri_ref, False),
    ("_linalg_gelqf", [L.rand((3, 5), F64)], {}, L.gelqf_ref, False),
    ("_linalg_gelqf", [L.rand((2, 3, 3), F64)], {}, L.gelqf_ref, False),
    ("_linalg_syevd", [L.spd((4, 4))], {}, L.syevd_ref, True),
    ("_linalg_syevd", [L.spd((2, 3, 3))], {}, L.syevd_ref, True),
    ("_linalg_inverse", [L.well_conditioned((2, 3, 3))], {}, lambda a: np.linalg.inv(a), False),
    ("_linalg_det", [L.well_conditioned((3, 3))], {}, lambda a: L.per_matrix(np.linalg.det(a), a), False),
    ("_linalg_det", [L.well_conditioned((2, 2, 3, 3))], {}, lambda a: np.linalg.det(a), False),
    ("_linalg_slogdet", [L.rand((2, 3, 3), F64)], {}, L.slogdet_ref, False),
    ("_linalg_sumlogdiag", [L.spd((3, 3))], {}, lambda a: L.per_matrix(np.log(np.diagonal(a, axis1=-2, axis2=-1)).sum(-1), a),
     False),
    ("_linalg_sumlogdiag", [L.spd((2, 3, 3))], {}, lambda a: np.log(np.diagonal(a, axis1=-2, axis2=-1)).sum(-1), False),
    ("_linalg_extractdiag", [L.rand((2, 4, 4), F64)], dict(offset=-1), L.extractdiag_ref, False),
    ("_linalg_makediag", [L.rand((2, 3), F64)], dict(offset=2), L.makediag_ref, False),
    ("_linalg_extracttrian", [L.rand((2, 4, 4), F64)], dict(lower=False), L.extracttrian_ref, False),
    ("_linalg_extracttrian", [L.rand((4, 4), F64)], dict(offset=-1), L.extracttrian_ref, False),
    ("_linalg_maketrian", [L.rand((2, 6), F64)], dict(offset=1), L.maketrian_ref, False),
    ("_linalg_maketrian", [L.rand((10,), F64)], dict(lower=False), L.maketrian_ref, False),
    ("_contrib_fft", [L.rand((3, 5), F64)], {}, S.fft_ref, False),
    ("_contrib_ifft", [L.rand((2, 1, 2, 8), F64)], {}, S.ifft_ref, False),
]


def test_count_sketch_gradient():
    rng = np.random.default_rng(5)
    data = rng.uniform(-1, 1, size=(3, 6))
    h = rng.integers(0, 4, size=(1, 6)).astype(F64)
    s = rng.choice([-1.0, 1.0], size=(1, 6))
    x = nd.array(data, dtype="float64")
    x.attach_grad()
    with autograd.record():
        y = nd._contrib_count_sketch(x, nd.array(h, dtype="float64"), nd.array(s, dtype="float64"), out_dim=4)
    g = rng.standard_normal((3, 4))
    y.backward(nd.array(g, dtype="float64"))
    want = s * g[:, h[0].astype(int)]  # the sketch is linear in data
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-12)


@pytest.mark.parametrize("k", range(len(GRAD_CASES)), ids=["%s-%d" % (c[0], i) for i, c in enumerate(GRAD_CASES)])
def test_gradient_by_finite_differences(k):
    op, makers, attrs, ref, sym = GRAD_CASES[k]
    xs = [_make(m, seed=k * 7 + j) for j, m in enumerate(makers)]
    _directional_check(op, xs, attrs, ref, sym=sym, seed=k)


def test_aliases_and_second_name():
    a = nd.array(np.eye(3) * 2, dtype="float64")
    assert np.allclose(nd.linalg_potrf(a).asnumpy(), nd._linalg_potrf(a).asnumpy())
    assert np.allclose(nd.linalg_inverse(a).asnumpy(), np.eye(3) / 2)


def test_symbolic_shapes():
    A, B = weft.sym.var("A"), weft.sym.var("B")
    s = weft.sym._linalg_gemm2(A, B, transpose_b=True)
    _, out, _ = s.infer_shape(A=(2, 3, 4), B=(2, 5, 4))
    assert out == [(2, 3, 5)]
    t = weft.sym._linalg_trsm(A, B, rightside=True)
    arg, out, _ = t.infer_shape(B=(2, 4, 3))  # A follows from B
    assert out == [(2, 4, 3)] and arg[0] == (2, 3, 3)
    # potrf's A from the output shape (its gradient rule's inference uses this direction too)
    p = weft.sym._linalg_potrf(A)
    q = weft.sym._linalg_gemm2(p, B)
    arg, out, _ = q.infer_shape(A=(2, 3, 3), B=(2, 3, 5))
    assert out == [(2, 3, 5)]


def test_output_names():
    A = weft.sym.var("A")
    assert weft.sym._linalg_gelqf(A, name="lq").list_outputs() == ["lq_Q", "lq_L"]
    assert weft.sym._linalg_syevd(A, name="e").list_outputs() == ["e_U", "e_L"]
    assert weft.sym._linalg_slogdet(A, name="d").list_outputs() == ["d_sign", "d_logdet"]
    # MXNet 1.9.1: LU and pivot are hidden outputs (det: 1 of 3 visible, slogdet: 2 of 4)
    assert weft.sym._linalg_det(A, name="d").list_outputs() == ["d_output"]
    _, outs, _ = weft.sym._linalg_det(A).infer_shape(A=(2, 3, 3))
    assert outs == [(2,)]
    _, outs, _ = weft.sym._linalg_slogdet(A).infer_shape(A=(3, 3))
    assert outs == [(1,), (1,)]


@pytest.mark.parametrize("op", ["_linalg_det", "_linalg_slogdet"])
def test_det_backward_solves_with_the_saved_factorization(op):
    """The gradient graph reads the forward's hidden LU and pivot: one backward op, no second
    factorization (no _linalg_inverse)."""
    A = weft.sym.var("A")
    out = getattr(weft.sym, op)(A)
    loss = out if op == "_linalg_det" else out[1]
    exe = loss.simple_bind(weft.cpu(), A=(2, 3, 3), grad_req="write", type_dict={"A": "float64"})
    a = L.well_conditioned((2, 3, 3))(np.random.default_rng(3))
    exe.arg_dict["A"][:] = a
    exe.forward(is_train=True)
    exe.backward(nd.ones((2,), dtype="float64"))
    inv_t = np.swapaxes(np.linalg.inv(a), -1, -2)
    want = inv_t * (np.linalg.det(a)[:, None, None] if op == "_linalg_det" else 1.0)
    np.testing.assert_allclose(exe.grad_dict["A"].asnumpy(), want, rtol=1e-10, atol=1e-12)
    graph = exe.debug_str()
    assert "_backward_linalg_" in graph and "_linalg_inverse" not in graph and "getrf" not in graph


def test_hawkesll_gradient_through_autograd():
    xs = S.hawkes_inputs(3, 2, 4, F64)(np.random.default_rng(11))
    arrays = [nd.array(x, dtype=x.dtype) for x in xs]
    for a in arrays[:3]:
        a.attach_grad()
    with autograd.record():
        ll, _ = nd._contrib_hawkesll(*arrays)
    g = np.array([0.5, -1.0, 2.0])
    ll.backward(nd.array(g, dtype="float64"))
    want = S.hawkes_backward_ref(g, None, *xs)
    for a, w in zip(arrays[:3], want[:3]):
        np.testing.assert_allclose(a.grad.asnumpy(), w, rtol=1e-5, atol=1e-7)


BAD = [
    ("_linalg_potrf", [np.zeros((3, 4))], {}, "square", weft.base.WeftError),
    ("_linalg_inverse", [np.zeros((3,))], {}, "at least 2 dimensions", weft.base.WeftError),
    ("_linalg_gemm2", [np.zeros((2, 3, 4)), np.zeros((3, 4, 5))], {}, "'B'", weft.base.WeftError),
    ("_linalg_gemm2", [np.zeros((3, 4)), np.zeros((3, 5))], {}, "incompatible", weft.base.WeftError),
    ("_linalg_trsm", [np.zeros((2, 3, 3)), np.zeros((3, 3, 2))], {}, "batch", weft.base.WeftError),
    ("_linalg_gelqf", [np.zeros((4, 3))], {}, "at most as many rows", weft.base.WeftError),
    ("_linalg_maketrian", [np.zeros((4,))], {}, "triangular number", weft.base.WeftError),
    ("_linalg_extractdiag", [np.zeros((3, 3))], dict(offset=3), "offset", weft.base.WeftError),
    ("_linalg_gemm", [np.zeros((2, 3)), np.zeros((3, 2)), np.zeros((2, 2))], dict(axis=-1), "axis",
     weft.base.WeftError),
    ("khatri_rao", [np.zeros((2, 3)), np.zeros((3, 2))], dict(num_args=2), "columns", weft.base.WeftError),
    ("_contrib_fft", [np.zeros((2, 3, 4))], {}, "(N, d) or (N1, N2, N3, d)", weft.base.WeftError),
    ("_contrib_ifft", [np.zeros((2, 5))], {}, "even number", weft.base.WeftError),
    ("_contrib_count_sketch", [np.zeros((2, 3)), np.zeros((1, 4)), np.zeros((1, 4))], dict(out_dim=2), "'h'",
     weft.base.WeftError),
    ("_contrib_count_sketch", [np.zeros((2, 3)), np.full((1, 3), 5.0), np.ones((1, 3))], dict(out_dim=2),
     "[0, 2)", weft.base.WeftError),
    ("_contrib_hawkesll", [np.ones((2, 2)), np.ones(2), np.ones(2), np.ones((2, 2)), np.ones((2, 3)),
                           np.zeros((2, 3), np.int32), np.ones(2), np.ones(3)], {}, "'max_time'", weft.base.WeftError),
    ("_contrib_hawkesll", [np.ones((2, 2)), np.ones(2), np.ones(2), np.ones((2, 2)), np.ones((2, 3)),
                           np.full((2, 3), 7, np.int32), np.ones(2), np.ones(2) * 5], {}, "[0, 2)",
     weft.base.WeftError),
    ("khatri_rao", [np.zeros((2, 3, 1))], dict(num_args=1), "matrix", weft.base.WeftError),
]


@pytest.mark.parametrize("k", range(len(BAD)), ids=[b[0] + "-" + b[3] for b in BAD])
def test_bad_input_named(k):
    op, xs, attrs, words, err = BAD[k]
    with pytest.raises(err) as e:
        out = getattr(nd, op)(*[nd.array(x, dtype="float64" if x.dtype != np.int32 else "int32") for x in xs], **attrs)
        for o in (out if isinstance(out, (list, tuple)) else [out]):
            o.asnumpy()
    msg = str(e.value)
    assert op in msg and words in msg, msg


def test_integer_dtype_rejected():
    with pytest.raises(weft.base.WeftError) as e:
        nd._linalg_det(nd.array(np.eye(2), dtype="int32")).asnumpy()
    assert "_linalg_det" in str(e.value) and "'A'" in str(e.value) and "float32 or float64" in str(e.value)


def test_not_positive_definite_is_an_error():
    with pytest.raises(weft.base.WeftError) as e:
        nd._linalg_potrf(nd.array(-np.eye(2), dtype="float64")).asnumpy()
    assert "_linalg_potrf" in str(e.value) and "positive definite" in str(e.value)


