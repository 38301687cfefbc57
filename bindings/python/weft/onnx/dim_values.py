"""Shape values with dynamic dims, followed through the import.

Note [Dynamic dims on import]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Exporters compute reshape targets at run time from the shapes of tensors:
torch's ``x.view(x.size(0), -1)`` is Shape -> Gather -> Unsqueeze -> Concat
-> Reshape. With a static input the importer folds the chain to a constant
(Note [Constant folding on import]); with a dynamic batch it cannot. Such a
chain is followed symbolically instead: each element of the int64 vector is
a number or "dim a of tensor T" (``DimOf``). A Reshape reading such a vector
gets an MXNet target: a known size, 0 where the element is the data's own
dim at that position (the same tensor, or the same ONNX dim_param), and -1
for one element left unknown. Anything else reading the vector gets it
computed at run time (shape_array), so no graph is refused for following.
"""
from collections import namedtuple

import numpy as np

from .. import symbol as S
from ._deps import onnx

__all__ = ["DimOf", "track", "materialize", "reshape_target"]

DimOf = namedtuple("DimOf", ["tensor", "axis"])


def _vector(ctx, name):
    """The elements of int64 vector ``name`` (a tracked value or a constant), or None."""
    if name in ctx.dim_values:
        elems, scalar = ctx.dim_values[name]
        return None if scalar else list(elems)
    v = ctx.const_value(name)
    if v is not None and np.ndim(v) == 1 and np.issubdtype(v.dtype, np.integer):
        return [int(x) for x in v]
    return None


def _const_list(ctx, node, i):
    if len(node.input) <= i or not node.input[i]:
        return None
    v = ctx.const_value(node.input[i])
    return None if v is None else [int(x) for x in np.reshape(v, -1)]


def track(ctx, node):
    """Records ``node``'s output as a tracked shape value when it is one;
    returns whether it did (then ``node`` needs no translation)."""
    op, out = node.op_type, node.output[0]
    value = None
    if op == "Shape":
        dims = ctx.shapes.get(node.input[0])
        if dims is None or None not in dims:
            return False  # unknown rank, or static (folded)
        elems = [d if d is not None else DimOf(node.input[0], i) for i, d in enumerate(dims)]
        start, end = ctx.attr(node, "start", 0), ctx.attr(node, "end")
        value = (elems[start:end], False)
    elif op in ("Gather", "Slice", "Unsqueeze", "Squeeze", "Cast", "Identity") and \
            node.input[0] in ctx.dim_values:
        elems, scalar = ctx.dim_values[node.input[0]]
        if op == "Gather" and ctx.attr(node, "axis", 0) == 0:
            idx = ctx.const_value(node.input[1])
            if idx is not None:
                picked = [elems[int(i)] for i in np.reshape(idx, -1)]
                value = (picked, np.ndim(idx) == 0)
        elif op == "Slice":
            starts, ends, axes, steps = (_const_list(ctx, node, i) for i in (1, 2, 3, 4))
            if starts and ends and axes in (None, [0], [-1]) and steps in (None, [1]):
                value = (elems[starts[0]:ends[0]], False)
        elif op == "Unsqueeze" and scalar:
            value = (elems, False)
        elif op == "Squeeze" and not scalar and len(elems) == 1:
            value = (elems, True)
        elif op == "Identity" or (op == "Cast" and ctx.attr(node, "to") == onnx.TensorProto.INT64):
            value = (elems, scalar)  # a Cast to another type is computed (materialize) and cast
    elif op == "Concat" and any(n in ctx.dim_values for n in node.input):
        parts = [_vector(ctx, n) for n in node.input]
        if all(p is not None for p in parts):
            value = ([e for p in parts for e in p], False)
    if value is None:
        return False
    ctx.dim_values[out] = value
    ctx.shapes[out] = () if value[1] else (len(value[0]),)
    return True


def materialize(ctx, name):
    """The Weft symbol computing tracked value ``name`` at run time."""
    elems, scalar = ctx.dim_values[name]
    pieces = []
    for e in elems:
        if isinstance(e, DimOf):
            shape = S.shape_array(ctx.symbol(e.tensor))
            pieces.append(S.slice_axis(shape, axis=0, begin=e.axis, end=e.axis + 1))
        else:
            pieces.append(ctx.new_param("%s_const%d" % (name, len(pieces)), np.array([e], np.int64)))
    y = pieces[0] if len(pieces) == 1 else S.Concat(*pieces, dim=0, num_args=len(pieces))
    return S.reshape_like(y, S.zeros(shape=())) if scalar else y


def _same_dim(ctx, dim, data, i):
    if dim.tensor == data and dim.axis == i:
        return True
    params = ctx.dim_params
    a = params.get(dim.tensor, ())
    b = params.get(data, ())
    return dim.axis < len(a) and i < len(b) and a[dim.axis] is not None and a[dim.axis] == b[i]


def reshape_target(ctx, data, shape_name):
    """An MXNet Reshape target for tracked value ``shape_name`` applied to
    ``data``, or None when it has none (Note [Dynamic dims on import])."""
    if shape_name not in ctx.dim_values or ctx.dim_values[shape_name][1]:
        return None
    target, unknown = [], []
    for i, e in enumerate(ctx.dim_values[shape_name][0]):
        if not isinstance(e, DimOf):
            target.append(e)
        elif ctx.shapes.get(e.tensor) and ctx.shapes[e.tensor][e.axis] is not None:
            target.append(ctx.shapes[e.tensor][e.axis])
        elif _same_dim(ctx, e, data, i):
            target.append(0)
        else:
            target.append(-1)
            unknown.append(i)
    if len(unknown) > 1 or (unknown and target.count(-1) > 1):
        return None
    return tuple(target)
