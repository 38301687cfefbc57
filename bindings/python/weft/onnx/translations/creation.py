"""Operators that make arrays from attributes alone (_zeros, _ones, _full,
_arange) or from another array's shape (_contrib_arange_like)."""
import numpy as np

from ..registry import register

__all__ = []


# The largest constant these make (elements): protobuf cannot hold 2 GB anyway, and a
# hostile shape attribute must not allocate unbounded memory at export.
MAX_CONST_ELEMENTS = 2 ** 28


def _check_size(node, count):
    if count > MAX_CONST_ELEMENTS:
        raise node.error("its constant output would hold %d elements (at most %d export)"
                         % (count, MAX_CONST_ELEMENTS))


def _static(b, node, value):
    """Their value depends on attributes only: an initializer, as MXNet's graph
    would compute it on every call."""
    b.node("Identity", [b.const(value, hint=node.name + "_value")], outputs=[node.outputs[0]],
           name=node.name)


@register("_zeros", "_ones", "_full")
def full(b, node):
    fill = {"_zeros": 0.0, "_ones": 1.0}.get(node.op)
    if fill is None:
        fill = node.float("value")
    shape = node.tuple("shape", ())
    _check_size(node, int(np.prod(shape, dtype=np.float64)))
    _static(b, node, np.full(shape, fill, dtype=node.out_dtypes[0]))


@register("_arange")
def arange(b, node):
    if node.bool("infer_range"):
        raise node.error("infer_range=True is not supported")
    start, stop, step = node.float("start"), node.float("stop"), node.float("step", 1.0)
    if stop is None:
        start, stop = 0.0, start
    if step == 0:
        raise node.error("step is 0")
    _check_size(node, max(0.0, np.ceil((stop - start) / step)) * node.int("repeat", 1))
    values = np.arange(start, stop, step, dtype=np.float64)
    values = np.repeat(values, node.int("repeat", 1)).astype(node.out_dtypes[0])
    _static(b, node, values)


@register("_contrib_arange_like")
def arange_like(b, node):
    x = node.inputs[0]
    axis = node.int("axis")
    if node.int("repeat", 1) != 1:
        raise node.error("repeat != 1 is not supported")
    dt = node.out_dtypes[0]
    if axis is None:
        n = b.node("Size", [x])
    else:
        axis %= node.rank
        n = b.squeeze(b.shape(x, axis, axis + 1), [0])
    count = b.cast(n, dt)
    start, step = b.const(node.float("start", 0.0), dt), b.const(node.float("step", 1.0), dt)
    limit = b.node("Add", [start, b.node("Mul", [count, step])])
    r = b.node("Range", [start, limit, step])
    if axis is None:
        b.node("Reshape", [r, b.shape(x)], outputs=[node.outputs[0]], name=node.name)
    else:
        b.node("Identity", [r], outputs=[node.outputs[0]], name=node.name)
