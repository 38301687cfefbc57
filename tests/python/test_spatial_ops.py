"""The spatial family (core/op/spatial/) beyond the harness: bad input is
refused at the call with a message naming the op, the argument and what was
expected; symbolic shape inference; hidden outputs as MXNet declares them;
gradients through weft.autograd against central differences."""
import json

import numpy as np
import pytest

import weft
from weft.base import DTypeError, InvalidArgumentError, ShapeError

nd = weft.nd


def op(name):
    return getattr(nd, name)


def arr(shape, dtype=np.float32, seed=0):
    return nd.array(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype), dtype=dtype)


ROIS = nd.array(np.array([[0, 0.5, 1.0, 3.5, 4.0]], np.float32))


@pytest.mark.parametrize("name, args, kwargs, err, words", [
    ("_contrib_BilinearResize2D", [(2, 3, 4)], dict(height=2, width=2), ShapeError, ["data", "4-D"]),
    ("_contrib_BilinearResize2D", [(1, 1, 4, 4)], dict(mode="odd_scale"), InvalidArgumentError,
     ["odd_scale", "scale_height"]),
    ("_contrib_BilinearResize2D", [(1, 1, 4, 4)], dict(mode="bicubic"), InvalidArgumentError, ["mode"]),
    ("_contrib_BilinearResize2D", [(1, 1, 4, 4)], dict(scale_height=0.1, scale_width=0.1), ShapeError,
     ["output size", "positive"]),
    ("_contrib_AdaptiveAvgPooling2D", [(2, 3, 4)], dict(output_size=2), ShapeError, ["data", "4-D"]),
    ("_contrib_AdaptiveAvgPooling2D", [(1, 1, 4, 4)], dict(output_size=(1, 2, 3)), InvalidArgumentError,
     ["output_size"]),
    ("_contrib_AdaptiveAvgPooling2D", [(1, 1, 4, 4)], dict(output_size=0), InvalidArgumentError,
     ["output_size", "positive"]),
    ("_contrib_ROIAlign", [(1, 2, 5, 5), (3, 6)], dict(pooled_size=(2, 2), spatial_scale=1.0), ShapeError,
     ["rois", "num_rois"]),
    ("_contrib_ROIAlign", [(1, 3, 5, 5), (1, 5)], dict(pooled_size=(2, 2), spatial_scale=1.0,
                                                      position_sensitive=True), ShapeError,
     ["position_sensitive", "multiple"]),
    ("_contrib_ROIAlign", [(1, 2, 5, 5), (1, 5)], dict(pooled_size=(0, 2), spatial_scale=1.0),
     InvalidArgumentError, ["pooled_size", "positive"]),
    ("ROIPooling", [(1, 2, 5, 5), (1, 4)], dict(pooled_size=(2, 2), spatial_scale=1.0), ShapeError,
     ["rois", "5"]),
    ("ROIPooling", [(2, 5, 5), (1, 5)], dict(pooled_size=(2, 2), spatial_scale=1.0), ShapeError,
     ["data", "4-D"]),
    ("GridGenerator", [(2, 4)], dict(transform_type="affine", target_shape=(3, 3)), ShapeError,
     ["data", "(batch, 6)"]),
    ("GridGenerator", [(2, 6)], dict(transform_type="affine"), InvalidArgumentError, ["target_shape", "positive"]),
    ("GridGenerator", [(2, 3, 4, 4)], dict(transform_type="warp"), ShapeError, ["data", "optical flow"]),
    ("GridGenerator", [(2, 6)], dict(transform_type="perspective", target_shape=(3, 3)), InvalidArgumentError,
     ["transform_type"]),
    ("BilinearSampler", [(1, 2, 4, 4), (1, 3, 4, 4)], {}, ShapeError, ["grid", "(1, 2, h, w)"]),
    ("BilinearSampler", [(1, 2, 4, 4), (2, 2, 4, 4)], {}, ShapeError, ["grid"]),
    ("BilinearSampler", [(2, 4, 4), (1, 2, 4, 4)], {}, ShapeError, ["data", "4-D"]),
    ("SpatialTransformer", [(1, 2, 4, 4), (1, 4)], dict(target_shape=(3, 3), transform_type="affine",
                                                       sampler_type="bilinear"), ShapeError, ["loc", "(batch, 6)"]),
    ("SpatialTransformer", [(1, 2, 4, 4), (1, 6)], dict(transform_type="affine", sampler_type="bilinear"),
     InvalidArgumentError, ["target_shape"]),
    ("SpatialTransformer", [(1, 2, 4, 4), (1, 6)], dict(target_shape=(3, 3), transform_type="affine",
                                                       sampler_type="nearest"), InvalidArgumentError,
     ["sampler_type"]),
    ("_contrib_DeformableConvolution", [(1, 4, 5, 5), (1, 18, 5, 5), (3, 4, 3, 3), (3,)],
     dict(kernel=(3, 3), pad=(1, 1), num_filter=3, num_group=2), InvalidArgumentError, ["num_group", "divide"]),
    ("_contrib_DeformableConvolution", [(1, 4, 5, 5), (1, 9, 5, 5), (3, 4, 3, 3), (3,)],
     dict(kernel=(3, 3), pad=(1, 1), num_filter=3), ShapeError, ["offset"]),
    ("_contrib_DeformableConvolution", [(1, 4, 5, 5), (1, 18, 5, 5), (3, 4, 3, 3), (3,)],
     dict(kernel=(3, 3), pad=(1, 1), num_filter=3, num_deformable_group=3), InvalidArgumentError,
     ["num_deformable_group"]),
    ("_contrib_DeformableConvolution", [(1, 4, 2, 2), (1, 18, 1, 1), (3, 4, 3, 3), (3,)],
     dict(kernel=(3, 3), num_filter=3), ShapeError, ["kernel", "larger"]),
    ("_contrib_DeformableConvolution", [(1, 4, 5, 5), (1, 18, 5, 5), (3, 4, 3, 3), (3,)],
     dict(kernel=(3, 3), pad=(1, 1), num_filter=3, layout="NHWC"), InvalidArgumentError, ["layout", "NCHW"]),
    ("_contrib_ModulatedDeformableConvolution", [(1, 4, 5, 5), (1, 18, 5, 5), (1, 8, 5, 5), (3, 4, 3, 3), (3,)],
     dict(kernel=(3, 3), pad=(1, 1), num_filter=3), ShapeError, ["mask"]),
    ("_contrib_PSROIPooling", [(1, 10, 5, 5), (1, 5)], dict(spatial_scale=1.0, output_dim=2, pooled_size=2),
     ShapeError, ["data", "output_dim * group_size^2"]),
    ("_contrib_PSROIPooling", [(1, 8, 5, 5), (1, 5)], dict(spatial_scale=1.0, output_dim=0, pooled_size=2),
     InvalidArgumentError, ["output_dim", "positive"]),
    ("Correlation", [(1, 2, 5, 5), (1, 3, 5, 5)], {}, ShapeError, ["data1", "data2", "same shape"]),
    ("Correlation", [(1, 2, 5, 5), (1, 2, 5, 5)], dict(kernel_size=2), InvalidArgumentError,
     ["kernel_size", "odd"]),
    ("Correlation", [(1, 2, 3, 3), (1, 2, 3, 3)], dict(max_displacement=2), ShapeError, ["too small"]),
    ("_contrib_RROIAlign", [(1, 2, 5, 5), (2, 5)], dict(pooled_size=(2, 2), spatial_scale=1.0), ShapeError,
     ["rois", "(num_rois, 6)"]),
    ("_contrib_DeformablePSROIPooling", [(1, 8, 6, 6), (2, 5), (2, 4, 3, 3)],
     dict(spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2), ShapeError, ["trans", "part_size"]),
    ("_contrib_DeformablePSROIPooling", [(1, 7, 6, 6), (2, 5)],
     dict(spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2, no_trans=True), ShapeError,
     ["data", "output_dim * group_size^2"]),
])
def test_bad_input_names_op_and_argument(name, args, kwargs, err, words):
    with pytest.raises(err) as e:
        op(name)(*[arr(s) for s in args], **kwargs).wait_to_read()
    msg = str(e.value)
    assert name in msg, msg
    for w in words:
        assert w in msg, "%r not in %r" % (w, msg)


def test_missing_required_parameter():
    with pytest.raises(InvalidArgumentError) as e:
        op("ROIPooling")(arr((1, 1, 4, 4)), ROIS, pooled_size=(2, 2))
    assert "ROIPooling" in str(e.value) and "spatial_scale" in str(e.value)


@pytest.mark.parametrize("name, kwargs", [
    ("_contrib_BilinearResize2D", dict(height=3, width=3)),
    ("_contrib_AdaptiveAvgPooling2D", dict(output_size=2)),
])
def test_integer_data_rejected(name, kwargs):
    with pytest.raises(DTypeError) as e:
        op(name)(nd.array(np.ones((1, 1, 4, 4), np.int32), dtype=np.int32), **kwargs)
    assert name in str(e.value) and "data" in str(e.value)


def test_deformable_convolution_rejects_half():
    x = nd.array(np.ones((1, 1, 3, 3), np.float16), dtype=np.float16)
    with pytest.raises(DTypeError) as e:
        op("_contrib_DeformableConvolution")(x, nd.zeros((1, 8, 2, 2), dtype=np.float16),
                                             nd.zeros((1, 1, 2, 2), dtype=np.float16), kernel=(2, 2),
                                             num_filter=1, no_bias=True)
    assert "_contrib_DeformableConvolution" in str(e.value) and "float32 or float64" in str(e.value)


def test_deformable_convolution_with_zero_offsets_is_convolution():
    rng = np.random.default_rng(5)
    x = nd.array(rng.uniform(-1, 1, (2, 4, 6, 6)))
    w = nd.array(rng.uniform(-1, 1, (6, 2, 3, 3)))
    b = nd.array(rng.uniform(-1, 1, (6,)))
    kw = dict(kernel=(3, 3), stride=(2, 1), pad=(1, 2), dilate=(1, 2), num_filter=6, num_group=2)
    conv = nd.Convolution(x, w, b, **kw).asnumpy()
    off = nd.zeros((2, 18) + conv.shape[2:])
    got = op("_contrib_DeformableConvolution")(x, off, w, b, **kw).asnumpy()
    np.testing.assert_allclose(got, conv, rtol=1e-5, atol=1e-5)
    mask = nd.ones((2, 9) + conv.shape[2:])
    got = op("_contrib_ModulatedDeformableConvolution")(x, off, mask, w, b, **kw).asnumpy()
    np.testing.assert_allclose(got, conv, rtol=1e-5, atol=1e-5)


def test_deformable_shapes_inferred_from_data():
    s = op_sym("_contrib_DeformableConvolution")(weft.sym.Variable("data"), kernel=(3, 3), num_filter=5,
                                                  num_deformable_group=2, stride=(2, 2))
    assert s.list_arguments() == ["data", s.name + "_offset", s.name + "_weight", s.name + "_bias"]
    args, out, _ = s.infer_shape(data=(2, 4, 9, 9))
    assert args == [(2, 4, 9, 9), (2, 36, 4, 4), (5, 4, 3, 3), (5,)]
    assert out == [(2, 5, 4, 4)]


def op_sym(name):
    return getattr(weft.sym, name)


def test_rroi_align_zero_angle_matches_roi_align():
    rng = np.random.default_rng(9)
    x = nd.array(rng.uniform(-1, 1, (1, 2, 7, 7)))
    box = np.array([1.2, 0.7, 5.3, 6.1])
    rot = nd.array(np.array([[0, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, box[2] - box[0], box[3] - box[1], 0.0]],
                            np.float32))
    axis = nd.array(np.array([[0] + list(box)], np.float32))
    a = op("_contrib_RROIAlign")(x, rot, pooled_size=(3, 2), spatial_scale=1.0, sampling_ratio=2).asnumpy()
    b = op("_contrib_ROIAlign")(x, axis, pooled_size=(3, 2), spatial_scale=1.0, sample_ratio=2).asnumpy()
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_rois_dtype_must_match_data():
    with pytest.raises(DTypeError) as e:
        op("_contrib_ROIAlign")(arr((1, 1, 4, 4), np.float64), ROIS, pooled_size=(2, 2), spatial_scale=1.0)
    assert "_contrib_ROIAlign" in str(e.value) and "rois" in str(e.value)


def test_hidden_outputs_are_declared_as_in_mxnet():
    data, other = weft.sym.Variable("data"), weft.sym.Variable("other")
    for name, args, kwargs, hidden in [
        ("GridGenerator", [data], dict(transform_type="affine", target_shape=(2, 3)), ["output", "grid_dst"]),
        ("BilinearSampler", [data, other], {}, ["output", "tmp"]),
        ("SpatialTransformer", [data, other], dict(target_shape=(2, 3), transform_type="affine",
                                                   sampler_type="bilinear"), ["output", "grid_dst", "grid_src"]),
        ("ROIPooling", [data, other], dict(pooled_size=(2, 2), spatial_scale=1.0), ["output", "maxidx"]),
        ("Correlation", [data, other], {}, ["output", "tmp1", "tmp2"]),
        ("_contrib_DeformablePSROIPooling", [data, other],
         dict(spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2, no_trans=True), ["output", "top_count"]),
    ]:
        s = getattr(weft.sym, name)(*args, **kwargs)
        assert s.list_outputs() == [s.name + "_output"], name
        assert json.loads(weft.base.op_schema(name))["num_outputs"] == len(hidden), name
    g = getattr(weft.sym, "GridGenerator")(data, transform_type="affine", target_shape=(2, 3))
    assert g.infer_shape(data=(4, 6))[1] == [(4, 2, 2, 3)]
    t = getattr(weft.sym, "SpatialTransformer")(data, other, target_shape=(5, 3), transform_type="affine",
                                               sampler_type="bilinear")
    assert t.infer_shape(data=(2, 3, 8, 8), other=(2, 6))[1] == [(2, 3, 5, 3)]
    b = getattr(weft.sym, "BilinearSampler")(data, other)
    assert b.infer_shape(data=(2, 3, 8, 8), other=(2, 2, 4, 6))[1] == [(2, 3, 4, 6)]


def test_symbolic_shapes_and_hidden_outputs():
    data, rois = weft.sym.Variable("data"), weft.sym.Variable("rois")
    s = getattr(weft.sym, "ROIPooling")(data, rois, pooled_size=(3, 2), spatial_scale=0.25)
    assert s.list_outputs() == [s.name + "_output"]
    _, out, _ = s.infer_shape(data=(2, 4, 16, 16), rois=(5, 5))
    assert out == [(5, 4, 3, 2)]
    a = getattr(weft.sym, "_contrib_ROIAlign")(data, rois, pooled_size=(2, 2), spatial_scale=1.0,
                                              position_sensitive=True)
    assert a.infer_shape(data=(1, 8, 6, 6), rois=(3, 5))[1] == [(3, 2, 2, 2)]
    r = getattr(weft.sym, "_contrib_BilinearResize2D")(data, scale_height=2.0, scale_width=0.5)
    assert r.infer_shape(data=(1, 3, 5, 8))[1] == [(1, 3, 10, 4)]
    like = weft.sym.Variable("like")
    r = getattr(weft.sym, "_contrib_BilinearResize2D")(data, like, mode="like")
    assert r.list_arguments() == ["data", "like"]
    assert r.infer_shape(data=(1, 3, 5, 8), like=(1, 1, 7, 2))[1] == [(1, 3, 7, 2)]
    p = getattr(weft.sym, "_contrib_AdaptiveAvgPooling2D")(data, output_size=(3,))
    assert p.infer_shape(data=(2, 3, 9, 9))[1] == [(2, 3, 3, 3)]


def _numeric_grad(f, x, head, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        old = x[idx]
        x[idx] = old + eps
        fp = float((f(x) * head).sum())
        x[idx] = old - eps
        fm = float((f(x) * head).sum())
        x[idx] = old
        g[idx] = (fp - fm) / (2 * eps)
    return g


@pytest.mark.parametrize("name, shape, extra, kwargs", [
    ("_contrib_BilinearResize2D", (1, 2, 3, 4), None, dict(height=5, width=6, align_corners=False)),
    ("_contrib_AdaptiveAvgPooling2D", (1, 2, 5, 5), None, dict(output_size=(2, 3))),
    ("_contrib_ROIAlign", (1, 2, 5, 5), [[0, 0.3, 0.7, 3.6, 4.2]], dict(pooled_size=(2, 2), spatial_scale=1.0)),
    ("ROIPooling", (1, 2, 6, 6), [[0, 0, 1, 4, 5]], dict(pooled_size=(2, 2), spatial_scale=1.0)),
    ("GridGenerator", (2, 6), None, dict(transform_type="affine", target_shape=(3, 4))),
    ("BilinearSampler", (1, 2, 4, 5), [[[[-0.7, 0.2, 0.9], [0.35, -0.45, 1.05]],
                                         [[0.1, -0.85, 0.6], [-1.05, 0.3, 0.55]]]], {}),
])
def test_autograd_matches_central_differences(name, shape, extra, kwargs):
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, shape)
    others = [nd.array(np.array(extra, np.float64), dtype=np.float64)] if extra is not None else []

    def f(v):
        return op(name)(nd.array(v, dtype=np.float64), *others, **kwargs).asnumpy()
    head = rng.uniform(-1, 1, f(x).shape)
    xa = nd.array(x, dtype=np.float64)
    xa.attach_grad()
    with weft.autograd.record():
        y = op(name)(xa, *others, **kwargs)
    y.backward(nd.array(head, dtype=np.float64))
    np.testing.assert_allclose(xa.grad.asnumpy(), _numeric_grad(f, x, head), rtol=1e-5, atol=1e-7)
