"""The detection ops (core/op/detect/): box_nms's gradient (each kept row's
gradient goes back to its input row) through autograd, its hidden record
output through a symbol, the zero gradients of box_iou and MultiBoxPrior, and
bad input rejected at the call with a message naming op, argument and
expectation."""
import numpy as np
import pytest

import weft
from weft import autograd
from op_cases import detect as ref

F32 = np.float32


def test_box_nms_gradient_follows_kept_rows():
    rng = np.random.default_rng(3)
    data = ref.nms_data(rng, (2,), 8, F32)
    og = rng.uniform(-1, 1, size=data.shape).astype(F32)
    x = weft.nd.array(data)
    x.attach_grad()
    with autograd.record():
        y = weft.nd.contrib.box_nms(x, overlap_thresh=0.3, id_index=0)
    y.backward(weft.nd.array(og))
    _, rec = ref.nms_ref(data, overlap_thresh=0.3, id_index=0)
    assert (rec < 0).any(), "the case must suppress some boxes"
    np.testing.assert_allclose(x.grad.asnumpy(), ref.nms_backward_ref(og, rec), rtol=1e-6)


def test_box_nms_record_output_and_alias():
    rng = np.random.default_rng(4)
    data = ref.nms_data(rng, (3,), 6, F32)
    s = weft.sym.contrib.box_non_maximum_suppression(weft.sym.var("d"), overlap_thresh=0.4, id_index=0)
    assert len(s.list_outputs()) == 1
    internals = s.get_internals()
    rec_sym = [internals[i] for i, n in enumerate(internals.list_outputs()) if n.endswith("output1")]
    assert rec_sym, internals.list_outputs()
    grp = weft.sym.Group([s, rec_sym[0]])
    _, outs, _ = grp.infer_shape(d=data.shape)
    assert outs == [data.shape, data.shape[:-1] + (1,)]
    exe = grp.bind(weft.cpu(), {"d": weft.nd.array(data)})
    out, rec = [o.asnumpy() for o in exe.forward()]
    want_out, want_rec = ref.nms_ref(data, overlap_thresh=0.4, id_index=0)
    np.testing.assert_allclose(out, want_out, rtol=1e-6)
    np.testing.assert_array_equal(rec, want_rec)


@pytest.mark.parametrize("op,args,kw", [
    ("box_iou", [(3, 4), (2, 4)], {}),
    ("MultiBoxPrior", [(1, 2, 3, 3)], {"sizes": (0.5,)}),
])
def test_zero_gradients(op, args, kw):
    xs = [weft.nd.array(np.random.default_rng(1).uniform(0, 1, s).astype(F32)) for s in args]
    for x in xs:
        x.attach_grad()
    with autograd.record():
        y = getattr(weft.nd.contrib, op)(*xs, **kw)
    y.backward(weft.nd.ones(y.shape))
    for x in xs:
        np.testing.assert_array_equal(x.grad.asnumpy(), np.zeros(x.shape, F32))


def test_bad_input():
    c = weft.nd.contrib
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_iou.*input 'rhs'.*\(\.\.\., 4\)"):
        c.box_iou(weft.nd.ones((2, 4)), weft.nd.ones((2, 3)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_iou.*format"):
        c.box_iou(weft.nd.ones((2, 4)), weft.nd.ones((2, 4)), format="xywh")
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_nms.*in_format"):
        c.box_nms(weft.nd.ones((2, 6)), in_format="corners")
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_nms.*input 'data'.*at least 6 elements"):
        c.box_nms(weft.nd.ones((4, 5)), id_index=0, coord_start=1, score_index=0)
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_nms.*'score_index' = 3 conflicts"):
        c.box_nms(weft.nd.ones((4, 6)), score_index=3)
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_nms.*at least 2 dimensions"):
        c.box_nms(weft.nd.ones((6,)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxPrior.*input 'data'.*4 dimensions"):
        c.MultiBoxPrior(weft.nd.ones((2, 3, 4)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxPrior.*'steps' must have 2 entries"):
        c.MultiBoxPrior(weft.nd.ones((1, 1, 2, 2)), steps=(0.1,))
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxPrior.*'sizes' entries must be positive"):
        c.MultiBoxPrior(weft.nd.ones((1, 1, 2, 2)), sizes=(0.5, -1))
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_iou.*integer|floating"):
        c.box_iou(weft.nd.ones((2, 4), dtype=np.int32), weft.nd.ones((2, 4), dtype=np.int32))


def test_box_codec_round_trip_and_bad_input():
    rng = np.random.default_rng(5)
    anchors = ref.corner_boxes(rng, (1, 4), F32)
    refs = ref.corner_boxes(rng, (1, 4), F32)
    ones = weft.nd.ones((1, 4))
    t, m = weft.nd.contrib.box_encode(ones, weft.nd.array(np.arange(4, dtype=F32)[None]), weft.nd.array(anchors),
                                      weft.nd.array(refs), weft.nd.zeros((4,)), weft.nd.ones((4,)))
    np.testing.assert_array_equal(m.asnumpy(), np.ones((1, 4, 4), F32))
    back = weft.nd.contrib.box_decode(t, weft.nd.array(anchors), format="corner")
    np.testing.assert_allclose(back.asnumpy(), refs, rtol=1e-5, atol=1e-6)
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_decode.*input 'anchors'.*\(1, 4, 4\)"):
        weft.nd.contrib.box_decode(t, weft.nd.ones((2, 4, 4)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_encode.*input 'means'.*\(4,\)"):
        weft.nd.contrib.box_encode(ones, ones, weft.nd.array(anchors), weft.nd.array(refs), weft.nd.zeros((3,)),
                                   weft.nd.ones((4,)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_box_decode.*format"):
        weft.nd.contrib.box_decode(t, weft.nd.array(anchors), format="xyxy")


def test_multibox_detection_bad_input():
    c = weft.nd.contrib
    prob, loc, anc = weft.nd.ones((2, 3, 5)), weft.nd.ones((2, 20)), weft.nd.ones((1, 5, 4))
    assert c.MultiBoxDetection(prob, loc, anc).shape == (2, 5, 6)
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxDetection.*input 'loc_pred'.*\(2, 20\)"):
        c.MultiBoxDetection(prob, weft.nd.ones((2, 16)), anc)
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxDetection.*input 'anchor'.*\(1, 5, 4\)"):
        c.MultiBoxDetection(prob, loc, weft.nd.ones((1, 4, 4)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxDetection.*'variances' must have 4"):
        c.MultiBoxDetection(prob, loc, anc, variances=(0.1, 0.2))
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxDetection.*input 'cls_prob'.*3 dimensions"):
        c.MultiBoxDetection(weft.nd.ones((2, 15)), loc, anc)


def test_box_nms_gradient_by_finite_differences():
    rng = np.random.default_rng(6)
    data = ref.nms_data(rng, (2,), 6, np.float64)
    og = rng.uniform(-1, 1, size=data.shape)
    kw = dict(overlap_thresh=0.3, id_index=0)

    def f(x):
        return float(np.sum(weft.nd.contrib.box_nms(weft.nd.array(x, dtype=np.float64), **kw).asnumpy() * og))
    num = np.zeros_like(data)
    eps = 1e-6
    for idx in np.ndindex(*data.shape):
        if idx[-1] == 0:
            continue  # the class id column: a step function (ids compare equal or not)
        x = data.copy()
        x[idx] += eps
        fp = f(x)
        x[idx] -= 2 * eps
        num[idx] = (fp - f(x)) / (2 * eps)
    x = weft.nd.array(data, dtype=np.float64)
    x.attach_grad()
    with autograd.record():
        y = weft.nd.contrib.box_nms(x, **kw)
    y.backward(weft.nd.array(og, dtype=np.float64))
    got = x.grad.asnumpy()
    got[..., 0] = 0
    np.testing.assert_allclose(got, num, rtol=1e-5, atol=1e-7)


def test_multibox_target_and_matching_bad_input():
    c = weft.nd.contrib
    anc, lab, cls = weft.nd.ones((1, 6, 4)), -weft.nd.ones((2, 3, 5)), weft.nd.ones((2, 3, 6))
    outs = c.MultiBoxTarget(anc, lab, cls)
    assert [o.shape for o in outs] == [(2, 24), (2, 24), (2, 6)]
    np.testing.assert_array_equal(outs[2].asnumpy(), -np.ones((2, 6), F32))  # no ground truth: all ignored
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxTarget.*input 'anchor'.*\(1, num_anchors, 4\)"):
        c.MultiBoxTarget(weft.nd.ones((2, 6, 4)), lab, cls)
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxTarget.*input 'label'.*>= 5"):
        c.MultiBoxTarget(anc, weft.nd.ones((2, 3, 4)), cls)
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxTarget.*input 'cls_pred'.*\(2, num_classes, 6\)"):
        c.MultiBoxTarget(anc, lab, weft.nd.ones((2, 3, 5)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiBoxTarget.*negative_mining_thresh"):
        c.MultiBoxTarget(anc, lab, cls, negative_mining_ratio=3, negative_mining_thresh=0)
    with pytest.raises(weft.MXNetError, match=r"_contrib_bipartite_matching.*threshold"):
        c.bipartite_matching(weft.nd.ones((3, 2)))
    with pytest.raises(weft.MXNetError, match=r"_contrib_bipartite_matching.*input 'data'.*at least 2 dimensions"):
        c.bipartite_matching(weft.nd.ones((3,)), threshold=0.1)
    x, y = c.bipartite_matching(weft.nd.array(np.array([[0.5, 0.6], [0.1, 0.2], [0.3, 0.4]], F32)), threshold=1e-12)
    np.testing.assert_array_equal(x.asnumpy(), [1, -1, 0])
    np.testing.assert_array_equal(y.asnumpy(), [2, 0])


def test_proposal_outputs_and_bad_input():
    c = weft.nd.contrib
    cls, bbox, info = weft.nd.ones((1, 6, 2, 2)), weft.nd.zeros((1, 12, 2, 2)), weft.nd.array([[32.0, 32.0, 1.0]])
    kw = dict(scales=(2.0,), ratios=(0.5, 1.0, 2.0), feature_stride=8, rpn_post_nms_top_n=5, rpn_min_size=1)
    assert c.Proposal(cls, bbox, info, **kw).shape == (5, 5)
    rois, score = c.Proposal(cls, bbox, info, output_score=True, **kw)
    assert score.shape == (5, 1)
    with pytest.raises(weft.MXNetError, match=r"_contrib_Proposal.*input 'cls_prob'.*batch 1"):
        c.Proposal(weft.nd.ones((2, 6, 2, 2)), weft.nd.zeros((2, 12, 2, 2)), weft.nd.ones((2, 3)), **kw)
    assert c.MultiProposal(weft.nd.ones((2, 6, 2, 2)), weft.nd.zeros((2, 12, 2, 2)), weft.nd.ones((2, 3)),
                           **kw).shape == (10, 5)
    with pytest.raises(weft.MXNetError, match=r"_contrib_MultiProposal.*input 'cls_prob'.*2 \* 3 anchors"):
        c.MultiProposal(weft.nd.ones((1, 4, 2, 2)), bbox, info, **kw)
    with pytest.raises(weft.MXNetError, match=r"_contrib_Proposal.*input 'bbox_pred'.*\(1, 12, 2, 2\)"):
        c.Proposal(cls, weft.nd.zeros((1, 8, 2, 2)), info, **kw)
    with pytest.raises(weft.MXNetError, match=r"_contrib_Proposal.*input 'im_info'.*\(1, 3\)"):
        c.Proposal(cls, bbox, weft.nd.ones((1, 2)), **kw)
