"""Import of ONNX's array builders and rearrangements: Shape, Size, Tile,
Expand, ConstantOfShape, Range, OneHot, GatherND, ScatterND, DepthToSpace,
SpaceToDepth and the Random* generators.

Operators whose inputs are all constants (ConstantOfShape of a fixed shape,
Range of fixed bounds, ...) are usually computed at import time (Note
[Constant folding on import] in importer.py); these translations run when an
operand is computed, or the output is too large to fold."""
import numpy as np

from ... import symbol as S
from .._deps import helper, numpy_helper
from ..import_registry import register_import
from .args import const_input

__all__ = []


def _static(ctx, node, tensor, what):
    shape = ctx.shape_of(tensor)
    if any(d is None for d in shape):
        raise ctx.error(node, "a dynamic %s is not supported" % what)
    return tuple(shape)


@register_import("Shape")
def shape(ctx, node):
    y = S.shape_array(ctx.inputs(node)[0])
    start, end = ctx.attr(node, "start", 0), ctx.attr(node, "end")
    if start != 0 or end is not None:
        rank = len(ctx.shape_of(node.input[0]))
        begin = max(0, start + rank if start < 0 else start)
        stop = rank if end is None else max(0, min(rank, end + rank if end < 0 else end))
        y = S.slice_axis(y, axis=0, begin=min(begin, stop), end=stop)
    return S.identity(y, name=ctx.name(node))


@register_import("Size")
def size(ctx, node):
    # ONNX's Size is a scalar; size_array is a 1-element vector (Note [Scalars on import]).
    return S.size_array(ctx.inputs(node)[0], name=ctx.name(node))


@register_import("Tile")
def tile(ctx, node):
    reps = const_input(ctx, node, 1, "repeats")
    return S.tile(ctx.inputs(node)[0], reps=tuple(int(r) for r in reps), name=ctx.name(node))


@register_import("Expand")
def expand(ctx, node):
    target = const_input(ctx, node, 1, "shape")
    in_shape = _static(ctx, node, node.input[0], "input shape")
    out = tuple(int(d) for d in np.broadcast_shapes(in_shape, tuple(int(d) for d in target)))
    x = ctx.inputs(node)[0]
    for _ in range(len(out) - len(in_shape)):
        x = S.expand_dims(x, axis=0)
    return S.broadcast_to(x, shape=out, name=ctx.name(node))


@register_import("ConstantOfShape")
def constant_of_shape(ctx, node):
    dims = const_input(ctx, node, 0, "shape")
    value = ctx.attr(node, "value")
    value = np.zeros(1, np.float32) if value is None else numpy_helper.to_array(value).reshape(-1)
    return S.full(shape=tuple(int(d) for d in dims), val=float(value[0]), dtype=value.dtype.name,
                  name=ctx.name(node))


@register_import("Range")
def range_(ctx, node):
    start, limit, delta = (const_input(ctx, node, i, what) for i, what in enumerate(("start", "limit", "delta")))
    return S.arange(start=float(start), stop=float(limit), step=float(delta), dtype=np.asarray(start).dtype.name,
                    name=ctx.name(node))


def _move_last_to(y, rank, axis):
    """y with its last axis moved to position ``axis`` (of ``rank`` axes)."""
    if axis == rank - 1:
        return y
    perm = list(range(rank - 1))
    perm.insert(axis, rank - 1)
    return S.transpose(y, axes=tuple(perm))


@register_import("OneHot")
def one_hot(ctx, node):
    depth = int(np.asarray(const_input(ctx, node, 1, "depth")).reshape(-1)[0])
    values = const_input(ctx, node, 2, "values")
    rank = len(ctx.shape_of(node.input[0])) + 1
    axis = ctx.attr(node, "axis", -1) % rank
    # ONNX counts negative indices from the end of the depth.
    idx = ctx.inputs(node)[0] % depth
    hot = S.one_hot(idx, depth=depth, off_value=float(values[0]), on_value=float(values[1]),
                    dtype=values.dtype.name)
    return S.identity(_move_last_to(hot, rank, axis), name=ctx.name(node))


def _mx_indices(ctx, node, tensor):
    """ONNX index tuples run along the last axis; MXNet's along the first."""
    rank = len(ctx.shape_of(tensor))
    return S.transpose(ctx.symbol(tensor), axes=(rank - 1,) + tuple(range(rank - 1)))


@register_import("GatherND")
def gather_nd(ctx, node):
    if ctx.attr(node, "batch_dims", 0):
        raise ctx.error(node, "batch_dims other than 0 are not supported")
    return S.gather_nd(ctx.symbol(node.input[0]), _mx_indices(ctx, node, node.input[1]), name=ctx.name(node))


@register_import("ScatterND")
def scatter_nd(ctx, node):
    if ctx.attr(node, "reduction", "none") != "none":
        raise ctx.error(node, "reduction=%s is not supported" % ctx.attr(node, "reduction"))
    return S._scatter_set_nd(ctx.symbol(node.input[0]), ctx.symbol(node.input[2]),
                             _mx_indices(ctx, node, node.input[1]), name=ctx.name(node))


@register_import("DepthToSpace")
def depth_to_space(ctx, node):
    b = ctx.attr(node, "blocksize")
    x = ctx.inputs(node)[0]
    if ctx.attr(node, "mode", "DCR") == "DCR":  # MXNet's order
        return S.depth_to_space(x, block_size=b, name=ctx.name(node))
    n, c, h, w = _static(ctx, node, node.input[0], "input shape")
    y = S.transpose(S.Reshape(x, shape=(n, c // (b * b), b, b, h, w)), axes=(0, 1, 4, 2, 5, 3))
    return S.Reshape(y, shape=(n, c // (b * b), h * b, w * b), name=ctx.name(node))


@register_import("SpaceToDepth")
def space_to_depth(ctx, node):
    return S.space_to_depth(ctx.inputs(node)[0], block_size=ctx.attr(node, "blocksize"), name=ctx.name(node))


def _dtype_attr(ctx, node, default):
    from_attr = ctx.attr(node, "dtype")
    if from_attr is None:
        return default
    return np.dtype(helper.tensor_dtype_to_np_dtype(from_attr)).name


@register_import("RandomUniform", "RandomNormal")
def random(ctx, node):
    # The seed attribute is not followed: Weft's generators draw from its
    # global seed (weft.random.seed), as MXNet's importer does.
    dims = tuple(int(d) for d in ctx.attr(node, "shape"))
    dtype = _dtype_attr(ctx, node, "float32")
    if node.op_type == "RandomUniform":
        return S.random.uniform(low=ctx.attr(node, "low", 0.0), high=ctx.attr(node, "high", 1.0), shape=dims,
                                dtype=dtype, name=ctx.name(node))
    return S.random.normal(loc=ctx.attr(node, "mean", 0.0), scale=ctx.attr(node, "scale", 1.0), shape=dims,
                           dtype=dtype, name=ctx.name(node))


@register_import("RandomUniformLike", "RandomNormalLike")
def random_like(ctx, node):
    x = ctx.inputs(node)[0]
    dtype = _dtype_attr(ctx, node, None)
    if dtype is not None:
        x = S.Cast(x, dtype=dtype)
    if node.op_type == "RandomUniformLike":
        return S.random.uniform_like(x, low=ctx.attr(node, "low", 0.0), high=ctx.attr(node, "high", 1.0),
                                     name=ctx.name(node))
    return S.random.normal_like(x, loc=ctx.attr(node, "mean", 0.0), scale=ctx.attr(node, "scale", 1.0),
                                name=ctx.name(node))
