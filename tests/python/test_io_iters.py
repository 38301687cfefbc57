"""weft.io iterators against MXNet 1.9.1's documented behaviour: NDArrayIter's
pad / discard / roll_over (Note [NDArrayIter last batch]), the BatchLoader's
round_batch (CSVIter, LibSVMIter), MNISTIter on idx files, ResizeIter and
PrefetchingIter."""
import struct

import numpy as np
import pytest

import weft as mx
from weft import io
from weft.io.idx_format import read_idx, write_idx


def epoch(it):
    """[(data column 0, label, pad)] of one pass."""
    return [(b.data[0].asnumpy().reshape(len(b.data[0]), -1)[:, 0].tolist(),
             b.label[0].asnumpy().tolist() if b.label else None, b.pad) for b in it]


def test_data_desc_and_batch():
    d = io.DataDesc("data", (2, 3))
    name, shape = d
    assert (name, shape, d.dtype, d.layout) == ("data", (2, 3), np.float32, "NCHW")
    assert repr(d).startswith("DataDesc[data,(2, 3),")
    assert io.DataDesc.get_batch_axis("TNC") == 1 and io.DataDesc.get_batch_axis(None) == 0
    descs = io.DataDesc.get_list([("a", (1,)), ("b", (2,))], [("a", np.int32), ("b", np.float64)])
    assert [x.dtype for x in descs] == [np.int32, np.float64]
    b = io.DataBatch([mx.nd.zeros((2, 3))], [mx.nd.zeros((2,))], pad=1)
    assert str(b) == "DataBatch: data shapes: [(2, 3)] label shapes: [(2,)]"
    with pytest.raises(AssertionError):
        io.DataBatch(mx.nd.zeros((2,)))


def test_ndarrayiter_pad():
    x = np.arange(10).reshape(10, 1)
    it = io.NDArrayIter(x, np.arange(10), batch_size=4)
    assert epoch(it) == [([0, 1, 2, 3], [0, 1, 2, 3], 0), ([4, 5, 6, 7], [4, 5, 6, 7], 0),
                         ([8, 9, 0, 1], [8, 9, 0, 1], 2)]
    it.reset()
    assert len(epoch(it)) == 3
    # padding longer than the data repeats it
    it = io.NDArrayIter(np.arange(3).reshape(3, 1), batch_size=8)
    assert epoch(it) == [([0, 1, 2, 0, 1, 2, 0, 1], None, 5)]


def test_ndarrayiter_discard():
    it = io.NDArrayIter(np.arange(10).reshape(10, 1), np.arange(10), batch_size=4, last_batch_handle="discard")
    assert [b[0] for b in epoch(it)] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    it.reset()
    assert [b[0] for b in epoch(it)] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_ndarrayiter_roll_over_carries_samples_into_next_epoch():
    it = io.NDArrayIter(np.arange(10).reshape(10, 1), np.arange(10), batch_size=3, last_batch_handle="roll_over")
    assert epoch(it) == [([0, 1, 2], [0, 1, 2], 0), ([3, 4, 5], [3, 4, 5], 0), ([6, 7, 8], [6, 7, 8], 0)]
    it.reset()
    # the kept sample 9 leads; MXNet reports pad = -cursor = 1 for this batch
    assert epoch(it) == [([9, 0, 1], [9, 0, 1], 1), ([2, 3, 4], [2, 3, 4], 0), ([5, 6, 7], [5, 6, 7], 0)]
    it.reset()
    assert epoch(it)[0] == ([8, 9, 0], [8, 9, 0], 2)
    it.hard_reset()
    assert epoch(it)[0] == ([0, 1, 2], [0, 1, 2], 0)


def test_ndarrayiter_dict_list_names_and_dtypes():
    data = {"b": np.ones((5, 2)), "a": np.zeros((5, 3), dtype=np.int32)}
    it = io.NDArrayIter(data, [np.arange(5), np.arange(5) * 2], batch_size=2)
    assert [d.name for d in it.provide_data] == ["a", "b"]  # sorted by name, as MXNet
    assert [d.shape for d in it.provide_data] == [(2, 3), (2, 2)]
    assert [d.name for d in it.provide_label] == ["_0_softmax_label", "_1_softmax_label"]
    assert it.provide_data[0].dtype == np.float32  # numpy inputs become float32 NDArrays
    b = it.next()
    assert len(b.data) == 2 and b.label[1].asnumpy().tolist() == [0, 2]
    it = io.NDArrayIter(mx.nd.array(np.arange(4), dtype="int32"), batch_size=2, data_name="x")
    assert it.provide_data[0].name == "x" and it.provide_data[0].dtype == np.int32 and it.provide_label == []
    with pytest.raises(ValueError, match="samples"):
        io.NDArrayIter(np.zeros((4, 1)), np.zeros(3))
    with pytest.raises(ValueError, match="last_batch_handle"):
        io.NDArrayIter(np.zeros((4, 1)), last_batch_handle="keep")


def test_ndarrayiter_shuffle_keeps_pairs():
    np.random.seed(3)
    x = np.arange(12).reshape(12, 1)
    it = io.NDArrayIter(x, np.arange(12) * 10, batch_size=4, shuffle=True)
    seen = epoch(it)
    order = [v for b in seen for v in b[0]]
    assert sorted(order) == list(range(12)) and order != list(range(12))
    for data, label, _ in seen:
        assert [d * 10 for d in data] == label
    it.reset()
    assert [v for b in epoch(it) for v in b[0]] != order  # reshuffled at reset


def test_dataiter_protocol_through_iter_next():
    class Counting(io.DataIter):
        def __init__(self):
            super().__init__(batch_size=2)
            self.i = 0

        def iter_next(self):
            self.i += 1
            return self.i <= 2

        def getdata(self):
            return [mx.nd.full((2,), self.i)]

        def getlabel(self):
            return None

        def getpad(self):
            return 0

    batches = list(Counting())
    assert [b.data[0].asnumpy().tolist() for b in batches] == [[1, 1], [2, 2]]
    assert batches[0].index is None and batches[0].pad == 0


def write_csv(path, rows):
    path.write_text("\n".join(",".join(str(v) for v in r) for r in rows) + "\n")


def test_csviter_round_batch_and_next_epoch(tmp_path):
    write_csv(tmp_path / "d.csv", [[i, i + 0.5, -i, 2 * i] for i in range(5)])
    write_csv(tmp_path / "l.csv", [[i * 10] for i in range(5)])
    it = io.CSVIter(data_csv=str(tmp_path / "d.csv"), data_shape=(2, 2), label_csv=str(tmp_path / "l.csv"),
                    batch_size=2)
    assert it.provide_data[0].shape == (2, 2, 2) and it.provide_label[0].shape == (2,)
    batches = list(it)
    assert [b.pad for b in batches] == [0, 0, 1]
    np.testing.assert_allclose(batches[0].data[0].asnumpy()[1], [[1, 1.5], [-1, 2]])
    assert batches[2].label[0].asnumpy().tolist() == [40, 0]  # wrapped to the start
    assert batches[2].index.tolist() == [4, 0]
    it.reset()
    # the next epoch starts after the sample the round batch took
    assert [b.label[0].asnumpy().tolist() for b in it] == [[10, 20], [30, 40]]


def test_csviter_no_round_batch_no_label_dtype(tmp_path):
    write_csv(tmp_path / "d.csv", [[i, i] for i in range(3)])
    it = io.CSVIter(data_csv=str(tmp_path / "d.csv"), data_shape=(2,), batch_size=2, round_batch=False,
                    dtype="int32")
    batches = list(it)
    assert [b.pad for b in batches] == [0, 1]
    assert batches[0].data[0].dtype == np.int32 and batches[0].label[0].asnumpy().tolist() == [0, 0]
    it.reset()
    assert len(list(it)) == 2


def test_csviter_bad_input_names_file_and_row(tmp_path):
    write_csv(tmp_path / "d.csv", [[1, 2], [3, 4, 5]])
    with pytest.raises(mx.WeftIOError, match=r"d\.csv row 2 has 3 values.*needs 2"):
        io.CSVIter(data_csv=str(tmp_path / "d.csv"), data_shape=(2,), batch_size=1)
    (tmp_path / "e.csv").write_text("1,2\n3,x\n")
    with pytest.raises(mx.WeftIOError, match=r"e\.csv row 2"):
        io.CSVIter(data_csv=str(tmp_path / "e.csv"), data_shape=(2,), batch_size=1)
    write_csv(tmp_path / "ok.csv", [[1, 2]] * 3)
    write_csv(tmp_path / "short.csv", [[1], [2]])
    with pytest.raises(mx.WeftIOError, match=r"label for every data row"):
        io.CSVIter(data_csv=str(tmp_path / "ok.csv"), data_shape=(2,), label_csv=str(tmp_path / "short.csv"),
                   batch_size=1)
    with pytest.raises(mx.WeftIOError, match=r"no such file: .*missing\.csv"):
        io.CSVIter(data_csv=str(tmp_path / "missing.csv"), data_shape=(2,), batch_size=1)
    with pytest.raises(ValueError, match="bigger than batch size"):
        io.CSVIter(data_csv=str(tmp_path / "ok.csv"), data_shape=(2,), batch_size=4)


def test_libsvmiter_dense(tmp_path):
    (tmp_path / "d.t").write_text("1.0 0:0.5 2:1.2\n-2.0\n-3.0 0:0.6 1:2.4 2:1.2\n4 2:-1.2\n")
    it = io.LibSVMIter(data_libsvm=str(tmp_path / "d.t"), data_shape=(3,), batch_size=3)
    batches = list(it)
    np.testing.assert_allclose(batches[0].data[0].asnumpy(), [[0.5, 0, 1.2], [0, 0, 0], [0.6, 2.4, 1.2]],
                               rtol=1e-6)
    assert batches[0].label[0].asnumpy().tolist() == [1, -2, -3]
    assert batches[1].pad == 2 and batches[1].label[0].asnumpy().tolist() == [4, 1, -2]
    (tmp_path / "l.t").write_text("1 0:1\n2 1:2\n3\n4 0:4 1:4\n")
    it = io.LibSVMIter(data_libsvm=str(tmp_path / "d.t"), data_shape=(3,), label_libsvm=str(tmp_path / "l.t"),
                       label_shape=(2,), batch_size=2, num_parts=2, part_index=1)
    b = it.next()
    assert b.label[0].asnumpy().tolist() == [[0, 0], [4, 4]]
    (tmp_path / "bad.t").write_text("1 0:1\n2 7:1\n")
    with pytest.raises(mx.WeftIOError, match=r"bad\.t line 2: feature index 7"):
        io.LibSVMIter(data_libsvm=str(tmp_path / "bad.t"), data_shape=(3,), batch_size=1)


def _mnist(tmp_path, n=10, gz=False):
    rng = np.random.RandomState(0)
    images = rng.randint(0, 256, size=(n, 4, 5)).astype(np.uint8)
    labels = (np.arange(n) % 10).astype(np.uint8)
    suffix = ".gz" if gz else ""
    write_idx(tmp_path / ("img" + suffix), images, compress=gz)
    write_idx(tmp_path / ("lbl" + suffix), labels, compress=gz)
    return str(tmp_path / ("img" + suffix)), str(tmp_path / ("lbl" + suffix)), images, labels


def test_idx_format_bytes(tmp_path):
    arr = np.array([[1, 2, 3], [4, 5, 250]], dtype=np.uint8)
    write_idx(tmp_path / "a", arr)
    assert (tmp_path / "a").read_bytes() == b"\0\0\x08\x02" + struct.pack(">II", 2, 3) + arr.tobytes()
    (tmp_path / "i").write_bytes(b"\0\0\x0c\x01" + struct.pack(">I", 2) + struct.pack(">ii", -5, 70000))
    assert read_idx(tmp_path / "i").tolist() == [-5, 70000]


def test_mnistiter(tmp_path):
    img, lbl, images, labels = _mnist(tmp_path, gz=True)
    it = io.MNISTIter(image=img, label=lbl, batch_size=4, shuffle=False, silent=True)
    assert it.provide_data[0].shape == (4, 1, 4, 5) and it.provide_label[0].shape == (4,)
    batches = list(it)
    assert len(batches) == 2  # the short last batch is dropped
    np.testing.assert_allclose(batches[0].data[0].asnumpy()[:, 0], images[:4] / 256.0, rtol=1e-6)
    assert batches[1].label[0].asnumpy().tolist() == labels[4:8].tolist()
    with pytest.warns(UserWarning, match="MNISTIter: ignoring arguments it does not use: data_shape"):
        # MXNet's C++ iterators ignore arguments they do not know; scripts pass data_shape here
        flat = io.MNISTIter(image=img, label=lbl, batch_size=5, flat=True, shuffle=False, silent=True,
                            data_shape=(784,))
    assert flat.next().data[0].shape == (5, 20)
    part = io.MNISTIter(image=img, label=lbl, batch_size=2, shuffle=False, num_parts=3, part_index=1, silent=True)
    # rows [int(10 / 3), int(20 / 3)) = 3, 4, 5; the short batch [5] is dropped
    assert [b.label[0].asnumpy().tolist() for b in part] == [[3, 4]]
    a = io.MNISTIter(image=img, label=lbl, batch_size=10, seed=7, silent=True).next()
    b = io.MNISTIter(image=img, label=lbl, batch_size=10, seed=7, silent=True).next()
    got = a.label[0].asnumpy()
    assert got.tolist() == b.label[0].asnumpy().tolist() and sorted(got.tolist()) == sorted(labels.tolist())
    rows = a.data[0].asnumpy()[:, 0] * 256.0
    for r, l in zip(rows, got):  # images stay with their labels when shuffled
        assert labels[int(np.argmax((images == r).all(axis=(1, 2))))] == l


def test_mnistiter_bad_files(tmp_path):
    img, lbl, _, _ = _mnist(tmp_path)
    data = open(img, "rb").read()
    (tmp_path / "trunc").write_bytes(data[:-7])
    with pytest.raises(mx.WeftIOError, match=r"trunc: truncated idx file"):
        io.MNISTIter(image=str(tmp_path / "trunc"), label=lbl, silent=True)
    (tmp_path / "junk").write_bytes(b"hello world")
    with pytest.raises(mx.WeftIOError, match=r"junk is not an idx file"):
        io.MNISTIter(image=str(tmp_path / "junk"), label=lbl, silent=True)
    write_idx(tmp_path / "few", np.zeros(3, dtype=np.uint8))
    with pytest.raises(mx.WeftIOError, match=r"10 images but .*few has 3 labels"):
        io.MNISTIter(image=img, label=str(tmp_path / "few"), silent=True)
    with pytest.raises(mx.WeftIOError, match=r"no such idx file: .*nope"):
        io.MNISTIter(image=str(tmp_path / "nope"), label=lbl, silent=True)


def test_resize_iter():
    base = io.NDArrayIter(np.arange(6).reshape(6, 1), batch_size=2)
    it = io.ResizeIter(base, 5)
    assert [b[0] for b in epoch(it)] == [[0, 1], [2, 3], [4, 5], [0, 1], [2, 3]]
    it.reset()
    assert len(epoch(it)) == 5
    short = io.ResizeIter(io.NDArrayIter(np.arange(6).reshape(6, 1), batch_size=2), 2)
    assert [b[0] for b in epoch(short)] == [[0, 1], [2, 3]]
    assert short.provide_data[0].shape == (2, 1)


def test_prefetching_iter_joins_and_renames():
    a = io.NDArrayIter(np.arange(6).reshape(6, 1), np.arange(6), batch_size=3)
    b = io.NDArrayIter(np.arange(6).reshape(6, 1) * 10, np.arange(6), batch_size=3)
    it = io.PrefetchingIter([a, b], rename_data=[{"data": "a"}, {"data": "b"}])
    assert [d.name for d in it.provide_data] == ["a", "b"] and it.batch_size == 3
    for _ in range(2):
        batches = list(it)
        assert len(batches) == 2
        assert batches[1].data[1].asnumpy().ravel().tolist() == [30, 40, 50]
        assert len(batches[0].label) == 2
        it.reset()


def test_prefetching_iter_raises_the_inner_error():
    class Failing(io.NDArrayIter):
        def next(self):
            raise ValueError("broken source")

    it = io.PrefetchingIter(Failing(np.zeros((4, 1)), batch_size=2))
    with pytest.raises(ValueError, match="broken source"):
        it.next()


def test_ndarrayiter_docstring_dicts_of_unequal_sample_counts():
    # MXNet 1.9.1's NDArrayIter docstring: the first array by name sets the number of
    # samples (Note [NDArrayIter sample counts]); data2's and label2's extra ten are unused.
    data = {"data1": np.zeros((10, 2, 2)), "data2": np.arange(80.0).reshape(20, 2, 2)}
    label = {"label1": np.zeros((10, 1)), "label2": np.arange(20.0).reshape(20, 1)}
    with pytest.warns(UserWarning, match=r"first 10 samples of 'data2' \(20\)"):
        io.NDArrayIter(data, label, 3, False, last_batch_handle="discard")
    with pytest.warns(UserWarning, match=r"'label2' \(20\)"):
        dataiter = io.NDArrayIter(data, label, 3, True, last_batch_handle="discard")
    assert [(d.name, d.shape) for d in dataiter.provide_data] == [("data1", (3, 2, 2)), ("data2", (3, 2, 2))]
    assert [(d.name, d.shape) for d in dataiter.provide_label] == [("label1", (3, 1)), ("label2", (3, 1))]
    seen = []
    for batch in dataiter:
        assert [tuple(d.shape) for d in batch.data] == [(3, 2, 2)] * 2
        assert [tuple(l.shape) for l in batch.label] == [(3, 1)] * 2
        seen.extend(batch.label[1].asnumpy()[:, 0].tolist())
        # data2 and label2 stay aligned under the shuffle
        assert batch.data[1].asnumpy()[:, 0, 0].tolist() == [4 * v for v in batch.label[1].asnumpy()[:, 0]]
    assert len(seen) == 9 and set(seen) <= set(range(10))  # 'discard' drops the tenth sample
    # without shuffling, padding wraps around the first 10 samples of the longer arrays too
    with pytest.warns(UserWarning):
        it = io.NDArrayIter(data, label, 4)
    assert len(epoch(it)) == 3  # 10 samples in batches of 4, not 20
    it.reset()
    last = list(it)[-1]
    assert last.pad == 2 and last.label[1].asnumpy()[:, 0].tolist() == [8, 9, 0, 1]
    assert last.data[1].asnumpy()[:, 0, 0].tolist() == [32, 36, 0, 4]


def test_ndarrayiter_refuses_an_array_shorter_than_the_first():
    with pytest.raises(ValueError, match=r"NDArrayIter: 'data2' has 5 samples, fewer than the 10 of 'data1'"):
        io.NDArrayIter({"data1": np.zeros((10, 2)), "data2": np.zeros((5, 2))}, batch_size=3)
    with pytest.raises(ValueError, match=r"'label2' has 4 samples"):
        io.NDArrayIter(np.zeros((10, 2)), {"label1": np.zeros(10), "label2": np.zeros(4)}, batch_size=3)
