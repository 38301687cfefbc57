"""Image decoding, resizing and cropping, as ``mxnet.image`` in MXNet 1.x.

Images are NDArrays in HWC layout (uint8 after decoding, RGB by default).
Decoding and resizing use OpenCV (``cv2``), as MXNet's ``_cvimdecode`` /
``_cvimresize`` operators do; crops are NDArray slices. Random choices use
Python's ``random`` module, as MXNet's do, so ``random.seed`` makes them
reproducible.

Before OpenCV decodes a JPEG, PNG, BMP or WebP, its header is read and
checked against the pixel budget ``weft.image.MAX_IMAGE_PIXELS`` (default: the
environment variable WEFT_MAX_IMAGE_PIXELS, else 2^28), and a JPEG's or PNG's
data against the size the header claims (Note [Reading headers in Python] in
``weft/image_header.py``): an image over the budget, truncated, or that OpenCV cannot
decode raises WeftIOError naming the buffer, file or record. The decoding to host
arrays itself is weft/image_decode.py's, which weft.io and weft.nd.imdecode use too.
"""
import os
import random
import warnings

import numpy as np

from .. import ndarray as nd
from ..base import WeftIOError
from ..image_decode import _decode_numpy, cv2_module, imdecode_numpy, max_image_pixels  # noqa: F401
from ..ndarray import NDArray

__all__ = ["imread", "imdecode", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop",
           "center_crop", "color_normalize", "random_size_crop"]


def imdecode(buf, flag=1, to_rgb=True, out=None):
    """Decodes a JPEG/PNG/... buffer (bytes, bytearray, numpy uint8 array or
    NDArray) to an HWC uint8 NDArray: 3 channels (RGB when ``to_rgb``, else BGR)
    when ``flag`` is 1, 1 channel (gray) when ``flag`` is 0."""
    if isinstance(buf, NDArray):
        buf = buf.asnumpy()
    elif not isinstance(buf, (bytes, bytearray, memoryview, np.ndarray)):
        raise ValueError("buf must be of type bytes, bytearray or numpy.ndarray,"
                         "if you would like to input type str, please convert to bytes")
    img = nd.array(_decode_numpy(buf, flag, to_rgb, "the buffer"), dtype=np.uint8)
    if out is not None:
        img.copyto(out)
        return out
    return img


def imread(filename, flag=1, to_rgb=True, out=None):
    """Reads and decodes an image file (as imdecode)."""
    filename = os.fspath(filename)
    try:
        with open(filename, "rb") as f:
            buf = f.read()
    except FileNotFoundError:
        raise WeftIOError("imread: no such file: %s" % filename) from None
    img = nd.array(_decode_numpy(buf, flag, to_rgb, filename), dtype=np.uint8)
    if out is not None:
        img.copyto(out)
        return out
    return img


def _as_numpy(src):
    return src.asnumpy() if isinstance(src, NDArray) else np.asarray(src)


def resize_numpy(img, w, h, interp=1):
    """img (HWC numpy) resized to w x h with OpenCV's interpolation ``interp``."""
    cv2 = cv2_module()
    if w <= 0 or h <= 0:
        raise ValueError("imresize: the target size must be positive, got %dx%d" % (w, h))
    dtype = img.dtype
    work = img if dtype in (np.uint8, np.float32, np.float64, np.uint16, np.int16) else img.astype(np.float32)
    out = cv2.resize(work, (int(w), int(h)), interpolation=int(interp))
    if out.ndim == 2:
        out = out[:, :, None]
    return out.astype(dtype, copy=False)


def imresize(src, w, h, interp=1, out=None):
    """src (HWC) resized to width ``w`` and height ``h``; ``interp`` as OpenCV:
    0 nearest, 1 bilinear, 2 bicubic, 3 area, 4 Lanczos."""
    res = resize_numpy(_as_numpy(src), w, h, _get_interp_method(interp))
    res = nd.array(res, dtype=res.dtype)
    if out is not None:
        res.copyto(out)
        return out
    return res


def scale_down(src_size, size):
    """The crop size ``size`` (w, h) scaled down to fit in ``src_size`` (w, h),
    keeping its aspect ratio."""
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def _get_interp_method(interp, sizes=()):
    """MXNet's interpolation codes: 0-4 as OpenCV; 9 picks by the resize
    direction (area to shrink, cubic to enlarge, else bilinear); 10 a random one."""
    if interp == 9:
        if sizes:
            assert len(sizes) == 4
            oh, ow, nh, nw = sizes
            if nh > oh and nw > ow:
                return 2
            if nh < oh and nw < ow:
                return 3
            return 1
        return 2
    if interp == 10:
        return random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError("Unknown interp method %d" % interp)
    return interp


def resize_short(src, size, interp=2):
    """src resized so that its shorter side is ``size``."""
    h, w = src.shape[0], src.shape[1]
    if h > w:
        new_h, new_w = size * h // w, size
    else:
        new_h, new_w = size, size * w // h
    return imresize(src, new_w, new_h, interp=_get_interp_method(interp, (h, w, new_h, new_w)))


def fixed_crop(src, x0, y0, w, h, size=None, interp=2):
    """The w x h region of src at (x0, y0), resized to ``size`` (w, h) when given."""
    if isinstance(src, NDArray):
        out = src[y0:y0 + h, x0:x0 + w]
    else:
        out = nd.array(np.ascontiguousarray(np.asarray(src)[y0:y0 + h, x0:x0 + w]), dtype=np.asarray(src).dtype)
    if size is not None and (w, h) != tuple(size):
        sizes = (h, w, size[1], size[0])
        out = imresize(out, *size, interp=_get_interp_method(interp, sizes))
    return out


def random_crop(src, size, interp=2):
    """A random crop of ``size`` (w, h; scaled down to fit src), resized to
    ``size``. Returns (image, (x0, y0, w, h))."""
    h, w = src.shape[0], src.shape[1]
    new_w, new_h = scale_down((w, h), size)
    x0 = random.randint(0, w - new_w)
    y0 = random.randint(0, h - new_h)
    out = fixed_crop(src, x0, y0, new_w, new_h, size, interp)
    return out, (x0, y0, new_w, new_h)


def center_crop(src, size, interp=2):
    """The centre crop of ``size`` (w, h; scaled down to fit src), resized to
    ``size``. Returns (image, (x0, y0, w, h))."""
    h, w = src.shape[0], src.shape[1]
    new_w, new_h = scale_down((w, h), size)
    x0 = int((w - new_w) / 2)
    y0 = int((h - new_h) / 2)
    out = fixed_crop(src, x0, y0, new_w, new_h, size, interp)
    return out, (x0, y0, new_w, new_h)


def color_normalize(src, mean, std=None):
    """(src - mean) / std, in place on src as MXNet does (src must be float)."""
    if mean is not None:
        src -= mean
    if std is not None:
        src /= std
    return src


def random_size_crop(src, size, area, ratio, interp=2, **kwargs):
    """A crop of random area (fraction of the source in ``area``, a number
    meaning (area, 1.0)) and aspect ratio (log-uniform in ``ratio``), resized
    to ``size``; after 10 tries that do not fit, the centre crop. Returns
    (image, (x0, y0, w, h))."""
    h, w = src.shape[0], src.shape[1]
    src_area = h * w
    if "min_area" in kwargs:
        warnings.warn("`min_area` is deprecated. Please use `area` instead.", DeprecationWarning)
        area = kwargs.pop("min_area")
    if kwargs:
        raise TypeError("unexpected keyword arguments for `random_size_crop`: %s" % sorted(kwargs))
    if isinstance(area, (int, float)):
        area = (area, 1.0)
    for _ in range(10):
        target_area = random.uniform(area[0], area[1]) * src_area
        log_ratio = (np.log(ratio[0]), np.log(ratio[1]))
        new_ratio = np.exp(random.uniform(*log_ratio))
        new_w = int(round(np.sqrt(target_area * new_ratio)))
        new_h = int(round(np.sqrt(target_area / new_ratio)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            out = fixed_crop(src, x0, y0, new_w, new_h, size, interp)
            return out, (x0, y0, new_w, new_h)
    return center_crop(src, size, interp)
