"""Convolution, Deconvolution, FullyConnected and Pooling."""
from ..registry import register

__all__ = []


def _spatial(node, key, n, default):
    v = node.tuple(key)
    if v is None or len(v) == 0:
        return [default] * n
    if len(v) != n:
        raise node.error("%s=%s does not have one value per spatial dimension (%d)" % (key, v, n))
    return list(v)


def _check_layout(node):
    layout = node.str("layout", "None")
    if layout not in ("None", "NCW", "NCHW", "NCDHW"):
        raise node.error("layout=%s: ONNX convolutions and poolings are channel-first only" % layout)


@register("Convolution")
def convolution(b, node):
    _check_layout(node)
    kernel = list(node.tuple("kernel"))
    n = len(kernel)
    pad = _spatial(node, "pad", n, 0)
    ins = node.inputs[:2] if node.bool("no_bias") else node.inputs[:3]
    b.node("Conv", ins, outputs=[node.outputs[0]], name=node.name, kernel_shape=kernel,
           strides=_spatial(node, "stride", n, 1), dilations=_spatial(node, "dilate", n, 1),
           pads=pad + pad, group=node.int("num_group", 1))


@register("Deconvolution")
def deconvolution(b, node):
    _check_layout(node)
    kernel = list(node.tuple("kernel"))
    n = len(kernel)
    if node.has("target_shape") and any(node.tuple("target_shape")):
        raise node.error("target_shape is not supported; give pad and adj instead")
    pad = _spatial(node, "pad", n, 0)
    ins = node.inputs[:2] if node.bool("no_bias", True) else node.inputs[:3]
    b.node("ConvTranspose", ins, outputs=[node.outputs[0]], name=node.name, kernel_shape=kernel,
           strides=_spatial(node, "stride", n, 1), dilations=_spatial(node, "dilate", n, 1),
           pads=pad + pad, output_padding=_spatial(node, "adj", n, 0),
           group=node.int("num_group", 1))


@register("FullyConnected")
def fully_connected(b, node):
    x, w = node.inputs[0], node.inputs[1]
    no_bias = node.bool("no_bias")
    if node.bool("flatten", True):
        if node.rank != 2:
            x = b.node("Flatten", [x], axis=1)
        ins = [x, w] if no_bias else [x, w, node.inputs[2]]
        b.node("Gemm", ins, outputs=[node.outputs[0]], name=node.name, transB=1)
        return
    # flatten=False: the weight applies to the last axis of an N-d input.
    wt = b.transpose(w, [1, 0])
    if no_bias:
        b.node("MatMul", [x, wt], outputs=[node.outputs[0]], name=node.name)
    else:
        y = b.node("MatMul", [x, wt])
        b.node("Add", [y, node.inputs[2]], outputs=[node.outputs[0]], name=node.name)


@register("Pooling")
def pooling(b, node):
    """Note [Pooling conventions]: MXNet's 'valid' rounds the output size down
    and 'full' up, which are ONNX's ceil_mode 0 and 1; 'same' pads so the output
    is ceil(in / stride), ONNX's auto_pad SAME_UPPER. Global pooling ignores
    kernel, stride and pad."""
    _check_layout(node)
    pool_type = node.str("pool_type", "max")
    x, y = node.inputs[0], node.outputs[0]
    if node.bool("global_pool"):
        ops = {"max": "GlobalMaxPool", "avg": "GlobalAveragePool", "lp": "GlobalLpPool"}
        if pool_type not in ops:
            raise node.error("global pool_type=%s has no ONNX form" % pool_type)
        attrs = {"p": node.int("p_value", 2)} if pool_type == "lp" else {}
        b.node(ops[pool_type], [x], outputs=[y], name=node.name, **attrs)
        return
    kernel = list(node.tuple("kernel"))
    n = len(kernel)
    pad = _spatial(node, "pad", n, 0)
    convention = node.str("pooling_convention", "valid")
    attrs = {"kernel_shape": kernel, "strides": _spatial(node, "stride", n, 1)}
    if convention == "same":
        attrs["auto_pad"] = "SAME_UPPER"
    else:
        attrs["pads"] = pad + pad
        attrs["ceil_mode"] = 1 if convention == "full" else 0
    if pool_type == "max":
        b.node("MaxPool", [x], outputs=[y], name=node.name, **attrs)
    elif pool_type in ("avg", "sum"):
        include = 1 if node.bool("count_include_pad", True) else 0
        if pool_type == "avg":
            b.node("AveragePool", [x], outputs=[y], name=node.name, count_include_pad=include, **attrs)
        else:
            # A sum is the average over the full window times the window size.
            avg = b.node("AveragePool", [x], count_include_pad=1, **attrs)
            size = 1
            for k in kernel:
                size *= k
            b.node("Mul", [avg, b.const(size, node.in_dtypes[0])], outputs=[y], name=node.name)
    elif pool_type == "lp":
        b.node("LpPool", [x], outputs=[y], name=node.name, p=node.int("p_value", 2),
               **{k: v for k, v in attrs.items() if k != "ceil_mode"})
    else:
        raise node.error("pool_type=%s has no ONNX form" % pool_type)
