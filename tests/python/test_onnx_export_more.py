"""weft.onnx.export_model for the MXNet 1.9.1 exporter's operators that came
last (issue 40 point 1): box_nms as NonMaxSuppression, box_decode, slice_like
and the random generators. Deterministic ones are
run by Weft and, exported, by ONNX Runtime and compared (relative error <=
1e-5); random ones are compared by shape, dtype and sample statistics."""
import numpy as np
import pytest

from onnx_check import onnx, rel_err, run_onnx, weft_eval

import weft as mx
from weft.onnx.mxnet_lists import MXNET_EXPORTED

S = mx.sym
X = S.var("x")
_NEWEST = onnx.defs.onnx_opset_version()
OPSETS = sorted({12, 13, _NEWEST})


def _boxes(shape, seed=0, ids=3):
    """Detections [id, score, x1, y1, x2, y2] with distinct scores, some below
    0.1 and many overlapping."""
    rs = np.random.RandomState(seed)
    lead, n = shape[:-2], shape[-2]
    d = np.zeros(shape, np.float32)
    d[..., 0] = rs.randint(0, ids, lead + (n,))
    d[..., 1] = rs.permutation(np.prod(lead + (n,)) * 3)[:np.prod(lead + (n,))].reshape(lead + (n,)) / \
        (np.prod(lead + (n,)) * 3.0)
    lo = rs.uniform(0, 6, lead + (n, 2))
    d[..., 2:4] = lo
    d[..., 4:6] = lo + rs.uniform(1, 4, lead + (n, 2))
    return d


def _nms_center(d):
    c = d.copy()
    c[..., 2:4] = (d[..., 2:4] + d[..., 4:6]) / 2
    c[..., 4:6] = d[..., 4:6] - d[..., 2:4]
    return c


_RS = np.random.RandomState(5)
_DELTAS = _RS.uniform(-1, 1, (2, 6, 4)).astype(np.float32)
_ANCHORS = _boxes((1, 6, 6), 3)[..., 2:6].copy()

# SSD head inputs: class probabilities (B, C, N), box deltas (B, N * 4), and
# anchors (1, N, 4) clustered so that boxes overlap.
_LOGITS = _RS.uniform(-2, 2, (2, 4, 30))
_CLS = (np.exp(_LOGITS) / np.exp(_LOGITS).sum(axis=1, keepdims=True)).astype(np.float32)
_LOC = _RS.uniform(-0.5, 0.5, (2, 120)).astype(np.float32)
_CENTRES = _RS.uniform(0.3, 0.7, (30, 2))
_ANC = np.concatenate([_CENTRES - 0.2, _CENTRES + 0.2], axis=1)[None].astype(np.float32)

# name -> (symbol, {input: value})
CASES = {
    "box_nms": (S.contrib.box_nms(X, overlap_thresh=0.3, valid_thresh=0.1), {"x": _boxes((2, 12, 6))}),
    "box_nms_topk_force": (S.contrib.box_nms(X, overlap_thresh=0.4, topk=5, id_index=0, force_suppress=True),
                           {"x": _boxes((2, 12, 6), 1)}),
    "box_nms_center_lead": (S.contrib.box_nms(X, overlap_thresh=0.3, in_format="center", out_format="center"),
                            {"x": _nms_center(_boxes((2, 2, 8, 6), 2))}),
    "box_nms_layout": (S.contrib.box_non_maximum_suppression(X, overlap_thresh=0.5, coord_start=0,
                                                             score_index=4),
                       {"x": _boxes((1, 10, 6), 4)[..., [2, 3, 4, 5, 1, 0]].copy()}),
    "box_decode_corner": (S.contrib.box_decode(X, S.var("a"), std0=0.1, std1=0.1, std2=0.2, std3=0.2,
                                               format="corner", clip=0.5),
                          {"x": _DELTAS, "a": _ANCHORS}),
    "box_decode_center": (S.contrib.box_decode(X, S.var("a"), format="center"), {"x": _DELTAS, "a": _ANCHORS}),
    "slice_like": (S.slice_like(X, S.var("z")) + S.slice_like(X, S.var("z"), axes=(0, -1)),
                   {"x": _RS.uniform(-1, 1, (4, 5, 6)).astype(np.float32),
                    "z": np.zeros((3, 5, 2), np.float32)}),
    "multibox_detection": (S.contrib.MultiBoxDetection(S.var("cls"), S.var("loc"), S.var("anc"), threshold=0.3,
                                                       nms_threshold=0.3),
                           {"cls": _CLS, "loc": _LOC, "anc": _ANC}),
    "multibox_detection_force_bg2_noclip": (
        S.contrib.MultiBoxDetection(S.var("cls"), S.var("loc"), S.var("anc"), threshold=0.2, nms_threshold=0.4,
                                    force_suppress=True, background_id=2, clip=False, variances=(0.2, 0.1, 0.3, 0.2)),
        {"cls": _CLS, "loc": _LOC, "anc": _ANC}),
    # use_length (Note [Softmax with length]): rows of lengths 5, 2 and 0 (all zeros), one clamped
    "softmax_length": (S.softmax(X, S.var("len"), use_length=True),
                       {"x": _RS.uniform(-3, 3, (3, 5)).astype(np.float32), "len": np.array([5, 2, 0], np.int32)}),
    "log_softmax_length_axis1": (
        S.log_softmax(X, S.var("len"), axis=1, use_length=True, temperature=2.0),
        {"x": _RS.uniform(-3, 3, (2, 6, 3)).astype(np.float32),
         "len": np.array([[1, 6, 3], [9, 4, 2]], np.int64)}),
    "softmin_length_1d": (S.softmin(X, S.var("len"), use_length=True),
                          {"x": _RS.uniform(-3, 3, (4,)).astype(np.float32), "len": np.array([3], np.int32)}),
}


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_translation(case, opset, tmp_path):
    sym, feeds = CASES[case]
    want = weft_eval(sym, feeds, {})
    order = list(dict.fromkeys(sym.list_arguments()))
    path = mx.onnx.export_model(sym, {}, [feeds[n].shape for n in order], [feeds[n].dtype for n in order],
                                onnx_file_path=str(tmp_path / "m.onnx"), opset_version=opset)
    onnx.checker.check_model(path, full_check=True)
    got = run_onnx(path, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and rel_err(g, w) <= 1e-5, (g, w)


def test_box_nms_keeps_something_and_drops_something():
    # The cases above are only worth their name if suppression happened.
    for case in ("box_nms", "box_nms_topk_force", "box_nms_center_lead"):
        sym, feeds = CASES[case]
        out = weft_eval(sym, feeds, {})[0]
        kept = (out[..., 1] >= 0).sum()
        assert 0 < kept < out[..., 1].size, case
    for case in ("multibox_detection", "multibox_detection_force_bg2_noclip"):
        sym, feeds = CASES[case]
        out = weft_eval(sym, feeds, {})[0]
        valid, kept = (out[..., 1] >= 0).sum(), (out[..., 0] >= 0).sum()
        assert 0 < kept < valid < out[..., 1].size, (case, kept, valid)


def test_box_nms_refuses_what_onnx_cannot_express(tmp_path):
    sym = S.contrib.box_nms(X, id_index=0, force_suppress=False)
    with pytest.raises(ValueError, match="box_nms.*per class"):
        mx.onnx.export_model(sym, {}, [(1, 4, 6)], onnx_file_path=str(tmp_path / "m.onnx"))
    sym = S.contrib.MultiBoxDetection(S.var("cls"), S.var("loc"), S.var("anc"), nms_topk=10)
    with pytest.raises(ValueError, match="MultiBoxDetection.*nms_topk"):
        mx.onnx.export_model(sym, {}, [_CLS.shape, _LOC.shape, _ANC.shape], onnx_file_path=str(tmp_path / "m.onnx"))


def test_random_generators(tmp_path):
    x = S.var("x")
    sym = S.Group([S.random.uniform(low=-1, high=3, shape=(200, 50)),
                   S.random.normal(loc=2, scale=0.5, shape=(200, 50)),
                   S.random.uniform_like(x, low=0, high=2), S.random.normal_like(x, scale=3.0),
                   S.random.multinomial(S.var("p"), shape=(400,), get_prob=False),
                   S.random.multinomial(S.var("q"))])  # MXNet's symbolic default get_prob=True
    p = np.tile(np.array([[0.2, 0.3, 0.5]], np.float32), (2, 1))
    q = np.array([[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]], np.float32)
    feeds = {"x": np.zeros((100, 100), np.float32), "p": p, "q": q}
    want = weft_eval(sym, feeds, {})
    path = mx.onnx.export_model(sym, {}, [(100, 100), p.shape, q.shape], onnx_file_path=str(tmp_path / "m.onnx"))
    onnx.checker.check_model(path, full_check=True)
    u, n, ul, nl, m, mq, mq_logp = got = run_onnx(path, feeds)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
    assert -1 <= u.min() and u.max() < 3 and abs(u.mean() - 1) < 0.1
    assert abs(n.mean() - 2) < 0.05 and abs(n.std() - 0.5) < 0.05
    assert 0 <= ul.min() and ul.max() < 2 and abs(ul.mean() - 1) < 0.05
    assert abs(nl.mean()) < 0.1 and abs(nl.std() - 3) < 0.1
    freq = np.stack([(m == c).mean(axis=1) for c in range(3)], axis=1)
    assert np.abs(freq - p).max() < 0.1, freq
    assert (mq == want[5]).all() and mq.tolist() == [2, 0, 3]  # one-hot probabilities: no chance
    assert (mq_logp == want[6]).all() and (mq_logp == 0).all()  # log(1)


@pytest.mark.parametrize("opset", [12, 13])
def test_every_operator_mxnet_exports_is_exported(opset):
    assert len(MXNET_EXPORTED) == 145
    missing = MXNET_EXPORTED - set(mx.onnx.get_operator_support(opset))
    assert not missing, sorted(missing)
