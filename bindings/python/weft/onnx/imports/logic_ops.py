"""Import of ONNX's comparisons, logical operators and Where.

Note [Booleans on import]
~~~~~~~~~~~~~~~~~~~~~~~~~
ONNX's Equal, Greater, Less, Not, And, Or and Xor give bool tensors. MXNet's
broadcast_equal ... broadcast_logical_xor give 0/1 in their inputs' dtype,
and every Weft operator that reads a condition (where, logical_*, Cast)
reads nonzero as true, so the 0/1 tensors are kept as they are: a Cast to
bool (or to a number) downstream gives ONNX's values. A graph output that
ONNX types bool is cast to bool, so the caller sees ONNX's dtype.
"""
import numpy as np

from ... import symbol as S
from ..import_registry import register_import
from .broadcast import same_rank

__all__ = []

_COMPARE = {"Equal": S.broadcast_equal, "Greater": S.broadcast_greater, "Less": S.broadcast_lesser,
            "GreaterOrEqual": S.broadcast_greater_equal, "LessOrEqual": S.broadcast_lesser_equal,
            "And": S.broadcast_logical_and, "Or": S.broadcast_logical_or, "Xor": S.broadcast_logical_xor}


def _as_bool_output(ctx, node, y):
    """y itself, or y cast to bool when it is a graph output (Note [Booleans on import])."""
    outputs = {o.name for o in ctx.model.graph.output}
    if node.output[0] in outputs:
        return S.Cast(y, dtype="bool", name=ctx.name(node))
    return y


def _compare(fn):
    def translate(ctx, node):
        a, b = same_rank(ctx, node.input[:2])
        return _as_bool_output(ctx, node, fn(a, b, name=ctx.name(node) + "_cmp"))
    return translate


for _op, _fn in _COMPARE.items():
    register_import(_op)(_compare(_fn))


@register_import("Not")
def logical_not(ctx, node):
    return _as_bool_output(ctx, node, S.logical_not(ctx.inputs(node)[0], name=ctx.name(node) + "_not"))


@register_import("Where")
def where(ctx, node):
    # Weft's where needs equal shapes: operands are broadcast to the output's
    # shape first, which must then be static.
    shapes = [tuple(ctx.shape_of(n)) for n in node.input]
    if len(set(shapes)) == 1:
        return S.where(*ctx.inputs(node), name=ctx.name(node))
    if any(d is None for s in shapes for d in s):
        raise ctx.error(node, "broadcasting operands of dynamic shapes is not supported")
    out_shape = tuple(np.broadcast_shapes(*shapes))
    cond, x, y = (s if shape == out_shape else S.broadcast_to(s, shape=out_shape)
                  for s, shape in zip(same_rank(ctx, node.input), shapes))
    return S.where(cond, x, y, name=ctx.name(node))
