"""weft.np.tensordot (issue 37 point 3; weft/numpy/contraction.py, Note
[Tensordot as one GEMM]) against official NumPy: int and pair axes, negative
axes, 0-d and zero-size operands, mixed dtypes, bad input, and the gradient
of both operands against finite differences."""
import numpy as onp
import pytest

import weft
from weft import np


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


CASES = [
    ((3, 4, 5), (4, 5, 2), 2),
    ((3, 4), (4, 2), 1),
    ((2, 3), (4, 5), 0),
    ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])),
    ((3, 4, 5), (2, 4), ([-2], [-1])),
    ((2, 3), (3, 2), ([0, 1], [1, 0])),
    ((), (3, 2), 0),
    ((4,), (4,), 1),
    ((0, 3), (3, 2), 1),
    ((2, 0), (0, 3), 1),
    ((2, 3), (3, 0), 1),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("sa,sb,axes", CASES)
def test_tensordot_matches_numpy(dtype, sa, sb, axes):
    rng = onp.random.default_rng(7)
    a = rng.uniform(-1, 1, size=sa).astype(dtype)
    b = rng.uniform(-1, 1, size=sb).astype(dtype)
    got = np.tensordot(_np(a), _np(b), axes=axes)
    want = onp.tensordot(a, b, axes=axes)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-5 if dtype == "float32" else 1e-12
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


def test_tensordot_mixed_dtypes_promote():
    a, b = onp.arange(6, dtype=onp.int32).reshape(2, 3), onp.ones((3, 2), onp.float64)
    got = np.tensordot(_np(a), _np(b), axes=1)
    assert got.dtype == onp.float64
    onp.testing.assert_allclose(got.asnumpy(), onp.tensordot(a, b, axes=1))


def test_tensordot_bad_input():
    a, b = _np(onp.ones((2, 3), onp.float32)), _np(onp.ones((3, 4), onp.float32))
    with pytest.raises(ValueError, match=r"tensordot: shape-mismatch for sum: axis 0 of 'a' has length 2"):
        np.tensordot(a, b, axes=([0], [0]))
    with pytest.raises(ValueError, match=r"tensordot: shape-mismatch for sum: 'axes' pairs 2 axes of 'a' with 1"):
        np.tensordot(a, b, axes=([0, 1], [0]))
    with pytest.raises(ValueError, match=r"tensordot: axis 2 is out of bounds for 'a' of dimension 2"):
        np.tensordot(a, b, axes=([2], [0]))
    with pytest.raises(ValueError, match=r"tensordot: argument 'axes' = 3 exceeds"):
        np.tensordot(a, b, axes=3)
    with pytest.raises(ValueError, match=r"tensordot: argument 'axes' must be non-negative"):
        np.tensordot(a, b, axes=-1)
    with pytest.raises(ValueError, match=r"tensordot: repeated axis"):
        np.tensordot(a, _np(onp.ones((3, 3), onp.float32)), axes=([1, 1], [0, 1]))
    with pytest.raises(TypeError, match=r"tensordot: argument 'axes' must be an int or a pair"):
        np.tensordot(a, b, axes="x")
    with pytest.raises(TypeError, match=r"tensordot: argument 'axes' must hold integers"):
        np.tensordot(a, b, axes=([1.5], [0]))
    with pytest.raises(TypeError, match=r"tensordot: argument 'b' must be a weft.np.ndarray, got list"):
        np.tensordot(a, [[1.0]], axes=1)


def _numeric_grad(f, x, eps=1e-6):
    g = onp.zeros_like(x)
    for i in onp.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


@pytest.mark.parametrize("sa,sb,axes", [((3, 4, 2), (2, 4, 3), ([1, 2], [1, 0])), ((2, 3), (3,), 1),
                                        ((2,), (3,), 0)])
def test_tensordot_gradients_match_finite_differences(sa, sb, axes):
    rng = onp.random.default_rng(8)
    a0, b0 = rng.uniform(-1, 1, size=sa), rng.uniform(-1, 1, size=sb)
    w = rng.uniform(-1, 1, size=onp.tensordot(a0, b0, axes=axes).shape)
    a, b = _np(a0), _np(b0)
    a.attach_grad()
    b.attach_grad()
    with weft.autograd.record():
        y = np.tensordot(a, b, axes=axes)
    y.backward(_np(w))
    ga = _numeric_grad(lambda v: float((onp.tensordot(v, b0, axes=axes) * w).sum()), a0)
    gb = _numeric_grad(lambda v: float((onp.tensordot(a0, v, axes=axes) * w).sum()), b0)
    onp.testing.assert_allclose(a.grad.asnumpy(), ga, rtol=1e-6, atol=1e-8)
    onp.testing.assert_allclose(b.grad.asnumpy(), gb, rtol=1e-6, atol=1e-8)


EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("abc,cd,de->abe", [(2, 3, 4), (4, 5), (5, 2)]),
    ("iij->j", [(3, 3, 2)]),
    ("ijk,ikl,j->kl", [(2, 3, 4), (2, 4, 3), (3,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,kj->", [(2, 3), (4, 3)]),
    (",i->i", [(), (3,)]),
    ("ij,jk->ik", [(0, 4), (4, 5)]),
    ("ij,jk->ik", [(3, 0), (0, 5)]),
    ("ijk->kij", [(2, 0, 3)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(1, 3, 4), (2, 4, 5)]),
    ("...ij,jk", [(2, 2, 3, 4), (4, 5)]),
    ("i...->...", [(3, 2, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("ij...,jk...->ik...", [(2, 3, 4), (3, 2, 1)]),
    ("...,...", [(2, 3), (3,)]),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("spec,shapes", EINSUMS)
def test_einsum_matches_numpy(spec, shapes, dtype):
    rng = onp.random.default_rng(14)
    xs = [rng.uniform(-1, 1, size=s).astype(dtype) for s in shapes]
    got = np.einsum(spec, *[_np(x) for x in xs])
    want = onp.einsum(spec, *xs)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-5 if dtype == "float32" else 1e-12
    onp.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


def test_einsum_out_optimize_and_mixed_dtypes():
    a, b = onp.arange(6, dtype=onp.int32).reshape(2, 3), onp.ones((3, 2), onp.float64)
    got = np.einsum("ij,jk->ik", _np(a), _np(b), optimize=True)
    assert got.dtype == onp.float64
    onp.testing.assert_allclose(got.asnumpy(), onp.einsum("ij,jk->ik", a, b))
    out = _np(onp.zeros((2, 2)))
    assert np.einsum("ij,jk->ik", _np(a), _np(b), out=out) is out
    onp.testing.assert_allclose(out.asnumpy(), a @ b)


def test_einsum_bad_input():
    a = _np(onp.ones((2, 3), onp.float32))
    with pytest.raises(ValueError, match="einsum: 'subscripts' names 2 operands but 1 were given"):
        np.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError, match="einsum: operand has 2 dimensions but subscripts 'ijk' name 3"):
        np.einsum("ijk->i", a)
    with pytest.raises(ValueError, match="einsum: subscript 'j' has length 3 in one operand and 2 in another"):
        np.einsum("ij,jk->ik", a, a)
    with pytest.raises(ValueError, match="einsum: output subscript 'k' does not appear in the inputs"):
        np.einsum("ij->k", a)
    with pytest.raises(ValueError, match="einsum: output subscripts 'ii' must be distinct letters"):
        np.einsum("ij->ii", a)
    with pytest.raises(ValueError, match="einsum: invalid subscript"):
        np.einsum("i1->i", a)
    with pytest.raises(ValueError, match="einsum: more than one ellipsis"):
        np.einsum("...i...->i", a)
    with pytest.raises(ValueError, match="need '...' for the broadcast dimensions"):
        np.einsum("...j->j", a)
    with pytest.raises(TypeError, match="einsum: operand 1 must be a weft.np.ndarray, got list"):
        np.einsum("ij,jk->ik", a, [[1.0]])
    with pytest.raises(TypeError, match="einsum: argument 'subscripts' must be a str"):
        np.einsum(3, a)
    with pytest.raises(TypeError, match="einsum: unexpected keyword"):
        np.einsum("ij->i", a, casting="no")


@pytest.mark.parametrize("spec,shapes", [("ij,jk->ik", [(3, 4), (4, 2)]), ("ii->i", [(3, 3)]),
                                         ("abc,cd,de->abe", [(2, 3, 2), (2, 3), (3, 2)]),
                                         ("ij,ij->", [(2, 3), (2, 3)])])
def test_einsum_gradients_match_finite_differences(spec, shapes):
    rng = onp.random.default_rng(15)
    xs0 = [rng.uniform(-1, 1, size=s) for s in shapes]
    w = rng.uniform(-1, 1, size=onp.einsum(spec, *xs0).shape)
    xs = [_np(x) for x in xs0]
    for x in xs:
        x.attach_grad()
    with weft.autograd.record():
        y = np.einsum(spec, *xs)
    y.backward(_np(w))
    for k in range(len(xs)):
        def f(v, k=k):
            args = list(xs0)
            args[k] = v
            return float((onp.einsum(spec, *args) * w).sum())
        onp.testing.assert_allclose(xs[k].grad.asnumpy(), _numeric_grad(f, xs0[k]), rtol=1e-6, atol=1e-8)
