"""weft.nd: imperative arrays and one function per registry operator.

Names, in order of precedence: the Python helpers of ndarray.py (array, zeros,
add, ... like MXNet's), then every generated operator function -- canonical
names and aliases, '_'-prefixed ones included (MXNet keeps those in
``mx.nd._internal``; they are there too, and in weft.nd unless a helper has
the name).

Namespaces come from the registered names (weft._namespaces): ``_contrib_<x>``
is ``weft.nd.contrib.<x>``, ``_linalg_<x>`` ``weft.nd.linalg.<x>``, ``_image_<x>``
``weft.nd.image.<x>``, ``_random_<x>_like`` ``weft.nd.random.<x>_like``. As in
MXNet, ``contrib`` and ``random`` also hold ``current_context``, and
``contrib.uniform`` is ``weft.nd.random.uniform``.
"""
# pylint: disable=wildcard-import,unused-wildcard-import,invalid-name

from . import ndarray
from .ndarray import *  # noqa: F401,F403
from .ndarray import NDArray, load, load_frombuffer, save, _install_operators
from .ndarray_class import install_methods as _install_methods
from .op_methods import NDArrayOpMethods as _NDArrayOpMethods
from .. import _fluent, _namespaces
from ..context import current_context as _current_context
from .dlpack import NDArrayDLPackMethods as _NDArrayDLPackMethods
from .dlpack import from_dlpack, from_numpy, to_dlpack_for_read, to_dlpack_for_write
from . import _internal, contrib, image, linalg, op, register
from . import random
from . import indexing  # noqa: F401
from .. import _split_v2 as _split_v2_py
from .creation import linspace, onehot_encode  # noqa: F401
from .imdecode import imdecode  # noqa: F401
from .indexing import (get_indexing_dispatch_code, get_oshape_of_gather_nd_op,  # noqa: F401
                       indexing_key_expand_implicit_axes)

_FUNCS, SCHEMAS = register.generate_all()
# split_v2 with MXNet's Python signature over the _split_v2 op (weft/_split_v2.py).
_FUNCS["split_v2"] = _split_v2_py.wrap(_FUNCS["_split_v2"], "weft.nd")

# Helpers of ndarray.py that give way to a registry op of the same name (the op
# takes the same arguments and more, e.g. zeros_like(data, dtype=...)).
_OP_OVER_HELPER = {"zeros_like", "ones_like", "negative"}
_helpers = set(globals()) - _OP_OVER_HELPER
for _name, _fn in _FUNCS.items():
    setattr(_internal, _name, _fn)
    if not _name.startswith("_"):
        setattr(op, _name, _fn)
    if _name not in _helpers:
        globals()[_name] = _fn

# The names MXNet's contrib and random modules import (mx.nd.contrib.current_context,
# mx.nd.contrib.uniform, mx.nd.random.current_context), unless the module has its own.
for _ns_mod, _ns_name, _ns_value in ((contrib, "current_context", _current_context),
                                    (contrib, "uniform", random.uniform),
                                    (random, "current_context", _current_context)):
    if not hasattr(_ns_mod, _ns_name):
        setattr(_ns_mod, _ns_name, _ns_value)
_namespaces.fill({"_contrib_": contrib, "_linalg_": linalg, "_image_": image, "_random_": random}, _FUNCS,
                 lambda fn, short: _namespaces.renamed(fn, short))

# The class's methods that build on the modules above it (Note [NDArray leaf] in
# ndarray_class.py), then the arithmetic fast paths; weft/__init__.py adds autograd's and
# weft.numpy's, which sit above this package.
for _holder in (_NDArrayOpMethods, _NDArrayDLPackMethods):
    _install_methods(NDArray, _holder)
_install_operators()

# NDArray methods that call operators (one list for NDArray and Symbol: weft._fluent).
_fluent.install_methods(NDArray, _FUNCS, "weft.nd")

del _name, _fn, _helpers, _ns_mod, _ns_name, _ns_value, _holder


def _op_list():
    """Canonical operator names known to this build."""
    return sorted(SCHEMAS)


