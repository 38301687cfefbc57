"""Sequence operators over a time axis (0 or 1) with optional lengths:
SequenceMask, SequenceLast, SequenceReverse."""
import numpy as np

from ..registry import register

__all__ = []


def _time_batch(node):
    axis = node.int("axis", 0)
    if axis not in (0, 1):
        raise node.error("axis=%d: the time axis must be 0 or 1" % axis)
    return axis, 1 - axis


def _lengths(b, node):
    return b.cast(node.inputs[1], np.int64)


def _steps(b, node, x, t_axis, b_axis, rank):
    """An int64 tensor of time indices shaped to broadcast against ``x``."""
    t = b.squeeze(b.shape(x, t_axis, t_axis + 1), [0])
    steps = b.node("Range", [b.const(0, np.int64), t, b.const(1, np.int64)])
    shape = [1] * rank
    shape[t_axis] = -1
    return b.reshape(steps, shape)


def _broadcast_lengths(b, lengths, b_axis, rank):
    shape = [1] * rank
    shape[b_axis] = -1
    return b.reshape(lengths, shape)


@register("SequenceMask")
def sequence_mask(b, node):
    x = node.inputs[0]
    if not node.bool("use_sequence_length"):
        b.node("Identity", [x], outputs=[node.outputs[0]], name=node.name)
        return
    t_axis, b_axis = _time_batch(node)
    rank = node.rank
    keep = b.node("Less", [_steps(b, node, x, t_axis, b_axis, rank),
                           _broadcast_lengths(b, _lengths(b, node), b_axis, rank)])
    fill = b.const(node.float("value", 0.0), node.in_dtypes[0])
    b.node("Where", [keep, x, fill], outputs=[node.outputs[0]], name=node.name)


@register("SequenceReverse")
def sequence_reverse(b, node):
    x = node.inputs[0]
    t_axis, b_axis = _time_batch(node)
    if t_axis != 0:
        raise node.error("axis=%d: SequenceReverse reverses axis 0 only" % t_axis)
    if not node.bool("use_sequence_length"):
        b.node("Slice", [x, b.int64s([-1]), b.int64s([np.iinfo(np.int64).min]), b.int64s([0]),
                         b.int64s([-1])], outputs=[node.outputs[0]], name=node.name)
        return
    b.node("ReverseSequence", [x, _lengths(b, node)], outputs=[node.outputs[0]], name=node.name,
           batch_axis=1, time_axis=0)


@register("SequenceLast")
def sequence_last(b, node):
    x = node.inputs[0]
    t_axis, b_axis = _time_batch(node)
    if not node.bool("use_sequence_length"):
        last = b.slice(x, [-1], [np.iinfo(np.int64).max], [t_axis])
        out = b.squeeze(last, [t_axis])
        b.node("Identity", [out], outputs=[node.outputs[0]], name=node.name)
        return
    # index (lengths - 1) along time for each batch entry, gathered with GatherElements.
    idx = b.node("Sub", [_lengths(b, node), b.const(1, np.int64)])
    rank = node.rank
    shape = [1] * rank
    shape[b_axis] = -1
    idx = b.reshape(idx, shape)
    target = b.node("Concat", [b.shape(x, 0, t_axis), b.int64s([1]), b.shape(x, t_axis + 1, rank)], axis=0) \
        if t_axis > 0 else b.node("Concat", [b.int64s([1]), b.shape(x, 1, rank)], axis=0)
    idx = b.node("Expand", [idx, target])
    picked = b.node("GatherElements", [x, idx], axis=t_axis)
    b.node("Identity", [b.squeeze(picked, [t_axis])], outputs=[node.outputs[0]], name=node.name)
