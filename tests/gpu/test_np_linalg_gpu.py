"""weft.np.linalg on gpu(0) (issue 37): every function, and the gradients of
the differentiated ones (through the GPU kernels of _npi_svd, _npi_solve, their
backward ops and the _linalg_* family), against the same calls on the CPU.
Outputs stay on the input's device."""
import numpy as np
import pytest

import weft
from weft import autograd
from weft import np as wnp

LA = wnp.linalg
G0 = weft.gpu(0)
CPU = weft.cpu(0)


def _arr(x, ctx):
    return weft.nd.array(x, dtype=x.dtype, ctx=ctx).as_np_ndarray()


def _inputs():
    rng = np.random.default_rng(0)
    well = rng.uniform(-1, 1, (2, 3, 3)) + 4 * np.eye(3)
    m = rng.uniform(-1, 1, (3, 3))
    spd = m @ m.T + 3 * np.eye(3)
    p = rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)
    real_eig = p @ np.diag([1.0, 2.0, 3.5]) @ np.linalg.inv(p)
    wide = rng.uniform(-1, 1, (2, 3, 5))
    tall = rng.uniform(-1, 1, (5, 3))
    rhs = rng.uniform(-1, 1, (2, 3, 2))
    return dict(well=well, spd=spd, real_eig=real_eig, wide=wide, tall=tall, rhs=rhs,
                b5=rng.uniform(-1, 1, (5,)), t4=(rng.uniform(-1, 1, (4, 4)) + 4 * np.eye(4)).reshape(2, 2, 4),
                v3=rng.uniform(-1, 1, (3,)))


CALLS = {
    "cholesky": (LA.cholesky, ["spd"]), "inv": (LA.inv, ["well"]), "det": (LA.det, ["well"]),
    "slogdet": (LA.slogdet, ["well"]), "eigh": (LA.eigh, ["spd"]), "eigvalsh": (LA.eigvalsh, ["spd"]),
    "eig": (LA.eig, ["real_eig"]), "eigvals": (LA.eigvals, ["real_eig"]),
    "svd": (LA.svd, ["wide"]), "qr": (LA.qr, ["tall"]), "solve": (LA.solve, ["well", "rhs"]),
    "pinv": (LA.pinv, ["wide"]), "lstsq": (lambda a, b: LA.lstsq(a, b, rcond=None), ["tall", "b5"]),
    "matrix_rank": (LA.matrix_rank, ["wide"]), "cond": (LA.cond, ["well"]), "norm": (lambda a: LA.norm(a, "nuc", axis=(-2, -1)),
                                                                                      ["wide"]),
    "matrix_power": (lambda a: LA.matrix_power(a, -2), ["well"]), "matrix_power 0": (lambda a: LA.matrix_power(a, 0),
                                                                                     ["well"]),
    "multi_dot": (lambda a, b: LA.multi_dot([a, b, a]), ["spd", "spd"]),
    "tensorinv": (LA.tensorinv, ["t4"]), "tensorsolve": (LA.tensorsolve, ["t4", "rhs"]),
}


def _run(name, ctx):
    f, keys = CALLS[name]
    xs = _inputs()
    if name == "tensorsolve":
        xs["rhs"] = xs["rhs"][0, :2, :2].copy()
    out = f(*[_arr(xs[k], ctx) for k in keys])
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    for o in outs:
        assert o.context == ctx, "%s: output on %s, input on %s" % (name, o.context, ctx)
    return [o.asnumpy() for o in outs]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_np_linalg_gpu_matches_cpu(name):
    for g, c in zip(_run(name, G0), _run(name, CPU)):
        np.testing.assert_allclose(g, c, rtol=1e-8, atol=1e-10, err_msg=name)


def _grad(f, xs, ctx):
    arrays = [_arr(x, ctx) for x in xs]
    for a in arrays:
        a.attach_grad()
    with autograd.record():
        out = f(*arrays)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    heads = [_arr(np.linspace(-1, 1, o.size).reshape(o.shape), ctx) for o in outs]
    autograd.backward(outs, heads)
    return [a.grad.asnumpy() for a in arrays]


@pytest.mark.parametrize("name", ["svd", "solve", "pinv", "norm", "eigh", "qr", "det"])
def test_np_linalg_gradients_gpu_match_cpu(name):
    f, keys = CALLS[name]
    xs = [_inputs()[k] for k in keys]
    for g, c in zip(_grad(f, xs, G0), _grad(f, xs, CPU)):
        np.testing.assert_allclose(g, c, rtol=1e-7, atol=1e-9, err_msg=name)
