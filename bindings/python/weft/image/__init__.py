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
import sys as _sys
import types as _types
from .. import image_decode as _image_decode


class _ImageModule(_types.ModuleType):
    """weft.image's module type: MAX_IMAGE_PIXELS is a property over the budget setting that
    weft/image_decode.py keeps for every decoder (Note [Image pixel budget attribute]); until
    assigned it follows WEFT_MAX_IMAGE_PIXELS."""

    @property
    def MAX_IMAGE_PIXELS(self):  # pylint: disable=invalid-name
        return _image_decode.budget_setting()

    @MAX_IMAGE_PIXELS.setter
    def MAX_IMAGE_PIXELS(self, value):  # pylint: disable=invalid-name
        _image_decode.assign_budget(value)

    @MAX_IMAGE_PIXELS.deleter
    def MAX_IMAGE_PIXELS(self):  # pylint: disable=invalid-name
        _image_decode.unassign_budget()


_sys.modules[__name__].__class__ = _ImageModule

__all__ = ["imread", "imdecode", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop",
           "center_crop", "color_normalize", "random_size_crop", "Augmenter", "SequentialAug", "ResizeAug",
           "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug", "CenterCropAug", "RandomOrderAug",
           "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug", "HueJitterAug", "ColorJitterAug",
           "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug", "CastAug", "CreateAugmenter",
           "ImageIter", "copyMakeBorder", "imrotate", "random_rotate", "DetAugmenter", "DetBorrowAug",
           "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomCropAug", "DetRandomPadAug",
           "CreateMultiRandCropAugmenter", "CreateDetAugmenter", "ImageDetIter"]
