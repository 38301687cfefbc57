"""weft.image: image decoding, resizing, cropping, augmenters and ImageIter,
as ``mxnet.image`` in MXNet 1.x (OpenCV decodes and resizes)."""
from .image import (center_crop, color_normalize, fixed_crop, imdecode, imread, imresize, random_crop,
                    random_size_crop, resize_short, scale_down)
from .augmenters import (Augmenter, BrightnessJitterAug, CastAug, CenterCropAug, ColorJitterAug, ColorNormalizeAug,
                         ContrastJitterAug, CreateAugmenter, ForceResizeAug, HorizontalFlipAug, HueJitterAug,
                         LightingAug, RandomCropAug, RandomGrayAug, RandomOrderAug, RandomSizedCropAug, ResizeAug,
                         SaturationJitterAug, SequentialAug)
from .image_iter import ImageIter

__all__ = ["imread", "imdecode", "imresize", "scale_down", "resize_short", "fixed_crop", "random_crop",
           "center_crop", "color_normalize", "random_size_crop", "Augmenter", "SequentialAug", "ResizeAug",
           "ForceResizeAug", "RandomCropAug", "RandomSizedCropAug", "CenterCropAug", "RandomOrderAug",
           "BrightnessJitterAug", "ContrastJitterAug", "SaturationJitterAug", "HueJitterAug", "ColorJitterAug",
           "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug", "CastAug", "CreateAugmenter",
           "ImageIter"]
