"""Operators that are also methods of NDArray and Symbol (MXNet's fluent
methods: ``x.sum(axis=1)`` is ``weft.nd.sum(x, axis=1)``).

Which operators are methods is a property of the operator, declared with it
(``OpDef::add_method`` in the C++ registry, "methods" in its schema), so one
list serves both front ends: ``x.cast(...)`` works on an NDArray exactly when it
works on a Symbol.
"""

import json

from .base import op_names, op_schema

_METHODS = None


def registry_methods():
    """The method names the registry declares (each op's schema lists under
    "methods" the names, its own or aliases, that are also methods), sorted."""
    global _METHODS  # pylint: disable=global-statement
    if _METHODS is None:
        names = set()
        for op in op_names():
            names.update(json.loads(op_schema(op)).get("methods", ()))
        _METHODS = sorted(names)
    return _METHODS


def method_ops(funcs):
    """The names in funcs ({name: generated operator function}, aliases
    included) that become methods, in a fixed order."""
    return [name for name in registry_methods() if name in funcs]


def _make_method(fn, mname, class_name, namespace):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = mname
    method.__qualname__ = class_name + "." + mname
    method.__doc__ = "Same as %s.%s(self, ...).\n\n%s" % (namespace, mname, fn.__doc__ or "")
    return method


def install_methods(cls, funcs, namespace):
    """Adds method_ops(funcs) to cls as methods calling funcs[name](self, ...);
    a method cls defines itself (e.g. NDArray.reshape, a view) is kept.
    namespace names the functions in the docstrings ('weft.nd')."""
    for name in method_ops(funcs):
        if name not in cls.__dict__:
            setattr(cls, name, _make_method(funcs[name], name, cls.__name__, namespace))
