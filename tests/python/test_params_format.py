"""The NDArray list/dict file (.params) against files written by MXNet 1.9.1.

FORMATS.md part A; fixtures and their expected contents in ../shared/fixtures
(manifest.json, .npz files). Loading must give the same names, order, dtypes,
shapes and values; saving the same arrays must reproduce each file byte for
byte; damaged files raise weft.WeftError naming the file.
"""
import json
from pathlib import Path

import numpy as np
import pytest

import weft

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
MANIFEST = json.loads((FIXTURES / "manifest.json").read_text()) if FIXTURES.is_dir() else {"files": {}}
ND_FILES = sorted(name for name, spec in MANIFEST["files"].items()
                  if spec["kind"] in ("ndarray_list", "ndarray_dict"))
ALL_PARAMS = sorted(p.name for p in FIXTURES.glob("*.params")) if FIXTURES.is_dir() else []

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"no fixtures at {FIXTURES}")


def expected(name):
    """[(key or None, numpy array)] in file order, from the manifest and .npz."""
    spec = MANIFEST["files"][name]
    if spec["values"] is None:
        return []
    values = np.load(FIXTURES / spec["values"])
    if spec["kind"] == "ndarray_list":
        return [(None, values[k]) for k in spec["order"]]
    return [(key, values[f"k{i}"]) for i, key in enumerate(spec["names"])]


def as_items(loaded):
    if isinstance(loaded, dict):
        return list(loaded.items())
    assert isinstance(loaded, list), type(loaded)
    return [(None, a) for a in loaded]


def check_array(got, want, what):
    host = got.asnumpy()
    assert np.dtype(got.dtype) == want.dtype, what
    assert host.dtype == want.dtype, what
    assert tuple(got.shape) == want.shape, what
    assert host.shape == want.shape, what
    np.testing.assert_array_equal(host, want, err_msg=what)


@pytest.mark.parametrize("name", ND_FILES)
def test_load_matches_npz(name):
    want = expected(name)
    loaded = weft.nd.load(str(FIXTURES / name))
    is_dict = MANIFEST["files"][name]["kind"] == "ndarray_dict"
    # An empty dict saves as an empty list (FORMATS.md A.2), so [] is right for it too.
    assert isinstance(loaded, dict if is_dict and want else list)
    got = as_items(loaded)
    assert [k for k, _ in got] == [k for k, _ in want]
    for (key, arr), (_, ref) in zip(got, want):
        check_array(arr, ref, f"{name}[{key}]")


@pytest.mark.parametrize("name", ND_FILES)
def test_save_from_numpy_is_byte_identical(name, tmp_path):
    want = expected(name)
    arrays = [weft.nd.array(ref, dtype=ref.dtype) for _, ref in want]
    if MANIFEST["files"][name]["kind"] == "ndarray_dict":
        data = {key: a for (key, _), a in zip(want, arrays)}
    else:
        data = arrays
    out = tmp_path / name
    weft.nd.save(str(out), data)
    assert out.read_bytes() == (FIXTURES / name).read_bytes()


@pytest.mark.parametrize("name", ALL_PARAMS)
def test_resave_loaded_is_byte_identical(name, tmp_path):
    loaded = weft.nd.load(str(FIXTURES / name))
    out = tmp_path / name
    weft.nd.save(str(out), loaded)
    assert out.read_bytes() == (FIXTURES / name).read_bytes()


def test_single_ndarray_saves_as_one_element_list(tmp_path):
    (_, ref), = expected("nd_single.params")
    out = tmp_path / "single.params"
    weft.nd.save(str(out), weft.nd.array(ref, dtype=ref.dtype))
    assert out.read_bytes() == (FIXTURES / "nd_single.params").read_bytes()


def test_checkpoint_keys():
    loaded = weft.nd.load(str(FIXTURES / "cnn-0000.params"))
    assert isinstance(loaded, dict)
    assert all(k.startswith(("arg:", "aux:")) for k in loaded)
    spec = MANIFEST["files"]["cnn-symbol.json"]
    args = {f"arg:{n}" for n in spec["arguments"] if n != spec["input_name"]}
    aux = {f"aux:{n}" for n in spec["auxiliary_states"]}
    assert set(loaded) == args | aux


def damaged_copies(data):
    """(label, bytes) pairs that must not load."""
    yield "empty", b""
    for n in (7, 23, 31, len(data) // 2, len(data) - 1):
        if 0 <= n < len(data):
            yield f"truncated to {n}", data[:n]
    yield "bad list magic", b"\x13" + data[1:]
    if len(data) > 32:
        yield "bad record magic", data[:24] + b"\xde\xad\xbe\xef" + data[28:]
    if data.endswith(bytes(8)):  # a list: K = 0 is last; make K = N + 1
        n = int.from_bytes(data[16:24], "little")
        yield "bad name count", data[:-8] + (n + 1).to_bytes(8, "little")


@pytest.mark.parametrize("name", ["nd_list.params", "nd_dict.params", "nd_empty.params"])
def test_damaged_files_raise_weft_error(name, tmp_path):
    data = (FIXTURES / name).read_bytes()
    for i, (label, bad) in enumerate(damaged_copies(data)):
        path = tmp_path / f"damaged_{i}.params"
        path.write_bytes(bad)
        with pytest.raises(weft.WeftError) as info:
            weft.nd.load(str(path))
        assert path.name in str(info.value), f"{label}: {info.value}"


def test_garbled_copies_never_crash(tmp_path):
    data = bytearray((FIXTURES / "nd_list.params").read_bytes())
    rng = np.random.default_rng(0)
    path = tmp_path / "garbled.params"
    for _ in range(200):
        bad = bytearray(data)
        for at in rng.integers(0, len(bad), size=int(rng.integers(1, 5))):
            bad[at] = int(rng.integers(0, 256))
        path.write_bytes(bytes(bad))
        try:
            weft.nd.load(str(path))
        except weft.WeftError as e:
            assert path.name in str(e)


def test_missing_file_raises_weft_error(tmp_path):
    path = tmp_path / "does_not_exist.params"
    with pytest.raises(weft.WeftError, match="does_not_exist.params"):
        weft.nd.load(str(path))


def test_bfloat16_round_trip(tmp_path):
    """Flag 12 (FORMATS.md A.6); numpy sees bfloat16 as ml_dtypes' type or as
    MXNet's structured [('bfloat16', '<u2')] view, both 2 bytes of raw bits."""
    bits = np.array([0x3F80, 0xC020, 0x4040, 0x0000, 0x7F80, 0xFF80], dtype="<u2")  # 1, -2.5, 3, 0, inf, -inf
    a = weft.nd.array(np.array([1.0, -2.5, 3.0, 0.0, np.inf, -np.inf], np.float32), dtype="bfloat16")
    out = tmp_path / "bf16.params"
    weft.nd.save(str(out), {"w": a})
    want = (b"\x12\x01" + bytes(6) + bytes(8) + (1).to_bytes(8, "little")
            + (0xF993FAC9).to_bytes(4, "little") + bytes(4)            # V2, dense
            + (1).to_bytes(4, "little") + (6).to_bytes(8, "little")    # shape (6,)
            + (1).to_bytes(4, "little") + bytes(4)                     # cpu(0)
            + (12).to_bytes(4, "little") + bits.tobytes()              # bfloat16 data
            + (1).to_bytes(8, "little") + (1).to_bytes(8, "little") + b"w")
    assert out.read_bytes() == want
    got = weft.nd.load(str(out))["w"]
    assert np.dtype(got.dtype).itemsize == 2 and got.shape == (6,)
    np.testing.assert_array_equal(got.asnumpy().view("<u2"), bits)
    weft.nd.save(str(tmp_path / "again.params"), {"w": got})
    assert (tmp_path / "again.params").read_bytes() == want
