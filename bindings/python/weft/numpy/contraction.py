"""``weft.np.tensordot`` and ``weft.np.einsum`` (MXNet 1.9.1's, issue 37
point 3), composed from registry ops: transpose, Reshape, dot, batch_dot, diag
and sum.

Note [Tensordot as one GEMM]
A tensor contraction over the axes pairs (a_axes, b_axes) is one matrix
product once a's free axes are moved first and its contracted axes last (and
b's the other way round) and both are flattened to 2-D: (M, K) x (K, N).
The composition is differentiable through the ops' own gradients and runs on
any device that has them. MXNet's ``_npi_tensordot`` /
``_npi_tensordot_int_axes`` nodes, which graphs MXNet saved hold, are operators
of their own (core/op/dense/np_products.cc). Zero-size operands are answered with zeros
of the result's shape: the legacy Reshape reads a 0 in its target shape as
"keep this dimension", so an empty (0, K) flattening cannot be written."""
# pylint: disable=invalid-name
import operator
import string

import numpy as onp

from ..base import ArgumentTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke

__all__ = ["tensordot", "einsum"]


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


# Note [Einsum as pairwise batched products]
# einsum is run as NumPy's unoptimised path would be planned by hand: a label
# repeated within one operand takes that operand's diagonal (diag), a label
# no later operand and not the output needs is summed out at once, and the
# operands are folded left to right, each pair as one batch_dot: labels in
# both and still needed are the batch, labels in both and no longer needed
# are contracted, the others stay as rows/columns. Every step is a registry
# op with a gradient, so einsum is differentiable; `optimize` (the order of
# the pairs) is accepted and ignored, as the pairwise fold is already free
# of the full outer product. The ellipsis stands for one internal label per
# dimension it covers (aligned from the right, size 1 broadcasting as in
# NumPy). MXNet's `_npi_einsum` is an operator too (core/op/dense/np_einsum.cc,
# what weft.sym.np.einsum writes and what graphs MXNet saved hold), but its
# kernel is one gather per output element over every summed label, without
# GEMM; this fold gives the large contractions to BLAS, so weft.np keeps it.
# Measured (float32, one CPU run, best of 7, 2026-12-08; composition vs op):
# 'ij,jk->ik' 256x256 0.58 vs 556 ms, 'bij,bjk->bik' (16, 64, 64) 0.23 vs 139 ms,
# 'ij,j->i' 256 0.11 vs 0.87 ms, 'i,i->' 10^6 1.1 vs 21 ms, 'ij->ji' 256 0.10 vs
# 0.77 ms, 'ij->' 256 0.13 vs 0.17 ms; only a lone operand's diagonal or trace
# ('ii->i' 1024: 0.036 vs 0.031 ms, 'ii' 64: 0.080 vs 0.019 ms) is not slower
# through the operator, so those (float dtypes, no ellipsis) call it.


def _zeros_like_dims(dims, x):
    return _invoke("_zeros", [], shape=tuple(dims), dtype=onp.dtype(x.dtype).name, ctx=str(x.context))


def _shaped(x, dims):
    """x (of the same size) with shape dims; () included (Reshape takes no empty target)."""
    if dims:
        return _invoke("Reshape", [x], shape=tuple(dims))
    return _invoke("reshape_like", [x, _zeros_like_dims((), x)])


def _sum_out(x, labels, drop, dims):
    axes = [i for i, c in enumerate(labels) if c in drop]
    if not axes:
        return x, labels
    kept = [c for c in labels if c not in drop]
    if x.size == 0 or len(axes) == len(labels):
        total = _invoke("sum", [x], axis=tuple(axes)) if x.size else _zeros_like_dims([dims[c] for c in kept], x)
        return (_shaped(total, [dims[c] for c in kept]) if x.size else total), kept
    return _invoke("sum", [x], axis=tuple(axes)), kept


def _diagonals(x, labels):
    """x with every repeated label reduced to its diagonal (placed last, as diag does)."""
    labels = list(labels)
    while len(set(labels)) != len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        i = labels.index(c)
        j = labels.index(c, i + 1)
        x = _invoke("diag", [x], axis1=i, axis2=j)
        labels = [l for k, l in enumerate(labels) if k not in (i, j)] + [c]
    return x, labels


def _pair(a, la, b, lb, keep, dims):
    """The batched product of a and b over their shared labels that keep does not hold."""
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    a_only = [c for c in la if c not in lb]
    b_only = [c for c in lb if c not in la]
    out_labels = batch + a_only + b_only
    size = lambda cs: int(onp.prod([dims[c] for c in cs], dtype=onp.int64))
    nb, m, k, n = size(batch), size(a_only), size(summed), size(b_only)
    if 0 in (nb, m, k, n):
        return _zeros_like_dims([dims[c] for c in out_labels], a), out_labels
    a3 = _invoke("Reshape", [_permute(a, [la.index(c) for c in batch + a_only + summed])], shape=(nb, m, k))
    b3 = _invoke("Reshape", [_permute(b, [lb.index(c) for c in batch + summed + b_only])], shape=(nb, k, n))
    return _shaped(_invoke("batch_dot", [a3, b3]), [dims[c] for c in out_labels]), out_labels


_ELLIPSIS_BASE = 0xE000  # labels of the ellipsis' dimensions: private-use characters, never ASCII letters


_LETTERS = frozenset(string.ascii_letters)  # NumPy's subscript letters


def _expand_ellipsis(labels, ndim, subscripts):
    """labels with '...' replaced by one internal label per dimension it covers (aligned from the right)."""
    if "..." not in labels:
        if "." in labels:
            raise ValueError("einsum: invalid subscript in %r ('.' only as part of '...')" % subscripts)
        return labels
    head, _, tail = labels.partition("...")
    if "." in head or "." in tail:
        raise ValueError("einsum: more than one ellipsis in %r" % subscripts)
    covered = ndim - len(head) - len(tail)
    if covered < 0:
        raise ValueError("einsum: operand has %d dimensions but subscripts %r name more" % (ndim, labels))
    return head + "".join(chr(_ELLIPSIS_BASE + covered - 1 - i) for i in range(covered)) + tail


def _parse(subscripts, ops):
    if not isinstance(subscripts, str):
        raise ArgumentTypeError("einsum: argument 'subscripts' must be a str, got %s" % type(subscripts).__name__)
    spec = subscripts.replace(" ", "")
    lhs, arrow, out = spec.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ops):
        raise ValueError("einsum: 'subscripts' names %d operands but %d were given" % (len(ins), len(ops)))
    ins = [_expand_ellipsis(labels, x.ndim, subscripts) for labels, x in zip(ins, ops)]
    broad = sorted({c for labels in ins for c in labels if ord(c) >= _ELLIPSIS_BASE}, reverse=True)
    for labels, x in zip(ins, ops):
        if not all(c in _LETTERS or ord(c) >= _ELLIPSIS_BASE for c in labels):
            raise ValueError("einsum: invalid subscript in %r (letters only)" % subscripts)
        if len(labels) != x.ndim:
            raise ValueError("einsum: operand has %d dimensions but subscripts %r name %d" % (x.ndim, labels,
                                                                                             len(labels)))
    named = "".join(c for labels in ins for c in labels if c in _LETTERS)
    if not arrow:
        out = "".join(broad) + "".join(sorted(c for c in set(named) if named.count(c) == 1))
    else:
        if "..." in out:
            head, _, tail = out.partition("...")
            out = head + "".join(broad) + tail
        elif broad and any(ops[i].shape[labels.index(c)] != 1 for i, labels in enumerate(ins) for c in broad
                           if c in labels):
            raise ValueError("einsum: output subscripts of %r need '...' for the broadcast dimensions" % subscripts)
    if not all(c in _LETTERS or ord(c) >= _ELLIPSIS_BASE for c in out) or len(set(out)) != len(out):
        raise ValueError("einsum: output subscripts %r must be distinct letters" % out)
    for c in out:
        if c not in named and ord(c) < _ELLIPSIS_BASE:
            raise ValueError("einsum: output subscript %r does not appear in the inputs" % c)
    dims = {}
    for labels, x in zip(ins, ops):
        for c, d in zip(labels, x.shape):
            if ord(c) >= _ELLIPSIS_BASE and 1 in (d, dims.get(c, d)):  # ellipsis dimensions broadcast
                dims[c] = d if dims.get(c, 1) == 1 else dims[c]
            elif dims.setdefault(c, d) != d:
                raise ValueError("einsum: subscript %r has length %d in one operand and %d in another"
                                 % (c, dims[c], d))
    return ins, out, dims


def _broadcast_ellipsis(x, labels, dims):
    """x with its size-1 ellipsis dimensions broadcast to the other operands' lengths."""
    target = tuple(dims[c] for c in labels)
    if target == tuple(x.shape):
        return x
    if 0 in target:
        return _zeros_like_dims(target, x)
    return _invoke("broadcast_to", [x], shape=target)


def einsum(*operands, **kwargs):
    """Evaluates the Einstein summation convention on the operands:
    ``einsum(subscripts, *arrays, optimize=False, out=None)`` (NumPy's
    ``numpy.einsum``; explicit ``->`` output or NumPy's implicit one,
    repeated labels for diagonals), composed from registry ops with their
    gradients (Note [Einsum as pairwise batched products]).

    ``...`` broadcasts as in NumPy. Mixed dtypes are cast to NumPy's common
    type. Bad input: TypeError for non-arrays
    or a non-str ``subscripts``, ValueError for subscripts that do not fit
    the operands."""
    optimize = kwargs.pop("optimize", False)
    out = kwargs.pop("out", None)
    if kwargs:
        raise TypeError("einsum: unexpected keyword argument(s) %s" % sorted(kwargs))
    del optimize  # Note [Einsum as pairwise batched products]: the fold order is fixed
    if not operands:
        raise TypeError("einsum: missing argument 'subscripts'")
    subscripts, ops = operands[0], list(operands[1:])
    if not ops:
        raise ValueError("einsum: at least one operand is needed")
    for i, x in enumerate(ops):
        if not isinstance(x, NDArray):
            raise ArgumentTypeError("einsum: operand %d must be a weft.np.ndarray, got %s" % (i, type(x).__name__))
    ins, out_labels, dims = _parse(subscripts, ops)
    if len(ops) == 1 and "." not in subscripts and len(set(ins[0])) < len(ins[0]) and \
            onp.dtype(ops[0].dtype).kind == "f":
        # Note [Einsum as pairwise batched products]: a lone operand's diagonal or trace is the
        # operator's one gather per output, measured no slower than diag + sum
        res = _invoke("_npi_einsum", ops, subscripts=subscripts.replace(" ", ""), num_args=1)
        if out is not None:
            out[:] = res
            return out
        return res
    common = onp.result_type(*[x.dtype for x in ops]).name if len({x.dtype for x in ops}) > 1 else None
    if common is not None:
        ops = [x if x.dtype == common else _invoke("Cast", [x], dtype=common) for x in ops]
    ops = [_broadcast_ellipsis(x, labels, dims) for x, labels in zip(ops, ins)]
    terms = [_diagonals(x, labels) for x, labels in zip(ops, ins)]
    def needed(after):
        return set(out_labels).union(*[set(l) for _, l in terms[after:]])
    acc, la = _sum_out(terms[0][0], terms[0][1], set(terms[0][1]) - needed(1), dims)
    for t in range(1, len(terms)):
        b, lb = terms[t]
        keep = needed(t + 1)
        b, lb = _sum_out(b, lb, set(lb) - keep - set(la), dims)
        acc, la = _sum_out(acc, la, set(la) - keep - set(lb), dims)
        acc, la = _pair(acc, la, b, lb, keep, dims)
    acc, la = _sum_out(acc, la, set(la) - set(out_labels), dims)
    res = _permute(acc, [la.index(c) for c in out_labels]) if len(out_labels) > 1 else acc
    if out is not None:
        out[:] = res
        return out
    return res
