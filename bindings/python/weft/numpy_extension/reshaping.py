"""``npx.reshape`` with MXNet's NumPy-extension shape codes, and ``npx.reshape_like``.

Note [npx.reshape codes]
~~~~~~~~~~~~~~~~~~~~~~~~
``npx.reshape`` (MXNet's ``_npx_reshape``, NumpyXReshapeInferShape in
src/operator/numpy/np_matrix_op.cc) reads newshape left to right against the
input's axes, with codes that differ from legacy ``Reshape``'s 0/-1/-2/-3/-4:

  d > 0  an axis of size d (consumes one input axis)
  -1     the one inferred size (consumes one input axis)
  -2     copy the current input axis
  -3     drop the current input axis, which must have size 1
  -4     copy all remaining input axes
  -5     the product of the next two input axes
  -6     split the current input axis into the next two entries of newshape
         (one of them may be -1)

``reverse=True`` applies the same reading right to left. The output shape is
computed here and handed to the legacy ``Reshape`` op as plain sizes (so
gradients are Reshape's); a zero-size result is made directly, since legacy
Reshape reads a 0 as "copy".
"""
# pylint: disable=invalid-name
import operator

from ..ndarray.ndarray import NDArray
from ..numpy._array import _invoke

__all__ = ["reshape", "reshape_like"]


def _infer(src, target, func):
    out, unknown, known, s = [], -1, 1, 0
    n = len(src)

    def need(k):
        if s + k > n:
            raise ValueError("%s: newshape %s needs more axes than the input's %d" % (func, target, n))

    i = 0
    while i < len(target):
        d = target[i]
        if d < -6:
            raise ValueError("%s: newshape codes must be >= -6, got %d" % (func, d))
        if d == -1:
            if unknown >= 0:
                raise ValueError("%s: only one dimension can be inferred (-1)" % func)
            unknown = len(out)
            out.append(-1)
            s += 1
        elif d == -2:
            need(1)
            known *= src[s]
            out.append(src[s])
            s += 1
        elif d == -3:
            need(1)
            if src[s] != 1:
                raise ValueError("%s: -3 drops only axes of size 1, axis %d has size %d" % (func, s, src[s]))
            s += 1
        elif d == -4:
            while s < n:
                known *= src[s]
                out.append(src[s])
                s += 1
        elif d == -5:
            need(2)
            known *= src[s] * src[s + 1]
            out.append(src[s] * src[s + 1])
            s += 2
        elif d == -6:
            if i + 2 >= len(target):
                raise ValueError("%s: -6 must be followed by the two sizes to split into" % func)
            need(1)
            d0, d1, d2 = src[s], target[i + 1], target[i + 2]
            s += 1
            i += 2
            if d1 == -1 and d2 == -1:
                raise ValueError("%s: the split sizes after -6 cannot both be -1" % func)
            if d1 < -1 or d2 < -1 or (d1 == 0 and d2 == -1) or (d2 == 0 and d1 == -1):
                raise ValueError("%s: bad split sizes %d, %d after -6" % (func, d1, d2))
            if d1 == -1:
                d1 = d0 // d2
            if d2 == -1:
                d2 = d0 // d1
            if d1 * d2 != d0:
                raise ValueError("%s: split sizes %d, %d do not divide axis of size %d" % (func, d1, d2, d0))
            known *= d0
            out += [d1, d2]
        else:
            known *= d
            out.append(d)
            s += 1
        i += 1
    size = 1
    for d in src:
        size *= d
    if unknown >= 0:
        if known == 0 or size % known:
            raise ValueError("%s: cannot reshape an array of shape %s into %s" % (func, tuple(src), target))
        out[unknown] = size // known
    total = 1
    for d in out:
        total *= d
    if total != size:
        raise ValueError("%s: cannot reshape an array of shape %s into %s" % (func, tuple(src), target))
    return tuple(out)


def _newshape(newshape, func):
    try:
        if isinstance(newshape, int) or hasattr(newshape, "__index__"):
            return (operator.index(newshape),)
        return tuple(operator.index(d) for d in newshape)
    except TypeError:
        raise TypeError("%s: newshape must be an int or a tuple of ints, got %r" % (func, newshape)) from None


def reshape(a, newshape, reverse=False, order="C", out=None, name=None):  # pylint: disable=unused-argument
    """``npx.reshape``: a's elements in a new shape, newshape holding sizes and the
    codes of Note [npx.reshape codes]; reverse reads them right to left. Only
    order='C' (as MXNet)."""
    f = "reshape"
    if not isinstance(a, NDArray):
        raise TypeError("reshape: a must be an array, got %s" % type(a).__name__)
    if order != "C":
        raise NotImplementedError("reshape: only order='C' is supported (as in MXNet), got %r" % (order,))
    target = _newshape(newshape, f)
    src = tuple(a.shape)
    if reverse:
        shape = _infer(src[::-1], target[::-1], f)[::-1]
    else:
        shape = _infer(src, target, f)
    if 0 in shape:
        res = _invoke("_zeros", [], shape=shape, dtype=str(a.dtype), ctx=str(a.context))
        if out is not None:
            res.copyto(out)
            return out
        return res
    return _invoke("Reshape", [a], out=out, shape=shape)


def reshape_like(lhs, rhs, lhs_begin=None, lhs_end=None, rhs_begin=None, rhs_end=None, out=None,
                 name=None):  # pylint: disable=unused-argument
    """``npx.reshape_like``: lhs's elements in the shape lhs.shape[:lhs_begin] +
    rhs.shape[rhs_begin:rhs_end] + lhs.shape[lhs_end:]."""
    for nm, x in (("lhs", lhs), ("rhs", rhs)):
        if not isinstance(x, NDArray):
            raise TypeError("reshape_like: %s must be an array, got %s" % (nm, type(x).__name__))
    attrs = {k: v for k, v in dict(lhs_begin=lhs_begin, lhs_end=lhs_end, rhs_begin=rhs_begin,
                                   rhs_end=rhs_end).items() if v is not None}
    return _invoke("reshape_like", [lhs, rhs], out=out, **attrs)
