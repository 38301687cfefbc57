"""``weft.np``'s binary element-wise functions (MXNet 1.9.1's ``mx.np.add`` ...):
broadcasting, MXNet's type promotion (Note [MXNet's type promotion]) and
comparisons returning bool arrays; see Note [Ufuncs over legacy ops]."""
# pylint: disable=redefined-builtin,invalid-name
import numpy as onp

from ..base import DTypeError
from ..ndarray.ndarray import NDArray
from ._array import _invoke
from ._promotion import is_bool, is_float, true_divide_dtype
from ._ufunc_core import apply_binary, broadcast_shape, cast, expand_to, name_of, promote, write_out
from ._ufunc_core import check_ufunc_kwargs as _no_kwargs

__all__ = ["add", "subtract", "multiply", "divide", "true_divide", "mod", "remainder", "power",
           "float_power", "maximum", "minimum", "hypot", "arctan2", "copysign", "ldexp", "heaviside",
           "lcm", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
           "bitwise_and", "bitwise_or", "bitwise_xor"]

_OPS = {
    "add": ("broadcast_add", "_plus_scalar", "_plus_scalar"),
    "subtract": ("broadcast_sub", "_minus_scalar", "_rminus_scalar"),
    "multiply": ("broadcast_mul", "_mul_scalar", "_mul_scalar"),
    "divide": ("broadcast_div", "_div_scalar", "_rdiv_scalar"),
    "mod": ("broadcast_mod", "_mod_scalar", "_rmod_scalar"),
    "power": ("broadcast_power", "_power_scalar", "_rpower_scalar"),
    "maximum": ("broadcast_maximum", "_maximum_scalar", "_maximum_scalar"),
    "minimum": ("broadcast_minimum", "_minimum_scalar", "_minimum_scalar"),
    "hypot": ("broadcast_hypot", "_hypot_scalar", "_hypot_scalar"),
    "equal": ("broadcast_equal", "_equal_scalar", "_equal_scalar"),
    "not_equal": ("broadcast_not_equal", "_not_equal_scalar", "_not_equal_scalar"),
    "greater": ("broadcast_greater", "_greater_scalar", "_lesser_scalar"),
    "greater_equal": ("broadcast_greater_equal", "_greater_equal_scalar", "_lesser_equal_scalar"),
    "less": ("broadcast_lesser", "_lesser_scalar", "_greater_scalar"),
    "less_equal": ("broadcast_lesser_equal", "_lesser_equal_scalar", "_greater_equal_scalar"),
    "logical_and": ("broadcast_logical_and", "_logical_and_scalar", "_logical_and_scalar"),
    "logical_or": ("broadcast_logical_or", "_logical_or_scalar", "_logical_or_scalar"),
    "logical_xor": ("broadcast_logical_xor", "_logical_xor_scalar", "_logical_xor_scalar"),
}


def _arith(kind, fname, x1, x2, out):
    a1, a2, _ = promote(fname, x1, x2)
    return write_out(fname, apply_binary(_OPS[kind], a1, a2), out)


def _float_arith(kind, fname, x1, x2, out):
    """A binary op whose result is a float even for integer operands."""
    a1, a2, dt = promote(fname, x1, x2)
    ft = true_divide_dtype(dt)
    if ft != dt:
        a1 = cast(a1, ft) if isinstance(a1, NDArray) else a1
        a2 = cast(a2, ft) if isinstance(a2, NDArray) else a2
    return write_out(fname, apply_binary(_OPS[kind], a1, a2), out)


def _compare(kind, fname, x1, x2, out):
    a1, a2, _ = promote(fname, x1, x2)
    return write_out(fname, cast(apply_binary(_OPS[kind], a1, a2), "bool"), out)


def add(x1, x2, out=None, **kwargs):
    """x1 + x2 with broadcasting (bool + bool is logical or, as NumPy)."""
    _no_kwargs("add", kwargs)
    return _arith("add", "add", x1, x2, out)


def subtract(x1, x2, out=None, **kwargs):
    """x1 - x2 with broadcasting; TypeError for two bool operands (as NumPy)."""
    _no_kwargs("subtract", kwargs)
    _no_bool_pair("subtract", x1, x2)
    return _arith("subtract", "subtract", x1, x2, out)


def multiply(x1, x2, out=None, **kwargs):
    """x1 * x2 with broadcasting."""
    _no_kwargs("multiply", kwargs)
    return _arith("multiply", "multiply", x1, x2, out)


def true_divide(x1, x2, out=None, **kwargs):
    """x1 / x2; integer operands give the default float type (float32, or
    float64 after ``npx.set_np(dtype=True)``), as MXNet."""
    _no_kwargs("true_divide", kwargs)
    return _float_arith("divide", "true_divide", x1, x2, out)


def divide(x1, x2, out=None, **kwargs):
    """x1 / x2 (true division; see true_divide)."""
    _no_kwargs("divide", kwargs)
    return _float_arith("divide", "divide", x1, x2, out)


def mod(x1, x2, out=None, **kwargs):
    """x1 % x2 with the sign of x2 (NumPy's ``mod``). A zero divisor gives 0
    for floats too, as MXNet's mod kernel (NumPy gives NaN there)."""
    _no_kwargs("mod", kwargs)
    return _arith("mod", "mod", x1, x2, out)


def remainder(x1, x2, out=None, **kwargs):
    """The same as mod."""
    _no_kwargs("remainder", kwargs)
    return _arith("mod", "remainder", x1, x2, out)


def power(x1, x2, out=None, **kwargs):
    """x1 ** x2 with broadcasting; an integer array to a negative integer scalar
    power is NumPy's ValueError (an array exponent is not checked: that would
    wait for its values)."""
    _no_kwargs("power", kwargs)
    if isinstance(x1, NDArray) and not is_float(name_of(x1)) and not is_bool(name_of(x1)) and \
            isinstance(x2, (int, onp.integer)) and not isinstance(x2, bool) and x2 < 0:
        raise ValueError("power: integers to negative integer powers are not allowed")
    return _arith("power", "power", x1, x2, out)


def float_power(x1, x2, out=None, **kwargs):
    """x1 ** x2 computed in float64 (NumPy's float_power; MXNet 1.9.1 sends it
    to host NumPy, which gives float64 too)."""
    _no_kwargs("float_power", kwargs)
    a1, a2, _ = promote("float_power", x1, x2)
    a1 = cast(a1, "float64") if isinstance(a1, NDArray) else a1
    a2 = cast(a2, "float64") if isinstance(a2, NDArray) else a2
    return write_out("float_power", apply_binary(_OPS["power"], a1, a2), out)


def maximum(x1, x2, out=None, **kwargs):
    """Element-wise maximum with broadcasting."""
    _no_kwargs("maximum", kwargs)
    return _arith("maximum", "maximum", x1, x2, out)


def minimum(x1, x2, out=None, **kwargs):
    """Element-wise minimum with broadcasting."""
    _no_kwargs("minimum", kwargs)
    return _arith("minimum", "minimum", x1, x2, out)


def hypot(x1, x2, out=None, **kwargs):
    """sqrt(x1**2 + x2**2); integer operands give the default float type."""
    _no_kwargs("hypot", kwargs)
    return _float_arith("hypot", "hypot", x1, x2, out)


def floor_divide(x1, x2, out=None):
    """floor(x1 / x2) in the promoted dtype (the ``//`` operator).

    Integers are divided in float64 and floored (exact below 2**53), so the
    sign convention is NumPy's (rounding toward minus infinity)."""
    a1, a2, dt = promote("floor_divide", x1, x2)
    w1 = cast(a1, "float64") if isinstance(a1, NDArray) and not is_float(dt) else a1
    w2 = cast(a2, "float64") if isinstance(a2, NDArray) and not is_float(dt) else a2
    q = _invoke("floor", [apply_binary(_OPS["divide"], w1, w2)])
    if not is_float(dt):
        # NumPy gives 0 for an integer division by zero; the float quotient is
        # +-inf or NaN there, whose conversion to an integer is undefined.
        ok = _invoke("_not_equal_scalar", [q], scalar=float("inf"))
        ok = _invoke("broadcast_logical_and", [ok, _invoke("_not_equal_scalar", [q], scalar=float("-inf"))])
        ok = _invoke("broadcast_logical_and", [ok, _invoke("broadcast_equal", [q, q])])
        q = _invoke("where", [ok, q, _invoke("zeros_like", [q])])
    return write_out("floor_divide", cast(q, dt), out)


def arctan2(x1, x2, out=None, **kwargs):
    """The angle of the point (x2, x1) in radians, in [-pi, pi] (NumPy's
    quadrants and infinities; integer operands give the default float type;
    -0.0 counts as +0.0: the engine has no sign-bit test).

    Composed from the half-angle forms, which have exact gradients wherever
    arctan2 is differentiable (atan(x1/x2) would give NaN gradients at x2 == 0):
    2 atan(y / (r + x)) for x > 0, 2 atan((r - x) / y) for y != 0, with
    r = hypot(x, y); the negative x axis is pi and the origin 0. Denominators
    are made safe in the branches not taken so no inf/NaN reaches a gradient."""
    _no_kwargs("arctan2", kwargs)
    a1, a2, dt = promote("arctan2", x1, x2)
    ft = true_divide_dtype(dt)
    y = _to_array(a1, a2, ft)
    x = _to_array(a2, a1, ft)
    shape = broadcast_shape("arctan2", y.shape, x.shape)
    y, x = expand_to(y, shape), expand_to(x, shape)
    one = _like(x, 1.0)
    pos = _invoke("_greater_scalar", [x], scalar=0)
    ynz = _invoke("_not_equal_scalar", [y], scalar=0)
    not_pos = _invoke("logical_not", [pos])
    on_neg_axis = _invoke("broadcast_logical_and", [not_pos, _invoke("logical_not", [ynz])])
    xs = _invoke("where", [on_neg_axis, one, x])
    r = _invoke("broadcast_hypot", [xs, y])
    d1 = _invoke("where", [pos, _invoke("broadcast_add", [r, xs]), one])
    b1 = _invoke("arctan", [_invoke("broadcast_div", [y, d1])])
    d2 = _invoke("where", [ynz, y, one])
    b2 = _invoke("arctan", [_invoke("broadcast_div", [_invoke("broadcast_sub", [r, xs]), d2])])
    axis_val = _invoke("_mul_scalar", [_invoke("_lesser_scalar", [x], scalar=0)], scalar=onp.pi / 2)
    half = _invoke("where", [pos, b1, _invoke("where", [ynz, b2, axis_val])])
    res = _invoke("_mul_scalar", [half], scalar=2.0)
    # An infinite y: +-pi/2, or +-pi/4 / +-3pi/4 when x is infinite too (NumPy's
    # values); the half-angle forms give inf/inf there.
    yinf = _invoke("_equal_scalar", [_invoke("abs", [y])], scalar=float("inf"))
    xinf = _invoke("_equal_scalar", [_invoke("abs", [x])], scalar=float("inf"))
    corner = _invoke("_plus_scalar", [_invoke("_mul_scalar", [_invoke("_lesser_scalar", [x], scalar=0)],
                                              scalar=onp.pi / 2)], scalar=onp.pi / 4)
    inf_val = _invoke("broadcast_mul", [_invoke("sign", [y]),
                                        _invoke("where", [xinf, corner, _like(x, onp.pi / 2)])])
    res = _invoke("where", [yinf, inf_val, res])
    # NaN in either operand gives NaN (the branch masks above treat NaN as a number).
    isnum = _invoke("broadcast_logical_and", [_invoke("broadcast_equal", [x, x]), _invoke("broadcast_equal", [y, y])])
    res = _invoke("where", [isnum, res, _like(x, float("nan"))])
    return write_out("arctan2", res, out)


def _to_array(a, other, dt):
    if isinstance(a, NDArray):
        return cast(a, dt)
    return _invoke("_plus_scalar", [_invoke("zeros_like", [cast(other, dt)])], scalar=a)


def _like(ref, value):
    return _invoke("_plus_scalar", [_invoke("zeros_like", [ref])], scalar=value)


def copysign(x1, x2, out=None, **kwargs):
    """|x1| with the sign of x2 (x2 == -0.0 counts as positive: the engine has
    no sign-bit op); integer operands give the default float type."""
    _no_kwargs("copysign", kwargs)
    a1, a2, dt = promote("copysign", x1, x2)
    ft = true_divide_dtype(dt)
    mag = _invoke("abs", [_to_array(a1, a2, ft)])
    neg = _invoke("_lesser_scalar", [_to_array(a2, a1, ft)], scalar=0)
    sign = _invoke("_rminus_scalar", [_invoke("_mul_scalar", [neg], scalar=2)], scalar=1)
    return write_out("copysign", _invoke("broadcast_mul", [mag, sign]), out)


def ldexp(x1, x2, out=None, **kwargs):
    """x1 * 2**x2; the result has x1's float type (the default float type for
    integer x1)."""
    _no_kwargs("ldexp", kwargs)
    a1, a2, dt = promote("ldexp", x1, x2)
    ft = true_divide_dtype(dt)
    m = _to_array(a1, a2, ft)
    e = _to_array(a2, a1, ft)
    return write_out("ldexp", _invoke("broadcast_mul", [m, _invoke("_rpower_scalar", [e], scalar=2.0)]), out)


def heaviside(x1, x2, out=None, **kwargs):
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0 (NumPy's heaviside;
    MXNet 1.9.1 sends it to host NumPy)."""
    _no_kwargs("heaviside", kwargs)
    a1, a2, dt = promote("heaviside", x1, x2)
    x = _to_array(a1, a2, dt)
    h0 = _to_array(a2, a1, dt)
    step = _invoke("_greater_scalar", [x], scalar=0)
    at0 = _invoke("_equal_scalar", [x], scalar=0)
    res = _invoke("broadcast_add", [step, _invoke("broadcast_mul", [at0, h0])])
    return write_out("heaviside", res, out)


def lcm(x1, x2, out=None, **kwargs):
    """The least common multiple of |x1| and |x2| (integers only; TypeError else).

    Euclid's algorithm runs vectorised: each round is a few whole-array ops, and
    the rounds stop when every remainder is 0 (at most ~93 rounds for int64,
    the Fibonacci bound), so there is no loop over elements."""
    _no_kwargs("lcm", kwargs)
    a1, a2, dt = promote("lcm", x1, x2)
    if is_float(dt) or is_bool(dt):
        raise DTypeError("lcm: arguments must be integers, got %s" % dt)
    a = _invoke("abs", [_to_array(a1, a2, dt)])
    b = _invoke("abs", [_to_array(a2, a1, dt)])
    if tuple(a.shape) != tuple(b.shape):
        a, b = _invoke("broadcast_like", [a, b]), _invoke("broadcast_like", [b, a])
    x, y = a, b
    for _ in range(200):
        nz = _invoke("_not_equal_scalar", [y], scalar=0)
        if float(_invoke("sum", [nz]).asnumpy()[0]) == 0:
            break
        safe = _invoke("where", [nz, y, _invoke("ones_like", [y])])
        r = _invoke("broadcast_mod", [x, safe])
        x, y = _invoke("where", [nz, y, x]), _invoke("where", [nz, r, y])
    g = x  # gcd; 0 only where both are 0, and lcm(0, 0) is 0
    gsafe = _invoke("where", [_invoke("_equal_scalar", [g], scalar=0), _invoke("ones_like", [g]), g])
    res = _invoke("broadcast_mul", [_invoke("broadcast_div", [a, gsafe]), b])
    return write_out("lcm", res, out)


def equal(x1, x2, out=None, **kwargs):
    """x1 == x2 as a bool array."""
    _no_kwargs("equal", kwargs)
    return _compare("equal", "equal", x1, x2, out)


def not_equal(x1, x2, out=None, **kwargs):
    """x1 != x2 as a bool array."""
    _no_kwargs("not_equal", kwargs)
    return _compare("not_equal", "not_equal", x1, x2, out)


def greater(x1, x2, out=None, **kwargs):
    """x1 > x2 as a bool array."""
    _no_kwargs("greater", kwargs)
    return _compare("greater", "greater", x1, x2, out)


def greater_equal(x1, x2, out=None, **kwargs):
    """x1 >= x2 as a bool array."""
    _no_kwargs("greater_equal", kwargs)
    return _compare("greater_equal", "greater_equal", x1, x2, out)


def less(x1, x2, out=None, **kwargs):
    """x1 < x2 as a bool array."""
    _no_kwargs("less", kwargs)
    return _compare("less", "less", x1, x2, out)


def less_equal(x1, x2, out=None, **kwargs):
    """x1 <= x2 as a bool array."""
    _no_kwargs("less_equal", kwargs)
    return _compare("less_equal", "less_equal", x1, x2, out)


# The bit ops run MXNet 1.9.1's kernels under its names (_npi_bitwise_and, ...
# and their _scalar forms; Note [Bit ops on integers and bools] in
# core/op/elemwise/bitwise_rules.h) on the operands promoted to one integer or
# bool dtype. No gradient: the results are integers.
def _bitwise(fname, x1, x2, out):
    a1, a2, dt = promote(fname, x1, x2)
    if is_float(dt):
        raise DTypeError("%s: not supported for the input types (%s); integers or bools expected" % (fname, dt))
    op = "_npi_" + fname
    return write_out(fname, apply_binary((op, op + "_scalar", op + "_scalar"), a1, a2), out)


def bitwise_and(x1, x2, out=None, **kwargs):
    """x1 & x2 for integer or bool arrays, broadcasting."""
    _no_kwargs("bitwise_and", kwargs)
    return _bitwise("bitwise_and", x1, x2, out)


def bitwise_or(x1, x2, out=None, **kwargs):
    """x1 | x2 for integer or bool arrays, broadcasting."""
    _no_kwargs("bitwise_or", kwargs)
    return _bitwise("bitwise_or", x1, x2, out)


def bitwise_xor(x1, x2, out=None, **kwargs):
    """x1 ^ x2 for integer or bool arrays, broadcasting."""
    _no_kwargs("bitwise_xor", kwargs)
    return _bitwise("bitwise_xor", x1, x2, out)


def _no_bool_pair(fname, x1, x2):
    def isb(v):
        return (isinstance(v, NDArray) and name_of(v) == "bool") or isinstance(v, (bool, onp.bool_))
    if isb(x1) and isb(x2):
        raise DTypeError("%s: numpy boolean subtract is not supported; use logical_xor instead" % fname)
