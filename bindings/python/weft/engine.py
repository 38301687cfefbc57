"""Engine settings with MXNet 1.x's names (``mx.engine``): ``set_bulk_size`` and ``bulk``.

MXNet's engine can bundle up to ``size`` consecutive operators into one engine
operation to save scheduling overhead; the results are the same either way.
Weft's engine pushes every operator on its own (the executor's fusion pass
already makes one kernel of elementwise chains), so the bulk size is recorded
and returned as MXNet's API promises, and changes no result and no schedule.
"""
import threading

from .base import InvalidArgumentError

__all__ = ["set_bulk_size", "bulk"]

_state = threading.local()  # MXNet's bulk size is per thread as well


def set_bulk_size(size):
    """Sets this thread's bulk size (operators per bundle) and returns the previous one (0 at first)."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise InvalidArgumentError("set_bulk_size: size must be an int >= 0, got %r" % (size,))
    prev = getattr(_state, "size", 0)
    _state.size = size
    return prev


class _BulkScope:
    """``with mx.engine.bulk(size):`` sets the bulk size for the block, then restores it."""

    def __init__(self, size):
        self._size = size
        self._old_size = None

    def __enter__(self):
        self._old_size = set_bulk_size(self._size)
        return self

    def __exit__(self, ptype, value, trace):
        set_bulk_size(self._old_size)


def bulk(size):
    """A context manager setting the bulk size inside its block (see the module doc)."""
    return _BulkScope(size)
