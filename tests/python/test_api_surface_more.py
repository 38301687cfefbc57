"""Small MXNet 1.9.1 names scripts import: mx.rnd/mon/img, mx.base type tuples and data_dir,
gluon.utils.replace_file, mx.nd.CachedOp."""
import os

import numpy as np
import pytest

import weft as mx


def test_short_aliases():
    assert mx.rnd is mx.random and mx.mon is mx.monitor and mx.img is mx.image
    assert mx.nd.CachedOp is mx.cached_op.CachedOp


def test_base_helpers(monkeypatch):
    assert isinstance(np.float32(1), mx.base.numeric_types) and isinstance(3, mx.base.integer_types)
    assert isinstance("a", mx.base.string_types) and mx.base.py_str(b"abc") == "abc"
    monkeypatch.delenv("MXNET_HOME", raising=False)
    assert mx.base.data_dir() == os.path.join(os.path.expanduser("~"), ".mxnet")
    monkeypatch.setenv("MXNET_HOME", "/tmp/somewhere")
    assert mx.base.data_dir() == "/tmp/somewhere"


def test_replace_file(tmp_path):
    src, dst = tmp_path / "a", tmp_path / "b"
    src.write_text("new")
    dst.write_text("old")
    mx.gluon.utils.replace_file(str(src), str(dst))
    assert dst.read_text() == "new" and not src.exists()
    src.write_text("x")
    with pytest.raises(OSError, match="failed"):
        mx.gluon.utils.replace_file(str(src), str(tmp_path / "no_dir" / "c"))
    assert not src.exists()
