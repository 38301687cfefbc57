"""The profiler with MXNet 1.9.1's API (``mx.profiler``).

The engine records every operation it runs (name, device, thread, start, end,
bytes allocated) while the profiler runs; ``dump`` writes a Chrome trace
(``chrome://tracing``, Perfetto) and ``dumps`` MXNet's aggregate table::

    mx.profiler.set_config(profile_all=True, aggregate_stats=True, filename='trace.json')
    mx.profiler.set_state('run')
    ...                       # the work to profile
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    print(mx.profiler.dumps())
    mx.profiler.dump()

Differences from MXNet, all on purpose: the memory rows' average is the mean
of the samples (MXNet prints half the range); ``dumps(format='json')`` is valid
JSON; each ``dump`` rewrites the whole file (events since the last
``dump(finished=True)``), so the file is complete JSON at every moment;
``profile_process='server'`` is refused (Weft's parameter servers are not
profiled). ``scope`` is MXNet 2.x's addition, kept for scripts that use it.
"""
import contextlib
import threading
import warnings

from . import base
from .base import InvalidArgumentError

__all__ = ["set_config", "set_state", "pause", "resume", "dump", "dumps", "dump_profile",
           "profiler_set_config", "profiler_set_state", "set_kvstore_handle", "scope",
           "Domain", "Task", "Frame", "Event", "Counter", "Marker"]

_PROCESSES = ("worker", "server")


def _check_process(fn, profile_process):
    if profile_process not in _PROCESSES:
        raise InvalidArgumentError("profiler.%s: profile_process must be 'worker' or 'server', got %r"
                                   % (fn, profile_process))
    if profile_process == "server":
        raise InvalidArgumentError("profiler.%s: profile_process='server' is not supported: Weft "
                                   "profiles the worker (this process) only" % fn)


def _str(v):
    return str(v).encode()


def set_kvstore_handle(handle):  # pylint: disable=unused-argument
    """MXNet routes server profiling through a kvstore; Weft profiles this process only."""


def set_config(**kwargs):
    """Configures the profiler (keyword arguments only, MXNet 1.9.1's names).

    filename ('profile.json'), profile_all (False), profile_symbolic (True),
    profile_imperative (True), profile_memory (True), profile_api (True),
    continuous_dump (True), dump_period (1.0 seconds), aggregate_stats (False),
    profile_process ('worker'). An unknown key or a bad value raises naming it.
    """
    keys = [base.ffi.new("char[]", _str(k)) for k in kwargs]
    vals = [base.ffi.new("char[]", _str(v)) for v in kwargs.values()]
    ckeys = base.ffi.new("const char*[]", keys) if keys else base.NULL
    cvals = base.ffi.new("const char*[]", vals) if vals else base.NULL
    base.check_call(base.lib.weft_profiler_set_config(len(keys), ckeys, cvals))


def profiler_set_config(mode="symbolic", filename="profile.json"):
    """Deprecated MXNet form: mode 'symbolic' or 'all'."""
    warnings.warn("profiler.profiler_set_config() is deprecated. Please use profiler.set_config() instead")
    set_config(**{"profile_" + mode: True, "filename": filename})


def set_state(state="stop", profile_process="worker"):
    """Starts ('run') or stops ('stop') recording."""
    states = {"stop": 0, "run": 1}
    if state not in states:
        raise InvalidArgumentError("profiler.set_state: state must be 'run' or 'stop', got %r" % (state,))
    _check_process("set_state", profile_process)
    base.check_call(base.lib.weft_profiler_set_state(states[state]))


def profiler_set_state(state="stop"):
    """Deprecated MXNet form of set_state."""
    warnings.warn("profiler.profiler_set_state() is deprecated. Please use profiler.set_state() instead")
    set_state(state)


def dump(finished=True, profile_process="worker"):
    """Writes the Chrome trace of what ran since the last finished dump to the
    configured file; ``finished=True`` starts the next trace afresh. Ops still
    queued are not in it: call ``nd.waitall()`` first."""
    _check_process("dump", profile_process)
    base.check_call(base.lib.weft_profiler_dump(1 if finished is True else 0))


def dump_profile():
    """Deprecated MXNet form of dump()."""
    warnings.warn("profiler.dump_profile() is deprecated. Please use profiler.dump() instead")
    dump(True)


def dumps(reset=False, format="table", sort_by="total", ascending=False):  # pylint: disable=redefined-builtin
    """MXNet's aggregate statistics (recorded while ``aggregate_stats=True``):
    per category (operator, MXNET_C_API, Device Storage, each Domain) and name,
    the count and total/min/max/avg time in ms (memory: use in kB).

    format: 'table' or 'json'; sort_by: 'total', 'avg', 'min', 'max' or
    'count' (largest first unless ascending); reset: start counting afresh."""
    formats = {"table": 0, "json": 1}
    sorts = {"total": 0, "avg": 1, "min": 2, "max": 3, "count": 4}
    if format not in formats:
        raise InvalidArgumentError("profiler.dumps: format must be 'table' or 'json', got %r" % (format,))
    if sort_by not in sorts:
        raise InvalidArgumentError("profiler.dumps: sort_by must be 'total', 'avg', 'min', 'max' or "
                                   "'count', got %r" % (sort_by,))
    if ascending not in (False, True):
        raise InvalidArgumentError("profiler.dumps: ascending must be True or False, got %r" % (ascending,))
    out = base.ffi.new("const char**")
    base.check_call(base.lib.weft_profiler_dumps(1 if reset else 0, formats[format], sorts[sort_by],
                                                 1 if ascending else 0, out))
    return base.ffi.string(out[0]).decode()


def pause(profile_process="worker"):
    """Stops recording until resume(); ops pushed meanwhile are left out."""
    _check_process("pause", profile_process)
    base.check_call(base.lib.weft_profiler_pause(1))


def resume(profile_process="worker"):
    """Resumes recording after pause()."""
    _check_process("resume", profile_process)
    base.check_call(base.lib.weft_profiler_pause(0))


_scope = threading.local()


@contextlib.contextmanager
def scope(name="<unk>:", append_mode=False):
    """Ops pushed by this thread inside the block are named ``name + op``
    (MXNet 2.x's profiler scope; ``append_mode`` nests it in the current one)."""
    name = name if name.endswith(":") else name + ":"
    old = getattr(_scope, "name", "<unk>:")
    if append_mode and old != "<unk>:":
        name = old + name
    _scope.name = name
    base.check_call(base.lib.weft_profiler_set_scope(name.encode()))
    try:
        yield name
    finally:
        _scope.name = old
        base.check_call(base.lib.weft_profiler_set_scope(old.encode()))


class _Object:
    """A handle to a core profiling object, freed with this Python object."""
    _KIND = None

    def __init__(self, domain, name):
        self.name = name
        out = base.ffi.new("weft_profile_object**")
        dom = domain.handle if domain is not None else base.NULL
        base.check_call(base.lib.weft_profiler_create_object(self._KIND, dom, str(name).encode(), out))
        self.handle = out[0]

    def __del__(self):
        h, self.handle = getattr(self, "handle", None), None
        if h is not None and base is not None and base.lib is not None:
            base.lib.weft_profiler_free_object(h)

    def __str__(self):
        return self.name


class Domain(_Object):
    """Groups tasks, frames, counters and markers: their category in the trace
    and the aggregate table."""
    _KIND = 0

    def __init__(self, name):
        super().__init__(None, name)

    def new_task(self, name):
        return Task(self, name)

    def new_frame(self, name):
        return Frame(self, name)

    def new_counter(self, name, value=None):
        return Counter(self, name, value)

    def new_marker(self, name):
        return Marker(self, name)


class _Duration(_Object):
    def start(self):
        """Starts timing."""
        base.check_call(base.lib.weft_profiler_duration_start(self.handle))

    def stop(self):
        """Stops timing: one complete event on the calling thread."""
        base.check_call(base.lib.weft_profiler_duration_stop(self.handle))


class Task(_Duration):
    """A unit of work of one thread, timed between start() and stop()."""
    _KIND = 1


class Frame(_Duration):
    """A frame (e.g. one training step), timed between start() and stop()."""
    _KIND = 2


class Event(_Duration):
    """A named span without a domain (category 'event')."""
    _KIND = 3

    def __init__(self, name):
        super().__init__(None, name)


class Counter(_Object):
    """A value tracked over time (a ph 'C' series in the trace)."""
    _KIND = 4

    def __init__(self, domain, name, value=None):
        super().__init__(domain, name)
        if value is not None:
            self.set_value(value)

    def set_value(self, value):
        base.check_call(base.lib.weft_profiler_set_counter(self.handle, int(value)))

    def increment(self, delta=1):
        base.check_call(base.lib.weft_profiler_adjust_counter(self.handle, int(delta)))

    def decrement(self, delta=1):
        base.check_call(base.lib.weft_profiler_adjust_counter(self.handle, -int(delta)))

    def __iadd__(self, delta):
        self.increment(delta)
        return self

    def __isub__(self, delta):
        self.decrement(delta)
        return self


class Marker:
    """An instant in time (a ph 'i' event)."""

    def __init__(self, domain, name):
        self.name = name
        self.domain = domain

    def mark(self, scope="process"):  # pylint: disable=redefined-outer-name
        """scope: 'global', 'process', 'thread', 'task' or 'marker'."""
        base.check_call(base.lib.weft_profiler_set_marker(self.domain.handle, str(self.name).encode(),
                                                          str(scope).encode()))
