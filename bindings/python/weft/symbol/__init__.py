"""weft.sym (also weft.symbol): declarative graphs, MXNet 1.x's ``mx.sym``.

Names, in order of precedence: the helpers of symbol.py (Variable, var, Group,
load, load_json, zeros, ones, full, arange, pow, power, maximum, minimum), then
every generated operator function -- canonical names and aliases,
'_'-prefixed ones included (also in ``weft.sym._internal``, as in MXNet).
``_contrib_<x>`` ops are also ``weft.sym.contrib.<x>``; samplers are in
``weft.sym.random``.

    >>> data = weft.sym.Variable('data')
    >>> fc = weft.sym.FullyConnected(data, num_hidden=10, name='fc1')
    >>> fc.list_arguments()
    ['data', 'fc1_weight', 'fc1_bias']
"""
# pylint: disable=wildcard-import,unused-wildcard-import,invalid-name

from . import symbol
from .symbol import *  # noqa: F401,F403
from .symbol import Group, Symbol, Variable, load, load_json, var
from . import _internal, contrib, op, register
from . import random
from .. import ndarray as _nd

_FUNCS = register.generate_all(_nd.SCHEMAS)

_helpers = set(globals())
for _name, _fn in _FUNCS.items():
    setattr(_internal, _name, _fn)
    if not _name.startswith("_"):
        setattr(op, _name, _fn)
    if _name.startswith("_contrib_"):
        setattr(contrib, _name[len("_contrib_"):], _fn)
    if _name not in _helpers:
        globals()[_name] = _fn

# Symbol methods that call operators (MXNet's fluent methods; each only when registered).
_METHOD_OPS = [
    "abs", "sign", "round", "rint", "fix", "floor", "ceil", "trunc", "sin", "cos", "tan", "arcsin",
    "arccos", "arctan", "degrees", "radians", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
    "exp", "expm1", "log", "log10", "log2", "log1p", "sqrt", "rsqrt", "cbrt", "rcbrt", "square",
    "reciprocal", "relu", "sigmoid", "softmax", "log_softmax", "softmin", "sum", "nansum", "prod",
    "nanprod", "mean", "max", "min", "norm", "argmax", "argmin", "argmax_channel", "argsort", "sort",
    "topk", "clip", "transpose", "swapaxes", "flip", "tile", "repeat", "pad", "split", "slice",
    "slice_axis", "slice_like", "take", "pick", "one_hot", "broadcast_to", "broadcast_like",
    "broadcast_axes", "diag", "dot", "batch_dot", "flatten", "expand_dims", "squeeze", "reshape_like",
    "zeros_like", "ones_like", "shape_array", "size_array", "depth_to_space", "space_to_depth",
]


def _make_method(fn, mname):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = mname
    method.__qualname__ = "Symbol." + mname
    method.__doc__ = "Same as weft.sym.%s(self, ...).\n\n%s" % (mname, fn.__doc__ or "")
    return method


for _m in _METHOD_OPS:
    _fn = _FUNCS.get(_m)
    if _fn is not None and _m not in Symbol.__dict__:
        setattr(Symbol, _m, _make_method(_fn, _m))

del _name, _fn, _m, _helpers
