"""MNISTIter: MXNet 1.x's iterator over the MNIST idx files."""
import logging

import numpy as np

from .. import ndarray as nd
from ..base import WeftIOError
from .base import BatchIter, DataBatch, DataDesc, ignore_unknown
from .idx_format import read_idx

__all__ = ["MNISTIter"]


class MNISTIter(BatchIter):
    """Batches of the MNIST idx files ``image`` and ``label`` (plain or gzip).

    As MXNet's: pixels are scaled by 1/256; data is (batch, 1, rows, cols), or
    (batch, rows * cols) with ``flat``; labels are float32 (batch,); the last
    batch is dropped when it would be short; ``shuffle`` (default True)
    permutes the samples once, when the iterator is made, with ``seed``;
    ``num_parts`` / ``part_index`` read the contiguous share
    [count / num_parts * part_index, count / num_parts * (part_index + 1)).
    The shuffled order is numpy's RandomState(seed) permutation, not the
    std::shuffle order MXNet's C++ produces."""

    def __init__(self, image="./train-images-idx3-ubyte", label="./train-labels-idx1-ubyte", batch_size=128,
                 shuffle=True, flat=False, seed=0, silent=False, num_parts=1, part_index=0, prefetch_buffer=4,
                 data_name="data", label_name="softmax_label", **kwargs):  # pylint: disable=unused-argument
        super().__init__(batch_size)
        if kwargs:
            ignore_unknown("MNISTIter", kwargs)
        if batch_size < 1:
            raise ValueError("MNISTIter: batch_size must be at least 1, got %d" % batch_size)
        if num_parts <= 0 or not 0 <= part_index < num_parts:
            raise ValueError("MNISTIter: part_index must be in [0, num_parts), got part_index=%d, num_parts=%d"
                             % (part_index, num_parts))
        images = read_idx(image)
        labels = read_idx(label)
        if images.ndim != 3:
            raise WeftIOError("MNISTIter: %s holds a %d-d array, an image file is 3-d (count, rows, cols)"
                              % (image, images.ndim))
        if labels.ndim != 1:
            raise WeftIOError("MNISTIter: %s holds a %d-d array, a label file is 1-d" % (label, labels.ndim))
        if len(labels) != len(images):
            raise WeftIOError("MNISTIter: %s has %d images but %s has %d labels"
                              % (image, len(images), label, len(labels)))
        count = len(images)
        start = int(count / num_parts * part_index)
        stop = int(count / num_parts * (part_index + 1))
        images = images[start:stop].astype(np.float32) * np.float32(1.0 / 256.0)
        labels = labels[start:stop].astype(np.float32)
        if shuffle:
            order = np.random.RandomState(seed).permutation(len(images))
            images, labels = images[order], labels[order]
        rows, cols = images.shape[1:]
        self._images = images.reshape(-1, rows * cols) if flat else images.reshape(-1, 1, rows, cols)
        self._labels = labels
        self._loc = 0
        self.current_batch = None
        self.provide_data = [DataDesc(data_name, (batch_size,) + self._images.shape[1:], np.float32)]
        self.provide_label = [DataDesc(label_name, (batch_size,), np.float32)]
        if not silent:
            logging.info("MNISTIter: load %d images, shuffle=%d, shape=%s", len(images), int(shuffle),
                         self.provide_data[0].shape)

    def reset(self):
        self._loc = 0

    def iter_next(self):
        if self._loc + self.batch_size > len(self._images):
            return False
        s = slice(self._loc, self._loc + self.batch_size)
        self.current_batch = DataBatch([nd.array(self._images[s])], [nd.array(self._labels[s])], pad=0,
                                       index=np.arange(s.start, s.stop, dtype=np.uint64))
        self._loc += self.batch_size
        return True

    def getpad(self):
        return 0
