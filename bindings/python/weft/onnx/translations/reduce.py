"""Reductions: sum, mean, max, min, prod, norm, argmax/argmin."""
from .._deps import helper
from ..registry import register

__all__ = []

_REDUCE = {"sum": "ReduceSum", "sum_axis": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax",
           "max_axis": "ReduceMax", "min": "ReduceMin", "min_axis": "ReduceMin", "prod": "ReduceProd"}


def _axes(node, rank):
    """The reduced axes (sorted, non-negative) from MXNet's axis/exclude; None: all."""
    axis = node.tuple("axis")
    if axis is None or len(axis) == 0:
        return None
    axes = sorted({a % rank for a in axis})
    if node.bool("exclude"):
        axes = [d for d in range(rank) if d not in axes]
    return axes


def _finish(b, node, y):
    """Legacy MXNet gives shape (1,) where a full reduction gives a scalar."""
    out_rank = len(node.out_shapes[0])
    if out_rank == 1 and node.out_shapes[0][0] == 1 and node.rank > 1 and not node.bool("keepdims"):
        b.node("Reshape", [y, b.int64s([1])], outputs=[node.outputs[0]], name=node.name)
    else:
        b.node("Identity", [y], outputs=[node.outputs[0]], name=node.name)


def _reduce(onnx_op):
    def translate(b, node):
        axes = _axes(node, node.rank)
        y = b.reduce(onnx_op, node.inputs[0], axes, keepdims=node.bool("keepdims"))
        _finish(b, node, y)
    return translate


for _mx, _onnx in _REDUCE.items():
    register(_mx)(_reduce(_onnx))


@register("norm")
def norm(b, node):
    ord_ = node.int("ord", 2)
    if ord_ not in (1, 2):
        raise node.error("ord=%d: only 1 and 2 have an ONNX form" % ord_)
    axes = _axes(node, node.rank)
    y = b.reduce("ReduceL1" if ord_ == 1 else "ReduceL2", node.inputs[0], axes,
                 keepdims=node.bool("keepdims"))
    _finish(b, node, y)


@register("argmax", "argmin")
def argmax(b, node):
    op = "ArgMax" if node.op == "argmax" else "ArgMin"
    x = node.inputs[0]
    axis = node.int("axis")
    keep = 1 if node.bool("keepdims") else 0
    if axis is None:
        x = b.reshape(x, [-1])
        axis = 0
    y = b.node(op, [x], axis=axis, keepdims=keep)
    if len(node.out_shapes[0]) == 1 and node.int("axis") is None:
        y = b.reshape(y, [1])  # legacy MXNet: shape (1,) for the index over all elements
    # MXNet returns the index in the input's (float) dtype.
    b.node("Cast", [y], outputs=[node.outputs[0]], name=node.name,
           to=helper.np_dtype_to_tensor_dtype(node.out_dtypes[0]))
