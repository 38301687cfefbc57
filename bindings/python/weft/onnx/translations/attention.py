"""The fused attention operators of MXNet's contrib (BERT/transformer graphs):
interleaved_matmul_selfatt_qk/valatt, interleaved_matmul_encdec_qk/valatt,
div_sqrt_dim.

Note [Interleaved projections]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The operators read a (seq, batch, heads * k * head_dim) projection laid out as
(seq, batch, heads, k, head_dim), k = 3 for self-attention (q, k, v) and 2 for
the encoder-decoder keys/values. A part is Gather'ed on the k axis, moved to
(batch, heads, seq, head_dim) and merged to (batch*heads, seq, head_dim), the
shapes the operators' batched products use; queries are scaled by
1/sqrt(head_dim) as the operators do. Sequence and batch stay dynamic: merged
shapes are read with Shape at run time.
"""
import math

from ..registry import register

__all__ = []


def _merge_batch_heads(b, x):
    """(batch, heads, seq, d) -> (batch*heads, seq, d)."""
    return b.node("Reshape", [x, b.node("Concat", [b.int64s([-1]), b.shape(x, 2, 4)], axis=0)])


def _part(b, node, proj, heads, parts, which):
    """Part ``which`` of an interleaved projection as (batch*heads, seq, head_dim)."""
    x = b.reshape(proj, [0, 0, heads, parts, -1])
    x = b.node("Gather", [x, b.const(which, "int64")], axis=3)  # (seq, batch, heads, d)
    return _merge_batch_heads(b, b.transpose(x, [1, 2, 0, 3]))


def _head_dim(node, width, parts, heads):
    d, rem = divmod(width, parts * heads)
    if rem:
        raise node.error("projection width %d is not heads (%d) * %d * head_dim" % (width, heads, parts))
    return d


def _scaled_queries(b, node, q, head_dim):
    return b.node("Div", [q, b.const(math.sqrt(head_dim), node.in_dtypes[0])])


def _attention_output(b, node, att, v, heads):
    """att (batch*heads, qseq, kseq) @ v -> (qseq, batch, heads*head_dim)."""
    y = b.node("MatMul", [att, v])                      # (batch*heads, qseq, d)
    shape = b.node("Concat", [b.int64s([-1, heads]), b.shape(y, 1, 3)], axis=0)
    y = b.transpose(b.node("Reshape", [y, shape]), [2, 0, 1, 3])  # (qseq, batch, heads, d)
    b.node("Reshape", [y, b.int64s([0, 0, -1])], outputs=[node.outputs[0]], name=node.name)


@register("_contrib_interleaved_matmul_selfatt_qk")
def selfatt_qk(b, node):
    heads = node.int("heads")
    d = _head_dim(node, node.in_shapes[0][2], 3, heads)
    q = _scaled_queries(b, node, _part(b, node, node.inputs[0], heads, 3, 0), d)
    k = _part(b, node, node.inputs[0], heads, 3, 1)
    b.node("MatMul", [q, b.transpose(k, [0, 2, 1])], outputs=[node.outputs[0]], name=node.name)


@register("_contrib_interleaved_matmul_selfatt_valatt")
def selfatt_valatt(b, node):
    heads = node.int("heads")
    _head_dim(node, node.in_shapes[0][2], 3, heads)
    v = _part(b, node, node.inputs[0], heads, 3, 2)
    _attention_output(b, node, node.inputs[1], v, heads)


@register("_contrib_interleaved_matmul_encdec_qk")
def encdec_qk(b, node):
    heads = node.int("heads")
    d = _head_dim(node, node.in_shapes[0][2], 1, heads)
    q = b.reshape(node.inputs[0], [0, 0, heads, -1])
    q = _scaled_queries(b, node, _merge_batch_heads(b, b.transpose(q, [1, 2, 0, 3])), d)
    k = _part(b, node, node.inputs[1], heads, 2, 0)
    b.node("MatMul", [q, b.transpose(k, [0, 2, 1])], outputs=[node.outputs[0]], name=node.name)


@register("_contrib_interleaved_matmul_encdec_valatt")
def encdec_valatt(b, node):
    heads = node.int("heads")
    _head_dim(node, node.in_shapes[0][2], 2, heads)
    v = _part(b, node, node.inputs[0], heads, 2, 1)
    _attention_output(b, node, node.inputs[1], v, heads)


@register("_contrib_div_sqrt_dim")
def div_sqrt_dim(b, node):
    d = node.in_shapes[0][-1]
    b.node("Div", [node.inputs[0], b.const(math.sqrt(d), node.in_dtypes[0])], outputs=[node.outputs[0]],
           name=node.name)
