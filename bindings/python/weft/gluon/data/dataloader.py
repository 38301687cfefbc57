"""DataLoader: batches of a Dataset, loaded in this process, in worker processes
or in threads, as ``mxnet.gluon.data.DataLoader`` in MXNet 1.x."""
from . import sampler as _sampler
from ._host import in_array_mode
from ._worker_pool import DataLoaderTimeoutError, DataLoaderWorkerError, ProcessPool, ThreadPool
from .batchify import default_batchify_fn, default_mp_batchify_fn

__all__ = ["DataLoader", "DataLoaderTimeoutError", "DataLoaderWorkerError", "default_batchify_fn",
           "default_mp_batchify_fn"]


class DataLoader:
    """Loads batches from a dataset; iterating gives one batch (NDArrays) at a time.

    Parameters
    ----------
    dataset : Dataset (anything with ``len`` and ``[]``)
    batch_size : int, unless batch_sampler is given
    shuffle : bool -- a new random order every epoch (numpy's global generator,
        as in MXNet: ``np.random.seed`` makes it reproducible)
    sampler : Sampler of indices (not with shuffle)
    last_batch : 'keep' (default), 'discard' or 'rollover' -- see BatchSampler
    batch_sampler : Sampler of lists of indices (instead of batch_size, shuffle,
        sampler and last_batch)
    batchify_fn : list of samples -> batch (default: default_batchify_fn)
    num_workers : int -- 0 loads in this process; more start that many worker
        processes (threads with thread_pool=True), kept for the loader's life
    pin_memory, pin_device_id : accepted; nothing to do on CPU
    prefetch : int -- batches loading ahead (default 2 * num_workers, at least 1)
    thread_pool : bool -- workers are threads of this process
    timeout : seconds to wait for a batch from the workers (default 120; None
        waits forever); then DataLoaderTimeoutError
    try_nopython : accepted for MXNet compatibility, ignored

    Worker processes may run weft operators (the engine is restarted in a
    forked child; OpenMP kernels run single-threaded there, as in PyTorch's
    workers). They index the dataset, read NDArray samples out as numpy and
    batchify with numpy; this process wraps the result in NDArrays, so the
    batches, and their order, are the ones num_workers=0 gives. A batchify_fn
    that is not one of weft.gluon.data.batchify's
    runs in this process, on the loaded samples. An exception in a worker is
    raised here with the worker's traceback as its ``__cause__``. Each worker
    seeds numpy's and ``random``'s generators from numpy's global state when
    the workers start: augmentations differ between workers and are
    reproducible under ``np.random.seed``.
    """

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None,
                 batch_sampler=None, batchify_fn=None, num_workers=0, pin_memory=False,
                 pin_device_id=0, prefetch=None, thread_pool=False, timeout=120,
                 try_nopython=None):  # pylint: disable=unused-argument
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._thread_pool = thread_pool
        if timeout is not None and not timeout > 0:
            raise ValueError("timeout must be positive (or None to wait forever), got %r" % (timeout,))
        self._timeout = timeout

        if batch_sampler is None:
            if batch_size is None:
                raise ValueError("batch_size must be given unless batch_sampler is")
            if sampler is None:
                sampler = _sampler.RandomSampler(len(dataset)) if shuffle else \
                    _sampler.SequentialSampler(len(dataset))
            elif shuffle:
                raise ValueError("shuffle must not be given with a sampler (the sampler decides the order)")
            batch_sampler = _sampler.BatchSampler(sampler, batch_size, last_batch if last_batch else "keep")
        elif batch_size is not None or shuffle or sampler is not None or last_batch is not None:
            raise ValueError("batch_size, shuffle, sampler and last_batch must not be given with batch_sampler")
        self._batch_sampler = batch_sampler

        self._num_workers = max(0, int(num_workers))
        self._prefetch = max(0, int(prefetch) if prefetch is not None else 2 * self._num_workers)
        if batchify_fn is None:
            batchify_fn = default_mp_batchify_fn if self._num_workers > 0 else default_batchify_fn
        self._batchify_fn = batchify_fn
        self._pool = None

    def __iter__(self):
        if self._num_workers == 0:
            return self._same_process_iter()
        return _MultiWorkerIter(self._worker_pool(), self._batch_sampler, self._prefetch, self._timeout)

    def __len__(self):
        return len(self._batch_sampler)

    def _same_process_iter(self):
        for batch in self._batch_sampler:
            yield in_array_mode(self._batchify_fn([self._dataset[i] for i in batch]))

    def _worker_pool(self):
        """The running pool; a new one after the last failed (timeout, dead worker)."""
        if self._pool is None or self._pool.broken:
            pool_type = ThreadPool if self._thread_pool else ProcessPool
            self._pool = pool_type(self._num_workers, self._dataset, self._batchify_fn)
        return self._pool


class _MultiWorkerIter:
    """One pass over the batches, ``prefetch`` of them loading ahead, in order."""

    def __init__(self, pool, batch_sampler, prefetch, timeout):
        self._pool = pool
        self._timeout = timeout
        self._length = len(batch_sampler)
        self._batches = iter(batch_sampler)
        self._id = pool.open_iter()
        self._sent = 0
        self._received = 0
        self._closed = False
        for _ in range(max(1, prefetch)):
            if not self._push_next():
                break

    def _push_next(self):
        indices = next(self._batches, None)
        if indices is None:
            return False
        self._pool.submit((self._id, self._sent), indices)
        self._sent += 1
        return True

    def __iter__(self):
        return self

    def __len__(self):
        return self._length

    def __next__(self):
        if self._closed or self._received == self._sent:
            self._close()
            raise StopIteration
        tag = (self._id, self._received)
        self._received += 1
        try:
            batch = self._pool.get(tag, self._timeout)
            self._push_next()
        except BaseException:
            self._close()
            raise
        return in_array_mode(batch)  # Note [DataLoader in NumPy mode] in _host.py

    def _close(self):
        if not self._closed:
            self._closed = True
            self._pool.close_iter(self._id, pending=self._received < self._sent)

    def __del__(self):
        try:
            self._close()
        except Exception:  # pylint: disable=broad-except
            pass
