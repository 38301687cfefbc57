"""Box operators of detection graphs: box_nms and MultiBoxDetection (ONNX
NonMaxSuppression) and box_decode.

Note [box_nms as NonMaxSuppression]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet's box_nms returns its input's shape: the kept boxes, whole rows, by
descending score, then rows of -1. ONNX's NonMaxSuppression returns the
(batch, class, box) indices it selects, by descending score per batch. As
MXNet 1.9.1's exporter does, the selected rows are gathered (GatherND) into
one list with a row of -1 appended; each batch's positions get the rank of
their selected box in that list, the others the rank of the -1 row, and a
TopK of the smallest ranks per batch puts them in order for a Gather.
Unlike MXNet 1.9.1's exporter, topk (NMS among the topk best-scoring boxes
only) is followed exactly, by a TopK on the scores first, and what ONNX
cannot express is refused, not exported differently: per-class suppression
(id_index with force_suppress=False) and background_id.

Note [MultiBoxDetection as NonMaxSuppression]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Each anchor has one class (its best non-background one), so suppression per
class is ONNX's NonMaxSuppression over scores (batch, classes, anchors) that
hold an anchor's score in its own class only (-1, under the score threshold,
elsewhere and for anchors under ``threshold``). Its selections mark the kept
anchors (ScatterND); every valid anchor's row is [id or -1, score, box], and
a TopK of the scores orders them. ONNX suppresses at IoU > nms_threshold,
Weft (as MXNet) at IoU >= nms_threshold: the two differ only for an overlap
exactly equal to the threshold. nms_topk below the anchor count is refused:
Weft keeps MXNet's order for the rows past the top k, which no sort gives.
"""
import numpy as np

from ..graph_builder import INT64_MAX
from ..registry import register

__all__ = []


@register("_contrib_box_nms", "_contrib_box_non_maximum_suppression")
def box_nms(b, node):
    if node.int("id_index", -1) >= 0 and not node.bool("force_suppress"):
        raise node.error("suppression per class (id_index >= 0, force_suppress=False) has no ONNX form")
    if node.int("background_id", -1) != -1 and node.int("id_index", -1) >= 0:
        raise node.error("background_id is not supported")
    in_fmt, out_fmt = node.str("in_format", "corner"), node.str("out_format", "corner")
    if in_fmt != out_fmt:
        raise node.error("in_format=%s with out_format=%s is not supported" % (in_fmt, out_fmt))
    shape = node.in_shapes[0]
    n, k = shape[-2], shape[-1]
    dt = node.in_dtypes[0]
    cs, si = node.int("coord_start", 2), node.int("score_index", 1)
    topk = node.int("topk", -1)
    data = b.node("Reshape", [node.inputs[0], b.int64s([-1, n, k], "shape")])  # (B, N, K)
    m = n
    if 0 < topk < n:
        # NMS among the topk best-scoring boxes only (Note [box_nms as NonMaxSuppression]).
        scores = b.squeeze(b.slice(data, [si], [si + 1], [2]), [2])
        _, order = b.node("TopK", [scores, b.int64s([topk], "k")], n_out=2, axis=1, largest=1, sorted=1)
        rows = b.node("Expand", [b.unsqueeze(order, [2]), b.node("Concat", [b.shape(order), b.int64s([k])],
                                                                      axis=0)])
        data = b.node("GatherElements", [data, rows], axis=1)
        m = topk
    boxes = b.slice(data, [cs], [cs + 4], [2])
    scores = b.transpose(b.slice(data, [si], [si + 1], [2]), [0, 2, 1])  # (B, 1, M)
    selected = b.node("NonMaxSuppression", [boxes, scores, b.int64s([INT64_MAX], "max_out"),
                                            b.const([node.float("overlap_thresh", 0.5)], np.float32),
                                            b.const([node.float("valid_thresh", 0.0)], np.float32)],
                      center_point_box=0 if in_fmt == "corner" else 1)
    pairs = b.slice(selected, [0], [3], [1], [2])                    # (S, 2): batch, box
    rows = b.node("GatherND", [data, pairs])                          # (S, K)
    rows = b.node("Concat", [rows, b.const(-np.ones((1, k)), dt)], axis=0)  # (S + 1, K)
    count = b.shape(selected, 0, 1)                                    # [S]
    ranks = b.node("Range", [b.const(0, np.int64), b.squeeze(count, [0]), b.const(1, np.int64)])
    base = b.node("Expand", [count, b.node("Concat", [b.shape(data, 0, 1), b.int64s([m])], axis=0)])
    # base: (B, M) filled with S, the rank of the -1 row
    placed = b.node("ScatterND", [base, pairs, ranks])
    ordered, _ = b.node("TopK", [placed, b.int64s([m], "k")], n_out=2, axis=1, largest=0, sorted=1)
    out = b.node("Gather", [rows, ordered], axis=0)                    # (B, M, K)
    if m < n:
        out = b.node("Pad", [out, b.int64s([0, 0, 0, 0, n - m, 0], "pads"), b.const(-1, dt)])
    b.node("Reshape", [out, b.shape(node.inputs[0])], outputs=[node.outputs[0]], name=node.name)


@register("_contrib_box_decode")
def box_decode(b, node):
    """[dx, dy, dw, dh] * std against anchors (corner or center format) to
    corner boxes: centre + d * anchor size, half size * exp(d * std)."""
    data, anchors = node.inputs[:2]
    dt = node.in_dtypes[0]
    std = b.const([node.float("std%d" % i, 1.0) for i in range(4)], dt)
    d = b.node("Mul", [data, std])
    dxy, dwh = b.slice(d, [0], [2], [-1]), b.slice(d, [2], [4], [-1])
    a_lo, a_hi = b.slice(anchors, [0], [2], [-1]), b.slice(anchors, [2], [4], [-1])
    if node.str("format", "center") == "corner":
        awh = b.node("Sub", [a_hi, a_lo])
        axy = b.node("Add", [a_lo, b.node("Mul", [awh, b.const(0.5, dt)])])
    else:
        axy, awh = a_lo, a_hi
    clip = node.float("clip", -1.0)
    if clip > 0:
        dwh = b.node("Min", [dwh, b.const(clip, dt)])
    cxy = b.node("Add", [b.node("Mul", [dxy, awh]), axy])
    half = b.node("Mul", [b.node("Mul", [b.node("Exp", [dwh]), awh]), b.const(0.5, dt)])
    b.node("Concat", [b.node("Sub", [cxy, half]), b.node("Add", [cxy, half])], outputs=[node.outputs[0]],
           name=node.name, axis=-1)


@register("_contrib_MultiBoxDetection")
def multibox_detection(b, node):
    """Weft's (MXNet's) SSD detection head (Note [MultiBoxDetection as
    NonMaxSuppression]): every anchor's best non-background class and score,
    its decoded box, NMS per class (or over all with force_suppress), then the
    valid rows by descending score with suppressed rows' class id -1."""
    topk = node.int("nms_topk", -1)
    cls_shape = node.in_shapes[0]
    classes, n = cls_shape[1], cls_shape[2]
    if 0 < topk < n:
        raise node.error("nms_topk=%d < the %d anchors: Weft's (MXNet's) order of the rows past the top k "
                         "has no ONNX form" % (topk, n))
    thr = node.float("nms_threshold", 0.5)
    if not 0 < thr <= 1:
        raise node.error("nms_threshold=%s outside (0, 1] (no suppression) is not supported" % thr)
    dt = node.in_dtypes[0]
    cls_prob, loc, anchors = node.inputs[:3]
    bg = node.int("background_id", 0)
    lowest = b.const(np.finfo(dt).min, dt)
    # Best class other than the background, and its score.
    probs = cls_prob
    if 0 <= bg < classes:
        is_bg = (np.arange(classes) == bg).reshape(1, classes, 1)
        probs = b.node("Where", [b.const(is_bg), lowest, cls_prob])
    raw_id = b.node("ArgMax", [probs], axis=1, keepdims=0)                      # (B, N) int64
    score = b.reduce("ReduceMax", probs, [1], keepdims=False)
    valid = b.node("GreaterOrEqual", [score, b.const(node.float("threshold", 0.01), dt)])
    cls_id = raw_id
    if 0 <= bg < classes:  # ids above the background shift down by one
        cls_id = b.node("Sub", [raw_id, b.cast(b.node("Greater", [raw_id, b.const(bg, np.int64)]), np.int64)])
    n_ids = classes - 1 if 0 <= bg < classes else classes
    # Boxes: loc_pred decoded against the (corner) anchors with the variances.
    var = b.const(list(node.tuple("variances", (0.1, 0.1, 0.2, 0.2))), dt)
    d = b.node("Mul", [b.node("Reshape", [loc, b.int64s([0, -1, 4], "shape")]), var])
    lo, hi = b.slice(anchors, [0], [2], [2]), b.slice(anchors, [2], [4], [2])
    awh = b.node("Sub", [hi, lo])
    axy = b.node("Div", [b.node("Add", [lo, hi]), b.const(2.0, dt)])
    cxy = b.node("Add", [b.node("Mul", [b.slice(d, [0], [2], [2]), awh]), axy])
    half = b.node("Div", [b.node("Mul", [b.node("Exp", [b.slice(d, [2], [4], [2])]), awh]), b.const(2.0, dt)])
    box = b.node("Concat", [b.node("Sub", [cxy, half]), b.node("Add", [cxy, half])], axis=2)   # (B, N, 4)
    if node.bool("clip", True):
        box = b.node("Clip", [box, b.const(0.0, dt), b.const(1.0, dt)])
    # NMS scores (B, classes, N): an anchor's score in its class, -1 elsewhere and when invalid.
    if node.bool("force_suppress"):
        member = b.unsqueeze(valid, [1])
    else:
        ids = b.const(np.arange(n_ids, dtype=np.int64).reshape(1, n_ids, 1))
        member = b.node("And", [b.node("Equal", [ids, b.unsqueeze(cls_id, [1])]), b.unsqueeze(valid, [1])])
    nms_scores = b.node("Where", [member, b.unsqueeze(score, [1]), b.const(-1.0, dt)])
    selected = b.node("NonMaxSuppression", [box, nms_scores, b.int64s([INT64_MAX], "max_out"),
                                            b.const([thr], np.float32), b.const([-0.5], np.float32)])
    pairs = b.node("Gather", [selected, b.int64s([0, 2], "cols")], axis=1)          # (S, 2): batch, anchor
    ones = b.node("Expand", [b.const([1.0], dt), b.shape(selected, 0, 1)])
    kept = b.node("ScatterND", [b.node("Mul", [score, b.const(0.0, dt)]), pairs, ones])  # (B, N) 1 where kept
    shown_id = b.node("Where", [b.node("Greater", [kept, b.const(0.0, dt)]), b.cast(cls_id, dt), b.const(-1.0, dt)])
    rows = b.node("Concat", [b.unsqueeze(shown_id, [2]), b.unsqueeze(score, [2]), box], axis=2)  # (B, N, 6)
    rows = b.node("Where", [b.unsqueeze(valid, [2]), rows, b.const(-1.0, dt)])
    # The valid rows by descending score, the invalid (all -1) after them.
    key = b.node("Where", [valid, score, lowest])
    _, order = b.node("TopK", [key, b.int64s([n], "k")], n_out=2, axis=1, largest=1, sorted=1)
    index = b.node("Expand", [b.unsqueeze(order, [2]), b.shape(rows)])
    b.node("GatherElements", [rows, index], outputs=[node.outputs[0]], name=node.name, axis=1)
