"""Import of ONNX's tensor operators: element-wise math, shape manipulation,
MatMul, Gather, Cast, Clip, Pad, Split, Slice."""
import numpy as np

from ... import symbol as S
from .._deps import helper
from ..dim_values import reshape_target
from ..import_registry import register_import
from .args import axes_arg
from .broadcast import same_rank

__all__ = []

_BINARY = {"Add": S.broadcast_add, "Sub": S.broadcast_sub, "Mul": S.broadcast_mul, "Div": S.broadcast_div,
           "Pow": S.broadcast_power}
_UNARY = {"Exp": S.exp, "Log": S.log, "Sqrt": S.sqrt, "Abs": S.abs, "Neg": S.negative,
          "Reciprocal": S.reciprocal, "Floor": S.floor, "Ceil": S.ceil, "Sin": S.sin, "Cos": S.cos,
          "Tan": S.tan, "Asin": S.arcsin, "Acos": S.arccos, "Atan": S.arctan, "Sinh": S.sinh,
          "Cosh": S.cosh, "Asinh": S.arcsinh, "Acosh": S.arccosh, "Atanh": S.arctanh, "Erf": S.erf,
          "Sign": S.sign}


def _binary(fn):
    def translate(ctx, node):
        a, b = same_rank(ctx, node.input[:2])
        return fn(a, b, name=ctx.name(node))
    return translate


def _unary(fn):
    def translate(ctx, node):
        return fn(ctx.inputs(node)[0], name=ctx.name(node))
    return translate


for _op, _fn in _BINARY.items():
    register_import(_op)(_binary(_fn))
for _op, _fn in _UNARY.items():
    register_import(_op)(_unary(_fn))


@register_import("MatMul")
def matmul(ctx, node):
    a, b = ctx.inputs(node)
    ra, rb = (len(ctx.shape_of(n)) for n in node.input)
    if rb == 2:
        # MXNet's dot contracts a's last axis with b's first: MatMul for a 2-D b.
        return S.dot(a, b, name=ctx.name(node))
    if ra == rb == 3:
        return S.batch_dot(a, b, name=ctx.name(node))
    raise ctx.error(node, "MatMul of ranks %d and %d is not supported" % (ra, rb))


@register_import("Concat")
def concat(ctx, node):
    ins = ctx.inputs(node)
    axis = ctx.attr(node, "axis") % len(ctx.shape_of(node.input[0]))
    return S.Concat(*ins, dim=axis, num_args=len(ins), name=ctx.name(node))


@register_import("Flatten")
def flatten(ctx, node):
    axis = ctx.attr(node, "axis", 1)
    rank = len(ctx.shape_of(node.input[0]))
    x = ctx.inputs(node)[0]
    if axis % max(rank, 1) == 1 or (rank == 2 and axis == 1):
        return S.Flatten(x, name=ctx.name(node))
    if axis == 0:
        return S.Reshape(x, shape=(1, -1), name=ctx.name(node))
    # (dims before axis merged, the rest merged); the leading size is static.
    lead = int(np.prod(ctx.shape_of(node.input[0])[:axis % rank]))
    return S.Reshape(x, shape=(lead, -1), name=ctx.name(node))


@register_import("Reshape")
def reshape(ctx, node):
    shape = ctx.const_value(node.input[1])
    if shape is None:
        shape = reshape_target(ctx, node.input[0], node.input[1])
    if shape is None:
        raise ctx.error(node, "a target shape computed at run time is not supported "
                              "(beyond the dims of tensors: Note [Dynamic dims on import])")
    if ctx.attr(node, "allowzero", 0) and 0 in shape:
        raise ctx.error(node, "allowzero=1 with a 0 in the shape is not supported")
    # ONNX's 0 (copy) and -1 (infer) are MXNet's.
    return S.Reshape(ctx.inputs(node)[0], shape=tuple(int(d) for d in shape), name=ctx.name(node))


@register_import("Transpose")
def transpose(ctx, node):
    perm = ctx.attr(node, "perm")
    return S.transpose(ctx.inputs(node)[0], axes=tuple(perm) if perm else (), name=ctx.name(node))


@register_import("Squeeze")
def squeeze(ctx, node):
    axes = axes_arg(ctx, node, 13)
    return S.squeeze(ctx.inputs(node)[0], axis=tuple(axes) if axes else None, name=ctx.name(node))


@register_import("Unsqueeze")
def unsqueeze(ctx, node):
    axes = sorted(a % (len(ctx.shape_of(node.input[0])) + len(axes_arg(ctx, node, 13)))
                  for a in axes_arg(ctx, node, 13))
    x = ctx.inputs(node)[0]
    for a in axes:
        x = S.expand_dims(x, axis=a)
    return x


@register_import("Cast")
def cast(ctx, node):
    dtype = helper.tensor_dtype_to_np_dtype(ctx.attr(node, "to"))
    return S.Cast(ctx.inputs(node)[0], dtype=np.dtype(dtype).name, name=ctx.name(node))


@register_import("Clip")
def clip(ctx, node):
    if ctx.opset < 11:
        lo, hi = ctx.attr(node, "min", -np.inf), ctx.attr(node, "max", np.inf)
    else:
        lo = ctx.const_value(node.input[1]) if len(node.input) > 1 and node.input[1] else -np.inf
        hi = ctx.const_value(node.input[2]) if len(node.input) > 2 and node.input[2] else np.inf
        if lo is None or hi is None:
            raise ctx.error(node, "computed bounds are not supported")
    finite = np.finfo(np.float32).max
    return S.clip(ctx.inputs(node)[0], a_min=float(max(lo, -finite)), a_max=float(min(hi, finite)),
                  name=ctx.name(node))


@register_import("Gather")
def gather(ctx, node):
    axis = ctx.attr(node, "axis", 0)
    data, idx = ctx.inputs(node)
    # take's default mode 'clip' differs from ONNX only for out-of-range indices,
    # which ONNX rejects; negative indices count from the end in ONNX.
    size = ctx.shape_of(node.input[0])[axis]
    idx_v = ctx.const_value(node.input[1])
    if idx_v is not None and np.ndim(idx_v) == 0:
        return S.squeeze(S.slice_axis(data, axis=axis, begin=int(idx_v) % size, end=int(idx_v) % size + 1),
                         axis=axis, name=ctx.name(node))
    return S.take(data, idx, axis=axis, mode="wrap", name=ctx.name(node))


@register_import("Pad")
def pad(ctx, node):
    mode = ctx.attr(node, "mode", "constant")
    pads = ctx.const_value(node.input[1]) if ctx.opset >= 11 else ctx.attr(node, "pads")
    if pads is None:
        raise ctx.error(node, "computed pads are not supported")
    n = len(pads) // 2
    width = tuple(int(v) for pair in zip(pads[:n], pads[n:]) for v in pair)
    value = 0.0
    if len(node.input) > 2 and node.input[2]:
        value = float(ctx.const_value(node.input[2]))
    return S.Pad(ctx.inputs(node)[0], mode=mode, pad_width=width, constant_value=value, name=ctx.name(node))


@register_import("Split")
def split(ctx, node):
    axis = ctx.attr(node, "axis", 0)
    n = len(node.output)
    return list(S.SliceChannel(ctx.inputs(node)[0], num_outputs=n, axis=axis, name=ctx.name(node)))


@register_import("Slice")
def slice_(ctx, node):
    vals = [ctx.const_value(n) if n else None for n in list(node.input[1:]) + [""] * (5 - len(node.input))]
    starts, ends, axes, steps = vals[:4]
    if starts is None or ends is None:
        raise ctx.error(node, "computed starts/ends are not supported")
    rank = len(ctx.shape_of(node.input[0]))
    axes = list(range(len(starts))) if axes is None else [int(a) % rank for a in axes]
    steps = [1] * len(starts) if steps is None else steps
    x = ctx.inputs(node)[0]
    shape = ctx.shape_of(node.input[0])
    for a, s, e, st in zip(axes, starts, ends, steps):
        if st != 1:
            raise ctx.error(node, "steps other than 1 are not supported")
        dim = shape[a]
        if dim is None:
            raise ctx.error(node, "slicing a dynamic axis is not supported")
        # ONNX clamps starts and ends to the axis; MXNet's slice_axis rejects them.
        s, e = (int(np.clip(v if v >= 0 else v + dim, 0, dim)) for v in (s, e))
        x = S.slice_axis(x, axis=a, begin=s, end=e)
    return x
