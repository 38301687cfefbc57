"""Devices and synchronisation under their ``npx`` names: cpu, cpu_pinned, gpu,
current_context, num_gpus, gpu_memory_info, get_cuda_compute_capability, waitall."""
import ctypes

from ..context import Context, cpu, cpu_pinned, current_context, gpu, gpu_memory_info, num_gpus
from ..ndarray import waitall

__all__ = ["cpu", "cpu_pinned", "gpu", "current_context", "num_gpus", "gpu_memory_info",
           "get_cuda_compute_capability", "waitall"]

_CUDA_NAMES = ("libcuda.so", "libcuda.so.1", "libcuda.dylib", "cuda.dll")


def get_cuda_compute_capability(ctx):
    """The compute capability of ctx's GPU as an int, e.g. 80 for 8.0
    (``npx.get_cuda_compute_capability``; MXNet's mx.util version).

    As MXNet, it asks the CUDA driver (libcuda) directly: ValueError for a
    non-GPU ctx, OSError when no driver is installed, RuntimeError naming the
    driver call that failed."""
    if not isinstance(ctx, Context):
        raise TypeError("get_cuda_compute_capability: ctx must be a weft.Context, got %s" % type(ctx).__name__)
    if ctx.device_type != "gpu":
        raise ValueError("get_cuda_compute_capability: expecting a gpu context to get cuda compute capability, "
                         "while received ctx %s" % ctx)
    cuda = None
    for libname in _CUDA_NAMES:
        try:
            cuda = ctypes.CDLL(libname)
            break
        except OSError:
            continue
    if cuda is None:
        raise OSError("get_cuda_compute_capability: could not find any of " + " ".join(_CUDA_NAMES))
    cc_major, cc_minor, device = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()

    def call(what, ret):
        if ret != 0:
            msg = ctypes.c_char_p()
            cuda.cuGetErrorString(ret, ctypes.byref(msg))
            raise RuntimeError("get_cuda_compute_capability: %s failed with error code %d: %s"
                               % (what, ret, (msg.value or b"").decode()))

    call("cuInit", cuda.cuInit(0))
    call("cuDeviceGet", cuda.cuDeviceGet(ctypes.byref(device), ctx.device_id))
    call("cuDeviceComputeCapability",
         cuda.cuDeviceComputeCapability(ctypes.byref(cc_major), ctypes.byref(cc_minor), device))
    return cc_major.value * 10 + cc_minor.value
