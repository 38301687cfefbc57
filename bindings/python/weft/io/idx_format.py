"""The idx file format of the MNIST files (also Fashion-MNIST), plain or gzip.

Note [idx format]
~~~~~~~~~~~~~~~~~
Two zero bytes, a type byte (0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32,
0x0D float32, 0x0E float64), the number of dimensions n, then n big-endian
uint32 sizes and the values, big-endian, in row-major order. Image files are
3-d (count, rows, cols) uint8, label files 1-d (count,) uint8.
"""
import gzip
import os
import struct

import numpy as np

from ..base import WeftIOError

__all__ = ["read_idx", "write_idx"]

_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def _open(path):
    with open(path, "rb") as f:
        head = f.read(2)
    return gzip.open(path, "rb") if head == b"\x1f\x8b" else open(path, "rb")


def read_idx(path):
    """The array an idx file (gzip-compressed or not) holds, in native byte order."""
    path = os.fspath(path)
    try:
        f = _open(path)
    except FileNotFoundError:
        raise WeftIOError("no such idx file: %s" % path) from None
    try:
        with f:
            raw = f.read()
    except (OSError, EOFError) as e:
        raise WeftIOError("%s: cannot read the idx file (%s)" % (path, e)) from None
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _TYPES:
        raise WeftIOError("%s is not an idx file (bad magic number %r)" % (path, raw[:4]))
    ndim = raw[3]
    if len(raw) < 4 + 4 * ndim:
        raise WeftIOError("%s: idx header truncated" % path)
    shape = struct.unpack(">%dI" % ndim, raw[4:4 + 4 * ndim])
    dtype = np.dtype(_TYPES[raw[2]])
    need = int(np.prod(shape)) * dtype.itemsize
    body = raw[4 + 4 * ndim:]
    if len(body) < need:
        raise WeftIOError("%s: truncated idx file: shape %s needs %d bytes of data, %d present"
                          % (path, shape, need, len(body)))
    arr = np.frombuffer(body, dtype=dtype, count=int(np.prod(shape))).reshape(shape)
    return arr.astype(dtype.newbyteorder("="))


def write_idx(path, array, compress=False):
    """Writes ``array`` as an idx file (gzip-compressed when ``compress``)."""
    array = np.asarray(array)
    codes = {np.dtype(v).newbyteorder("=").str[1:]: k for k, v in _TYPES.items()}
    code = codes.get(array.dtype.newbyteorder("=").str[1:])
    if code is None:
        raise ValueError("idx files cannot hold dtype %s" % array.dtype)
    blob = bytes([0, 0, code, array.ndim]) + struct.pack(">%dI" % array.ndim, *array.shape) + \
        array.astype(_TYPES[code]).tobytes()
    opener = gzip.open if compress else open
    with opener(os.fspath(path), "wb") as f:
        f.write(blob)
