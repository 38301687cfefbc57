"""``weft.sym.npx`` (also ``weft.symbol.numpy_extension``): MXNet 1.9.1's
``mx.sym.npx``, what ``F.npx`` is inside a ``hybrid_forward`` traced in NumPy
mode. One function per ``_npx_<name>`` operator of the registry (generated
at import, as MXNet generates them from its ``_npx_`` operators), returning
``_Symbol``s; ``reshape`` translates MXNet's NumPy-extension shape codes.
"""
# pylint: disable=invalid-name
import numbers

from . import _internal
from .numpy._symbol import _Symbol, np_op

_PREFIX = "_npx_"


def _wrap(opname, short):
    generated = getattr(_internal, opname)

    def fn(*args, **kwargs):
        out = generated(*args, **kwargs)
        out.__class__ = _Symbol  # a fresh node nobody else holds
        return out
    fn.__name__ = fn.__qualname__ = short
    fn.__signature__ = generated.__signature__
    fn.__doc__ = "MXNet's ``npx.%s`` (the ``%s`` operator) over _Symbols.\n\n%s" % (short, opname, generated.__doc__)
    return fn


def _npx_names():
    # weft.sym._internal holds a generated function per registry name and alias
    return sorted(n for n in vars(_internal) if n.startswith(_PREFIX))


__all__ = []
for _opname in _npx_names():
    _short = _opname[len(_PREFIX):]
    globals()[_short] = _wrap(_opname, _short)
    __all__.append(_short)
del _opname, _short

# MXNet's npx.reshape codes -> the legacy Reshape's: -2 copies one axis (legacy 0), -4 copies
# the rest (legacy -2), -5 merges two axes (legacy -3), -6 splits one into the next two
# (legacy -4); -1 infers one axis in both.
_RESHAPE_CODES = {-1: -1, -2: 0, -4: -2, -5: -3, -6: -4}


def reshape(a, newshape, reverse=False, order="C"):
    """MXNet's ``npx.reshape`` with its special values (-1 infer, -2 copy, -4 copy the rest,
    -5 merge two, -6 split), written as the legacy Reshape; -3 (drop a size-1 axis) has no
    legacy spelling and is refused."""
    if order != "C":
        raise NotImplementedError("npx.reshape: order=%r (only 'C' is supported, as in MXNet)" % (order,))
    shape = tuple(newshape) if isinstance(newshape, (tuple, list)) else (newshape,)
    out = []
    for d in shape:
        if not isinstance(d, numbers.Integral) or isinstance(d, bool):
            raise TypeError("npx.reshape: newshape must hold ints, got %s" % type(d).__name__)
        if d > 0:
            out.append(int(d))
        elif d in _RESHAPE_CODES:
            out.append(_RESHAPE_CODES[int(d)])
        elif d == -3:
            raise NotImplementedError("npx.reshape: the code -3 (drop a size-1 axis) is not supported in a "
                                      "traced graph")
        else:
            raise ValueError("npx.reshape: invalid value %d in newshape %s" % (d, shape))
    return np_op("Reshape", a, shape=tuple(out), reverse=bool(reverse))


__all__.append("reshape")
