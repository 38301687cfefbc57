"""Cases of _npi_einsum (core/op/dense/np_einsum.cc), _npi_tensorinv and
_npi_tensorsolve (core/op/linalg/np_tensor_solve.cc), MXNet 1.9.1's NumPy-mode
einsum and np.linalg.tensorinv/tensorsolve, and their backward ops, against
official NumPy."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, rand

I32 = np.int32


def _ins(*makers):
    return lambda rng: [m(rng) if callable(m) else np.asarray(m) for m in makers]


def _einsum_ref(subscripts):
    def ref(*xs):
        wide = [x.astype(F64) if x.dtype.kind == "f" else x.astype(np.int64) if x.dtype.kind in "iu" else x
                for x in xs]
        return np.asarray(np.einsum(subscripts, *wide)).astype(xs[0].dtype)
    return ref


def _es(subscripts, shapes, dtype=F32, tol=1e-5, name=""):
    makers = [rand(s, dtype, -3, 3) if dtype == I32 else rand(s, dtype) for s in shapes]
    return Case(_ins(*makers), attrs={"num_args": len(shapes), "subscripts": subscripts}, ref=_einsum_ref(subscripts),
                rtol=tol, atol=tol, name=name or subscripts)


def _bool_case():
    def make(rng):
        return [rng.uniform(size=(3, 4)) < 0.4, rng.uniform(size=(4, 2)) < 0.4]
    return Case(make, attrs={"num_args": 2, "subscripts": "ij,jk->ik"}, ref=_einsum_ref("ij,jk->ik"), rtol=0, atol=0,
                name="bool-or-of-ands")


def _einsum_grads(subscripts):
    """The gradients of sum(og * einsum(xs)): einsum is linear in each operand,
    so each element of operand i's gradient is sum(og * einsum(.., e, ..)) for
    the basis array e of that element."""
    def ref(og, *xs):
        og64, xs64 = og.astype(F64), [x.astype(F64) for x in xs]
        grads = []
        for i, x in enumerate(xs):
            g = []
            for e in np.eye(x.size):
                args = list(xs64)
                args[i] = e.reshape(x.shape)
                g.append((og64 * np.einsum(subscripts, *args)).sum())
            grads.append(np.array(g).reshape(x.shape).astype(x.dtype))
        return tuple(grads)
    return ref


def _es_grad(subscripts, shapes, dtype=F64, tol=1e-12, name=""):
    out = np.shape(np.einsum(subscripts, *[np.zeros(s) for s in shapes]))
    return Case(_ins(rand(out, dtype), *[rand(s, dtype) for s in shapes]),
                attrs={"num_args": len(shapes), "subscripts": subscripts}, ref=_einsum_grads(subscripts), rtol=tol,
                atol=tol, name=name or subscripts)


def _well_conditioned(shape, side, dtype):
    """An array whose (side, side) reading is diagonally dominant (invertible)."""
    def make(rng):
        m = rng.uniform(-1, 1, size=(side, side)) + np.eye(side) * side
        return m.reshape(shape).astype(dtype)
    return make


def _tensorinv_ref(ind):
    return lambda a: np.linalg.tensorinv(a.astype(F64), ind=ind).astype(a.dtype)


def _tensorinv_grad(ind):
    def ref(og, x):
        nd = x.ndim
        side = int(np.prod(x.shape[:nd - ind]))
        a_shape = x.shape[nd - ind:] + x.shape[:nd - ind]
        xm, gm = x.astype(F64).reshape(side, side), og.astype(F64).reshape(side, side)
        return (-(xm.T @ gm @ xm.T)).reshape(a_shape).astype(x.dtype)
    return ref


def _moved(a, axes):
    if axes is None:
        return a
    order = list(range(a.ndim))
    for k in axes:
        order.remove(k % a.ndim)
        order.append(k % a.ndim)
    return a.transpose(order)


def _tensorsolve_ref(axes):
    # the axes moved here: NumPy's tensorsolve refuses negative ones, which MXNet accepts
    return lambda a, b: np.linalg.tensorsolve(_moved(a.astype(F64), axes), b.astype(F64)).astype(a.dtype)


def _tensorsolve_grad(axes):
    def ref(og, a, b, x):
        am = _moved(a.astype(F64), axes)
        side = x.size
        m = am.reshape(side, side)
        db = np.linalg.solve(m.T, og.astype(F64).reshape(side))
        dm = -np.outer(db, x.astype(F64).reshape(side))
        da = np.zeros(a.shape)
        _moved(da, axes)[...] = dm.reshape(am.shape)  # a view of da in the moved order
        return da.astype(a.dtype), db.reshape(b.shape).astype(b.dtype)
    return ref


def _solve_case(a_shape, side, b_shape, axes, dtype=F64, tol=1e-10, name="", backward=False):
    attrs = {} if axes is None else {"a_axes": tuple(axes)}
    a_make, b_make = _well_conditioned(a_shape, side, dtype), rand(b_shape, dtype)
    if not backward:
        return Case(_ins(a_make, b_make), attrs=attrs, ref=_tensorsolve_ref(axes), rtol=tol, atol=tol, name=name)
    def make(rng):
        a, b = a_make(rng), b_make(rng)
        x = np.linalg.tensorsolve(_moved(a.astype(F64), axes), b.astype(F64)).astype(dtype)
        return [rng.uniform(-1, 1, size=x.shape).astype(dtype), a, b, x]
    return Case(make, attrs=attrs, ref=_tensorsolve_grad(axes), rtol=tol, atol=tol, name=name)


CASES = {
    "_npi_einsum": [
        _es("ij,jk->ik", [(2, 3), (3, 4)]),
        _es("ij,jk", [(2, 3), (3, 4)], F64, 1e-12, "implicit-matrix-product"),
        _es("ii->i", [(3, 3)], name="diagonal"),
        _es("ii", [(4, 4)], F64, 1e-12, "trace-0d"),
        _es("ij->", [(2, 3)], name="sum-0d"),
        _es("i,j->ij", [(3,), (4,)], name="outer"),
        _es("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)], F64, 1e-12, "batched"),
        _es("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 2)], F64, 1e-12, "ellipsis-broadcast"),
        _es("ij,ij->ij", [(1, 3), (2, 3)], name="named-label-broadcast"),
        _es("Ba,aB", [(2, 3), (3, 2)], name="upper-case-implicit-0d"),
        _es("ab,Ab", [(2, 3), (4, 3)], name="implicit-order-upper-first"),
        _es("ij,j,jk", [(2, 3), (3,), (3, 2)], F64, 1e-12, "three-operands"),
        _es("i j , j k -> i k", [(2, 3), (3, 2)], name="spaces"),
        _es("ij,jk->ik", [(2, 0), (0, 3)], name="empty-sum-zeros"),
        _es("ij->ji", [(0, 3)], name="zero-size"),
        _es("ij,jk->ik", [(2, 3), (3, 2)], I32, 0, "int32"),
        _es("ij,jk->ik", [(2, 3), (3, 2)], F16, 1e-2, "float16"),
        _bool_case(),
    ],
    "_backward_npi_einsum": [
        _es_grad("ij,jk->ik", [(2, 3), (3, 4)]),
        _es_grad("ii,i->i", [(3, 3), (3,)], name="diagonal-zeros-off"),
        _es_grad("...j,...j->...", [(2, 1, 3), (4, 3)], name="broadcast-sums"),
        _es_grad("ij,j,jk", [(2, 3), (3,), (3, 2)], name="three-operands"),
        _es_grad("ij->", [(2, 3)], F32, 1e-6, "sum"),
    ],
    "_npi_tensorinv": [
        Case(_ins(_well_conditioned((2, 3, 6), 6, F64)), attrs={"ind": 2}, ref=_tensorinv_ref(2), rtol=1e-10,
             atol=1e-10, name="ind2"),
        Case(_ins(_well_conditioned((6, 2, 3), 6, F32)), attrs={"ind": 1}, ref=_tensorinv_ref(1), rtol=1e-4,
             atol=1e-5, name="ind1-f32"),
        Case(_ins(_well_conditioned((4, 4), 4, F64)), ref=_tensorinv_ref(1), attrs={"ind": 1}, rtol=1e-10,
             atol=1e-10, name="matrix"),
    ],
    "_backward_npi_tensorinv": [
        Case(_ins(rand((6, 2, 3), F64), rand((6, 2, 3), F64)), attrs={"ind": 2}, ref=_tensorinv_grad(2),
             rtol=1e-12, atol=1e-12, name="ind2"),
        Case(_ins(rand((2, 3, 6), F32), rand((2, 3, 6), F32)), attrs={"ind": 1}, ref=_tensorinv_grad(1),
             rtol=1e-5, atol=1e-5, name="ind1"),
    ],
    "_npi_tensorsolve": [
        _solve_case((2, 3, 6), 6, (2, 3), None, name="plain"),
        _solve_case((2, 3, 6), 6, (3, 2), None, name="b-shape-only-size"),
        _solve_case((6, 2, 3), 6, (2, 3), (0,), name="axes-moved"),
        _solve_case((6, 2, 3), 6, (2, 3), (-3,), F32, 1e-4, name="negative-axis-f32"),
        _solve_case((2, 3, 6), 6, (6,), (0, 1), name="two-axes-moved"),
    ],
    "_backward_npi_tensorsolve": [
        _solve_case((2, 3, 6), 6, (2, 3), None, name="plain", backward=True),
        _solve_case((6, 2, 3), 6, (2, 3), (0,), name="axes-moved", backward=True),
    ],
}
