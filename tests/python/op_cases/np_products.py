"""Cases of _np_dot, _npi_matmul, _npi_tensordot and _npi_tensordot_int_axes (MXNet
1.9.1's NumPy-mode dot, matmul and tensordot, core/op/dense/np_products.cc) and their
backward ops, against official NumPy.
The CPU kernels are float32/float64 (16-bit data runs on GPU only)."""
import numpy as np

from .case import Case
from .tensor import F32, F64, rand


def _ins(*makers):
    return lambda rng: [m(rng) if callable(m) else np.asarray(m) for m in makers]


def _ref(f):
    return lambda a, b: np.asarray(f(a.astype(F64), b.astype(F64))).astype(a.dtype)


def _grads(f):
    """The gradients of sum(og * f(a, b)): f is bilinear, so each element of a's
    gradient is sum(og * f(e, b)) for the basis array e of that element (and so for b)."""
    def ref(og, a, b):
        og64, a64, b64 = og.astype(F64), a.astype(F64), b.astype(F64)
        ga = np.array([(og64 * f(e.reshape(a.shape), b64)).sum() for e in np.eye(a.size)]).reshape(a.shape)
        gb = np.array([(og64 * f(a64, e.reshape(b.shape))).sum() for e in np.eye(b.size)]).reshape(b.shape)
        return ga.astype(a.dtype), gb.astype(b.dtype)
    return ref


def _out(f, sa, sb):
    return np.shape(f(np.zeros(sa), np.zeros(sb)))


def _grad_case(f, sa, sb, dtype, name, tol):
    return Case(_ins(rand(_out(f, sa, sb), dtype), rand(sa, dtype), rand(sb, dtype)), ref=_grads(f), rtol=tol,
                atol=tol, name=name)


DOT, MATMUL = _ref(np.dot), _ref(np.matmul)


def _td(axes):
    return lambda a, b: np.tensordot(a, b, axes=axes)


def _td_case(sa, sb, a_axes, b_axes, dtype, name, tol=1e-5, backward=False):
    f = _td((list(a_axes), list(b_axes)))
    attrs = {"a_axes_summed": tuple(a_axes), "b_axes_summed": tuple(b_axes)}
    if backward:
        case = _grad_case(f, sa, sb, dtype, name, tol)
        case.attrs = attrs
        return case
    return Case(_ins(rand(sa, dtype), rand(sb, dtype)), attrs=attrs, ref=_ref(f), rtol=tol, atol=tol, name=name)


def _tdi_case(sa, sb, axes, dtype, name, tol=1e-5, backward=False):
    f = _td(axes)
    if backward:
        case = _grad_case(f, sa, sb, dtype, name, tol)
        case.attrs = {"axes": axes}
        return case
    return Case(_ins(rand(sa, dtype), rand(sb, dtype)), attrs={"axes": axes}, ref=_ref(f), rtol=tol, atol=tol,
                name=name)

CASES = {
    "_np_dot": [
        Case(_ins(rand((2, 3)), rand((3, 4))), ref=DOT, name="np_dot-matrices"),
        Case(_ins(rand((2, 3, 4), F64), rand((4,), F64)), ref=DOT, rtol=1e-12, atol=1e-12, name="np_dot-nd-vector"),
        Case(_ins(rand((5,)), rand((5,))), ref=DOT, name="np_dot-inner-0d"),
        Case(_ins(rand((3,)), rand((2, 3, 4))), ref=DOT, name="np_dot-vector-nd"),
        Case(_ins(rand((2, 2, 3), F64), rand((4, 3, 2), F64)), ref=DOT, rtol=1e-12, atol=1e-12,
             name="np_dot-nd-nd-second-to-last"),
        Case(_ins(rand(()), rand((2, 3))), ref=DOT, name="np_dot-0d-scales"),
        Case(_ins(rand((3, 2)), rand(())), ref=DOT, name="np_dot-scales-by-0d"),
        Case(_ins(rand((2, 0)), rand((0, 3))), ref=DOT, name="np_dot-empty-sum-zeros"),
        Case(_ins(rand((0, 3)), rand((3, 2))), ref=DOT, name="np_dot-zero-rows"),
    ],
    "_backward_np_dot": [
        _grad_case(np.dot, (2, 3), (3, 4), F64, "backward_np_dot-matrices", 1e-12),
        _grad_case(np.dot, (2, 3), (2, 3, 2), F64, "backward_np_dot-nd-b-sums-a", 1e-12),
        _grad_case(np.dot, (4,), (4,), F32, "backward_np_dot-inner", 1e-5),
        _grad_case(np.dot, (), (2, 3), F64, "backward_np_dot-0d", 1e-12),
        _grad_case(np.dot, (2, 0), (0, 3), F32, "backward_np_dot-empty-sum", 1e-6),
        _grad_case(np.dot, (2, 3), (0, 3, 2), F64, "backward_np_dot-no-blocks-zeros", 1e-12),
    ],
    "_npi_matmul": [
        Case(_ins(rand((2, 3)), rand((3, 4))), ref=MATMUL, name="matmul-matrices"),
        Case(_ins(rand((2, 1, 2, 3), F64), rand((3, 3, 2), F64)), ref=MATMUL, rtol=1e-12, atol=1e-12,
             name="matmul-broadcast-batch"),
        Case(_ins(rand((3,)), rand((2, 3, 4))), ref=MATMUL, name="matmul-1d-a"),
        Case(_ins(rand((2, 4, 3)), rand((3,))), ref=MATMUL, name="matmul-1d-b"),
        Case(_ins(rand((6,)), rand((6,))), ref=MATMUL, name="matmul-1d-1d-0d"),
        Case(_ins(rand((0, 2, 3)), rand((3, 2))), ref=MATMUL, name="matmul-zero-batch"),
        Case(_ins(rand((2, 0)), rand((0, 3))), ref=MATMUL, name="matmul-empty-sum-zeros"),
    ],
    "_backward_npi_matmul": [
        _grad_case(np.matmul, (2, 1, 2, 3), (3, 3, 2), F64, "backward_matmul-broadcast-sums", 1e-12),
        _grad_case(np.matmul, (3,), (2, 3, 4), F64, "backward_matmul-1d-a", 1e-12),
        _grad_case(np.matmul, (2, 4, 3), (3,), F32, "backward_matmul-1d-b", 1e-5),
        _grad_case(np.matmul, (0, 2, 3), (1, 3, 2), F64, "backward_matmul-zero-batch-zeros", 1e-12),
    ],
    "_npi_tensordot": [
        _td_case((2, 3, 4), (3, 4, 5), (1, 2), (0, 1), F32, "tensordot-trailing-leading"),
        _td_case((3, 4, 2), (3, 4, 5), (0, 1), (0, 1), F64, "tensordot-a-leading-transposed", 1e-12),
        _td_case((2, 3, 4), (5, 3, 4), (2, 1), (2, 1), F32, "tensordot-b-trailing-transposed-pairs-unordered"),
        _td_case((3, 2), (4, 3), (0,), (1,), F64, "tensordot-both-transposed", 1e-12),
        _td_case((2, 3), (3, 4), (-1,), (-2,), F32, "tensordot-negative-axes"),
        _td_case((2, 3), (4,), (), (), F32, "tensordot-no-axes-outer"),
        _td_case((2, 0), (0, 3), (1,), (0,), F32, "tensordot-empty-sum-zeros"),
        # Note [Tensordot pairings as einsum]: no single product, run as an einsum
        _td_case((2, 3, 4), (4, 3, 2), (1, 2), (1, 0), F64, "tensordot-reversed-pairs-as-einsum", 1e-12),
        _td_case((3, 4, 5), (5, 2, 3), (0, 2), (2, 0), F32, "tensordot-scattered-pairs-as-einsum"),
    ],
    "_backward_npi_tensordot": [
        _td_case((2, 3, 4), (3, 4, 5), (1, 2), (0, 1), F64, "backward_tensordot-plain", 1e-12, True),
        _td_case((3, 4, 2), (3, 4, 5), (0, 1), (0, 1), F64, "backward_tensordot-a-transposed", 1e-12, True),
        _td_case((2, 3, 4), (5, 3, 4), (1, 2), (1, 2), F64, "backward_tensordot-b-transposed", 1e-12, True),
        _td_case((3, 2), (4, 3), (0,), (1,), F32, "backward_tensordot-both-transposed", 1e-5, True),
        _td_case((2, 3, 4), (4, 3, 2), (1, 2), (1, 0), F64, "backward_tensordot-as-einsum", 1e-12, True),
    ],
    "_npi_tensordot_int_axes": [
        _tdi_case((2, 3, 4), (3, 4, 5), 2, F32, "tensordot_int-2"),
        _tdi_case((2, 3), (3, 4, 2), 1, F64, "tensordot_int-1", 1e-12),
        _tdi_case((2, 3), (4,), 0, F32, "tensordot_int-0-outer"),
        _tdi_case((3,), (3,), 1, F32, "tensordot_int-inner-0d"),
        _tdi_case((2, 0), (0, 3), 1, F32, "tensordot_int-empty-sum-zeros"),
    ],
    "_backward_npi_tensordot_int_axes": [
        _tdi_case((2, 3, 4), (3, 4, 5), 2, F64, "backward_tensordot_int-2", 1e-12, True),
        _tdi_case((2, 3), (4,), 0, F64, "backward_tensordot_int-0", 1e-12, True),
    ],
}
