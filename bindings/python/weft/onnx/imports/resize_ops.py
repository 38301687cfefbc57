"""Import of ONNX's Resize and Upsample: nearest by integer factors (Weft's
UpSampling, or repeat per axis) and bilinear (Weft's BilinearResize2D).

Note [Resize coordinate modes]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
ONNX maps output pixel x to input position x_in by coordinate_transformation_mode
and, for nearest, rounds x_in by nearest_mode. By an integer factor s, nearest
is a repetition exactly when every x_in rounds to floor(x / s): with
half_pixel ((x + 0.5) / s - 0.5, never a half) under either round mode, and
with asymmetric (x / s) under floor or round_prefer_floor. Weft's bilinear
resize reads max((x + 0.5) * H / OH - 0.5, 0) (align_corners=False) or
x * (H - 1) / (OH - 1) (align_corners=True): ONNX's half_pixel and
pytorch_half_pixel when the output size is the scale times the input's, and
align_corners. Other combinations are refused, naming them.
"""
import numpy as np

from ... import symbol as S
from ..import_registry import register_import
from .args import const_input

__all__ = []

_REPEATS = {("half_pixel", "round_prefer_floor"), ("half_pixel", "round_prefer_ceil"),
            ("pytorch_half_pixel", "round_prefer_floor"), ("pytorch_half_pixel", "round_prefer_ceil"),
            ("asymmetric", "floor"), ("asymmetric", "round_prefer_floor")}


def _out_size(ctx, node, scales, sizes):
    """(in H, W), (out H, W) of a 4-D resize, and whether the scales are exact."""
    shape = ctx.shape_of(node.input[0])
    if len(shape) != 4 or None in shape[2:]:
        raise ctx.error(node, "only 4-D inputs of static height and width are supported")
    h, w = shape[2:]
    if sizes is not None:
        sizes = [int(v) for v in sizes]
        if any(d is not None and d != s for d, s in zip(shape[:2], sizes[:2])):
            raise ctx.error(node, "resizing the batch or channel axis is not supported")
        return (h, w), tuple(sizes[2:]), True
    scales = [float(v) for v in scales]
    if scales[:2] != [1.0, 1.0]:
        raise ctx.error(node, "resizing the batch or channel axis is not supported")
    out = (int(np.floor(h * scales[2])), int(np.floor(w * scales[3])))
    return (h, w), out, out[0] == h * scales[2] and out[1] == w * scales[3]


def _nearest(ctx, node, x, ins, outs, ctm, nearest_mode):
    if (ctm, nearest_mode) not in _REPEATS:
        raise ctx.error(node, "nearest with coordinate_transformation_mode=%s, nearest_mode=%s is not "
                              "supported (Note [Resize coordinate modes])" % (ctm, nearest_mode))
    if outs[0] % ins[0] or outs[1] % ins[1]:
        raise ctx.error(node, "nearest resizing %s to %s is not by integer factors" % (ins, outs))
    fh, fw = outs[0] // ins[0], outs[1] // ins[1]
    if fh == fw:
        return S.UpSampling(x, scale=fh, sample_type="nearest", num_args=1, name=ctx.name(node))
    return S.repeat(S.repeat(x, repeats=fh, axis=2), repeats=fw, axis=3, name=ctx.name(node))


def _resize(ctx, node, x, scales, sizes, mode, ctm, nearest_mode):
    if scales is None and sizes is None:
        raise ctx.error(node, "computed scales and sizes are not supported")
    if (scales is not None and len(scales) != 4) or (sizes is not None and len(sizes) != 4):
        raise ctx.error(node, "only 4-D resizing is supported")
    ins, outs, exact = _out_size(ctx, node, scales, sizes)
    if mode == "nearest":
        return _nearest(ctx, node, x, ins, outs, ctm, nearest_mode)
    if mode != "linear":
        raise ctx.error(node, "mode=%s is not supported" % mode)
    if ctm == "align_corners":
        align = True
    elif ctm in ("half_pixel", "pytorch_half_pixel") and exact and min(outs) > 1:
        align = False
    else:
        raise ctx.error(node, "linear with coordinate_transformation_mode=%s from %s to %s is not supported "
                              "(Note [Resize coordinate modes])" % (ctm, ins, outs))
    return S.contrib.BilinearResize2D(x, height=outs[0], width=outs[1], align_corners=align, name=ctx.name(node))


@register_import("Resize")
def resize(ctx, node):
    if ctx.attr(node, "antialias", 0) or ctx.attr(node, "axes") is not None or \
            ctx.attr(node, "keep_aspect_ratio_policy", "stretch") != "stretch":
        raise ctx.error(node, "antialias, axes and keep_aspect_ratio_policy are not supported")
    if ctx.opset < 11:
        scales, sizes = const_input(ctx, node, 1, "scales"), None
    else:
        scales = const_input(ctx, node, 2, "scales")
        sizes = const_input(ctx, node, 3, "sizes")
        if scales is not None and np.size(scales) == 0:
            scales = None
    default_ctm = "half_pixel" if ctx.opset >= 11 else "asymmetric"
    return _resize(ctx, node, ctx.symbol(node.input[0]), scales, sizes, ctx.attr(node, "mode", "nearest"),
                   ctx.attr(node, "coordinate_transformation_mode", default_ctm),
                   ctx.attr(node, "nearest_mode", "round_prefer_floor" if ctx.opset >= 11 else "floor"))


@register_import("Upsample")
def upsample(ctx, node):
    # Upsample (opsets 7-9) computes positions as x / scale (asymmetric), nearest rounding down.
    scales = ctx.attr(node, "scales") if ctx.opset < 9 else const_input(ctx, node, 1, "scales")
    mode = ctx.attr(node, "mode", "nearest")
    return _resize(ctx, node, ctx.symbol(node.input[0]), scales, None, mode, "asymmetric", "floor")
