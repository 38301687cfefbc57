"""The operator namespaces of weft.nd and weft.sym (MXNet's ``_init_op_module``).

An operator registered as ``_contrib_<x>``, ``_linalg_<x>`` or ``_image_<x>``
(canonical name or alias) is also ``<x>`` of the namespace module
(``weft.nd.contrib.box_nms``, ``weft.nd.linalg.gemm``, ``weft.nd.image.to_tensor``
and their ``weft.sym`` twins); ``_random_<x>_like`` is ``random.<x>_like``. The
other ``_random_<x>`` operators stay in ``_internal``: the random modules' own
samplers (``random.uniform`` ...) call them, as in MXNet.

The namespace function is the generated one renamed (``renamed``: same code,
its own globals), so its ``__name__`` and -- for Symbols -- the default node
name (``box_nms0``, not ``_contrib_box_nms0``) are MXNet's, at no cost at
import. A function the module defines itself (a Python helper such as a
control-flow operator) is kept.
"""
import types

PREFIXES = ("_contrib_", "_linalg_", "_image_", "_random_")


def split_name(name):
    """(prefix, short name) when MXNet files operator `name` under a namespace
    module, else None."""
    for prefix in PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            if prefix == "_random_" and not name.endswith("_like"):
                return None
            return prefix, name[len(prefix):]
    return None


def renamed(fn, name, **global_values):
    """A copy of the generated function fn named `name`, its globals updated with
    global_values (e.g. the Symbol generator's ``_HINT``, the default node name)."""
    g = dict(fn.__globals__)
    g.update(global_values)
    new = types.FunctionType(fn.__code__, g, name, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = dict(fn.__kwdefaults__) if fn.__kwdefaults__ else None
    new.__dict__.update(fn.__dict__)
    new.__doc__ = fn.__doc__
    new.__qualname__ = name
    return new


def fill(modules, funcs, make):
    """Adds the namespace functions to modules ({prefix: module}).

    funcs: {name: generated function} (canonical names and aliases);
    make(fn, short): the function of fn's operator under the name `short`.
    Returns {prefix: sorted names added}."""
    own = {prefix: set(vars(mod)) for prefix, mod in modules.items()}
    added = {prefix: [] for prefix in modules}
    for name in sorted(funcs):
        hit = split_name(name)
        if hit is None:
            continue
        prefix, short = hit
        if short in own[prefix] or short in added[prefix]:
            continue
        fn = make(funcs[name], short)
        fn.__module__ = modules[prefix].__name__  # weft.ndarray.linalg.gemm, as MXNet sets it
        setattr(modules[prefix], short, fn)
        added[prefix].append(short)
    for prefix, mod in modules.items():
        names = list(getattr(mod, "__all__", []))
        mod.__all__ = names + [n for n in added[prefix] if n not in names]
    return added
