"""Name registries for pluggable classes (initializers, metrics ...), as MXNet's
``mx.registry``: ``register`` a class under its lower-cased name, ``alias`` it under
more names, and ``create`` an instance from a name, a ``dumps()`` JSON text, a
config dict or an instance.

Every registry is keyed by its base class; names are case-insensitive.
"""
import json
import warnings

from .base import InvalidArgumentError

__all__ = ["get_register_func", "get_alias_func", "get_create_func", "get_registry"]

_REGISTRIES = {}  # base class -> {lower-case name: class}


def get_registry(base_class):
    """A copy of the name -> class table of base_class."""
    return dict(_REGISTRIES.get(base_class, {}))


def get_register_func(base_class, nickname):
    """A decorator registering subclasses of base_class under their lower-cased names."""
    registry = _REGISTRIES.setdefault(base_class, {})

    def register(klass, name=None):
        if not (isinstance(klass, type) and issubclass(klass, base_class)):
            raise InvalidArgumentError("can only register subclasses of %s, got %r"
                                       % (base_class.__name__, klass))
        key = (klass.__name__ if name is None else name).lower()
        if key in registry and registry[key] is not klass:
            old = registry[key]
            warnings.warn("new %s %s.%s overrides the registered %s.%s"
                          % (nickname, klass.__module__, klass.__name__, old.__module__, old.__name__),
                          UserWarning, stacklevel=2)
        registry[key] = klass
        return klass

    register.__doc__ = "Registers a %s class under its lower-cased name." % nickname
    return register


def get_alias_func(base_class, nickname):
    """A decorator factory: ``@alias('a', 'b')`` registers the class under more names."""
    register = get_register_func(base_class, nickname)

    def alias(*aliases):
        def reg(klass):
            for name in aliases:
                register(klass, name)
            return klass
        return reg

    alias.__doc__ = "Registers a %s class under extra names." % nickname
    return alias


def get_create_func(base_class, nickname):
    """A factory ``create(name_or_instance, *args, **kwargs)`` for base_class.

    Accepts an instance (returned as is), a registered name (case-insensitive), a
    ``'["name", {kwargs}]'`` JSON text (what ``dumps()`` writes), a
    ``'{"<nickname>": name, ...}'`` JSON text or the same dict."""
    registry = _REGISTRIES.setdefault(base_class, {})

    def create(*args, **kwargs):
        if args:
            name, args = args[0], args[1:]
        elif nickname in kwargs:
            name = kwargs.pop(nickname)
        else:
            raise InvalidArgumentError("create: the %s to create is missing" % nickname)
        if isinstance(name, base_class):
            if args or kwargs:
                raise InvalidArgumentError("%s is already an instance; extra arguments are not allowed"
                                           % nickname)
            return name
        if isinstance(name, dict):
            return create(**dict(name, **kwargs))
        if not isinstance(name, str):
            raise InvalidArgumentError("%s must be a name (str) or a %s instance, got %s"
                                       % (nickname, base_class.__name__, type(name).__name__))
        text = name.strip()
        if text.startswith("["):
            if args or kwargs:
                raise InvalidArgumentError("no extra arguments allowed with a JSON %s" % nickname)
            name, kw = json.loads(text)
            return create(name, **kw)
        if text.startswith("{"):
            if args or kwargs:
                raise InvalidArgumentError("no extra arguments allowed with a JSON %s" % nickname)
            return create(**json.loads(text))
        key = text.lower()
        if key not in registry:
            raise InvalidArgumentError("unknown %s %r; registered: %s"
                                       % (nickname, name, ", ".join(sorted(registry))))
        return registry[key](*args, **kwargs)

    create.__doc__ = "Creates a %s from a name, a JSON text, a dict or an instance." % nickname
    return create
