"""Element-wise arithmetic with arrays and scalars, comparisons, clip, Cast, add_n."""
import numpy as np

from .._deps import helper
from ..registry import register

__all__ = []

# Arithmetic whose ONNX form has the MXNet dtype (both broadcast_* and elemwise_*: ONNX
# broadcasts numpy-style, which covers MXNet's equal-rank broadcasting).
_BINARY = {"Add": ("elemwise_add", "broadcast_add", "broadcast_plus", "_plus", "_add", "_Plus"),
           "Sub": ("elemwise_sub", "broadcast_sub", "broadcast_minus", "_minus", "_sub", "_Minus"),
           "Mul": ("elemwise_mul", "broadcast_mul", "_mul", "_Mul"),
           "Div": ("elemwise_div", "broadcast_div", "_div", "_Div"),
           "Pow": ("broadcast_power", "_power", "_Power"),
           "Max": ("broadcast_maximum", "_maximum", "_Maximum"),
           "Min": ("broadcast_minimum", "_minimum", "_Minimum")}
# Comparisons and logic: ONNX gives bool; MXNet gives 0/1 in the input's dtype.
_COMPARE = {"Equal": ("broadcast_equal", "_equal"), "Greater": ("broadcast_greater", "_greater"),
            "GreaterOrEqual": ("broadcast_greater_equal", "_greater_equal"),
            "Less": ("broadcast_lesser", "_lesser"), "LessOrEqual": ("broadcast_lesser_equal", "_lesser_equal"),
            "NotEqual": ("broadcast_not_equal", "_not_equal")}
_LOGIC = {"And": ("broadcast_logical_and", "_logical_and"), "Or": ("broadcast_logical_or", "_logical_or"),
          "Xor": ("broadcast_logical_xor", "_logical_xor")}
# x op scalar, and the reversed scalar op x.
_SCALAR = {"_plus_scalar": ("Add", False), "_minus_scalar": ("Sub", False),
           "_rminus_scalar": ("Sub", True), "_mul_scalar": ("Mul", False),
           "_div_scalar": ("Div", False), "_rdiv_scalar": ("Div", True),
           "_power_scalar": ("Pow", False), "_rpower_scalar": ("Pow", True),
           "_maximum_scalar": ("Max", False), "_minimum_scalar": ("Min", False)}
_SCALAR_COMPARE = {"_equal_scalar": "Equal", "_not_equal_scalar": "NotEqual",
                   "_greater_scalar": "Greater", "_greater_equal_scalar": "GreaterOrEqual",
                   "_lesser_scalar": "Less", "_lesser_equal_scalar": "LessOrEqual"}


def _not_equal(b, x, y):
    return b.node("Not", [b.node("Equal", [x, y])])


def _bool_op(b, onnx_op, x, y):
    if onnx_op == "NotEqual":
        return _not_equal(b, x, y)
    return b.node(onnx_op, [x, y])


def _binary(onnx_op):
    def translate(b, node):
        b.node(onnx_op, node.inputs[:2], outputs=[node.outputs[0]], name=node.name)
    return translate


def _compare(onnx_op):
    def translate(b, node):
        r = _bool_op(b, onnx_op, node.inputs[0], node.inputs[1])
        b.node("Cast", [r], outputs=[node.outputs[0]], name=node.name,
               to=_tensor_type(node.out_dtypes[0]))
    return translate


def _logic(onnx_op):
    def translate(b, node):
        zero = b.const(0, node.in_dtypes[0])
        x = b.node("Not", [b.node("Equal", [node.inputs[0], zero])])
        y = b.node("Not", [b.node("Equal", [node.inputs[1], zero])])
        b.node("Cast", [b.node(onnx_op, [x, y])], outputs=[node.outputs[0]], name=node.name,
               to=_tensor_type(node.out_dtypes[0]))
    return translate


def _tensor_type(np_dtype):
    return helper.np_dtype_to_tensor_dtype(np.dtype(np_dtype))


def _scalar_value(node):
    return float(node.attrs.get("scalar", "1"))


def _scalar(onnx_op, reverse):
    def translate(b, node):
        s = b.const(_scalar_value(node), node.in_dtypes[0])
        ins = [s, node.inputs[0]] if reverse else [node.inputs[0], s]
        b.node(onnx_op, ins, outputs=[node.outputs[0]], name=node.name)
    return translate


def _scalar_compare(onnx_op):
    def translate(b, node):
        s = b.const(_scalar_value(node), node.in_dtypes[0])
        r = _bool_op(b, onnx_op, node.inputs[0], s)
        b.node("Cast", [r], outputs=[node.outputs[0]], name=node.name,
               to=_tensor_type(node.out_dtypes[0]))
    return translate


for _onnx, _names in _BINARY.items():
    register(*_names)(_binary(_onnx))
for _onnx, _names in _COMPARE.items():
    register(*_names)(_compare(_onnx))
for _onnx, _names in _LOGIC.items():
    register(*_names)(_logic(_onnx))
for _mx, (_onnx, _rev) in _SCALAR.items():
    register(_mx)(_scalar(_onnx, _rev))
for _mx, _onnx in _SCALAR_COMPARE.items():
    register(_mx)(_scalar_compare(_onnx))


@register("logical_not")
def logical_not(b, node):
    z = b.node("Equal", [node.inputs[0], b.const(0, node.in_dtypes[0])])
    b.node("Cast", [z], outputs=[node.outputs[0]], name=node.name, to=_tensor_type(node.out_dtypes[0]))


@register("clip")
def clip(b, node):
    dt = node.in_dtypes[0]
    lo, hi = node.float("a_min"), node.float("a_max")
    b.node("Clip", [node.inputs[0], b.const(lo, dt), b.const(hi, dt)], outputs=[node.outputs[0]],
           name=node.name)


@register("Cast", "cast", "amp_cast")
def cast(b, node):
    b.node("Cast", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name,
           to=_tensor_type(node.out_dtypes[0]))


@register("add_n", "ElementWiseSum", "_sum")
def add_n(b, node):
    if len(node.inputs) == 1:
        b.node("Identity", node.inputs, outputs=[node.outputs[0]], name=node.name)
    else:
        b.node("Sum", node.inputs, outputs=[node.outputs[0]], name=node.name)


@register("where")
def where(b, node):
    cond = b.node("Not", [b.node("Equal", [node.inputs[0], b.const(0, node.in_dtypes[0])])])
    b.node("Where", [cond, node.inputs[1], node.inputs[2]], outputs=[node.outputs[0]], name=node.name)


@register("zeros_like", "ones_like")
def fill_like(b, node):
    value = 0 if node.op == "zeros_like" else 1
    shape = b.shape(node.inputs[0])
    b.node("Expand", [b.const(value, node.in_dtypes[0]), shape], outputs=[node.outputs[0]],
           name=node.name)


def _python_mod(b, node, x, y, out):
    """MXNet's mod takes the divisor's sign (Python's %): ONNX Mod with fmod=0
    does that for integers; for floats C's fmod is corrected by adding the
    divisor where the remainder is non-zero and its sign differs from it."""
    if np.issubdtype(node.in_dtypes[0], np.integer):
        return b.node("Mod", [x, y], outputs=[out], name=node.name, fmod=0)
    r = b.node("Mod", [x, y], fmod=1)
    zero = b.const(0, node.in_dtypes[0])
    differ = b.node("Xor", [b.node("Less", [r, zero]), b.node("Less", [y, zero])])
    fix = b.node("And", [differ, b.node("Not", [b.node("Equal", [r, zero])])])
    return b.node("Add", [r, b.node("Where", [fix, y, zero])], outputs=[out], name=node.name)


@register("broadcast_mod", "_mod")
def mod(b, node):
    _python_mod(b, node, node.inputs[0], node.inputs[1], node.outputs[0])


@register("_mod_scalar", "_rmod_scalar")
def mod_scalar(b, node):
    s = b.const(_scalar_value(node), node.in_dtypes[0])
    x = node.inputs[0]
    a, d = (x, s) if node.op == "_mod_scalar" else (s, x)
    if node.op == "_rmod_scalar":
        a = b.node("Expand", [s, b.shape(x)])
    _python_mod(b, node, a, d, node.outputs[0])
