"""Import of ONNX's reductions (ReduceSum ... ReduceLogSumExp), ArgMax/ArgMin,
TopK and Hardmax.

Note [Index outputs on import]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
ONNX's ArgMax, ArgMin and TopK give int64 indices; MXNet's argmax gives them
as floats of the input's dtype. The translations cast to int64, so a model's
output dtype is ONNX's, and a Cast or Gather downstream reads real indices.
"""
import numpy as np

from ... import symbol as S
from ..import_registry import register_import
from .args import axes_arg, const_input

__all__ = []


def _axes_keep(ctx, node, since):
    """(axes, keepdims) of a Reduce* node; axes None means 'no reduction'
    (noop_with_empty_axes) and is handled by the caller."""
    axes = axes_arg(ctx, node, since)
    keep = bool(ctx.attr(node, "keepdims", 1))
    if not axes:
        if ctx.attr(node, "noop_with_empty_axes", 0):
            return None, keep
        axes = list(range(len(ctx.shape_of(node.input[0]))))
    return tuple(axes), keep


def _sum_square(x, axis, keepdims, name):
    return S.sum(S.square(x), axis=axis, keepdims=keepdims, name=name)


def _l1(x, axis, keepdims, name):
    return S.sum(S.abs(x), axis=axis, keepdims=keepdims, name=name)


def _l2(x, axis, keepdims, name):
    return S.sqrt(S.sum(S.square(x), axis=axis, keepdims=keepdims), name=name)


def _log_sum(x, axis, keepdims, name):
    return S.log(S.sum(x, axis=axis, keepdims=keepdims), name=name)


def _log_sum_exp(x, axis, keepdims, name):
    # Shifted by the maximum so exp cannot overflow, as ONNX Runtime computes it.
    m = S.max(x, axis=axis, keepdims=True)
    y = S.broadcast_add(S.log(S.sum(S.exp(S.broadcast_sub(x, m)), axis=axis, keepdims=True)), m)
    return y if keepdims else S.squeeze(y, axis=axis, name=name)


# op -> (function(x, axis, keepdims, name), first opset taking axes as an input)
_REDUCE = {"ReduceSum": (S.sum, 13), "ReduceMean": (S.mean, 18), "ReduceMax": (S.max, 18),
           "ReduceMin": (S.min, 18), "ReduceProd": (S.prod, 18), "ReduceSumSquare": (_sum_square, 18),
           "ReduceL1": (_l1, 18), "ReduceL2": (_l2, 18), "ReduceLogSum": (_log_sum, 18),
           "ReduceLogSumExp": (_log_sum_exp, 18)}


def _reduce(fn, since):
    def translate(ctx, node):
        axes, keep = _axes_keep(ctx, node, since)
        if axes is None:
            return S.identity(ctx.inputs(node)[0], name=ctx.name(node))
        return fn(ctx.inputs(node)[0], axis=axes, keepdims=keep, name=ctx.name(node))
    return translate


for _op, (_fn, _since) in _REDUCE.items():
    register_import(_op)(_reduce(_fn, _since))


@register_import("ArgMax", "ArgMin")
def arg_extreme(ctx, node):
    rank = len(ctx.shape_of(node.input[0]))
    axis = ctx.attr(node, "axis", 0) % rank
    keep = bool(ctx.attr(node, "keepdims", 1))
    x = ctx.inputs(node)[0]
    if ctx.attr(node, "select_last_index", 0):
        # The last extreme is the first one of the reversed axis.
        x = S.reverse(x, axis=axis)
    fn = S.argmax if node.op_type == "ArgMax" else S.argmin
    idx = fn(x, axis=axis, keepdims=keep)
    if ctx.attr(node, "select_last_index", 0):
        idx = ctx.shape_of(node.input[0])[axis] - 1 - idx
    return S.Cast(idx, dtype="int64", name=ctx.name(node))  # Note [Index outputs on import]


@register_import("TopK")
def topk(ctx, node):
    if ctx.opset < 10:
        k = ctx.attr(node, "k")
    else:
        k = const_input(ctx, node, 1, "K")
    k = int(np.asarray(k).reshape(-1)[0])
    # sorted=0 leaves the order unspecified in ONNX, so the sorted order is a valid answer.
    rank = len(ctx.shape_of(node.input[0]))
    axis = ctx.attr(node, "axis", -1) % rank
    out = S.topk(ctx.inputs(node)[0], axis=axis, k=k, ret_typ="both", dtype="int64",
                 is_ascend=not ctx.attr(node, "largest", 1), name=ctx.name(node))
    return [out[0], out[1]]


@register_import("Hardmax")
def hardmax(ctx, node):
    shape = ctx.shape_of(node.input[0])
    rank = len(shape)
    axis = ctx.attr(node, "axis", -1 if ctx.opset >= 13 else 1) % rank
    if ctx.opset < 13 and axis != rank - 1:
        raise ctx.error(node, "opset %d hardmax over a flattened axis %d is not supported" % (ctx.opset, axis))
    if shape[axis] is None:
        raise ctx.error(node, "a dynamic hardmax axis is not supported")
    x = ctx.inputs(node)[0]
    # one_hot puts the class axis last; it is moved back to ``axis``.
    hot = S.one_hot(S.argmax(x, axis=axis), depth=shape[axis], dtype="float32")
    if axis != rank - 1:
        perm = list(range(rank - 1))
        perm.insert(axis, rank - 1)
        hot = S.transpose(hot, axes=tuple(perm))
    return S.Cast(hot, dtype=_np_name(ctx, node.input[0]), name=ctx.name(node))


def _np_name(ctx, tensor):
    dtype = ctx.dtype_of(tensor)
    return np.dtype(dtype).name if dtype is not None else "float32"
