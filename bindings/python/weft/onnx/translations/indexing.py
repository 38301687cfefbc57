"""Lookups: Embedding, take, one_hot."""
import numpy as np

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
