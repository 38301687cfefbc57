"""In NumPy-shape mode every saved record is V3, as MXNet 1.9.1's NDArray::Save writes it
(issue 39: MXNet refuses V2 records in that mode, so Weft's NumPy-mode export() did not
load there). Note [V3 records in NumPy-shape mode] in core/ndarray/ndarray_io.cc.

tests/python/mxnet_written/np_save/ holds what MXNet 1.9.1's npx.save wrote in NumPy mode
for the arrays its make_with_mxnet.py makes (several dtypes, a 0-d and a zero-size array);
Weft must write the same bytes. Legacy saving stays V2 (test_params_format.py holds the
byte-exact legacy fixtures)."""
import os
import pickle
import runpy
import struct

import numpy as onp
import pytest

import weft as mx
from weft import gluon, np, npx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_save")
V2, V3 = 0xF993FAC9, 0xF993FACA


def _fixture_arrays():
    # The script's arrays() is plain NumPy; running it as a module does not import MXNet.
    return runpy.run_path(os.path.join(HERE, "make_with_mxnet.py"))["arrays"]()


def _read(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return f.read()


def _record_magics(data):
    """The magic of every record of a dense .params file (FORMATS.md part A)."""
    itemsize = {0: 4, 1: 8, 2: 2, 3: 1, 4: 4, 5: 1, 6: 8, 7: 1, 12: 2}
    n = struct.unpack_from("<Q", data, 16)[0]
    at, magics = 24, []
    for _ in range(n):
        magic, stype, ndim = struct.unpack_from("<IiI", data, at)
        assert stype == 0, "a dense record"
        dims = struct.unpack_from("<%dq" % ndim, data, at + 12)
        at += 12 + 8 * ndim + 8  # dims, then the device type and id
        dtype = struct.unpack_from("<i", data, at)[0]
        at += 4 + int(onp.prod(dims, dtype=onp.int64)) * itemsize[dtype]
        magics.append(magic)
    return magics


@pytest.fixture
def np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _weft_arrays():
    return {k: np.array(v, dtype=v.dtype) for k, v in _fixture_arrays().items()}


def test_fixture_is_all_v3():
    assert set(_record_magics(_read("np_dict.params"))) == {V3}
    assert set(_record_magics(_read("np_list.params"))) == {V3}


@pytest.mark.usefixtures("np_mode")
@pytest.mark.parametrize("save", [npx.save, mx.nd.save], ids=["npx.save", "nd.save"])
def test_numpy_mode_save_writes_mxnets_bytes(tmp_path, save):
    data = _weft_arrays()
    save(str(tmp_path / "d.params"), data)
    save(str(tmp_path / "l.params"), list(data.values()))
    assert (tmp_path / "d.params").read_bytes() == _read("np_dict.params")
    assert (tmp_path / "l.params").read_bytes() == _read("np_list.params")


@pytest.mark.usefixtures("np_mode")
def test_numpy_mode_reads_back_mxnets_file():
    got = npx.load(os.path.join(HERE, "np_dict.params"))
    want = _fixture_arrays()
    assert list(got) == list(want)
    for k, v in want.items():
        assert got[k].shape == v.shape and got[k].dtype == v.dtype, k
        onp.testing.assert_array_equal(got[k].asnumpy(), v)


def test_legacy_mode_still_writes_v2(tmp_path):
    a = mx.nd.array(onp.arange(6, dtype="float32").reshape(2, 3))
    mx.nd.save(str(tmp_path / "a.params"), {"a": a, "b": a})
    assert _record_magics((tmp_path / "a.params").read_bytes()) == [V2, V2]
    # with np_shape alone (not np_array) the records are V3 too: the flag MXNet consults
    with mx.util.np_shape(True):
        mx.nd.save(str(tmp_path / "b.params"), {"a": a})
    mx.nd.save(str(tmp_path / "c.params"), {"a": a})
    v3, v2 = (tmp_path / "b.params").read_bytes(), (tmp_path / "c.params").read_bytes()
    assert _record_magics(v3) == [V3]
    assert v3[:24] + struct.pack("<I", V2) + v3[28:] == v2  # only the record's magic differs


@pytest.mark.usefixtures("np_mode")
def test_pickle_in_numpy_mode_round_trips():
    a = np.array(onp.arange(6).reshape(3, 2), dtype="float64")
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, np.ndarray) and b.shape == (3, 2) and b.dtype == onp.float64
    onp.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    s = pickle.loads(pickle.dumps(np.array(2.5)))
    assert s.shape == () and float(s) == 2.5


class _Net(gluon.HybridBlock):
    def __init__(self):
        super().__init__()
        self.conv = gluon.nn.Conv2D(4, 3, padding=1, activation="relu")
        self.bn = gluon.nn.BatchNorm()
        self.dense = gluon.nn.Dense(5)

    def hybrid_forward(self, F, x):
        return F.npx.softmax(self.dense(self.bn(self.conv(x))), axis=-1)


@pytest.mark.usefixtures("np_mode")
def test_export_and_save_parameters_write_v3(tmp_path):
    net = _Net()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = np.array(onp.random.RandomState(0).rand(2, 3, 6, 6).astype("float32"))
    y = net(x)
    net.export(str(tmp_path / "net"), epoch=0)
    params = (tmp_path / "net-0000.params").read_bytes()
    magics = _record_magics(params)
    assert len(magics) == 8 and set(magics) == {V3}  # conv w/b, bn gamma/beta/mean/var, dense w/b
    net.save_parameters(str(tmp_path / "net.params"))
    assert set(_record_magics((tmp_path / "net.params").read_bytes())) == {V3}
    back = gluon.SymbolBlock.imports(str(tmp_path / "net-symbol.json"), ["data"],
                                     str(tmp_path / "net-0000.params"))
    onp.testing.assert_allclose(back(x).asnumpy(), y.asnumpy(), rtol=1e-5, atol=1e-6)
