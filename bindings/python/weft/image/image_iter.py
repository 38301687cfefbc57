"""ImageIter: batches of images from a RecordIO file or an image list, with
augmenters, as ``mxnet.image.ImageIter`` in MXNet 1.x."""
import logging
import os
import random

import numpy as np

from .. import ndarray as nd
from .. import recordio
from ..base import WeftIOError
from ..io import DataBatch, DataIter
from .augmenters import CreateAugmenter
from .image import imdecode

__all__ = ["ImageIter"]


class ImageIter(DataIter):
    """Images from ``path_imgrec`` (with ``path_imgidx`` for shuffling and
    sharding), from ``path_imglist`` (``index\\tlabel...\\tpath`` lines, files
    under ``path_root``) or from ``imglist`` ([label..., path] items), run
    through ``aug_list`` (default ``CreateAugmenter(data_shape, **kwargs)``)
    and batched as (batch, C, H, W) float32 with labels (batch,) or
    (batch, label_width). ``last_batch_handle``: 'pad' (the last batch filled
    from the start), 'discard' or 'roll_over' (the short batch continues into
    the next epoch). Records that do not decode raise an error naming the
    record; an image whose label width differs from ``label_width`` too."""

    def __init__(self, batch_size, data_shape, label_width=1, path_imgrec=None, path_imglist=None, path_root=None,
                 path_imgidx=None, shuffle=False, part_index=0, num_parts=1, aug_list=None, imglist=None,
                 data_name="data", label_name="softmax_label", dtype="float32", last_batch_handle="pad", **kwargs):
        super().__init__()
        assert path_imgrec or path_imglist or isinstance(imglist, list), \
            "ImageIter needs path_imgrec, path_imglist or imglist"
        assert dtype in ["int32", "float32", "int64", "float64"], dtype + " label not supported"
        if last_batch_handle not in ("pad", "discard", "roll_over"):
            raise ValueError("last_batch_handle must be 'pad', 'discard' or 'roll_over', got %r" % last_batch_handle)
        class_name = self.__class__.__name__
        self.path_imgrec = path_imgrec
        if path_imgrec:
            logging.info("%s: loading recordio %s...", class_name, path_imgrec)
            if path_imgidx:
                self.imgrec = recordio.MXIndexedRecordIO(path_imgidx, path_imgrec, "r")
                self.imgidx = list(self.imgrec.keys)
            else:
                self.imgrec = recordio.MXRecordIO(path_imgrec, "r")
                self.imgidx = None
        else:
            self.imgrec = None
        imgkeys = None
        if path_imglist:
            logging.info("%s: loading image list %s...", class_name, path_imglist)
            self.imglist, imgkeys = self._read_list(path_imglist, dtype)
        elif isinstance(imglist, list):
            result, imgkeys = {}, []
            for index, img in enumerate(imglist, 1):
                key = str(index)
                if len(img) > 2:
                    label = nd.array(img[:-1], dtype=dtype)
                elif isinstance(img[0], (int, float, np.number)):
                    label = nd.array([img[0]], dtype=dtype)
                else:
                    label = nd.array(img[0], dtype=dtype)
                result[key] = (label, img[-1])
                imgkeys.append(key)
            self.imglist = result
        else:
            self.imglist = None
        self.path_root = path_root
        self.check_data_shape(data_shape)
        self.provide_data = [(data_name, (batch_size,) + tuple(data_shape))]
        if label_width > 1:
            self.provide_label = [(label_name, (batch_size, label_width))]
        else:
            self.provide_label = [(label_name, (batch_size,))]
        self.batch_size = batch_size
        self.data_shape = tuple(data_shape)
        self.label_width = label_width
        self.shuffle = shuffle
        if self.imgrec is None:
            self.seq = imgkeys
        elif shuffle or num_parts > 1 or path_imgidx:
            if self.imgidx is None:
                raise ValueError("ImageIter: shuffle and num_parts > 1 need path_imgidx (the .idx of %s)"
                                 % path_imgrec)
            self.seq = self.imgidx
        else:
            self.seq = None
        if num_parts > 1:
            assert part_index < num_parts
            n = len(self.seq)
            c = n // num_parts
            self.seq = self.seq[part_index * c:(part_index + 1) * c]
        self.auglist = CreateAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.cur = 0
        self._records_read = 0  # records read sequentially since the last reset: names a record in errors
        self._allow_read = True
        self.last_batch_handle = last_batch_handle
        self.num_image = len(self.seq) if self.seq is not None else None
        self._cache_data = None
        self._cache_label = None
        self._cache_idx = None
        self.reset()

    @staticmethod
    def _read_list(path, dtype):
        imglist, keys = {}, []
        try:
            fin = open(path)
        except FileNotFoundError:
            raise WeftIOError("ImageIter: no such image list: %s" % path) from None
        with fin:
            for lineno, line in enumerate(iter(fin.readline, ""), 1):
                fields = line.strip().split("\t")
                if len(fields) < 3:
                    raise WeftIOError("%s: line %d is not 'index<TAB>label...<TAB>path': %r" % (path, lineno, line))
                try:
                    label = nd.array([float(x) for x in fields[1:-1]], dtype=dtype)
                    key = int(fields[0])
                except ValueError:
                    raise WeftIOError("%s: line %d has a non-numeric index or label: %r" % (path, lineno, line)) \
                        from None
                imglist[key] = (label, fields[-1])
                keys.append(key)
        return imglist, keys

    def reset(self):
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.last_batch_handle != "roll_over" or self._cache_data is None:
            if self.imgrec is not None:
                self.imgrec.reset()
                self._records_read = 0
            self.cur = 0
            self._allow_read = True

    def hard_reset(self):
        """Goes to the start, forgetting samples kept by 'roll_over'."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.imgrec is not None:
            self.imgrec.reset()
            self._records_read = 0
        self.cur = 0
        self._allow_read = True
        self._cache_data = None
        self._cache_label = None
        self._cache_idx = None

    def _where(self, idx):
        if self.imgrec is not None:
            return "%s record %s" % (self.path_imgrec, idx)
        return "image %s" % os.path.join(self.path_root or "", self.imglist[idx][1])

    def next_sample(self):
        """(label, encoded image) of the next sample; StopIteration at the end."""
        if self._allow_read is False:
            raise StopIteration
        if self.seq is not None:
            if self.cur < self.num_image:
                idx = self.seq[self.cur]
            else:
                if self.last_batch_handle != "discard":
                    self.cur = 0
                raise StopIteration
            self.cur += 1
            self._current = idx
            if self.imgrec is not None:
                header, img = self._unpack(self.imgrec.read_idx(idx), idx)
                if self.imglist is None:
                    return header.label, img
                return self.imglist[idx][0], img
            label, fname = self.imglist[idx]
            return label, self.read_image(fname)
        s = self.imgrec.read()
        if s is None:
            if self.last_batch_handle != "discard":
                self.imgrec.reset()
                self._records_read = 0
            raise StopIteration
        self._current = self._records_read
        self._records_read += 1
        header, img = self._unpack(s, self._current)
        return header.label, img

    def _unpack(self, s, idx):
        try:
            return recordio.unpack(s)
        except WeftIOError as e:
            raise WeftIOError("%s: %s" % (self._where(idx), e)) from None

    def _label_array(self, label):
        label = label.asnumpy() if isinstance(label, nd.NDArray) else np.asarray(label, dtype=np.float32)
        label = label.reshape(-1)
        if label.size != self.label_width:
            raise WeftIOError("%s has %d labels, but label_width is %d"
                              % (self._where(self._current), label.size, self.label_width))
        return label if self.label_width > 1 else label[0]

    def _batchify(self, batch_data, batch_label, start=0):
        i = start
        try:
            while i < self.batch_size:
                label, s = self.next_sample()
                data = self.imdecode(s)
                self.check_valid_image(data)
                data = self.augmentation_transform(data)
                batch_data[i] = self.postprocess_data(data).asnumpy()
                batch_label[i] = self._label_array(label)
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def next(self):
        batch_size = self.batch_size
        c, h, w = self.data_shape
        if self._cache_data is not None:
            batch_data, batch_label, i = self._cache_data, self._cache_label, self._cache_idx
        else:
            batch_data = np.zeros((batch_size, c, h, w), dtype=np.float32)
            batch_label = np.zeros(self.provide_label[0][1], dtype=np.float32)
            i = self._batchify(batch_data, batch_label)
        pad = batch_size - i
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

    def check_data_shape(self, data_shape):
        """data_shape must be (3, H, W)."""
        if not len(data_shape) == 3:
            raise ValueError("data_shape should have length 3, with dimensions CxHxW")
        if not data_shape[0] == 3:
            raise ValueError("This iterator expects inputs to have 3 channels.")

    def check_valid_image(self, data):
        """An image must have a non-empty shape."""
        if len(data[0].shape) == 0:
            raise RuntimeError("Data shape is wrong")

    def imdecode(self, s):
        """The decoded image; an error naming the record or file when it is not an image."""
        try:
            return imdecode(s)
        except Exception as e:  # pylint: disable=broad-except
            raise WeftIOError("Broken image: %s: %s" % (self._where(self._current), e)) from None

    def read_image(self, fname):
        """The bytes of image ``fname`` under path_root."""
        path = os.path.join(self.path_root or "", fname)
        try:
            with open(path, "rb") as fin:
                return fin.read()
        except FileNotFoundError:
            raise WeftIOError("ImageIter: no such image file: %s" % path) from None

    def augmentation_transform(self, data):
        """data through every augmenter."""
        for aug in self.auglist:
            data = aug(data)
        return data

    def postprocess_data(self, datum):
        """HWC to CHW."""
        return nd.transpose(datum, axes=(2, 0, 1))
