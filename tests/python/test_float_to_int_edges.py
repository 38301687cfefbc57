"""Counts and indices computed from float data or float attributes (Note [Float to
int conversions] in core/base/checked_math.h): NaN, infinities and values beyond
2**63 give defined results. Converting such a value to an integer is undefined
(UBSan's float-cast-overflow in the degenerate-input pass); on x86 a release
build silently got INT64_MIN, which turned "beyond the range" into "a negative
number" and so let bad hash indices through or made an infinite ratio select
nothing. These tests see the wrong values in a release build, not only a
sanitizer message."""
import numpy as np
import pytest

import weft

F32 = np.float32


@pytest.mark.parametrize("bad", [1e30, -1e30, np.inf, -np.inf, np.nan])
def test_count_sketch_refuses_hash_index_out_of_range(bad):
    data = weft.nd.array(np.ones((2, 3), F32))
    h = np.array([[0, bad, 1]], F32)
    s = weft.nd.array(np.ones((1, 3), F32))
    # 1e30 once converted to INT64_MIN, passed the "< out_dim" check and was silently dropped.
    with pytest.raises(weft.MXNetError, match=r"_contrib_count_sketch: input 'h' holds .* at column 1"):
        weft.nd.contrib.count_sketch(data, weft.nd.array(h), s, out_dim=2).asnumpy()


def test_count_sketch_in_range_hashes_still_sum():
    data = np.arange(6, dtype=F32).reshape(2, 3)
    h = np.array([[0, 1.9, 1]], F32)  # 1.9 truncates to column 1, as MXNet's int cast does
    s = np.array([[1, -1, 1]], F32)
    got = weft.nd.contrib.count_sketch(weft.nd.array(data), weft.nd.array(h), weft.nd.array(s), out_dim=2).asnumpy()
    np.testing.assert_array_equal(got, [[0, 1], [3, 1]])


def _multibox_inputs():
    # Three anchors: one matches the ground-truth box, two are background of which
    # class 0 (background) scores differ, so hard-negative mining has an order.
    anchors = np.array([[[0.0, 0.0, 0.5, 0.5], [0.5, 0.5, 1.0, 1.0], [0.0, 0.5, 0.5, 1.0]]], F32)
    labels = np.array([[[0.0, 0.0, 0.0, 0.5, 0.5]]], F32)
    cls_pred = np.array([[[0.1, 0.9, 0.2], [0.8, 0.05, 0.7]]], F32)  # (batch, classes=2, anchors=3)
    return weft.nd.array(anchors), weft.nd.array(labels), weft.nd.array(cls_pred)


def test_multibox_target_infinite_mining_ratio_takes_every_negative():
    anc, lab, cls = _multibox_inputs()
    kw = dict(overlap_threshold=0.5, negative_mining_thresh=0.5)
    finite = weft.nd.contrib.MultiBoxTarget(anc, lab, cls, negative_mining_ratio=1e6, **kw)[2].asnumpy()
    np.testing.assert_array_equal(finite, [[1, 0, 0]])  # the match (class 0 + 1), both others negative
    # An infinite ratio asks for at least as many negatives as the huge finite one (it
    # selected none when inf * positives converted to INT64_MIN).
    inf = weft.nd.contrib.MultiBoxTarget(anc, lab, cls, negative_mining_ratio=float("inf"), **kw)[2].asnumpy()
    np.testing.assert_array_equal(inf, finite)
    one = weft.nd.contrib.MultiBoxTarget(anc, lab, cls, negative_mining_ratio=1, **kw)[2].asnumpy()
    assert sorted(one[0].tolist()) == [-1, 0, 1]  # ratio 1: one negative, the other ignored


@pytest.mark.parametrize("kw", [dict(start=0, stop=4, repeat=2 ** 62), dict(start=0, stop=3, repeat=2 ** 62 + 1)])
def test_arange_refuses_a_size_times_repeat_beyond_int64(kw):
    # 4 * 2**62 wrapped to 0: a silently empty array instead of an error.
    with pytest.raises(weft.MXNetError, match=r"_arange: the number of values times repeat.*overflows"):
        weft.nd.arange(**kw)


@pytest.mark.parametrize("kw", [dict(start=1e30), dict(start=0, stop=1e30), dict(start=float("inf")),
                                dict(start=float("nan"))])
def test_arange_refuses_a_huge_or_undefined_length(kw):
    with pytest.raises(weft.MXNetError, match=r"_arange"):
        weft.nd.arange(**kw)


def test_arange_ordinary_ranges_unchanged():
    np.testing.assert_array_equal(weft.nd.arange(0, 3, repeat=2).asnumpy(), [0, 0, 1, 1, 2, 2])
    np.testing.assert_array_equal(weft.nd.arange(2.5).asnumpy(), [0, 1, 2])
    assert weft.nd.arange(3, 0).shape == (0,)


@pytest.mark.parametrize("bad", [3.0, -1.0, 1e30, np.inf, np.nan])
def test_box_encode_match_naming_no_reference_is_masked(bad):
    # matches index the m=3 reference boxes; one that names none was converted unchecked and
    # read past refs (garbage targets with mask 1 in a release build).
    samples = np.ones((1, 2), F32)
    matches = np.array([[0, bad]], F32)
    anchors = np.array([[[0.1, 0.1, 0.5, 0.5], [0.2, 0.2, 0.6, 0.6]]], F32)
    refs = np.array([[[0.1, 0.1, 0.4, 0.4], [0.2, 0.3, 0.5, 0.6], [0.0, 0.0, 0.3, 0.3]]], F32)
    means, stds = np.zeros(4, F32), np.ones(4, F32)
    t, m = weft.nd.contrib.box_encode(*(weft.nd.array(x) for x in (samples, matches, anchors, refs, means, stds)))
    np.testing.assert_array_equal(m.asnumpy(), [[[1, 1, 1, 1], [0, 0, 0, 0]]])
    np.testing.assert_array_equal(t.asnumpy()[0, 1], [0, 0, 0, 0])
    assert np.all(t.asnumpy()[0, 0] != 0)  # the valid match is still encoded
