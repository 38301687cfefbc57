"""Samplers: iterables of dataset indices (and BatchSampler, of lists of them),
as ``mxnet.gluon.data.sampler`` in MXNet 1.x."""
import numpy as np

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "BatchSampler", "FilterSampler", "IntervalSampler"]

_LAST_BATCH_MODES = ("keep", "discard", "rollover")


class Sampler:
    """Base class: ``__iter__`` yields indices, ``__len__`` says how many."""

    def __iter__(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``start, start + 1, ..., start + length - 1``."""

    def __init__(self, length, start=0):
        self._length = length
        self._start = start

    def __iter__(self):
        return iter(range(self._start, self._start + self._length))

    def __len__(self):
        return self._length


class RandomSampler(Sampler):
    """A permutation of ``0 .. length - 1``, new at every iteration.

    As in MXNet, it draws from numpy's global generator, so ``np.random.seed``
    (not ``weft.random.seed``) makes the order reproducible; the permutation is
    the one ``np.random.shuffle(np.arange(length))`` gives."""

    def __init__(self, length):
        self._length = length

    def __iter__(self):
        indices = np.arange(self._length)
        np.random.shuffle(indices)
        return iter(indices.tolist())

    def __len__(self):
        return self._length


class FilterSampler(Sampler):
    """The indices ``i`` of ``dataset`` for which ``fn(dataset[i])`` is true
    (evaluated once, at construction)."""

    def __init__(self, fn, dataset):
        self._indices = [i for i in range(len(dataset)) if fn(dataset[i])]

    def __iter__(self):
        return iter(self._indices)

    def __len__(self):
        return len(self._indices)


class IntervalSampler(Sampler):
    """Every ``interval``-th index: ``0, k, 2k, ...``, then (``rollover=True``)
    ``1, k + 1, ...`` and so on until every index was given once."""

    def __init__(self, length, interval, rollover=True):
        if not 0 < interval < length:
            raise ValueError("IntervalSampler: interval must be in (0, length), got interval=%d, length=%d"
                             % (interval, length))
        self._length = length
        self._interval = interval
        self._rollover = rollover

    def __iter__(self):
        for first in range(self._interval if self._rollover else 1):
            yield from range(first, self._length, self._interval)

    def __len__(self):
        if self._rollover:
            return self._length
        return len(range(0, self._length, self._interval))


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size``.

    ``last_batch`` says what happens to a final batch shorter than batch_size:
    'keep' yields it, 'discard' drops it, 'rollover' keeps its indices and puts
    them at the front of the next iteration's first batch."""

    def __init__(self, sampler, batch_size, last_batch="keep"):
        if last_batch not in _LAST_BATCH_MODES:
            raise ValueError("last_batch must be one of 'keep', 'discard' or 'rollover', got %r" % (last_batch,))
        if int(batch_size) <= 0:
            raise ValueError("batch_size must be a positive integer, got %r" % (batch_size,))
        self._sampler = sampler
        self._batch_size = int(batch_size)
        self._last_batch = last_batch
        self._prev = []

    def __iter__(self):
        batch, self._prev = self._prev, []
        for i in self._sampler:
            batch.append(i)
            if len(batch) == self._batch_size:
                yield batch
                batch = []
        if batch:
            if self._last_batch == "keep":
                yield batch
            elif self._last_batch == "rollover":
                self._prev = batch

    def __len__(self):
        n = len(self._sampler)
        if self._last_batch == "keep":
            return (n + self._batch_size - 1) // self._batch_size
        if self._last_batch == "discard":
            return n // self._batch_size
        return (len(self._prev) + n) // self._batch_size
