"""Cases for the image family (weft.nd.image; core/op/image), references written
from MXNet 1.9.1's definitions (src/operator/image): images are HWC (or NHWC
batches), uint8 results are clamped to [0, 255] and truncated.

Random augmentations are checked with factor ranges of one value (then they
are deterministic: random_brightness(min_factor=max_factor=1.5) is x * 1.5), or
by a property every draw has (a random flip is the image or its mirror)."""
import numpy as np

from .case import Case

F32, F64, U8 = np.float32, np.float64, np.uint8
EIGVAL = np.array([55.46, 4.794, 1.148], np.float32)
EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]], np.float32)


def _img(shape, dtype):
    def make(rng):
        if dtype == U8:
            return [rng.integers(0, 256, size=shape).astype(U8)]
        return [rng.uniform(0, 255, size=shape).astype(dtype)]
    return make


def _sat(v, dtype):
    """MXNet's saturate_cast."""
    v = np.asarray(v, np.float32)
    if dtype == U8:
        return np.clip(v, 0, 255).astype(U8)
    return v.astype(dtype)


def _gray(x):
    x = x.astype(np.float32)
    return 0.299 * x[..., 0] + 0.587 * x[..., 1] + 0.114 * x[..., 2]


def _to_tensor(x):
    axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
    return (x.astype(np.float32) / 255.0).transpose(axes).astype(np.float32)


def _normalize(x, mean, std):
    c = x.shape[-3]
    m = np.resize(np.asarray(mean, x.dtype), c) if len(mean) == 1 else np.asarray(mean[:c], x.dtype)
    s = np.resize(np.asarray(std, x.dtype), c) if len(std) == 1 else np.asarray(std[:c], x.dtype)
    return ((x - m[:, None, None]) / s[:, None, None]).astype(x.dtype)


def _contrast(x, alpha):
    mean = (_gray(x) if x.shape[-1] == 3 else x[..., 0].astype(np.float32)).reshape(x.shape[0] if x.ndim == 4 else 1, -1).mean(axis=1).astype(np.float32)
    mean = mean.reshape((-1, 1, 1, 1) if x.ndim == 4 else ())
    return _sat(x.astype(np.float32) * alpha + (1 - alpha) * mean, x.dtype)


def _saturation(x, alpha):
    gray = (1 - alpha) * _gray(x)[..., None]
    return _sat(gray + x.astype(np.float32) * alpha, x.dtype)


def _lighting(x, alpha):
    off = EIGVEC @ (np.asarray(alpha, np.float32) * EIGVAL)
    return _sat(x.astype(np.float32) + off, x.dtype)


def _linear_taps(n_out, n_in):
    s = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    s = np.maximum(s, 0)
    i0 = np.floor(s).astype(int)
    f = s - i0
    last = i0 >= n_in - 1
    i0 = np.minimum(i0, n_in - 1)
    f[last] = 0
    return i0, np.minimum(i0 + 1, n_in - 1), f.astype(np.float32)


def _resize(x, size, keep_ratio=False, interp=1):
    h, w = x.shape[-3], x.shape[-2]
    if len(size) == 2:
        ow, oh = size
    elif not keep_ratio:
        oh = ow = size[0]
    elif h > w:
        ow, oh = size[0], h * size[0] // w
    else:
        oh, ow = size[0], w * size[0] // h
    if interp == 0:
        ys = np.minimum(np.floor(np.arange(oh) * (h / oh)).astype(int), h - 1)
        xs = np.minimum(np.floor(np.arange(ow) * (w / ow)).astype(int), w - 1)
        return x[..., ys, :, :][..., :, xs, :]
    y0, y1, fy = _linear_taps(oh, h)
    x0, x1, fx = _linear_taps(ow, w)
    v = x.astype(np.float32)
    fx_ = fx[:, None]
    top = v[..., y0, :, :][..., :, x0, :] * (1 - fx_) + v[..., y0, :, :][..., :, x1, :] * fx_
    bot = v[..., y1, :, :][..., :, x0, :] * (1 - fx_) + v[..., y1, :, :][..., :, x1, :] * fx_
    fy_ = fy[:, None, None]
    out = top * (1 - fy_) + bot * fy_
    if x.dtype == U8:
        return np.clip(out + 0.5, 0, 255).astype(U8)
    return out.astype(x.dtype)


def _hls_hue_check(outs, xs, attrs):
    """random_hue with factor 0 keeps the image (up to the HLS round trip)."""
    np.testing.assert_allclose(outs[0].astype(np.float32), xs[0].astype(np.float32), atol=1.01)


def _flip_either(axis):
    def check(outs, xs, _attrs):
        x, y = xs[0], outs[0]
        ax = axis + (x.ndim - 3)
        assert np.array_equal(y, x) or np.array_equal(y, np.flip(x, ax)), "neither the image nor its mirror"
    return check


def _jitter_brightness_check(outs, xs, _attrs):
    """Only brightness jitter: y = x * a for one a in [0.7, 1.3] (float pixels, no clamp)."""
    x, y = xs[0].astype(np.float64), outs[0].astype(np.float64)
    ratio = y[x > 1] / x[x > 1]
    assert 0.7 - 1e-5 <= ratio.min() and ratio.max() <= 1.3 + 1e-5, (ratio.min(), ratio.max())
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-5)


def _lighting_check(outs, xs, attrs):
    """Each channel moved by one offset, which lies in the PCA span (float pixels)."""
    d = (outs[0].astype(np.float64) - xs[0].astype(np.float64)).reshape(-1, 3)
    np.testing.assert_allclose(d, np.broadcast_to(d[0], d.shape), atol=1e-3)
    alpha = np.linalg.solve(EIGVEC.astype(np.float64), d[0]) / EIGVAL
    assert np.all(np.abs(alpha) < 6 * attrs["alpha_std"]), alpha


class _FactorCase(Case):
    def __init__(self, ref, name, value, dtype, shape):
        super().__init__(inputs=_img(shape, dtype), attrs=dict(min_factor=value, max_factor=value),
                         ref=lambda x: ref(x, value), name=name, rtol=1e-5,
                         atol=1.01 if dtype == U8 else 1e-3)


CASES = {
    "_image_to_tensor": [
        Case(inputs=_img((4, 5, 3), U8), ref=_to_tensor, name="uint8 HWC"),
        Case(inputs=_img((2, 4, 5, 1), F32), ref=_to_tensor, name="float32 NHWC"),
    ],
    "_image_normalize": [
        Case(inputs=lambda rng: [rng.uniform(0, 1, (3, 4, 5)).astype(F32)],
             attrs=dict(mean=(0.1, 0.2, 0.3), std=(0.5, 1.0, 2.0)),
             ref=lambda x: _normalize(x, (0.1, 0.2, 0.3), (0.5, 1.0, 2.0)), name="CHW"),
        Case(inputs=lambda rng: [rng.uniform(0, 1, (2, 1, 3, 3)).astype(F64)], attrs=dict(mean=(0.5,), std=(0.25,)),
             ref=lambda x: _normalize(x, (0.5,), (0.25,)), rtol=1e-12, atol=1e-12, name="NCHW float64 scalar"),
        Case(inputs=lambda rng: [rng.uniform(0, 1, (3, 2, 2)).astype(F32)], ref=lambda x: x, name="defaults"),
    ],
    "_backward_image_normalize": [
        Case(inputs=lambda rng: [rng.uniform(-1, 1, (3, 2, 4)).astype(F32)], attrs=dict(std=(0.5, 1.0, 2.0)),
             ref=lambda g: (g / np.array([0.5, 1.0, 2.0], F32)[:, None, None]).astype(F32)),
    ],
    "_image_flip_left_right": [
        Case(inputs=_img((3, 5, 3), U8), ref=lambda x: np.flip(x, 1), name="HWC odd width"),
        Case(inputs=_img((2, 3, 4, 1), F32), ref=lambda x: np.flip(x, 2), name="NHWC"),
    ],
    "_image_flip_top_bottom": [
        Case(inputs=_img((5, 2, 3), U8), ref=lambda x: np.flip(x, 0), name="HWC"),
        Case(inputs=_img((2, 4, 3, 3), F64), ref=lambda x: np.flip(x, 1), rtol=0, atol=0, name="NHWC"),
    ],
    "_image_random_flip_left_right": [Case(inputs=_img((4, 5, 3), U8), check=_flip_either(1))],
    "_image_random_flip_top_bottom": [Case(inputs=_img((2, 5, 4, 3), F32), check=_flip_either(0))],
    "_image_random_brightness": [
        _FactorCase(lambda x, a: _sat(x.astype(np.float32) * a, x.dtype), "uint8 x1.5 clamps", 1.5, U8, (4, 5, 3)),
        _FactorCase(lambda x, a: _sat(x.astype(np.float32) * a, x.dtype), "float32 x0.5", 0.5, F32, (2, 3, 4, 3)),
    ],
    "_image_random_contrast": [
        _FactorCase(_contrast, "uint8", 0.6, U8, (4, 5, 3)),
        _FactorCase(_contrast, "float32 batch", 1.4, F32, (2, 3, 3, 3)),
        _FactorCase(_contrast, "gray", 0.5, F32, (4, 4, 1)),
    ],
    "_image_random_saturation": [
        _FactorCase(_saturation, "uint8", 0.3, U8, (4, 5, 3)),
        _FactorCase(_saturation, "float32", 1.7, F32, (3, 3, 3)),
        _FactorCase(lambda x, a: x, "gray is copied", 0.3, F32, (3, 3, 1)),
    ],
    "_image_random_hue": [
        Case(inputs=_img((4, 5, 3), U8), attrs=dict(min_factor=0.0, max_factor=0.0), check=_hls_hue_check,
             name="zero rotation"),
        # A half turn of hue maps pure red (255, 0, 0) to cyan (0, 255, 255).
        Case(inputs=[np.array([[[255, 0, 0], [0, 255, 0]]], F32)], attrs=dict(min_factor=0.5, max_factor=0.5),
             ref=lambda x: np.array([[[0, 255, 255], [255, 0, 255]]], F32), atol=1e-3, name="half turn"),
    ],
    "_image_random_color_jitter": [
        Case(inputs=_img((4, 5, 3), F32), attrs=dict(brightness=0.3, contrast=0, saturation=0, hue=0),
             check=_jitter_brightness_check, name="brightness only"),
        Case(inputs=_img((4, 5, 3), U8), attrs=dict(brightness=0, contrast=0, saturation=0, hue=0),
             ref=lambda x: x, name="no jitter is a copy"),
    ],
    "_image_adjust_lighting": [
        Case(inputs=_img((4, 5, 3), F32), attrs=dict(alpha=(0.1, -0.2, 0.3)),
             ref=lambda x: _lighting(x, (0.1, -0.2, 0.3)), atol=1e-3, name="float32"),
        Case(inputs=_img((2, 3, 3, 3), U8), attrs=dict(alpha=(0.5, 0.5, 0.5)),
             ref=lambda x: _lighting(x, (0.5, 0.5, 0.5)), atol=1.01, name="uint8 batch"),
    ],
    "_image_random_lighting": [
        Case(inputs=_img((4, 5, 3), F32), attrs=dict(alpha_std=0.1), check=_lighting_check),
    ],
    "_image_resize": [
        Case(inputs=_img((5, 7, 3), F32), attrs=dict(size=(4, 3)), ref=lambda x: _resize(x, (4, 3)),
             atol=1e-3, name="bilinear down (width, height)"),
        Case(inputs=_img((3, 4, 1), F32), attrs=dict(size=(9,)), ref=lambda x: _resize(x, (9,)), atol=1e-3,
             name="bilinear up, both edges"),
        Case(inputs=_img((2, 6, 4, 3), U8), attrs=dict(size=(2,), keep_ratio=True),
             ref=lambda x: _resize(x, (2,), keep_ratio=True), atol=1.01, name="uint8 batch keep_ratio"),
        Case(inputs=_img((5, 6, 3), U8), attrs=dict(size=(4, 7), interp=0), ref=lambda x: _resize(x, (4, 7), interp=0),
             atol=0, name="nearest"),
    ],
    "_image_crop": [
        Case(inputs=_img((5, 6, 3), U8), attrs=dict(x=1, y=2, width=3, height=2),
             ref=lambda x: x[2:4, 1:4, :], atol=0, name="HWC"),
        Case(inputs=_img((2, 4, 4, 1), F32), attrs=dict(x=0, y=0, width=4, height=1),
             ref=lambda x: x[:, 0:1, 0:4, :], name="NHWC"),
    ],
    "_backward_image_crop": [
        Case(inputs=lambda rng: [rng.uniform(-1, 1, (2, 3, 3)).astype(F32), np.zeros((5, 6, 3), F32)],
             attrs=dict(x=1, y=2, width=3, height=2),
             ref=lambda g, d: np.pad(g, ((2, 1), (1, 2), (0, 0))).astype(F32)),
    ],
}
