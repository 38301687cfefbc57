"""Import of ONNX's variadic element-wise operators (Sum, Max, Min, Mean, with
broadcasting), Mod and Round."""
from ... import symbol as S
from ..import_registry import register_import
from .broadcast import fold_broadcast, same_rank

__all__ = []


def _same_shapes(ctx, node):
    shapes = {tuple(ctx.shape_of(n)) for n in node.input if n}
    return len(shapes) == 1 and None not in next(iter(shapes))


@register_import("Sum")
def sum_(ctx, node):
    ins = ctx.inputs(node)
    if len(ins) == 1:
        return S.identity(ins[0], name=ctx.name(node))
    if _same_shapes(ctx, node):
        return S.add_n(*ins, name=ctx.name(node))
    return fold_broadcast(ctx, node, S.broadcast_add)


@register_import("Max", "Min")
def extreme(ctx, node):
    fn = S.broadcast_maximum if node.op_type == "Max" else S.broadcast_minimum
    if len([n for n in node.input if n]) == 1:
        return S.identity(ctx.inputs(node)[0], name=ctx.name(node))
    return fold_broadcast(ctx, node, fn)


@register_import("Mean")
def mean(ctx, node):
    n = len([i for i in node.input if i])
    return S.identity(sum_(ctx, node) / float(n), name=ctx.name(node))


@register_import("Mod")
def mod(ctx, node):
    a, b = same_rank(ctx, node.input[:2])
    r = S.broadcast_mod(a, b)  # Python's %: the sign of the divisor
    if not ctx.attr(node, "fmod", 0):
        return S.identity(r, name=ctx.name(node))
    # fmod=1 is C's fmod, the sign of the dividend: a nonzero remainder whose
    # sign differs from the dividend's is one divisor too far.
    wrong = S.broadcast_mul(S.sign(r), S.sign(a)) < 0
    return S.broadcast_sub(r, S.broadcast_mul(wrong, b), name=ctx.name(node))


@register_import("Round")
def round_(ctx, node):
    # ONNX rounds halves to even; Weft's round takes them away from zero, so
    # exact halves use twice the rounded half (2.5 -> 2 * round(1.25) = 2).
    x = ctx.inputs(node)[0]
    half = (x - S.floor(x)) == 0.5
    return S.where(half, 2.0 * S.round(x * 0.5), S.round(x), name=ctx.name(node))
