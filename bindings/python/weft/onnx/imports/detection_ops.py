"""Import of ONNX's region pooling: MaxRoiPool (MXNet's ROIPooling) and
RoiAlign (MXNet's contrib ROIAlign)."""
from ... import symbol as S
from ..import_registry import register_import

__all__ = []


@register_import("MaxRoiPool")
def max_roi_pool(ctx, node):
    # Both take rois as rows [batch_index, x1, y1, x2, y2].
    data, rois = ctx.inputs(node)
    return S.ROIPooling(data, rois, pooled_size=tuple(ctx.attr(node, "pooled_shape")),
                        spatial_scale=ctx.attr(node, "spatial_scale", 1.0), name=ctx.name(node))


@register_import("RoiAlign")
def roi_align(ctx, node):
    if ctx.attr(node, "mode", "avg") != "avg":
        raise ctx.error(node, "mode=%s is not supported (only avg)" % ctx.attr(node, "mode"))
    # Opset 16 made half-pixel coordinates the default; before it they were
    # 'output_half_pixel' (no half-pixel offset), MXNet's aligned=False.
    default = "half_pixel" if ctx.opset >= 16 else "output_half_pixel"
    aligned = ctx.attr(node, "coordinate_transformation_mode", default) == "half_pixel"
    data, rois, batch = ctx.inputs(node)
    # ONNX gives the batch index of each roi apart; MXNet reads it as the rois' first column.
    rows = S.Concat(S.expand_dims(S.Cast(batch, dtype="float32"), axis=1), rois, dim=1, num_args=2)
    ratio = ctx.attr(node, "sampling_ratio", 0)
    return S.contrib.ROIAlign(data, rows, pooled_size=(ctx.attr(node, "output_height", 1),
                                                      ctx.attr(node, "output_width", 1)),
                              spatial_scale=ctx.attr(node, "spatial_scale", 1.0),
                              sample_ratio=ratio if ratio > 0 else -1, aligned=aligned, name=ctx.name(node))
