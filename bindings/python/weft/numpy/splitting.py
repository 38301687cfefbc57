"""Splitting arrays in ``weft.np``: ``split``, ``array_split``, ``hsplit``,
``vsplit`` and ``dsplit``.

Each part is one ``slice`` op (recorded by autograd); a part of length zero
is an empty array. The results are lists of new arrays.
"""
# pylint: disable=protected-access,invalid-name
import numpy as _onp

from . import _args
from ._array import _invoke
from .creation import _as_ndarray, zeros

__all__ = ["split", "array_split", "hsplit", "vsplit", "dsplit"]


def _bounds(n, indices_or_sections, func, equal):
    if isinstance(indices_or_sections, (int, _onp.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("%s: number sections must be larger than 0, got %d" % (func, sections))
        if equal and n % sections:
            raise ValueError("%s: array split does not result in an equal division (%d into %d)"
                             % (func, n, sections))
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        points = [0]
        for s in sizes:
            points.append(points[-1] + s)
        return list(zip(points[:-1], points[1:]))
    try:
        cuts = [_args.index(i, func, "indices_or_sections") for i in indices_or_sections]
    except TypeError:
        raise _args.ArgumentTypeError("%s: argument indices_or_sections must be an int or a sequence of ints"
                                      % func) from None
    edges = [0] + cuts + [n]
    out = []
    for b, e in zip(edges[:-1], edges[1:]):
        b = min(max(b + n if b < 0 else b, 0), n)
        e = min(max(e + n if e < 0 else e, 0), n)
        out.append((b, max(b, e)))
    return out


def _split(ary, indices_or_sections, axis, func, equal):
    a = _as_ndarray(ary, func, "ary")
    if a.ndim == 0:
        raise ValueError("%s: argument ary must have at least 1 dimension" % func)
    ax = _args.norm_axis(axis, a.ndim, func)
    parts = []
    for b, e in _bounds(a.shape[ax], indices_or_sections, func, equal):
        shape = list(a.shape)
        shape[ax] = e - b
        if e == b or a.size == 0:
            parts.append(zeros(tuple(shape), dtype=a.dtype, ctx=a.context))
            continue
        begin = [None] * a.ndim
        end = [None] * a.ndim
        begin[ax], end[ax] = b, e
        parts.append(_invoke("slice", [a], begin=tuple(begin), end=tuple(end)))
    return parts


def split(ary, indices_or_sections, axis=0):
    """ary split along axis into equal sections (ValueError when they would not
    be equal) or at the given indices."""
    return _split(ary, indices_or_sections, axis, "split", True)


def array_split(ary, indices_or_sections, axis=0):
    """As split, but a number of sections need not divide the axis: the first
    parts are one longer."""
    return _split(ary, indices_or_sections, axis, "array_split", False)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-D arrays)."""
    a = _as_ndarray(ary, "hsplit", "ary")
    if a.ndim == 0:
        raise ValueError("hsplit: argument ary must have at least 1 dimension")
    return _split(a, indices_or_sections, 1 if a.ndim > 1 else 0, "hsplit", True)


def vsplit(ary, indices_or_sections):
    """split along axis 0 (ary must have at least 2 dimensions)."""
    a = _as_ndarray(ary, "vsplit", "ary")
    if a.ndim < 2:
        raise ValueError("vsplit: argument ary must have at least 2 dimensions, got %d" % a.ndim)
    return _split(a, indices_or_sections, 0, "vsplit", True)


def dsplit(ary, indices_or_sections):
    """split along axis 2 (ary must have at least 3 dimensions)."""
    a = _as_ndarray(ary, "dsplit", "ary")
    if a.ndim < 3:
        raise ValueError("dsplit: argument ary must have at least 3 dimensions, got %d" % a.ndim)
    return _split(a, indices_or_sections, 2, "dsplit", True)
