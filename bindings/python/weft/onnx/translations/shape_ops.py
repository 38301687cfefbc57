"""Reshape (with MXNet's special codes), Flatten, Concat, stack, split,
transpose, slicing, expand_dims/squeeze, tile, flip and broadcasting."""
from ..graph_builder import INT64_MAX, INT64_MIN
from ..registry import register

__all__ = []


def _reshape_pieces(b, node, x, codes, rank, reverse):
    """Note [Reshape codes]: MXNet's Reshape reads 0 (copy the input dim), -1
    (infer), -2 (copy all remaining dims), -3 (merge two dims) and -4 (split one
    dim into the next two codes, one of which may be -1); with reverse=True it
    reads codes and dims from the right. The target shape is built at run time
    from Shape(x) pieces so a dynamic batch stays dynamic. Returns the pieces
    (1-d int64 tensor names) in reading order; with ``reverse`` the codes are
    already reversed and the caller reverses the pieces."""
    def dim(j):
        j = rank - 1 - j if reverse else j
        return b.shape(x, j, j + 1)

    pieces, i, k = [], 0, 0
    while k < len(codes):
        c = codes[k]
        if c > 0 or c == -1:
            pieces.append(b.int64s([c]))
            i += 1
        elif c == 0:
            pieces.append(dim(i))
            i += 1
        elif c == -2:
            pieces.append(b.shape(x, 0, rank - i) if reverse else b.shape(x, i, rank))
            i = rank
        elif c == -3:
            pieces.append(b.node("Mul", [dim(i), dim(i + 1)]))
            i += 2
        elif c == -4:
            if k + 2 >= len(codes):
                raise node.error("shape=%s: -4 must be followed by two dims" % (codes,))
            d1, d2 = codes[k + 1], codes[k + 2]
            if d1 == -1:
                pieces += [b.node("Div", [dim(i), b.int64s([d2])]), b.int64s([d2])]
            elif d2 == -1:
                pieces += [b.int64s([d1]), b.node("Div", [dim(i), b.int64s([d1])])]
            else:
                pieces += [b.int64s([d1]), b.int64s([d2])]
            i += 1
            k += 2
        else:
            raise node.error("shape=%s holds the unknown code %d" % (codes, c))
        k += 1
    return pieces


@register("Reshape", "reshape")
def reshape(b, node):
    codes = list(node.tuple("shape", ()))
    x, rank = node.inputs[0], node.rank
    if not codes:
        raise node.error("the legacy target_shape form is not supported; give shape")
    if not node.bool("reverse") and all(c > 0 or c in (0, -1) for c in codes):
        # ONNX Reshape reads 0 and -1 as MXNet does when no other code precedes them.
        b.node("Reshape", [x, b.int64s(codes, "shape")], outputs=[node.outputs[0]], name=node.name)
        return
    if node.bool("reverse"):
        pieces = _reshape_pieces(b, node, x, _reverse_codes(codes), rank, True)[::-1]
    else:
        pieces = _reshape_pieces(b, node, x, codes, rank, False)
    shape = pieces[0] if len(pieces) == 1 else b.node("Concat", pieces, axis=0)
    b.node("Reshape", [x, shape], outputs=[node.outputs[0]], name=node.name)


def _reverse_codes(codes):
    """The codes read from the right; a -4 group (-4, a, b) becomes (-4, b, a)."""
    groups, k = [], 0
    while k < len(codes):
        if codes[k] == -4:
            groups.append([-4, codes[k + 2], codes[k + 1]])
            k += 3
        else:
            groups.append([codes[k]])
            k += 1
    return [c for g in groups[::-1] for c in g]


@register("Flatten", "flatten")
def flatten(b, node):
    b.node("Flatten", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name, axis=1)


@register("Concat", "concat", "_rnn_param_concat")
def concat(b, node):
    b.node("Concat", node.inputs, outputs=[node.outputs[0]], name=node.name, axis=node.int("dim", 1))


@register("stack")
def stack(b, node):
    axis = node.int("axis", 0)
    parts = [b.unsqueeze(x, [axis]) for x in node.inputs]
    b.node("Concat", parts, outputs=[node.outputs[0]], name=node.name, axis=axis)


@register("SliceChannel", "split")
def split(b, node):
    n = node.int("num_outputs")
    axis = node.int("axis", 1) % node.rank
    size = node.in_shapes[0][axis]
    if size % n:
        raise node.error("axis %d of size %d does not split into %d equal parts" % (axis, size, n))
    outs = b.split(node.inputs[0], axis, [size // n] * n)
    for out, target in zip(outs, node.outputs):
        if node.bool("squeeze_axis"):
            b.node("Squeeze", [out] + ([b.int64s([axis])] if b.opset >= 13 else []),
                   outputs=[target], **({} if b.opset >= 13 else {"axes": [axis]}))
        else:
            b.node("Identity", [out], outputs=[target])


@register("transpose")
def transpose(b, node):
    axes = node.tuple("axes", ())
    perm = list(axes) if axes else list(range(node.rank))[::-1]
    b.node("Transpose", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name,
           perm=[a % node.rank for a in perm])


@register("SwapAxis", "swapaxes")
def swapaxes(b, node):
    rank = node.rank
    d1, d2 = node.int("dim1", 0) % rank, node.int("dim2", 0) % rank
    perm = list(range(rank))
    perm[d1], perm[d2] = perm[d2], perm[d1]
    b.node("Transpose", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name, perm=perm)


@register("slice", "crop")
def slice_(b, node):
    begin, end = node.tuple("begin"), node.tuple("end")
    step = node.tuple("step", ()) or (None,) * len(begin)
    starts, ends, axes, steps = [], [], [], []
    for axis, (s, e, st) in enumerate(zip(begin, end, step)):
        st = 1 if st is None else st
        if st == 0:
            raise node.error("step 0 on axis %d" % axis)
        starts.append((0 if st > 0 else -1) if s is None else s)
        ends.append((INT64_MAX if st > 0 else INT64_MIN) if e is None else e)
        axes.append(axis)
        steps.append(st)
    b.node("Slice", [node.inputs[0], b.int64s(starts), b.int64s(ends), b.int64s(axes), b.int64s(steps)],
           outputs=[node.outputs[0]], name=node.name)


@register("slice_axis")
def slice_axis(b, node):
    end = node.int("end")
    b.node("Slice", [node.inputs[0], b.int64s([node.int("begin", 0)]),
                     b.int64s([INT64_MAX if end is None else end]), b.int64s([node.int("axis")])],
           outputs=[node.outputs[0]], name=node.name)


@register("slice_like")
def slice_like(b, node):
    """The leading part of data with shape_like's sizes along ``axes`` (all when empty)."""
    rank = node.rank
    axes = [a % rank for a in (node.tuple("axes", ()) or range(rank))]
    ends = b.node("Gather", [b.shape(node.inputs[1]), b.int64s(axes, "axes")], axis=0)
    b.node("Slice", [node.inputs[0], b.int64s([0] * len(axes), "starts"), ends, b.int64s(axes, "axes")],
           outputs=[node.outputs[0]], name=node.name)


@register("expand_dims")
def expand_dims(b, node):
    out = b.unsqueeze(node.inputs[0], [node.int("axis")])
    b.node("Identity", [out], outputs=[node.outputs[0]], name=node.name)


@register("squeeze")
def squeeze(b, node):
    axes = node.tuple("axis")
    out = b.squeeze(node.inputs[0], None if axes is None else list(axes))
    b.node("Identity", [out], outputs=[node.outputs[0]], name=node.name)


@register("tile")
def tile(b, node):
    reps, x, rank = list(node.tuple("reps")), node.inputs[0], node.rank
    if len(reps) > rank:
        x = b.unsqueeze(x, list(range(len(reps) - rank)))
    reps = [1] * (rank - len(reps)) + reps
    b.node("Tile", [x, b.int64s(reps)], outputs=[node.outputs[0]], name=node.name)


@register("reverse", "flip")
def flip(b, node):
    axes = [a % node.rank for a in node.tuple("axis")]
    b.node("Slice", [node.inputs[0], b.int64s([-1] * len(axes)), b.int64s([INT64_MIN] * len(axes)),
                     b.int64s(axes), b.int64s([-1] * len(axes))],
           outputs=[node.outputs[0]], name=node.name)


@register("broadcast_to")
def broadcast_to(b, node):
    # MXNet's 0 keeps the input dim; Expand's 1 does (numpy broadcasting).
    shape = [1 if d == 0 else d for d in node.tuple("shape")]
    b.node("Expand", [node.inputs[0], b.int64s(shape)], outputs=[node.outputs[0]], name=node.name)


@register("broadcast_axis", "broadcast_axes")
def broadcast_axis(b, node):
    shape = [1] * node.rank
    for a, s in zip(node.tuple("axis", ()), node.tuple("size", ())):
        shape[a % node.rank] = s
    b.node("Expand", [node.inputs[0], b.int64s(shape)], outputs=[node.outputs[0]], name=node.name)


@register("broadcast_like")
def broadcast_like(b, node):
    if node.has("lhs_axes") or node.has("rhs_axes"):
        raise node.error("lhs_axes/rhs_axes are not supported")
    b.node("Expand", [node.inputs[0], b.shape(node.inputs[1])], outputs=[node.outputs[0]],
           name=node.name)


@register("shape_array")
def shape_array(b, node):
    b.node("Shape", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name)


@register("size_array")
def size_array(b, node):
    b.node("Reshape", [b.node("Size", [node.inputs[0]]), b.int64s([1])], outputs=[node.outputs[0]],
           name=node.name)


@register("repeat")
def repeat(b, node):
    r, axis, x = node.int("repeats"), node.int("axis"), node.inputs[0]
    if axis is None:
        x = b.reshape(x, [-1])
        axis, rank = 0, 1
    else:
        rank = node.rank
        axis %= rank
    reps = [1] * (rank + 1)
    reps[axis + 1] = r
    tiled = b.node("Tile", [b.unsqueeze(x, [axis + 1]), b.int64s(reps)])
    parts = []
    if axis > 0:
        parts.append(b.shape(x, 0, axis))
    parts.append(b.node("Mul", [b.shape(x, axis, axis + 1), b.int64s([r])]))
    if axis + 1 < rank:
        parts.append(b.shape(x, axis + 1, rank))
    shape = parts[0] if len(parts) == 1 else b.node("Concat", parts, axis=0)
    b.node("Reshape", [tiled, shape], outputs=[node.outputs[0]], name=node.name)


@register("reshape_like")
def reshape_like(b, node):
    if any(node.has(k) for k in ("lhs_begin", "lhs_end", "rhs_begin", "rhs_end")):
        raise node.error("lhs_begin/lhs_end/rhs_begin/rhs_end are not supported")
    b.node("Reshape", [node.inputs[0], b.shape(node.inputs[1])], outputs=[node.outputs[0]], name=node.name)


@register("Pad", "pad")
def pad(b, node):
    """MXNet's pad_width is (before, after) per axis; ONNX's pads all befores, then all afters."""
    width = list(node.tuple("pad_width"))
    mode = node.str("mode", "constant")
    if mode not in ("constant", "edge", "reflect"):
        raise node.error("mode=%s is not one of constant, edge, reflect" % mode)
    pads = width[0::2] + width[1::2]
    ins = [node.inputs[0], b.int64s(pads)]
    if mode == "constant":
        ins.append(b.const(node.float("constant_value", 0.0), node.in_dtypes[0]))
    b.node("Pad", ins, outputs=[node.outputs[0]], name=node.name, mode=mode)


@register("depth_to_space")
def depth_to_space(b, node):
    b.node("DepthToSpace", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name,
           blocksize=node.int("block_size"), mode="DCR")


@register("space_to_depth")
def space_to_depth(b, node):
    b.node("SpaceToDepth", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name,
           blocksize=node.int("block_size"))


@register("Crop")
def crop(b, node):
    if node.bool("center_crop"):
        raise node.error("center_crop=True is not supported")
    y, x = node.tuple("offset", (0, 0))
    starts = b.int64s([y, x])
    if len(node.inputs) == 1:
        h, w = node.tuple("h_w")
        ends = b.int64s([y + h, x + w])
    else:
        ends = b.node("Add", [starts, b.shape(node.inputs[1], 2, 4)])
    b.node("Slice", [node.inputs[0], starts, ends, b.int64s([2, 3])], outputs=[node.outputs[0]],
           name=node.name)
