"""``weft.sym.np.linalg``: MXNet 1.9.1's ``mx.sym.np.linalg`` for a traced graph,
over the operators ``weft.np.linalg`` uses (each also registered by MXNet 1.9.1, so
an export loads there).

A traced symbol has no shape: a 2-d input's per-matrix result (det, slogdet) has
shape (1,) in a graph where ``weft.np`` gives a 0-d array (whether the input is one
matrix or a stack is unknown at trace time; Note [NumPy-semantics symbols]); a
norm over every axis (axis=None) is 0-d. ``tensorinv`` and ``tensorsolve`` are MXNet's
``_npi_tensorinv`` / ``_npi_tensorsolve`` nodes, which read the input's shape when bound."""
# pylint: disable=invalid-name
import numbers

from ..symbol import Symbol
from ._symbol import check_axes, np_op

__all__ = ["cholesky", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "norm", "pinv", "slogdet", "solve",
           "svd", "tensorinv", "tensorsolve"]


def _sym(fname, arg, x):
    if not isinstance(x, Symbol):
        raise TypeError("%s: %s must be a Symbol in a traced graph, got %s" % (fname, arg, type(x).__name__))
    return x


def cholesky(a):
    """Lower Cholesky factor L of a (..., M, M) symmetric positive-definite array
    (``_linalg_potrf``, lower)."""
    return np_op("_linalg_potrf", _sym("cholesky", "a", a), lower=True)


def inv(a):
    """Inverse of a (..., M, M) (``_linalg_inverse``, MXNet's ``_npi_inv``)."""
    return np_op("_linalg_inverse", _sym("inv", "a", a))


def det(a):
    """Determinant of a (..., M, M): shape (...), (1,) for one matrix in a graph."""
    return np_op("_linalg_det", _sym("det", "a", a))


def slogdet(a):
    """(sign, logabsdet) of a (..., M, M), det = sign * exp(logabsdet)."""
    out = np_op("_linalg_slogdet", _sym("slogdet", "a", a))
    return out[0], out[1]


def solve(a, b):
    """x with a @ x = b: a (..., M, M), b (..., M, K) or (..., M) (``_npi_solve``; as
    MXNet 1.9.1, equal leading axes, no broadcasting)."""
    return np_op("_npi_solve", _sym("solve", "a", a), _sym("solve", "b", b))


def svd(a):
    """MXNet 1.9.1's ``(ut, l, v)`` of a (..., M, N): a = ut @ diag(l) @ v (``_npi_svd``)."""
    out = np_op("_npi_svd", _sym("svd", "a", a))
    return out[0], out[1], out[2]


def eig(a):
    """(w, v) of a general a (..., M, M), real eigenvalues only (``_npi_eig``)."""
    out = np_op("_npi_eig", _sym("eig", "a", a))
    return out[0], out[1]


def eigvals(a):
    """Eigenvalues (..., M) of a general a (..., M, M) (``_npi_eigvals``)."""
    return np_op("_npi_eigvals", _sym("eigvals", "a", a))


def _uplo(fname, a, UPLO):
    UPLO = UPLO.upper() if isinstance(UPLO, str) else UPLO  # NumPy takes 'l'/'u' too
    if UPLO not in ("L", "U"):
        raise ValueError("%s: UPLO must be 'L' or 'U', got %r" % (fname, UPLO))
    _sym(fname, "a", a)
    return UPLO


def eigh(a, UPLO="L"):
    """(w, v) of a symmetric a (..., M, M): eigenvalues ascending, eigenvectors as the
    columns of v; only the UPLO triangle is read (``_npi_eigh``, as MXNet writes it)."""
    out = np_op("_npi_eigh", a, UPLO=_uplo("eigh", a, UPLO))
    return out[0], out[1]


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of a symmetric a (..., M, M) (``_npi_eigvalsh``)."""
    return np_op("_npi_eigvalsh", a, UPLO=_uplo("eigvalsh", a, UPLO))


def pinv(a, rcond=1e-15, hermitian=False):
    """Moore-Penrose pseudo-inverse of a (..., M, N) from its SVD: singular values at
    most rcond * the largest are dropped (``_npi_pinv_scalar_rcond``; an rcond Symbol,
    broadcast over the leading axes, ``_npi_pinv``, as MXNet writes them).
    hermitian=True reads a as symmetric (NumPy's path; MXNet refuses it)."""
    _sym("pinv", "a", a)
    if not isinstance(hermitian, (bool, int)):
        raise TypeError("pinv: hermitian must be a bool, got %s" % type(hermitian).__name__)
    if isinstance(rcond, Symbol):
        return np_op("_npi_pinv", a, rcond, hermitian=bool(hermitian))
    if not isinstance(rcond, numbers.Real) or isinstance(rcond, bool):
        raise TypeError("pinv: rcond must be a number or a Symbol in a traced graph, got %s" % type(rcond).__name__)
    return np_op("_npi_pinv_scalar_rcond", a, rcond=float(rcond), hermitian=bool(hermitian))


def norm(x, ord=None, axis=None, keepdims=False):  # pylint: disable=redefined-builtin
    """Vector and Frobenius norms (the legacy ``norm`` operator; max/min of absolute
    values for ord=inf/-inf over one axis).

    ord None (2-norm of the flattened array or over axis, Frobenius over two axes),
    'fro' (two axes or None), 1 or 2 (one axis) and inf/-inf (one axis). The matrix
    norms ord=1, 2, inf, 'nuc' over two axes need an SVD or the axes' sizes and
    raise NotImplementedError in a traced graph."""
    _sym("norm", "x", x)
    if axis is not None:
        axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        check_axes("norm", "axis", axes)
        if len(axes) not in (1, 2):
            raise ValueError("norm: improper number of dimensions to norm (axis=%r)" % (axis,))
        axes = tuple(int(a) for a in axes)
    else:
        axes = None
    keep = bool(keepdims)
    if ord is None or (ord == "fro" and (axes is None or len(axes) == 2)):
        if axes is not None:
            return np_op("norm", x, ord=2, axis=axes, keepdims=keep)
        out = np_op("norm", x, ord=2, keepdims=keep)  # every axis: 0-d (Note [0-d results in a traced graph])
        return out if keep else np_op("_np_reshape", out, newshape=())
    if ord == "fro":
        raise ValueError("norm: invalid norm order 'fro' for vectors")
    if axes is None or len(axes) != 1:
        raise NotImplementedError("norm: ord=%r needs exactly one axis in a traced graph (matrix norms other than "
                                  "'fro' are not available)" % (ord,))
    if ord in (1, 2) and not isinstance(ord, bool):
        return np_op("norm", x, ord=int(ord), axis=axes, keepdims=keep)
    if ord in (float("inf"), float("-inf")):
        return np_op("max" if ord > 0 else "min", np_op("_npi_absolute", x), axis=axes, keepdims=keep)
    raise NotImplementedError("norm: ord=%r is not available in a traced graph (1, 2, inf, -inf over one axis)"
                              % (ord,))


def tensorinv(a, ind=2):
    """The inverse of a with respect to tensordot over its first ``ind`` axes
    (``_npi_tensorinv``): shape a.shape[ind:] + a.shape[:ind] once bound."""
    _sym("tensorinv", "a", a)
    if not isinstance(ind, numbers.Integral) or isinstance(ind, bool) or ind <= 0:
        raise ValueError("tensorinv: ind must be a positive integer, got %r" % (ind,))
    return np_op("_npi_tensorinv", a, ind=int(ind))


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) = b (``_npi_tensorsolve``); ``axes`` of a
    move to the end first, as NumPy's."""
    _sym("tensorsolve", "a", a)
    _sym("tensorsolve", "b", b)
    if axes is None:
        return np_op("_npi_tensorsolve", a, b)
    axes = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
    check_axes("tensorsolve", "axes", axes)
    return np_op("_npi_tensorsolve", a, b, a_axes=tuple(int(k) for k in axes))
