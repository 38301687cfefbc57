"""Object-detection ``npx`` operators: multibox_prior, multibox_target,
multibox_detection (MXNet's ``_contrib_MultiBox*``) and roi_pooling (legacy ops
with np arrays in and out; Note [npx operators over the legacy registry] in nn.py)."""
# pylint: disable=invalid-name
from ..ndarray.ndarray import NDArray
from ..numpy._array import _invoke

__all__ = ["multibox_prior", "multibox_target", "multibox_detection", "roi_pooling"]


def _need(x, name, func):
    if not isinstance(x, NDArray):
        raise TypeError("%s: %s must be an array, got %s" % (func, name, type(x).__name__))
    return x


def multibox_prior(data, sizes=(1.0,), ratios=(1.0,), clip=False, steps=(-1.0, -1.0), offsets=(0.5, 0.5),
                   out=None, name=None):  # pylint: disable=unused-argument
    """``npx.multibox_prior``: anchor boxes (1, H*W*(len(sizes)+len(ratios)-1), 4)
    as [xmin, ymin, xmax, ymax] for the (batch, C, H, W) feature map data."""
    return _invoke("_contrib_MultiBoxPrior", [_need(data, "data", "multibox_prior")], out=out,
                   sizes=tuple(sizes), ratios=tuple(ratios), clip=clip, steps=tuple(steps), offsets=tuple(offsets))


def multibox_target(anchor, label, cls_pred, overlap_threshold=0.5, ignore_label=-1.0, negative_mining_ratio=-1.0,
                    negative_mining_thresh=0.5, minimum_negative_samples=0, variances=(0.1, 0.1, 0.2, 0.2),
                    out=None, name=None):  # pylint: disable=unused-argument
    """``npx.multibox_target``: training targets for anchors; returns
    [loc_target, loc_mask, cls_target]."""
    f = "multibox_target"
    return _invoke("_contrib_MultiBoxTarget", [_need(anchor, "anchor", f), _need(label, "label", f),
                                               _need(cls_pred, "cls_pred", f)], out=out,
                   overlap_threshold=overlap_threshold, ignore_label=ignore_label,
                   negative_mining_ratio=negative_mining_ratio, negative_mining_thresh=negative_mining_thresh,
                   minimum_negative_samples=minimum_negative_samples, variances=tuple(variances))


def multibox_detection(cls_prob, loc_pred, anchor, clip=True, threshold=0.01, background_id=0, nms_threshold=0.5,
                       force_suppress=False, variances=(0.1, 0.1, 0.2, 0.2), nms_topk=-1, out=None,
                       name=None):  # pylint: disable=unused-argument
    """``npx.multibox_detection``: decoded, non-maximum-suppressed detections
    (batch, num_anchors, 6) rows [class, score, xmin, ymin, xmax, ymax]."""
    f = "multibox_detection"
    return _invoke("_contrib_MultiBoxDetection", [_need(cls_prob, "cls_prob", f), _need(loc_pred, "loc_pred", f),
                                                  _need(anchor, "anchor", f)], out=out,
                   clip=clip, threshold=threshold, background_id=background_id, nms_threshold=nms_threshold,
                   force_suppress=force_suppress, variances=tuple(variances), nms_topk=nms_topk)


def roi_pooling(data, rois, pooled_size, spatial_scale, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.roi_pooling``: max pooling of each region [batch, x1, y1, x2, y2] of
    rois (scaled by spatial_scale) to pooled_size; (num_rois, C, ph, pw)."""
    res = _invoke("ROIPooling", [_need(data, "data", "roi_pooling"), _need(rois, "rois", "roi_pooling")],
                  pooled_size=tuple(pooled_size), spatial_scale=spatial_scale)
    if isinstance(res, list):  # the argmax output is MXNet's hidden workspace
        res = res[0]
    if out is not None:
        res.copyto(out)
        return out
    return res
