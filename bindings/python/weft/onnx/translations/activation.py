"""Activations and softmax-family operators, and one-input math functions."""
import math

import numpy as np

from ..registry import register

__all__ = []

_UNARY = {
    "relu": "Relu", "sigmoid": "Sigmoid", "tanh": "Tanh", "exp": "Exp", "log": "Log", "sqrt": "Sqrt",
    "abs": "Abs", "negative": "Neg", "reciprocal": "Reciprocal", "floor": "Floor", "ceil": "Ceil",
    "sin": "Sin", "cos": "Cos", "tan": "Tan", "arcsin": "Asin", "arccos": "Acos", "arctan": "Atan",
    "sinh": "Sinh", "cosh": "Cosh", "arcsinh": "Asinh", "arccosh": "Acosh", "arctanh": "Atanh",
    "erf": "Erf", "sign": "Sign", "softsign": "Softsign", "rint": "Round",
    # Inference identities: gradients and dropout do nothing in an exported model.
    "identity": "Identity", "_copy": "Identity", "_copyto": "Identity", "BlockGrad": "Identity", "stop_gradient": "Identity",
    "make_loss": "Identity", "MakeLoss": "Identity", "Dropout": "Identity",
}


def _unary(onnx_op):
    def translate(b, node):
        b.node(onnx_op, [node.inputs[0]], outputs=[node.outputs[0]], name=node.name)
    return translate


for _mx, _onnx in _UNARY.items():
    register(_mx)(_unary(_onnx))


def _c(b, node, value):
    return b.const(value, node.in_dtypes[0])


@register("square")
def square(b, node):
    x = node.inputs[0]
    b.node("Mul", [x, x], outputs=[node.outputs[0]], name=node.name)


@register("rsqrt")
def rsqrt(b, node):
    b.node("Reciprocal", [b.node("Sqrt", [node.inputs[0]])], outputs=[node.outputs[0]], name=node.name)


@register("log1p")
def log1p(b, node):
    b.node("Log", [b.node("Add", [node.inputs[0], _c(b, node, 1)])], outputs=[node.outputs[0]],
           name=node.name)


@register("expm1")
def expm1(b, node):
    b.node("Sub", [b.node("Exp", [node.inputs[0]]), _c(b, node, 1)], outputs=[node.outputs[0]],
           name=node.name)


@register("log2", "log10")
def log_base(b, node):
    base = 2.0 if node.op == "log2" else 10.0
    b.node("Div", [b.node("Log", [node.inputs[0]]), _c(b, node, math.log(base))],
           outputs=[node.outputs[0]], name=node.name)


@register("round", "fix", "trunc")
def round_away(b, node):
    """MXNet's round goes half away from zero (ONNX Round: half to even); fix and
    trunc go toward zero: sign(x) * floor(|x| (+ 0.5))."""
    x = node.inputs[0]
    mag = b.node("Abs", [x])
    if node.op == "round":
        mag = b.node("Add", [mag, _c(b, node, 0.5)])
    b.node("Mul", [b.node("Sign", [x]), b.node("Floor", [mag])], outputs=[node.outputs[0]],
           name=node.name)


@register("hard_sigmoid")
def hard_sigmoid(b, node):
    b.node("HardSigmoid", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name,
           alpha=node.float("alpha", 0.2), beta=node.float("beta", 0.5))


def _gelu(b, node, x, out):
    # 0.5 x (1 + erf(x / sqrt 2)): MXNet's exact GELU (the erf form).
    e = b.node("Erf", [b.node("Div", [x, _c(b, node, math.sqrt(2.0))])])
    half_x = b.node("Mul", [x, _c(b, node, 0.5)])
    b.node("Mul", [half_x, b.node("Add", [e, _c(b, node, 1.0)])], outputs=[out], name=node.name)


@register("Activation")
def activation(b, node):
    act = node.str("act_type")
    x, y = node.inputs[0], node.outputs[0]
    simple = {"relu": "Relu", "sigmoid": "Sigmoid", "tanh": "Tanh", "softrelu": "Softplus",
              "softsign": "Softsign"}
    if act in simple:
        b.node(simple[act], [x], outputs=[y], name=node.name)
    elif act == "log_sigmoid":
        b.node("Log", [b.node("Sigmoid", [x])], outputs=[y], name=node.name)
    elif act == "mish":
        b.node("Mul", [x, b.node("Tanh", [b.node("Softplus", [x])])], outputs=[y], name=node.name)
    else:
        raise node.error("act_type=%s has no ONNX form" % act)


@register("LeakyReLU")
def leaky_relu(b, node):
    act = node.str("act_type", "leaky")
    x, y = node.inputs[0], node.outputs[0]
    slope = node.float("slope", 0.25)
    if act == "leaky":
        b.node("LeakyRelu", [x], outputs=[y], name=node.name, alpha=slope)
    elif act == "rrelu":
        # In inference RReLU's slope is the middle of its range.
        mid = (node.float("lower_bound", 0.125) + node.float("upper_bound", 0.334)) / 2
        b.node("LeakyRelu", [x], outputs=[y], name=node.name, alpha=mid)
    elif act == "elu":
        b.node("Elu", [x], outputs=[y], name=node.name, alpha=slope)
    elif act == "selu":
        b.node("Selu", [x], outputs=[y], name=node.name, alpha=1.6732632423543772848170429916717,
               gamma=1.0507009873554804934193349852946)
    elif act == "gelu":
        _gelu(b, node, x, y)
    elif act == "prelu":
        gamma = node.inputs[1]
        rank = node.rank
        if rank > 2 and node.in_shapes[1][0] != 1:
            # gamma holds one slope per channel (axis 1); ONNX broadcasts from the right.
            gamma = b.reshape(gamma, [-1] + [1] * (rank - 2))
        b.node("PRelu", [x, gamma], outputs=[y], name=node.name)
    else:
        raise node.error("act_type=%s has no ONNX form" % act)


def softmax_axis(b, op_type, x, axis, rank, out, name):
    """Softmax/LogSoftmax over one axis at any opset: below 13 ONNX softmaxes the
    input flattened to 2-D at ``axis``, which is per-axis only for the last one,
    so another axis is transposed to the end and back."""
    axis %= rank
    if b.opset >= 13 or axis == rank - 1:
        return b.node(op_type, [x], outputs=[out], name=name, axis=axis)
    perm = [d for d in range(rank) if d != axis] + [axis]
    inverse = [int(i) for i in np.argsort(perm)]
    s = b.node(op_type, [b.transpose(x, perm)], axis=rank - 1)
    return b.node("Transpose", [s], outputs=[out], name=name, perm=inverse)


def _length_mask(b, node, axis):
    """use_length (Note [Softmax with length] in core/op/softmax/softmax.cc): a bool
    tensor, broadcasting to the data's shape, true at positions < length along axis."""
    rank = node.rank
    n = node.in_shapes[0][axis]
    if n is None or n < 0:
        raise node.error("use_length=True needs a static size of the softmax axis, got %r" % (n,))
    pos = b.const(np.arange(n, dtype=np.int64).reshape([n if d == axis else 1 for d in range(rank)]),
                  hint="positions")
    lens = b.cast(node.inputs[1], np.int64)  # truncated as the kernel reads a length
    if rank > 1:
        lens = b.unsqueeze(lens, [axis])  # (1,) for 1-D data already broadcasts
    return b.node("Less", [pos, lens])


def _softmax_maybe_masked(b, node, op_type, x, out_dt):
    """softmax_axis over the node's axis, with use_length masking: the masked
    entries enter as -inf and leave as 0 (a row of length 0 is all zeros)."""
    axis = node.int("axis", -1) % node.rank
    if not node.bool("use_length"):
        return softmax_axis(b, op_type, x, axis, node.rank, node.outputs[0], node.name)
    mask = _length_mask(b, node, axis)
    x = b.node("Where", [mask, x, b.const(-np.inf, out_dt)])
    y = softmax_axis(b, op_type, x, axis, node.rank, b.fresh(node.name + "_unmasked"), None)
    return b.node("Where", [mask, y, b.const(0, out_dt)], outputs=[node.outputs[0]], name=node.name)


@register("softmax", "log_softmax")
def softmax(b, node):
    op_type = "Softmax" if node.op == "softmax" else "LogSoftmax"
    x = node.inputs[0]
    t = node.float("temperature")
    if t is not None and t != 1.0:
        x = b.node("Div", [x, _c(b, node, t)])
    out_dt = node.out_dtypes[0]
    if out_dt != node.in_dtypes[0]:
        x = b.cast(x, out_dt)
    _softmax_maybe_masked(b, node, op_type, x, out_dt)


def _softmax_flat(b, node, x, out):
    """Softmax of each sample over all its other axes, in the input's shape."""
    flat = b.node("Flatten", [x], axis=1)
    s = b.node("Softmax", [flat], axis=1)
    b.node("Reshape", [s, b.shape(x)], outputs=[out], name=node.name)


@register("SoftmaxOutput", "Softmax")
def softmax_output(b, node):
    x, y, rank = node.inputs[0], node.outputs[0], node.rank
    if node.bool("multi_output"):
        softmax_axis(b, "Softmax", x, 1, rank, y, node.name)
    elif node.bool("preserve_shape") or rank <= 2:
        softmax_axis(b, "Softmax", x, rank - 1, rank, y, node.name)
    else:
        _softmax_flat(b, node, x, y)


@register("SoftmaxActivation")
def softmax_activation(b, node):
    x, y, rank = node.inputs[0], node.outputs[0], node.rank
    if node.str("mode", "instance") == "channel":
        softmax_axis(b, "Softmax", x, 1, rank, y, node.name)
    elif rank <= 2:
        softmax_axis(b, "Softmax", x, rank - 1, rank, y, node.name)
    else:
        _softmax_flat(b, node, x, y)


@register("LinearRegressionOutput", "MAERegressionOutput")
def regression_output(b, node):
    b.node("Identity", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name)


@register("LogisticRegressionOutput")
def logistic_output(b, node):
    b.node("Sigmoid", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name)


@register("softmin")
def softmin(b, node):
    x = b.node("Neg", [node.inputs[0]])
    t = node.float("temperature")
    if t is not None and t != 1.0:
        x = b.node("Div", [x, _c(b, node, t)])
    _softmax_maybe_masked(b, node, "Softmax", x, node.out_dtypes[0])
