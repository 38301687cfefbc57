"""DLPack exchange (weft.nd.from_dlpack, NDArray.__dlpack__): memory is shared,
not copied, with NumPy and PyTorch; lifetimes, errors and the capsule protocol."""
import ctypes
import gc
import time

import numpy as np
import pytest

import weft
from weft import dlpack as wdl

NP_DTYPES = ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool"]


def _values(dtype, shape=(3, 4)):
    n = int(np.prod(shape))
    if dtype == "bool":
        return (np.arange(n) % 3 == 0).reshape(shape)
    return (np.arange(n) % 100 - (0 if dtype == "uint8" else 7)).astype(dtype).reshape(shape)


def _ptr(a):
    return a.__array_interface__["data"][0]


def _has_cuda():
    try:
        weft.nd.zeros((1,), ctx=weft.gpu(0)).wait_to_read()
        return True
    except weft.WeftError:
        return False


# ---- NumPy -------------------------------------------------------------------------------
def test_numpy_view_of_weft_array_shares_memory():
    a = weft.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    n = np.from_dlpack(a)
    assert n.flags.writeable  # versioned export: NumPy makes unversioned imports read-only
    weft.nd.waitall()
    n[1, 2] = 42.0
    assert a.asnumpy()[1, 2] == 42.0
    # a second export points at the same memory
    assert _ptr(np.from_dlpack(a)) == _ptr(n)


def test_weft_view_of_numpy_array_shares_memory():
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    w = weft.nd.from_dlpack(x)
    assert w.shape == (2, 4) and w.dtype == np.float32 and w.context == weft.cpu(0)
    x[0, 1] = -5.0
    assert w.asnumpy()[0, 1] == -5.0
    w += 1  # weft writes land in numpy's memory
    weft.nd.waitall()
    np.testing.assert_array_equal(x.reshape(-1)[2:], np.arange(2, 8, dtype=np.float32) + 1)
    # back out again: still numpy's buffer
    assert _ptr(np.from_dlpack(w)) == _ptr(x)


@pytest.mark.parametrize("dtype", NP_DTYPES)
def test_numpy_round_trips(dtype):
    ref = _values(dtype)
    w = weft.nd.from_dlpack(ref.copy())
    assert w.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(w.asnumpy(), ref)
    a = weft.nd.array(ref, dtype=dtype)
    back = np.from_dlpack(a)
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, ref)
    # weft -> weft goes through the same protocol, and gives a view of the same chunk
    b = weft.nd.from_dlpack(a)
    assert b.shares_memory(a)
    np.testing.assert_array_equal(b.asnumpy(), ref)


def _dl_type(capsule, name=b"dltensor"):
    get = ctypes.pythonapi["PyCapsule_GetPointer"]
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    t = wdl.DLManagedTensor.from_address(get(capsule, name)).dl_tensor
    return (t.dtype.code, t.dtype.bits, t.dtype.lanes), (t.device.device_type, t.device.device_id)


@pytest.mark.parametrize("dtype,code,bits", [("float32", 2, 32), ("float64", 2, 64), ("float16", 2, 16),
                                             ("bfloat16", 4, 16), ("int8", 0, 8), ("int32", 0, 32),
                                             ("int64", 0, 64), ("uint8", 1, 8), ("bool", 6, 8)])
def test_exported_dtype_codes_and_weft_round_trip(dtype, code, bits):
    a = weft.nd.array(_values("float32"), dtype=dtype)
    cap = weft.nd.to_dlpack_for_read(a)
    assert _dl_type(cap) == ((code, bits, 1), (1, 0))
    b = weft.nd.from_dlpack(cap)
    assert b.dtype == a.dtype and b.shape == a.shape
    np.testing.assert_array_equal(b.astype("float32").asnumpy(), a.astype("float32").asnumpy())


def test_views_zero_size_and_pinned():
    a = weft.nd.array(np.arange(12, dtype=np.int32).reshape(4, 3))
    np.testing.assert_array_equal(np.from_dlpack(a[1:3]), np.arange(3, 9).reshape(2, 3))
    e = weft.nd.from_dlpack(np.zeros((0, 5), dtype=np.float32))
    assert e.shape == (0, 5) and e.asnumpy().shape == (0, 5)
    assert np.from_dlpack(weft.nd.zeros((2, 0))).shape == (2, 0)
    p = weft.nd.ones((2, 2), ctx=weft.cpu_pinned(0))
    assert p.__dlpack_device__() == (3, 0)
    assert weft.nd.zeros((1,), ctx=weft.cpu(1)).__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(p), np.ones((2, 2)))
    assert weft.nd.from_dlpack(p).context == weft.cpu_pinned(0)


def test_dunder_options():
    a = weft.nd.ones((3,))
    with pytest.raises(BufferError, match="dl_device"):
        a.__dlpack__(dl_device=(2, 0))
    c = weft.nd.from_dlpack(a.__dlpack__(copy=True))
    c += 1
    weft.nd.waitall()
    np.testing.assert_array_equal(a.asnumpy(), np.ones(3))
    assert type(a.__dlpack__(max_version=(1, 0))).__name__ == "PyCapsule"


# ---- lifetimes and ordering ---------------------------------------------------------------------
def test_source_deleted_weft_array_still_valid():
    x = np.arange(1000, dtype=np.float64)
    w = weft.nd.from_dlpack(x)
    del x
    gc.collect()
    np.testing.assert_array_equal((w * 2).asnumpy(), np.arange(1000) * 2.0)


def test_weft_array_deleted_numpy_view_still_valid():
    a = weft.nd.arange(0, 1000)
    n = np.from_dlpack(a)
    del a
    gc.collect()
    weft.nd.waitall()
    weft.nd.zeros((1000,)).wait_to_read()  # pool reuse must not hand out n's memory
    np.testing.assert_array_equal(n, np.arange(1000, dtype=np.float32))


def test_pending_write_completes_before_export():
    a = weft.nd.ones((512, 512))
    for _ in range(20):
        a = weft.nd.dot(a, weft.nd.ones((512, 512))) / 512.0
    b = a + 1  # pushed, most likely not run yet
    n = np.from_dlpack(b)
    np.testing.assert_allclose(n, np.full((512, 512), 2.0), rtol=1e-5)


def test_capsule_consumed_once():
    cap = np.arange(3, dtype=np.float32).__dlpack__()
    w = weft.nd.from_dlpack(cap)
    with pytest.raises(weft.InvalidArgumentError, match="already consumed"):
        weft.nd.from_dlpack(cap)
    np.testing.assert_array_equal(w.asnumpy(), [0, 1, 2])
    with pytest.raises(TypeError, match="__dlpack__"):
        weft.nd.from_dlpack([1, 2, 3])


# ---- refusals, and ownership on failure, with hand-made tensors ---------------------------------
class _Foreign:
    """A DLManagedTensor built with ctypes; with count_deletes its deleter counts
    its calls. That deleter is a ctypes callback, which must not run during
    interpreter shutdown (from an engine thread it cannot take the GIL then;
    NumPy's deleter checks Py_IsInitialized for this): tests that use it free
    their arrays before they end."""

    def __init__(self, device_type=1, device_id=0, code=2, bits=32, shape=(2, 3), strides=None,
                 byte_offset=0, count_deletes=False):
        n = int(np.prod(shape))
        self.buf = np.arange(n + 8, dtype=np.float64 if bits == 64 else np.float32)  # room for offsets
        self.shape = (ctypes.c_int64 * len(shape))(*shape)
        self.strides = (ctypes.c_int64 * len(shape))(*strides) if strides else None
        self.deleted = 0

        @wdl.DLDeleter
        def deleter(_ptr):
            self.deleted += 1

        self._deleter = deleter
        m = self.managed = wdl.DLManagedTensor()
        m.dl_tensor.data = _ptr(self.buf)
        m.dl_tensor.device = wdl.DLDevice(device_type, device_id)
        m.dl_tensor.ndim = len(shape)
        m.dl_tensor.dtype = wdl.DLDataType(code, bits, 1)
        m.dl_tensor.shape = ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64))
        if self.strides is not None:
            m.dl_tensor.strides = ctypes.cast(self.strides, ctypes.POINTER(ctypes.c_int64))
        m.dl_tensor.byte_offset = byte_offset
        if count_deletes:
            m.deleter = deleter

    def capsule(self):
        new = ctypes.pythonapi["PyCapsule_New"]
        new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self.managed), b"dltensor", None)


def _capsule_name_is(cap, name):
    valid = ctypes.pythonapi["PyCapsule_IsValid"]
    valid.restype, valid.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
    return valid(cap, name) == 1


def test_import_takes_ownership_and_deletes_once():
    f = _Foreign(device_type=3, code=2, bits=64, byte_offset=16, count_deletes=True)  # kDLCUDAHost
    cap = f.capsule()
    w = v = None
    try:
        w = weft.nd.from_dlpack(cap)
        assert _capsule_name_is(cap, b"used_dltensor")
        assert w.context == weft.cpu_pinned(0)
        np.testing.assert_array_equal(w.asnumpy(), np.arange(2, 8, dtype=np.float64).reshape(2, 3))
        v = w[1]  # a view keeps the tensor too
        w = None
        gc.collect()
        weft.nd.waitall()
        assert f.deleted == 0
        np.testing.assert_array_equal(v.asnumpy(), [5.0, 6.0, 7.0])
    finally:
        w = v = None
        gc.collect()
    deadline = time.time() + 10
    while f.deleted == 0 and time.time() < deadline:  # the engine runs the deleter after pending ops
        weft.nd.waitall()
        time.sleep(0.01)
    assert f.deleted == 1


@pytest.mark.parametrize("kwargs,err,pattern", [
    (dict(device_type=4), weft.InvalidArgumentError, "unsupported device kDLOpenCL"),
    (dict(device_type=2, device_id=1000), weft.InvalidArgumentError, r"kDLCUDA device 1000: .*gpu\(1000\)"),
    (dict(code=5, bits=64), weft.DTypeError, "unsupported dtype complex64"),
    (dict(code=1, bits=16), weft.DTypeError, "unsupported dtype uint16"),
    (dict(strides=(1, 2)), weft.InvalidArgumentError, r"strides \(1, 2\).*expected \(3, 1\)"),
    (dict(byte_offset=2), weft.InvalidArgumentError, "not aligned"),
])
def test_refused_tensors_stay_with_the_producer(kwargs, err, pattern):
    f = _Foreign(count_deletes=True, **kwargs)
    cap = f.capsule()
    with pytest.raises(err, match=pattern):
        weft.nd.from_dlpack(cap)
    assert _capsule_name_is(cap, b"dltensor")  # not consumed: the producer still frees it
    assert f.deleted == 0


def test_size_one_axes_may_have_any_stride():
    f = _Foreign(shape=(1, 3), strides=(99, 1))
    w = weft.nd.from_dlpack(f.capsule())
    np.testing.assert_array_equal(w.asnumpy(), [[0, 1, 2]])
    ones = np.ones((4, 1), dtype=np.float32).T  # shape (1, 4), numpy strides (4, 4) bytes
    np.testing.assert_array_equal(weft.nd.from_dlpack(ones).asnumpy(), np.ones((1, 4)))


def test_non_contiguous_numpy_refused():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    with pytest.raises(weft.InvalidArgumentError, match="compact row-major"):
        weft.nd.from_dlpack(x)
    with pytest.raises(weft.DTypeError, match="complex64"):
        weft.nd.from_dlpack(np.zeros(3, dtype=np.complex64))


def test_gpu_tensor_without_cuda_is_a_clear_error():
    if _has_cuda():
        pytest.skip("gpu(0) is usable here (CUDA, or WEFT_GPU_EMULATE): a kDLCUDA tensor is accepted")
    f = _Foreign(device_type=2, device_id=0, count_deletes=True)
    cap = f.capsule()
    with pytest.raises(weft.InvalidArgumentError, match="kDLCUDA device 0: .*gpu\\(0\\)"):
        weft.nd.from_dlpack(cap)
    assert _capsule_name_is(cap, b"dltensor") and f.deleted == 0


class _Producer:
    """Records the stream from_dlpack asks for."""

    def __init__(self, foreign, device):
        self.foreign, self.device, self.streams = foreign, device, []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.foreign.capsule()


def test_stream_argument_by_device():
    cpu = _Producer(_Foreign(), (1, 0))
    np.testing.assert_array_equal(weft.nd.from_dlpack(cpu).asnumpy(), np.arange(6).reshape(2, 3))
    assert cpu.streams == [None]  # the only value the protocol allows on CPU
    cuda = _Producer(_Foreign(device_type=2, device_id=1000), (2, 1000))
    with pytest.raises(weft.InvalidArgumentError, match="kDLCUDA device 1000"):
        weft.nd.from_dlpack(cuda)
    assert cuda.streams == [1]  # CUDA: order the producer's work before the legacy default stream


def test_weft_round_trip_keeps_engine_order():
    # The view shares a's engine var: reading a waits for the write through w.
    a = weft.nd.zeros((4,))
    w = weft.nd.from_dlpack(weft.nd.to_dlpack_for_write(a))
    assert w.shares_memory(a)
    w[:] = 3
    np.testing.assert_array_equal(a.asnumpy(), np.full(4, 3.0))


def test_gpu_round_trip_when_a_gpu_is_usable():
    """Runs on a CUDA machine, or anywhere under WEFT_GPU_EMULATE=1."""
    if not _has_cuda():
        pytest.skip("no usable gpu(0) (no CUDA device; WEFT_GPU_EMULATE unset)")
    a = weft.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3), ctx=weft.gpu(0))
    assert a.__dlpack_device__() == (2, 0)
    assert _dl_type(weft.nd.to_dlpack_for_read(a))[1] == (2, 0)
    b = weft.nd.from_dlpack(a)
    assert b.context == weft.gpu(0)
    np.testing.assert_array_equal(b.asnumpy(), np.arange(6).reshape(2, 3))
    b._sync_copyfrom(np.ones((2, 3), dtype=np.float32))  # the same device memory
    np.testing.assert_array_equal(a.asnumpy(), np.ones((2, 3)))


# ---- PyTorch (not installed by scripts/setup.sh) ----------------------------------------------------
TORCH_DTYPES = NP_DTYPES + ["bfloat16"]


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed (scripts/setup.sh does not install it)")


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_both_ways(dtype):
    torch = _torch()
    tdt = getattr(torch, dtype)
    ref = torch.from_numpy(_values("float32")).to(tdt)
    # torch -> weft, shared
    t = ref.clone()
    w = weft.nd.from_dlpack(t)
    assert str(w.dtype) == dtype or (dtype == "bfloat16" and w._dtype_flag == 12)
    torch.testing.assert_close(torch.from_dlpack(w), ref)
    t[0, 0] = 1
    assert w.astype("float32").asnumpy()[0, 0] == 1
    # weft -> torch, shared (torch.utils.dlpack.from_dlpack takes the capsule)
    a = weft.nd.array(_values("float32"), dtype=dtype)
    t2 = torch.utils.dlpack.from_dlpack(weft.nd.to_dlpack_for_read(a))
    assert t2.dtype == tdt
    torch.testing.assert_close(t2.float(), torch.from_numpy(a.astype("float32").asnumpy()))
    weft.nd.waitall()
    t2[2, 3] = 0
    assert a.astype("float32").asnumpy()[2, 3] == 0
    assert torch.from_dlpack(a).data_ptr() == t2.data_ptr()


def test_torch_lifetime_and_transpose_refused():
    torch = _torch()
    t = torch.arange(10, dtype=torch.float32)
    w = weft.nd.from_dlpack(t)
    del t
    gc.collect()
    np.testing.assert_array_equal(w.asnumpy(), np.arange(10, dtype=np.float32))
    with pytest.raises(weft.InvalidArgumentError, match=r"shape \(4, 3\) has strides \(1, 4\)"):
        weft.nd.from_dlpack(torch.zeros(3, 4).t())
    np.testing.assert_array_equal(weft.nd.from_dlpack(torch.zeros(3, 4).t().contiguous()).shape, (4, 3))
