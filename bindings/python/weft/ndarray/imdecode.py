"""``weft.nd.imdecode``: MXNet 1.x's deprecated decoder (``mx.nd.imdecode``), kept
for old scripts; new code uses ``weft.image.imdecode``. Decodes a JPEG/PNG
buffer with OpenCV (as weft.image does), crops it to ``clip_rect``, subtracts
``mean`` and returns float32 (channels, height, width), or writes that into
``out`` (3-D) or into ``out[index]`` (4-D)."""
import numpy as np

from ..base import InvalidArgumentError, ShapeError
from ..image_decode import imdecode_numpy
from .creation import array
from .ndarray_class import NDArray

__all__ = ["imdecode"]


def imdecode(str_img, clip_rect=(0, 0, 0, 0), out=None, index=0, channels=3, mean=None):
    """DEPRECATED, use weft.image.imdecode. Decodes an image buffer to a float32
    (channels, height, width) NDArray.

    Parameters
    ----------
    str_img : bytes
        The encoded image.
    clip_rect : (x0, y0, x1, y1)
        The box to keep (x1 and y1 exclusive); (0, 0, 0, 0) keeps the whole image.
    out : NDArray, optional
        (c, h, w), or (n, c, h, w) written at ``index``.
    channels : int
        3 (RGB) or 1 (gray).
    mean : NDArray, optional
        (c, h, w) subtracted from the result.
    """
    if channels not in (1, 3):
        raise InvalidArgumentError("imdecode: channels must be 1 or 3, got %r" % (channels,))
    img = imdecode_numpy(str_img, flag=1 if channels == 3 else 0, to_rgb=True)
    if img.ndim == 2:
        img = img[:, :, None]
    x0, y0, x1, y1 = (int(v) for v in clip_rect)
    if (x1, y1) != (0, 0):
        if not (0 <= x0 < x1 <= img.shape[1] and 0 <= y0 < y1 <= img.shape[0]):
            raise InvalidArgumentError("imdecode: clip_rect %s does not fit an image of height %d and width %d"
                                       % (tuple(clip_rect), img.shape[0], img.shape[1]))
        img = img[y0:y1, x0:x1]
    chw = np.ascontiguousarray(img.transpose(2, 0, 1), dtype=np.float32)
    if mean is not None:
        m = mean.asnumpy() if isinstance(mean, NDArray) else np.asarray(mean, np.float32)
        if m.shape != chw.shape:
            raise ShapeError("imdecode: mean has shape %s, the decoded image %s" % (m.shape, chw.shape))
        chw = chw - m
    if out is None:
        return array(chw, dtype="float32")
    target = out[index] if out.ndim == 4 else out
    if target.shape != chw.shape:
        raise ShapeError("imdecode: out%s has shape %s, the decoded image %s"
                         % ("[%d]" % index if out.ndim == 4 else "", target.shape, chw.shape))
    target[:] = chw
    return out
