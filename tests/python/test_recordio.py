"""weft.recordio against MXNet's documented .rec/.idx format (dmlc RecordIO:
magic 0xced7230a, lrecord = cflag << 29 | length, payload padded to 4 bytes;
IRHeader 'IfQQ'; .idx lines 'key\\toffset\\n'), built by hand with struct."""
import pickle
import struct

import numpy as np
import pytest

import weft as mx
from weft import recordio

from image_data import encode, rgb_image

MAGIC = 0xCED7230A


def rec_bytes(*payloads):
    """What MXNet writes for records without the magic number inside."""
    out = b""
    for p in payloads:
        out += struct.pack("<II", MAGIC, len(p)) + p + b"\0" * (-len(p) % 4)
    return out


def test_writer_bytes_match_the_format(tmp_path):
    path = str(tmp_path / "a.rec")
    w = recordio.MXRecordIO(path, "w")
    for p in (b"abc", b"", b"12345678", b"x" * 5):
        w.write(p)
    w.close()
    assert open(path, "rb").read() == rec_bytes(b"abc", b"", b"12345678", b"x" * 5)


def test_reader_reads_hand_built_file(tmp_path):
    path = tmp_path / "b.rec"
    path.write_bytes(rec_bytes(b"hello", b"", b"world!!!"))
    r = recordio.MXRecordIO(str(path), "r")
    assert [r.read(), r.read(), r.read(), r.read()] == [b"hello", b"", b"world!!!", None]
    r.reset()
    assert r.read() == b"hello"


def test_magic_inside_payload_splits_the_record(tmp_path):
    magic = struct.pack("<I", MAGIC)
    payload = b"abcd" + magic + b"efgh" + magic + b"ij"
    # parts: flag 1 'abcd', flag 2 'efgh', flag 3 'ij' + 2 padding bytes (the magics dropped)
    expected = (struct.pack("<II", MAGIC, (1 << 29) | 4) + b"abcd" + struct.pack("<II", MAGIC, (2 << 29) | 4) +
                b"efgh" + struct.pack("<II", MAGIC, (3 << 29) | 2) + b"ij\0\0")
    path = str(tmp_path / "m.rec")
    w = recordio.MXRecordIO(path, "w")
    w.write(payload)
    w.write(b"next")
    w.close()
    data = open(path, "rb").read()
    assert data == expected + rec_bytes(b"next")
    r = recordio.MXRecordIO(path, "r")
    assert r.read() == payload
    assert r.read() == b"next"
    # a magic number that is not 4-aligned is data, not a split
    odd = b"a" + magic + b"bc"
    assert recordio.encode_record(odd) == rec_bytes(odd)


def test_indexed_writer_idx_text_and_random_access(tmp_path):
    rec, idx = str(tmp_path / "c.rec"), str(tmp_path / "c.idx")
    w = recordio.MXIndexedRecordIO(idx, rec, "w")
    payloads = {5: b"five", 2: b"two-two", 9: b"nine nine!"}
    for k, v in payloads.items():
        w.write_idx(k, v)
    w.close()
    offsets = [0, 8 + 4, 8 + 4 + 8 + 8]
    assert open(idx).read() == "5\t%d\n2\t%d\n9\t%d\n" % tuple(offsets)
    r = recordio.MXIndexedRecordIO(idx, rec, "r")
    assert r.keys == [5, 2, 9]
    assert r.read_idx(9) == b"nine nine!"
    assert r.read_idx(5) == b"five"
    assert r.read() == b"two-two"  # sequential read goes on after the seek


def test_index_written_by_hand_is_read(tmp_path):
    (tmp_path / "h.rec").write_bytes(rec_bytes(b"first", b"second"))
    (tmp_path / "h.idx").write_text("a\t0\nb\t16\n")
    r = recordio.MXIndexedRecordIO(str(tmp_path / "h.idx"), str(tmp_path / "h.rec"), "r", key_type=str)
    assert r.read_idx("b") == b"second"
    assert r.read_idx("a") == b"first"


def test_irheader_pack_bytes():
    s = recordio.pack(recordio.IRHeader(0, 3.5, 7, 11), b"IMG")
    assert s == struct.pack("<IfQQ", 0, 3.5, 7, 11) + b"IMG"
    assert len(struct.pack("<IfQQ", 0, 0, 0, 0)) == 24
    header, rest = recordio.unpack(s)
    assert header == (0, 3.5, 7, 11) and rest == b"IMG"
    # an array label: flag = count, label field 0, the float32 labels before the payload
    s = recordio.pack(recordio.IRHeader(0, [1, 2.5, -3], 4, 0), b"XY")
    assert s == struct.pack("<IfQQ", 3, 0.0, 4, 0) + struct.pack("<3f", 1, 2.5, -3) + b"XY"
    header, rest = recordio.unpack(s)
    assert header.flag == 3 and header.id == 4 and rest == b"XY"
    np.testing.assert_array_equal(header.label, np.array([1, 2.5, -3], dtype=np.float32))


def test_pack_img_unpack_img_roundtrip():
    img = rgb_image(12, 16, 0)[:, :, ::-1]  # BGR, as OpenCV
    s = recordio.pack_img(recordio.IRHeader(0, 1.0, 3, 0), img, quality=3, img_fmt=".png")
    header, back = recordio.unpack_img(s)
    assert header.label == 1.0 and header.id == 3
    np.testing.assert_array_equal(back, img)
    s = recordio.pack_img((0, 2.0, 4, 0), img, quality=90, img_fmt=".jpg")
    _, back = recordio.unpack_img(s)
    assert back.shape == img.shape and np.abs(back.astype(int) - img).mean() < 8


def test_record_pickles_and_reopens(tmp_path):
    rec, idx = str(tmp_path / "p.rec"), str(tmp_path / "p.idx")
    w = recordio.MXIndexedRecordIO(idx, rec, "w")
    w.write_idx(0, b"zero")
    w.write_idx(1, b"one")
    w.close()
    r = recordio.MXIndexedRecordIO(idx, rec, "r")
    r2 = pickle.loads(pickle.dumps(r))
    assert r2.read_idx(1) == b"one" and r2.keys == [0, 1]


# ---- bad input: an error naming the file and the record, never a crash or hang ----------
def _two_records(tmp_path):
    path = tmp_path / "bad.rec"
    path.write_bytes(rec_bytes(b"good", b"0123456789"))
    return path


def test_truncated_record_names_file_and_record(tmp_path):
    path = _two_records(tmp_path)
    path.write_bytes(path.read_bytes()[:-5])
    r = recordio.MXRecordIO(str(path), "r")
    assert r.read() == b"good"
    with pytest.raises(mx.WeftIOError, match=r"bad\.rec.*truncated record.*record 1, byte offset 12"):
        r.read()
    path.write_bytes(path.read_bytes()[:15])  # inside the second header
    r = recordio.MXRecordIO(str(path), "r")
    r.read()
    with pytest.raises(mx.WeftIOError, match=r"truncated record header.*record 1"):
        r.read()


def test_corrupt_magic_names_file_and_record(tmp_path):
    path = _two_records(tmp_path)
    data = bytearray(path.read_bytes())
    data[12] ^= 0xFF
    path.write_bytes(bytes(data))
    r = recordio.MXRecordIO(str(path), "r")
    r.read()
    with pytest.raises(mx.MXNetError, match=r"bad\.rec.*bad magic number.*record 1"):
        r.read()


def test_corrupt_record_through_the_index_names_the_key(tmp_path):
    path = _two_records(tmp_path)
    (tmp_path / "bad.idx").write_text("0\t0\n1\t12\n")
    path.write_bytes(path.read_bytes()[:-5])
    r = recordio.MXIndexedRecordIO(str(tmp_path / "bad.idx"), str(path), "r")
    with pytest.raises(mx.WeftIOError, match=r"record key 1"):
        r.read_idx(1)


def test_missing_files_and_bad_index(tmp_path):
    with pytest.raises(mx.WeftIOError, match=r"RecordIO file not found: .*nothing\.rec"):
        recordio.MXRecordIO(str(tmp_path / "nothing.rec"), "r")
    path = _two_records(tmp_path)
    with pytest.raises(mx.WeftIOError, match=r"index file not found: .*bad\.idx"):
        recordio.MXIndexedRecordIO(str(tmp_path / "bad.idx"), str(path), "r")
    (tmp_path / "bad.idx").write_text("0\t0\nnot a line\n")
    with pytest.raises(mx.WeftIOError, match=r"bad\.idx: line 2"):
        recordio.MXIndexedRecordIO(str(tmp_path / "bad.idx"), str(path), "r")
    with pytest.raises(ValueError, match="Invalid flag"):
        recordio.MXRecordIO(str(path), "x")


def test_non_image_payload_and_short_header():
    s = recordio.pack(recordio.IRHeader(0, 1, 42, 0), b"this is not an image")
    with pytest.raises(mx.WeftIOError, match=r"record id 42.*not an image"):
        recordio.unpack_img(s)
    with pytest.raises(mx.WeftIOError, match="too short for an IRHeader"):
        recordio.unpack(b"abc")
    bad = struct.pack("<IfQQ", 5, 0, 1, 0) + b"\0" * 8  # says 5 labels, holds 2
    with pytest.raises(mx.WeftIOError, match="5 float labels"):
        recordio.unpack(bad)
    assert encode(rgb_image(4, 4, 1))  # the helper encodes (sanity of the fixtures)
