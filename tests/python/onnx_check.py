"""Shared by the ONNX export tests: run a Weft model and its ONNX export in
ONNX Runtime on the same input and compare."""
import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="the onnx package is not installed (scripts/setup.sh installs it)")
ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed (scripts/setup.sh installs it)")

import weft as mx  # noqa: E402


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
