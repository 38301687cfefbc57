"""The C++ ImageRecordIter pipeline (core/io/): JPEG decoding through
libjpeg-turbo against OpenCV's, multi-part records, random-resized-crop with
DCT-scaled decoding, dtype conversion, and bad input fed to the C++ path:
truncated records, corrupt JPEG/PNG, non-image payloads, a missing .idx and a
label-width mismatch each give a WeftIOError naming the file and the record,
and a dropped or reset iterator never hangs."""
import time

import numpy as np
import pytest

import weft as mx
from weft import io, recordio

from image_data import cv2, encode, rgb_image, write_image_rec


def _jpeg_rec(tmp_path, n=4, h=40, w=56, name="j"):
    images = [rgb_image(h, w, s) for s in range(n)]
    rec, idx = write_image_rec(tmp_path, images, [float(i) for i in range(n)], name, ext=".jpg")
    return images, rec, idx


def test_cpp_path_is_used_and_jpeg_matches_opencv(tmp_path):
    images, rec, idx = _jpeg_rec(tmp_path)
    it = io.ImageRecordUInt8Iter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 40, 56), batch_size=2)
    assert it._handle is not None  # pylint: disable=protected-access
    got = np.concatenate([b.data[0].asnumpy() for b in it])
    for i in range(4):
        payload = recordio.unpack(_record(rec, idx, i))[1]
        want = cv2().cvtColor(cv2().imdecode(np.frombuffer(payload, np.uint8), 1), cv2().COLOR_BGR2RGB)
        # the same libjpeg-turbo decoder (accurate IDCT, fancy upsampling): at most
        # one grey level apart where OpenCV's wheel bundles another version
        assert np.abs(got[i].transpose(1, 2, 0).astype(int) - want).max() <= 1


def _record(rec, idx, i):
    r = recordio.MXIndexedRecordIO(idx, rec, "r")
    try:
        return r.read_idx(i)
    finally:
        r.close()


def test_multipart_record_and_float16(tmp_path):
    img = rgb_image(8, 8, 3)
    jpg = encode(img, ".jpg", quality=95)
    # a COM segment holding RecordIO's magic number: the writer splits the record there
    comment = struct_pack_magic()
    payload = jpg[:2] + b"\xff\xfe" + (2 + len(comment)).to_bytes(2, "big") + comment + jpg[2:]
    rec = str(tmp_path / "m.rec")
    w = recordio.MXRecordIO(rec, "w")
    w.write(recordio.pack((0, 5.0, 9, 0), payload))
    w.close()
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1, dtype="float16")
    b = it.next()
    assert b.data[0].dtype == np.float16 and b.label[0].asnumpy().tolist() == [5.0] and b.index.tolist() == [9]
    want = cv2().cvtColor(cv2().imdecode(np.frombuffer(jpg, np.uint8), 1), cv2().COLOR_BGR2RGB)
    assert np.abs(b.data[0].asnumpy()[0].transpose(1, 2, 0).astype(np.float32) - want).max() <= 1


def struct_pack_magic():
    import struct
    return b"ab" + struct.pack("<I", recordio.RECORD_MAGIC) + b"cd"


def test_random_resized_crop_scaled_decode_close_to_full_decode(tmp_path, monkeypatch):
    # A flat-ish image: a crop downscaled through the DCT or bilinearly looks the same.
    images = [np.full((300, 400, 3), 100, np.uint8) + rgb_image(300, 400, s) // 8 for s in range(2)]
    rec, idx = write_image_rec(tmp_path, images, [0.0, 1.0], "big", ext=".jpg")
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 32, 32), batch_size=2, random_resized_crop=True,
                            min_random_area=0.5, max_random_area=1.0, max_aspect_ratio=0.2, rand_mirror=True,
                            seed=3)
    d = it.next().data[0].asnumpy()
    assert d.shape == (2, 3, 32, 32) and 90 <= d.mean() <= 140
    again = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 32, 32), batch_size=2, random_resized_crop=True,
                               min_random_area=0.5, max_random_area=1.0, max_aspect_ratio=0.2, rand_mirror=True,
                               seed=3, preprocess_threads=1)
    np.testing.assert_array_equal(again.next().data[0].asnumpy(), d)


def test_bilinear_resize_within_one_level_of_opencv(tmp_path):
    images = [rgb_image(30, 50, s) for s in range(2)]
    rec, idx = write_image_rec(tmp_path, images, [0.0, 1.0], "rs")
    # resize=17: a non-integer factor, where OpenCV's fixed-point rounding and
    # our float arithmetic may differ by one level (not bit-exact by design)
    it = io.ImageRecordUInt8Iter(path_imgrec=rec, data_shape=(3, 17, 28), batch_size=2, resize=17)
    got = it.next().data[0].asnumpy()
    for i in range(2):
        small = cv2().resize(images[i], (28, 17), interpolation=1)
        assert np.abs(got[i].transpose(1, 2, 0).astype(int) - small).max() <= 1


def _good_then(tmp_path, name, second):
    """name.rec/.idx: a good PNG record, then `second` (a packed record, or raw bytes)."""
    rec, idx = str(tmp_path / (name + ".rec")), str(tmp_path / (name + ".idx"))
    w = recordio.MXIndexedRecordIO(idx, rec, "w")
    w.write_idx(0, recordio.pack((0, 0.0, 0, 0), encode(rgb_image(6, 6, 0))))
    w.write_idx(1, second)
    w.close()
    return rec, idx


def test_bad_input_named_by_file_and_record(tmp_path):
    good, jpg = encode(rgb_image(6, 6, 0)), encode(rgb_image(6, 6, 1), ".jpg")
    cases = {"cjpg": (recordio.pack((0, 1.0, 1, 0), jpg[:4] + b"\x00" * 40), r"cjpg\.rec record 1: corrupt JPEG"),
             "cpng": (recordio.pack((0, 1.0, 1, 0), good[:8] + b"garbage" * 5), r"cpng\.rec record 1: corrupt PNG"),
             "text": (recordio.pack((0, 1.0, 1, 0), b"plain text, no image"), r"text\.rec record 1: not an image"),
             "short": (b"short", r"short\.rec record 1: record of 5 bytes is too short for an IRHeader")}
    for name, (second, pattern) in cases.items():
        rec, idx = _good_then(tmp_path, name, second)
        it = io.ImageRecordIter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 6, 6), batch_size=1,
                                preprocess_threads=2)
        assert it.next().label[0].asnumpy().tolist() == [0.0]
        with pytest.raises(mx.WeftIOError, match=pattern):
            it.next()
        with pytest.raises(StopIteration):  # the epoch ended with the error ...
            it.next()
        it.reset()                          # ... and reset starts the next one
        assert it.next().label[0].asnumpy().tolist() == [0.0]
    # a .rec cut inside its last record: named when read (with an index) ...
    rec, idx = _good_then(tmp_path, "full", recordio.pack((0, 1.0, 1, 0), good))
    offsets = [int(line.split("\t")[1]) for line in open(idx)]
    trunc = tmp_path / "trunc.rec"
    trunc.write_bytes(open(rec, "rb").read()[:offsets[1] + 12])
    it = io.ImageRecordIter(path_imgrec=str(trunc), path_imgidx=idx, data_shape=(3, 6, 6), batch_size=1)
    it.next()
    with pytest.raises(mx.WeftIOError, match=r"trunc\.rec: damaged RecordIO file: truncated record \(record 1"):
        it.next()
    # ... and when scanning for the offsets without one, at construction
    with pytest.raises(mx.WeftIOError, match=r"trunc\.rec: damaged RecordIO file: truncated record \(record 1"):
        io.ImageRecordIter(path_imgrec=str(trunc), data_shape=(3, 6, 6), batch_size=1)
    with pytest.raises(mx.WeftIOError, match=r"index file not found: .*missing\.idx"):
        io.ImageRecordIter(path_imgrec=rec, path_imgidx=str(tmp_path / "missing.idx"), data_shape=(3, 6, 6),
                           batch_size=1)
    with pytest.raises(mx.WeftIOError, match=r"full\.idx line 2: offset \d+ is past the end of .*cut\.rec"):
        _past_end(tmp_path, rec, idx)  # an index that does not belong to the file
    multi = str(tmp_path / "lw.rec")
    w = recordio.MXRecordIO(multi, "w")
    w.write(recordio.pack((0, [1.0, 2.0, 3.0], 0, 0), good))
    w.close()
    with pytest.raises(mx.WeftIOError, match=r"lw\.rec record 0 has 3 labels, but label_width is 2"):
        io.ImageRecordIter(path_imgrec=multi, data_shape=(3, 6, 6), batch_size=1, label_width=2).next()


def _past_end(tmp_path, rec, idx):
    cut = tmp_path / "cut.rec"
    offsets = [int(line.split("\t")[1]) for line in open(idx)]
    cut.write_bytes(open(rec, "rb").read()[:offsets[1]])
    io.ImageRecordIter(path_imgrec=str(cut), path_imgidx=idx, data_shape=(3, 6, 6), batch_size=1)


def test_drop_and_reset_mid_epoch_do_not_hang(tmp_path):
    _, rec, idx = _jpeg_rec(tmp_path, n=12, h=64, w=64, name="many")
    t0 = time.time()
    for _ in range(3):
        it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 32, 32), batch_size=2, prefetch_buffer=2,
                                preprocess_threads=3, rand_crop=True, shuffle=True)
        it.next()
        it.reset()
        first = [v for b in it for v in b.label[0].asnumpy().tolist()]
        assert sorted(first) == sorted(float(i) for i in range(12))
        it.reset()
        it.next()
        del it  # pool threads and queued batches go with it
    assert time.time() - t0 < 60


def test_other_resizers_use_the_python_pipeline(tmp_path):
    images = [rgb_image(8, 8, s) for s in range(2)]
    rec, _ = write_image_rec(tmp_path, images, [0.0, 1.0], "cubic")
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=2, resize=4, inter_method=2)
    assert not hasattr(it, "_handle") and it.next().data[0].shape == (2, 3, 4, 4)
