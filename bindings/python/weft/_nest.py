"""Nested lists of arrays or symbols as flat lists, for the control-flow
functions (weft.nd.contrib and weft.sym.contrib foreach/while_loop/cond), which
take and return such nests as MXNet's do."""
from .base import InvalidArgumentError


def flatten(args, leaf, what):
    """(flat list, format) of a leaf (an instance of the class leaf) or nested
    lists of them; the format is 0 for a lone leaf, else a list of the children's
    formats."""
    if isinstance(args, leaf):
        return [args], 0
    if not isinstance(args, (list, tuple)):
        raise InvalidArgumentError("%s must be (nested) list of %s, but got %s of type %s"
                                   % (what, leaf.__name__, str(args), str(type(args))))
    flat, fmts = [], []
    for item in args:
        sub, fmt = flatten(item, leaf, what)
        flat.extend(sub)
        fmts.append(fmt)
    return flat, fmts


def regroup(flat, fmt):
    """Inverse of flatten: (nested structure of format fmt, the rest of flat)."""
    if fmt == 0:
        return flat[0], flat[1:]
    out = []
    for sub in fmt:
        item, flat = regroup(flat, sub)
        out.append(item)
    return out, flat
