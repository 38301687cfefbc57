"""Matrix products: dot, batch_dot, linalg_gemm2."""
from ..registry import register

__all__ = []


def _swap_last(b, x, rank):
    perm = list(range(rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return b.transpose(x, perm)


@register("dot")
def dot(b, node):
    """MXNet's dot contracts the last axis of a with the first of b (tensordot,
    not MatMul's batching): both are flattened to 2-D, multiplied and the result
    reshaped to a.shape[:-1] + b.shape[1:] (read at run time)."""
    a, bb = node.inputs[:2]
    ra, rb = len(node.in_shapes[0]), len(node.in_shapes[1])
    if node.bool("transpose_a"):
        a = b.transpose(a, list(range(1, ra)) + [0]) if ra > 2 else b.transpose(a, [1, 0])
    if node.bool("transpose_b"):
        bb = b.transpose(bb, [rb - 1] + list(range(rb - 1))) if rb > 2 else b.transpose(bb, [1, 0])
    if ra == 2 and rb == 2:
        b.node("MatMul", [a, bb], outputs=[node.outputs[0]], name=node.name)
        return
    if ra == 1 and rb == 1:
        y = b.node("MatMul", [a, bb])
        b.node("Reshape", [y, b.int64s([1])], outputs=[node.outputs[0]], name=node.name)
        return
    a2 = b.node("Flatten", [a], axis=ra - 1) if ra > 1 else b.reshape(a, [1, -1])
    b2 = b.node("Flatten", [bb], axis=1) if rb > 1 else b.reshape(bb, [-1, 1])
    y = b.node("MatMul", [a2, b2])
    parts = []
    if ra > 1:
        parts.append(b.shape(a, 0, ra - 1))
    if rb > 1:
        parts.append(b.shape(bb, 1, rb))
    shape = parts[0] if len(parts) == 1 else b.node("Concat", parts, axis=0)
    b.node("Reshape", [y, shape], outputs=[node.outputs[0]], name=node.name)


@register("batch_dot")
def batch_dot(b, node):
    a, bb = node.inputs[:2]
    ra, rb = len(node.in_shapes[0]), len(node.in_shapes[1])
    if node.bool("transpose_a"):
        a = _swap_last(b, a, ra)
    if node.bool("transpose_b"):
        bb = _swap_last(b, bb, rb)
    b.node("MatMul", [a, bb], outputs=[node.outputs[0]], name=node.name)


@register("_linalg_gemm2", "linalg_gemm2")
def gemm2(b, node):
    a, bb = node.inputs[:2]
    ra = len(node.in_shapes[0])
    if node.int("axis", -2) not in (-2, ra - 2):
        raise node.error("axis other than -2 is not supported")
    if node.bool("transpose_a"):
        a = _swap_last(b, a, ra)
    if node.bool("transpose_b"):
        bb = _swap_last(b, bb, ra)
    y = b.node("MatMul", [a, bb])
    alpha = node.float("alpha", 1.0)
    if alpha == 1.0:
        b.node("Identity", [y], outputs=[node.outputs[0]], name=node.name)
    else:
        b.node("Mul", [y, b.const(alpha, node.in_dtypes[0])], outputs=[node.outputs[0]], name=node.name)
