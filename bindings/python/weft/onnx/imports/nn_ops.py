"""Import of ONNX's network layers: Conv, ConvTranspose, Gemm, pooling,
normalisations, activations, softmax."""

from ... import symbol as S
from ..import_registry import register_import

__all__ = []


def _sym_pads(ctx, node, n):
    """ONNX pads are (begins..., ends...); MXNet pads both sides equally."""
    if ctx.attr(node, "auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        raise ctx.error(node, "auto_pad=%s is not supported" % ctx.attr(node, "auto_pad"))
    pads = ctx.attr(node, "pads", [0] * (2 * n))
    begin, end = list(pads[:n]), list(pads[n:])
    if begin != end:
        raise ctx.error(node, "asymmetric pads %s are not supported" % (pads,))
    return tuple(begin)


def _conv_attrs(ctx, node, kernel):
    n = len(kernel)
    return dict(kernel=tuple(kernel), stride=tuple(ctx.attr(node, "strides", [1] * n)),
                dilate=tuple(ctx.attr(node, "dilations", [1] * n)), pad=_sym_pads(ctx, node, n),
                num_group=ctx.attr(node, "group", 1))


@register_import("Conv")
def conv(ctx, node):
    w_shape = ctx.shape_of(node.input[1])
    kernel = ctx.attr(node, "kernel_shape", list(w_shape[2:]))
    ins = ctx.inputs(node)
    return S.Convolution(*ins, num_filter=w_shape[0], no_bias=len(ins) == 2, name=ctx.name(node),
                         **_conv_attrs(ctx, node, kernel))


@register_import("ConvTranspose")
def conv_transpose(ctx, node):
    w_shape = ctx.shape_of(node.input[1])
    kernel = ctx.attr(node, "kernel_shape", list(w_shape[2:]))
    if ctx.attr(node, "output_shape") is not None:
        raise ctx.error(node, "output_shape is not supported")
    ins = ctx.inputs(node)
    group = ctx.attr(node, "group", 1)
    return S.Deconvolution(*ins, num_filter=w_shape[1] * group, no_bias=len(ins) == 2, name=ctx.name(node),
                           adj=tuple(ctx.attr(node, "output_padding", [0] * len(kernel))),
                           **_conv_attrs(ctx, node, kernel))


@register_import("Gemm")
def gemm(ctx, node):
    a, b = ctx.inputs(node)[:2]
    alpha, beta = ctx.attr(node, "alpha", 1.0), ctx.attr(node, "beta", 1.0)
    trans_a, trans_b = ctx.attr(node, "transA", 0), ctx.attr(node, "transB", 0)
    has_c = len(node.input) > 2 and node.input[2] != ""
    if trans_b and not trans_a and alpha == 1.0 and (not has_c or beta == 1.0) and \
            (not has_c or len(ctx.shape_of(node.input[2])) == 1):
        ins = [a, b] + ([ctx.inputs(node)[2]] if has_c else [])
        return S.FullyConnected(*ins, num_hidden=ctx.shape_of(node.input[1])[0], no_bias=not has_c,
                                flatten=True, name=ctx.name(node))
    y = S.dot(a, b, transpose_a=bool(trans_a), transpose_b=bool(trans_b))
    if alpha != 1.0:
        y = y * alpha
    if has_c:
        c = ctx.inputs(node)[2]
        y = S.broadcast_add(y, c * beta if beta != 1.0 else c)
    return y


def _pool(ctx, node, pool_type):
    kernel = ctx.attr(node, "kernel_shape")
    n = len(kernel)
    if ctx.attr(node, "dilations") not in (None, [1] * n):
        raise ctx.error(node, "dilations are not supported")
    attrs = dict(kernel=tuple(kernel), stride=tuple(ctx.attr(node, "strides", [1] * n)),
                 pad=_sym_pads(ctx, node, n), pool_type=pool_type,
                 pooling_convention="full" if ctx.attr(node, "ceil_mode", 0) else "valid")
    if pool_type == "avg":
        attrs["count_include_pad"] = bool(ctx.attr(node, "count_include_pad", 0))
    if pool_type == "lp":
        attrs["p_value"] = ctx.attr(node, "p", 2)
    return S.Pooling(ctx.inputs(node)[0], name=ctx.name(node), **attrs)


@register_import("MaxPool")
def max_pool(ctx, node):
    if len(node.output) > 1 and node.output[1]:
        raise ctx.error(node, "the Indices output is not supported")
    return _pool(ctx, node, "max")


@register_import("AveragePool")
def avg_pool(ctx, node):
    return _pool(ctx, node, "avg")


@register_import("LpPool")
def lp_pool(ctx, node):
    return _pool(ctx, node, "lp")


_GLOBAL = {"GlobalAveragePool": "avg", "GlobalMaxPool": "max", "GlobalLpPool": "lp"}


@register_import(*_GLOBAL)
def global_pool(ctx, node):
    pool_type = _GLOBAL[node.op_type]
    n = len(ctx.shape_of(node.input[0])) - 2
    extra = {"p_value": ctx.attr(node, "p", 2)} if pool_type == "lp" else {}
    return S.Pooling(ctx.inputs(node)[0], kernel=(1,) * n, global_pool=True, pool_type=pool_type,
                     name=ctx.name(node), **extra)


@register_import("BatchNormalization")
def batch_norm(ctx, node):
    # mean and var are the model's moving statistics: Weft's auxiliary states.
    ctx.mark_aux(node.input[3], node.input[4])
    return S.BatchNorm(*ctx.inputs(node)[:5], eps=ctx.attr(node, "epsilon", 1e-5),
                       momentum=ctx.attr(node, "momentum", 0.9), fix_gamma=False, name=ctx.name(node))


@register_import("InstanceNormalization")
def instance_norm(ctx, node):
    return S.InstanceNorm(*ctx.inputs(node)[:3], eps=ctx.attr(node, "epsilon", 1e-5), name=ctx.name(node))


@register_import("LayerNormalization")
def layer_norm(ctx, node):
    axis = ctx.attr(node, "axis", -1)
    rank = len(ctx.shape_of(node.input[0]))
    if axis % rank != rank - 1:
        raise ctx.error(node, "axis=%d: only the last axis is supported" % axis)
    ins = ctx.inputs(node)
    if len(ins) < 3:
        raise ctx.error(node, "a LayerNormalization without bias is not supported")
    return S.LayerNorm(*ins[:3], axis=-1, eps=ctx.attr(node, "epsilon", 1e-5), name=ctx.name(node))


@register_import("LRN")
def lrn(ctx, node):
    return S.LRN(ctx.inputs(node)[0], alpha=ctx.attr(node, "alpha", 1e-4), beta=ctx.attr(node, "beta", 0.75),
                 knorm=ctx.attr(node, "bias", 1.0), nsize=ctx.attr(node, "size"), name=ctx.name(node))


_ACT = {"Relu": "relu", "Sigmoid": "sigmoid", "Tanh": "tanh", "Softplus": "softrelu", "Softsign": "softsign"}


@register_import(*_ACT)
def activation(ctx, node):
    return S.Activation(ctx.inputs(node)[0], act_type=_ACT[node.op_type], name=ctx.name(node))


@register_import("LeakyRelu")
def leaky_relu(ctx, node):
    return S.LeakyReLU(ctx.inputs(node)[0], act_type="leaky", slope=ctx.attr(node, "alpha", 0.01),
                       name=ctx.name(node))


@register_import("Elu")
def elu(ctx, node):
    return S.LeakyReLU(ctx.inputs(node)[0], act_type="elu", slope=ctx.attr(node, "alpha", 1.0),
                       name=ctx.name(node))


@register_import("Selu")
def selu(ctx, node):
    # gamma * elu_alpha(x); MXNet's selu fixes alpha and gamma, ONNX makes them attributes.
    alpha = ctx.attr(node, "alpha", 1.67326319217681884765625)
    gamma = ctx.attr(node, "gamma", 1.05070102214813232421875)
    return S.LeakyReLU(ctx.inputs(node)[0], act_type="elu", slope=alpha) * gamma


@register_import("ThresholdedRelu")
def thresholded_relu(ctx, node):
    x = ctx.inputs(node)[0]
    return S.broadcast_mul(x, x > ctx.attr(node, "alpha", 1.0), name=ctx.name(node))


@register_import("LpNormalization")
def lp_normalization(ctx, node):
    p = ctx.attr(node, "p", 2)
    if p not in (1, 2):
        raise ctx.error(node, "p=%d: only 1 and 2 are defined" % p)
    x = ctx.inputs(node)[0]
    axis = ctx.attr(node, "axis", -1) % len(ctx.shape_of(node.input[0]))
    return S.broadcast_div(x, S.norm(x, ord=p, axis=axis, keepdims=True), name=ctx.name(node))


@register_import("PRelu")
def prelu(ctx, node):
    slope = ctx.const_value(node.input[1])
    if slope is None:
        raise ctx.error(node, "a computed slope is not supported")
    gamma = ctx.new_param(node.input[1] + "_flat", slope.reshape(-1))
    return S.LeakyReLU(ctx.inputs(node)[0], gamma, act_type="prelu", name=ctx.name(node))


@register_import("HardSigmoid")
def hard_sigmoid(ctx, node):
    return S.hard_sigmoid(ctx.inputs(node)[0], alpha=ctx.attr(node, "alpha", 0.2),
                          beta=ctx.attr(node, "beta", 0.5), name=ctx.name(node))


@register_import("HardSwish")
def hard_swish(ctx, node):
    # ONNX (opset 14): x * max(0, min(1, x / 6 + 1 / 2)), torch's hardswish (MobileNetV3)
    x = ctx.inputs(node)[0]
    return S.elemwise_mul(x, S.hard_sigmoid(x, alpha=1.0 / 6, beta=0.5), name=ctx.name(node))


@register_import("Softmax", "LogSoftmax")
def softmax(ctx, node):
    rank = len(ctx.shape_of(node.input[0]))
    default = -1 if ctx.opset >= 13 else 1
    axis = ctx.attr(node, "axis", default) % rank
    if ctx.opset < 13 and axis != rank - 1:
        raise ctx.error(node, "opset %d softmax over a flattened axis %d is not supported" % (ctx.opset, axis))
    fn = S.softmax if node.op_type == "Softmax" else S.log_softmax
    return fn(ctx.inputs(node)[0], axis=axis, name=ctx.name(node))


@register_import("Dropout", "Identity")
def identity(ctx, node):
    return S.identity(ctx.inputs(node)[0], name=ctx.name(node))


