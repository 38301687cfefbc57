"""weft.contrib.io.DataLoaderIter (MXNet 1.9.1's mx.contrib.io): a Gluon DataLoader feeding Module."""
import numpy as np
import pytest

import weft as mx
from weft.contrib.io import DataLoaderIter
from weft.gluon.data import ArrayDataset, DataLoader


def _loader(n=10, batch_size=4):
    x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
    y = np.arange(n, dtype=np.int32)
    return x, y, DataLoader(ArrayDataset(mx.nd.array(x), mx.nd.array(y, dtype="int32")), batch_size=batch_size)


def test_batches_pad_and_reset():
    x, y, loader = _loader()
    it = DataLoaderIter(loader)
    assert it.batch_size == 4
    assert it.provide_data[0].name == "data" and it.provide_data[0].shape == (4, 3)
    assert it.provide_label[0].name == "softmax_label" and it.provide_label[0].shape == (4,)
    batches = list(it)
    assert [b.pad for b in batches] == [0, 0, 2]
    for k, b in enumerate(batches):
        d, l = b.data[0], b.label[0]
        assert d.dtype == np.float32 and l.dtype == np.float32 and d.shape == (4, 3)
        n = 4 - b.pad
        np.testing.assert_array_equal(d.asnumpy()[:n], x[4 * k:4 * k + n])
        np.testing.assert_array_equal(l.asnumpy()[:n], y[4 * k:4 * k + n])
    np.testing.assert_array_equal(batches[-1].data[0].asnumpy()[2:], 0)
    assert list(it) == []  # exhausted until reset
    it.reset()
    assert len(list(it)) == 3


def test_custom_names_and_dtype():
    _, _, loader = _loader()
    it = DataLoaderIter(loader, data_name="x", label_name="y", dtype="float64")
    b = next(iter(it))
    assert it.provide_data[0].name == "x" and it.provide_label[0].name == "y"
    assert b.data[0].dtype == np.float64


def test_feeds_module_fit():
    rng = np.random.RandomState(0)
    x = rng.randn(64, 4).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.float32)
    it = DataLoaderIter(DataLoader(ArrayDataset(mx.nd.array(x), mx.nd.array(y)), batch_size=16, shuffle=False))
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2), name="softmax")
    mod = mx.mod.Module(net, context=mx.cpu())
    mod.fit(it, num_epoch=10, optimizer_params={"learning_rate": 0.5})
    acc = dict(mod.score(it, "acc"))["accuracy"]
    assert acc > 0.9


def test_bad_loader():
    with pytest.raises(mx.base.InvalidArgumentError, match="no batch"):
        DataLoaderIter([])
    with pytest.raises(mx.base.InvalidArgumentError, match="pairs"):
        DataLoaderIter([mx.nd.ones((2, 2))])
