"""weft.sym.np.linalg (issue 39): MXNet 1.9.1's mx.sym.np.linalg names, traced by a
hybrid_forward using F.np.linalg.*, equal to NumPy and to the imperative weft.np.linalg,
writing only operators MXNet 1.9.1 registers."""
import json

import numpy as onp
import pytest

import weft as mx
from weft import np
from np_mode_helpers import HybridFn, np_mode  # pylint: disable=unused-import (np_mode: a fixture)

pytestmark = [pytest.mark.usefixtures("np_mode"), pytest.mark.filterwarnings(r"error:hybridize\(\)")]

# mx.sym.np.linalg's public names in MXNet 1.9.1 (dir() of its pip build).
NAMES = ["cholesky", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "norm", "pinv", "slogdet", "solve", "svd",
         "tensorinv", "tensorsolve"]
# The operators they write, checked by hand against MXNet 1.9.1's MXListAllOpNames.
MXNET_HAS = {"_linalg_potrf", "_npi_det", "_npi_eig", "_npi_eigvals", "_linalg_syevd", "_npi_swapaxes", "_npi_inv",
             "norm", "_npi_absolute", "max", "min", "_npi_svd", "_npi_multiply_scalar", "broadcast_greater",
             "elemwise_div", "elemwise_sub", "_npi_add_scalar", "_npi_multiply", "_npi_expand_dims", "_linalg_gemm2",
             "_npi_slogdet", "_npi_solve", "_np_reshape", "_npi_cholesky", "_npi_tensorinv", "_npi_tensorsolve",
             "_npi_eigh", "_npi_eigvalsh", "_npi_pinv", "_npi_pinv_scalar_rcond"}


def _run(fn, *arrays, hybrid=True):
    block = HybridFn(fn)
    if hybrid:
        block.hybridize()
    out = block(*[np.array(a, dtype=a.dtype) for a in arrays])
    return [o.asnumpy() for o in out] if isinstance(out, (list, tuple)) else out.asnumpy()


R = onp.random.RandomState(0)
M = R.randn(2, 3, 3)
SPD = (M @ M.transpose(0, 2, 1) + 3 * onp.eye(3)).astype("float64")
RECT = R.randn(3, 5).astype("float64")
T4 = (R.randn(4, 4) + 4 * onp.eye(4)).reshape(2, 2, 4)
RHS = R.randn(2, 2)

CASES = [
    ("inv", lambda F, a: F.np.linalg.inv(a), SPD, onp.linalg.inv(SPD)),
    ("det", lambda F, a: F.np.linalg.det(a), SPD, onp.linalg.det(SPD)),
    ("slogdet", lambda F, a: F.np.linalg.slogdet(a)[1], SPD, onp.linalg.slogdet(SPD)[1]),
    ("cholesky", lambda F, a: F.np.linalg.cholesky(a), SPD, onp.linalg.cholesky(SPD)),
    ("eigvalsh", lambda F, a: F.np.linalg.eigvalsh(a), SPD, onp.linalg.eigvalsh(SPD)),
    ("eigvalsh_U", lambda F, a: F.np.linalg.eigvalsh(a, UPLO="U"), SPD, onp.linalg.eigvalsh(SPD, UPLO="U")),
    ("eigvals", lambda F, a: F.np.linalg.eigvals(a), SPD, None),
    ("solve", lambda F, a, b: F.np.linalg.solve(a, b), (SPD, M), onp.linalg.solve(SPD, M)),
    ("pinv", lambda F, a: F.np.linalg.pinv(a), RECT, onp.linalg.pinv(RECT)),
    ("pinv_rcond_array", lambda F, a, r: F.np.linalg.pinv(a, r), (SPD, onp.array([1e-15, 0.5])),
     onp.linalg.pinv(SPD, onp.array([1e-15, 0.5]))),
    ("svd_l", lambda F, a: F.np.linalg.svd(a)[1], RECT, onp.linalg.svd(RECT)[1]),
    ("norm", lambda F, a: F.np.linalg.norm(a), RECT, onp.linalg.norm(RECT)),
    ("norm_fro", lambda F, a: F.np.linalg.norm(a, "fro", axis=(-2, -1)), M, onp.linalg.norm(M, "fro", axis=(-2, -1))),
    ("norm_1", lambda F, a: F.np.linalg.norm(a, 1, axis=1), RECT, onp.linalg.norm(RECT, 1, axis=1)),
    ("norm_inf", lambda F, a: F.np.linalg.norm(a, onp.inf, axis=-1, keepdims=True), RECT,
     onp.linalg.norm(RECT, onp.inf, axis=-1, keepdims=True)),
    ("norm_ninf", lambda F, a: F.np.linalg.norm(a, -onp.inf, axis=0), RECT, onp.linalg.norm(RECT, -onp.inf, axis=0)),
    ("tensorinv", lambda F, a: F.np.linalg.tensorinv(a, ind=2), T4, onp.linalg.tensorinv(T4, ind=2)),
    ("tensorsolve", lambda F, a, b: F.np.linalg.tensorsolve(a, b), (T4, RHS), onp.linalg.tensorsolve(T4, RHS)),
    ("tensorsolve_axes", lambda F, a, b: F.np.linalg.tensorsolve(a, b, axes=(0,)), (T4.transpose(2, 0, 1), RHS),
     onp.linalg.tensorsolve(T4.transpose(2, 0, 1), RHS, axes=(0,))),
]


@pytest.mark.parametrize("name,fn,args,want", CASES, ids=[c[0] for c in CASES])
def test_traced_linalg_equals_numpy_and_imperative(name, fn, args, want):
    args = args if isinstance(args, tuple) else (args,)
    got = _run(fn, *args)
    eager = _run(fn, *args, hybrid=False)
    assert got.shape == onp.shape(want) or want is None, (name, got.shape)
    if want is None:  # eigvals: order is LAPACK's; compare sorted
        want = onp.sort(onp.linalg.eigvals(args[0]).real, axis=-1)
        got = onp.sort(got, axis=-1)
        eager = onp.sort(eager, axis=-1)
    if name in ("det", "slogdet"):
        assert got.shape == (2,)
    onp.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9, err_msg=name)
    onp.testing.assert_allclose(got.reshape(onp.shape(eager)), eager, rtol=1e-9, atol=1e-12, err_msg=name)


def test_factorizations_reconstruct_their_input():
    w, v = _run(lambda F, a: F.np.linalg.eigh(a), SPD)
    onp.testing.assert_allclose(v @ (w[..., None] * v.transpose(0, 2, 1)), SPD, atol=1e-9)
    ut, s, vt = _run(lambda F, a: F.np.linalg.svd(a), RECT)
    onp.testing.assert_allclose((ut * s) @ vt, RECT, atol=1e-9)
    w, v = _run(lambda F, a: F.np.linalg.eig(a), SPD)
    onp.testing.assert_allclose(SPD @ v, v * w[..., None, :], atol=1e-8)
    sign, logdet = _run(lambda F, a: F.np.linalg.slogdet(a), SPD)
    onp.testing.assert_allclose(sign * onp.exp(logdet), onp.linalg.det(SPD), rtol=1e-9)


def test_one_matrix_gives_shape_1_in_a_graph():
    # Note [NumPy-semantics symbols]: no 0-d array in a graph, so one matrix's det is (1,).
    got = _run(lambda F, a: F.np.linalg.det(a), SPD[0])
    assert got.shape == (1,)
    onp.testing.assert_allclose(got[0], onp.linalg.det(SPD[0]), rtol=1e-9)


def test_names_match_mxnet_and_write_mxnet_operators():
    assert sorted(mx.sym.np.linalg.__all__) == NAMES
    a, b = mx.sym.var("a").as_np_ndarray(), mx.sym.var("b").as_np_ndarray()
    la = mx.sym.np.linalg
    outs = [la.inv(a), la.det(a), la.cholesky(a), la.slogdet(a)[1], la.eigh(a, "U")[1], la.eigvalsh(a), la.pinv(a),
            la.pinv(a, rcond=b), la.norm(a), la.norm(a, 1, axis=1), la.norm(a, onp.inf, axis=-1),
            la.norm(a, -onp.inf, axis=0), la.svd(a)[0], la.solve(a, b), la.eig(a)[0], la.eigvals(a), la.tensorinv(a),
            la.tensorsolve(a, b, (0,))]
    ops = set()
    for o in outs:
        assert isinstance(o, mx.sym.np._Symbol)
        ops |= {n["op"] for n in json.loads(o.tojson())["nodes"]} - {"null"}
    assert ops <= MXNET_HAS, sorted(ops - MXNET_HAS)


def test_bad_input_raises_naming_the_function():
    a = mx.sym.var("a").as_np_ndarray()
    la = mx.sym.np.linalg
    with pytest.raises(TypeError, match="inv: a must be a Symbol"):
        la.inv(onp.eye(2))
    with pytest.raises(ValueError, match="eigh: UPLO must be 'L' or 'U'"):
        la.eigh(a, "X")
    with pytest.raises(TypeError, match="pinv: rcond must be a number or a Symbol"):
        la.pinv(a, rcond="x")
    with pytest.raises(ValueError, match="norm: invalid norm order 'fro' for vectors"):
        la.norm(a, "fro", axis=0)
    with pytest.raises(NotImplementedError, match="norm: ord='nuc'"):
        la.norm(a, "nuc", axis=(0, 1))
    with pytest.raises(ValueError, match="norm: improper number of dimensions"):
        la.norm(a, axis=(0, 1, 2))
    with pytest.raises(TypeError, match="norm: axis must be an integer"):
        la.norm(a, axis=1.5)
