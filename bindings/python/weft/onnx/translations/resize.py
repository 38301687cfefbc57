"""Spatial resizing: UpSampling (nearest) and BilinearResize2D."""
from ..registry import register

__all__ = []


def _resize(b, node, x, scales=None, sizes=None, **attrs):
    roi = ""  # optional from opset 13; opset 12 needs a (here unused) tensor
    if b.opset < 13:
        roi = b.const([], "float32", hint="roi")
    if scales is not None:
        scales = b.const(scales, "float32", hint="scales")
    else:
        scales = b.const([], "float32", hint="scales") if b.opset < 13 else ""
    ins = [x, roi, scales]
    if sizes is not None:
        ins.append(sizes)
    return b.node("Resize", ins, outputs=[node.outputs[0]], name=node.name, **attrs)


@register("UpSampling")
def upsampling(b, node):
    """Nearest upsampling by an integer scale repeats each pixel: ONNX's
    'asymmetric' coordinates with 'floor' rounding are exactly that."""
    if node.str("sample_type") != "nearest":
        raise node.error("sample_type=%s: only nearest is supported (bilinear UpSampling is a "
                         "Deconvolution with a fixed weight)" % node.str("sample_type"))
    if len(node.inputs) != 1:
        raise node.error("nearest UpSampling of %d inputs is not supported" % len(node.inputs))
    s = float(node.int("scale"))
    _resize(b, node, node.inputs[0], scales=[1.0, 1.0, s, s], mode="nearest",
            coordinate_transformation_mode="asymmetric", nearest_mode="floor")


@register("_contrib_BilinearResize2D", "BilinearResize2D")
def bilinear_resize(b, node):
    """align_corners=True (MXNet's default) maps corner pixels onto each other,
    ONNX's 'align_corners'; otherwise MXNet follows PyTorch's half-pixel rule."""
    mode = node.str("mode", "size")
    if mode != "size":
        raise node.error("mode=%s is not supported (only size)" % mode)
    ctm = "align_corners" if node.bool("align_corners", True) else "pytorch_half_pixel"
    h, w = node.out_shapes[0][2], node.out_shapes[0][3]
    sizes = b.node("Concat", [b.shape(node.inputs[0], 0, 2), b.int64s([h, w])], axis=0)
    _resize(b, node, node.inputs[0], sizes=sizes, mode="linear", coordinate_transformation_mode=ctm)
