"""Cases of _npi_eigh, _npi_eigvalsh, _npi_pinv and _npi_pinv_scalar_rcond
(core/op/linalg/np_eigh.cc, np_pinv.cc) against NumPy: float32, float64 and an
integer input (float64 result, Note [np.linalg dtypes of eigh and pinv]), the
UPLO triangle, batches, a rank-deficient matrix, rcond as a number, a 0-d and
a per-matrix array, hermitian=True, empty batches. The gradients are checked
by tests/cpp/gradient_check_test.cc and tests/python/test_np_nodes_npeig.py."""
import numpy as np

from .nn_ref import F32, F64, C, derived, fd, ins, rand
from .linalg import spd

TOL32 = dict(rtol=1e-4, atol=1e-5)
I64 = np.int64


def A(inputs, ref, name="", **kw):
    """A case whose attributes go to the reference too."""
    c = C(inputs, ref, name=name, **kw)
    c.ref_takes_attrs = True
    return c


def eigh_ref(a, UPLO="L"):
    """NumPy's eigh of the UPLO triangle with each eigenvector's largest-magnitude entry positive."""
    out = np.float32 if a.dtype == F32 else F64
    w, v = np.linalg.eigh(np.asarray(a, F64), UPLO=UPLO)
    k = np.argmax(np.abs(v), axis=-2)[..., None, :]
    sign = np.sign(np.take_along_axis(v, k, axis=-2))
    return w.astype(out), (v * sign).astype(out)


def eigvalsh_ref(a, UPLO="L"):
    return eigh_ref(a, UPLO)[0]


def pinv_ref(a, rcond=1e-15, hermitian=False):
    out = np.float32 if a.dtype == F32 else F64
    r = np.asarray(rcond, F64)
    return np.linalg.pinv(np.asarray(a, F64), r, hermitian=hermitian).astype(out)


def rank2(shape, dtype):
    """(batch..., m, n) matrices of rank 2: pinv's cutoff drops the zero singular values."""
    def make(rng):
        x = rng.uniform(-1, 1, size=shape[:-1] + (2,)) @ rng.uniform(-1, 1, size=shape[:-2] + (2, shape[-1]))
        return x.astype(dtype)
    return make


def ints(shape):
    def make(rng):
        return rng.integers(-4, 5, size=shape).astype(I64)
    return make


def pinv_backward_ref(g, a, rcond=1e-15, hermitian=False):
    """Central differences of NumPy's pinv (the cutoff held, hermitian read from the lower triangle)."""
    out = np.float32 if a.dtype == F32 else F64
    r = np.asarray(rcond, F64)
    if hermitian:  # A read from its lower triangle, the gradient given as the symmetric matrix
        sym = lambda x: np.tril(x) + np.swapaxes(np.tril(x, -1), -1, -2)  # noqa: E731
        return _sym_grad(fd(lambda x: np.linalg.pinv(sym(x), r, hermitian=True), [a], 0, g)).astype(out)
    return fd(lambda x: np.linalg.pinv(x, r), [a], 0, g).astype(out)


def _sym_grad(da):
    """The gradient of f(A) read from A's lower triangle, as the symmetric matrix the op gives:
    the lower entries' sensitivities halved off the diagonal and mirrored."""
    low = np.tril(da, -1) / 2
    return low + np.swapaxes(low, -1, -2) + da * np.eye(da.shape[-1])


def pinv_grad_inputs(shape, dtype, rcond=None):
    def make(rng):
        a = rng.uniform(-1, 1, size=shape)
        g = rng.uniform(-1, 1, size=shape[:-2] + (shape[-1], shape[-2]))
        xs = [g.astype(dtype), a.astype(dtype)]
        return xs + ([np.asarray(rcond, dtype)] if rcond is not None else [])
    return make


CASES = {
    "_npi_eigh": [
        A(ins(spd((4, 4))), eigh_ref, rtol=1e-9, atol=1e-10),
        A(ins(rand((2, 3, 3), F32)), eigh_ref, name="upper triangle batch float32", UPLO="U", **TOL32),
        A(ins(rand((3, 3), F64)), eigh_ref, name="lower triangle of a non-symmetric matrix", UPLO="L"),
        # a fixed integer matrix: random ones may tie two entries of an eigenvector in magnitude (the sign rule's
        # choice is then the rounding's)
        A(ins(lambda rng: np.array([[4, 1, 0], [1, 2, -2], [0, -2, -1]], dtype=I64)), eigh_ref,
          name="int64 gives float64", rtol=1e-9, atol=1e-10),
        A(ins(rand((0, 2, 2), F64)), eigh_ref, name="empty batch"),
    ],
    "_npi_eigvalsh": [
        A(ins(rand((2, 4, 4), F64)), eigvalsh_ref),
        A(ins(spd((3, 3), F32)), eigvalsh_ref, name="upper float32", UPLO="U", **TOL32),
        A(ins(ints((2, 3, 3))), eigvalsh_ref, name="int64 gives float64", rtol=1e-9, atol=1e-10),
    ],
    "_npi_pinv_scalar_rcond": [
        A(ins(rand((3, 5), F64)), pinv_ref, rtol=1e-9, atol=1e-10),
        A(ins(rand((2, 4, 3), F32)), pinv_ref, name="tall batch float32", **TOL32),
        A(ins(rank2((2, 4, 4), F64)), pinv_ref, name="rank 2, cutoff", rcond=1e-8, rtol=1e-8, atol=1e-9),
        A(ins(rand((3, 3), F64)), pinv_ref, name="hermitian reads the lower triangle", hermitian=True),
        A(ins(ints((3, 2))), pinv_ref, name="int64 gives float64", rtol=1e-9, atol=1e-10),
        A(ins(rand((2, 0, 3), F64)), pinv_ref, name="empty matrices"),
    ],
    "_npi_pinv": [
        A(derived(ins(rank2((2, 3, 4), F64)), lambda rng, a: [a, np.array([1e-8, 0.9])]), pinv_ref,
          name="per-matrix rcond", rtol=1e-8, atol=1e-9),
        A(derived(ins(rand((4, 3), F32)), lambda rng, a: [a, np.array(0.5, dtype=F64)]), pinv_ref,
          name="0-d float64 rcond, float32 a", **TOL32),
        A(derived(ins(rand((3, 2, 2, 2), F64)), lambda rng, a: [a, np.array([[1e-12], [0.5], [0.9]])]), pinv_ref,
          name="rcond (3, 1) over batch (3, 2)", rtol=1e-8, atol=1e-9),
    ],
    "_backward_npi_pinv_scalar_rcond": [
        A(pinv_grad_inputs((3, 4), F64), pinv_backward_ref, rtol=1e-6, atol=1e-7),
        A(pinv_grad_inputs((2, 4, 3), F64), pinv_backward_ref, name="cutoff drops one", rcond=0.5, rtol=1e-6,
          atol=1e-7),
        A(pinv_grad_inputs((3, 3), F64), pinv_backward_ref, name="hermitian", hermitian=True, rtol=1e-6, atol=1e-7),
    ],
    "_backward_npi_pinv": [
        A(pinv_grad_inputs((2, 3, 3), F32, rcond=[1e-6, 0.5]), pinv_backward_ref, name="per-matrix rcond float32",
          rtol=2e-3, atol=2e-3),
    ],
}
