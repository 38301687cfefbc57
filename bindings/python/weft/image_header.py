"""What weft.image checks in an image before OpenCV decodes it: the size its
header gives, against the pixel budget, and whether its data can hold that
many pixels (Note [Image pixel budget] in core/io/image_budget.cc).

Note [Reading headers in Python]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
OpenCV has no call that reads a header without decoding (cv2.imdecode sizes
its output from the header and allocates it first; its own limit,
OPENCV_IO_MAX_IMAGE_PIXELS, is read once per process and is 2^30), and it keeps
a truncated JPEG, filling the missing rows. So weft.image walks the file's
structure itself, for JPEG and PNG, in bounded linear passes that allocate
nothing in proportion to the claimed size:

* PNG: IHDR's size against the budget; every chunk inside the data and an
  IEND at the end (else truncated); IDAT bytes enough for the rows the header
  claims, deflate expanding at most 1032 times -- the C++ decoder's checks
  (Note [PNG chunk walk] in core/io/png_decode.cc).
* JPEG: the markers from SOI to EOI. The frame header (SOFn) gives the size,
  checked against the budget; each scan's entropy-coded data runs to the next
  marker, and a file that ends before EOI is truncated. A header can also lie
  with an EOI in place: a Huffman code is at least one bit, so a sequential
  Huffman scan (SOF0/SOF1) spends at least two bits per 8x8 block (its DC code
  and an end-of-block or AC code) and a progressive DC-first scan (SOF2) at
  least one; a scan with fewer bytes than its blocks need is truncated data
  (libjpeg would fill the rest with grey, as the C++ decoder refuses to:
  Note [JPEG truncation] in core/io/jpeg_decode.cc). Real encoders spend six
  bits or more on an empty block, so no genuine image is near the bound.

* BMP and WebP: the size in the header (BMP's info header; WebP's VP8, VP8L
  or VP8X chunk) against the budget; their data is left to OpenCV.

Other formats (TIFF, ...) go to OpenCV unchecked, under OpenCV's own limit.
"""
import os
import re

from .base import InvalidArgumentError, WeftIOError

DEFAULT_MAX_IMAGE_PIXELS = 1 << 28
_MAX_BUDGET = 1 << 40  # as the C++ side: kMaxImagePixelsLimit
_MAX_DEFLATE_RATIO = 1032
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # per colour type
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_MAX_JPEG_SCANS = 256  # as the C++ decoder's kMaxJpegScans: each scan visits every block
# In entropy-coded data 0xFF is followed by 0x00 (stuffing) or a restart marker;
# anything else starts the next marker segment.
_JPEG_NEXT_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7]")


def max_pixels_from_env():
    """WEFT_MAX_IMAGE_PIXELS, or 2^28 when it is not set."""
    text = os.environ.get("WEFT_MAX_IMAGE_PIXELS", "")
    if not text:
        return DEFAULT_MAX_IMAGE_PIXELS
    try:
        value = int(text, 10)
    except ValueError:
        value = 0
    if not 0 < value <= _MAX_BUDGET:
        raise InvalidArgumentError("WEFT_MAX_IMAGE_PIXELS must be a positive integer (a number of pixels) up to "
                                   "2^40, got %r" % text)
    return value


def checked_budget(value):
    """value as the budget: a positive integer up to 2^40, else InvalidArgumentError."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MAX_BUDGET:
        raise InvalidArgumentError("weft.image.MAX_IMAGE_PIXELS must be a positive integer (a number of pixels) "
                                   "up to 2^40, got %r" % (value,))
    return value


def _check_pixels(fmt, height, width, max_pixels, what):
    if height <= 0 or width <= 0:
        raise WeftIOError("%s: corrupt %s: its header gives an empty image (%dx%d)" % (what, fmt, height, width))
    if height * width > max_pixels:
        raise WeftIOError("%s: %s of %dx%d (h x w) pixels is over the image budget of %d pixels "
                          "(WEFT_MAX_IMAGE_PIXELS, weft.image.MAX_IMAGE_PIXELS)" % (what, fmt, height, width,
                                                                                    max_pixels))


def _be16(b, at):
    return (b[at] << 8) | b[at + 1]


def _be32(b, at):
    return (b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]


def _check_png(b, what, max_pixels):
    n = len(b)
    if n < 33 or _be32(b, 8) != 13 or bytes(b[12:16]) != b"IHDR":
        raise WeftIOError("%s: corrupt PNG: no IHDR chunk after the signature (%d bytes)" % (what, n))
    width, height, depth, colour = _be32(b, 16), _be32(b, 20), b[24], b[25]
    if width > 0x7FFFFFFF or height > 0x7FFFFFFF:
        raise WeftIOError("%s: corrupt PNG: its IHDR gives %dx%d pixels (at most 2^31-1 each)" % (what, height, width))
    _check_pixels("PNG", height, width, max_pixels, what)
    at, idat = 8, 0
    while True:
        if n - at < 12:
            raise WeftIOError("%s: corrupt PNG: its data ends at byte %d before its IEND chunk (truncated)" % (what, n))
        length, kind = _be32(b, at), bytes(b[at + 4:at + 8])
        if length > 0x7FFFFFFF or n - at - 12 < length:
            raise WeftIOError("%s: corrupt PNG: the chunk at byte %d says it holds %d bytes, past the end of the %d "
                              "bytes (truncated)" % (what, at, length, n))
        if kind == b"IDAT":
            idat += length
        elif kind == b"IEND":
            break
        at += 12 + length
    samples = _PNG_SAMPLES.get(colour, 0)
    if not samples or not 0 < depth <= 16:
        raise WeftIOError("%s: corrupt PNG: colour type %d with bit depth %d" % (what, colour, depth))
    need = height * (1 + (width * samples * depth + 7) // 8) // _MAX_DEFLATE_RATIO
    if idat < need:
        raise WeftIOError("%s: corrupt PNG: its IDAT chunks hold %d bytes, too few for the %dx%d image its header "
                          "gives (at least %d bytes; truncated)" % (what, idat, height, width, need))


class _Frame:
    """A JPEG frame header (SOFn): the size and each component's sampling factors."""

    def __init__(self, marker, seg, what):
        if len(seg) < 6:
            raise WeftIOError("%s: corrupt JPEG: a frame header of %d bytes" % (what, len(seg)))
        self.marker = marker
        self.height, self.width, count = _be16(seg, 1), _be16(seg, 3), seg[5]
        if count == 0 or len(seg) < 6 + 3 * count:
            raise WeftIOError("%s: corrupt JPEG: a frame header of %d components in %d bytes" % (what, count,
                                                                                                len(seg)))
        self.sampling = {}
        for k in range(count):
            hv = seg[7 + 3 * k]
            h, v = hv >> 4, hv & 15
            if not (1 <= h <= 4 and 1 <= v <= 4):
                raise WeftIOError("%s: corrupt JPEG: sampling factors %dx%d" % (what, h, v))
            self.sampling[seg[6 + 3 * k]] = (h, v)
        self.hmax = max(h for h, _ in self.sampling.values())
        self.vmax = max(v for _, v in self.sampling.values())

    def blocks(self, component):
        """The 8x8 blocks of one component (without the padding to whole MCUs: a lower bound)."""
        h, v = self.sampling[component]
        cols = -(-self.width * h // self.hmax)
        rows = -(-self.height * v // self.vmax)
        return -(-cols // 8) * -(-rows // 8)

    def min_scan_bits(self, seg, what):
        """The fewest bits a scan with header ``seg`` can code its blocks in (Note [Reading headers in Python])."""
        count = seg[0] if seg else 0
        if count == 0 or len(seg) < 4 + 2 * count:
            raise WeftIOError("%s: corrupt JPEG: a scan header of %d components in %d bytes" % (what, count,
                                                                                              len(seg)))
        ids = [seg[1 + 2 * k] for k in range(count)]
        if any(c not in self.sampling for c in ids):
            raise WeftIOError("%s: corrupt JPEG: a scan names a component its frame does not have" % what)
        start, approx_high = seg[1 + 2 * count], seg[3 + 2 * count] >> 4
        if self.marker in (0xC0, 0xC1):
            per_block = 2
        elif self.marker == 0xC2 and start == 0 and approx_high == 0:
            per_block = 1
        else:
            return 0
        return per_block * sum(self.blocks(c) for c in ids)


def _check_jpeg(b, what, max_pixels):
    n, at, frame, scans = len(b), 2, None, 0

    def truncated(why):
        return WeftIOError("%s: corrupt JPEG: %s (truncated)" % (what, why))

    while True:
        if at >= n:
            raise truncated("its data ends at byte %d before the end-of-image marker" % n)
        if b[at] != 0xFF:
            raise WeftIOError("%s: corrupt JPEG: no marker at byte %d" % (what, at))
        while at < n and b[at] == 0xFF:  # fill bytes
            at += 1
        if at >= n:
            raise truncated("its data ends at byte %d before the end-of-image marker" % n)
        marker, at = b[at], at + 1
        if marker == 0xD9:
            return
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # no length
            continue
        if n - at < 2:
            raise truncated("its data ends inside a marker segment")
        length = _be16(b, at)
        if length < 2:
            raise WeftIOError("%s: corrupt JPEG: a marker segment of length %d at byte %d" % (what, length, at))
        end = at + length
        if end > n:
            raise truncated("the marker segment at byte %d runs past the end of the %d bytes" % (at, n))
        seg = b[at + 2:end]
        if marker in _JPEG_SOF and frame is None:
            frame = _Frame(marker, seg, what)
            _check_pixels("JPEG", frame.height, frame.width, max_pixels, what)
        elif marker == 0xDA:
            if frame is None:
                raise WeftIOError("%s: corrupt JPEG: a scan before the frame header" % what)
            scans += 1
            if scans > _MAX_JPEG_SCANS:
                raise WeftIOError("%s: corrupt JPEG: more than %d scans" % (what, _MAX_JPEG_SCANS))
            need = frame.min_scan_bits(seg, what)
            found = _JPEG_NEXT_MARKER.search(b, end)
            if found is None:
                raise truncated("its data ends inside a scan")
            if (found.start() - end) * 8 < need:
                raise truncated("a scan holds %d bytes, fewer than the %d bytes its %dx%d pixels need at the least" %
                                (found.start() - end, -(-need // 8), frame.height, frame.width))
            end = found.start()
        at = end


def _le(b, at, size):
    return int.from_bytes(bytes(b[at:at + size]), "little")


def _check_bmp(b, what, max_pixels):
    if len(b) < 26:
        raise WeftIOError("%s: corrupt BMP: a header of %d bytes" % (what, len(b)))
    if _le(b, 14, 4) == 12:  # BITMAPCOREHEADER: 16-bit sizes
        width, height = _le(b, 18, 2), _le(b, 20, 2)
    else:
        width = int.from_bytes(bytes(b[18:22]), "little", signed=True)
        height = abs(int.from_bytes(bytes(b[22:26]), "little", signed=True))  # negative: rows top-down
    _check_pixels("BMP", height, abs(width), max_pixels, what)


def _check_webp(b, what, max_pixels):
    kind = bytes(b[12:16])
    if kind == b"VP8X" and len(b) >= 30:
        width, height = 1 + _le(b, 24, 3), 1 + _le(b, 27, 3)
    elif kind == b"VP8L" and len(b) >= 25:
        bits = _le(b, 21, 4)
        width, height = 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    elif kind == b"VP8 " and len(b) >= 30:
        width, height = _le(b, 26, 2) & 0x3FFF, _le(b, 28, 2) & 0x3FFF
    else:
        raise WeftIOError("%s: corrupt WebP: no VP8, VP8L or VP8X header (%d bytes)" % (what, len(b)))
    _check_pixels("WebP", height, width, max_pixels, what)


def check_image_data(data, what, max_pixels):
    """Raises WeftIOError naming ``what`` when ``data`` (bytes-like) is a PNG,
    JPEG, BMP or WebP over ``max_pixels`` pixels, or a PNG or JPEG whose data
    cannot hold the image its header gives; other formats pass unchecked (Note
    [Reading headers in Python])."""
    if bytes(data[:8]) == _PNG_SIGNATURE:
        _check_png(data, what, max_pixels)
    elif bytes(data[:3]) == b"\xff\xd8\xff":
        _check_jpeg(data, what, max_pixels)
    elif bytes(data[:2]) == b"BM":
        _check_bmp(data, what, max_pixels)
    elif bytes(data[:4]) == b"RIFF" and bytes(data[8:12]) == b"WEBP":
        _check_webp(data, what, max_pixels)
