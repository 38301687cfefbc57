"""Reading ONNX operands that Weft needs as attributes: axes given as an
attribute before some opset and as a constant input from it, and other
constant inputs (shapes, repeats, K)."""
__all__ = ["axes_arg", "const_input"]


def const_input(ctx, node, i, what, default=None):
    """The constant value of input ``i`` (``default`` when absent); an input
    computed at run time raises naming ``what``."""
    if len(node.input) <= i or not node.input[i]:
        return default
    v = ctx.const_value(node.input[i])
    if v is None:
        raise ctx.error(node, "a computed %s is not supported" % what)
    return v


def axes_arg(ctx, node, attr_opset):
    """Axes from the attribute (before ``attr_opset``) or the second input."""
    if ctx.opset < attr_opset:
        return ctx.attr(node, "axes")
    axes = const_input(ctx, node, 1, "axes")
    return None if axes is None else [int(a) for a in axes]
