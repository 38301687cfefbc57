"""The dependency-free predictor on ARM (issue 6 part 2): ResNet-18 with random
weights, exported by the Python package, runs through the statically linked
aarch64 build of weft-predict-portable under qemu-aarch64-static and gives the
full build's output (the Python predictor over libweft.so) within 1e-4.

The binary is $WEFT_AARCH64_PREDICT, else <repo>/build-aarch64/weft-predict-portable
(scripts/build_predict_aarch64.sh makes it; CI runs that before pytest). When
it is missing the test builds it with that script (minutes)."""
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import weft as mx
from weft import nd
from weft.gluon.model_zoo import vision
from weft.predictor import Predictor

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
QEMU = shutil.which("qemu-aarch64-static")
CROSS = shutil.which("aarch64-linux-gnu-g++")

pytestmark = [
    pytest.mark.skipif(QEMU is None, reason="qemu-aarch64-static is not installed (Debian: qemu-user-static)"),
    pytest.mark.skipif(CROSS is None, reason="aarch64-linux-gnu-g++ is not installed (Debian: g++-aarch64-linux-gnu)"),
]


@pytest.fixture(scope="module")
def binary():
    path = os.environ.get("WEFT_AARCH64_PREDICT") or os.path.join(ROOT, "build-aarch64", "weft-predict-portable")
    if not os.path.isfile(path):
        subprocess.run(["bash", os.path.join(ROOT, "scripts", "build_predict_aarch64.sh")], cwd=ROOT, check=True,
                       timeout=3600, env=dict(os.environ, WEFT_AARCH64_BUILD_DIR=os.path.dirname(path)))
    with open(path, "rb") as f:
        head = f.read(20)
    assert head[:4] == b"\x7fELF" and head[18:20] == b"\xb7\x00", "%s is not an aarch64 ELF executable" % path
    return path


@pytest.fixture(scope="module")
def resnet18(tmp_path_factory):
    """ResNet-18 v1 with random weights, hybridized, run once and exported."""
    with mx.name.NameManager():
        net = vision.resnet18_v1()
    net.initialize(mx.init.Xavier(magnitude=2))
    net.hybridize()
    x = np.random.default_rng(7).standard_normal((1, 3, 224, 224)).astype(np.float32)
    net(nd.array(x)).wait_to_read()
    prefix = str(tmp_path_factory.mktemp("resnet18") / "resnet18")
    net.export(prefix)
    return prefix, x


def _run(binary, *args):
    return subprocess.run([QEMU, binary] + list(args), capture_output=True, text=True, timeout=1200)


def test_resnet18_on_aarch64_matches_the_full_build(binary, resnet18, tmp_path):
    prefix, x = resnet18
    want = Predictor(prefix + "-symbol.json", prefix + "-0000.params", {"data": x.shape}).forward(data=x)[0]
    assert want.shape == (1, 1000) and np.isfinite(want).all() and want.std() > 1e-3

    x.astype("<f4").tofile(str(tmp_path / "x.f32"))
    out = str(tmp_path / "y.f32")
    r = _run(binary, "--symbol", prefix + "-symbol.json", "--params", prefix + "-0000.params",
             "--input", str(tmp_path / "x.f32"), "--shape", "1,3,224,224", "--output", out, "--repeat", "1")
    assert r.returncode == 0, r.stderr
    assert "shape (1, 1000) dtype 0" in r.stdout
    got = np.fromfile(out, dtype="<f4").reshape(1, 1000)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    latency = re.search(r"latency median ([0-9.]+) ms", r.stdout)
    assert latency, r.stdout
    print("\naarch64 ResNet-18 batch 1 under qemu: median %s ms; binary %d bytes"
          % (latency.group(1), os.path.getsize(binary)))


def test_mxnet_fixture_on_aarch64_gives_mxnets_output(binary, tmp_path):
    """The CNN written by MXNet 1.9.1 (../shared/fixtures) through the ARM build."""
    fixtures = os.path.join(ROOT, os.pardir, "shared", "fixtures")
    if not os.path.isdir(fixtures):
        fixtures = "/work/shared/fixtures"
    io = np.load(os.path.join(fixtures, "cnn-io.npz"))
    io["data"].astype("<f4").tofile(str(tmp_path / "x.f32"))
    r = _run(binary, "--symbol", os.path.join(fixtures, "cnn-symbol.json"), "--params",
             os.path.join(fixtures, "cnn-0000.params"), "--input", str(tmp_path / "x.f32"), "--shape", "2,3,8,8",
             "--output", str(tmp_path / "y.f32"))
    assert r.returncode == 0, r.stderr
    got = np.fromfile(str(tmp_path / "y.f32"), dtype="<f4").reshape(2, 5)
    np.testing.assert_allclose(got, io["output"], rtol=1e-4, atol=1e-4)


def test_portable_binary_reports_bad_input(binary, resnet18, tmp_path):
    prefix, x = resnet18
    x.astype("<f4").tofile(str(tmp_path / "x.f32"))
    # A shape the first convolution cannot take: exit status 1 and the library's message.
    r = _run(binary, "--symbol", prefix + "-symbol.json", "--params", prefix + "-0000.params",
             "--input", str(tmp_path / "x.f32"), "--shape", "1,4,224,224")
    assert r.returncode == 1 and "cannot create the predictor" in r.stderr and "conv" in r.stderr, r.stderr
    # The input file does not match the shape.
    r = _run(binary, "--symbol", prefix + "-symbol.json", "--params", prefix + "-0000.params",
             "--input", str(tmp_path / "x.f32"), "--shape", "2,3,224,224")
    assert r.returncode == 1 and "'data'" in r.stderr, r.stderr
    # Usage errors exit with status 2.
    r = _run(binary, "--symbol", prefix + "-symbol.json")
    assert r.returncode == 2 and "required" in r.stderr
