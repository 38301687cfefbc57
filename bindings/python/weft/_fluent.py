"""Operators that are also methods of NDArray and Symbol (MXNet's fluent
methods: ``x.sum(axis=1)`` is ``weft.nd.sum(x, axis=1)``).

One list serves both front ends, so ``x.cast(...)`` works on an NDArray exactly
when it works on a Symbol. Which operators are methods is a property of the
operator; when the registry's schema carries that flag, ``method_ops`` reads
it instead of FLUENT_OPS (one line, marked below) and nothing else changes.
"""

# MXNet 1.x's fluent methods that this registry can back (each is installed
# only when the registry has an operator or alias of that name).
FLUENT_OPS = (
    "abs", "sign", "round", "rint", "fix", "floor", "ceil", "trunc", "sin", "cos", "tan", "arcsin",
    "arccos", "arctan", "degrees", "radians", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
    "exp", "expm1", "log", "log10", "log2", "log1p", "sqrt", "rsqrt", "cbrt", "rcbrt", "square",
    "reciprocal", "relu", "sigmoid", "softmax", "log_softmax", "softmin", "sum", "nansum", "prod",
    "nanprod", "mean", "max", "min", "norm", "argmax", "argmin", "argmax_channel", "argsort", "sort",
    "topk", "clip", "transpose", "swapaxes", "flip", "tile", "repeat", "pad", "split", "slice",
    "slice_axis", "slice_like", "take", "pick", "one_hot", "broadcast_to", "broadcast_like",
    "broadcast_axes", "diag", "dot", "batch_dot", "cast", "flatten", "expand_dims", "squeeze",
    "reshape_like", "zeros_like", "ones_like", "shape_array", "size_array", "where",
    "depth_to_space", "space_to_depth",
)


def method_ops(funcs):
    """The names in funcs ({name: generated operator function}, aliases
    included) that become methods, in a fixed order."""
    return [name for name in FLUENT_OPS if name in funcs]  # the schema flag goes here


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
