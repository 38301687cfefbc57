"""ONNX's multidirectional broadcasting for Weft's broadcast_* operators,
shared by the import translations of element-wise operators.

Note [Broadcasting on import]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
ONNX aligns operand shapes from the right (NumPy's rule); MXNet's broadcast_*
operators need equal ranks. A lower-rank operand gets leading axes of size 1
with expand_dims, which needs only its rank (known statically whenever ONNX
inferred a shape), not its dims, so a dynamic batch dimension still imports.
"""
__all__ = ["same_rank", "rank_of"]

from ... import symbol as S


def rank_of(ctx, tensor):
    return len(ctx.shape_of(tensor))


def same_rank(ctx, names):
    """The symbols of tensors ``names`` raised to their greatest rank."""
    ranks = [rank_of(ctx, n) for n in names]
    top = max(ranks)
    out = []
    for name, r in zip(names, ranks):
        x = ctx.symbol(name)
        if r == 0 and top > 0:
            x = S.Reshape(x, shape=(1,) * top)
        else:
            for _ in range(top - r):
                x = S.expand_dims(x, axis=0)
        out.append(x)
    return out


def fold_broadcast(ctx, node, fn):
    """``fn`` applied left to right over all inputs of a variadic node."""
    names = [n for n in node.input if n]
    syms = same_rank(ctx, names)
    y = syms[0]
    for s in syms[1:]:
        y = fn(y, s)
    return y
