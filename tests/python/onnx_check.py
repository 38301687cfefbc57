"""Shared by the ONNX export tests: run a Weft model and its ONNX export in
ONNX Runtime on the same input and compare."""
import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="the onnx package is not installed (scripts/setup.sh installs it)")
ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed (scripts/setup.sh installs it)")

import weft as mx  # noqa: E402
from weft.gluon.model_zoo import vision  # noqa: E402


def run_onnx(path, feeds):
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    return sess.run(None, {n: feeds[n] for n in names})


def rel_err(got, want):
    """max |got - want| over max |want|: the error relative to the output's scale."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = max(np.abs(want).max(initial=0.0), 1e-30)
    return np.abs(got - want).max(initial=0.0) / scale


def weft_eval(sym, feeds, params):
    """Outputs of ``sym`` run by Weft's executor on ``feeds`` and ``params`` (numpy)."""
    values = {k: mx.nd.array(v, dtype=v.dtype) for k, v in {**feeds, **params}.items()}
    aux_names = sym.list_auxiliary_states()
    args = {k: v for k, v in values.items() if k not in aux_names}
    aux = {k: values[k] for k in aux_names}
    ex = sym.bind(mx.cpu(), args, aux_states=aux, grad_req="null")
    return [o.asnumpy() for o in ex.forward(is_train=False)]


def randomize_block(net, seed=0):
    """Non-trivial weights and BatchNorm statistics (after a first forward has
    fixed the deferred shapes), so BatchNorm in inference form is checked."""
    rs = np.random.RandomState(seed)
    for name, p in sorted(net.collect_params().items()):
        shape = p.shape
        if name.endswith(("running_var", "gamma")):
            value = rs.uniform(0.5, 1.5, shape)
        elif name.endswith(("running_mean", "beta", "bias")):
            value = rs.uniform(-0.5, 0.5, shape)
        else:
            continue
        p.set_data(mx.nd.array(value.astype(np.float32)))


# Input sizes as small as each zoo net allows: 32x32 unless a fixed-size pooling
# needs more (SqueezeNet's 13x13 and DenseNet's 7x7 need 224, Inception V3's 8x8 299).
ZOO_SIZE = {"alexnet": 64, "squeezenet1.0": 224, "squeezenet1.1": 224, "inceptionv3": 299,
            "densenet121": 224, "densenet161": 224, "densenet169": 224, "densenet201": 224}


def check_zoo_net(name, tmp_path):
    """Model-zoo net ``name`` hybridized, exported (files), checked, run in ONNX
    Runtime equal to Weft, imported back and equal again (relative error <= 1e-5)."""
    size = ZOO_SIZE.get(name, 32)
    x = np.random.RandomState(1).uniform(-1, 1, (1, 3, size, size)).astype(np.float32)
    net = vision.get_model(name, classes=10)
    net.initialize(mx.init.Xavier())
    net.hybridize()
    net(mx.nd.array(x))
    randomize_block(net)
    want = net(mx.nd.array(x)).asnumpy()
    prefix = str(tmp_path / name)
    net.export(prefix)
    path = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [x.shape],
                                np.float32, str(tmp_path / "model.onnx"))
    onnx.checker.check_model(path)
    got = run_onnx(path, {"data": x})[0]
    assert rel_err(got, want) <= 1e-5
    # ... and imported back (weft.onnx.import_model) it is Weft's net again.
    sym, arg, aux = mx.onnx.import_model(path)
    ex = sym.bind(mx.cpu(), dict(arg, data=mx.nd.array(x)), aux_states=aux, grad_req="null")
    assert rel_err(ex.forward(is_train=False)[0].asnumpy(), want) <= 1e-5
