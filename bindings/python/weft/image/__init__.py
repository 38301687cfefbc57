"""weft.image: image decoding, resizing, cropping, augmenters and ImageIter,
as ``mxnet.image`` in MXNet 1.x (OpenCV decodes and resizes).

``weft.image.MAX_IMAGE_PIXELS``: the most pixels (height x width) an image may
have to be decoded, by weft.image and by the C++ ImageRecordIter, as Pillow's
``PIL.Image.MAX_IMAGE_PIXELS``. Until it is assigned it reads the environment
variable WEFT_MAX_IMAGE_PIXELS, else 2^28 (16384 x 16384); a larger image, or
one whose data cannot hold the size its header claims, raises WeftIOError
before anything is allocated for it (Note [Image pixel budget])."""
from .image import (center_crop, color_normalize, fixed_crop, imdecode, imread, imresize, random_crop,
                    random_size_crop, resize_short, scale_down)
from .augmenters import (Augmenter, BrightnessJitterAug, CastAug, CenterCropAug, ColorJitterAug, ColorNormalizeAug,
                         ContrastJitterAug, CreateAugmenter, ForceResizeAug, HorizontalFlipAug, HueJitterAug,
                         LightingAug, RandomCropAug, RandomGrayAug, RandomOrderAug, RandomSizedCropAug, ResizeAug,
                         SaturationJitterAug, SequentialAug)
from .image_iter import ImageIter
from .geometry import copyMakeBorder, imrotate, random_rotate
from .detection import (CreateDetAugmenter, CreateMultiRandCropAugmenter, DetAugmenter, DetBorrowAug,
                        DetHorizontalFlipAug, DetRandomCropAug, DetRandomPadAug, DetRandomSelectAug, ImageDetIter)
from . import header as _header


def __getattr__(name):
    # MAX_IMAGE_PIXELS, until assigned, follows WEFT_MAX_IMAGE_PIXELS (PEP 562).
    if name == "MAX_IMAGE_PIXELS":
        return _header.max_pixels_from_env()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))

__all__ = ["imread", "imdecode", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop",
           "center_crop", "color_normalize", "random_size_crop", "Augmenter", "SequentialAug", "ResizeAug",
           "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug", "CenterCropAug", "RandomOrderAug",
           "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug", "HueJitterAug", "ColorJitterAug",
           "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug", "CastAug", "CreateAugmenter",
           "ImageIter", "copyMakeBorder", "imrotate", "random_rotate", "DetAugmenter", "DetBorrowAug",
           "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomCropAug", "DetRandomPadAug",
           "CreateMultiRandCropAugmenter", "CreateDetAugmenter", "ImageDetIter"]
