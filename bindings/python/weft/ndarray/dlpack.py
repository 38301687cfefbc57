"""DLPack: zero-copy exchange of arrays with NumPy, PyTorch, CuPy ...

``weft.nd.from_dlpack(x)`` wraps the memory of any object with ``__dlpack__``
(or of a raw "dltensor" capsule) in a weft NDArray; ``NDArray.__dlpack__`` and
``__dlpack_device__`` let ``numpy.from_dlpack`` / ``torch.from_dlpack`` do the
reverse. Neither direction copies. The work is in the C library
(``weft_ndarray_to_dlpack`` / ``weft_ndarray_from_dlpack``); this module only
speaks the Python side of the protocol
(https://dmlc.github.io/dlpack/latest/python_spec.html):

* a producer returns a PyCapsule named "dltensor" holding a DLManagedTensor*;
* the consumer renames it "used_dltensor" when it takes the tensor over, and
  from then on calls the tensor's deleter itself;
* the capsule's destructor calls the deleter only if nobody consumed it.

Exports: a "dltensor_versioned" capsule (DLPack 1.0) when the consumer's
``max_version`` allows it -- NumPy makes arrays from unversioned tensors
read-only -- else an unversioned "dltensor" one. Imports: unversioned only
(``from_dlpack`` asks for that by not passing ``max_version``).
"""
# pylint: disable=invalid-name,protected-access
import ctypes

import numpy as np

from ..base import ArgumentTypeError, InvalidArgumentError, check_call, error_for, ffi, lib
from .creation import array
from .ndarray_class import NDArray, _wrap

__all__ = ["from_dlpack", "to_dlpack_for_read", "to_dlpack_for_write",
           "DLDevice", "DLDataType", "DLTensor", "DLManagedTensor", "DLManagedTensorVersioned"]

# Module constants: CPython keeps the pointer to a capsule's name, not a copy,
# so the names must live as long as any capsule (these bytes objects never die).
_DLTENSOR = b"dltensor"
_USED_DLTENSOR = b"used_dltensor"
_DLTENSOR_VERSIONED = b"dltensor_versioned"

# DLPack device types (weft/dlpack.h) by weft device type (context.py).
_KDLCPU, _KDLCUDA, _KDLCUDAHOST = 1, 2, 3


# ---- the C structs (layout of capi/include/weft/dlpack.h) ------------------------------
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


DLDeleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DLDeleter)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version_major", ctypes.c_uint32), ("version_minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", DLDeleter), ("flags", ctypes.c_uint64),
                ("dl_tensor", DLTensor)]


# ---- capsule functions -------------------------------------------------------------------
def _capi(name, restype, argtypes):
    # pythonapi["..."] makes a new function object (attribute access would share
    # one with every other user of ctypes.pythonapi, and with its argtypes).
    f = ctypes.pythonapi[name]
    f.restype = restype
    f.argtypes = argtypes
    return f


_capsule_new = _capi("PyCapsule_New", ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p])
_capsule_is_valid = _capi("PyCapsule_IsValid", ctypes.c_int, [ctypes.py_object, ctypes.c_char_p])
_capsule_get_pointer = _capi("PyCapsule_GetPointer", ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p])
_capsule_set_name = _capi("PyCapsule_SetName", ctypes.c_int, [ctypes.py_object, ctypes.c_char_p])
# The destructor gets the dying capsule as a raw pointer: no new reference may be made to it.
_raw_is_valid = _capi("PyCapsule_IsValid", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p])
_raw_get_pointer = _capi("PyCapsule_GetPointer", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p])


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    """Frees the tensor of an export nobody consumed (a consumer renames the
    capsule and owns the tensor from then on)."""
    for name, struct in ((_DLTENSOR, DLManagedTensor), (_DLTENSOR_VERSIONED, DLManagedTensorVersioned)):
        if _raw_is_valid(capsule, name):
            ptr = _raw_get_pointer(capsule, name)
            deleter = struct.from_address(ptr).deleter
            if deleter:
                deleter(ptr)
            return


_DESTRUCTOR_PTR = ctypes.cast(_capsule_destructor, ctypes.c_void_p)


def _is_capsule(obj):
    return type(obj).__name__ == "PyCapsule"


# ---- export ----------------------------------------------------------------------------------
def _export(arr, versioned=False):
    p = ffi.new("void**")
    if versioned:
        check_call(lib.weft_ndarray_to_dlpack_versioned(arr.handle, p))
        name, struct = _DLTENSOR_VERSIONED, DLManagedTensorVersioned
    else:
        check_call(lib.weft_ndarray_to_dlpack(arr.handle, p))
        name, struct = _DLTENSOR, DLManagedTensor
    ptr = int(ffi.cast("uintptr_t", p[0]))
    try:
        return _capsule_new(ptr, name, _DESTRUCTOR_PTR)
    except BaseException:
        struct.from_address(ptr).deleter(ptr)
        raise


def to_dlpack_for_read(data):
    """A "dltensor" capsule viewing ``data`` (MXNet's name); waits for pending writes."""
    return _export(data)


def to_dlpack_for_write(data):
    """Like ``to_dlpack_for_read``, but also waits for pending reads of ``data``,
    so the consumer may write the memory (MXNet's name)."""
    data.wait_to_write()
    return _export(data)


def ndarray_dlpack_device(arr):
    """``(DLPack device type, id)`` of arr: cpu -> (1, 0), gpu(i) -> (2, i),
    cpu_pinned -> (3, 0); every weft cpu(i) is the one DLPack CPU device."""
    ctx = arr.context
    if ctx.device_typeid == 2:
        return (_KDLCUDA, ctx.device_id)
    if ctx.device_typeid == 3:
        return (_KDLCUDAHOST, 0)
    return (_KDLCPU, 0)


def ndarray_dlpack(arr, stream=None, max_version=None, dl_device=None, copy=None):  # pylint: disable=unused-argument
    """``NDArray.__dlpack__``. ``stream`` needs no handling: the export waits on
    the host for the array's pending writes, which orders it before any stream
    of the consumer. ``copy=True`` exports a fresh copy; ``dl_device`` other
    than the array's own raises BufferError (weft does not copy across devices here).
    ``max_version`` >= (1, 0) gives a "dltensor_versioned" capsule."""
    if dl_device is not None and tuple(dl_device) != ndarray_dlpack_device(arr):
        raise BufferError("__dlpack__: the array is on DLPack device %s, dl_device=%s was asked for"
                          % (ndarray_dlpack_device(arr), tuple(dl_device)))
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _export(arr.copy() if copy else arr, versioned)


# ---- import ----------------------------------------------------------------------------------
def from_dlpack(x):
    """An NDArray sharing the memory of ``x``: an object with ``__dlpack__``
    (NumPy, PyTorch, CuPy arrays, weft NDArrays) or a "dltensor" capsule.
    The producer's memory stays alive as long as the NDArray (or a view of it).
    Only compact row-major tensors are accepted (call ``.contiguous()`` /
    ``numpy.ascontiguousarray`` first); a capsule can be consumed once."""

    if _is_capsule(x):
        capsule = x
    elif hasattr(x, "__dlpack__"):
        # CUDA: stream=1 asks the producer to order its work before the legacy
        # default stream, which the import then waits on (core/ndarray/dlpack.cc).
        # Other devices: None, the only value allowed on CPU.
        device = x.__dlpack_device__() if hasattr(x, "__dlpack_device__") else None
        capsule = x.__dlpack__(stream=1 if device is not None and device[0] == _KDLCUDA else None)
    else:
        raise ArgumentTypeError("from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got %s"
                                % type(x).__name__)
    if not _capsule_is_valid(capsule, _DLTENSOR):
        if _capsule_is_valid(capsule, _USED_DLTENSOR):
            raise InvalidArgumentError("from_dlpack: this DLPack capsule was already consumed (a capsule can be "
                                       "imported once; call __dlpack__ again for a new one)")
        if _capsule_is_valid(capsule, _DLTENSOR_VERSIONED):
            raise InvalidArgumentError("from_dlpack: 'dltensor_versioned' capsules (DLPack 1.0) are not "
                                       "supported; pass the array itself or a 'dltensor' capsule")
        raise ArgumentTypeError("from_dlpack: expected a capsule named 'dltensor'")
    ptr = _capsule_get_pointer(capsule, _DLTENSOR)
    # Claim the capsule while the GIL is held, so no other thread consumes it
    # during the call; give it back if weft refuses the tensor.
    _capsule_set_name(capsule, _USED_DLTENSOR)
    out = ffi.new("weft_ndarray**")
    rc = lib.weft_ndarray_from_dlpack(ffi.cast("void*", ptr), out)
    if rc:
        _capsule_set_name(capsule, _DLTENSOR)  # still the producer's: its destructor frees it
        raise error_for(rc)
    return _wrap(out[0])


def from_numpy(ndarray, zero_copy=True, array_cls=None):
    """An NDArray backed by the memory of the numpy array ``ndarray`` (MXNet's
    ``mx.nd.from_numpy``). With ``zero_copy`` (the default) nothing is copied: the
    array must be C-contiguous and is made read-only (``flags.writeable = False``),
    as MXNet does, because the NDArray now owns its contents -- do not write it, and
    do not rely on reading it while the NDArray is written (writes are asynchronous:
    ``wait_to_read()`` the NDArray first). ``zero_copy=False``
    copies (``weft.nd.array(ndarray, dtype=ndarray.dtype)``). ``array_cls`` is
    MXNet's hook for its numpy-mode class; only the classic NDArray exists here."""

    if array_cls not in (None, NDArray):
        raise ArgumentTypeError("from_numpy: array_cls must be weft.nd.NDArray (weft has no numpy mode)")
    if not isinstance(ndarray, np.ndarray):
        raise ArgumentTypeError("from_numpy: expected a numpy.ndarray, got %s" % type(ndarray).__name__)
    if not zero_copy:
        return array(ndarray, dtype=ndarray.dtype)
    if not ndarray.flags["C_CONTIGUOUS"]:
        raise InvalidArgumentError("from_numpy: only C-contiguous arrays are supported for zero-copy "
                                   "(use numpy.ascontiguousarray, or zero_copy=False)")
    capsule = ndarray.__dlpack__()  # before the array turns read-only: NumPy refuses to export those
    out = from_dlpack(capsule)
    ndarray.flags.writeable = False
    return out


class NDArrayDLPackMethods:
    """Holder of NDArray's DLPack methods, copied onto the class by weft/ndarray/__init__.py
    (Note [NDArray leaf] in ndarray_class.py)."""

    def to_dlpack_for_read(self):
        """A DLPack capsule viewing this array once its pending writes are done
        (``weft.nd.to_dlpack_for_read(self)``)."""
        return to_dlpack_for_read(self)

    def to_dlpack_for_write(self):
        """A DLPack capsule viewing this array once its pending reads and writes are
        done (``weft.nd.to_dlpack_for_write(self)``)."""
        return to_dlpack_for_write(self)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule viewing this array (no copy; see weft.dlpack)."""
        return ndarray_dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        return ndarray_dlpack_device(self)
