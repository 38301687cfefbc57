"""Devices: ``Context`` (device type + id), like MXNet's mx.Context.

``with weft.cpu(1):`` makes cpu(1) the default context of the block (per thread).
"""
import threading

from . import base
from .base import InvalidArgumentError

__all__ = ["Context", "cpu", "gpu", "cpu_pinned", "current_context"]


class Context:
    """A device: type ('cpu', 'gpu', 'cpu_pinned', 'cpu_shared') and index.

    ``Context('cpu', 1)``, ``Context('gpu')``, ``Context('cpu(1)')``,
    ``Context(other_context)``."""

    __slots__ = ("device_typeid", "device_id")

    devtype2str = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    devstr2type = {"cpu": 1, "gpu": 2, "cpu_pinned": 3, "cpu_shared": 5}
    _default = threading.local()

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            self.device_typeid = device_type.device_typeid
            self.device_id = device_type.device_id
            return
        if isinstance(device_type, str):
            text = device_type.strip()
            if text.endswith(")") and "(" in text:
                text, _, idx = text[:-1].partition("(")
                device_id = idx
            elif ":" in text:
                text, _, device_id = text.partition(":")
            if text not in self.devstr2type:
                raise InvalidArgumentError(
                    "unknown device type %r (expected one of %s)" % (device_type, ", ".join(self.devstr2type)))
            typeid = self.devstr2type[text]
        elif isinstance(device_type, int) and device_type in self.devtype2str:
            typeid = device_type
        else:
            raise InvalidArgumentError("unknown device type %r" % (device_type,))
        try:
            dev_id = int(device_id)
        except (TypeError, ValueError):
            raise InvalidArgumentError("bad device id %r" % (device_id,)) from None
        if dev_id < 0:
            raise InvalidArgumentError("bad device id %d (must be >= 0)" % dev_id)
        self.device_typeid = typeid
        self.device_id = dev_id

    @property
    def device_type(self):
        return self.devtype2str[self.device_typeid]

    def __eq__(self, other):
        return (isinstance(other, Context) and self.device_typeid == other.device_typeid
                and self.device_id == other.device_id)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self.device_typeid, self.device_id))

    def __repr__(self):
        return "%s(%d)" % (self.devtype2str[self.device_typeid], self.device_id)

    __str__ = __repr__

    def __enter__(self):
        stack = _stack()
        stack.append(self)
        return self

    def __exit__(self, ptype, value, trace):
        stack = _stack()
        if stack:
            stack.pop()

    @classmethod
    def default_ctx(cls):
        return current_context()


_CPU0 = Context("cpu", 0)


def _stack():
    d = Context._default  # pylint: disable=protected-access
    try:
        return d.stack
    except AttributeError:
        d.stack = []
        return d.stack


def current_context():
    """The default context of this thread: the innermost ``with ctx:`` block, else cpu(0)."""
    stack = _stack()
    return stack[-1] if stack else _CPU0


def cpu(device_id=0):
    """The CPU context. cpu(0) and cpu(1) are distinct devices (each with its
    own engine lane), so multi-device code is testable without GPUs."""
    return Context("cpu", device_id)


def gpu(device_id=0):
    """A GPU context (ops on it fail with a weft error when there is no such GPU)."""
    return Context("gpu", device_id)


def num_gpus():
    """Number of usable GPUs (MXNet's ``mx.context.num_gpus``): CUDA devices in a
    CUDA build; in other builds the count WEFT_GPU_EMULATE asks for (the GPU
    code path emulated on the host, for tests), else 0."""
    n = base.ffi.new("int*")
    base.check_call(base.lib.weft_gpu_device_count(n, base.NULL))
    return int(n[0])


def gpu_memory_info(device_id=0):
    """(free, total) bytes of gpu(device_id)'s memory, as MXNet's
    ``mx.context.gpu_memory_info``. Raises naming the device when there is no
    such GPU (a build without CUDA has none unless WEFT_GPU_EMULATE is set; the
    emulated devices report the host's memory, which they allocate from)."""
    if isinstance(device_id, bool) or not isinstance(device_id, int):
        raise base.InvalidArgumentError("gpu_memory_info: device_id must be an int, got %r" % (device_id,))
    free, total = base.ffi.new("uint64_t*"), base.ffi.new("uint64_t*")
    base.check_call(base.lib.weft_gpu_memory_info(device_id, free, total))
    return (int(free[0]), int(total[0]))


def gpu_backend():
    """"cuda", or "emulated" (a build without CUDA; see num_gpus)."""
    n, b = base.ffi.new("int*"), base.ffi.new("const char**")
    base.check_call(base.lib.weft_gpu_device_count(n, b))
    return base.ffi.string(b[0]).decode()


def cpu_pinned(device_id=0):
    return Context("cpu_pinned", device_id)


def _from_flags(dev_type, dev_id):
    if dev_type == 1 and dev_id == 0:
        return _CPU0
    c = Context.__new__(Context)
    c.device_typeid = dev_type
    c.device_id = dev_id
    return c
