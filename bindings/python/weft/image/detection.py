"""Object-detection augmenters and ImageDetIter, as ``mxnet.image.detection``
in MXNet 1.9.1 (exported by ``mx.image`` and ``mx.npx.image``).

A detection label is a host NumPy array of shape (objects, 5+), each row
[class, xmin, ymin, xmax, ymax, ...] with coordinates normalised to [0, 1].
Augmenters take and return ``(image, label)``; image augmenters are borrowed
with DetBorrowAug. Random choices use Python's ``random`` module, as MXNet's
do (and as weft.image's augmenters do).

ImageDetIter reads the packed label format of MXNet's detection .rec/.lst
files: [header_width, object_width, (other header values), object rows...],
pads each batch's labels to the largest object count with -1 rows, and gives
labels of shape (batch, max_objects, object_width).
"""
# pylint: disable=invalid-name
import json
import logging
import random
import warnings
from math import sqrt
from numbers import Number

import numpy as np

from .. import ndarray as nd
from ..io import DataBatch
from .augmenters import (Augmenter, CastAug, ColorJitterAug, ColorNormalizeAug, ForceResizeAug, HueJitterAug,
                         LightingAug, RandomGrayAug, ResizeAug)
from .geometry import copyMakeBorder
from .image import fixed_crop
from .image_iter import ImageIter

__all__ = ["DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomCropAug",
           "DetRandomPadAug", "CreateMultiRandCropAugmenter", "CreateDetAugmenter", "ImageDetIter"]


class DetAugmenter:
    """Base class of detection augmenters: called on (image, label)."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        for k, v in self._kwargs.items():
            if isinstance(v, nd.NDArray):
                v = v.asnumpy()
            if isinstance(v, np.ndarray):
                self._kwargs[k] = v.tolist()

    def dumps(self):
        """The augmenter as a JSON string: [class name in lower case, its arguments]."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, src, label):
        raise NotImplementedError("%s must define __call__" % type(self).__name__)


class DetBorrowAug(DetAugmenter):
    """An image Augmenter applied to the image; the label is unchanged."""

    def __init__(self, augmenter):
        if not isinstance(augmenter, Augmenter):
            raise TypeError("DetBorrowAug: borrowing from invalid Augmenter %r" % (augmenter,))
        super().__init__(augmenter=augmenter.dumps())
        self.augmenter = augmenter

    def dumps(self):
        return [self.__class__.__name__.lower(), self.augmenter.dumps()]

    def __call__(self, src, label):
        return self.augmenter(src), label


class DetRandomSelectAug(DetAugmenter):
    """One augmenter of aug_list chosen at random, or none with probability skip_prob."""

    def __init__(self, aug_list, skip_prob=0):
        super().__init__(skip_prob=skip_prob)
        if not isinstance(aug_list, (list, tuple)):
            aug_list = [aug_list]
        for aug in aug_list:
            if not isinstance(aug, DetAugmenter):
                raise ValueError("DetRandomSelectAug: only DetAugmenters are allowed in aug_list, got %r" % (aug,))
        if not aug_list:
            skip_prob = 1  # nothing to choose from: always skip
        self.aug_list = list(aug_list)
        self.skip_prob = skip_prob

    def dumps(self):
        return [self.__class__.__name__.lower(), [x.dumps() for x in self.aug_list]]

    def __call__(self, src, label):
        if random.random() < self.skip_prob:
            return src, label
        random.shuffle(self.aug_list)
        return self.aug_list[0](src, label)


class DetHorizontalFlipAug(DetAugmenter):
    """Flips image and boxes left-right with probability p."""

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def __call__(self, src, label):
        if random.random() < self.p:
            src = nd.flip(src, axis=1)
            tmp = 1.0 - label[:, 1]
            label[:, 1] = 1.0 - label[:, 3]
            label[:, 3] = tmp
        return src, label


def _pair(v, what):
    if isinstance(v, (tuple, list)):
        return tuple(v)
    if not isinstance(v, Number):
        raise TypeError("%s must be a number or a (low, high) pair, got %r" % (what, v))
    return (v, v)


def _areas(boxes):
    """Areas of (n, 4) [xmin, ymin, xmax, ymax] boxes (0 for empty ones)."""
    return np.maximum(0, boxes[:, 3] - boxes[:, 1]) * np.maximum(0, boxes[:, 2] - boxes[:, 0])


class DetRandomCropAug(DetAugmenter):
    """A random crop (aspect ratio in aspect_ratio_range, area a fraction of the
    image in area_range) that covers at least min_object_covered of every
    object it touches; objects left with less than min_eject_coverage of
    their area are dropped. The image is unchanged when no crop is found in
    max_attempts tries or the ranges are invalid (a warning)."""

    def __init__(self, min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
                 min_eject_coverage=0.3, max_attempts=50):
        aspect_ratio_range = _pair(aspect_ratio_range, "DetRandomCropAug: aspect_ratio_range")
        area_range = _pair(area_range, "DetRandomCropAug: area_range")
        super().__init__(min_object_covered=min_object_covered, aspect_ratio_range=aspect_ratio_range,
                         area_range=area_range, min_eject_coverage=min_eject_coverage, max_attempts=max_attempts)
        self.min_object_covered = min_object_covered
        self.min_eject_coverage = min_eject_coverage
        self.max_attempts = max_attempts
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.enabled = False
        if area_range[1] <= 0 or area_range[0] > area_range[1]:
            warnings.warn("Skip DetRandomCropAug due to invalid area_range: %s" % (area_range,))
        elif aspect_ratio_range[0] > aspect_ratio_range[1] or aspect_ratio_range[0] <= 0:
            warnings.warn("Skip DetRandomCropAug due to invalid aspect_ratio_range: %s" % (aspect_ratio_range,))
        else:
            self.enabled = True

    def __call__(self, src, label):
        crop = self._random_crop_proposal(label, src.shape[0], src.shape[1])
        if crop:
            x, y, w, h, label = crop
            src = fixed_crop(src, x, y, w, h, None)
        return src, label

    @staticmethod
    def _intersect(boxes, xmin, ymin, xmax, ymax):
        left, right = np.maximum(boxes[:, 0], xmin), np.minimum(boxes[:, 2], xmax)
        top, bot = np.maximum(boxes[:, 1], ymin), np.minimum(boxes[:, 3], ymax)
        out = np.stack([left, top, right, bot], axis=1)
        out[np.logical_or(left >= right, top >= bot)] = 0
        return out

    def _check_satisfy_constraints(self, label, xmin, ymin, xmax, ymax, width, height):
        if (xmax - xmin) * (ymax - ymin) < 2:
            return False  # a crop of one pixel
        x1, y1, x2, y2 = xmin / width, ymin / height, xmax / width, ymax / height
        object_areas = _areas(label[:, 1:])
        valid = np.where(object_areas * width * height > 2)[0]
        if valid.size < 1:
            return False
        coverages = _areas(self._intersect(label[valid, 1:], x1, y1, x2, y2)) / object_areas[valid]
        coverages = coverages[coverages > 0]
        return coverages.size > 0 and np.amin(coverages) > self.min_object_covered

    def _update_labels(self, label, crop_box, height, width):
        xmin, ymin = crop_box[0] / width, crop_box[1] / height
        w, h = crop_box[2] / width, crop_box[3] / height
        out = label.copy()
        out[:, (1, 3)] -= xmin
        out[:, (2, 4)] -= ymin
        out[:, (1, 3)] /= w
        out[:, (2, 4)] /= h
        out[:, 1:5] = np.clip(out[:, 1:5], 0, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            coverage = _areas(out[:, 1:]) * w * h / _areas(label[:, 1:])
        valid = np.logical_and(out[:, 3] > out[:, 1], out[:, 4] > out[:, 2])
        valid = np.where(np.logical_and(valid, coverage > self.min_eject_coverage))[0]
        if valid.size < 1:
            return None
        return out[valid, :]

    def _random_crop_proposal(self, label, height, width):
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h = int(round(sqrt(min_area / ratio)))
            max_h = int(round(sqrt(max_area / ratio)))
            if round(max_h * ratio) > width:
                max_h = int((width + 0.4999999) / ratio)  # the largest max_h with round(max_h * ratio) <= width
            max_h = min(max_h, height)
            h = min(h, max_h)
            if h < max_h:
                h = random.randint(h, max_h)
            w = int(round(h * ratio))
            area = w * h
            if area < min_area:  # rounding: one row more or less
                h += 1
                w = int(round(h * ratio))
                area = w * h
            if area > max_area:
                h -= 1
                w = int(round(h * ratio))
                area = w * h
            if not (min_area <= area <= max_area and 0 <= w <= width and 0 <= h <= height):
                continue
            y = random.randint(0, max(0, height - h))
            x = random.randint(0, max(0, width - w))
            if self._check_satisfy_constraints(label, x, y, x + w, y + h, width, height):
                new_label = self._update_labels(label, (x, y, w, h), height, width)
                if new_label is not None:
                    return (x, y, w, h, new_label)
        return ()


class DetRandomPadAug(DetAugmenter):
    """Places the image at a random spot of a larger canvas (aspect ratio in
    aspect_ratio_range, area area_range times the image's) filled with pad_val;
    boxes are moved to match."""

    def __init__(self, aspect_ratio_range=(0.75, 1.33), area_range=(1.0, 3.0), max_attempts=50,
                 pad_val=(128, 128, 128)):
        if not isinstance(pad_val, (list, tuple)):
            if not isinstance(pad_val, Number):
                raise TypeError("DetRandomPadAug: pad_val must be a number or a tuple, got %r" % (pad_val,))
            pad_val = (pad_val,)
        aspect_ratio_range = _pair(aspect_ratio_range, "DetRandomPadAug: aspect_ratio_range")
        area_range = _pair(area_range, "DetRandomPadAug: area_range")
        super().__init__(aspect_ratio_range=aspect_ratio_range, area_range=area_range, max_attempts=max_attempts,
                         pad_val=pad_val)
        self.pad_val = pad_val
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.max_attempts = max_attempts
        self.enabled = False
        if area_range[1] <= 1.0 or area_range[0] > area_range[1]:
            warnings.warn("Skip DetRandomPadAug due to invalid parameters: %s" % (area_range,))
        elif aspect_ratio_range[0] <= 0 or aspect_ratio_range[0] > aspect_ratio_range[1]:
            warnings.warn("Skip DetRandomPadAug due to invalid aspect_ratio_range: %s" % (aspect_ratio_range,))
        else:
            self.enabled = True

    def __call__(self, src, label):
        height, width = src.shape[0], src.shape[1]
        pad = self._random_pad_proposal(label, height, width)
        if pad:
            x, y, w, h, label = pad
            src = copyMakeBorder(src, y, h - y - height, x, w - x - width, 16, values=self.pad_val)
        return src, label

    @staticmethod
    def _update_labels(label, pad_box, height, width):
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] * width + pad_box[0]) / pad_box[2]
        out[:, (2, 4)] = (out[:, (2, 4)] * height + pad_box[1]) / pad_box[3]
        return out

    def _random_pad_proposal(self, label, height, width):
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h = int(round(sqrt(min_area / ratio)))
            max_h = int(round(sqrt(max_area / ratio)))
            if round(h * ratio) < width:
                h = int((width + 0.499999) / ratio)
            h = min(max(h, height), max_h)
            if h < max_h:
                h = random.randint(h, max_h)
            w = int(round(h * ratio))
            if (h - height) < 2 or (w - width) < 2:
                continue  # a margin this thin is not worth padding
            y = random.randint(0, max(0, h - height))
            x = random.randint(0, max(0, w - width))
            return (x, y, w, h, self._update_labels(label, (x, y, w, h), height, width))
        return ()


def CreateMultiRandCropAugmenter(min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
                                 min_eject_coverage=0.3, max_attempts=50, skip_prob=0):
    """A DetRandomSelectAug over DetRandomCropAugs: each parameter may be a list
    (one crop augmenter per entry; single values are repeated)."""
    params = []
    num = 1
    for p in (min_object_covered, aspect_ratio_range, area_range, min_eject_coverage, max_attempts):
        p = p if isinstance(p, list) else [p]
        params.append(p)
        num = max(num, len(p))
    for k, p in enumerate(params):
        if len(p) != num:
            if len(p) != 1:
                raise ValueError("CreateMultiRandCropAugmenter: parameter lists must have one entry or %d" % num)
            params[k] = p * num
    augs = [DetRandomCropAug(min_object_covered=moc, aspect_ratio_range=arr, area_range=ar, min_eject_coverage=mec,
                             max_attempts=ma) for moc, arr, ar, mec, ma in zip(*params)]
    return DetRandomSelectAug(augs, skip_prob=skip_prob)


def CreateDetAugmenter(data_shape, resize=0, rand_crop=0, rand_pad=0, rand_gray=0, rand_mirror=False, mean=None,
                       std=None, brightness=0, contrast=0, saturation=0, pca_noise=0, hue=0, inter_method=2,
                       min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 3.0),
                       min_eject_coverage=0.3, max_attempts=50, pad_val=(127, 127, 127)):
    """MXNet's standard detection augmenter list for data_shape (C, H, W):
    resize, random crops (probability rand_crop), mirror, random padding
    (probability rand_pad), forced resize, cast, colour/hue/PCA jitter, gray,
    normalisation (mean/std True: ImageNet's values)."""
    auglist = []
    if resize > 0:
        auglist.append(DetBorrowAug(ResizeAug(resize, inter_method)))
    if rand_crop > 0:
        auglist.append(CreateMultiRandCropAugmenter(min_object_covered, aspect_ratio_range, area_range,
                                                    min_eject_coverage, max_attempts, skip_prob=(1 - rand_crop)))
    if rand_mirror > 0:
        auglist.append(DetHorizontalFlipAug(0.5))
    if rand_pad > 0:  # as late as possible: padding makes the image larger
        pad_aug = DetRandomPadAug(aspect_ratio_range, (1.0, area_range[1]), max_attempts, pad_val)
        auglist.append(DetRandomSelectAug([pad_aug], 1 - rand_pad))
    auglist.append(DetBorrowAug(ForceResizeAug((data_shape[2], data_shape[1]), inter_method)))
    auglist.append(DetBorrowAug(CastAug()))
    if brightness or contrast or saturation:
        auglist.append(DetBorrowAug(ColorJitterAug(brightness, contrast, saturation)))
    if hue:
        auglist.append(DetBorrowAug(HueJitterAug(hue)))
    if pca_noise > 0:
        eigval = np.array([55.46, 4.794, 1.148])
        eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
        auglist.append(DetBorrowAug(LightingAug(pca_noise, eigval, eigvec)))
    if rand_gray > 0:
        auglist.append(DetBorrowAug(RandomGrayAug(rand_gray)))
    if mean is True:
        mean = np.array([123.68, 116.28, 103.53])
    if std is True:
        std = np.array([58.395, 57.12, 57.375])
    for name, v in (("mean", mean), ("std", std)):
        if v is not None and not (isinstance(v, np.ndarray) and v.shape[0] in (1, 3)):
            raise ValueError("CreateDetAugmenter: %s must be True, None or a NumPy array of 1 or 3 values" % name)
    if mean is not None or std is not None:
        auglist.append(DetBorrowAug(ColorNormalizeAug(mean, std)))
    return auglist


class ImageDetIter(ImageIter):
    """Images and detection labels from a .rec file, an image list or imglist
    (as ImageIter), through detection augmenters (default
    CreateDetAugmenter(data_shape, **kwargs)); labels are (batch, max objects,
    object width), padded with -1 rows."""

    def __init__(self, batch_size, data_shape, path_imgrec=None, path_imglist=None, path_root=None,
                 path_imgidx=None, shuffle=False, part_index=0, num_parts=1, aug_list=None, imglist=None,
                 data_name="data", label_name="label", last_batch_handle="pad", **kwargs):
        super().__init__(batch_size=batch_size, data_shape=data_shape, path_imgrec=path_imgrec,
                         path_imglist=path_imglist, path_root=path_root, path_imgidx=path_imgidx, shuffle=shuffle,
                         part_index=part_index, num_parts=num_parts, aug_list=[], imglist=imglist,
                         data_name=data_name, label_name=label_name, last_batch_handle=last_batch_handle)
        self.auglist = CreateDetAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.label_shape = self._estimate_label_shape()
        self.provide_label = [(label_name, (self.batch_size,) + self.label_shape)]

    @staticmethod
    def _check_valid_label(label):
        if len(label.shape) != 2 or label.shape[1] < 5:
            raise RuntimeError("Label with shape (1+, 5+) required, %s received." % str(label))
        valid = np.logical_and(label[:, 0] >= 0, np.logical_and(label[:, 3] > label[:, 1], label[:, 4] > label[:, 2]))
        if not np.any(valid):
            raise RuntimeError("Invalid label occurs.")

    def _estimate_label_shape(self):
        """(max objects, object width) over the whole data set (one pass)."""
        max_count, width = 0, None
        self.reset()
        try:
            while True:
                label, _ = self.next_sample()
                label = self._parse_label(label)
                max_count, width = max(max_count, label.shape[0]), label.shape[1]
        except StopIteration:
            pass
        self.reset()
        if width is None:
            raise RuntimeError("ImageDetIter: the data set has no samples")
        return (max_count, width)

    @staticmethod
    def _parse_label(label):
        """The packed label [header_width, object_width, ..., objects] as (objects, object_width), valid boxes only."""
        raw = (label.asnumpy() if isinstance(label, nd.NDArray) else np.asarray(label, dtype=np.float32)).ravel()
        if raw.size < 7:
            raise RuntimeError("Label shape is invalid: " + str(raw.shape))
        header_width, obj_width = int(raw[0]), int(raw[1])
        if header_width < 2 or obj_width < 5 or (raw.size - header_width) % obj_width != 0:
            raise RuntimeError("Label shape %s inconsistent with annotation width %d." % (str(raw.shape), obj_width))
        out = np.reshape(raw[header_width:], (-1, obj_width))
        valid = np.where(np.logical_and(out[:, 3] > out[:, 1], out[:, 4] > out[:, 2]))[0]
        if valid.size < 1:
            raise RuntimeError("Encounter sample with no valid label.")
        return out[valid, :]

    def reshape(self, data_shape=None, label_shape=None):
        """Changes the data shape (C, H, W) and/or the label shape (objects, width)."""
        if data_shape is not None:
            self.check_data_shape(data_shape)
            self.provide_data = [(self.provide_data[0][0], (self.batch_size,) + tuple(data_shape))]
            self.data_shape = tuple(data_shape)
        if label_shape is not None:
            self.check_label_shape(label_shape)
            self.provide_label = [(self.provide_label[0][0], (self.batch_size,) + tuple(label_shape))]
            self.label_shape = tuple(label_shape)

    def check_label_shape(self, label_shape):
        """A new label shape may only grow the object count and must keep the width."""
        if len(label_shape) != 2:
            raise ValueError("label_shape should have length 2")
        if label_shape[0] < self.label_shape[0]:
            raise ValueError("Attempts to reduce label count from %d to %d, not allowed."
                             % (self.label_shape[0], label_shape[0]))
        if label_shape[1] != self.provide_label[0][1][2]:
            raise ValueError("label_shape object width inconsistent: %d vs %d."
                             % (self.provide_label[0][1][2], label_shape[1]))

    def _batchify(self, batch_data, batch_label, start=0):
        i = start
        try:
            while i < self.batch_size:
                label, s = self.next_sample()
                data = self.imdecode(s)
                try:
                    self.check_valid_image([data])
                    label = self._parse_label(label)
                    data, label = self.augmentation_transform(data, label)
                    self._check_valid_label(label)
                except RuntimeError as e:
                    logging.debug("Invalid image, skipping: %s", e)
                    continue
                batch_data[i] = self.postprocess_data(data).asnumpy()
                n = min(label.shape[0], batch_label.shape[1])
                batch_label[i] = -1
                batch_label[i, :n] = label[:n]
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def next(self):
        c, h, w = self.data_shape
        if self._cache_data is not None:
            batch_data, batch_label, i = self._cache_data, self._cache_label, self._cache_idx
        else:
            batch_data = np.zeros((self.batch_size, c, h, w), dtype=np.float32)
            batch_label = np.full(self.provide_label[0][1], -1, dtype=np.float32)
            i = self._batchify(batch_data, batch_label)
        pad = self.batch_size - i
        if pad != 0:
            if self.last_batch_handle == "discard":
                raise StopIteration
            if self.last_batch_handle == "roll_over" and self._cache_data is None:
                self._cache_data, self._cache_label, self._cache_idx = batch_data, batch_label, i
                raise StopIteration
            self._batchify(batch_data, batch_label, i)
            if self.last_batch_handle == "pad":
                self._allow_read = False
            else:
                self._cache_data = self._cache_label = self._cache_idx = None
        return DataBatch([nd.array(batch_data)], [nd.array(batch_label)], pad=pad)

    def augmentation_transform(self, data, label):  # pylint: disable=arguments-differ
        """(data, label) through every detection augmenter."""
        for aug in self.auglist:
            data, label = aug(data, label)
        return data, label

    def sync_label_shape(self, it, verbose=False):
        """Grows this iterator's and it's label shapes to the same object count; returns it."""
        if not isinstance(it, ImageDetIter):
            raise TypeError("sync_label_shape: synchronize with invalid iterator %r" % (it,))
        mine, theirs = self.label_shape, it.label_shape
        if mine[1] != theirs[1]:
            raise ValueError("sync_label_shape: object width mismatch (%d vs %d)" % (mine[1], theirs[1]))
        max_count = max(mine[0], theirs[0])
        if max_count > mine[0]:
            self.reshape(None, (max_count, mine[1]))
        if max_count > theirs[0]:
            it.reshape(None, (max_count, theirs[1]))
        if verbose and max_count > min(mine[0], theirs[0]):
            logging.info("Resized label_shape to (%d, %d).", max_count, mine[1])
        return it
