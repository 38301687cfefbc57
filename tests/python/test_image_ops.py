"""The image operators (core/op/image, weft.nd.image) beyond their harness cases:
gradients checked by finite differences, symbolic shape inference (partial
shapes included), reproducibility under weft.random.seed, and bad input
rejected naming the op and the argument."""
import numpy as np
import pytest

import weft
from weft import autograd
from weft.test_utils import check_numeric_gradient

nd = weft.nd
img = nd._internal


def _rand(shape, seed=0):
    return np.random.default_rng(seed).uniform(0, 1, shape).astype(np.float64)


@pytest.mark.parametrize("op,attrs,shape", [
    ("_image_normalize", dict(mean=(0.1, 0.2, 0.3), std=(0.5, 1.0, 2.0)), (3, 4, 5)),
    ("_image_crop", dict(x=1, y=1, width=2, height=3), (4, 5, 3)),
    ("_image_flip_left_right", {}, (3, 4, 3)),
    ("_image_flip_top_bottom", {}, (2, 3, 4, 1)),
])
def test_gradient_matches_finite_differences(op, attrs, shape):
    data = weft.sym.Variable("data")
    sym = getattr(weft.sym, op)(data, **attrs)
    check_numeric_gradient(sym, [_rand(shape)], numeric_eps=1e-5, rtol=1e-4, atol=1e-6, dtype=np.float64)


def test_crop_gradient_is_the_box_in_zeros():
    x = nd.array(_rand((4, 5, 3)))
    x.attach_grad()
    with autograd.record():
        y = img._image_crop(x, x=1, y=2, width=3, height=2)
    y.backward(nd.ones(y.shape, dtype=y.dtype))
    want = np.zeros((4, 5, 3))
    want[2:4, 1:4, :] = 1
    np.testing.assert_array_equal(x.grad.asnumpy(), want)


def test_symbolic_shapes_including_partial():
    data = weft.sym.Variable("data")
    _, out, _ = weft.sym._image_to_tensor(data).infer_shape(data=(2, 8, 6, 3))
    assert out == [(2, 3, 8, 6)]
    _, out, _ = weft.sym._image_resize(data, size=(4, 5)).infer_shape(data=(8, 6, 3))
    assert out == [(5, 4, 3)]
    _, out, _ = weft.sym._image_resize(data, size=(4,), keep_ratio=True).infer_shape(data=(8, 6, 3))
    assert out == [(5, 4, 3)]  # the short edge (width 6) becomes 4, height 8 * 4 // 6 = 5
    # Unknown input, known output: to_tensor infers the HWC input backward.
    t = weft.sym._image_to_tensor(data)
    g = weft.sym.elemwise_add(t, weft.sym.Variable("other"))
    arg, out, _ = g.infer_shape(other=(3, 8, 6))
    assert dict(zip(g.list_arguments(), arg))["data"] == (8, 6, 3)


def test_random_ops_reproduce_under_seed():
    x = nd.array(np.random.default_rng(3).integers(0, 256, (6, 7, 3)), dtype="uint8")
    for op, attrs in [("_image_random_color_jitter", dict(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1)),
                      ("_image_random_lighting", dict(alpha_std=0.2)),
                      ("_image_random_hue", dict(min_factor=-0.3, max_factor=0.3)),
                      ("_image_random_flip_left_right", {})]:
        weft.random.seed(7)
        a = getattr(img, op)(x, **attrs).asnumpy()
        weft.random.seed(7)
        b = getattr(img, op)(x, **attrs).asnumpy()
        np.testing.assert_array_equal(a, b, err_msg=op)


def test_random_flip_flips_about_half_the_time():
    x = nd.array(np.arange(12).reshape(1, 4, 3), dtype="float32")
    flipped = sum(int(img._image_random_flip_left_right(x).asnumpy()[0, 0, 0] != 0) for _ in range(400))
    assert 140 < flipped < 260, flipped


@pytest.mark.parametrize("call,words", [
    (lambda: img._image_to_tensor(nd.zeros((4, 5))), ["_image_to_tensor", "data", "(height, width, channels)"]),
    (lambda: img._image_crop(nd.zeros((4, 5, 3)), x=3, y=0, width=3, height=2), ["_image_crop", "does not fit"]),
    (lambda: img._image_resize(nd.zeros((4, 5, 3)), size=(2, 2), interp=3), ["_image_resize", "interp"]),
    (lambda: img._image_resize(nd.zeros((4, 5, 3)), size=(2, 2, 2)), ["_image_resize", "size"]),
    (lambda: img._image_normalize(nd.zeros((3, 4, 4)), mean=(0.1, 0.2)), ["_image_normalize", "mean"]),
    (lambda: img._image_normalize(nd.zeros((3, 4, 4), dtype="uint8")), ["_image_normalize", "uint8"]),
    (lambda: img._image_flip_left_right(nd.zeros((4, 5, 3), dtype="int32")), ["_image_flip_left_right", "int32"]),
    (lambda: img._image_adjust_lighting(nd.zeros((4, 5, 3)), alpha=(0.1, 0.2)), ["_image_adjust_lighting", "alpha"]),
    (lambda: img._image_random_brightness(nd.zeros((4, 5, 3))), ["_image_random_brightness", "min_factor"]),
    (lambda: img._image_to_tensor(nd.zeros((4, 5, 7))), ["_image_to_tensor", "channels"]),
])
def test_bad_input_names_op_and_argument(call, words):
    with pytest.raises(weft.base.WeftError) as e:
        call().wait_to_read()
    for w in words:
        assert w in str(e.value), (w, str(e.value))
