"""Lookups: Embedding, take, one_hot."""
import numpy as np

from .._deps import helper
from ..registry import register

__all__ = []


@register("Embedding")
def embedding(b, node):
    idx = b.cast(node.inputs[0], np.int64)
    b.node("Gather", [node.inputs[1], idx], outputs=[node.outputs[0]], name=node.name, axis=0)


@register("take")
def take(b, node):
    if node.str("mode", "clip") != "clip":
        raise node.error("mode=%s: only clip has an ONNX form" % node.str("mode"))
    axis = node.int("axis", 0)
    size = node.in_shapes[0][axis]
    # mode='clip': out-of-range indices take the nearest end, as ONNX Gather cannot.
    idx = b.cast(node.inputs[1], np.int64)
    idx = b.node("Clip", [idx, b.const(0, np.int64), b.const(size - 1, np.int64)])
    b.node("Gather", [node.inputs[0], idx], outputs=[node.outputs[0]], name=node.name, axis=axis)


@register("one_hot")
def one_hot(b, node):
    dt = node.out_dtypes[0]
    values = b.const([node.float("off_value", 0.0), node.float("on_value", 1.0)], dt)
    idx = b.cast(node.inputs[0], np.int64)
    b.node("OneHot", [idx, b.int64s([node.int("depth")]), values], outputs=[node.outputs[0]],
           name=node.name, axis=-1)


def _topk(b, node, x, k, axis, largest):
    return b.node("TopK", [x, b.int64s([k])], n_out=2, axis=axis, largest=1 if largest else 0, sorted=1)


def _index_out(b, node, idx, out):
    """MXNet's index outputs are in the operator's dtype (float32 by default)."""
    b.node("Cast", [idx], outputs=[out], to=_onnx_type(node.out_dtypes[-1] if len(node.out_dtypes) > 1
                                                      else node.out_dtypes[0]))


def _onnx_type(dt):
    return helper.np_dtype_to_tensor_dtype(np.dtype(dt))


@register("topk")
def topk(b, node):
    axis = node.int("axis", -1)
    rank = node.rank
    if axis is None:
        raise node.error("axis=None is not supported")
    axis %= rank
    k = node.int("k", 1)
    if k < 1:
        k = node.in_shapes[0][axis]
    ret = node.str("ret_typ", "indices")
    values, idx = _topk(b, node, node.inputs[0], k, axis, not node.bool("is_ascend"))
    if ret == "value":
        b.node("Identity", [values], outputs=[node.outputs[0]], name=node.name)
    elif ret == "indices":
        b.node("Cast", [idx], outputs=[node.outputs[0]], name=node.name, to=_onnx_type(node.out_dtypes[0]))
    elif ret == "both":
        b.node("Identity", [values], outputs=[node.outputs[0]], name=node.name)
        b.node("Cast", [idx], outputs=[node.outputs[1]], to=_onnx_type(node.out_dtypes[1]))
    else:
        raise node.error("ret_typ=%s is not supported" % ret)


@register("sort", "argsort")
def sort(b, node):
    axis = node.int("axis", -1)
    if axis is None:
        raise node.error("axis=None is not supported")
    axis %= node.rank
    values, idx = _topk(b, node, node.inputs[0], node.in_shapes[0][axis], axis,
                        not node.bool("is_ascend", True))
    if node.op == "sort":
        b.node("Identity", [values], outputs=[node.outputs[0]], name=node.name)
    else:
        b.node("Cast", [idx], outputs=[node.outputs[0]], name=node.name, to=_onnx_type(node.out_dtypes[0]))


@register("pick")
def pick(b, node):
    rank = node.rank
    axis = node.int("axis", -1)
    if axis is None:
        raise node.error("axis=None is not supported")
    axis %= rank
    if node.str("mode", "clip") != "clip":
        raise node.error("mode=%s: only clip has an ONNX form" % node.str("mode"))
    size = node.in_shapes[0][axis]
    idx = b.cast(node.inputs[1], np.int64)
    idx = b.node("Clip", [idx, b.const(0, np.int64), b.const(size - 1, np.int64)])
    picked = b.node("GatherElements", [node.inputs[0], b.unsqueeze(idx, [axis])], axis=axis)
    if not node.bool("keepdims"):
        picked = b.squeeze(picked, [axis])
    b.node("Identity", [picked], outputs=[node.outputs[0]], name=node.name)


@register("gather_nd")
def gather_nd(b, node):
    """MXNet indexes with the first axis of ``indices``, ONNX with the last."""
    r = len(node.in_shapes[1])
    idx = b.cast(node.inputs[1], np.int64)
    if r > 1:
        idx = b.transpose(idx, list(range(1, r)) + [0])
    else:
        idx = b.unsqueeze(idx, [0])
    b.node("GatherND", [node.inputs[0], idx], outputs=[node.outputs[0]], name=node.name)
