"""Issue 22's findings that are regression tests now: input that used to be
accepted silently and came back wrong."""
import json
import os

import numpy as np
import pytest

import weft as mx
from weft.base import WeftError


def test_a_float_dimension_is_refused_not_truncated():
    # int() made (2.5, 3) a (2, 3) array; NumPy refuses the float, and so do we.
    for shape in ((2.5, 3), 2.5, (2, np.float64(3.0))):
        with pytest.raises(TypeError, match="shape must be an int or a tuple of ints"):
            mx.nd.ones(shape)
    assert mx.nd.ones((np.int64(2), 3)).shape == (2, 3)  # NumPy integers stay fine
    assert mx.nd.zeros(4).shape == (4,)


def _symbol_json(name):
    return json.dumps({
        "nodes": [{"op": "null", "name": name, "inputs": []},
                  {"op": "relu", "name": "r", "inputs": [[0, 0, 0]]}],
        "arg_nodes": [0], "node_row_ptr": [0, 1, 2], "heads": [[1, 0, 0]],
        "attrs": {"mxnet_version": ["int", 10901]}})


def test_a_nul_inside_a_json_string_is_refused():
    # A name holding \u0000 came back cut short through the C ABI, and the JSON
    # written for it did not load again.
    assert mx.sym.load_json(_symbol_json("data")).list_arguments() == ["data"]
    with pytest.raises(WeftError, match="NUL"):
        mx.sym.load_json(_symbol_json("da\u0000ta"))


BIG = 1085102592571150096  # 17 * BIG wraps int64 to 16


def test_a_reshape_whose_size_overflows_is_refused():
    # Shape::Size() wrapped 17 * BIG to 16, so the view of 16 elements was accepted.
    x = mx.nd.arange(16)
    with pytest.raises(mx.base.ShapeError, match="overflow|cannot reshape"):
        x.reshape((17, BIG)).wait_to_read()
    assert x.reshape((4, 4)).shape == (4, 4)


def test_a_symbol_file_with_a_wrapping_reshape_is_refused_at_inference():
    doc = json.dumps({
        "nodes": [{"op": "null", "name": "data", "inputs": []},
                  {"op": "Reshape", "name": "r", "attrs": {"shape": "(17, %d)" % BIG}, "inputs": [[0, 0, 0]]},
                  {"op": "sum", "name": "s", "inputs": [[1, 0, 0]]}],
        "arg_nodes": [0], "node_row_ptr": [0, 1, 2, 3], "heads": [[2, 0, 0]],
        "attrs": {"mxnet_version": ["int", 10901]}})
    sym = mx.sym.load_json(doc)
    with pytest.raises(mx.base.WeftError, match="overflow"):
        sym.infer_shape(data=(16,))
    with pytest.raises(mx.base.WeftError, match="overflow"):
        sym.bind(mx.cpu(), {"data": mx.nd.zeros((16,))}).forward()


@pytest.mark.parametrize("count", ["4294967295", "100000000", "-1"])
def test_a_huge_input_count_in_a_symbol_file_fails_fast(count):
    # Concat with "num_args": "4294967295" made sym.load build four billion names.
    import time
    doc = json.dumps({
        "nodes": [{"op": "null", "name": "a", "inputs": []},
                  {"op": "Concat", "name": "c", "attrs": {"num_args": count}, "inputs": [[0, 0, 0]]}],
        "arg_nodes": [0], "node_row_ptr": [0, 1, 2], "heads": [[1, 0, 0]],
        "attrs": {"mxnet_version": ["int", 10901]}})
    t0 = time.monotonic()
    with pytest.raises(WeftError, match="num_args"):
        mx.sym.load_json(doc)
    assert time.monotonic() - t0 < 5


def test_33_dimensions_are_refused_at_creation_and_32_round_trip(tmp_path):
    # A 33-d array could be created and saved, but the file did not load.
    with pytest.raises(mx.base.ShapeError, match="32"):
        mx.nd.zeros((1,) * 33)
    with pytest.raises(mx.base.ShapeError, match="32"):
        mx.nd.zeros((2,)).reshape((1,) * 31 + (2, 1))
    x = mx.nd.ones((1,) * 31 + (2,))
    mx.nd.save(str(tmp_path / "a.params"), {"x": x})
    assert mx.nd.load(str(tmp_path / "a.params"))["x"].shape == x.shape


def test_convolution_of_a_zero_size_input_with_a_huge_axis_does_not_kill_the_process():
    # It died with SIGFPE; now it is a result or a clean error, in a child process
    # so a signal would fail this test instead of ending the run.
    import subprocess
    import sys
    code = ("import weft as mx\n"
            "x = mx.nd.zeros((0, 3, 2**62, 31)); w = mx.nd.zeros((4, 3, 3, 3))\n"
            "try:\n"
            "    y = mx.nd.Convolution(x, w, kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=4, no_bias=True)\n"
            "    y.wait_to_read(); print('shape', y.shape)\n"
            "except mx.base.WeftError as e:\n"
            "    print('error', type(e).__name__, str(e).splitlines()[0])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr[-2000:])
    assert r.stdout.startswith(("shape (0, 4,", "error")), r.stdout


def _params_with_device_ids(dev_type, ids):
    """A .params list of one-float V2 records, record i on (dev_type, ids[i])."""
    import struct
    out = struct.pack("<QQQ", 0x112, 0, len(ids))
    for i in ids:
        out += struct.pack("<IiIqiii", 0xF993FAC9, 0, 1, 1, dev_type, i, 0) + struct.pack("<f", float(i))
    return out + struct.pack("<Q", 0)


def test_device_ids_in_a_params_file_make_no_threads():
    # 1,000 records on cpu(0)..cpu(999) left 1,002 threads after nd.load (one
    # engine pool per device id) and 3,002 after the arrays were freed. Every
    # record now loads on cpu(0), as in MXNet; a child process counts its
    # threads in /proc/self/task before and after.
    import subprocess
    import sys
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".params", delete=False) as f:
        f.write(_params_with_device_ids(1, range(1000)))
        cpu_file = f.name
    with tempfile.NamedTemporaryFile(suffix=".params", delete=False) as f:
        f.write(_params_with_device_ids(2, range(0, 1000, 10)))  # gpu(0)..gpu(990)
        gpu_file = f.name
    code = ("import gc, os, weft as mx\n"
            "threads = lambda: len(os.listdir('/proc/self/task'))\n"
            "(mx.nd.ones((2,)) + 1).wait_to_read()\n"
            "before = threads()\n"
            "for path in %r:\n"
            "    arrays = mx.nd.load(path)\n"
            "    assert {str(a.context) for a in arrays} == {'cpu(0)'}, {str(a.context) for a in arrays}\n"
            "    total = sum(float((a * 2).sum().asscalar()) for a in arrays)\n"
            "    mx.nd.waitall(); del arrays; gc.collect(); mx.nd.waitall()\n"
            "print(before, threads(), total)\n" % ([cpu_file, gpu_file],))
    try:
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(cpu_file)
        os.unlink(gpu_file)
    assert r.returncode == 0, r.stderr[-2000:]
    before, after, total = r.stdout.split()
    assert int(after) <= int(before) + 2, r.stdout  # (a pool per id made it ~3,000 more)
    assert float(total) == 2 * sum(range(0, 1000, 10))


def test_a_params_name_holding_a_nul_is_refused(tmp_path):
    # The name came back cut short through the C ABI ("a\0b" loaded as "a").
    import struct
    record = struct.pack("<IiIqiii", 0xF993FAC9, 0, 1, 1, 1, 0, 0) + struct.pack("<f", 1.0)
    path = tmp_path / "nul.params"
    path.write_bytes(struct.pack("<QQQ", 0x112, 0, 1) + record + struct.pack("<QQ", 1, 3) + b"a\0b")
    with pytest.raises(WeftError, match="NUL"):
        mx.nd.load(str(path))
    with pytest.raises(ValueError, match="NUL"):
        mx.nd.save(str(tmp_path / "out.params"), {"a\0b": mx.nd.ones((1,))})
    # A name that is not UTF-8 loads and saves back as the same bytes.
    path.write_bytes(struct.pack("<QQQ", 0x112, 0, 1) + record + struct.pack("<QQ", 1, 3) + b"a\xf0b")
    mx.nd.save(str(tmp_path / "out.params"), mx.nd.load(str(path)))
    assert (tmp_path / "out.params").read_bytes() == path.read_bytes()
