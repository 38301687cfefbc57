"""Datasets: indexable collections of samples, as ``mxnet.gluon.data.dataset``
in MXNet 1.x."""
from ...ndarray import NDArray
from . import sampler as _sampler

__all__ = ["Dataset", "SimpleDataset", "ArrayDataset"]


class Dataset:
    """Abstract dataset: subclasses define ``__getitem__(idx)`` and ``__len__()``.

    A sample may be anything; a tuple is taken as several fields (data, label,
    ...): ``transform`` unpacks it into the function's arguments and the default
    batchify function batches each field separately."""

    def __getitem__(self, idx):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def filter(self, fn):
        """The samples for which ``fn(sample)`` is true (decided now, once)."""
        return _SampledDataset(self, _sampler.FilterSampler(fn, self))

    def shard(self, num_shards, index):
        """Part ``index`` of ``num_shards`` contiguous parts; the first
        ``len(self) % num_shards`` parts have one sample more."""
        if num_shards <= 0:
            raise ValueError("shard: num_shards must be positive, got %d" % num_shards)
        if not 0 <= index < num_shards:
            raise ValueError("shard: index must be in [0, %d), got %d" % (num_shards, index))
        length = len(self)
        size, rest = divmod(length, num_shards)
        start = size * index + min(index, rest)
        count = size + (1 if index < rest else 0)
        return _SampledDataset(self, _sampler.SequentialSampler(count, start))

    def take(self, count):
        """The first ``count`` samples (all when count is None or too large)."""
        if count is None or count > len(self):
            count = len(self)
        return _SampledDataset(self, _sampler.SequentialSampler(count))

    def sample(self, sampler):
        """The samples at the indices ``sampler`` yields (taken once, now)."""
        return _SampledDataset(self, sampler)

    def transform(self, fn, lazy=True):
        """A dataset of ``fn(sample)`` (``fn(*sample)`` when the sample is a tuple).

        lazy=True applies fn at every access; lazy=False applies it to every
        sample now and returns a SimpleDataset of the results."""
        trans = _LazyTransformDataset(self, fn)
        if lazy:
            return trans
        return SimpleDataset([trans[i] for i in range(len(trans))])

    def transform_first(self, fn, lazy=True):
        """Like ``transform``, applying fn to the first field of each sample
        only (to the whole sample when it is not a tuple)."""
        return self.transform(_TransformFirst(fn), lazy)


class SimpleDataset(Dataset):
    """A dataset over anything with ``len`` and ``[]`` (a list, an array ...)."""

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        return self._data[idx]


class ArrayDataset(Dataset):
    """Several arrays of the same length (numpy arrays, NDArrays, lists ...);
    sample i is ``(a[i], b[i], ...)``, or ``a[i]`` for a single array.

    As in MXNet, a 1-d NDArray is kept as a numpy array, so its samples are
    scalars rather than arrays of shape (1,)."""

    def __init__(self, *args):
        if not args:
            raise ValueError("ArrayDataset needs at least one array")
        lengths = [len(a) for a in args]
        bad = next((i for i, n in enumerate(lengths) if n != lengths[0]), None)
        if bad is not None:
            raise ValueError("ArrayDataset: all arrays must have the same length, got lengths %s "
                             "(array %d has length %d while array 0 has length %d)"
                             % (lengths, bad, lengths[bad], lengths[0]))
        self._length = lengths[0]
        self._data = [a.asnumpy() if isinstance(a, NDArray) and a.ndim == 1 else a for a in args]

    def __getitem__(self, idx):
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(a[idx] for a in self._data)

    def __len__(self):
        return self._length


class _SampledDataset(Dataset):
    """The samples of ``dataset`` at the indices of ``sampler``."""

    def __init__(self, dataset, sampler):
        self._dataset = dataset
        self._indices = list(sampler)

    def __len__(self):
        return len(self._indices)

    def __getitem__(self, idx):
        return self._dataset[self._indices[idx]]


class _LazyTransformDataset(Dataset):
    def __init__(self, data, fn):
        self._data = data
        self._fn = fn

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        item = self._data[idx]
        if isinstance(item, tuple):
            return self._fn(*item)
        return self._fn(item)


class _TransformFirst:
    """fn on the first field; a class rather than a closure so that datasets
    pickle (DataLoader workers started with 'spawn')."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, x, *args):
        if args:
            return (self._fn(x),) + args
        return self._fn(x)
