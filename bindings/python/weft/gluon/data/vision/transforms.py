"""Image transforms, as ``mxnet.gluon.data.vision.transforms`` in MXNet 1.x.

Images are HWC (or NHWC) NDArrays, uint8 or float, until ToTensor makes
them CHW (NCHW) float32 in [0, 1). MXNet runs these on its ``image``
operators; weft has none yet, so they are written with weft's NDArray ops
(cast, transpose, broadcast arithmetic, slicing) and, for resizing, with
OpenCV through weft.image. They work in DataLoader workers (Note [DataLoader
workers]). Cast, ToTensor and Normalize are HybridBlocks that also compose
into a graph (hybridized, ToTensor expects one HWC image); the random ones
are Blocks that draw from Python's ``random`` / numpy's ``np.random``
(seeded per DataLoader worker), so ``Compose`` leaves them out of the
hybridized runs, as it does any Block. As in MXNet 1.9, arguments after the
image (a label) are passed through unchanged: ``t(img, label)`` returns
``(t(img), label)``.
"""
import random

import numpy as np

from .... import image
from .... import ndarray as nd
from ....ndarray import NDArray
from ....symbol import Symbol
from ...block import Block, HybridBlock
from ...nn import HybridSequential, Sequential

__all__ = ["Compose", "HybridCompose", "Cast", "ToTensor", "Normalize", "Resize", "CenterCrop", "RandomResizedCrop",
           "RandomCrop", "RandomFlipLeftRight", "RandomFlipTopBottom", "RandomBrightness", "RandomContrast",
           "RandomSaturation", "RandomHue", "RandomColorJitter", "RandomLighting"]

_NUMBERS = (int, float, np.number)
_GRAY = np.array([0.299, 0.587, 0.114], dtype=np.float32)
_EIGVAL = np.array([55.46, 4.794, 1.148])
_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009],
                    [-0.5808, -0.0045, -0.8140],
                    [-0.5836, -0.6948, 0.4203]])


def _append_return(*args):
    """One value, or a tuple of several (MXNet's helper of the same name)."""
    return args[0] if len(args) == 1 else tuple(args)


class _PassArgs:
    """A transform of the image ``x``; further arguments (a label, ...) are
    returned after it unchanged, as MXNet 1.9's transforms do, so
    ``dataset.transform(Compose([...]))`` works on (image, label) samples."""

    def forward(self, x, *args):  # pylint: disable=arguments-differ
        return _append_return(self._apply(x), *args)

    def _apply(self, x):
        raise NotImplementedError


class _HybridPassArgs:
    """_PassArgs for HybridBlocks: the image goes through hybrid_forward (or
    the cached graph), the other arguments around it."""

    def forward(self, x, *args):  # pylint: disable=arguments-differ
        return _append_return(super().forward(x), *args)


class _HybridRun(_HybridPassArgs, HybridSequential):
    """A hybridized run of consecutive HybridBlock transforms inside Compose."""


class Compose(Sequential):
    """The transforms in order; runs of consecutive HybridBlocks are grouped
    into a hybridized HybridSequential, as MXNet does."""

    def __init__(self, transforms):
        super().__init__()
        transforms = list(transforms) + [None]
        hybrid = []
        for t in transforms:
            if isinstance(t, HybridBlock):
                hybrid.append(t)
                continue
            if len(hybrid) == 1:
                self.add(hybrid[0])
            elif len(hybrid) > 1:
                block = _HybridRun()
                for h in hybrid:
                    block.add(h)
                block.hybridize()
                self.add(block)
            hybrid = []
            if t is not None:
                self.add(t)


class HybridCompose(_HybridPassArgs, HybridSequential):
    """The transforms (all HybridBlocks) in order, hybridized."""

    def __init__(self, transforms):
        super().__init__()
        for t in transforms:
            if not isinstance(t, HybridBlock):
                raise ValueError("{} is not a HybridBlock, try use `Compose` instead".format(t))
            self.add(t)
        self.hybridize()


class Cast(HybridBlock):
    """Casts the input(s) to ``dtype``."""

    def __init__(self, dtype="float32"):
        super().__init__()
        self._dtype = dtype

    def forward(self, *args):  # pylint: disable=arguments-differ
        # each NDArray argument is cast on its own (a label too, as MXNet's Cast); others pass
        return _append_return(*[super(Cast, self).forward(a) if isinstance(a, (NDArray, Symbol)) else a
                                for a in args])

    def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
        return F.cast(x, dtype=self._dtype)


class ToTensor(_HybridPassArgs, HybridBlock):
    """HWC (or NHWC) in [0, 255] to CHW (NCHW) float32 in [0, 1): x / 255."""

    def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
        if isinstance(x, NDArray):
            if x.ndim not in (3, 4):
                raise ValueError("ToTensor expects an HWC or NHWC image, got shape %s" % (x.shape,))
            axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
        else:
            axes = (2, 0, 1)
        return F.transpose(F.cast(x, dtype="float32"), axes=axes) / 255.0


def _per_channel(values, what):
    if isinstance(values, _NUMBERS):
        return (float(values),)
    values = tuple(float(v) for v in values)
    if not values:
        raise ValueError("Normalize: %s is empty" % what)
    return values


class Normalize(_HybridPassArgs, HybridBlock):
    """(x - mean[c]) / std[c] for each channel c of a CHW or NCHW tensor; a
    single number applies to every channel."""

    def __init__(self, mean=0.0, std=1.0):
        super().__init__()
        self._mean = _per_channel(mean, "mean")
        self._std = _per_channel(std, "std")

    def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
        channels = max(len(self._mean), len(self._std))
        if channels == 1:
            return (x - self._mean[0]) / self._std[0]
        mean = self._mean * channels if len(self._mean) == 1 else self._mean
        std = self._std * channels if len(self._std) == 1 else self._std
        if isinstance(x, NDArray):
            if x.ndim < 3 or x.shape[-3] != channels:
                raise ValueError("Normalize: %d means/stds given, the input %s does not have %d channels (axis -3)"
                                 % (channels, x.shape, channels))
            shape = (channels, 1, 1)
            m = nd.array(np.asarray(mean, dtype=np.float32).reshape(shape), ctx=x.context)
            s = nd.array(np.asarray(std, dtype=np.float32).reshape(shape), ctx=x.context)
            return F.broadcast_div(F.broadcast_sub(x, m), s)
        # in a graph the constants are per-channel slices: (x[c] - mean) / std, then joined
        axis = -3
        parts = [(F.slice_axis(x, axis=axis, begin=c, end=c + 1) - mean[c]) / std[c] for c in range(channels)]
        return F.concat(*parts, dim=axis)


def _size_pair(size):
    return (int(size), int(size)) if isinstance(size, _NUMBERS) else tuple(int(s) for s in size)


def _each_image(x, fn):
    """fn on an HWC image, or on each image of an NHWC batch."""
    if x.ndim == 4:
        return nd.stack(*[fn(x[i]) for i in range(x.shape[0])], axis=0)
    if x.ndim != 3:
        raise ValueError("expected an HWC or NHWC image, got shape %s" % (x.shape,))
    return fn(x)


class Resize(_PassArgs, Block):
    """Resizes to ``size`` (w, h), or (size, size) for a number; with
    ``keep_ratio`` and a number, the shorter side becomes ``size``."""

    def __init__(self, size, keep_ratio=False, interpolation=1):
        super().__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def _target(self, h, w):
        if isinstance(self._size, _NUMBERS):
            if not self._keep:
                return int(self._size), int(self._size)
            if h > w:
                return int(self._size), int(h * self._size / w)
            return int(w * self._size / h), int(self._size)
        return _size_pair(self._size)

    def _apply(self, x):
        def one(img):
            w, h = self._target(img.shape[0], img.shape[1])
            return image.imresize(img, w, h, self._interpolation)
        return _each_image(x, one)


class CenterCrop(_PassArgs, Block):
    """The centre crop of ``size`` (w, h), or (size, size) for a number,
    resized to it when the image is smaller."""

    def __init__(self, size, interpolation=1):
        super().__init__()
        self._args = (_size_pair(size), interpolation)

    def _apply(self, x):
        return _each_image(x, lambda img: image.center_crop(img, *self._args)[0])


class RandomResizedCrop(_PassArgs, Block):
    """A crop of random area (fraction ``scale`` of the image) and aspect
    ratio (``ratio``, log-uniform), resized to ``size``."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        super().__init__()
        if isinstance(scale, _NUMBERS):
            scale = (scale, 1.0)
        self._args = (_size_pair(size), scale, ratio, interpolation)

    def _apply(self, x):
        return _each_image(x, lambda img: image.random_size_crop(img, *self._args)[0])


class RandomCrop(_PassArgs, Block):
    """A random crop of ``size`` (w, h), after padding with ``pad_value``:
    ``pad`` a number pads every side by it, (top, bottom, left, right) each
    side by its own amount (MXNet's forms)."""

    def __init__(self, size, pad=None, pad_value=0, interpolation=1):
        super().__init__()
        self._args = (_size_pair(size), interpolation)
        if isinstance(pad, _NUMBERS):
            pad = ((int(pad), int(pad)), (int(pad), int(pad)), (0, 0))
        elif pad is not None:
            if len(pad) < 4:
                raise ValueError("RandomCrop: pad must be a number or (top, bottom, left, right), got %r" % (pad,))
            pad = ((int(pad[0]), int(pad[1])), (int(pad[2]), int(pad[3])), (0, 0))
        self._pad = pad
        self._pad_value = pad_value

    def _apply(self, x):
        def one(img):
            if self._pad:
                padded = np.pad(img.asnumpy(), self._pad, mode="constant", constant_values=self._pad_value)
                img = nd.array(padded, dtype=padded.dtype)
            return image.random_crop(img, *self._args)[0]
        return _each_image(x, one)


class RandomFlipLeftRight(_PassArgs, Block):
    """Mirrors the image left-right with probability ``p`` (0.5)."""

    def __init__(self, p=0.5):
        super().__init__()
        self._p = p

    def _apply(self, x):
        if self._p >= 1 or (self._p > 0 and random.random() < self._p):
            return x[:, :, ::-1] if x.ndim == 4 else x[:, ::-1]
        return x


class RandomFlipTopBottom(_PassArgs, Block):
    """Flips the image top-bottom with probability ``p`` (0.5)."""

    def __init__(self, p=0.5):
        super().__init__()
        self._p = p

    def _apply(self, x):
        if self._p >= 1 or (self._p > 0 and random.random() < self._p):
            return x[:, ::-1] if x.ndim == 4 else x[::-1]
        return x


def _finish(out, like):
    """The float result in the input's dtype (uint8: rounded and clipped to
    0..255, as OpenCV's saturate_cast)."""
    if like.dtype == np.uint8:
        return nd.clip(nd.round(out), 0, 255).astype(np.uint8)
    return out.astype(like.dtype) if out.dtype != like.dtype else out


def _gray(x):
    """The gray level 0.299 R + 0.587 G + 0.114 B of each pixel (HWC, keepdims)."""
    return nd.sum(nd.broadcast_mul(x, nd.array(_GRAY.reshape(1, 1, 3), ctx=x.context)), axis=-1, keepdims=True)


def adjust_brightness(x, alpha):
    """x * alpha."""
    return _finish(x.astype(np.float32) * alpha, x)


def adjust_contrast(x, alpha):
    """x * alpha + (1 - alpha) * the image's mean gray level."""
    f = x.astype(np.float32)
    mean = nd.mean(_gray(f))
    return _finish(nd.broadcast_add(f * alpha, mean * (1.0 - alpha)), x)


def adjust_saturation(x, alpha):
    """x * alpha + (1 - alpha) * each pixel's gray level."""
    f = x.astype(np.float32)
    return _finish(nd.broadcast_add(f * alpha, _gray(f) * (1.0 - alpha)), x)


def adjust_hue(x, alpha):
    """Rotates the hue by alpha * 360 degrees in HLS space, as MXNet's
    AdjustHueImpl (an HWC RGB image in 0..255; uint8 results saturate)."""
    cv2 = image.image.cv2_module()
    if x.shape[-1] != 3:
        return x
    rgb = x.asnumpy().astype(np.float32) / 255.0
    hls = cv2.cvtColor(rgb.reshape(-1, 1, 3), cv2.COLOR_RGB2HLS)
    hls[..., 0] = np.mod(hls[..., 0] + np.float32(alpha * 360.0), 360.0)
    out = cv2.cvtColor(hls, cv2.COLOR_HLS2RGB).reshape(rgb.shape) * 255.0
    return _finish(nd.array(out, ctx=x.context), x)


def _factor_range(value, what):
    if value < 0:
        raise ValueError("%s must be non-negative, got %s" % (what, value))
    return max(0.0, 1.0 - value), 1.0 + value


class RandomBrightness(_PassArgs, Block):
    """x * U(max(0, 1 - brightness), 1 + brightness)."""

    def __init__(self, brightness):
        super().__init__()
        self._args = _factor_range(brightness, "brightness")

    def _apply(self, x):
        return adjust_brightness(x, random.uniform(*self._args))


class RandomContrast(_PassArgs, Block):
    """Contrast scaled by U(max(0, 1 - contrast), 1 + contrast) around the mean gray level."""

    def __init__(self, contrast):
        super().__init__()
        self._args = _factor_range(contrast, "contrast")

    def _apply(self, x):
        return adjust_contrast(x, random.uniform(*self._args))


class RandomSaturation(_PassArgs, Block):
    """Saturation scaled by U(max(0, 1 - saturation), 1 + saturation) around each pixel's gray level."""

    def __init__(self, saturation):
        super().__init__()
        self._args = _factor_range(saturation, "saturation")

    def _apply(self, x):
        return adjust_saturation(x, random.uniform(*self._args))


class RandomHue(_PassArgs, Block):
    """Hue rotated by U(max(0, 1 - hue), 1 + hue) * 360 degrees (that is, by
    up to hue * 360 either way), as MXNet's random_hue."""

    def __init__(self, hue):
        super().__init__()
        self._args = _factor_range(hue, "hue")

    def _apply(self, x):
        return adjust_hue(x, random.uniform(*self._args))


class RandomColorJitter(_PassArgs, Block):
    """Brightness, contrast, saturation and hue jitter (those > 0) in a random
    order, as MXNet's random_color_jitter: factors 1 + U(-v, v) for the first
    three, a hue rotation of U(-hue, hue) * 360 degrees."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__()
        for name, value in (("brightness", brightness), ("contrast", contrast), ("saturation", saturation),
                            ("hue", hue)):
            if value < 0:
                raise ValueError("%s must be non-negative, got %s" % (name, value))
        self._jitters = [(v, fn, shift) for v, fn, shift in ((brightness, adjust_brightness, 1.0),
                                                            (contrast, adjust_contrast, 1.0),
                                                            (saturation, adjust_saturation, 1.0),
                                                            (hue, adjust_hue, 0.0))]

    def _apply(self, x):
        order = list(self._jitters)
        random.shuffle(order)
        for value, fn, shift in order:
            if value > 0:
                x = fn(x, shift + random.uniform(-value, value))
        return x


class RandomLighting(_PassArgs, Block):
    """AlexNet's PCA lighting noise: x + eigvec @ (eigval * N(0, alpha)) per pixel."""

    def __init__(self, alpha):
        super().__init__()
        self._alpha = alpha

    def _apply(self, x):
        if self._alpha == 0:
            return x
        noise = np.random.normal(0, self._alpha, size=(3,))
        rgb = np.dot(_EIGVEC * noise, _EIGVAL).astype(np.float32)
        return _finish(nd.broadcast_add(x.astype(np.float32), nd.array(rgb, ctx=x.context)), x)
