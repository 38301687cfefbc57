"""Cases of the npmisc group's operators under MXNet 1.9.1's NumPy-mode names (issue 37
point 3): _npi_share_memory (core/op/reduce/np_share_memory.cc), _npi_powerd
(core/op/random/np_samplers.cc), _npi_choice (core/op/random/np_choice.cc) and _cvimdecode /
_cvimread (core/io/cv_image_ops.cc; _npi_cvimdecode and _npi_cvimread are their aliases).
None has a gradient (MXNet registers none)."""
import math
import os
import struct
import zlib

import numpy as np

import weft

from .case import Case
from .init_random import check_reproducible
from .np_samplers import _check

# MXNet 1.9.1 wrote its decode of this file (tests/python/test_np_nodes_npmisc.py compares them)
PATTERN = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "mxnet_written", "np_nodes_npmisc",
                       "pattern.png")

N = 20000


def _same_buffer(x):
    # one array as both inputs: the buffers overlap (Note [Shared memory as overlapping byte ranges])
    return weft.nd._npi_share_memory(x, x)


def _power(a):
    return a / (a + 1), math.sqrt(a / ((a + 1) ** 2 * (a + 2))), 0.5 ** (1 / a)


def _float64(check):
    """check (of a float32 draw) on a draw that must be float64."""
    def checked(outs, inputs, attrs):
        assert outs[0].dtype == np.float64, outs[0].dtype
        check([outs[0].astype(np.float32)], inputs, attrs)
    return checked


def _choice_check(p, replace=True):
    def check(outs, _inputs, attrs):
        x = outs[0]
        assert x.dtype == np.int64, x.dtype
        assert x.shape == tuple(attrs["size"]), x.shape
        n = len(p)
        assert x.min() >= 0 and x.max() < n
        if not replace:
            assert len(set(x.ravel())) == x.size
            return
        f = np.bincount(x.ravel(), minlength=n) / x.size
        se = np.sqrt(np.array(p) * (1 - np.array(p)) / x.size)
        assert (abs(f - p) <= 5 * se + 1e-12).all(), (f, p)
        if not attrs.get("weighted"):  # a redraw takes no inputs
            check_reproducible("_npi_choice", attrs)
    return check


def _png(img):
    """An 8-bit RGB PNG of img (H, W, 3), rows unfiltered: known bytes without an encoder."""
    h, w, _ = img.shape

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + img[y].tobytes() for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


IMAGE = (np.arange(5 * 7 * 3) * 37 % 256).astype(np.uint8).reshape(5, 7, 3)


def _png_bytes(_rng):
    return [np.frombuffer(_png(IMAGE), np.uint8)]


def _grey(img):
    # OpenCV's grey of a PNG: libpng's rgb_to_gray, 0.299/0.587 in 15 bits, truncated
    r, g, b = (img[..., k].astype(np.int64) for k in range(3))
    return ((9797 * r + 19234 * g + 3737 * b) >> 15).astype(np.uint8)[..., None]


def _pattern(**_attrs):
    return weft.npx.load(os.path.join(os.path.dirname(PATTERN), "arrays.params"))["decode_png/out0"].asnumpy()


CASES = {
    "_npi_share_memory": [
        Case([np.ones((2, 3), np.float32), np.ones((2, 3), np.float32)], ref=lambda a, b: np.array(False), rtol=0,
             atol=0, name="share_memory-two-arrays"),
        Case([np.ones((4,), np.int64)], call=_same_buffer, ref=lambda a: np.array(True), rtol=0, atol=0,
             name="share_memory-one-array"),
        Case([np.zeros((0,), np.float32), np.ones(3, np.uint8)], ref=lambda a, b: np.array(False), rtol=0, atol=0,
             name="share_memory-empty"),
    ],
    "_npi_powerd": [
        Case([], attrs={"a": 2.0, "size": (N,)}, check=_check("_npi_powerd", *_power(2.0), low=0), name="power-a2"),
        Case([], attrs={"a": 0.5, "size": (N,)}, check=_check("_npi_powerd", *_power(0.5), low=0), name="power-a0.5"),
    ],
    "_cvimdecode": [
        Case(_png_bytes, ref=lambda buf: IMAGE, rtol=0, atol=0, name="cvimdecode-png-rgb"),
        Case(_png_bytes, attrs={"to_rgb": False}, ref=lambda buf: IMAGE[..., ::-1], rtol=0, atol=0,
             name="cvimdecode-png-bgr"),
        Case(_png_bytes, attrs={"flag": 0}, ref=lambda buf: _grey(IMAGE), rtol=0, atol=0, name="cvimdecode-png-grey"),
    ],
    "_cvimread": [
        Case([], attrs={"filename": PATTERN}, ref=_pattern, ref_takes_attrs=True, rtol=0, atol=0,
             name="cvimread-png"),
    ],
    # normal/uniform/exponential: number parameters here (arrays: test_np_nodes_npmisc.py)
    "_npi_normal": [
        Case([], attrs={"loc": 1.5, "scale": 2.0, "size": (N,)}, check=_check("_npi_normal", 1.5, 2.0, 1.5),
             name="normal"),
        Case([], attrs={"loc": -1.0, "scale": 0.5, "size": (N,), "dtype": "float64"},
             check=_float64(_check("_npi_normal", -1.0, 0.5, -1.0)), name="normal-float64"),
    ],
    "_npi_normal_n": [
        Case([], attrs={"loc": 0.0, "scale": 1.0, "size": (N,)}, check=_check("_npi_normal_n", 0.0, 1.0, 0.0),
             name="normal_n"),
    ],
    "_npi_uniform": [
        Case([], attrs={"low": -1.0, "high": 3.0, "size": (N,)},
             check=_check("_npi_uniform", 1.0, 4 / math.sqrt(12), 1.0, low=-1.0), name="uniform"),
    ],
    "_npi_uniform_n": [
        Case([], attrs={"low": 2.0, "high": 2.5, "size": (N,)},
             check=_check("_npi_uniform_n", 2.25, 0.5 / math.sqrt(12), 2.25, low=2.0), name="uniform_n"),
    ],
    "_npi_exponential": [
        Case([], attrs={"scale": 2.0, "size": (N,)},
             check=_check("_npi_exponential", 2.0, 2.0, 2.0 * math.log(2), low=0), name="exponential"),
    ],
    "_npi_choice": [
        Case([], attrs={"a": 5, "size": (N,)}, check=_choice_check([0.2] * 5), name="choice-uniform"),
        Case([], attrs={"a": 50, "size": (5, 8), "replace": False}, check=_choice_check([0.02] * 50, replace=False),
             name="choice-no-replace"),
        Case([np.array([0.1, 0.0, 0.6, 0.3])], attrs={"a": 4, "size": (N,), "weighted": True},
             check=_choice_check([0.1, 0.0, 0.6, 0.3]), name="choice-weighted"),
    ],
}
