"""Cases of the operators the fusion pass writes (core/graph/fusion.cc):
_fused_elemwise (programs as in Note [Fused elementwise programs],
core/op/fused/fused_elemwise_cpu.h) and the layer + activation operators
_fused_fully_connected_act, _fused_convolution_act and _fused_convolution_bn
(Convolution, BatchNorm with the moving statistics, optional addend and
activation). References are NumPy:
the unfused chain in the case dtype, or float64 layers followed by the
activation."""
import numpy as np

from .nn_act import act64
from .nn_conv import conv_ref, fc_ref
from .nn_norm import bn64
from .nn_ref import F32, F64, C, ins, rand


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def chain_ref(x0, x1, x2):
    # u:exp:0; b:mul:3:1; s:sub:4:0.5:0; u:sigmoid:5; s:div:6:2:1; b:max:7:2; a:tanh:8
    return np.tanh(np.maximum(2 / sigmoid(np.exp(x0) * x1 - 0.5), x2))


FUSED_ELEMWISE = [
    C(ins(rand((3, 4)), rand((3, 4))), lambda a, b: a * b + np.float32(1), name="mul_add", rtol=1e-6,
      num_args=2, program="b:mul:0:1;s:add:2:1:0"),
    C(ins(rand((3000,), F64), rand((3000,), F64), rand((3000,), F64)), chain_ref, name="chain_f64_tiles",
      rtol=1e-12, atol=1e-14, num_args=3,
      program="u:exp:0;b:mul:3:1;s:sub:4:0.5:0;u:sigmoid:5;s:div:6:2:1;b:max:7:2;a:tanh:8"),
    C(ins(rand((2, 5)), rand((2, 5))), lambda g, y: (g * (y > 0)).astype(F32) * np.float32(3), name="relu_grad",
      rtol=1e-6, num_args=2, program="g:relu:0:1;s:mul:2:3:0"),
    C(ins(rand((7,))), lambda x: np.float32(2) - x, name="scalar_left", rtol=1e-6, num_args=1,
      program="s:sub:0:2:1"),
    C(ins(rand((4,))), lambda x: x, name="copy", num_args=1, program="c:0"),
]


def fc_act_ref(act_type, **fc_attrs):
    def ref(x, w, b=None):
        y = fc_ref(x.astype(F64), w.astype(F64), None if b is None else b.astype(F64), **fc_attrs)
        return act64(y, act_type).astype(x.dtype)
    return ref


def conv_act_ref(act_type, **conv_attrs):
    def ref(x, w, b=None):
        y = conv_ref(x.astype(F64), w.astype(F64), None if b is None else b.astype(F64), **conv_attrs)
        return act64(y, act_type).astype(x.dtype)
    return ref


FUSED_FC = [
    C(ins(rand((4, 5)), rand((3, 5)), rand((3,))), fc_act_ref("relu", num_hidden=3), name="relu",
      num_hidden=3, act_type="relu"),
    C(ins(rand((2, 3, 5), F64), rand((4, 5), F64)), fc_act_ref("sigmoid", num_hidden=4, no_bias=True, flatten=False),
      name="sigmoid_no_bias_f64", rtol=1e-10, atol=1e-12, num_hidden=4, no_bias=True, flatten=False,
      act_type="sigmoid"),
]

CONV_ATTRS = dict(kernel=(3, 3), pad=(1, 1), num_filter=4)

FUSED_CONV = [
    C(ins(rand((2, 3, 6, 5)), rand((4, 3, 3, 3)), rand((4,))), conv_act_ref("relu", **CONV_ATTRS), name="relu",
      rtol=1e-5, atol=1e-5, act_type="relu", **CONV_ATTRS),
    C(ins(rand((1, 2, 7), F64), rand((2, 2, 2), F64)),
      conv_act_ref("tanh", kernel=(2,), num_filter=2, no_bias=True), name="tanh_1d_f64", rtol=1e-10, atol=1e-12,
      kernel=(2,), num_filter=2, no_bias=True, act_type="tanh"),
]

def conv_bn_ref(act_type="none", with_sum=False, eps=1e-3, fix_gamma=True, **conv_attrs):
    def ref(x, w, *rest):
        rest = list(rest)
        b = None if conv_attrs.get("no_bias") else rest.pop(0)
        gamma, beta, mm, mv = rest[:4]
        y = conv_ref(x.astype(F64), w.astype(F64), None if b is None else b.astype(F64), **conv_attrs)
        y = bn64(y, gamma, beta, mm, mv, eps=eps, fix_gamma=fix_gamma)
        if with_sum:
            y = y + rest[4].astype(F64)
        return (y if act_type == "none" else act64(y, act_type)).astype(x.dtype)
    return ref


def bn_params(c, dtype=F32):
    return [rand((c,), dtype, 0.5, 1.5), rand((c,), dtype), rand((c,), dtype, -0.5, 0.5), rand((c,), dtype, 0.5, 2.0)]


FUSED_CONV_BN = [
    C(ins(rand((2, 3, 6, 5)), rand((4, 3, 3, 3)), rand((4,)), *bn_params(4), rand((2, 4, 6, 5))),
      conv_bn_ref("relu", with_sum=True, fix_gamma=False, **CONV_ATTRS), name="bias_sum_relu", rtol=1e-5, atol=1e-5,
      act_type="relu", with_sum=True, fix_gamma=False, **CONV_ATTRS),
    C(ins(rand((1, 4, 5, 5)), rand((4, 1, 3, 3)), *bn_params(4)),
      conv_bn_ref(no_bias=True, eps=1e-5, kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=4, num_group=4),
      name="depthwise_no_act", rtol=1e-5, atol=1e-5, no_bias=True, eps=1e-5, kernel=(3, 3), stride=(2, 2),
      pad=(1, 1), num_filter=4, num_group=4),
    C(ins(rand((2, 2, 7), F64), rand((3, 2, 2), F64), *bn_params(3, F64), rand((2, 3, 6), F64)),
      conv_bn_ref("tanh", with_sum=True, kernel=(2,), num_filter=3, no_bias=True), name="tanh_1d_f64", rtol=1e-10,
      atol=1e-12, kernel=(2,), num_filter=3, no_bias=True, with_sum=True, act_type="tanh"),
]

CASES = {
    "_fused_elemwise": FUSED_ELEMWISE,
    "_fused_fully_connected_act": FUSED_FC,
    "_fused_convolution_act": FUSED_CONV,
    "_fused_convolution_bn": FUSED_CONV_BN,
}
