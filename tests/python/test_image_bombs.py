"""One pixel budget for every image decoder (issue 35, point 4; Note [Image
pixel budget]): weft.image (OpenCV) and the C++ ImageRecordIter (libjpeg-turbo,
libpng) refuse, with a WeftIOError naming the buffer or the file and record,
images over the budget and images whose data stops short of what their header
claims -- before allocating for them, so that decoding a bomb costs little
memory (checked in a child process under an address-space limit)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import weft as mx
from weft import image, io, recordio

from image_bombs import jpeg_claiming, jpeg_of_many_scans, png_claiming, truncated_jpeg, truncated_png
from image_data import encode, rgb_image

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, bytes builder, message pattern): every decoder refuses each.
BOMBS = [
    ("png_65536x10000", lambda: png_claiming(10000, 65536), r"PNG of 10000x65536 \(h x w\) pixels is over the image "
                                                            r"budget of 268435456 pixels"),
    ("png_16384x16384", lambda: png_claiming(16384, 16384), r"corrupt PNG: its IDAT chunks hold \d+ bytes, too few"),
    ("jpeg_16384x16384", lambda: jpeg_claiming(16384, 16384), r"corrupt JPEG: .*truncated"),
    ("jpeg_progressive_16384x16384", lambda: jpeg_claiming(16384, 16384, progressive=True),
     r"corrupt JPEG: .*truncated"),
    ("jpeg_65500x65500", lambda: jpeg_claiming(65500, 65500), r"JPEG of 65500x65500 \(h x w\) pixels is over the "
                                                              r"image budget"),
    ("jpeg_cut", truncated_jpeg, r"corrupt JPEG: .*truncated"),
    ("jpeg_progressive_cut", lambda: truncated_jpeg(progressive=True), r"corrupt JPEG: .*truncated"),
    ("png_cut", truncated_png, r"corrupt PNG: .*truncated"),
    ("jpeg_300_scans", jpeg_of_many_scans, r"corrupt JPEG: more than 256 scans"),
]


def _one_record_rec(tmp_path, name, payload):
    rec = str(tmp_path / (name + ".rec"))
    w = recordio.MXRecordIO(rec, "w")
    w.write(recordio.pack((0, 1.0, 0, 0), payload))
    w.close()
    return rec


@pytest.mark.parametrize("name,build,pattern", BOMBS, ids=[b[0] for b in BOMBS])
def test_imdecode_refuses(name, build, pattern):
    with pytest.raises(mx.WeftIOError, match="the buffer: " + pattern):
        image.imdecode(build())
    del name


@pytest.mark.parametrize("name,build,pattern", BOMBS, ids=[b[0] for b in BOMBS])
def test_image_record_iter_refuses_naming_the_record(tmp_path, name, build, pattern):
    rec = _one_record_rec(tmp_path, name, build())
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1, preprocess_threads=1)
    assert it._handle is not None  # pylint: disable=protected-access
    with pytest.raises(mx.WeftIOError, match=r"%s\.rec record 0: %s" % (name, pattern)):
        it.next()


def test_python_record_pipeline_names_the_record(tmp_path):
    rec = _one_record_rec(tmp_path, "py", truncated_jpeg())
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1, resize=8, inter_method=2)
    assert not hasattr(it, "_handle")  # OpenCV's cubic resizer: the Python pipeline
    with pytest.raises(mx.WeftIOError, match=r"py\.rec record 0: corrupt JPEG: .*truncated"):
        it.next()


def test_opencv_errors_become_weft_io_errors():
    # A PNG whose header and chunks are sound but whose zlib stream is not:
    # only the decoder (libpng under OpenCV) can tell.
    from image_bombs import png_chunk  # pylint: disable=import-outside-toplevel
    import struct  # pylint: disable=import-outside-toplevel
    bad = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)) +
           png_chunk(b"IDAT", b"\x78\x9c" + b"\xff" * 64) + png_chunk(b"IEND", b""))
    with pytest.raises(mx.WeftIOError, match=r"Decoding failed: the buffer"):
        image.imdecode(bad)
    with pytest.raises(mx.WeftIOError, match=r"Decoding failed: the buffer"):
        image.imdecode(b"\x00" * 100)
    # A BMP over OpenCV's own limit (2^30 pixels) once weft's budget allows it: OpenCV raises cv2.error.
    bmp = b"BM" + struct.pack("<IHHI", 54, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, 40000, 40000, 1, 24, 0, 0,
                                                                  2835, 2835, 0, 0)
    image.MAX_IMAGE_PIXELS = 1 << 40
    try:
        with pytest.raises(mx.WeftIOError, match=r"Decoding failed: the buffer: OpenCV: .*CV_IO_MAX_IMAGE_PIXELS"):
            image.imdecode(bmp)
    finally:
        del image.MAX_IMAGE_PIXELS
    with pytest.raises(mx.WeftIOError, match=r"the buffer: BMP of 40000x40000 \(h x w\) pixels is over the image"):
        image.imdecode(bmp)


@pytest.mark.parametrize("ext,params", [(".bmp", []), (".webp", [101]), (".webp", [80])])
def test_bmp_and_webp_headers_checked_against_the_budget(ext, params):
    import cv2  # pylint: disable=import-outside-toplevel
    img = rgb_image(20, 30, 1)
    data = cv2.imencode(ext, img, [cv2.IMWRITE_WEBP_QUALITY] + params if params else [])[1].tobytes()
    assert image.imdecode(data).shape == (20, 30, 3)
    image.MAX_IMAGE_PIXELS = 599
    try:
        with pytest.raises(mx.WeftIOError, match=r"the buffer: (BMP|WebP) of 20x30 \(h x w\) pixels is over"):
            image.imdecode(data)
    finally:
        del image.MAX_IMAGE_PIXELS


def test_good_images_still_decode_on_both_paths(tmp_path):
    img = rgb_image(24, 40, 1)
    jpg = encode(img, ".jpg", quality=95)
    # Bytes before the end-of-image marker: libjpeg warns (extraneous data), the image is kept, as OpenCV keeps it.
    extra = jpg[:-2] + b"\x00" * 16 + b"\xff\xd9"
    for payload in (encode(img), jpg, extra):
        got = image.imdecode(payload).asnumpy()
        assert got.shape == (24, 40, 3) and np.abs(got.astype(int) - img).max() <= 12
        rec = _one_record_rec(tmp_path, "good", payload)
        it = io.ImageRecordUInt8Iter(path_imgrec=rec, data_shape=(3, 24, 40), batch_size=1)
        native = it.next().data[0].asnumpy()[0].transpose(1, 2, 0)
        assert np.abs(native.astype(int) - got).max() <= 1


def test_budget_setting_reaches_both_decoders(tmp_path, monkeypatch):
    png = encode(rgb_image(16, 16, 0))
    rec = _one_record_rec(tmp_path, "small", png)
    monkeypatch.delenv("WEFT_MAX_IMAGE_PIXELS", raising=False)
    assert "MAX_IMAGE_PIXELS" not in vars(image) and image.MAX_IMAGE_PIXELS == 1 << 28
    monkeypatch.setenv("WEFT_MAX_IMAGE_PIXELS", "255")
    assert image.MAX_IMAGE_PIXELS == 255
    with pytest.raises(mx.WeftIOError, match=r"PNG of 16x16 \(h x w\) pixels is over the image budget of 255"):
        image.imdecode(png)
    with pytest.raises(mx.WeftIOError, match=r"small\.rec record 0: PNG of 16x16 .* budget of 255 pixels"):
        io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1).next()
    # The attribute, once assigned, wins over the variable (monkeypatch would
    # pin the variable's value as the attribute's when undoing: assign by hand).
    image.MAX_IMAGE_PIXELS = 256
    try:
        assert image.imdecode(png).shape == (16, 16, 3)
        batch = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1).next()
        assert batch.data[0].shape == (1, 3, 8, 8)
        image.MAX_IMAGE_PIXELS = "lots"
        with pytest.raises(mx.InvalidArgumentError, match=r"weft.image.MAX_IMAGE_PIXELS must be a positive integer"):
            image.imdecode(png)
        with pytest.raises(mx.InvalidArgumentError, match=r"weft.image.MAX_IMAGE_PIXELS must be a positive integer"):
            io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1)
    finally:
        del image.MAX_IMAGE_PIXELS
    monkeypatch.setenv("WEFT_MAX_IMAGE_PIXELS", "-3")
    with pytest.raises(mx.InvalidArgumentError, match=r"WEFT_MAX_IMAGE_PIXELS must be a positive integer.*'-3'"):
        image.imdecode(png)


def test_cpp_reads_the_variable_when_not_given_a_budget(tmp_path, monkeypatch):
    # What a C or Go caller of weft_image_record_iter_create gets: the
    # variable, read when the iterator is made.
    from weft.base import check_call, ffi, lib  # pylint: disable=import-outside-toplevel
    rec = _one_record_rec(tmp_path, "env", encode(rgb_image(16, 16, 0)))

    def create():
        params = {"path_imgrec": rec, "data_shape": "(3,8,8)", "batch_size": "1"}
        keys = [ffi.new("char[]", k.encode()) for k in params]
        vals = [ffi.new("char[]", v.encode()) for v in params.values()]
        out = ffi.new("weft_image_record_iter**")
        check_call(lib.weft_image_record_iter_create(len(keys), keys, vals, out))
        lib.weft_image_record_iter_free(out[0])

    create()
    monkeypatch.setenv("WEFT_MAX_IMAGE_PIXELS", "12x")
    with pytest.raises(mx.InvalidArgumentError, match=r"WEFT_MAX_IMAGE_PIXELS must be a positive integer .*'12x'"):
        create()


# The child: builds every bomb, then decodes each on one path under an
# address-space limit (so a regression fails with MemoryError or bad_alloc
# instead of swapping), and reports the peak RSS growth per bomb.
_CHILD = textwrap.dedent("""
    import json, os, resource, sys
    import weft as mx
    from weft import image, io, recordio
    from test_image_bombs import BOMBS, _one_record_rec
    import pathlib, tempfile
    path, tmp = sys.argv[1], pathlib.Path(tempfile.mkdtemp())
    payloads = [(name, build(), pattern) for name, build, pattern in BOMBS]
    def vm_kib():
        for line in open("/proc/self/status"):
            if line.startswith("VmSize:"):
                return int(line.split()[1])
    def peak_kib():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    recs = {name: _one_record_rec(tmp, name, data) for name, data, _ in payloads}
    # warm both paths up on a good image first (thread pools, OpenCV's buffers)
    from image_data import encode, rgb_image
    image.imdecode(encode(rgb_image(8, 8, 0)))
    warm = _one_record_rec(tmp, "warm", encode(rgb_image(8, 8, 0)))
    io.ImageRecordIter(path_imgrec=warm, data_shape=(3, 8, 8), batch_size=1, preprocess_threads=1).next()
    limit = (vm_kib() + 1024 * 1024) * 1024  # what is mapped now plus 1 GiB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    report = {}
    for name, data, pattern in payloads:
        before = peak_kib()
        try:
            if path == "imdecode":
                image.imdecode(data)
            else:
                io.ImageRecordIter(path_imgrec=recs[name], data_shape=(3, 8, 8), batch_size=1,
                                   preprocess_threads=1).next()
            outcome = "decoded"
        except mx.WeftIOError as e:
            outcome = "WeftIOError: " + str(e)
        except MemoryError as e:
            outcome = "MemoryError: " + str(e)
        report[name] = {"outcome": outcome, "peak_growth_mib": (peak_kib() - before) / 1024.0}
    print(json.dumps(report))
""")


@pytest.mark.parametrize("path", ["imdecode", "ImageRecordIter"])
def test_bombs_cost_little_memory(path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([HERE] + [p for p in [env.get("PYTHONPATH")] if p])
    env.pop("WEFT_MAX_IMAGE_PIXELS", None)
    proc = subprocess.run([sys.executable, "-c", _CHILD, path], env=env, cwd=HERE, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, _, _ in BOMBS:
        got = report[name]
        assert got["outcome"].startswith("WeftIOError"), (name, got)
        # A decoder that allocated for the claimed size would touch hundreds of MiB.
        assert got["peak_growth_mib"] < 64, (name, got)
