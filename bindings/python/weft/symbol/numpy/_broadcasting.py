"""``where`` and ``matmul`` of ``weft.sym.np``: NumPy broadcasting composed from
operators MXNet 1.9.1 also registers, for a graph that knows no shapes.

Note [Broadcasting in a traced graph]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet writes ``_npi_where`` and ``_npi_matmul``, which broadcast their inputs
inside the kernel. Weft has no such operators (its ``where`` wants one shape,
``batch_dot`` 3-d operands), and a traced symbol has no shape to broadcast
with, so the broadcast is composed from shape *carriers*: ``zeros_like`` of an
input (true zeros even where the input is inf or NaN) added with the
broadcasting ``_npi_add`` gives a zero array of the broadcast shape, and
adding it to an input broadcasts that input. Every node is one MXNet 1.9.1
also registers (``zeros_like``, ``_npi_add``, ``sum``, ``broadcast_like``,
``where``, ``Reshape``, ``batch_dot``, ``reshape_like``), so an export still
loads there.

What the carriers cannot do: add arrays of different dtypes (Weft's
broadcasting operators do not promote in a graph), so x and y of ``where``,
and a and b of ``matmul``, must share a dtype. ``where``'s condition (any
dtype) is made a float32 0/1 mask first, which broadcasts against a float32
carrier of x and y; the mask can take x and y's broadcast shape but cannot
enlarge x and y (that would need a carrier in their unknown dtype), so the
condition must broadcast to x and y's broadcast shape.
"""
# pylint: disable=invalid-name
from ..symbol import Symbol
from ._symbol import binary, is_scalar, np_op

__all__ = ["where", "matmul"]


def _carrier(*syms):
    """Zeros of the broadcast shape of syms (one dtype), see the Note."""
    out = np_op("zeros_like", syms[0])
    for s in syms[1:]:
        out = np_op("_npi_add", out, np_op("zeros_like", s))
    return out


def where(condition, x=None, y=None):
    """Elements of x where condition is non-zero, else of y (MXNet's ``_npi_where``).

    x and y are symbols or Python scalars (at least one a symbol) broadcasting
    against each other; symbols must share a dtype (no promotion in a graph). The
    condition (any dtype) must broadcast to x and y's broadcast shape (Note
    [Broadcasting in a traced graph]). ``where(condition)``
    alone is ``nonzero``, whose output shape depends on the data: a traced graph
    cannot hold it (TypeError)."""
    if x is None and y is None:
        raise TypeError("where: the one-argument form (nonzero) has a data-dependent shape and cannot be "
                        "traced; give x and y, or run the block without hybridize()")
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    if not isinstance(condition, Symbol):
        raise TypeError("where: condition must be a Symbol in a traced graph, got %s" % type(condition).__name__)
    for arg, v in (("x", x), ("y", y)):
        if not isinstance(v, Symbol) and not is_scalar(v):
            raise TypeError("where: %s must be a Symbol or a Python scalar, got %s" % (arg, type(v).__name__))
    syms = [v for v in (x, y) if isinstance(v, Symbol)]
    if not syms:
        raise TypeError("where: at least one of x and y must be a Symbol in a traced graph (two scalars give "
                        "the condition's shape, which needs its dtype)")
    base = _carrier(*syms)
    xb, yb = (binary("where", "add", v, base) for v in (x, y))
    # The condition as a float32 0/1 mask (via bool: a tiny float is still true), broadcast
    # with a float32 carrier; the legacy where takes a condition of any dtype.
    mask = np_op("_npx_cast", np_op("_npx_cast", condition, dtype="bool"), dtype="float32")
    return np_op("where", np_op("_npi_add", mask, np_op("_npx_cast", base, dtype="float32")), xb, yb)


def matmul(a, b, out=None):  # pylint: disable=unused-argument
    """NumPy's matmul of symbols with at least 2 axes: the products of the last two
    axes, the leading (batch) axes broadcast (MXNet's ``_npi_matmul``).

    Composed as ``batch_dot`` over the batch axes merged into one (Note
    [Broadcasting in a traced graph]); a and b must share a dtype. A 1-d operand is
    refused when the graph is run (its rank is unknown at trace time: reshape it to
    (1, n) or (n, 1) first)."""
    for arg, v in (("a", a), ("b", b)):
        if not isinstance(v, Symbol):
            raise TypeError("matmul: %s must be a Symbol in a traced graph, got %s" % (arg, type(v).__name__))
    # Zeros of the broadcast batch shape + (1, 1): each operand's zeros summed over its matrix axes.
    batch = _carrier(*[np_op("sum", np_op("zeros_like", v), axis=(-2, -1), keepdims=True) for v in (a, b)])
    a_full, b_full = np_op("_npi_add", a, batch), np_op("_npi_add", b, batch)
    # (..., n, k) -> (B, n, k): the reversed Reshape copies the last two axes and merges the rest.
    a3 = np_op("Reshape", a_full, shape=(-1, 0, 0), reverse=True)
    b3 = np_op("Reshape", b_full, shape=(-1, 0, 0), reverse=True)
    prod = np_op("batch_dot", a3, b3)
    # (B, n, m) -> batch + (n, m): the merged axis takes the batch axes of the carrier.
    return np_op("reshape_like", prod, batch, lhs_begin=0, lhs_end=1, rhs_begin=0, rhs_end=-2)
