"""Arithmetic on NDArrays: the module functions ``add`` ... ``lesser_equal``
(scalar / same shape / broadcast dispatch, as MXNet's ``_ufunc_helper``) and
the fast arithmetic dunders of NDArray (``x * 1.0001`` is one cffi call)."""
# pylint: disable=protected-access,invalid-name
import operator

from ..base import ArgumentTypeError, NotFoundError, error_for
from ..base import into1, invoke1
from . import axpy
from .attr_text import _SCALAR_TEXT, _is_scalar, _scalar_attr
from .ndarray_class import NDArray, _new_obj
from .op_call import _call, _fail, _op, _scalar_call, has_op


# ---- arithmetic dispatch (scalar / same shape / broadcast), as MXNet's _ufunc_helper ----
# kind -> (same-shape ops in order of preference, broadcast op, scalar op, reversed scalar op)
_UFUNCS = {
    "add": (("elemwise_add", "_plus"), "broadcast_add", "_plus_scalar", "_plus_scalar"),
    "subtract": (("elemwise_sub", "_minus"), "broadcast_sub", "_minus_scalar", "_rminus_scalar"),
    "multiply": (("elemwise_mul", "_mul"), "broadcast_mul", "_mul_scalar", "_mul_scalar"),
    "divide": (("elemwise_div", "_div"), "broadcast_div", "_div_scalar", "_rdiv_scalar"),
    "modulo": (("_mod",), "broadcast_mod", "_mod_scalar", "_rmod_scalar"),
    "power": (("_power",), "broadcast_power", "_power_scalar", "_rpower_scalar"),
    "maximum": (("_maximum",), "broadcast_maximum", "_maximum_scalar", "_maximum_scalar"),
    "minimum": (("_minimum",), "broadcast_minimum", "_minimum_scalar", "_minimum_scalar"),
    "equal": (("_equal",), "broadcast_equal", "_equal_scalar", "_equal_scalar"),
    "not_equal": (("_not_equal",), "broadcast_not_equal", "_not_equal_scalar", "_not_equal_scalar"),
    "greater": (("_greater",), "broadcast_greater", "_greater_scalar", "_lesser_scalar"),
    "greater_equal": (("_greater_equal",), "broadcast_greater_equal", "_greater_equal_scalar",
                      "_lesser_equal_scalar"),
    "lesser": (("_lesser",), "broadcast_lesser", "_lesser_scalar", "_greater_scalar"),
    "lesser_equal": (("_lesser_equal",), "broadcast_lesser_equal", "_lesser_equal_scalar",
                     "_greater_equal_scalar"),
    "logical_and": (("_logical_and",), "broadcast_logical_and", "_logical_and_scalar", "_logical_and_scalar"),
    "logical_or": (("_logical_or",), "broadcast_logical_or", "_logical_or_scalar", "_logical_or_scalar"),
    "logical_xor": (("_logical_xor",), "broadcast_logical_xor", "_logical_xor_scalar", "_logical_xor_scalar"),
}
_PY_OPS = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
           "divide": operator.truediv, "modulo": operator.mod, "power": operator.pow,
           "maximum": max, "minimum": min, "equal": lambda a, b: float(a == b),
           "not_equal": lambda a, b: float(a != b), "greater": lambda a, b: float(a > b),
           "greater_equal": lambda a, b: float(a >= b), "lesser": lambda a, b: float(a < b),
           "lesser_equal": lambda a, b: float(a <= b),
           "logical_and": lambda a, b: float(bool(a) and bool(b)),
           "logical_or": lambda a, b: float(bool(a) or bool(b)),
           "logical_xor": lambda a, b: float(bool(a) != bool(b))}


def _same_op(kind):
    for name in _UFUNCS[kind][0]:
        if has_op(name):
            return name
    return _UFUNCS[kind][1]


def _ufunc(lhs, rhs, kind, out=None):
    """lhs (NDArray) <kind> rhs (NDArray or scalar)."""
    if rhs.__class__ is NDArray or isinstance(rhs, NDArray):
        if lhs.shape == rhs.shape:
            return _call(_same_op(kind), [lhs, rhs], out=out)
        return _call(_UFUNCS[kind][1], [lhs, rhs], out=out)
    if _is_scalar(rhs):
        return _scalar_call(_UFUNCS[kind][2], lhs, rhs, out=out)
    raise ArgumentTypeError("%s: type %s is not supported (NDArray or a number expected)"
                            % (kind, type(rhs).__name__))


def _floor_divide(lhs, rhs):
    """lhs // rhs like NumPy: floor(lhs / rhs), computed in float64 and returned in
    the array operand's dtype (exact for every dtype but int64 beyond 2**53)."""
    arr = lhs if isinstance(lhs, NDArray) else rhs
    wide = lambda v: v.astype("float64") if isinstance(v, NDArray) else v
    if isinstance(lhs, NDArray):
        q = _ufunc(wide(lhs), wide(rhs), "divide")
    else:
        q = _rufunc(wide(rhs), lhs, "divide")
    return _call("floor", [q]).astype(arr.dtype)


def _rufunc(arr, scalar, kind):
    """scalar <kind> arr."""
    if _is_scalar(scalar):
        return _scalar_call(_UFUNCS[kind][3], arr, scalar)
    raise ArgumentTypeError("%s: type %s is not supported (NDArray or a number expected)"
                            % (kind, type(scalar).__name__))


def _helper(kind):
    def fn(lhs, rhs):
        if isinstance(lhs, NDArray):
            return _ufunc(lhs, rhs, kind)
        if isinstance(rhs, NDArray):
            return _rufunc(rhs, lhs, kind)
        if _is_scalar(lhs) and _is_scalar(rhs):
            return _PY_OPS[kind](lhs, rhs)
        raise ArgumentTypeError("%s: type %s and %s are not supported"
                                % (kind, type(lhs).__name__, type(rhs).__name__))
    fn.__name__ = kind
    fn.__qualname__ = kind
    fn.__doc__ = ("Element-wise %s of two arrays or an array and a scalar, with broadcasting.\n\n"
                  "Same shapes use the element-wise op, different shapes the broadcast_* op, and a\n"
                  "scalar operand the _*_scalar op (MXNet's dispatch).\n\n"
                  "Parameters\n----------\nlhs : NDArray or scalar\nrhs : NDArray or scalar\n\n"
                  "Returns\n-------\nNDArray\n" % kind)
    return fn


add = _helper("add")
subtract = _helper("subtract")
multiply = _helper("multiply")
divide = _helper("divide")
true_divide = divide
modulo = _helper("modulo")
power = _helper("power")
maximum = _helper("maximum")
minimum = _helper("minimum")
equal = _helper("equal")
not_equal = _helper("not_equal")
greater = _helper("greater")
greater_equal = _helper("greater_equal")
lesser = _helper("lesser")
lesser_equal = _helper("lesser_equal")
logical_and = _helper("logical_and")
logical_or = _helper("logical_or")
logical_xor = _helper("logical_xor")


def negative(arr):
    """-arr."""
    return arr.__neg__()


def _make_fast(kind, reverse=False, inplace=False):
    """The dunder for kind: scalars go straight to one cffi call."""
    _, _, sname, rsname = _UFUNCS[kind]
    name = rsname if reverse else sname
    try:
        hs = _op(name)
    except NotFoundError:
        hs = None

    if inplace:
        def method(self, other, _h=hs, _into=into1, _sattr=_SCALAR_TEXT):
            t = other.__class__
            if _h is not None and (t is float or t is int):
                try:
                    blob = _sattr[other]
                except KeyError:
                    blob = _scalar_attr(other)
                rc = _into(_h, self.handle, self.handle, 1, blob)
                if rc:
                    raise error_for(rc)
                return self
            if not (t is NDArray or isinstance(other, NDArray) or _is_scalar(other)):
                return NotImplemented
            _ufunc(self, other, kind, out=self)
            return self
        if kind in ("add", "subtract") and axpy.ENABLED:
            # w -= lr * g as one kernel when lr * g is a temporary (Note [In-place axpy fusion]).
            def method(self, other, _plain=method, _temp=axpy.is_temporary, _fuse=axpy.fuse):
                if other.__class__ is NDArray and _temp(other, kind) and _fuse(self, other, kind):
                    return self
                return _plain(self, other)
    elif reverse:
        def method(self, other, _h=hs, _inv=invoke1, _new=_new_obj, _cls=NDArray, _sattr=_SCALAR_TEXT):
            t = other.__class__
            if _h is not None and (t is float or t is int):
                try:
                    blob = _sattr[other]
                except KeyError:
                    blob = _scalar_attr(other)
                h = _inv(_h, self.handle, 1, blob)
                if h:
                    o = _new(_cls)
                    o.handle = h
                    return o
                _fail(name)
            if not _is_scalar(other):
                return NotImplemented
            return _rufunc(self, other, kind)
    else:
        def method(self, other, _h=hs, _inv=invoke1, _new=_new_obj, _cls=NDArray, _sattr=_SCALAR_TEXT):
            t = other.__class__
            if _h is not None and (t is float or t is int):
                try:
                    blob = _sattr[other]
                except KeyError:
                    blob = _scalar_attr(other)
                h = _inv(_h, self.handle, 1, blob)
                if h:
                    o = _new(_cls)
                    o.handle = h
                    return o
                _fail(name)
            if not (t is NDArray or isinstance(other, NDArray) or _is_scalar(other)):
                return NotImplemented
            return _ufunc(self, other, kind)
    return method


def _install_operators():
    """(Re)binds the arithmetic dunders; called at import once the registry is known."""
    for kind, dunder in (("add", "add"), ("subtract", "sub"), ("multiply", "mul"), ("divide", "truediv")):
        setattr(NDArray, "__%s__" % dunder, _make_fast(kind))
        setattr(NDArray, "__r%s__" % dunder, _make_fast(kind, reverse=True))
        setattr(NDArray, "__i%s__" % dunder, _make_fast(kind, inplace=True))
    NDArray.__div__ = NDArray.__truediv__
    NDArray.__rdiv__ = NDArray.__rtruediv__
    NDArray.__idiv__ = NDArray.__itruediv__
