"""Attribute scopes for symbols (MXNet's ``mxnet.attribute``).

Every symbol created inside ``with weft.AttrScope(ctx_group='dev1'):`` carries
the scope's attributes. Values must be strings. Names are stored as MXNet does:
the hidden keys ``ctx_group``, ``lr_mult``, ``wd_mult``, ``force_mirroring`` and
``mirror_stage`` become ``__ctx_group__`` ... when a symbol is created
(FORMATS.md B.5); other ``__dunder__`` keys are kept as they are. Scopes nest:
an inner scope adds to (and overrides) the outer one's attributes.
"""
import threading

__all__ = ["AttrScope", "current"]


class AttrScope:
    """Attaches attributes to the symbols created in its with-block."""

    _current = threading.local()

    def __init__(self, **kwargs):
        self._old_scope = None
        for key, value in kwargs.items():
            if not isinstance(value, str):
                raise ValueError("AttrScope: attribute '%s' must be a string, got %s"
                                 % (key, type(value).__name__))
        self._attr = kwargs

    def get(self, attr):
        """The scope's attributes updated with ``attr`` (a dict or None); a new dict."""
        if self._attr:
            ret = self._attr.copy()
            if attr:
                ret.update(attr)
            return ret
        return dict(attr) if attr else {}

    def __enter__(self):
        self._old_scope = current()
        attr = self._old_scope._attr.copy()
        attr.update(self._attr)
        self._attr = attr
        AttrScope._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        assert self._old_scope is not None
        AttrScope._current.value = self._old_scope
        self._old_scope = None


def current():
    """The attribute scope in effect on this thread (an empty one by default)."""
    try:
        return AttrScope._current.value
    except AttributeError:
        scope = AttrScope._current.value = AttrScope()
        return scope
