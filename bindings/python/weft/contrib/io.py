"""mx.contrib.io: DataLoaderIter, a Gluon DataLoader as a Module-style DataIter (MXNet 1.9.1)."""
from .. import ndarray as nd
from ..base import InvalidArgumentError
from ..io import DataDesc, DataIter

__all__ = ["DataLoaderIter"]


class DataLoaderIter(DataIter):
    """Returns the DataLoader's (data, label) batches as DataBatches, so a Gluon data
    pipeline feeds ``Module.fit``. The batch size is that of the loader's first
    batch; a shorter last batch is padded at the end (``batch.pad`` says how many
    samples are padding, as with NDArrayIter's 'pad').

    Parameters
    ----------
    loader : gluon.data.DataLoader
        Yields (data, label) pairs.
    data_name : str, default 'data'
    label_name : str, default 'softmax_label'
    dtype : str, default 'float32'
        Data and label are cast to it.
    """

    def __init__(self, loader, data_name="data", label_name="softmax_label", dtype="float32"):
        super().__init__()
        self._loader = loader
        self._iter = iter(self._loader)
        try:
            first = next(self._iter)
        except StopIteration:
            raise InvalidArgumentError("DataLoaderIter: the loader yields no batch") from None
        if not isinstance(first, (list, tuple)) or len(first) != 2:
            raise InvalidArgumentError("DataLoaderIter: the loader must yield (data, label) pairs, got %s"
                                       % type(first).__name__)
        data, label = first
        self.batch_size = data.shape[0]
        self.dtype = dtype
        self.provide_data = [DataDesc(data_name, data.shape, dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, dtype)]
        self._current_batch = None
        self.reset()

    def reset(self):
        self._iter = iter(self._loader)

    def iter_next(self):
        try:
            self._current_batch = next(self._iter)
        except StopIteration:
            self._current_batch = None
        return self._current_batch is not None

    def _padded(self, arr):
        arr = arr.astype(self.dtype)
        if not self.getpad():
            return [arr]
        ret = nd.zeros(shape=(self.batch_size,) + tuple(arr.shape[1:]), dtype=self.dtype, ctx=arr.context)
        ret[:arr.shape[0]] = arr
        return [ret]

    def getdata(self):
        return self._padded(self._current_batch[0])

    def getlabel(self):
        return self._padded(self._current_batch[1])

    def getpad(self):
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self):
        return None
