"""weft.sym (also weft.symbol): declarative graphs, MXNet 1.x's ``mx.sym``.

Names, in order of precedence: the helpers of symbol.py (Variable, var, Group,
load, load_json, zeros, ones, full, arange, pow, power, maximum, minimum), then
every generated operator function -- canonical names and aliases,
'_'-prefixed ones included (also in ``weft.sym._internal``, as in MXNet).

Namespaces come from the registered names (weft._namespaces): ``_contrib_<x>``
is ``weft.sym.contrib.<x>``, ``_linalg_<x>`` ``weft.sym.linalg.<x>``,
``_image_<x>`` ``weft.sym.image.<x>``, ``_random_<x>_like``
``weft.sym.random.<x>_like``; the samplers are in ``weft.sym.random``. As in
MXNet, ``contrib`` also holds ``check_call`` and ``uniform``
(``weft.sym.random.uniform``).

    >>> data = weft.sym.Variable('data')
    >>> fc = weft.sym.FullyConnected(data, num_hidden=10, name='fc1')
    >>> fc.list_arguments()
    ['data', 'fc1_weight', 'fc1_bias']
"""
# pylint: disable=wildcard-import,unused-wildcard-import,invalid-name

from . import symbol
from .symbol import *  # noqa: F401,F403
from .symbol import Group, Symbol, Variable, load, load_json, var
from . import _internal, contrib, image, linalg, op, register
from . import random
from .. import ndarray as _nd
from .. import _fluent, _namespaces
from .. import _split_v2 as _split_v2_py
from ..base import check_call as _check_call
from .. import dtypes as _dt

_FUNCS = register.generate_all(_nd.SCHEMAS)
# split_v2 with MXNet's Python signature over the _split_v2 op (weft/_split_v2.py).
_FUNCS["split_v2"] = _split_v2_py.wrap(_FUNCS["_split_v2"], "weft.sym")


def linspace(start, stop, num, endpoint=True, name=None, dtype=None):
    """num evenly spaced values over [start, stop] (MXNet's mx.sym.linspace, the _linspace op)."""
    return _FUNCS["_linspace"](start=start, stop=stop, num=num, endpoint=endpoint, name=name,
                               dtype=_dt.name(dtype) if dtype is not None else "float32")

_helpers = set(globals())
for _name, _fn in _FUNCS.items():
    setattr(_internal, _name, _fn)
    if not _name.startswith("_"):
        setattr(op, _name, _fn)
    if _name not in _helpers:
        globals()[_name] = _fn

# The names MXNet's symbol contrib module imports, unless the module has its own.
for _ns_name, _ns_value in (("check_call", _check_call), ("uniform", random.uniform)):
    if not hasattr(contrib, _ns_name):
        setattr(contrib, _ns_name, _ns_value)
_namespaces.fill({"_contrib_": contrib, "_linalg_": linalg, "_image_": image, "_random_": random}, _FUNCS,
                 lambda fn, short: _namespaces.renamed(fn, short, _HINT=short.lower()))

# Symbol methods that call operators (one list for NDArray and Symbol: weft._fluent).
_fluent.install_methods(Symbol, _FUNCS, "weft.sym")

del _name, _fn, _helpers, _ns_name, _ns_value

# NumPy-semantics symbols (issue 39): weft.sym.np / weft.sym.npx, MXNet's mx.sym.np / mx.sym.npx,
# which F.np / F.npx are in a hybrid_forward traced in NumPy mode. They sit above symbol.py, so
# Symbol.as_np_ndarray is installed from here.
from . import numpy, numpy_extension  # noqa: E402
from .numpy._symbol import symbol_as_np_ndarray as _symbol_as_np_ndarray  # noqa: E402
np, npx = numpy, numpy_extension
Symbol.as_np_ndarray = _symbol_as_np_ndarray
