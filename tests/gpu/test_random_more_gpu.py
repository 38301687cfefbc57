"""GPU paths of the random family (core/op/random/sample_ops.cu,
multinomial_shuffle.cu, pdf.cu) that the registry harness does not reach: a
half-precision sampler on gpu(0) stores the float draws rounded to 16 bits; the pdf gradients through autograd under
grad_req='add' equal the CPU's; the multinomial gradient on GPU; a shuffle on
GPU in place."""
import numpy as np
import pytest

import weft
from weft import autograd, nd

G0 = weft.gpu(0)
CPU = weft.cpu(0)


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_half_samplers_on_gpu_are_the_float_draws_rounded(half):
    """A 16-bit sampler on gpu(0) draws in float (double) and stores in 16 bits:
    under one seed its values are the float64 draws rounded to the 16-bit type
    (uniform's draw keeps the dtype's mantissa bits, as on the CPU, so it is
    checked for its range and mean instead)."""
    for op, attrs in [("_random_gamma", {"alpha": 2.0}), ("_random_poisson", {"lam": 3.0}),
                      ("_random_normal", {"loc": 1.0, "scale": 2.0}), ("_random_exponential", {"lam": 2.0})]:
        weft.random.seed(11)
        h = getattr(nd, op)(shape=(2000,), dtype=half, ctx=G0, **attrs)
        weft.random.seed(11)
        d = getattr(nd, op)(shape=(2000,), dtype="float64", ctx=G0, **attrs)
        assert h.dtype == np.dtype(weft.dtypes.bfloat16 if half == "bfloat16" else np.float16), op
        np.testing.assert_array_equal(h.asnumpy().view(np.uint16),
                                      nd.Cast(d, dtype=half).asnumpy().view(np.uint16), err_msg=op)
    weft.random.seed(5)
    u = nd.Cast(nd.random.uniform(-1.0, 1.0, shape=(4000,), dtype=half, ctx=G0), dtype="float32").asnumpy()
    assert u.min() >= -1.0 and u.max() < 1.0 and abs(u.mean()) < 0.1
    x = nd.random.exponential(2.0, shape=(1000,), ctx=G0).asnumpy()
    assert np.isfinite(x).all() and abs(x.mean() - 2.0) < 0.5


def test_sample_ops_reproducible_on_gpu_and_nan_for_bad_parameters():
    lam = nd.array([1.0, -1.0, 3.0], ctx=G0)
    weft.random.seed(3)
    a = nd.random.poisson(lam, shape=(500,)).asnumpy()
    weft.random.seed(3)
    b = nd.random.poisson(lam, shape=(500,)).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert np.isnan(a[1]).all() and np.isfinite(a[[0, 2]]).all()
    assert abs(a[2].mean() - 3.0) < 0.5


@pytest.mark.parametrize("op, make", [
    ("_random_pdf_normal", lambda r: [r.normal(size=(2, 5)), r.normal(size=(2,)), r.uniform(0.5, 2, (2,))]),
    ("_random_pdf_gamma", lambda r: [r.uniform(0.2, 3, (3, 4)), r.uniform(0.5, 3, (3,)), r.uniform(0.5, 2, (3,))]),
    ("_random_pdf_negative_binomial",
     lambda r: [r.integers(0, 6, (2, 3)).astype(float), r.uniform(1, 4, (2,)), r.uniform(0.2, 0.8, (2,))]),
    ("_random_pdf_dirichlet", lambda r: [r.dirichlet([1, 1, 1], size=(2, 4)), r.uniform(0.5, 3, (2, 3))]),
])
@pytest.mark.parametrize("is_log", [False, True])
def test_pdf_gradients_gpu_match_cpu(op, make, is_log):
    xs = make(np.random.default_rng(5))
    got = {}
    for ctx in (G0, CPU):
        ins = [nd.array(x, dtype="float64", ctx=ctx) for x in xs]
        for v in ins:
            v.attach_grad(grad_req="add")
        for _ in range(2):
            with autograd.record():
                y = getattr(nd, op)(*ins, is_log=is_log)
            y.backward(nd.ones(y.shape, dtype="float64", ctx=ctx))
        got[ctx] = [y.asnumpy()] + [v.grad.asnumpy() for v in ins]
    for g, c in zip(got[G0], got[CPU]):
        np.testing.assert_allclose(g, c, rtol=1e-10, atol=1e-12)


def test_multinomial_gradient_on_gpu():
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.4, 0.0]])
    data = nd.array(p, dtype="float64", ctx=G0)
    data.attach_grad()
    with autograd.record():
        s, logp = nd.random.multinomial(data, shape=(50,), get_prob=True)
    logp.backward(nd.ones((2, 50), dtype="float64", ctx=G0))
    s = s.asnumpy()
    want = np.zeros_like(p)
    for r in range(2):
        for c in range(3):
            n = np.sum(s[r] == c)
            want[r, c] = n / p[r, c] if n else 0.0
    np.testing.assert_allclose(data.grad.asnumpy(), want, rtol=1e-10)


def test_shuffle_in_place_on_gpu():
    x = nd.array(np.arange(24, dtype=np.float32).reshape(8, 3), ctx=G0)
    nd.random.shuffle(x, out=x)
    y = x.asnumpy()
    assert sorted(y[:, 0].tolist()) == list(range(0, 24, 3))
    np.testing.assert_array_equal(y[:, 1:] - y[:, :1], np.tile([1, 2], (8, 1)))
