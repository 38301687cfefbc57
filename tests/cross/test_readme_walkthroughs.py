"""The bindings' READMEs, run as a newcomer would: bindings/go/README.md and
bindings/r/README.md walk from a fresh clone to a trained model served over
HTTP. Their fenced blocks marked <!-- readme-test: KIND --> are executed in
order in a scratch copy of the checkout (the built library linked in as
build/libweft.so), so the commands are the READMEs' own text:

* setup: clone + scripts/setup.sh need the network: checked to be exactly
  those commands (and setup.sh to be what scripts/test.sh runs), not run.
* build: checked, not re-run (CI has built everything before pytest): every
  line must be one of the build commands scripts/ use (checked against the
  scripts), and the artefacts CI built stand in for them: build/libweft.so,
  and build/go-bin/ from WEFT_GO_BIN_DIR (else build/go-bin of this checkout).
* run: shell blocks run with bash -e, R blocks with Rscript (R_LIBS is a
  scratch library, so `R CMD INSTALL bindings/r` installs there for real).
* serve: run with bash -e, the port replaced by a free one; the test checks
  the reply against the model's own prediction.

The number and kinds of blocks are asserted, so a README edit cannot make the
test silently run nothing.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, os.pardir, os.pardir))
try:
    from weft.base import LIB_PATH
except ImportError:  # the development tree, not installed
    sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
    from weft.base import LIB_PATH

_BLOCK = re.compile(r"<!-- readme-test: (\w+) -->\s*```(\w+)\n(.*?)```", re.S)
_GO_COMMANDS = ("weft-serve", "weft-predict", "weft-loadgen")


def _blocks(readme):
    with open(os.path.join(_ROOT, readme), encoding="utf-8") as f:
        return _BLOCK.findall(f.read())


def _read(path):
    with open(os.path.join(_ROOT, path), encoding="utf-8") as f:
        return f.read()


def _commands(body):
    """The block's command lines, without comments and blank lines."""
    lines = [line.split("  #")[0].strip() for line in body.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _go_bin():
    for folder in (os.environ.get("WEFT_GO_BIN_DIR"), os.path.join(_ROOT, "build", "go-bin")):
        if folder and all(os.path.exists(os.path.join(folder, c)) for c in _GO_COMMANDS):
            return folder
    return None


def _check_build(body, ws):
    """Every line of a build block is a command scripts/ run; links in what it
    would have built."""
    test_sh, test_go_sh, build_sh = _read("scripts/test.sh"), _read("scripts/test_go.sh"), _read("scripts/build.sh")
    commands = _commands(body)
    assert commands, "an empty build block"
    for cmd in commands:
        if cmd == "bash scripts/build.sh":
            # What CI runs first; build/libweft.so is linked in below.
            assert re.search(r"^\s*bash scripts/build\.sh$", test_sh, re.M)
        elif cmd == "bash scripts/build_go.sh":
            # What scripts/test_go.sh ends with (CI runs it before pytest).
            assert 'bash scripts/build_go.sh "$build_dir"' in test_go_sh
            go_bin = _go_bin()
            if go_bin is None:
                pytest.skip("no built Go commands (scripts/test_go.sh builds build/go-bin; or set WEFT_GO_BIN_DIR)")
            os.makedirs(os.path.join(ws, "build", "go-bin"), exist_ok=True)
            for c in _GO_COMMANDS:
                os.symlink(os.path.join(go_bin, c), os.path.join(ws, "build", "go-bin", c))
        elif cmd.startswith("cmake -S . -B build"):
            # scripts/build.sh's configure line, without its extra arguments.
            assert cmd + " ${WEFT_CMAKE_ARGS:-}" in build_sh, cmd
        elif cmd == "ninja -C build weft":
            # The library target alone (libweft.so), not the tests.
            assert re.search(r"add_library\(\s*weft\s+SHARED", _read("CMakeLists.txt"))
        else:
            raise AssertionError("README build command %r is not one scripts/ run" % cmd)
    assert os.path.exists(os.path.join(ws, "build", "libweft.so"))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(ws):
    env = {k: v for k, v in os.environ.items() if k not in ("WEFT_HOME", "WEFT_LIB_DIR", "WEFT_INCLUDE_DIR",
                                                             "PYTHONPATH", "WEFT_LIBRARY_PATH")}
    env["R_LIBS"] = os.path.join(ws, "rlib")
    return env


def _run(lang, body, ws, timeout=180):
    if lang == "r":
        script = os.path.join(ws, "readme-block.R")
        with open(script, "w", encoding="utf-8") as f:
            f.write(body)
        cmd = ["Rscript", "--vanilla", script]
    else:
        cmd = ["bash", "-e", "-c", body]
    # Its own process group, so a server the block started in the background
    # never outlives the test.
    proc = subprocess.Popen(cmd, cwd=ws, env=_env(ws), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError("README block timed out after %d s:\n%s\n--- stdout\n%s\n--- stderr\n%s" % (
            timeout, body, out[-3000:], err[-3000:]))
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert proc.returncode == 0, "README block failed:\n%s\n--- stdout\n%s\n--- stderr\n%s" % (
        body, out[-3000:], err[-3000:])
    return out, err


def _scratch(tmp_path, *trees):
    ws = str(tmp_path / "weft")
    os.makedirs(os.path.join(ws, "build"))
    os.makedirs(os.path.join(ws, "rlib"))
    os.symlink(os.path.abspath(LIB_PATH), os.path.join(ws, "build", "libweft.so"))
    for tree in ("capi/include",) + trees:
        shutil.copytree(os.path.join(_ROOT, tree), os.path.join(ws, tree),
                        ignore=shutil.ignore_patterns("*.o", "*.so", "Makevars", "weft-op-*.Rd", "__pycache__"))
    return ws


def _serve_reply(out):
    return json.loads(out.strip().splitlines()[-1])


def test_go_readme_walkthrough(tmp_path):
    """bindings/go/README.md: build, train the digits CNN in Python, serve the
    folder with `weft-serve DIR ADDR`, query v2: the reply is the Python
    predictor's output for the same image."""
    blocks = _blocks("bindings/go/README.md")
    assert [(k, lang) for k, lang, _ in blocks] == [("setup", "sh"), ("build", "sh"), ("run", "sh"),
                                                     ("serve", "sh")], "README test markers changed"
    start = time.time()
    setup = _commands(blocks[0][2])
    assert setup[0].startswith("git clone ") and setup[0].endswith(" weft && cd weft"), setup
    # CI's own set-up (scripts/test.sh's setup stage) runs the same command.
    assert setup[1:] == ["bash scripts/setup.sh"] and re.search(r"^\s*bash scripts/setup\.sh$", _read("scripts/test.sh"), re.M)
    ws = _scratch(tmp_path, "bindings/python", "examples")
    _check_build(blocks[1][2], ws)
    _run("sh", blocks[2][2], ws)
    models = os.path.join(ws, "build", "digits-demo")
    epochs = sorted(int(m.group(1)) for m in (re.match(r"digits-(\d{4})\.params$", f) for f in os.listdir(models))
                    if m)
    assert os.path.exists(os.path.join(models, "digits-symbol.json")) and epochs and epochs[-1] == 20, epochs
    body = blocks[3][2]
    assert "weft-serve build/digits-demo 127.0.0.1:8080 &" in body  # the folder and the address, no flags
    out, _ = _run("sh", body.replace("127.0.0.1:8080", "127.0.0.1:%d" % _free_port()), ws)
    lines = out.strip().splitlines()
    assert json.loads(lines[0]) == {"ready": True}
    meta = json.loads(lines[1])
    assert meta["name"] == "digits" and meta["versions"][0] == "20", meta
    # Complete at load, from the files (issue 42): the batch is free, the weights fix the rest.
    assert meta["inputs"] == [{"name": "data", "datatype": "FP32", "shape": [-1, 1, 8, 8]}], meta
    assert [o["shape"] for o in meta["outputs"]] == [[-1, 10]], meta
    assert int(lines[2]) >= 1  # the metrics name weft_requests_total
    reply = _serve_reply(out)
    assert reply["model_name"] == "digits" and reply["model_version"] == "20", reply
    output = reply["outputs"][0]
    assert output["datatype"] == "FP32" and output["shape"] == [1, 10], output
    from weft.predictor import Predictor
    prefix = os.path.join(models, "digits")
    pred = Predictor(prefix + "-symbol.json", prefix + "-0020.params", {"data": (1, 1, 8, 8)})
    want = np.asarray(pred.forward(data=np.full((1, 1, 8, 8), 0.5, np.float32))[0]).ravel()
    np.testing.assert_allclose(output["data"], want, rtol=1e-5, atol=1e-5)
    print("Go README walkthrough: %.1f s" % (time.time() - start))


def test_r_readme_walkthrough(tmp_path):
    """bindings/r/README.md: build only the library, R CMD INSTALL, train iris
    with the MXNet-R names, save, serve with `weft-serve models ADDR`, query v2
    with only `data`: R's own predictions within 1e-5."""
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed (apt-get install r-base-core r-base-dev r-cran-testthat)")
    blocks = _blocks("bindings/r/README.md")
    assert [(k, lang) for k, lang, _ in blocks] == [("build", "sh"), ("run", "sh"), ("run", "r"), ("build", "sh"),
                                                     ("serve", "sh")], "README test markers changed"
    start = time.time()
    ws = _scratch(tmp_path, "bindings/r")
    # The library-only build: configure looks the library up and builds nothing.
    assert _commands(blocks[0][2]) == ["cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release",
                                       "ninja -C build weft"]
    _check_build(blocks[0][2], ws)
    configure = _read("bindings/r/configure")
    commands = [line for line in configure.splitlines() if not line.strip().startswith(("#", "echo"))]
    assert "libweft.so" in configure and "ninja -C build weft" in configure  # its message says how to build it
    assert not [line for line in commands if "ninja" in line or "cmake" in line], "configure runs a build"
    assert _commands(blocks[1][2]) == ["R CMD INSTALL bindings/r"]
    _run("sh", blocks[1][2], ws)
    out, err = _run("r", blocks[2][2], ws)
    acc = float(re.search(r"training accuracy ([0-9.]+)", out).group(1))
    assert acc >= 0.9
    assert "'setosa' -> 0" in err  # the factor mapping is reported
    r_probs = [float(v) for v in re.search(r"first flower: (.*)", out).group(1).split()]
    assert os.path.exists(os.path.join(ws, "models", "iris-symbol.json"))
    assert os.path.exists(os.path.join(ws, "models", "iris-0100.params"))
    _check_build(blocks[3][2], ws)
    body = blocks[4][2]
    assert "weft-serve models 127.0.0.1:8089 &" in body  # the folder and the address, no flags
    assert '"name": "data"' in body and "softmax_label" not in body  # only data is sent
    out, _ = _run("sh", body.replace("127.0.0.1:8089", "127.0.0.1:%d" % _free_port()), ws)
    output = _serve_reply(out)["outputs"][0]
    assert output["shape"] == [1, 3]
    probs = output["data"]
    assert abs(sum(probs) - 1) < 1e-5
    assert max(range(3), key=lambda i: probs[i]) == 0  # a setosa
    # The server's predictions are R's (printed with 7 decimals) within 1e-5.
    assert max(abs(a - b) for a, b in zip(probs, r_probs)) < 1e-5, (probs, r_probs)
    print("R README walkthrough: %.1f s" % (time.time() - start))
