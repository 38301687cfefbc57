"""``weft.np``'s products and trace: ``dot``, ``matmul``, ``inner``,
``outer``, ``vdot``, ``trace`` (MXNet 1.9.1's names, NumPy's shape rules)
over the registry's ``dot``/``batch_dot``/``diag``.

Note [NumPy dot over the legacy dot]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The legacy ``dot`` contracts a's last axis with b's *first* axis; NumPy's
``dot`` contracts with b's second-to-last axis. For b of 1 or 2 dimensions
they agree; for more, b's axis -2 is moved to the front first (a transpose),
after which the legacy result shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:]
is NumPy's. ``inner`` is the same with b's last axis moved to the front.
``matmul`` broadcasts the batch dimensions, merges them and uses
``batch_dot``. Operands are promoted by MXNet's rules first.
"""
from ..base import ShapeError, invoke2
from ..ndarray.ndarray import NDArray, _new_obj
from ..ndarray.op_call import _fail, _op
from ._array import _invoke, _np, ndarray
from ._promotion import result_dtype
from ._reductions import _FLOAT_FLAGS, normalize_axis, sum as _sum
from ._ufunc_core import broadcast_shape, cast, check_array, check_operand, name_of, write_out, zeros_of
from ._ufunc_core import expand_to
from ._arithmetic import multiply

__all__ = ["dot", "matmul", "inner", "outer", "vdot", "trace"]


def _pair(fname, a, b):
    a = check_array(fname, "a", a)
    b = check_array(fname, "b", b)
    dt = result_dtype(name_of(a), name_of(b))
    return cast(a, dt), cast(b, dt)


def _contract(fname, a, b, b_axis):
    """Sum over a's last axis and b's axis b_axis (Note [NumPy dot over the legacy dot])."""
    sa, sb = a.shape, b.shape  # read once: dot is on every step of a training loop
    nb = len(sb)
    ax = b_axis % nb
    if sa[-1] != sb[ax]:
        raise ShapeError("%s: shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)"
                         % (fname, tuple(sa), tuple(sb), sa[-1], len(sa) - 1, sb[ax], ax))
    shape = tuple(sa[:-1]) + tuple(d for i, d in enumerate(sb) if i != ax)
    if 0 in sa or 0 in sb:
        # The engine's dot wants non-empty operands; an empty contraction sums nothing.
        return zeros_of(shape, name_of(a), a.context)
    if nb > 1 and ax != 0:
        b = _invoke("transpose", [b], axes=(ax,) + tuple(i for i in range(nb) if i != ax))
    res = _invoke("dot", [a, b])
    return res if res.shape == shape else _np(res._view(shape))


def _dot_fast(a, b, _cls=ndarray, _fl=_FLOAT_FLAGS, _new=_new_obj):
    """dot(a, b) for a (..., k) and b (k, n) float ndarrays of one dtype, none
    empty, with one cffi call (the legacy dot is NumPy's there: Note [NumPy dot
    over the legacy dot]); None for anything else. A layer's forward runs it on
    every step, so the general path's checks and promotion cost a visible share
    of a small model's step (benchmarks/np_vs_nd.py)."""
    if a.__class__ is not _cls or b.__class__ is not _cls:
        return None
    f = a._dtype_flag
    if f not in _fl or f != b._dtype_flag:
        return None
    sa, sb = a.shape, b.shape
    if len(sb) != 2 or not sa or sa[-1] != sb[0] or 0 in sa or 0 in sb:
        return None
    h = invoke2(_op("dot"), a.handle, b.handle, 0, b"")
    if not h:
        _fail("dot")
    o = _new(_cls)
    o.handle, o._shape, o._dflag = h, sa[:-1] + sb[1:], f
    return o


def dot(a, b, out=None):
    """NumPy's dot: a scalar operand multiplies; 1-D x 1-D is the inner product
    (a 0-d array); otherwise a's last axis is summed with b's second-to-last
    (its only axis when 1-D)."""
    if out is None:
        res = _dot_fast(a, b)
        if res is not None:
            return res
    check_operand("dot", "a", a)
    check_operand("dot", "b", b)
    if not isinstance(a, NDArray) or not isinstance(b, NDArray) or a.ndim == 0 or b.ndim == 0:
        return multiply(a, b, out=out)
    a, b = _pair("dot", a, b)
    return write_out("dot", _contract("dot", a, b, -2 if b.ndim > 1 else 0), out)


def inner(a, b):
    """The sum over the last axes of a and b (a scalar operand multiplies)."""
    check_operand("inner", "a", a)
    check_operand("inner", "b", b)
    if not isinstance(a, NDArray) or not isinstance(b, NDArray) or a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    a, b = _pair("inner", a, b)
    return _contract("inner", a, b, -1)


def outer(a, b):
    """out[i, j] = a.ravel()[i] * b.ravel()[j]."""
    a, b = _pair("outer", a, b)
    return _invoke("broadcast_mul", [_np(a.reshape((-1, 1))), _np(b.reshape((1, -1)))])


def vdot(a, b):
    """The dot product of the flattened arrays (same size; real arrays, so no conjugate)."""
    a, b = _pair("vdot", a, b)
    if a.size != b.size:
        raise ShapeError("vdot: vectors have different lengths (%d and %d; shapes %s and %s)"
                         % (a.size, b.size, tuple(a.shape), tuple(b.shape)))
    return _sum(_invoke("broadcast_mul", [_np(a.reshape((-1,))), _np(b.reshape((-1,)))]))


def matmul(a, b, out=None):
    """NumPy's matmul: matrix products over the last two axes with broadcast
    batch axes; a 1-D a gets a leading 1 and a 1-D b a trailing 1, removed
    again from the result. Scalars are a ValueError (as NumPy)."""
    a, b = _pair("matmul", a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: input operand does not have enough dimensions (a %s, b %s)"
                         % (tuple(a.shape), tuple(b.shape)))
    a2 = _np(a.reshape((1,) + tuple(a.shape))) if a.ndim == 1 else a
    b2 = _np(b.reshape(tuple(b.shape) + (1,))) if b.ndim == 1 else b
    n, k = a2.shape[-2:]
    k2, m = b2.shape[-2:]
    if k != k2:
        raise ShapeError("matmul: input operand 1 has a mismatch in its core dimension 0 (size %d is "
                         "different from %d); shapes %s and %s" % (k2, k, tuple(a.shape), tuple(b.shape)))
    batch = broadcast_shape("matmul", tuple(a2.shape[:-2]), tuple(b2.shape[:-2]))
    shape = batch + (n, m)
    final = batch + ((n,) if a.ndim > 1 else ()) + ((m,) if b.ndim > 1 else ())
    if 0 in shape or k == 0:
        return write_out("matmul", zeros_of(final, name_of(a), a.context), out)
    a3 = _np(expand_to(a2, batch + (n, k)).reshape((-1, n, k)))
    b3 = _np(expand_to(b2, batch + (k, m)).reshape((-1, k, m)))
    res = _invoke("batch_dot", [a3, b3])
    return write_out("matmul", _np(res._view(final)), out)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum of the diagonal of a over axes axis1 and axis2 (offset: above the
    main diagonal when > 0); a has at least 2 dimensions; bool sums to int64."""
    a = check_array("trace", "a", a)
    if a.ndim < 2:
        raise ValueError("trace: diag requires an array of at least two dimensions, got shape %s"
                         % (tuple(a.shape),))
    ax = normalize_axis("trace", (axis1, axis2), a.ndim) if axis1 % a.ndim != axis2 % a.ndim else None
    if ax is None:
        raise ValueError("trace: axis1 and axis2 cannot be the same")
    d = _invoke("diag", [a], k=int(offset), axis1=int(axis1) % a.ndim, axis2=int(axis2) % a.ndim)
    return _sum(d, axis=-1, dtype=dtype, out=out)
