"""The done-when bar of weft.mod: examples/module_digits.py (MXNet's Module API and
mx.io.NDArrayIter) trains scikit-learn's digits to the Gluon demo's test accuracy
(>= 97%, examples/digits_demo.py) and reloads from its checkpoint."""
import importlib.util
import os

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
HAS_SKLEARN = importlib.util.find_spec("sklearn") is not None


@pytest.mark.skipif(not HAS_SKLEARN, reason="scikit-learn is not installed (the demo's data set)")
def test_module_digits_reaches_the_gluon_demo_accuracy(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("module_digits", os.path.join(ROOT, "examples", "module_digits.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    # the fast network of the example (the CNN gets there too: 98.1% after 12 epochs, a few seconds more)
    accuracy = example.main(["--net", "mlp", "--epochs", "20", "--lr", "0.002", "--out", str(tmp_path),
                             "--min-accuracy", "0.97"])
    out = capsys.readouterr().out
    assert accuracy >= 0.97, out
    assert "same predictions" in out
    assert sorted(os.listdir(tmp_path)) == ["digits-0020.params", "digits-symbol.json"]
