"""Hostile images for the decoder tests, built here (no files checked in):
headers that claim far more pixels than their data holds, and cut files."""
import struct
import zlib

import numpy as np

from image_data import encode, rgb_image


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_claiming(height, width):
    """A valid PNG (every CRC right) of height x width RGB pixels whose IDAT
    holds a few hundred bytes: the rows it claims are not there."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 4096, 9)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def jpeg_claiming(height, width, progressive=False):
    """A small real JPEG whose frame header (SOFn) is patched to say height x
    width: its scan data covers a few blocks, then the end-of-image marker."""
    import cv2  # pylint: disable=import-outside-toplevel
    params = [cv2.IMWRITE_JPEG_QUALITY, 90] + ([cv2.IMWRITE_JPEG_PROGRESSIVE, 1] if progressive else [])
    ok, buf = cv2.imencode(".jpg", rgb_image(32, 48, 7)[:, :, ::-1], params)
    assert ok
    data = bytearray(buf.tobytes())
    at = 2
    while data[at + 1] not in (0xC0, 0xC1, 0xC2):
        at += 2 + struct.unpack(">H", bytes(data[at + 2:at + 4]))[0]
    struct.pack_into(">HH", data, at + 5, height, width)
    return bytes(data)


def jpeg_of_many_scans(scans=300):
    """A progressive JPEG whose first scan (the DC one, which decodes the same
    whatever came before it) is repeated: every scan makes the decoder visit
    every block again."""
    import re  # pylint: disable=import-outside-toplevel
    import cv2  # pylint: disable=import-outside-toplevel
    ok, buf = cv2.imencode(".jpg", rgb_image(32, 48, 7)[:, :, ::-1], [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok
    data = buf.tobytes()
    start = data.index(b"\xff\xda")
    header_end = start + 2 + struct.unpack(">H", data[start + 2:start + 4])[0]
    end = re.compile(rb"\xff[^\x00\xd0-\xd7]").search(data, header_end).start()
    return data[:end] + data[start:end] * (scans - 1) + data[end:]


def cut(data, fraction=0.5):
    return data[:int(len(data) * fraction)]


def truncated_jpeg(progressive=False):
    import cv2  # pylint: disable=import-outside-toplevel
    params = [cv2.IMWRITE_JPEG_QUALITY, 90] + ([cv2.IMWRITE_JPEG_PROGRESSIVE, 1] if progressive else [])
    ok, buf = cv2.imencode(".jpg", rgb_image(64, 64, 3)[:, :, ::-1], params)
    assert ok
    return cut(buf.tobytes(), 0.6)


def truncated_png():
    return cut(encode(rgb_image(64, 64, 3)), 0.6)


def noisy_image(h, w, seed=0):
    return np.random.RandomState(seed).randint(0, 256, size=(h, w, 3)).astype(np.uint8)
