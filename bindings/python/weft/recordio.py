"""RecordIO: MXNet's ``.rec`` / ``.idx`` files, as ``mxnet.recordio`` in MXNet 1.x.

Note [RecordIO format]
~~~~~~~~~~~~~~~~~~~~~~
A ``.rec`` file is a sequence of records (dmlc-core's RecordIO). Each part of
a record is ``uint32 magic = 0xced7230a``, ``uint32 lrecord``, the payload,
then zero bytes up to a multiple of 4. ``lrecord`` holds the payload length in
its low 29 bits and a continue flag in its top 3: 0 a whole record, 1 the
first part, 2 a middle part, 3 the last part. The writer splits a record
wherever the magic number itself occurs at a 4-aligned offset of the payload
(the magic is dropped there and the reader puts it back between the parts), so
a reader that lost its place can find the next record by scanning for the
magic. All integers are little-endian. A ``.idx`` file is text, one
``key\\toffset\\n`` line per record, offset the byte position of the record's
first header in the ``.rec``.

An image record's payload starts with an ``IRHeader`` packed as ``IfQQ``
(flag, label, id, id2; 24 bytes). ``flag`` = 0: ``label`` is the label; ``flag``
= n > 0: n float32 labels follow the header and ``label`` is unused (0). The
encoded image (JPEG/PNG) comes after.
"""
import numbers
import struct
from collections import namedtuple
from multiprocessing import current_process

import numpy as np

from .base import WeftIOError

__all__ = ["MXRecordIO", "MXIndexedRecordIO", "IRHeader", "pack", "unpack", "pack_img", "unpack_img"]

RECORD_MAGIC = 0xCED7230A
_MAGIC_BYTES = struct.pack("<I", RECORD_MAGIC)
_LENGTH_MASK = (1 << 29) - 1
_MAX_RECORD = 1 << 29

IRHeader = namedtuple("HEADER", ["flag", "label", "id", "id2"])
IRHeader.__doc__ = """The header of an image record: flag (0, or the number of float labels
that follow), label (the label when flag is 0), id and id2 (the record's ids)."""
_IR_FORMAT = "<IfQQ"
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def _encode_lrec(cflag, length):
    return struct.pack("<II", RECORD_MAGIC, (cflag << 29) | length)


def encode_record(buf):
    """The bytes dmlc's RecordIOWriter writes for one record of payload ``buf``
    (Note [RecordIO format])."""
    buf = bytes(buf)
    size = len(buf)
    if size >= _MAX_RECORD:
        raise ValueError("RecordIO only accepts records of less than 2^29 bytes, got %d" % size)
    parts = []
    start = 0
    for i in range(0, size - size % 4, 4):
        if buf[i:i + 4] == _MAGIC_BYTES:
            parts.append(_encode_lrec(1 if start == 0 else 2, i - start))
            parts.append(buf[start:i])
            start = i + 4
    parts.append(_encode_lrec(3 if start != 0 else 0, size - start))
    parts.append(buf[start:])
    parts.append(b"\0" * (-size % 4))
    return b"".join(parts)


class MXRecordIO:
    """Reads (``flag='r'``) or writes (``flag='w'``) a RecordIO file record by record.

    ``read()`` returns the next record's bytes, None at the end of the file.
    A damaged file raises WeftIOError naming the file, the record number and
    the byte offset."""

    def __init__(self, uri, flag):
        self.uri = str(uri)
        self.flag = flag
        self.pid = None
        self.is_open = False
        self.writable = False
        self._file = None
        self._record_number = 0  # records read since open(): names the record in errors
        self._seeked_key = None  # the key of the record seek() went to, until it is read
        self.open()

    def open(self):
        """Opens the file (truncates it for 'w')."""
        if self.flag == "w":
            self._file = open(self.uri, "wb")
            self.writable = True
        elif self.flag == "r":
            try:
                self._file = open(self.uri, "rb")
            except FileNotFoundError:
                raise WeftIOError("RecordIO file not found: %s" % self.uri) from None
            self.writable = False
        else:
            raise ValueError("Invalid flag %s" % self.flag)
        self._record_number = 0
        self._seeked_key = None
        self.pid = current_process().pid
        self.is_open = True

    def __del__(self):
        try:
            self.close()
        except Exception:  # pylint: disable=broad-except
            pass

    def __getstate__(self):
        """Pickles as (uri, flag, open or not): the copy reopens the file itself."""
        is_open = self.is_open
        self.close()
        d = dict(self.__dict__)
        d["is_open"] = is_open
        d["_file"] = None
        return d

    def __setstate__(self, d):
        self.__dict__ = d
        is_open = d["is_open"]
        self.is_open = False
        if is_open:
            self.open()

    def _check_pid(self, allow_reset=False):
        """A handle opened in another process is reopened (reading) or refused (writing)."""
        if self.pid != current_process().pid:
            if allow_reset:
                self.reset()
            else:
                raise RuntimeError("Forbidden operation in multiple processes")

    def close(self):
        """Closes the file (a no-op when it is closed)."""
        if not self.is_open:
            return
        self._file.close()
        self._file = None
        self.is_open = False
        self.pid = None

    def reset(self):
        """Reopens the file: reading starts again at the first record."""
        self.close()
        self.open()

    def write(self, buf):
        """Appends one record holding the bytes ``buf``."""
        assert self.writable, "MXRecordIO %s is opened for reading" % self.uri
        self._check_pid(allow_reset=False)
        self._file.write(encode_record(buf))
        self._record_number += 1

    def _damaged(self, what, offset):
        if self._seeked_key is not None:
            where = "record key %r" % (self._seeked_key,)
        else:
            where = "record %d" % self._record_number
        return WeftIOError("%s: damaged RecordIO file: %s (%s, byte offset %d)" % (self.uri, what, where, offset))

    def read(self):
        """The next record's bytes, or None at the end of the file."""
        assert not self.writable, "MXRecordIO %s is opened for writing" % self.uri
        self._check_pid(allow_reset=True)
        f = self._file
        parts = []
        while True:
            offset = f.tell()
            head = f.read(8)
            if not head and not parts:
                return None
            if len(head) != 8:
                raise self._damaged("truncated record header", offset)
            magic, lrec = struct.unpack("<II", head)
            if magic != RECORD_MAGIC:
                raise self._damaged("bad magic number 0x%08x (expected 0x%08x)" % (magic, RECORD_MAGIC),
                                    offset)
            cflag, length = lrec >> 29, lrec & _LENGTH_MASK
            if cflag > 3 or (cflag in (0, 1)) != (not parts):
                raise self._damaged("continue flag %d out of order" % cflag, offset)
            padded = length + (-length % 4)
            payload = f.read(padded)
            if len(payload) != padded:
                raise self._damaged("truncated record: %d payload bytes expected, %d present"
                                    % (padded, len(payload)), offset)
            parts.append(payload[:length])
            if cflag in (0, 3):
                break
        self._record_number += 1
        self._seeked_key = None
        return _MAGIC_BYTES.join(parts)


class MXIndexedRecordIO(MXRecordIO):
    """A RecordIO file with a ``.idx`` index, for random access by key.

    ``read_idx(key)`` / ``write_idx(key, buf)``; ``keys`` lists the keys in file
    order, ``idx`` maps key to byte offset. ``key_type`` converts the keys read
    from the index (int by default)."""

    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path = str(idx_path)
        self.idx = {}
        self.keys = []
        self.key_type = key_type
        self.fidx = None
        super().__init__(uri, flag)

    def open(self):
        super().open()
        self.idx = {}
        self.keys = []
        if self.writable:
            self.fidx = open(self.idx_path, "w")
            return
        try:
            self.fidx = open(self.idx_path, "r")
        except FileNotFoundError:
            super().close()
            raise WeftIOError("RecordIO index file not found: %s (the index of %s)"
                              % (self.idx_path, self.uri)) from None
        for lineno, line in enumerate(iter(self.fidx.readline, ""), 1):
            if not line.strip():
                continue
            fields = line.strip().split("\t")
            try:
                key = self.key_type(fields[0])
                self.idx[key] = int(fields[1])
            except (ValueError, IndexError):
                raise WeftIOError("%s: line %d is not 'key<TAB>offset': %r" % (self.idx_path, lineno, line)) \
                    from None
            self.keys.append(key)

    def close(self):
        if not self.is_open:
            return
        super().close()
        self.fidx.close()
        self.fidx = None

    def __getstate__(self):
        d = super().__getstate__()
        d["fidx"] = None
        return d

    def seek(self, idx):
        """Positions the reader at the record with key ``idx``."""
        assert not self.writable
        self._check_pid(allow_reset=True)
        try:
            pos = self.idx[idx]
        except KeyError:
            raise KeyError("%s: no record with key %r in %s" % (self.uri, idx, self.idx_path)) from None
        self._file.seek(pos)
        self._seeked_key = idx

    def tell(self):
        """The byte offset the next record will be written at."""
        assert self.writable
        return self._file.tell()

    def read_idx(self, idx):
        """The record with key ``idx``."""
        self.seek(idx)
        rec = self.read()
        if rec is None:
            raise WeftIOError("%s: the index %s points past the end of the file for key %r"
                              % (self.uri, self.idx_path, idx))
        return rec

    def write_idx(self, idx, buf):
        """Appends a record with key ``idx`` and indexes it."""
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self.fidx.write("%s\t%d\n" % (str(key), pos))
        self.idx[key] = pos
        self.keys.append(key)


def pack(header, s):
    """An image record's payload: the IRHeader, the float labels when the
    label is an array (flag = their count), then the bytes ``s``."""
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label, dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + bytes(s)
    return struct.pack(_IR_FORMAT, *header) + bytes(s)


def unpack(s):
    """(IRHeader, the bytes after it) of a record packed by ``pack``; the label
    is a float32 array when the header's flag is > 0."""
    if len(s) < _IR_SIZE:
        raise WeftIOError("record of %d bytes is too short for an IRHeader (%d bytes)" % (len(s), _IR_SIZE))
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        if len(s) < 4 * header.flag:
            raise WeftIOError("record says it has %d float labels but holds only %d bytes after its header"
                              % (header.flag, len(s)))
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4:]
    return header, s


def _cv2():
    try:
        # OpenCV is optional and large: imported when pack_img/unpack_img first need it.
        import cv2  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise ImportError("weft.recordio.pack_img/unpack_img need OpenCV: pip install opencv-python-headless") \
            from None
    return cv2


def unpack_img(s, iscolor=-1):
    """(IRHeader, image as a numpy array, BGR as OpenCV decodes it) of an image record."""
    cv2 = _cv2()
    header, s = unpack(s)
    img = cv2.imdecode(np.frombuffer(s, dtype=np.uint8), iscolor)
    if img is None:
        raise WeftIOError("record id %d: the payload is not an image OpenCV can decode" % header.id)
    return header, img


def pack_img(header, img, quality=95, img_fmt=".jpg"):
    """pack() of ``img`` (a numpy array, BGR) encoded as ``img_fmt``: JPEG
    quality, or PNG compression level, ``quality``."""
    cv2 = _cv2()
    encode_params = None
    if img_fmt.upper() in (".JPG", ".JPEG"):
        encode_params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    elif img_fmt.upper() == ".PNG":
        encode_params = [cv2.IMWRITE_PNG_COMPRESSION, quality]
    ret, buf = cv2.imencode(img_fmt, img, encode_params)
    if not ret:
        raise ValueError("failed to encode image as %s" % img_fmt)
    return pack(header, buf.tobytes())
