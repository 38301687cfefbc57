"""BatchNorm (inference form), LayerNorm, InstanceNorm and L2Normalization."""
import numpy as np

from ..registry import register

__all__ = []


def _move_axis_perm(rank, axis, to):
    perm = [d for d in range(rank) if d != axis]
    perm.insert(to, axis)
    return perm


@register("BatchNorm", "_contrib_SyncBatchNorm")
def batch_norm(b, node):
    """Note [BatchNorm in inference form]: an exported model is for inference,
    so BatchNorm normalises with the moving mean and variance whatever
    use_global_stats says (MXNet's exporter does the same). fix_gamma=True
    means a gamma of ones, whatever the stored gamma holds."""
    x, gamma, beta, mean, var = node.inputs[:5]
    rank = node.rank
    axis = node.int("axis", 1) % rank
    if node.bool("fix_gamma", True):
        channels = node.in_shapes[1][0]
        gamma = b.const(np.ones((channels,), dtype=node.in_dtypes[1]), hint=node.name + "_fixed_gamma")
    eps = node.float("eps", 1e-3)
    if axis == 1:
        b.node("BatchNormalization", [x, gamma, beta, mean, var], outputs=[node.outputs[0]],
               name=node.name, epsilon=eps)
        return
    perm = _move_axis_perm(rank, axis, 1)
    inverse = list(np.argsort(perm))
    xt = b.transpose(x, perm)
    y = b.node("BatchNormalization", [xt, gamma, beta, mean, var], epsilon=eps)
    b.node("Transpose", [y], outputs=[node.outputs[0]], name=node.name, perm=inverse)


def _broadcast_along(b, v, rank, axis):
    """Reshapes a 1-d parameter so it broadcasts along ``axis`` of a rank-``rank`` tensor."""
    if axis == rank - 1:
        return v
    shape = [1] * rank
    shape[axis] = -1
    return b.reshape(v, shape)


@register("LayerNorm")
def layer_norm(b, node):
    """MXNet normalises over one axis; ONNX's LayerNormalization (opset 17) over
    ``axis`` and all after it, the same only for the last axis. Otherwise, and
    below opset 17, the mean/variance form."""
    x, gamma, beta = node.inputs[:3]
    rank = node.rank
    axis = node.int("axis", -1) % rank
    eps = node.float("eps", 1e-5)
    if b.opset >= 17 and axis == rank - 1:
        b.node("LayerNormalization", [x, gamma, beta], outputs=[node.outputs[0]], name=node.name,
               axis=-1, epsilon=eps)
        return
    mean = b.reduce("ReduceMean", x, [axis], keepdims=True)
    d = b.node("Sub", [x, mean])
    var = b.reduce("ReduceMean", b.node("Mul", [d, d]), [axis], keepdims=True)
    std = b.node("Sqrt", [b.node("Add", [var, b.const(eps, node.in_dtypes[0])])])
    normed = b.node("Div", [d, std])
    scaled = b.node("Mul", [normed, _broadcast_along(b, gamma, rank, axis)])
    b.node("Add", [scaled, _broadcast_along(b, beta, rank, axis)], outputs=[node.outputs[0]],
           name=node.name)


@register("InstanceNorm")
def instance_norm(b, node):
    b.node("InstanceNormalization", node.inputs[:3], outputs=[node.outputs[0]], name=node.name,
           epsilon=node.float("eps", 1e-3))


@register("L2Normalization")
def l2_normalization(b, node):
    rank = node.rank
    mode = node.str("mode", "instance")
    axes = {"instance": list(range(1, rank)), "channel": [1], "spatial": list(range(2, rank))}
    if mode not in axes:
        raise node.error("mode=%s is not one of instance, channel, spatial" % mode)
    x = node.inputs[0]
    ss = b.reduce("ReduceSumSquare", x, axes[mode], keepdims=True)
    norm = b.node("Sqrt", [b.node("Add", [ss, b.const(node.float("eps", 1e-10), node.in_dtypes[0])])])
    b.node("Div", [x, norm], outputs=[node.outputs[0]], name=node.name)


@register("LRN")
def lrn(b, node):
    b.node("LRN", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name,
           alpha=node.float("alpha", 1e-4), beta=node.float("beta", 0.75), bias=node.float("knorm", 2.0),
           size=node.int("nsize"))


@register("GroupNorm")
def group_norm(b, node):
    """Mean/variance over each sample's channel groups (and spatial dims), then
    the per-channel scale and shift."""
    x, gamma, beta = node.inputs[:3]
    groups, rank = node.int("num_groups", 1), node.rank
    eps = node.float("eps", 1e-5)
    dt = node.in_dtypes[0]
    grouped = b.reshape(x, [0, groups, -1])
    mean = b.reduce("ReduceMean", grouped, [2], keepdims=True)
    d = b.node("Sub", [grouped, mean])
    var = b.reduce("ReduceMean", b.node("Mul", [d, d]), [2], keepdims=True)
    normed = b.node("Div", [d, b.node("Sqrt", [b.node("Add", [var, b.const(eps, dt)])])])
    if node.in_shapes[1][0] == groups and groups != node.in_shapes[0][1]:
        # gamma/beta per group (MXNet 1.x's GroupNorm): applied before the reshape back.
        normed = b.node("Add", [b.node("Mul", [normed, b.reshape(gamma, [1, -1, 1])]),
                                b.reshape(beta, [1, -1, 1])])
        b.node("Reshape", [normed, b.shape(x)], outputs=[node.outputs[0]], name=node.name)
        return
    y = b.node("Reshape", [normed, b.shape(x)])
    shape = [1, -1] + [1] * (rank - 2)
    b.node("Add", [b.node("Mul", [y, b.reshape(gamma, shape)]), b.reshape(beta, shape)],
           outputs=[node.outputs[0]], name=node.name)
