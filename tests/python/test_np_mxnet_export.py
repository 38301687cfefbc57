"""A model MXNet 1.9.1 exported in NumPy mode loads and runs in Weft (issue 39 point 2).

tests/python/mxnet_written/np_export/ holds what MXNet 1.9.1 wrote (its
make_with_mxnet.py): a hybridized block of built-in layers (written under their
legacy names: Convolution, BatchNorm, Activation, Pooling, FullyConnected) and
F.np/F.npx calls (_np_reshape, _np_sum, _npi_mean, _npi_add, _npi_add_scalar,
_npi_multiply_scalar, _npi_subtract, softmax), its parameters as V3 records (NumPy
shape semantics), an input and MXNet's output for it."""
import json
import os

import numpy as onp
import pytest

from weft import gluon, np, npx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_export")


@pytest.fixture(autouse=True)
def np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def test_the_file_is_mxnets_numpy_mode_graph():
    with open(os.path.join(HERE, "mnet-symbol.json")) as f:
        graph = json.load(f)
    ops = {n["op"] for n in graph["nodes"]}
    assert {"_np_reshape", "_np_sum", "_npi_mean", "_npi_add", "_npi_add_scalar"} <= ops
    assert graph["attrs"]["is_np_shape"] == ["int", 1]
    with open(os.path.join(HERE, "mnet-0000.params"), "rb") as f:
        head = f.read(64)
    assert b"\xca\xfa\x93\xf9" in head  # V3 records (0xF993FACA, little-endian)


def test_symbolblock_imports_mxnets_numpy_mode_export():
    net = gluon.SymbolBlock.imports(os.path.join(HERE, "mnet-symbol.json"), ["data"],
                                    os.path.join(HERE, "mnet-0000.params"))
    x = np.array(onp.load(os.path.join(HERE, "input.npy")))
    y = net(x)
    assert isinstance(y, np.ndarray)
    onp.testing.assert_allclose(y.asnumpy(), onp.load(os.path.join(HERE, "output.npy")), rtol=1e-5, atol=1e-6)
    net.hybridize()
    onp.testing.assert_allclose(net(x).asnumpy(), onp.load(os.path.join(HERE, "output.npy")), rtol=1e-5,
                                atol=1e-6)


def test_npx_load_reads_its_parameters():
    params = npx.load(os.path.join(HERE, "mnet-0000.params"))
    assert params and all(isinstance(v, np.ndarray) for v in params.values())
    assert "aux:batchnorm0_running_mean" in params and params["arg:conv0_weight"].shape == (4, 3, 3, 3)
