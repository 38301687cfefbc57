"""RecordFileDataset: the records of a RecordIO file, as in ``mxnet.gluon.data``."""
import os

from ... import recordio
from .dataset import Dataset

__all__ = ["RecordFileDataset"]


class RecordFileDataset(Dataset):
    """The raw records (bytes) of the RecordIO file ``filename``, indexed in
    the order of its ``.idx`` file (the same name with the extension ``.idx``).

    The file is reopened in a process it was not opened in (a DataLoader
    worker), so workers do not share a file position."""

    def __init__(self, filename):
        self.idx_file = os.path.splitext(filename)[0] + ".idx"
        self.filename = filename
        self._record = recordio.MXIndexedRecordIO(self.idx_file, self.filename, "r")

    def __getitem__(self, idx):
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self):
        return len(self._record.keys)
