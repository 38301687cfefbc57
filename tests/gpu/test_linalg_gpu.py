"""GPU kernels of the linalg and signal families (core/op/linalg/*.cu,
core/op/signal/*.cu) on paths the registry harness does not reach: the
gradients (built from the families' own ops and Reshape/transpose/take/
broadcast ops) through autograd, with grad_req 'write' and 'add' (kAddTo in
every kernel of the backward graph), each compared with the CPU."""
import numpy as np
import pytest

import weft
from weft import autograd, nd
from op_cases import linalg as L
from op_cases import signal as S

G0 = weft.gpu(0)
CPU = weft.cpu(0)


def _grads(op, xs, attrs, ctx, diff, req):
    arrays = [nd.array(x, dtype=x.dtype, ctx=ctx) for x in xs]
    for i in diff:
        arrays[i].attach_grad(grad_req=req)
        if req == "add":
            arrays[i].grad[:] = 0.5
    outs = None
    for _ in range(2 if req == "add" else 1):
        with autograd.record():
            out = getattr(nd, op)(*arrays, **attrs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        heads = [nd.array(np.linspace(-1, 1, o.size).reshape(o.shape), dtype=o.dtype, ctx=ctx) for o in outs]
        autograd.backward(outs, heads)
    return [o.asnumpy() for o in outs] + [arrays[i].grad.asnumpy() for i in diff]


def _cases():
    rng = np.random.default_rng(0)
    return [
        ("_linalg_gemm", [rng.uniform(-1, 1, (2, 3, 4)), rng.uniform(-1, 1, (2, 5, 4)), rng.uniform(-1, 1, (2, 3, 5))],
         dict(transpose_b=True, alpha=0.5, beta=2.0), [0, 1, 2]),
        ("_linalg_gemm2", [rng.uniform(-1, 1, (2, 3, 2, 4)), rng.uniform(-1, 1, (2, 4, 2, 3))], dict(axis=1), [0, 1]),
        ("_linalg_trmm", [rng.uniform(-1, 1, (3, 3)), rng.uniform(-1, 1, (2, 3))], dict(rightside=True, lower=False),
         [0, 1]),
        ("_linalg_trsm", [L.lower_factor((2, 3, 3))(rng), rng.uniform(-1, 1, (2, 3, 2))], dict(transpose=True), [0, 1]),
        ("_linalg_syrk", [rng.uniform(-1, 1, (2, 3, 4))], dict(transpose=True), [0]),
        ("_linalg_potrf", [L.spd((2, 3, 3))(rng)], {}, [0]),
        ("_linalg_potri", [L.lower_factor((3, 3))(rng)], dict(lower=False), [0]),
        ("_linalg_gelqf", [rng.uniform(-1, 1, (2, 4))], {}, [0]),
        ("_linalg_syevd", [L.spd((3, 3))(rng)], {}, [0]),
        ("_linalg_inverse", [L.well_conditioned((2, 3, 3))(rng)], {}, [0]),
        ("_linalg_det", [L.well_conditioned((2, 3, 3))(rng)], {}, [0]),
        ("_linalg_slogdet", [L.well_conditioned((3, 3))(rng)], {}, [0]),
        ("_linalg_sumlogdiag", [L.spd((2, 3, 3))(rng)], {}, [0]),
        ("_linalg_extracttrian", [rng.uniform(-1, 1, (2, 4, 4))], dict(offset=1), [0]),
        ("_linalg_maketrian", [rng.uniform(-1, 1, (2, 6))], dict(lower=False), [0]),
        ("_linalg_extractdiag", [rng.uniform(-1, 1, (3, 3))], dict(offset=-1), [0]),
        ("_linalg_makediag", [rng.uniform(-1, 1, (2, 3))], dict(offset=1), [0]),
        ("_contrib_fft", [rng.uniform(-1, 1, (2, 4))], {}, [0]),
        ("_contrib_ifft", [rng.uniform(-1, 1, (2, 6))], {}, [0]),
        ("_contrib_count_sketch", [rng.uniform(-1, 1, (2, 5)), np.array([[0, 2, 1, 2, 0.0]]),
                                   np.array([[1, -1, 1, 1, -1.0]])], dict(out_dim=3), [0]),
        ("_contrib_hawkesll", S.hawkes_inputs(2, 2, 3, np.float64)(rng), {}, [0, 1, 2]),
    ]


CASES = _cases()


@pytest.mark.parametrize("req", ["write", "add"])
@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_gradient_on_gpu_matches_cpu(k, req):
    op, xs, attrs, diff = CASES[k]
    want = _grads(op, xs, attrs, CPU, diff, req)
    got = _grads(op, xs, attrs, G0, diff, req)
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-11, err_msg="%s (%s) array %d" % (op, req, i))
