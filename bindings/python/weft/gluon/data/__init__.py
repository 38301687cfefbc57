"""weft.gluon.data: datasets, samplers, batchify functions and DataLoader, as
``mxnet.gluon.data`` in MXNet 1.x.

A DataLoader with ``num_workers > 0`` loads batches in worker processes that
never call into the weft engine: they index the dataset, turn NDArray samples
into numpy arrays and batchify with numpy; the parent process wraps the result
in NDArrays. See Note [DataLoader workers] in _worker_pool.py.
"""
from . import batchify
from .dataset import ArrayDataset, Dataset, SimpleDataset
from .sampler import (BatchSampler, FilterSampler, IntervalSampler, RandomSampler, Sampler,
                      SequentialSampler)
from .dataloader import (DataLoader, DataLoaderTimeoutError, DataLoaderWorkerError, default_batchify_fn,
                         default_mp_batchify_fn)
from . import dataloader, dataset, sampler
from .record_dataset import RecordFileDataset
from . import vision

__all__ = [
    "Dataset", "SimpleDataset", "ArrayDataset", "Sampler", "SequentialSampler", "RandomSampler",
    "BatchSampler", "FilterSampler", "IntervalSampler", "DataLoader", "DataLoaderTimeoutError",
    "DataLoaderWorkerError", "default_batchify_fn", "default_mp_batchify_fn", "batchify", "dataloader",
    "dataset", "sampler", "RecordFileDataset", "vision",
]
