"""NDArrayIter: batches of in-memory arrays, as ``mxnet.io.NDArrayIter`` in MXNet 1.9.1.

Note [NDArrayIter last batch]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
``cursor`` is the index of the current batch's first sample; it starts at
-batch_size and ``iter_next`` adds batch_size. With num_data = 10 and
batch_size = 3 the batches start at 0, 3, 6 and 9; what happens at 9 depends on
``last_batch_handle``:

- 'pad': the batch is samples 9, 0, 1 (filled from the start, repeated when
  the padding is longer than the data), ``pad`` = 2.
- 'discard': the short batch is not returned (StopIteration).
- 'roll_over': the short batch (sample 9) is kept and StopIteration raised;
  ``reset()`` then sets cursor to 9 - 10 - 3 = -4, so the next epoch's first
  batch (cursor -1) is the kept sample 9 followed by samples 0, 1, and has
  ``pad`` = 1 (MXNet reports -cursor there), and the epoch goes on at 2, 5, 8.
  ``hard_reset()`` forgets the kept samples.

Note [NDArrayIter sample counts]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet 1.9.1 checks no sample counts: the number of samples is the first
(by name) data array's, and every array is sliced with it, so its own
docstring's ``NDArrayIter({'data1': 10 samples, 'data2': 20 samples}, ...)``
iterates over 10 samples and never reads data2[10:]. We accept that too, with
a UserWarning naming the arrays whose extra samples go unused. An array with
fewer samples than the first makes short batches in MXNet (or an IndexError
when shuffling), so that one is a ValueError here, at construction.

As in MXNet, arrays are sorted by name, numpy inputs become float32 NDArrays,
and shuffling (at construction and at every reset) permutes the arrays
themselves (so a shuffled iterator's arrays are float32 too).
"""
import warnings
from collections import OrderedDict

import numpy as np

from .. import ndarray as nd
from ..ndarray import NDArray
from .base import DataBatch, DataDesc, DataIter

__all__ = ["NDArrayIter"]

_LAST_BATCH_HANDLES = ("pad", "discard", "roll_over")


def _init_data(data, allow_empty, default_name):
    """[(name, NDArray)] sorted by name, from an array, a list or a dict of them."""
    if data is None:
        if not allow_empty:
            raise ValueError("NDArrayIter: data must be given")
        data = []
    if isinstance(data, (np.ndarray, NDArray)):
        data = [data]
    if isinstance(data, (list, tuple)):
        if not allow_empty and not data:
            raise ValueError("NDArrayIter: data is an empty list")
        if len(data) == 1:
            data = OrderedDict([(default_name, data[0])])
        else:
            data = OrderedDict([("_%d_%s" % (i, default_name), d) for i, d in enumerate(data)])
    if not isinstance(data, dict):
        raise TypeError("Input must be NDArray, numpy.ndarray, a list of them or dict with them as values")
    out = {}
    for k, v in data.items():
        if not isinstance(v, NDArray):
            try:
                v = nd.array(v)
            except Exception:  # pylint: disable=broad-except
                raise TypeError("Invalid type '%s' for %s, should be NDArray or numpy.ndarray" % (type(v), k)) \
                    from None
        out[k] = v
    return list(sorted(out.items()))


def _check_sample_counts(data, label, num):
    """See Note [NDArrayIter sample counts]."""
    first = data[0][0]
    longer = []
    for k, v in data + label:
        if v.shape[0] < num:
            raise ValueError("NDArrayIter: '%s' has %d samples, fewer than the %d of '%s' (the first array by "
                             "name, which sets the number of samples); its batches would come out short"
                             % (k, v.shape[0], num, first))
        if v.shape[0] > num:
            longer.append("'%s' (%d)" % (k, v.shape[0]))
    if longer:
        warnings.warn("NDArrayIter: only the first %d samples of %s are used: the first array by name, '%s', has "
                      "%d samples and sets the number of samples, as in MXNet" % (num, ", ".join(longer), first, num),
                      UserWarning, stacklevel=3)


def _getdata_by_idx(data, idx):
    return [(k, nd.array(v.asnumpy()[idx], v.context)) for k, v in data]


class NDArrayIter(DataIter):
    """Iterates over ``data`` and ``label`` (arrays, lists or dicts of arrays,
    first axis the samples) in batches of ``batch_size``; ``shuffle`` permutes
    them at every reset; ``last_batch_handle`` ('pad', 'discard' or
    'roll_over') says what the last, short batch is (Note [NDArrayIter last
    batch]). Names: ``data_name`` / ``label_name`` for a single array,
    ``_<i>_<name>`` for a list."""

    def __init__(self, data, label=None, batch_size=1, shuffle=False, last_batch_handle="pad", data_name="data",
                 label_name="softmax_label"):
        super().__init__(batch_size)
        if last_batch_handle not in _LAST_BATCH_HANDLES:
            raise ValueError("last_batch_handle must be one of %s, got %r" % (_LAST_BATCH_HANDLES, last_batch_handle))
        if batch_size <= 0:
            raise ValueError("batch_size must be positive, got %d" % batch_size)
        self.data = _init_data(data, allow_empty=False, default_name=data_name)
        self.label = _init_data(label, allow_empty=True, default_name=label_name)
        num = self.data[0][1].shape[0]
        _check_sample_counts(self.data, self.label, num)
        self.idx = np.arange(num)
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        self.batch_size = batch_size
        self.cursor = -self.batch_size
        self.num_data = self.idx.shape[0]
        self._cache_data = None
        self._cache_label = None
        self.reset()
        self.data_list = [x[1] for x in self.data] + [x[1] for x in self.label]
        self.num_source = len(self.data_list)

    @property
    def provide_data(self):
        return [DataDesc(k, tuple([self.batch_size] + list(v.shape[1:])), v.dtype) for k, v in self.data]

    @property
    def provide_label(self):
        return [DataDesc(k, tuple([self.batch_size] + list(v.shape[1:])), v.dtype) for k, v in self.label]

    def hard_reset(self):
        """Goes to the start, forgetting samples kept by 'roll_over'."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = None
        self._cache_label = None

    def reset(self):
        if self.shuffle:
            self._shuffle_data()
        if self.last_batch_handle == "roll_over" and self.num_data - self.batch_size < self.cursor < self.num_data:
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self):
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        if not self.iter_next():
            raise StopIteration
        data = self.getdata()
        label = self.getlabel()
        if data[0].shape[0] != self.batch_size:
            # a short last batch ('discard', 'roll_over'): kept for roll_over's next epoch
            self._cache_data = data
            self._cache_label = label
            raise StopIteration
        return DataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def _getdata(self, data_source, start=None, end=None):
        assert start is not None or end is not None, "should at least specify start or end"
        start = start if start is not None else 0
        if end is None:
            # num_data, not data_source[0]'s length as MXNet: a longer first label would make
            # MXNet's padded label batch too long (Note [NDArrayIter sample counts])
            end = self.num_data
        return [x[1][start:end] for x in data_source]

    @staticmethod
    def _concat(first_data, second_data):
        if (not first_data) or (not second_data):
            return first_data if first_data else second_data
        assert len(first_data) == len(second_data), "data source should contain the same size"
        return [nd.concat(a, b, dim=0) for a, b in zip(first_data, second_data)]

    @staticmethod
    def _tile(data, repeats):
        return [nd.concat(*([d] * repeats), dim=0) if repeats > 1 else d for d in data]

    def _batchify(self, data_source):
        assert self.cursor < self.num_data, "DataIter needs reset."
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            # the first batch after a roll over: the kept samples, then the first of this epoch
            assert self._cache_data is not None or self._cache_label is not None, \
                "next epoch should have cached data"
            cache_data = self._cache_data if self._cache_data is not None else self._cache_label
            second_data = self._getdata(data_source, end=self.cursor + self.batch_size)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cache_data, second_data)
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            pad = self.batch_size - self.num_data + self.cursor
            first_data = self._getdata(data_source, start=self.cursor)
            if pad > self.num_data:
                repeats = pad // self.num_data
                second_data = self._tile(self._getdata(data_source, end=self.num_data), repeats)
                if pad % self.num_data != 0:
                    second_data = self._concat(second_data, self._getdata(data_source, end=pad % self.num_data))
            else:
                second_data = self._getdata(data_source, end=pad)
            return self._concat(first_data, second_data)
        end_idx = min(self.cursor + self.batch_size, self.num_data)
        return self._getdata(data_source, self.cursor, end_idx)

    def getdata(self):
        return self._batchify(self.data)

    def getlabel(self):
        return self._batchify(self.label)

    def getpad(self):
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self):
        np.random.shuffle(self.idx)
        self.data = _getdata_by_idx(self.data, self.idx)
        self.label = _getdata_by_idx(self.label, self.idx)
