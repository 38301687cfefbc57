"""weft.np.linalg: MXNet 1.9.1's ``mxnet.numpy.linalg`` (issue 37), over the
registry's linalg operators.

Each function calls registered ops through ``_invoke``, so it runs on the
engine, on any device with the op's kernels, and is recorded by autograd:
``cholesky`` (``_linalg_potrf``), ``inv``/``det``/``slogdet`` (``_linalg_*``,
registered as MXNet's ``_npi_inv``/``_npi_det``/``_npi_slogdet`` too),
``eigh``/``eigvalsh`` (``_npi_eigh``/``_npi_eigvalsh``), ``pinv``
(``_npi_pinv``/``_npi_pinv_scalar_rcond``), ``qr`` (``_linalg_gelqf`` of the
transpose), ``svd`` (``_npi_svd``), ``solve`` (``_npi_solve``), ``eig``/
``eigvals`` (``_npi_eig``/``_npi_eigvals``), ``tensorinv``/``tensorsolve``
(``_npi_tensorinv``/``_npi_tensorsolve``: inv/solve on reshaped views); the
rest are compositions of those (``lstsq``, ``matrix_rank``, ``cond``,
``norm``'s 2/-2/'nuc' orders from ``svd``; ``matrix_power``/``multi_dot`` are products).

Note [Eager linalg errors]
~~~~~~~~~~~~~~~~~~~~~~~~~~
A kernel that meets a singular matrix (or one that is not positive definite,
or whose eigenvalues are complex) raises while the engine runs it, i.e. when
the result is first waited for. NumPy raises ``LinAlgError`` at the call, and
code written for it catches it there. So the functions whose kernels can
fail on well-shaped input wait for their outputs and re-raise the kernel's
error as ``LinAlgError`` naming the function; that call is synchronous, the
price of NumPy's contract. ``LinAlgError`` derives from weft's
``InvalidArgumentError``, hence from both ``ValueError`` (as NumPy's) and
``weft.base.MXNetError`` (what MXNet raises).

Inputs must be ``weft.np``/``weft.nd`` arrays of float32 or float64, as
MXNet's linalg operators require (NumPy would also accept integers), except
for ``eigh``/``eigvalsh``, which take integers as MXNet 1.9.1's do (float64
results); anything else raises ``TypeError`` naming the function and the
argument.
"""
# pylint: disable=invalid-name,redefined-builtin
import numbers
import sys
import warnings

import numpy as _onp

from ..base import InvalidArgumentError
from ..ndarray.ndarray import NDArray
from ._array import _invoke, _np

__all__ = ["LinAlgError", "cholesky", "cond", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq",
           "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "svd",
           "tensorinv", "tensorsolve"]

# `import weft.np.linalg` (MXNet scripts import mxnet.np's submodules) must find
# this module, not load a second copy of the file under the alias's name: weft
# registers weft.np as an alias of weft.numpy, which covers only the package.
sys.modules.setdefault(__name__.replace(".numpy.", ".np.", 1), sys.modules[__name__])


class LinAlgError(InvalidArgumentError):
    """A linear-algebra failure: singular or not positive-definite matrix,
    complex eigenvalues, wrong dimensions (NumPy's
    ``numpy.linalg.LinAlgError``; a ``ValueError`` and a ``MXNetError``).
    Note [Eager linalg errors]."""


# ---- argument checks ----

def _array(fname, argname, x, integers=False):
    """x as a np array of float32/float64 (or, with integers=True, of an integer
    or bool dtype too), or TypeError naming fname/argname."""
    if not isinstance(x, NDArray):
        raise TypeError("%s: argument '%s' must be a weft.np.ndarray, got %s" % (fname, argname, type(x).__name__))
    kind = _onp.dtype(x.dtype).kind
    if x.dtype not in (_onp.float32, _onp.float64) and not (integers and kind in "biu"):
        raise TypeError("%s: argument '%s' has dtype %s; np.linalg takes float32 or float64 (as MXNet)"
                        % (fname, argname, _onp.dtype(x.dtype).name))
    return x.as_np_ndarray()


def _stacked(fname, argname, x, square=False):
    """Checks that x is a (stack of) matrices, square when asked (NumPy's LinAlgError)."""
    if x.ndim < 2:
        raise LinAlgError("%s: argument '%s' is %d-dimensional; it must be at least two-dimensional"
                          % (fname, argname, x.ndim))
    if square and x.shape[-1] != x.shape[-2]:
        raise LinAlgError("%s: argument '%s' has shape %s; the last two dimensions must be square"
                          % (fname, argname, x.shape))


def _waited(fname, outs):
    """outs after the engine ran them; a kernel error becomes LinAlgError (Note [Eager linalg errors])."""
    try:
        for o in outs if isinstance(outs, (list, tuple)) else [outs]:
            o.wait_to_read()
    except InvalidArgumentError as e:
        raise LinAlgError("%s: %s" % (fname, e)) from None
    return outs


def _reshape(x, shape):
    """x viewed with `shape` (autograd records views), as a np array."""
    return _np(x.reshape(tuple(shape)))


def _swap(x):
    """x with its last two axes swapped."""
    return _invoke("SwapAxis", [x], dim1=x.ndim - 2, dim2=x.ndim - 1)


def _matmul(a, b, ta=False, tb=False):
    """Batched op(a) @ op(b) over the leading axes."""
    return _invoke("_linalg_gemm2", [a, b], transpose_a=ta, transpose_b=tb)


def _per_matrix(x, a):
    """A per-matrix result of a 2-D `a` as a 0-d array (the family gives (1,))."""
    return _reshape(x, ()) if a.ndim == 2 else x


def _eps(x):
    return float(_onp.finfo(_onp.dtype(x.dtype)).eps)


# ---- factorizations ----

def cholesky(a):
    """Lower Cholesky factor L of a (..., M, M) symmetric positive-definite
    array, a = L @ L.T (only the lower triangle of a is read). Differentiable."""
    a = _array("cholesky", "a", a)
    _stacked("cholesky", "a", a, square=True)
    return _waited("cholesky", _invoke("_linalg_potrf", [a], lower=True))


def qr(a, mode="reduced"):
    """(q, r) with a = q @ r for a (..., M, N): q (..., M, K) orthonormal
    columns, r (..., K, N) upper triangular, K = min(M, N). Only
    ``mode='reduced'`` is implemented, as in MXNet 1.9.1. Differentiable
    (full-rank a)."""
    if mode in ("complete", "r", "raw"):
        raise NotImplementedError("qr: mode='%s' is not implemented (MXNet 1.9.1 has only 'reduced')" % mode)
    if mode != "reduced":
        raise ValueError("qr: unrecognized mode %r; expected 'reduced'" % (mode,))
    a = _array("qr", "a", a)
    _stacked("qr", "a", a)
    m, n = a.shape[-2:]
    if m < n:  # Q from the leading M x M block; then R = Q^T a (NumPy's geqrf gives the same)
        q, _ = qr(_invoke("slice_axis", [a], axis=a.ndim - 1, begin=0, end=m))
        return q, _matmul(q, a, ta=True)
    # a^T (N x M, N <= M) = L Q' (gelqf), so a = Q'^T L^T.
    q, l = _invoke("_linalg_gelqf", [_swap(a)])
    return _swap(q), _swap(l)


def svd(a):
    """Singular value decomposition, MXNet 1.9.1's ``(ut, l, v)``: a (..., M,
    N) = ut @ diag(l) @ v with ut (..., M, K), l (..., K) descending, v (...,
    K, N), K = min(M, N). MXNet documents M <= N; M > N works too. Each row of
    v has its largest-magnitude entry positive (NumPy leaves signs to LAPACK).
    Differentiable for distinct non-zero singular values."""
    a = _array("svd", "a", a)
    _stacked("svd", "a", a)
    return tuple(_waited("svd", _invoke("_npi_svd", [a])))


def eig(a):
    """(w, v): eigenvalues w (..., M) and unit right eigenvectors v[..., :, i]
    of a general a (..., M, M). As MXNet 1.9.1 (no complex arrays), a matrix
    with complex eigenvalues raises LinAlgError. Not differentiable (as MXNet)."""
    a = _array("eig", "a", a)
    _stacked("eig", "a", a, square=True)
    return tuple(_waited("eig", _invoke("_npi_eig", [a])))


def eigvals(a):
    """Eigenvalues (..., M) of a general a (..., M, M); real only (see eig)."""
    a = _array("eigvals", "a", a)
    _stacked("eigvals", "a", a, square=True)
    return _waited("eigvals", _invoke("_npi_eigvals", [a]))


def _uplo(fname, UPLO):
    UPLO = UPLO.upper() if isinstance(UPLO, str) else UPLO  # NumPy takes 'l'/'u' too
    if UPLO not in ("L", "U"):
        raise ValueError("%s: UPLO must be 'L' or 'U', got %r" % (fname, UPLO))
    return UPLO


def eigh(a, UPLO="L"):
    """(w, v) of a symmetric a (..., M, M): eigenvalues ascending, eigenvectors
    as the columns of v; only the UPLO ('L' or 'U') triangle is read
    (``_npi_eigh``). Eigenvector signs: each has its largest-magnitude entry
    positive (MXNet's rule). Integer or bool input gives float64 results, as
    MXNet 1.9.1's. Differentiable for distinct eigenvalues (MXNet
    1.9.1's gradient is zero)."""
    UPLO = _uplo("eigh", UPLO)
    a = _array("eigh", "a", a, integers=True)
    _stacked("eigh", "a", a, square=True)
    return tuple(_waited("eigh", _invoke("_npi_eigh", [a], UPLO=UPLO)))


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of a symmetric a (..., M, M) (``_npi_eigvalsh``); see eigh."""
    UPLO = _uplo("eigvalsh", UPLO)
    a = _array("eigvalsh", "a", a, integers=True)
    _stacked("eigvalsh", "a", a, square=True)
    return _waited("eigvalsh", _invoke("_npi_eigvalsh", [a], UPLO=UPLO))


# ---- inverses, determinants, systems ----

def inv(a):
    """Inverse of a (..., M, M); LinAlgError when singular. Differentiable."""
    a = _array("inv", "a", a)
    _stacked("inv", "a", a, square=True)
    return _waited("inv", _invoke("_linalg_inverse", [a]))


def det(a):
    """Determinant of a (..., M, M): shape (...), a 0-d array for one matrix.
    Differentiable (invertible a)."""
    a = _array("det", "a", a)
    _stacked("det", "a", a, square=True)
    return _per_matrix(_invoke("_linalg_det", [a]), a)


def slogdet(a):
    """(sign, logabsdet) of a (..., M, M), det = sign * exp(logabsdet); sign 0
    and logabsdet -inf for a singular matrix. logabsdet is differentiable."""
    a = _array("slogdet", "a", a)
    _stacked("slogdet", "a", a, square=True)
    sign, logdet = _invoke("_linalg_slogdet", [a])
    return _per_matrix(sign, a), _per_matrix(logdet, a)


def solve(a, b):
    """x with a @ x = b: a (..., M, M), b (..., M, K) or (..., M) (one axis
    fewer than a: vectors). As MXNet 1.9.1, a's and b's leading axes must be
    equal (no broadcasting). LinAlgError when a is singular. Differentiable in
    a and b."""
    a = _array("solve", "a", a)
    b = _array("solve", "b", b)
    _stacked("solve", "a", a, square=True)
    m = a.shape[-1]
    vec = b.ndim == a.ndim - 1
    if not (vec or b.ndim == a.ndim) or b.shape[:a.ndim - 2] != a.shape[:-2] or b.shape[a.ndim - 2] != m:
        raise ValueError("solve: argument 'b' has shape %s; for a of shape %s it must be %s + (%d,) or + (%d, K)"
                         % (b.shape, a.shape, a.shape[:-2], m, m))
    if a.dtype != b.dtype:
        raise TypeError("solve: arguments 'a' (%s) and 'b' (%s) must have one dtype"
                        % (_onp.dtype(a.dtype).name, _onp.dtype(b.dtype).name))
    return _waited("solve", _invoke("_npi_solve", [a, b]))


def tensorinv(a, ind=2):
    """The inverse of a with respect to tensordot over its first `ind` axes:
    shape a.shape[ind:] + a.shape[:ind]; prod(a.shape[:ind]) must equal
    prod(a.shape[ind:]). Differentiable."""
    a = _array("tensorinv", "a", a)
    if not isinstance(ind, numbers.Integral) or isinstance(ind, bool) or ind <= 0:
        raise ValueError("tensorinv: argument 'ind' must be a positive integer, got %r" % (ind,))
    old = a.shape
    rows, cols = int(_onp.prod(old[:ind])), int(_onp.prod(old[ind:]))
    if ind > a.ndim or rows != cols:
        raise LinAlgError("tensorinv: argument 'a' of shape %s is not 'square' over its first %d axes "
                          "(prod(a.shape[:ind]) == prod(a.shape[ind:]) is required)" % (old, ind))
    return _waited("tensorinv", _invoke("_npi_tensorinv", [a], ind=int(ind)))


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) = b; x has shape a.shape[b.ndim:] (after
    moving `axes` of a to the end). Differentiable in a and b."""
    a = _array("tensorsolve", "a", a)
    b = _array("tensorsolve", "b", b)
    an = a.ndim
    shape = list(a.shape)
    if axes is not None:
        order = list(range(an))
        for k in axes:
            if not -an <= k < an:
                raise ValueError("tensorsolve: axis %d in 'axes' is out of range for a of %d dimensions" % (k, an))
            order.remove(k % an)
            order.append(k % an)
        shape = [a.shape[i] for i in order]
        axes = tuple(int(k) for k in axes)
    if b.ndim > an:
        raise LinAlgError("tensorsolve: argument 'b' has more dimensions (%d) than 'a' (%d)" % (b.ndim, an))
    prod = int(_onp.prod(shape[b.ndim:]))
    if int(_onp.prod(shape)) != prod * prod or tuple(shape[:b.ndim]) != b.shape:
        raise LinAlgError("tensorsolve: shapes a %s and b %s do not fit: prod(a.shape[b.ndim:]) must equal "
                          "prod(a.shape[:b.ndim]) and a.shape[:b.ndim] must equal b.shape" % (tuple(shape), b.shape))
    return _waited("tensorsolve", _invoke("_npi_tensorsolve", [a, b], a_axes=axes))


def _sv_inverse(s, cutoff):
    """1/s where s > cutoff, else 0, written so that its gradient stays finite."""
    keep = _invoke("broadcast_greater", [s, cutoff])
    return _invoke("elemwise_div", [keep, _invoke("elemwise_sub", [_invoke("_plus_scalar", [s], scalar=1.0), keep])])


def pinv(a, rcond=1e-15, hermitian=False):
    """Moore-Penrose pseudo-inverse (..., N, M) of a (..., M, N) from its SVD,
    singular values <= rcond * max(s) dropped (``_npi_pinv_scalar_rcond``); an
    array rcond has a's leading axes or fewer, each equal or 1 (``_npi_pinv``;
    MXNet refuses one that would add matrices). hermitian=True reads a as
    symmetric (its lower triangle) and inverts its eigenvalues, as NumPy (MXNet
    1.9.1 raises NotImplementedError). Differentiable for distinct singular
    values, the cutoff included (MXNet 1.9.1's gradient is zero)."""
    a = _array("pinv", "a", a)
    _stacked("pinv", "a", a, square=bool(hermitian))
    if not isinstance(hermitian, bool):
        raise TypeError("pinv: argument 'hermitian' must be a bool, got %r" % (hermitian,))
    if isinstance(rcond, NDArray):
        r = _array("pinv", "rcond", rcond)
        batch = a.shape[:-2]
        if r.ndim > len(batch) or any(d not in (1, b) for d, b in zip(r.shape[::-1], batch[::-1])):
            raise ValueError("pinv: argument 'rcond' of shape %s does not broadcast to a's leading axes %s"
                             % (r.shape, batch))
        return _waited("pinv", _invoke("_npi_pinv", [a, r], hermitian=hermitian))
    if isinstance(rcond, numbers.Real) and not isinstance(rcond, bool):
        return _waited("pinv", _invoke("_npi_pinv_scalar_rcond", [a], rcond=float(rcond), hermitian=hermitian))
    raise TypeError("pinv: argument 'rcond' must be a float or an array, got %s" % type(rcond).__name__)


def lstsq(a, b, rcond="warn"):
    """Least-squares solution of a @ x = b: returns (x, residuals, rank, s) as
    NumPy's (a (M, N); b (M,) or (M, K)). rcond: singular values <= rcond *
    max(s) count as zero; 'warn' (the default, as MXNet 1.9.1 and NumPy < 2)
    warns with FutureWarning and uses machine precision, None uses eps *
    max(M, N). Computed from the SVD (LAPACK's gelsd solves the same way).
    residuals is empty unless rank == N < M; rank is a 0-d int64 array."""
    a = _array("lstsq", "a", a)
    b = _array("lstsq", "b", b)
    if a.ndim != 2:
        raise LinAlgError("lstsq: argument 'a' must be two-dimensional, got shape %s" % (a.shape,))
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise LinAlgError("lstsq: argument 'b' of shape %s does not fit a %s: expected (%d,) or (%d, K)"
                          % (b.shape, a.shape, a.shape[0], a.shape[0]))
    m, n = a.shape
    if rcond == "warn":
        warnings.warn("lstsq: `rcond` parameter will change to the default of machine precision times max(M, "
                      "N) where M and N are the input matrix dimensions. To use the future default and silence "
                      "this warning we advise to pass `rcond=None`, to keep using the old, explicitly pass "
                      "`rcond=-1`.", FutureWarning, stacklevel=2)
        rcond = -1
    if rcond is None:
        rcond = _eps(a) * max(m, n)
    elif not isinstance(rcond, numbers.Real):
        raise TypeError("lstsq: argument 'rcond' must be a float, None or 'warn', got %r" % (rcond,))
    elif rcond < 0:
        rcond = _eps(a)
    b2 = _reshape(b, (m, 1)) if b.ndim == 1 else b
    k = b2.shape[1]
    if min(m, n) == 0:
        x = _invoke("_zeros", [], shape=(n, k), dtype=_onp.dtype(a.dtype).name, ctx=a.context)
        s = _invoke("_zeros", [], shape=(0,), dtype=_onp.dtype(a.dtype).name, ctx=a.context)
        rank = 0
    else:
        u, s, v = svd(a)
        cutoff = _invoke("_mul_scalar", [_invoke("max", [s], axis=-1, keepdims=True)], scalar=float(rcond))
        sinv = _sv_inverse(s, cutoff)
        ub = _invoke("broadcast_mul", [_matmul(u, b2, ta=True), _reshape(sinv, (sinv.shape[0], 1))])
        x = _matmul(v, ub, ta=True)
        rank = int(_invoke("sum", [_invoke("broadcast_greater", [s, cutoff])]).asnumpy().reshape(()))
    if rank == n and m > n:
        r = _invoke("elemwise_sub", [b2, _matmul(a, x)])
        resid = _invoke("sum", [_invoke("square", [r])], axis=0)
    else:
        resid = _invoke("_zeros", [], shape=(0,), dtype=_onp.dtype(a.dtype).name, ctx=a.context)
    if b.ndim == 1:
        x = _reshape(x, (n,))
    rank_arr = _invoke("_full", [], shape=(1,), value=float(rank), dtype="int64", ctx=a.context)
    return x, resid, _reshape(rank_arr, ()), s


def matrix_rank(M, tol=None, hermitian=False):
    """Rank of M (..., m, n): the number of singular values > tol (default
    S.max() * max(m, n) * eps); a 1-D M has rank 1 unless all zero. Returns an
    int64 array of shape M.shape[:-2]. ``hermitian`` is accepted for MXNet's
    signature."""
    M = _array("matrix_rank", "M", M)
    if M.ndim < 2:
        nz = _invoke("sum", [_invoke("_not_equal_scalar", [M], scalar=0.0)])
        return _reshape(_invoke("Cast", [_invoke("_greater_scalar", [nz], scalar=0.0)], dtype="int64"), ())
    if 0 in M.shape[-2:]:
        return _invoke("_zeros", [], shape=M.shape[:-2], dtype="int64", ctx=M.context)
    s = svd(M)[1]
    if tol is None:
        cutoff = _invoke("_mul_scalar", [_invoke("max", [s], axis=-1, keepdims=True)],
                         scalar=max(M.shape[-2:]) * _eps(M))
    elif isinstance(tol, NDArray):
        t = _array("matrix_rank", "tol", tol)
        cutoff = _invoke("broadcast_add", [_invoke("zeros_like", [_invoke("max", [s], axis=-1, keepdims=True)]),
                                           _reshape(t, t.shape + (1,))])
    elif isinstance(tol, numbers.Real):
        cutoff = _invoke("_full", [], shape=s.shape[:-1] + (1,), value=float(tol), dtype=_onp.dtype(s.dtype).name,
                         ctx=M.context)
    else:
        raise TypeError("matrix_rank: argument 'tol' must be None, a float or an array, got %r" % (tol,))
    count = _invoke("sum", [_invoke("broadcast_greater", [s, cutoff])], axis=-1)
    return _reshape(_invoke("Cast", [count], dtype="int64"), M.shape[:-2])


# ---- products ----

def matrix_power(a, n):
    """a (..., M, M) raised to the integer power n (n < 0: of inv(a)), by
    repeated squaring; n == 0 gives identities. Differentiable."""
    a = _array("matrix_power", "a", a)
    _stacked("matrix_power", "a", a, square=True)
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise TypeError("matrix_power: argument 'n' must be an integer, got %r" % (n,))
    m = a.shape[-1]
    if n == 0:
        eye = _invoke("_eye", [], N=m, dtype=_onp.dtype(a.dtype).name, ctx=a.context)
        return _invoke("broadcast_add", [_invoke("zeros_like", [a]), _reshape(eye, (1,) * (a.ndim - 2) + (m, m))])
    if n < 0:
        a, n = inv(a), -n
    result, base = None, a
    while n:
        if n & 1:
            result = base if result is None else _matmul(result, base)
        n >>= 1
        if n:
            base = _matmul(base, base)
    return result


def multi_dot(arrays):
    """The product of two or more arrays in one call; the first may be 1-D
    (a row vector), the last 1-D (a column vector), the others 2-D. Evaluated
    left to right (NumPy chooses the cheapest order; the value is the same up
    to rounding). Differentiable."""
    arrays = list(arrays)
    if len(arrays) < 2:
        raise ValueError("multi_dot: argument 'arrays' must hold at least two arrays, got %d" % len(arrays))
    arrays = [_array("multi_dot", "arrays[%d]" % i, x) for i, x in enumerate(arrays)]
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = _reshape(arrays[0], (1, arrays[0].shape[0]))
    if last_1d:
        arrays[-1] = _reshape(arrays[-1], (arrays[-1].shape[0], 1))
    for i, x in enumerate(arrays):
        if x.ndim != 2:
            raise ValueError("multi_dot: argument 'arrays[%d]' is %d-dimensional; expected 2 (1 for the first or "
                             "last)" % (i, x.ndim))
    out = arrays[0]
    for i, x in enumerate(arrays[1:], 1):
        if out.shape[1] != x.shape[0]:
            raise ValueError("multi_dot: argument 'arrays[%d]' of shape %s does not fit the product so far %s"
                             % (i, x.shape, out.shape))
        out = _invoke("dot", [out, x])
    if first_1d and last_1d:
        return _reshape(out, ())
    if first_1d or last_1d:
        return _reshape(out, (out.shape[1],) if first_1d else (out.shape[0],))
    return out


# ---- norms ----

def _axes_of(fname, x, axis):
    """axis as a tuple of distinct non-negative axes of x (ValueError naming 'axis')."""
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    out = []
    for k in axes:
        if not isinstance(k, numbers.Integral) or not -x.ndim <= k < x.ndim:
            raise ValueError("%s: argument 'axis' %r is out of range for an array of %d dimensions"
                             % (fname, axis, x.ndim))
        out.append(int(k) % x.ndim)
    if len(set(out)) != len(out):
        raise ValueError("%s: argument 'axis' %r repeats an axis" % (fname, axis))
    return tuple(out)


def _vector_norm(x, ord, ax):
    absx = _invoke("abs", [x])
    if ord is None or ord == 2:
        return _invoke("sqrt", [_invoke("sum", [_invoke("square", [x])], axis=ax, keepdims=True)])
    if ord == _onp.inf:
        return _invoke("max", [absx], axis=ax, keepdims=True)
    if ord == -_onp.inf:
        return _invoke("min", [absx], axis=ax, keepdims=True)
    if ord == 0:
        return _invoke("sum", [_invoke("_not_equal_scalar", [x], scalar=0.0)], axis=ax, keepdims=True)
    if ord == 1:
        return _invoke("sum", [absx], axis=ax, keepdims=True)
    p = float(ord)
    powered = _invoke("sum", [_invoke("_power_scalar", [absx], scalar=p)], axis=ax, keepdims=True)
    return _invoke("_power_scalar", [powered], scalar=1.0 / p)


def _singular_values(x, row, col):
    """The singular values of x's (row, col) matrices, batched over the other axes last."""
    rest = [k for k in range(x.ndim) if k not in (row, col)]
    return svd(_invoke("transpose", [x], axes=tuple(rest + [row, col])))[1]


def _matrix_norm(x, ord, row, col):
    """x's norm over axes (row, col), kept as size-1 axes."""
    keep = tuple(1 if k in (row, col) else d for k, d in enumerate(x.shape))
    if ord is None or ord == "fro":
        return _invoke("sqrt", [_invoke("sum", [_invoke("square", [x])], axis=(row, col), keepdims=True)])
    if ord in (2, -2, "nuc"):
        s = _singular_values(x, row, col)
        red = {2: "max", -2: "min", "nuc": "sum"}[ord]
        return _reshape(_invoke(red, [s], axis=-1), keep)
    if ord in (1, -1):
        sums = _invoke("sum", [_invoke("abs", [x])], axis=row, keepdims=True)
        return _invoke("max" if ord == 1 else "min", [sums], axis=col, keepdims=True)
    if ord in (_onp.inf, -_onp.inf):
        sums = _invoke("sum", [_invoke("abs", [x])], axis=col, keepdims=True)
        return _invoke("max" if ord > 0 else "min", [sums], axis=row, keepdims=True)
    raise ValueError("norm: invalid norm order %r for matrices" % (ord,))


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm, as NumPy's (and MXNet 1.9.1's) np.linalg.norm:
    ord None, 'fro', 'nuc', inf, -inf, 0, 1, -1, 2, -2 or any p for vectors;
    axis None (all of x, or its 1 or 2 axes when ord is given), an int (vector
    norms) or a pair (matrix norms). Differentiable (2/-2/'nuc' through svd)."""
    x = _array("norm", "x", x)
    if not isinstance(keepdims, bool):
        raise TypeError("norm: argument 'keepdims' must be a bool, got %r" % (keepdims,))
    if axis is None:
        if ord is None:  # the 2-norm of x flattened, whatever its rank
            out = _invoke("sqrt", [_invoke("sum", [_invoke("square", [x])], keepdims=True)]) if x.size else \
                _invoke("_zeros", [], shape=(1,) * x.ndim, dtype=_onp.dtype(x.dtype).name, ctx=x.context)
            return _reshape(out, (1,) * x.ndim if keepdims else ())
        if x.ndim not in (1, 2):
            raise ValueError("norm: improper number of dimensions to norm: argument 'x' has %d; give 'axis' or "
                             "use ord=None" % x.ndim)
        axis = tuple(range(x.ndim))
    axes = _axes_of("norm", x, axis)
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError("norm: invalid norm order %r for vectors" % (ord,))
        if ord is not None and not isinstance(ord, numbers.Real):
            raise TypeError("norm: argument 'ord' must be a number, a string or None, got %r" % (ord,))
        out = _vector_norm(x, ord, axes[0])
    elif len(axes) == 2:
        out = _matrix_norm(x, ord, axes[0], axes[1])
    else:
        raise ValueError("norm: argument 'axis' %r names %d axes; expected 1 or 2" % (axis, len(axes)))
    if keepdims:
        return out
    return _reshape(out, tuple(d for k, d in enumerate(x.shape) if k not in axes))


def cond(x, p=None):
    """Condition number of x (..., M, N) in norm p: None/2/-2 from the
    singular values (s_max / s_min, or its inverse; inf for a singular
    matrix), 'fro', 'nuc', 1, -1, inf, -inf as norm(x, p) * norm(inv(x), p)
    (square x only)."""
    x = _array("cond", "x", x)
    _stacked("cond", "x", x)
    if p is None or p in (2, -2):
        s = svd(x)[1]
        big, small = _invoke("max", [s], axis=-1), _invoke("min", [s], axis=-1)
        out = _invoke("elemwise_div", [small, big] if p == -2 else [big, small])
        return _reshape(out, x.shape[:-2])
    _stacked("cond", "x", x, square=True)
    return _invoke("elemwise_mul", [norm(x, p, axis=(-2, -1)), norm(inv(x), p, axis=(-2, -1))])
