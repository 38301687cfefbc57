"""examples/d2l_lenet_np.py (issue 39): d2l's LeNet in NumPy mode with a progress
bar, run for one short epoch on generated Fashion-MNIST-shaped data, hybridized
and not, and from hand-placed Fashion-MNIST files in MXNet's folder."""
import gzip
import importlib.util
import math
import os
import struct

import numpy as onp
import pytest

from weft import npx

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("d2l_lenet_np", os.path.join(ROOT, "examples", "d2l_lenet_np.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # sets NumPy mode in this thread, as the script does
    yield mod
    npx.reset_np()


@pytest.mark.parametrize("hybrid", [[], ["--no-hybridize"]], ids=["hybridized", "imperative"])
def test_example_runs_generated(example, hybrid, capsys):
    npx.set_np()
    loss, train_acc, test_acc = example.main(["--epochs", "1", "--synthetic", "256", "--batch-size", "64"] + hybrid)
    assert math.isfinite(loss) and 0 <= train_acc <= 1 and 0 <= test_acc <= 1
    out = capsys.readouterr().out
    assert "generated Fashion-MNIST-shaped" in out and "epoch 1/1 [" in out and "examples/sec" in out


def _write_idx(path, array):
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(">HBB", 0, 8, array.ndim) + struct.pack(">" + "I" * array.ndim, *array.shape))
        f.write(array.astype("u1").tobytes())


def test_example_reads_placed_files(example, capsys, tmp_path):
    folder = os.path.join(str(tmp_path), "datasets", "fashion-mnist")
    os.makedirs(folder)
    rng = onp.random.RandomState(0)
    for prefix, n in (("train", 96), ("t10k", 32)):
        _write_idx(os.path.join(folder, "%s-images-idx3-ubyte.gz" % prefix), rng.randint(0, 255, (n, 28, 28)))
        _write_idx(os.path.join(folder, "%s-labels-idx1-ubyte.gz" % prefix), rng.randint(0, 10, n))
    npx.set_np()
    example.main(["--epochs", "1", "--batch-size", "32", "--data-dir", folder, "--workers", "2"])
    assert "Fashion-MNIST files" in capsys.readouterr().out
