"""weft.nd: imperative arrays and one function per registry operator.

Names, in order of precedence: the Python helpers of ndarray.py (array, zeros,
add, ... like MXNet's), then every generated operator function -- canonical
names and aliases, '_'-prefixed ones included (MXNet keeps those in
``mx.nd._internal``; they are there too, and in weft.nd unless a helper has
the name). ``_contrib_<x>`` ops are also ``weft.nd.contrib.<x>``.
"""
# pylint: disable=wildcard-import,unused-wildcard-import,invalid-name

from . import ndarray
from .ndarray import *  # noqa: F401,F403
from .ndarray import NDArray, load, load_frombuffer, save, _install_operators
from ..dlpack import from_dlpack, to_dlpack_for_read, to_dlpack_for_write
from . import _internal, contrib, op, register
from . import random
from . import indexing  # noqa: F401

_FUNCS, SCHEMAS = register.generate_all()

# Helpers of ndarray.py that give way to a registry op of the same name (the op
# takes the same arguments and more, e.g. zeros_like(data, dtype=...)).
_OP_OVER_HELPER = {"zeros_like", "ones_like", "negative"}
_helpers = set(globals()) - _OP_OVER_HELPER
for _name, _fn in _FUNCS.items():
    setattr(_internal, _name, _fn)
    if not _name.startswith("_"):
        setattr(op, _name, _fn)
    if _name.startswith("_contrib_"):
        setattr(contrib, _name[len("_contrib_"):], _fn)
    if _name not in _helpers:
        globals()[_name] = _fn

_install_operators()

# NDArray methods that call operators (MXNet's list; each only when registered).
_METHOD_OPS = [
    "abs", "sign", "round", "rint", "fix", "floor", "ceil", "trunc", "sin", "cos", "tan", "arcsin",
    "arccos", "arctan", "degrees", "radians", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
    "exp", "expm1", "log", "log10", "log2", "log1p", "sqrt", "rsqrt", "cbrt", "rcbrt", "square",
    "reciprocal", "relu", "sigmoid", "softmax", "log_softmax", "softmin", "sum", "nansum", "prod",
    "nanprod", "mean", "max", "min", "norm", "argmax", "argmin", "argmax_channel", "argsort", "sort",
    "topk", "clip", "transpose", "swapaxes", "flip", "tile", "repeat", "pad", "split", "slice",
    "slice_axis", "slice_like", "take", "pick", "one_hot", "broadcast_to", "broadcast_like",
    "broadcast_axes", "diag", "dot", "batch_dot", "cast", "shape_array", "size_array", "where",
    "depth_to_space", "space_to_depth",
]


def _make_method(fn, mname):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = mname
    method.__qualname__ = "NDArray." + mname
    method.__doc__ = "Same as weft.nd.%s(self, ...).\n\n%s" % (mname, fn.__doc__ or "")
    return method


for _m in _METHOD_OPS:
    _fn = _FUNCS.get(_m)
    if _fn is not None and _m not in NDArray.__dict__:
        setattr(NDArray, _m, _make_method(_fn, _m))

del _name, _fn, _m, _helpers


def _op_list():
    """Canonical operator names known to this build."""
    return sorted(SCHEMAS)


