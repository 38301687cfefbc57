"""Borders and rotations of images, as ``mxnet.image``'s ``copyMakeBorder``,
``imrotate`` and ``random_rotate`` in MXNet 1.9.1.

``copyMakeBorder`` pads an HWC image with OpenCV's border modes on the host, as
MXNet's ``_cvcopyMakeBorder`` operator does. ``imrotate`` follows MXNet's
Python implementation: a sampling grid rotated about the image centre (and
scaled for ``zoom_in``/``zoom_out``) fed to the ``BilinearSampler`` operator,
so the result is differentiable with respect to the image. The grid is built
on the host with NumPy (it depends only on the angles and the image size);
a gradient with respect to the angles, which MXNet's all-NDArray version
would give, is therefore not recorded.
"""
from numbers import Number

import numpy as np

from .. import ndarray as nd
from ..ndarray import NDArray
from .image import cv2_module, max_image_pixels

__all__ = ["copyMakeBorder", "imrotate", "random_rotate"]


# pylint: disable-next=invalid-name,redefined-builtin  # MXNet's name and its OpenCV-style `type` argument
def copyMakeBorder(src, top, bot, left, right, type=0, value=0.0, values=(), out=None):
    """src (HWC) with top/bot/left/right rows and columns added, filled by OpenCV
    border mode ``type`` (0 constant, 1 replicate, 2 reflect, 3 wrap, 4
    reflect_101; | 16 for BORDER_ISOLATED) with ``values`` (one per channel) or ``value`` for constant
    borders. The result must fit the image pixel budget (MAX_IMAGE_PIXELS)."""
    if not isinstance(src, NDArray):
        raise TypeError("copyMakeBorder: src must be an NDArray, got %s" % src.__class__.__name__)
    if src.ndim not in (2, 3):
        raise ValueError("copyMakeBorder: src must be an HWC or HW image, got shape %s" % (src.shape,))
    sizes = {"top": top, "bot": bot, "left": left, "right": right}
    for k, v in sizes.items():
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0:
            raise ValueError("copyMakeBorder: %s must be a non-negative int, got %r" % (k, v))
    # OpenCV's border types 0-4, optionally with the BORDER_ISOLATED flag (16), as MXNet's
    # DetRandomPadAug passes it.
    if not isinstance(type, (int, np.integer)) or isinstance(type, bool) or (int(type) & ~16) not in (0, 1, 2, 3, 4):
        raise ValueError("copyMakeBorder: type must be an OpenCV border type 0-4 (optionally | 16), got %r"
                         % (type,))
    h, w = src.shape[0] + top + bot, src.shape[1] + left + right
    if h * w > max_image_pixels():
        raise ValueError("copyMakeBorder: the result (%d x %d) exceeds the image pixel budget %d"
                         % (h, w, max_image_pixels()))
    fill = tuple(float(v) for v in values) if len(values) else (float(value),) * 4
    img = src.asnumpy()
    res = cv2_module().copyMakeBorder(img, int(top), int(bot), int(left), int(right), int(type), value=fill)
    if res.ndim == 2 and src.ndim == 3:
        res = res[:, :, None]
    res = nd.array(res, ctx=src.context, dtype=img.dtype)
    if out is not None:
        res.copyto(out)
        return out
    return res


def _rotation_grid(angles_rad, h, w, zoom_in, zoom_out):
    """(N, 2, h, w) float32 sampling grid in [-1, 1] coordinates (MXNet's imrotate)."""
    hscale, wscale = (h - 1) / 2.0, (w - 1) / 2.0
    hm = np.repeat(np.arange(h, dtype=np.float64).reshape(h, 1), w, axis=1) - hscale
    wm = np.repeat(np.arange(w, dtype=np.float64).reshape(1, w), h, axis=0) - wscale
    a = angles_rad.reshape(-1, 1, 1)
    c, s = np.cos(a), np.sin(a)
    # Normalise after rotating, to keep the aspect ratio.
    w_rot = (wm * c - hm * s) / wscale if wscale else np.zeros_like(a * wm)
    h_rot = (wm * s + hm * c) / hscale if hscale else np.zeros_like(a * hm)
    scale = np.ones_like(a)
    if zoom_in or zoom_out:
        rho, ang = np.sqrt(h * h + w * w), np.arctan(h / w)
        x1, y1 = np.abs(rho * np.cos(ang + np.abs(a))), np.abs(rho * np.sin(ang + np.abs(a)))
        x2, y2 = np.abs(rho * np.cos(ang - np.abs(a))), np.abs(rho * np.sin(ang - np.abs(a)))
        max_x, max_y = np.maximum(x1, x2), np.maximum(y1, y2)
        scale = np.maximum(max_x / w, max_y / h) if zoom_out else np.minimum(w / max_x, h / max_y)
    grid = np.stack([w_rot * scale, h_rot * scale], axis=1)
    return grid.astype(np.float32)


def imrotate(src, rotation_degrees, zoom_in=False, zoom_out=False):
    """src (CHW, or NCHW for a batch; float32) rotated by rotation_degrees
    (a number, or one angle per image for a batch) about its centre, bilinear,
    zero outside. zoom_in scales so that no padding shows, zoom_out so that
    the whole source stays in view (not both)."""
    if zoom_in and zoom_out:
        raise ValueError("imrotate: `zoom_in` and `zoom_out` cannot be both True")
    if not isinstance(src, NDArray):
        raise TypeError("imrotate: src must be an NDArray, got %s" % type(src).__name__)
    if src.dtype != np.float32:
        raise TypeError("imrotate: only `float32` images are supported by this function")
    expanded = src.ndim == 3
    if expanded:
        if not isinstance(rotation_degrees, Number):
            raise TypeError("imrotate: when a single image is passed the rotation angle is required to be a scalar")
        src = src.expand_dims(axis=0)
    elif src.ndim != 4:
        raise ValueError("imrotate: only 3D (CHW) and 4D (NCHW) images are supported, got %dD" % src.ndim)
    n, _, h, w = src.shape
    if isinstance(rotation_degrees, Number):
        angles = np.full((n,), float(rotation_degrees))
    else:
        angles = rotation_degrees.asnumpy() if isinstance(rotation_degrees, NDArray) else np.asarray(rotation_degrees)
        angles = angles.astype(np.float64).ravel()
        if angles.size != n:
            raise ValueError("imrotate: the number of images (%d) must be equal to the number of rotation angles "
                             "(%d)" % (n, angles.size))
    grid = nd.array(_rotation_grid(np.pi * angles / 180.0, h, w, zoom_in, zoom_out), ctx=src.context)
    rot = nd.BilinearSampler(src, grid)
    return rot[0] if expanded else rot


def random_rotate(src, angle_limits, zoom_in=False, zoom_out=False):
    """imrotate by an angle drawn uniformly from angle_limits (low, high) degrees,
    one per image of a batch; drawn with NumPy's global generator, as MXNet."""
    if src.ndim == 3:
        degrees = float(np.random.uniform(*angle_limits))
    else:
        degrees = np.random.uniform(*angle_limits, size=src.shape[0])
    return imrotate(src, degrees, zoom_in=zoom_in, zoom_out=zoom_out)
