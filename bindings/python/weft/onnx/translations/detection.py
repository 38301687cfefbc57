"""Region operators of detection graphs: ROIAlign, ROIPooling, MultiBoxPrior,
and adaptive pooling."""
import numpy as np

from ... import ndarray as nd
from ..registry import register

__all__ = []


@register("_contrib_ROIAlign")
def roi_align(b, node):
    """rois are (R, 5) rows [batch index, x1, y1, x2, y2]; ONNX takes the index
    apart (int64). MXNet's aligned=False is ONNX's 'output_half_pixel' (the only
    mode before opset 16); aligned=True is 'half_pixel', from opset 16."""
    if node.bool("position_sensitive"):
        raise node.error("position_sensitive=True is not supported")
    aligned = node.bool("aligned")
    attrs = {}
    if b.opset >= 16:
        attrs["coordinate_transformation_mode"] = "half_pixel" if aligned else "output_half_pixel"
    elif aligned:
        raise node.error("aligned=True needs opset 16 or newer (asked for %d)" % b.opset)
    ph, pw = node.tuple("pooled_size")
    ratio = node.int("sample_ratio", -1)
    batch_idx, boxes = b.split(node.inputs[1], 1, [1, 4])
    batch_idx = b.cast(b.squeeze(batch_idx, [1]), np.int64)
    b.node("RoiAlign", [node.inputs[0], boxes, batch_idx], outputs=[node.outputs[0]], name=node.name,
           mode="avg", output_height=ph, output_width=pw, sampling_ratio=max(ratio, 0),
           spatial_scale=node.float("spatial_scale"), **attrs)


@register("ROIPooling")
def roi_pooling(b, node):
    b.node("MaxRoiPool", node.inputs[:2], outputs=[node.outputs[0]], name=node.name,
           pooled_shape=list(node.tuple("pooled_size")), spatial_scale=node.float("spatial_scale"))


@register("_contrib_AdaptiveAvgPooling2D")
def adaptive_avg_pool(b, node):
    size = node.tuple("output_size", ()) or (1,)
    oh, ow = (size[0], size[0]) if len(size) == 1 else size
    h, w = node.in_shapes[0][2:4]
    if (oh, ow) == (1, 1):
        b.node("GlobalAveragePool", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name)
        return
    if h % oh or w % ow:
        raise node.error("output_size %s does not divide the input's %dx%d; ONNX has no adaptive pooling"
                         % ((oh, ow), h, w))
    kernel = [h // oh, w // ow]
    b.node("AveragePool", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name,
           kernel_shape=kernel, strides=kernel)


@register("_contrib_MultiBoxPrior")
def multibox_prior(b, node):
    """The anchors depend on the feature map's height and width only, never on
    its values or batch: they are computed once by Weft's own operator for the
    traced size and stored as a constant. So the feature map's spatial size
    must be static."""
    if b.dynamic_spatial:
        raise node.error("its anchors are a constant for the traced feature-map size; export with "
                         "only the batch dimension dynamic")
    attrs = {k: node.attrs[k] for k in ("sizes", "ratios", "clip", "steps", "offsets") if k in node.attrs}
    anchors = nd.contrib.MultiBoxPrior(nd.zeros(node.in_shapes[0], dtype=node.in_dtypes[0]), **attrs)
    b.node("Identity", [b.const(anchors.asnumpy(), hint=node.name + "_anchors")], outputs=[node.outputs[0]],
           name=node.name)
