"""The batching of MXNet's C++ iterators (CSVIter, LibSVMIter, ImageRecordIter),
here over samples held as numpy arrays.

Note [round_batch]
~~~~~~~~~~~~~~~~~~
MXNet's BatchLoader fills batches in order. When the data ends inside a
batch: with ``round_batch`` true the batch is completed from the start of the
data and ``pad`` is the number of samples taken from there; the next epoch
then starts after those samples (reset does not rewind, the wrap did). With
``round_batch`` false the batch is returned short-filled (here the rest is
zeros) with ``pad`` the number of missing samples. A single-column label
(shape (batch, 1)) is returned as (batch,), as MXNet's C API does.
"""
import numpy as np

from .. import ndarray as nd
from .base import BatchIter, DataBatch, DataDesc

__all__ = ["BatchLoaderIter"]


class BatchLoaderIter(BatchIter):
    """Batches of ``data`` and ``label`` (numpy, first axis the samples) with
    MXNet's BatchLoader semantics (Note [round_batch])."""

    def __init__(self, data, label, batch_size, round_batch=True, data_name="data", label_name="softmax_label",
                 what="iterator"):
        super().__init__(batch_size)
        if batch_size <= 0:
            raise ValueError("%s: batch_size must be positive, got %d" % (what, batch_size))
        if len(data) != len(label):
            raise ValueError("%s: %d data samples but %d labels" % (what, len(data), len(label)))
        if len(data) == 0:
            raise ValueError("%s: the data is empty" % what)
        if round_batch and len(data) < batch_size:
            raise ValueError("%s: number of input must be bigger than batch size (%d samples, batch_size %d)"
                             % (what, len(data), batch_size))
        if label.ndim == 2 and label.shape[1] == 1:
            label = label.reshape(-1)
        self._data = data
        self._label = label
        self._round_batch = bool(round_batch)
        self._what = what
        self._start = 0  # where the next epoch begins (after the samples a round batch wrapped to)
        self._pos = 0
        self._done = False
        self.current_batch = None
        self.provide_data = [DataDesc(data_name, (batch_size,) + data.shape[1:], data.dtype)]
        self.provide_label = [DataDesc(label_name, (batch_size,) + label.shape[1:], label.dtype)]

    def reset(self):
        self._pos = self._start
        self._start = 0  # a second reset rewinds to the start, as MXNet's BeforeFirst
        self._done = False

    def _take(self, indices, pad):
        data = nd.array(self._data[indices], dtype=self._data.dtype)
        label = nd.array(self._label[indices], dtype=self._label.dtype)
        return DataBatch([data], [label], pad=pad, index=np.asarray(indices, dtype=np.uint64))

    def iter_next(self):
        if self._done:
            return False
        n, bs = len(self._data), self.batch_size
        if self._pos >= n:
            self._done = True
            return False
        stop = self._pos + bs
        if stop <= n:
            self.current_batch = self._take(np.arange(self._pos, stop), 0)
            self._pos = stop
            return True
        have = n - self._pos
        if self._round_batch:
            wrap = bs - have
            indices = np.concatenate([np.arange(self._pos, n), np.arange(wrap)])
            self.current_batch = self._take(indices, wrap)
            self._start = wrap
        else:
            batch = self._take(np.arange(self._pos, n), bs - have)
            batch.data = [nd.concat(batch.data[0], nd.zeros((bs - have,) + self._data.shape[1:],
                                                            dtype=self._data.dtype), dim=0)]
            batch.label = [nd.concat(batch.label[0], nd.zeros((bs - have,) + self._label.shape[1:],
                                                              dtype=self._label.dtype), dim=0)]
            self.current_batch = batch
        self._pos = n
        self._done = True
        return True

