"""The data iterator protocol: DataDesc, DataBatch, DataIter, ResizeIter and
PrefetchingIter, as ``mxnet.io`` in MXNet 1.x."""
import threading
import warnings
from collections import namedtuple

import numpy as np

__all__ = ["DataDesc", "DataBatch", "DataIter", "ResizeIter", "PrefetchingIter"]


def ignore_unknown(iterator, kwargs):
    """MXNet's C++ iterators accept and ignore arguments they do not know
    (InitAllowUnknown), and scripts pass some (MNISTIter(data_shape=...));
    these do the same, with a warning naming them."""
    if kwargs:
        warnings.warn("%s: ignoring arguments it does not use: %s" % (iterator, ", ".join(sorted(kwargs))),
                      stacklevel=3)


class DataDesc(namedtuple("DataDesc", ["name", "shape"])):
    """The name, shape, dtype and layout of one input of a batch. A
    (name, shape) namedtuple, so ``name, shape = desc`` works as in MXNet."""

    def __new__(cls, name, shape, dtype=np.float32, layout="NCHW"):
        ret = super(DataDesc, cls).__new__(cls, name, shape)
        ret.dtype = dtype
        ret.layout = layout
        return ret

    def __repr__(self):
        return "DataDesc[%s,%s,%s,%s]" % (self.name, self.shape, self.dtype, self.layout)

    @staticmethod
    def get_batch_axis(layout):
        """The axis of 'N' in ``layout`` (0 when layout is None, -1 without 'N')."""
        if layout is None:
            return 0
        return layout.find("N")

    @staticmethod
    def get_list(shapes, types):
        """DataDescs from a list of (name, shape) and an optional list of (name, dtype)."""
        if types is not None:
            type_dict = dict(types)
            return [DataDesc(x[0], x[1], type_dict[x[0]]) for x in shapes]
        return [DataDesc(x[0], x[1]) for x in shapes]


class DataBatch:
    """One batch: lists of data and label NDArrays, ``pad`` (how many samples
    at the end are padding), ``index``, ``bucket_key`` and optional
    provide_data / provide_label."""

    def __init__(self, data, label=None, pad=None, index=None, bucket_key=None, provide_data=None,
                 provide_label=None):
        if data is not None:
            assert isinstance(data, (list, tuple)), "Data must be list of NDArrays"
        if label is not None:
            assert isinstance(label, (list, tuple)), "Label must be list of NDArrays"
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self):
        data_shapes = [d.shape for d in self.data]
        label_shapes = [l.shape for l in self.label] if self.label else None
        return "{}: data shapes: {} label shapes: {}".format(self.__class__.__name__, data_shapes, label_shapes)


class DataIter:
    """Base class of data iterators: ``next()`` returns a DataBatch or raises
    StopIteration at the end of an epoch; ``reset()`` starts the next epoch.
    Subclasses define either ``next`` or ``iter_next`` with getdata / getlabel /
    getpad / getindex."""

    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        """Goes back to the start of the data."""

    def next(self):
        """The next DataBatch; StopIteration at the end."""
        if self.iter_next():
            return DataBatch(data=self.getdata(), label=self.getlabel(), pad=self.getpad(), index=self.getindex())
        raise StopIteration

    def __next__(self):
        return self.next()

    def iter_next(self):
        """Moves to the next batch; False at the end."""

    def getdata(self):
        """The data of the current batch."""

    def getlabel(self):
        """The label of the current batch."""

    def getindex(self):
        """The indices of the current batch's samples (None when unknown)."""
        return None

    def getpad(self):
        """How many samples at the end of the current batch are padding."""


class BatchIter(DataIter):
    """A DataIter whose ``iter_next`` builds ``self.current_batch``; ``next``
    and the get* accessors read it (the iterators in this package that
    assemble whole batches themselves)."""

    current_batch = None

    def next(self):
        if self.iter_next():
            return self.current_batch
        raise StopIteration

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class ResizeIter(DataIter):
    """``data_iter`` made ``size`` batches long per epoch: it is reset and
    continued when it ends early, stopped when it has more."""

    def __init__(self, data_iter, size, reset_internal=True):
        super().__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.current_batch = None
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, "default_bucket_key"):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self):
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self):
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class _Prefetcher:
    """The state the prefetch threads share with a PrefetchingIter. The
    threads hold this, not the iterator, so the iterator can be collected
    (its __del__ stops them)."""

    def __init__(self, iters):
        self.iters = iters
        self.started = True
        self.data_ready = [threading.Event() for _ in iters]
        self.data_taken = [threading.Event() for _ in iters]
        for e in self.data_taken:
            e.set()
        self.next_batch = [None] * len(iters)
        self.error = [None] * len(iters)

    def run(self, i):
        while True:
            self.data_taken[i].wait()
            if not self.started:
                break
            try:
                self.next_batch[i] = self.iters[i].next()
                self.error[i] = None
            except StopIteration:
                self.next_batch[i] = None
            except BaseException as e:  # pylint: disable=broad-except
                # kept and raised in the consumer: an iterator that fails must not hang it
                self.next_batch[i] = None
                self.error[i] = e
            self.data_taken[i].clear()
            self.data_ready[i].set()

    def stop(self):
        self.started = False
        for e in self.data_taken:
            e.set()


class PrefetchingIter(BatchIter):
    """Loads the next batch of each of ``iters`` in a background thread while
    the current one is used; batches of several iterators are joined (data and
    label lists concatenated). ``rename_data`` / ``rename_label``: one dict per
    iterator mapping its names to new ones. An exception raised by an iterator
    is raised by ``next()``."""

    def __init__(self, iters, rename_data=None, rename_label=None):
        super().__init__()
        if not isinstance(iters, list):
            iters = [iters]
        self.n_iter = len(iters)
        assert self.n_iter > 0
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self._state = _Prefetcher(iters)
        self.current_batch = None
        self.prefetch_threads = [threading.Thread(target=self._state.run, args=(i,), daemon=True)
                                 for i in range(self.n_iter)]
        for thread in self.prefetch_threads:
            thread.start()

    def __del__(self):
        state = getattr(self, "_state", None)
        if state is None:
            return
        for e in state.data_ready:
            e.wait()
        state.stop()
        for thread in self.prefetch_threads:
            thread.join()

    def _renamed(self, which, renames):
        descs = [getattr(i, which) for i in self.iters]
        if renames is None:
            return sum(descs, [])
        return sum([[DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, DataDesc) else DataDesc(*x)
                     for x in d] for r, d in zip(renames, descs)], [])

    @property
    def provide_data(self):
        return self._renamed("provide_data", self.rename_data)

    @property
    def provide_label(self):
        return self._renamed("provide_label", self.rename_label)

    def reset(self):
        state = self._state
        for e in state.data_ready:
            e.wait()
        for i in self.iters:
            i.reset()
        for e in state.data_ready:
            e.clear()
        for e in state.data_taken:
            e.set()

    def iter_next(self):
        state = self._state
        for e in state.data_ready:
            e.wait()
        for err in state.error:
            if err is not None:
                for e in state.data_ready:
                    e.clear()
                for e in state.data_taken:
                    e.set()
                raise err
        batches = state.next_batch
        if batches[0] is None:
            for b in batches:
                assert b is None, "Number of entry mismatches between iterators"
            return False
        for b in batches:
            assert b.pad == batches[0].pad, "Number of entry mismatches between iterators"
        self.current_batch = DataBatch(sum([b.data for b in batches], []), sum([b.label for b in batches], []),
                                       batches[0].pad, batches[0].index, provide_data=self.provide_data,
                                       provide_label=self.provide_label)
        for e in state.data_ready:
            e.clear()
        for e in state.data_taken:
            e.set()
        return True

