"""Decoding an encoded image to a host numpy array with OpenCV, after image_header.py's checks
against the pixel budget, and the budget setting itself (weft.image.MAX_IMAGE_PIXELS).

This is the layer under weft.image, weft.io's record iterators and weft.nd.imdecode, which all
decode through it; it imports none of them, nor weft.ndarray (issue 36 point 4).

Note [Image pixel budget attribute]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Users set the budget as an attribute of the package, ``weft.image.MAX_IMAGE_PIXELS = n`` (as
Pillow's ``PIL.Image.MAX_IMAGE_PIXELS``), and unset it with ``del``. The decoders here sit below
weft.image, so they cannot read the package; weft.image's module type makes the attribute a
property over the setting kept here (``_ASSIGNED``), read by every decoder.
"""
import numpy as np

from . import image_header as header
from .base import WeftIOError

__all__ = ["cv2_module", "imdecode_numpy", "max_image_pixels"]

_ASSIGNED = []  # [value] once weft.image.MAX_IMAGE_PIXELS is assigned (Note [Image pixel budget attribute])


def cv2_module():
    """OpenCV, or an ImportError that says how to install it."""
    try:
        # OpenCV is imported when an image is first decoded: it is large, and weft imports without it.
        import cv2  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise ImportError("weft.image needs OpenCV: pip install opencv-python-headless") from None
    return cv2


def budget_setting():
    """weft.image.MAX_IMAGE_PIXELS as it reads: the value assigned, unchecked, else
    WEFT_MAX_IMAGE_PIXELS, else 2^28."""
    return _ASSIGNED[0] if _ASSIGNED else header.max_pixels_from_env()


def assign_budget(value):
    """``weft.image.MAX_IMAGE_PIXELS = value`` (checked when an image is decoded, as before)."""
    _ASSIGNED[:] = [value]


def unassign_budget():
    """``del weft.image.MAX_IMAGE_PIXELS``: back to the environment variable."""
    if not _ASSIGNED:
        raise AttributeError("MAX_IMAGE_PIXELS")
    del _ASSIGNED[:]


def max_image_pixels():
    """The pixel budget now: weft.image.MAX_IMAGE_PIXELS when set, else
    WEFT_MAX_IMAGE_PIXELS, else 2^28 (Note [Image pixel budget])."""
    return header.checked_budget(budget_setting())


def _decode_numpy(buf, flag, to_rgb, what):
    cv2 = cv2_module()
    arr = np.frombuffer(buf, dtype=np.uint8) if not isinstance(buf, np.ndarray) else buf.reshape(-1)
    if arr.dtype != np.uint8:
        arr = arr.astype(np.uint8)
    arr = np.ascontiguousarray(arr)
    header.check_image_data(memoryview(arr), what, max_image_pixels())
    try:
        img = cv2.imdecode(arr, cv2.IMREAD_COLOR if flag else cv2.IMREAD_GRAYSCALE) if arr.size else None
        if img is not None and img.ndim == 3 and to_rgb:
            img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    except cv2.error as e:  # OpenCV's own checks (its size limit, a codec's exception)
        raise WeftIOError("Decoding failed: %s: OpenCV: %s" % (what, str(e).strip())) from None
    if img is None:
        raise WeftIOError("Decoding failed: %s is not an image OpenCV can decode (%d bytes)" % (what, arr.size))
    if img.ndim == 2:
        img = img[:, :, None]
    return img


def imdecode_numpy(buf, flag=1, to_rgb=True, what="the buffer"):
    """imdecode's result as a numpy array (HWC uint8), for code that stays on the host."""
    return _decode_numpy(buf, flag, to_rgb, what)
