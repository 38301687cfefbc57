"""Automatic naming of symbol nodes (MXNet's ``mxnet.name``).

An operator created without ``name=`` is named ``<hint><n>``: the hint is the
lower-cased name of the function that created it (``FullyConnected`` ->
``fullyconnected0``, ``a + b`` -> ``_plus0``, ``a * 2`` -> ``_mulscalar0``) and
``n`` counts per hint in the current manager. Managers nest as with-blocks;
each thread starts with its own default manager.

    >>> with weft.name.Prefix('net_'):
    ...     fc = weft.sym.FullyConnected(data, num_hidden=10)   # 'net_fullyconnected0'
"""
import threading

__all__ = ["NameManager", "Prefix", "current"]


class NameManager:
    """Gives names to new symbols; use as a with-block to scope the counters."""

    _current = threading.local()

    def __init__(self):
        self._counter = {}
        self._old_manager = None

    def get(self, name, hint):
        """``name`` when given, else the next ``<hint><n>``."""
        if name:
            return name
        n = self._counter.get(hint, 0)
        self._counter[hint] = n + 1
        return "%s%d" % (hint, n)

    def __enter__(self):
        self._old_manager = current()
        NameManager._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        assert self._old_manager is not None
        NameManager._current.value = self._old_manager
        self._old_manager = None


class Prefix(NameManager):
    """Puts ``prefix`` in front of every name created in its block (given names too,
    as in MXNet)."""

    def __init__(self, prefix):
        super().__init__()
        self._prefix = prefix

    def get(self, name, hint):
        return self._prefix + super().get(name, hint)


def current():
    """The name manager in effect on this thread."""
    try:
        return NameManager._current.value
    except AttributeError:
        mgr = NameManager._current.value = NameManager()
        return mgr
