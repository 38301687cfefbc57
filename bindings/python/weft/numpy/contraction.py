"""``weft.np.tensordot`` (MXNet 1.9.1's ``mxnet.numpy.tensordot``, issue 37
point 3), composed from registry ops: transpose, Reshape and dot.

Note [Tensordot as one GEMM]
A tensor contraction over the axes pairs (a_axes, b_axes) is one matrix
product once a's free axes are moved first and its contracted axes last (and
b's the other way round) and both are flattened to 2-D: (M, K) x (K, N).
The composition is differentiable through the ops' own gradients and runs on
any device that has them. It is not MXNet's ``_npi_tensordot`` /
``_npi_tensordot_int_axes`` operator, so a graph MXNet saved with those nodes
does not load (not declared yet). Zero-size operands are answered with zeros
of the result's shape: the legacy Reshape reads a 0 in its target shape as
"keep this dimension", so an empty (0, K) flattening cannot be written."""
# pylint: disable=invalid-name
import operator

import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["tensordot"]


def _axes_pairs(a, b, axes):
    """(a_axes, b_axes) normalised to non-negative ints, NumPy's rules and errors."""
    if isinstance(axes, (int, onp.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if n < 0:
            raise ValueError("tensordot: argument 'axes' must be non-negative, got %d" % n)
        if n > a.ndim or n > b.ndim:
            raise ValueError("tensordot: argument 'axes' = %d exceeds the dimensions of 'a' (%d) or 'b' (%d)"
                             % (n, a.ndim, b.ndim))
        return list(range(a.ndim - n, a.ndim)), list(range(n))
    try:
        a_axes, b_axes = axes
    except (TypeError, ValueError):
        raise ArgumentTypeError("tensordot: argument 'axes' must be an int or a pair of axis sequences, got %r"
                                % (axes,)) from None
    def seq(x):
        try:
            return [operator.index(x)]
        except TypeError:
            try:
                return [operator.index(i) for i in x]
            except TypeError:
                raise ArgumentTypeError("tensordot: argument 'axes' must hold integers, got %r" % (axes,)) from None
    a_axes, b_axes = seq(a_axes), seq(b_axes)
    if len(a_axes) != len(b_axes):
        raise ValueError("tensordot: shape-mismatch for sum: 'axes' pairs %d axes of 'a' with %d of 'b'"
                         % (len(a_axes), len(b_axes)))
    def norm(ax, nd, name):
        out = []
        for i in ax:
            if not -nd <= i < nd:
                raise ValueError("tensordot: axis %d is out of bounds for '%s' of dimension %d" % (i, name, nd))
            out.append(i % nd)
        if len(set(out)) != len(out):
            raise ValueError("tensordot: repeated axis in 'axes' for '%s': %r" % (name, ax))
        return out
    return norm(a_axes, a.ndim, "a"), norm(b_axes, b.ndim, "b")


def _permute(x, order):
    return x if order == list(range(x.ndim)) else _invoke("transpose", [x], axes=tuple(order))


def tensordot(a, b, axes=2):
    """The sum of products of ``a`` and ``b`` over the axes ``axes`` (an int
    N: the last N of ``a`` with the first N of ``b``; or a pair of axis
    sequences), NumPy's ``numpy.tensordot``: the result's axes are ``a``'s
    free axes then ``b``'s.

    Composed from transpose/Reshape/dot (Note [Tensordot as one GEMM]); mixed
    dtypes are cast to NumPy's common type first. Bad input: TypeError for
    non-arrays or malformed ``axes``, ValueError for mismatched or
    out-of-range axes and contracted lengths that differ."""
    for name, x in (("a", a), ("b", b)):
        if not isinstance(x, NDArray):
            raise ArgumentTypeError("tensordot: argument '%s' must be a weft.np.ndarray, got %s"
                                    % (name, type(x).__name__))
    a_axes, b_axes = _axes_pairs(a, b, axes)
    for i, j in zip(a_axes, b_axes):
        if a.shape[i] != b.shape[j]:
            raise ValueError("tensordot: shape-mismatch for sum: axis %d of 'a' has length %d, axis %d of 'b' %d"
                             % (i, a.shape[i], j, b.shape[j]))
    if a.dtype != b.dtype:
        common = onp.result_type(a.dtype, b.dtype).name
        a = a if a.dtype == common else _invoke("Cast", [a], dtype=common)
        b = b if b.dtype == common else _invoke("Cast", [b], dtype=common)
    free_a = [i for i in range(a.ndim) if i not in a_axes]
    free_b = [j for j in range(b.ndim) if j not in b_axes]
    out_shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b)
    m = int(onp.prod([a.shape[i] for i in free_a], dtype=onp.int64))
    k = int(onp.prod([a.shape[i] for i in a_axes], dtype=onp.int64))
    n = int(onp.prod([b.shape[j] for j in free_b], dtype=onp.int64))
    if m == 0 or k == 0 or n == 0:
        return _invoke("_zeros", [], shape=out_shape, dtype=onp.dtype(a.dtype).name, ctx=str(a.context))
    a2 = _invoke("Reshape", [_permute(a, free_a + a_axes)], shape=(m, k))
    b2 = _invoke("Reshape", [_permute(b, b_axes + free_b)], shape=(k, n))
    prod = _invoke("dot", [a2, b2])  # (m, n)
    if out_shape:
        return _invoke("Reshape", [prod], shape=out_shape)
    # a full contraction is 0-d; Reshape's target cannot be (), so shape it like a 0-d array
    like = _invoke("_zeros", [], shape=(), dtype=onp.dtype(a.dtype).name, ctx=str(a.context))
    return _invoke("reshape_like", [prod, like])
