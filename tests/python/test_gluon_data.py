"""weft.gluon.data: datasets, samplers, batchify functions and DataLoader, with
worker processes (fork, and spawn once), worker threads, early break,
re-iteration, worker errors, dead workers and timeouts."""
import gc
import multiprocessing
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import weft
import weft.nd as nd
from weft.gluon import data as gdata
from weft.gluon.data import batchify
from weft.gluon.data import _wire, _worker_pool

FORK = "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"


def host(x):
    """A batch (NDArray, or nested lists/tuples of them) as numpy, for comparing."""
    if isinstance(x, nd.NDArray):
        return x.asnumpy()
    if isinstance(x, (list, tuple)):
        return type(x)(host(v) for v in x)
    return x


def assert_same(a, b):
    """Two batches (as host() gives them) equal in structure, dtype and values."""
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), type(b)
        assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
        np.testing.assert_array_equal(a, b)
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), (type(a), type(b))
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        assert a == b


def epoch(loader):
    return [host(b) for b in loader]


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purposes (reaped by its parent later)
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def wait_gone(pids, limit=10.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


# ---- datasets used by worker tests (module level: they must pickle for spawn) ----
class Squares(gdata.Dataset):
    """(float32 vector, int label) samples."""

    def __len__(self):
        return 23

    def __getitem__(self, i):
        return np.full((3,), i * i, dtype=np.float32), i


class Failing(gdata.Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        if i == 7:
            raise ValueError("bad sample %d" % i)
        return np.float32(i)


class Unpicklable(Exception):
    def __init__(self, a, b):  # pylint: disable=super-init-not-called
        self.a = a
        self.b = b

    def __reduce__(self):
        raise TypeError("no pickling")


class FailingUnpicklable(gdata.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise Unpicklable(1, 2)
        return np.float32(i)


class Slow(gdata.Dataset):
    def __init__(self):
        self.slow = True

    def __len__(self):
        return 8

    def __getitem__(self, i):
        if self.slow and i == 5:
            time.sleep(60)
        return np.float32(i)


class Dies(gdata.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 4:
            os._exit(3)
        return np.float32(i)


class Noise(gdata.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return np.random.uniform(size=2).astype(np.float32)


class Ragged(gdata.Dataset):
    def __len__(self):
        return 9

    def __getitem__(self, i):
        return np.arange(i % 4 + 1, dtype=np.int32), np.float32(i)


class Large(gdata.Dataset):
    """Samples of 192 KiB: batches too big for the pipe's fast path."""

    def __len__(self):
        return 7

    def __getitem__(self, i):
        return np.arange(48 * 1024, dtype=np.float32) + i, np.full((3,), i, np.int8)


class Logged(gdata.Dataset):
    """Appends each index it loads to a file (visible across processes)."""

    def __init__(self, path):
        self.path = str(path)

    def __len__(self):
        return 16

    def __getitem__(self, i):
        time.sleep(0.05)
        with open(self.path, "a") as f:
            f.write("%d\n" % i)
        return np.float32(i)


def add_one(x):
    return x + 1


# ---- datasets ---------------------------------------------------------------------
def test_simple_dataset_and_iteration():
    ds = gdata.SimpleDataset([3, 1, 4, 1, 5])
    assert len(ds) == 5 and ds[2] == 4
    assert list(ds) == [3, 1, 4, 1, 5]


def test_array_dataset_mixed_inputs():
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = nd.array([10, 11, 12, 13])
    z = nd.array(np.arange(8).reshape(4, 2))
    w = ["a", "b", "c", "d"]
    ds = gdata.ArrayDataset(x, y, z, w)
    assert len(ds) == 4
    s = ds[2]
    assert isinstance(s, tuple) and len(s) == 4
    np.testing.assert_array_equal(s[0], x[2])
    assert np.ndim(s[1]) == 0 and s[1] == 12  # a 1-d NDArray gives scalars, as in MXNet
    assert isinstance(s[2], nd.NDArray) and s[2].shape == (2,)
    np.testing.assert_array_equal(s[2].asnumpy(), [4, 5])
    assert s[3] == "c"
    single = gdata.ArrayDataset(x)
    np.testing.assert_array_equal(single[1], x[1])  # one array: the sample, not a 1-tuple


def test_array_dataset_errors():
    with pytest.raises(ValueError, match=r"lengths \[4, 3\].*array 1 has length 3.*array 0 has length 4"):
        gdata.ArrayDataset(np.zeros(4), nd.zeros((3, 2)))
    with pytest.raises(ValueError, match="at least one"):
        gdata.ArrayDataset()


def test_transform_and_transform_first():
    ds = gdata.ArrayDataset(np.arange(5), np.arange(5) * 10)
    t = ds.transform(lambda a, b: (a + b, b))  # tuple samples are unpacked
    assert t[2] == (22, 20) and len(t) == 5
    tf = ds.transform_first(lambda a: a * 2)
    assert tf[3] == (6, 30)
    single = gdata.SimpleDataset([1, 2, 3])
    assert single.transform_first(lambda a: -a)[1] == -2  # a non-tuple sample: fn on the sample
    calls = []

    def counted(a):
        calls.append(a)
        return a + 1

    lazy = single.transform(counted)
    assert not calls and lazy[0] == 2 and calls == [1]
    calls.clear()
    eager = single.transform(counted, lazy=False)
    assert calls == [1, 2, 3] and isinstance(eager, gdata.SimpleDataset) and list(eager) == [2, 3, 4]


def test_filter_shard_take_sample():
    ds = gdata.SimpleDataset(list(range(10)))
    assert list(ds.filter(lambda v: v % 3 == 0)) == [0, 3, 6, 9]
    shards = [list(ds.shard(3, i)) for i in range(3)]
    assert shards == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert list(ds.take(3)) == [0, 1, 2] and len(ds.take(None)) == 10 and len(ds.take(50)) == 10
    assert list(ds.sample(gdata.IntervalSampler(10, 4))) == [0, 4, 8, 1, 5, 9, 2, 6, 3, 7]
    with pytest.raises(ValueError):
        ds.shard(3, 3)


def test_dataset_is_abstract():
    with pytest.raises(NotImplementedError):
        gdata.Dataset()[0]
    with pytest.raises(NotImplementedError):
        len(gdata.Dataset())


# ---- samplers ---------------------------------------------------------------------
def test_sequential_and_interval_samplers():
    assert list(gdata.SequentialSampler(4)) == [0, 1, 2, 3]
    assert list(gdata.SequentialSampler(3, start=5)) == [5, 6, 7]
    assert len(gdata.SequentialSampler(3, start=5)) == 3
    s = gdata.IntervalSampler(7, 3)
    assert list(s) == [0, 3, 6, 1, 4, 2, 5] and len(s) == 7
    s = gdata.IntervalSampler(7, 3, rollover=False)
    assert list(s) == [0, 3, 6] and len(s) == 3


def test_random_sampler_uses_numpy_global_rng():
    s = gdata.RandomSampler(50)
    np.random.seed(7)
    a = list(s)
    np.random.seed(7)
    b = list(s)
    assert a == b and sorted(a) == list(range(50)) and len(s) == 50
    ref = np.arange(50)
    np.random.RandomState(7).shuffle(ref)
    assert a == ref.tolist()  # the permutation MXNet's RandomSampler draws
    assert list(s) != a  # and a new one each epoch


@pytest.mark.parametrize("mode,expect,length", [
    ("keep", [[0, 1, 2], [3, 4, 5], [6]], 3),
    ("discard", [[0, 1, 2], [3, 4, 5]], 2),
])
def test_batch_sampler_keep_discard(mode, expect, length):
    bs = gdata.BatchSampler(gdata.SequentialSampler(7), 3, mode)
    assert list(bs) == expect and len(bs) == length
    assert list(bs) == expect


def test_batch_sampler_rollover():
    bs = gdata.BatchSampler(gdata.SequentialSampler(7), 3, "rollover")
    assert len(bs) == 2
    assert list(bs) == [[0, 1, 2], [3, 4, 5]]
    assert len(bs) == 2  # (1 left over + 7) // 3
    assert list(bs) == [[6, 0, 1], [2, 3, 4]]
    assert len(bs) == 3  # (2 + 7) // 3
    assert list(bs) == [[5, 6, 0], [1, 2, 3], [4, 5, 6]]


def test_batch_sampler_errors():
    with pytest.raises(ValueError, match="last_batch"):
        gdata.BatchSampler(gdata.SequentialSampler(3), 2, "bogus")
    with pytest.raises(ValueError, match="batch_size"):
        gdata.BatchSampler(gdata.SequentialSampler(3), 0)


# ---- batchify ---------------------------------------------------------------------
def test_default_batchify():
    b = batchify.default_batchify_fn([nd.array([[1, 2]]), nd.array([[3, 4]])])
    assert isinstance(b, nd.NDArray) and b.shape == (2, 1, 2) and b.dtype == np.float32
    b = batchify.default_batchify_fn([np.arange(3, dtype=np.uint8)] * 2)
    assert b.dtype == np.uint8 and b.shape == (2, 3)
    assert batchify.default_batchify_fn([1, 2, 3]).dtype == np.int64
    assert batchify.default_batchify_fn([1.5, 2.0]).dtype == np.float64
    out = batchify.default_batchify_fn([(np.float32(1), 2), (np.float32(3), 4)])
    assert isinstance(out, list) and len(out) == 2
    assert_same(host(out), [np.array([1, 3], np.float32), np.array([2, 4])])
    assert batchify.default_mp_batchify_fn([1, 2]).shape == (2,)


def test_stack_pad_append_group_aslist():
    assert_same(host(batchify.Stack()([np.ones(2, np.int32), np.zeros(2, np.int32)])),
                np.array([[1, 1], [0, 0]], np.int32))
    assert batchify.Stack(dtype="float32")([nd.array([1], dtype="int32")] * 2).dtype == np.float32
    samples = [np.array([1, 2, 3]), np.array([4]), nd.array([5, 6])]
    assert_same(host(batchify.Pad(val=-1, dtype="int32")(samples)),
                np.array([[1, 2, 3], [4, -1, -1], [5, 6, -1]], np.int32))
    padded = batchify.Pad(round_to=4)([np.ones((2, 1)), np.ones((1, 3))])
    assert padded.shape == (2, 4, 4) and padded.dtype == np.float64
    np.testing.assert_array_equal(padded.asnumpy()[1], np.pad(np.ones((1, 3)), ((0, 3), (0, 1))))
    data, lengths = batchify.Pad(axis=0, pad_val=9, ret_length=True)([np.zeros((1, 2)), np.zeros((3, 2))])
    assert data.shape == (2, 3, 2) and data.asnumpy()[0, 1:].tolist() == [[9, 9], [9, 9]]
    assert_same(lengths.asnumpy(), np.array([1, 3], np.int32))
    with pytest.raises(ValueError, match="not padded"):
        batchify.Pad(axis=0)([np.zeros((1, 2)), np.zeros((1, 3))])
    app = batchify.Append()([np.zeros((2,)), nd.ones((3,))])
    assert [a.shape for a in app] == [(1, 2), (1, 3)]
    assert [a.shape for a in batchify.Append(expand=False)([np.zeros((2,))])] == [(2,)]
    g = batchify.Group(batchify.Stack(), batchify.Pad())([(np.ones(2), [1]), (np.zeros(2), [2, 3])])
    assert isinstance(g, tuple) and g[0].shape == (2, 2) and g[1].asnumpy().tolist() == [[1, 0], [2, 3]]
    assert batchify.Tuple is batchify.Group
    assert batchify.Group([batchify.Stack(), batchify.AsList()])([(1, "a"), (2, "b")])[1] == ["a", "b"]
    with pytest.raises(ValueError, match="2 fields but 3"):
        batchify.Group(batchify.Stack(), batchify.Stack(), batchify.Stack())([(1, 2)])


# ---- DataLoader in this process -----------------------------------------------------
def test_dataloader_batches_and_len():
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10)
    for last_batch, sizes in [("keep", [4, 4, 2]), ("discard", [4, 4]), (None, [4, 4, 2])]:
        loader = gdata.DataLoader(gdata.ArrayDataset(x, y), batch_size=4, last_batch=last_batch)
        batches = list(loader)
        assert len(loader) == len(sizes) and [b[0].shape[0] for b in batches] == sizes
        assert isinstance(batches[0], list) and batches[0][1].dtype == np.int64
        np.testing.assert_array_equal(batches[1][0].asnumpy(), x[4:8])
    loader = gdata.DataLoader(gdata.SimpleDataset(list(range(10))), batch_size=4, last_batch="rollover")
    assert [b.asnumpy().tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert [b.asnumpy().tolist() for b in loader] == [[8, 9, 0, 1], [2, 3, 4, 5], [6, 7, 8, 9]]


def test_dataloader_shuffle_is_a_reproducible_permutation():
    ds = gdata.SimpleDataset(list(range(30)))
    loader = gdata.DataLoader(ds, batch_size=7, shuffle=True)
    np.random.seed(3)
    weft.random.seed(3)
    a = np.concatenate([b.asnumpy() for b in loader])
    np.random.seed(3)
    b = np.concatenate([b.asnumpy() for b in loader])
    assert sorted(a.tolist()) == list(range(30)) and a.tolist() == b.tolist()
    assert a.tolist() != list(range(30))


def test_dataloader_sampler_batchify_and_argument_errors():
    ds = gdata.SimpleDataset(list(range(6)))
    loader = gdata.DataLoader(ds, batch_size=2, sampler=gdata.SequentialSampler(3, start=3),
                              batchify_fn=lambda samples: sum(samples))
    assert list(loader) == [7, 5]
    bs = gdata.BatchSampler(gdata.SequentialSampler(6), 4, "discard")
    assert [b.asnumpy().tolist() for b in gdata.DataLoader(ds, batch_sampler=bs)] == [[0, 1, 2, 3]]
    with pytest.raises(ValueError, match="batch_size"):
        gdata.DataLoader(ds)
    with pytest.raises(ValueError, match="shuffle"):
        gdata.DataLoader(ds, batch_size=2, shuffle=True, sampler=gdata.SequentialSampler(6))
    with pytest.raises(ValueError, match="batch_sampler"):
        gdata.DataLoader(ds, batch_size=2, batch_sampler=bs)
    with pytest.raises(ValueError, match="timeout"):
        gdata.DataLoader(ds, batch_size=2, timeout=0)
    assert len(list(gdata.DataLoader(ds, batch_size=4, pin_memory=True, num_workers=-1))) == 2


# ---- DataLoader with worker processes -------------------------------------------------
def test_workers_give_the_same_batches_in_order():
    x = nd.array(np.arange(46).reshape(23, 2))  # NDArray samples: read as numpy by the workers
    cases = [
        (gdata.ArrayDataset(x, np.arange(23)), {}),
        (Squares(), {"last_batch": "discard"}),
        (Squares().transform_first(add_one), {}),
        (gdata.SimpleDataset([(float(i), i) for i in range(23)]), {}),
        (Ragged(), {"batchify_fn": batchify.Group(batchify.Pad(val=-1), batchify.Stack())}),
        (Ragged(), {"batchify_fn": batchify.Group(batchify.Append(), batchify.AsList())}),
    ]
    for ds, kw in cases:
        want = epoch(gdata.DataLoader(ds, batch_size=4, **kw))
        for nw, prefetch in [(1, None), (3, 1), (2, 10)]:
            loader = gdata.DataLoader(ds, batch_size=4, num_workers=nw, prefetch=prefetch, **kw)
            assert len(loader) == len(want)
            got = epoch(loader)
            assert len(got) == len(want)
            for g, w in zip(got, want):
                assert_same(g, w)


def test_workers_with_shuffle_match_num_workers_0():
    ds = Squares()
    np.random.seed(11)
    want = epoch(gdata.DataLoader(ds, batch_size=5, shuffle=True))
    np.random.seed(11)
    got = epoch(gdata.DataLoader(ds, batch_size=5, shuffle=True, num_workers=2))
    for g, w in zip(got, want):
        assert_same(g, w)


@pytest.mark.parametrize("memfd", [True, False])
def test_large_batches_both_transports(monkeypatch, memfd):
    if memfd and not _wire.USE_MEMFD:
        pytest.skip("no memfd here")
    monkeypatch.setattr(_wire, "USE_MEMFD", memfd)
    monkeypatch.setattr(_wire, "PIPE_CHUNK_BYTES", 100000)  # several pieces per buffer
    want = epoch(gdata.DataLoader(Large(), batch_size=3))
    for g, w in zip(epoch(gdata.DataLoader(Large(), batch_size=3, num_workers=2)), want):
        assert_same(g, w)
    seen = []

    def keep(samples):  # runs in the parent, on numpy samples: writable, as in-process
        seen.extend(s[0].flags.writeable for s in samples)
        return len(samples)

    assert list(gdata.DataLoader(Large(), batch_size=3, num_workers=2, batchify_fn=keep)) == [3, 3, 1]
    assert seen == [True] * 7


def test_custom_batchify_runs_in_parent_on_ndarray_samples():
    seen = []

    def batchify_fn(samples):
        seen.append([type(s[0]).__name__ for s in samples])
        return nd.stack(*[s[0] for s in samples]) * 2, [s[1] for s in samples]

    ds = gdata.ArrayDataset(nd.array(np.arange(10).reshape(5, 2)), np.arange(5))
    want = epoch(gdata.DataLoader(ds, batch_size=2, batchify_fn=batchify_fn))
    got = epoch(gdata.DataLoader(ds, batch_size=2, batchify_fn=batchify_fn, num_workers=2))
    assert len(got) == len(want) == 3
    for g, w in zip(got, want):
        assert_same(g[0], w[0])
        assert [int(v) for v in g[1]] == [int(v) for v in w[1]]
    assert all(names == ["NDArray"] * len(names) for names in seen)


def test_early_break_reiteration_and_two_live_iterators():
    ds = Squares()
    want = epoch(gdata.DataLoader(ds, batch_size=3))
    loader = gdata.DataLoader(ds, batch_size=3, num_workers=2)
    for _ in range(3):
        for i, _b in enumerate(loader):
            if i == 1:
                break
    for g, w in zip(epoch(loader), want):
        assert_same(g, w)
    pairs = list(zip(loader, loader))
    assert len(pairs) == len(want)
    for (a, b), w in zip(pairs, want):
        assert_same(host(a), w)
        assert_same(host(b), w)
    it = iter(loader)
    assert len(it) == len(want)
    next(it)
    assert_same(epoch(loader)[-1], want[-1])


def test_abandoned_batches_are_not_loaded(tmp_path):
    log = tmp_path / "loaded.txt"
    loader = gdata.DataLoader(Logged(log), batch_size=1, num_workers=1, prefetch=12)
    for _b in loader:
        break
    time.sleep(0.8)  # time enough to load all 12 queued batches, were they not cancelled
    assert len(log.read_text().split()) < 12
    assert [b.asnumpy().tolist() for b in loader][:3] == [[0.0], [1.0], [2.0]]


def test_operators_run_in_worker_processes():
    # Note [Engine and fork]: a forked worker has a working engine, so a
    # transform may call operators (elementwise, and a oneDNN convolution,
    # which runs OpenMP in the parent before the fork and in the child after it).
    w = nd.array(np.ones((2, 1, 1, 1), np.float32))
    nd.Convolution(nd.ones((1, 1, 4, 4)), w, kernel=(1, 1), num_filter=2, no_bias=True).wait_to_read()

    def conv_sum(x):
        y = nd.Convolution(x.reshape((1, 1, 1, 2)), w, kernel=(1, 1), num_filter=2, no_bias=True)
        return y.sum(axis=(0, 2, 3)) * 2

    ds = gdata.ArrayDataset(nd.array(np.arange(8).reshape(4, 2))).transform(conv_sum)
    want = [np.array([[2, 2], [10, 10]], np.float32), np.array([[18, 18], [26, 26]], np.float32)]
    for kw in ({"num_workers": 2}, {"num_workers": 1, "thread_pool": True}, {}):
        got = epoch(gdata.DataLoader(ds, batch_size=2, timeout=60, **kw))
        assert len(got) == 2, kw
        for g, e in zip(got, want):
            assert_same(g, e)


def test_worker_exception_is_reraised_with_traceback():
    loader = gdata.DataLoader(Failing(), batch_size=2, num_workers=2)
    it = iter(loader)
    np.testing.assert_array_equal(next(it).asnumpy(), [0, 1])
    with pytest.raises(ValueError, match="bad sample 7") as info:
        list(it)
    cause = info.value.__cause__
    assert isinstance(cause, _worker_pool._RemoteTraceback)
    assert "Traceback" in str(cause) and "__getitem__" in str(cause) and "DataLoader worker" in str(cause)
    with pytest.raises(StopIteration):
        next(it)
    assert len(list(gdata.DataLoader(Failing().take(6), batch_size=2, num_workers=2))) == 3
    # the pool survives a worker exception
    with pytest.raises(ValueError):
        list(loader)
    assert loader._pool is not None and not loader._pool.broken


def test_unpicklable_worker_exception():
    loader = gdata.DataLoader(FailingUnpicklable(), batch_size=1, num_workers=1)
    with pytest.raises(gdata.DataLoaderWorkerError, match=r"(?s)Unpicklable.*Traceback.*__getitem__"):
        list(loader)


def test_timeout_then_fresh_pool():
    ds = Slow()
    loader = gdata.DataLoader(ds, batch_size=2, num_workers=2, timeout=1.0)
    with pytest.raises(gdata.DataLoaderTimeoutError, match="timeout=1s") as info:
        list(loader)
    assert isinstance(info.value, multiprocessing.TimeoutError)
    pids = loader._pool.pids
    assert loader._pool.broken and wait_gone(pids)
    ds.slow = False  # the next pool forks with this state
    loader._timeout = 120  # no tight deadline for the batches that follow on a busy machine
    assert [b.asnumpy().tolist() for b in loader] == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert set(loader._pool.pids).isdisjoint(pids)


def test_dead_worker_is_reported():
    loader = gdata.DataLoader(Dies(), batch_size=2, num_workers=2)
    with pytest.raises(gdata.DataLoaderWorkerError, match="exited with code 3"):
        list(loader)
    assert wait_gone(loader._pool.pids)


def test_workers_are_seeded_differently_and_reproducibly():
    def run():
        np.random.seed(5)
        return np.concatenate([b.asnumpy() for b in gdata.DataLoader(Noise(), batch_size=1, num_workers=2)])

    a, b = run(), run()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a[0], a[1])  # batch 0 and 1 come from different workers


def test_workers_shut_down_with_the_loader():
    loader = gdata.DataLoader(Squares(), batch_size=4, num_workers=2)
    it = iter(loader)
    next(it)
    pids = loader._pool.pids
    assert all(pid_alive(p) for p in pids)
    del it, loader
    gc.collect()
    assert wait_gone(pids)


def test_interpreter_exit_does_not_hang(tmp_path):
    script = tmp_path / "exit.py"
    script.write_text(
        "import numpy as np, time\n"
        "from weft.gluon import data as gdata\n"
        "class Slow(gdata.Dataset):\n"
        "    def __len__(self): return 100\n"
        "    def __getitem__(self, i):\n"
        "        if i >= 8: time.sleep(60)\n"
        "        return np.float32(i)\n"
        "loader = gdata.DataLoader(Slow(), batch_size=2, num_workers=2)\n"
        "it = iter(loader)\n"
        "print(next(it).asnumpy().tolist(), flush=True)\n"
        "print(' '.join(str(p) for p in loader._pool.pids), flush=True)\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([p for p in sys.path if p] + [env.get("PYTHONPATH", "")])
    start = time.monotonic()
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "[0.0, 1.0]"
    assert time.monotonic() - start < 50
    assert wait_gone([int(p) for p in lines[1].split()])


@pytest.mark.skipif(not FORK, reason="spawn is already the default here")
def test_spawn_start_method(monkeypatch):
    monkeypatch.setattr(_worker_pool, "_START_METHOD", "spawn")
    ds = gdata.ArrayDataset(nd.array(np.arange(12).reshape(6, 2)), np.arange(6))
    want = epoch(gdata.DataLoader(ds, batch_size=4))
    got = epoch(gdata.DataLoader(ds, batch_size=4, num_workers=1))
    for g, w in zip(got, want):
        assert_same(g, w)


@pytest.mark.skipif(not FORK, reason="spawn is already the default here")
def test_spawn_with_unpicklable_dataset_says_why(monkeypatch):
    monkeypatch.setattr(_worker_pool, "_START_METHOD", "spawn")
    ds = gdata.SimpleDataset([1, 2, 3]).transform(lambda v: v + 1)
    with pytest.raises(gdata.DataLoaderWorkerError, match="spawn.*lambdas"):
        list(gdata.DataLoader(ds, batch_size=2, num_workers=2))


# ---- DataLoader with worker threads ----------------------------------------------------
def test_thread_pool():
    ds = gdata.ArrayDataset(nd.array(np.arange(46).reshape(23, 2)), np.arange(23))
    want = epoch(gdata.DataLoader(ds, batch_size=4))
    loader = gdata.DataLoader(ds.transform_first(lambda v: v * 2), batch_size=4, num_workers=2, thread_pool=True)
    got = epoch(loader)
    for g, w in zip(got, want):
        assert_same(g, [w[0] * 2, w[1]])
    for i, _b in enumerate(loader):
        if i == 1:
            break
    assert len(epoch(loader)) == len(want)
    with pytest.raises(ValueError, match="bad sample 7"):
        list(gdata.DataLoader(Failing(), batch_size=2, num_workers=2, thread_pool=True))
    slow = Slow()
    loader = gdata.DataLoader(slow, batch_size=2, num_workers=2, thread_pool=True, timeout=0.5)
    with pytest.raises(gdata.DataLoaderTimeoutError):
        list(loader)
