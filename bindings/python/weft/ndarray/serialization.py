"""Saving and loading NDArrays in MXNet 1.x's .params format (files and bytes;
also what pickling an NDArray uses).

Saving consults ``util.is_np_shape()`` as MXNet's NDArray::Save does: in NumPy-shape
mode every record is written as V3, the only kind MXNet 1.9.1 loads in that mode
(Note [V3 records in NumPy-shape mode] in core/ndarray/ndarray_io.cc)."""
# pylint: disable=invalid-name
import os

from ..base import ArgumentTypeError, check_call, check_str, ffi, lib
from ..util import is_np_shape
from .ndarray_class import NDArray, _wrap

_NULL = ffi.NULL


def _arrays_and_keys(data, what):
    if isinstance(data, NDArray):
        return [data], None
    if isinstance(data, dict):
        keys = list(data.keys())
        for k in keys:
            if not isinstance(k, str):
                raise ArgumentTypeError("%s: dict keys must be str, got %s" % (what, type(k).__name__))
        arrays = [data[k] for k in keys]
    elif isinstance(data, (list, tuple)):
        keys = None
        arrays = list(data)
    else:
        raise ArgumentTypeError("%s: data must be an NDArray, a list or a dict of NDArrays, got %s"
                                % (what, type(data).__name__))
    for a in arrays:
        if not isinstance(a, NDArray):
            raise ArgumentTypeError("%s: only NDArrays can be saved, got %s" % (what, type(a).__name__))
    return arrays, keys


def _c_lists(arrays, keys):
    handles = ffi.new("weft_ndarray*[]", [a.handle for a in arrays]) if arrays else _NULL
    if keys is None:
        return handles, _NULL, None
    # surrogateescape undoes load's decoding, so a name that was not UTF-8 in
    # a file saves back as the same bytes; a NUL would cut the C string short.
    for k in keys:
        check_str(k, "save: the array name")
    keep = [ffi.new("char[]", k.encode("utf-8", "surrogateescape")) for k in keys]
    ckeys = ffi.new("const char*[]", keep) if keep else ffi.new("const char*[1]")
    return handles, ckeys, keep


def save(fname, data):
    """Saves an NDArray, a list or a dict (str -> NDArray) in MXNet's .params format
    (V3 records while NumPy-shape semantics are on, as MXNet writes them)."""
    arrays, keys = _arrays_and_keys(data, "save")
    handles, ckeys, keep = _c_lists(arrays, keys)
    check_call(lib.weft_ndarray_save_ex(os.fsencode(fname), len(arrays), handles, ckeys, int(is_np_shape())))
    del keep


def _save_bytes(arrays, keys=None):
    handles, ckeys, keep = _c_lists(arrays, keys)
    buf = ffi.new("const char**")
    size = ffi.new("size_t*")
    check_call(lib.weft_ndarray_save_to_buffer_ex(len(arrays), handles, ckeys, int(is_np_shape()), buf, size))
    del keep
    return bytes(ffi.buffer(buf[0], size[0]))


def _published(n, arrs, nk, keys):
    # Take ownership of every handle first, so nothing leaks if decoding fails.
    arrays = [_wrap(arrs[0][i]) for i in range(n[0])]
    if keys[0] == _NULL or nk[0] == 0:
        return arrays
    names = [ffi.string(keys[0][i]).decode("utf-8", "surrogateescape") for i in range(nk[0])]
    return dict(zip(names, arrays))


def load(fname):
    """Loads a .params file: a list, or a dict when the file has names."""
    n, arrs, nk, keys = ffi.new("int*"), ffi.new("weft_ndarray***"), ffi.new("int*"), ffi.new("const char***")
    check_call(lib.weft_ndarray_load(os.fsencode(fname), n, arrs, nk, keys))
    return _published(n, arrs, nk, keys)


def load_frombuffer(buf):
    """Like load, from bytes in memory."""
    if isinstance(buf, str):
        raise ArgumentTypeError("load_frombuffer: expected bytes, got str")
    try:
        mv = memoryview(buf)
    except TypeError:
        raise ArgumentTypeError("load_frombuffer: expected a bytes-like object, got %s"
                                % type(buf).__name__) from None
    data = bytes(mv) if not mv.c_contiguous else buf
    n, arrs, nk, keys = ffi.new("int*"), ffi.new("weft_ndarray***"), ffi.new("int*"), ffi.new("const char***")
    cbuf = ffi.from_buffer(data) if len(mv) else _NULL
    check_call(lib.weft_ndarray_load_from_buffer(cbuf, mv.nbytes, n, arrs, nk, keys))
    return _published(n, arrs, nk, keys)


def _unpickle(data):
    return load_frombuffer(data)[0]
