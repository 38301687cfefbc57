"""A model file cannot take weft-serve down (issue 35 point 2): the real
weft-serve binary probes every new model version in a child process before
adopting it (Note [Load probe] in bindings/go/cmd/weft-serve/probe.go).

A 200,000-node relu chain (it crashed the server from the folder poller) and a
CNN whose params file is cut in half are dropped into the folder of a running
server: its healthy model answers every request throughout, the process stays
up, the truncated version is UNAVAILABLE with a reason, the chain UNAVAILABLE
with a reason or (once the library walks deep graphs without recursion) READY,
and then a request to it (bound in a probe child first) leaves the server up.
A server started with the files already there comes up the same. That a probe
child dying by a signal marks only its version unavailable is shown by the Go
tests (TestProbeChildCrashMarksOnlyThatVersionUnavailable).

Uses the Go commands of test_python_to_go (built, or $WEFT_GO_BIN_DIR).
"""
import json
import os
import shutil
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

from test_python_to_go import FIXTURES, _Server, go_bin, mx  # noqa: F401 (go_bin is a fixture)


def _relu_chain(n):
    nodes = [{"op": "null", "name": "data", "inputs": []}]
    nodes += [{"op": "relu", "name": "relu%d" % i, "inputs": [[i - 1, 0, 0]]} for i in range(1, n + 1)]
    return json.dumps({"nodes": nodes, "arg_nodes": [0], "heads": [[n, 0, 0]],
                       "attrs": {"mxnet_version": ["int", 10901]}})


def _write_renamed(path, data):
    """Written beside and renamed in, so the poller never sees half a file."""
    tmp = os.path.join(os.path.dirname(path), ".tmp-" + os.path.basename(path))
    with open(tmp, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    os.replace(tmp, path)


def _index(server):
    req = urllib.request.Request(server.url + "/v2/repository/index", data=b"", method="POST")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return {"%s/%s" % (r["name"], r.get("version", "")): (r["state"], r.get("reason", ""))
                for r in json.loads(resp.read())}


def _check_bad_models(server):
    states = _index(server)
    assert states["cnn/0"] == ("READY", ""), states
    state, reason = states["trunc/1"]
    assert state == "UNAVAILABLE" and reason, states
    state, reason = states["evil/1"]
    assert (state, reason) == ("READY", "") or (state == "UNAVAILABLE" and reason), states
    status, ready = server.request("/v2/models/trunc/ready")
    assert status == 503 and ready["ready"] is False and "version 1" in ready["error"], ready


def _stop(server):
    server.proc.send_signal(signal.SIGTERM)
    try:
        return server.proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        raise


def test_bad_model_files_leave_weft_serve_serving(go_bin, tmp_path):
    if not os.path.isfile(os.path.join(FIXTURES, "cnn-io.npz")):
        pytest.skip("the MXNet 1.9.1 fixtures are not at %s (set WEFT_FIXTURES)" % FIXTURES)
    for name in ("cnn-symbol.json", "cnn-0000.params"):
        shutil.copy(os.path.join(FIXTURES, name), str(tmp_path / name))
    x = np.load(os.path.join(FIXTURES, "cnn-io.npz"))["data"].astype(np.float32)
    body = {"inputs": [{"name": "data", "shape": list(x.shape), "datatype": "FP32", "data": x.ravel().tolist()}]}
    binary = os.path.join(go_bin, "weft-serve")
    server = _Server(binary, str(tmp_path), "-poll", "100ms")
    answers, done = [], threading.Event()

    def keep_asking():
        while not done.wait(0.02):
            try:
                answers.append(server.request("/v2/models/cnn/infer", body)[0])
            except (OSError, urllib.error.URLError) as err:  # the server is gone
                answers.append(repr(err))

    asker = threading.Thread(target=keep_asking)
    asker.start()
    try:
        empty = tmp_path / "empty.params"
        mx.nd.save(str(empty), {})
        _write_renamed(str(tmp_path / "evil-0001.params"), empty.read_bytes())
        empty.unlink()
        _write_renamed(str(tmp_path / "evil-symbol.json"), _relu_chain(200000))
        params = open(os.path.join(FIXTURES, "cnn-0000.params"), "rb").read()
        _write_renamed(str(tmp_path / "trunc-0001.params"), params[:len(params) // 2])
        shutil.copy(os.path.join(FIXTURES, "cnn-symbol.json"), str(tmp_path / "trunc-symbol.json"))
        deadline = time.time() + 180
        while time.time() < deadline and server.proc.poll() is None:
            states = _index(server)
            if "evil/1" in states and "trunc/1" in states:
                break
            time.sleep(0.1)
        time.sleep(0.3)  # more requests after the probes
    finally:
        done.set()
        asker.join()
    log = "".join(server.log)
    assert server.proc.poll() is None, "weft-serve died:\n" + log[-4000:]
    assert answers and set(answers) == {200}, (answers, log[-4000:])
    _check_bad_models(server)
    # A request to the chain (READY only once the library parses it) is bound
    # in a probe child first; whatever it answers, the server stays up.
    if _index(server)["evil/1"][0] == "READY":
        status, reply = server.request("/v2/models/evil/infer", {"inputs": [
            {"name": "data", "shape": [1, 4], "datatype": "FP32", "data": [-1.0, 0.0, 1.0, 2.0]}]})
        assert server.proc.poll() is None, "weft-serve died:\n" + "".join(server.log)[-4000:]
        state, reason = _index(server)["evil/1"]
        assert (status == 200 and reply["outputs"][0]["data"] == [0.0, 0.0, 1.0, 2.0] and state == "READY") or \
            (status != 200 and state == "UNAVAILABLE" and reason) or (status != 200 and state == "READY"), \
            (status, reply, state, reason)
    records = [json.loads(line) for line in server.log if line.startswith("{")]
    assert any(r["msg"] == "model version unavailable" and r.get("model") == "trunc" for r in records), log

    # A server started with the bad files already in the folder.
    second = _Server(binary, str(tmp_path))
    try:
        status, reply = second.request("/v2/models/cnn/infer", body)
        assert status == 200, reply
        _check_bad_models(second)
    finally:
        assert _stop(second) == 0, "".join(second.log)[-4000:]
    assert _stop(server) == 0, "".join(server.log)[-4000:]
