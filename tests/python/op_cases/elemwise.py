"""Cases for the elementwise families: unary math, binary (same shape, scalar,
broadcast), broadcast_to/like/axis, where, clip and Cast.

References follow Weft's (= MXNet's) arithmetic rules, see Note [Elementwise
arithmetic types] in core/op/elemwise/elemwise_cpu.h: float16 computes in
float32 and rounds once, integers stay integers (division truncates toward
zero, x / 0 and x mod 0 give 0), bool computes as uint8 0/1, comparisons
return 1/0 in the input dtype, ``round`` rounds halves away from zero, and
the scalar of a ``_*_scalar`` op is first converted to the input dtype.
bfloat16 has no NumPy type without ml_dtypes; the C++ tests cover it.
"""
import numpy as np

from .case import Case

F32, F64, F16 = np.float32, np.float64, np.float16
I32, I8, I64, U8, BOOL = np.int32, np.int8, np.int64, np.uint8, np.bool_


def _tol(dtype):
    if dtype == F16:
        return dict(rtol=2e-3, atol=2e-3)
    if dtype == F32:
        return dict(rtol=1e-5, atol=1e-6)
    if dtype == F64:
        return dict(rtol=1e-12, atol=1e-12)
    return dict(rtol=0, atol=0)


def _rand(shape, dtype, low=-3.0, high=3.0, nonzero=False):
    """A generator of one array: uniform floats, or integers in [low, high]."""
    def make(rng):
        if np.issubdtype(np.dtype(dtype), np.integer):
            x = rng.integers(int(low), int(high) + 1, size=shape)
            if nonzero:
                x[x == 0] = 1
            return x.astype(dtype)
        if dtype == BOOL:
            return rng.integers(0, 2, size=shape).astype(BOOL)
        x = rng.uniform(low, high, size=shape)
        if nonzero:
            x[np.abs(x) < 0.25] = 0.5
        return x.astype(dtype)
    return make


def _inputs(*makers):
    return lambda rng: [m(rng) for m in makers]


def _acc(x):
    """NumPy array in Weft's arithmetic type for x's dtype."""
    x = np.asarray(x)
    if x.dtype == F16:
        return x.astype(F32)
    if x.dtype == BOOL:
        return x.astype(U8)
    return x


def _store(r, dtype):
    r = np.asarray(r)
    if dtype == BOOL:
        return r != 0
    if np.issubdtype(np.dtype(dtype), np.integer) and np.issubdtype(r.dtype, np.floating):
        r = np.trunc(r)
    return r.astype(dtype)


# ---- unary --------------------------------------------------------------

def _round_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _relu(x):
    return np.maximum(x, 0)


def _int_reciprocal(x):
    with np.errstate(divide="ignore"):
        return np.where(x == 0, 0, np.where(np.abs(x) == 1, x, 0)).astype(x.dtype)


# name -> (numpy function, (low, high) float domain, integer-safe?)
_UNARY = {
    "abs": (np.abs, (-3, 3), True),
    "negative": (np.negative, (-3, 3), True),
    "exp": (np.exp, (-3, 3), True),
    "log": (np.log, (0.1, 5), True),
    "log1p": (np.log1p, (-0.5, 3), True),
    "expm1": (np.expm1, (-2, 2), True),
    "sqrt": (np.sqrt, (0, 9), True),
    "rsqrt": (lambda x: 1.0 / np.sqrt(x), (0.2, 9), True),
    "square": (np.square, (-3, 3), True),
    "sin": (np.sin, (-3, 3), True),
    "cos": (np.cos, (-3, 3), True),
    "tan": (np.tan, (-1.2, 1.2), True),
    "tanh": (np.tanh, (-3, 3), True),
    "sigmoid": (_sigmoid, (-5, 5), True),
    "relu": (_relu, (-3, 3), True),
    "sign": (np.sign, (-3, 3), True),
    "floor": (np.floor, (-3, 3), True),
    "ceil": (np.ceil, (-3, 3), True),
    "round": (_round_away, (-3, 3), True),
    "reciprocal": (lambda x: 1.0 / x, (-3, 3), True),
    "cbrt": (np.cbrt, (-9, 9), False),  # integer inputs: float32 cbrt truncates (ulps decide)
}

_INT_UNARY_DOMAIN = {"log": (1, 50), "log1p": (0, 50), "sqrt": (0, 50), "rsqrt": (1, 50),
                     "exp": (-3, 8), "expm1": (-3, 8), "reciprocal": (-3, 3)}


def _unary_ref(fn, name):
    def ref(x):
        if np.issubdtype(x.dtype, np.integer):
            if name == "reciprocal":
                return _int_reciprocal(x)
            if name in ("abs", "negative", "square", "sign", "relu", "floor", "ceil", "round"):
                return _store(fn(x.astype(np.int64)), x.dtype)
            # transcendental functions of integers: float32 math, truncated (MXNet's math::)
            return _store(fn(x.astype(F32)), x.dtype)
        return _store(fn(_acc(x)), x.dtype)
    return ref


def _unary_cases(name):
    fn, (lo, hi), int_ok = _UNARY[name]
    nonzero = name == "reciprocal"
    cases = []
    for dt, shape in ((F32, (3, 4)), (F64, (5,)), (F16, (2, 3, 2))):
        cases.append(Case(_inputs(_rand(shape, dt, lo, hi, nonzero)), ref=_unary_ref(fn, name),
                          name="%s-%s" % (name, np.dtype(dt).name), **_tol(dt)))
    if int_ok:
        ilo, ihi = _INT_UNARY_DOMAIN.get(name, (-5, 5))
        cases.append(Case(_inputs(_rand((7,), I32, ilo, ihi)), ref=_unary_ref(fn, name),
                          name="%s-int32" % name, rtol=0, atol=0))
    return cases


# ---- binary (same shape, scalar, broadcast) -----------------------------

def _c_div(a, b):
    """Weft's division: floats IEEE, integers truncate toward zero and x / 0 -> 0."""
    if np.issubdtype(a.dtype, np.integer) or a.dtype == U8:
        a64, b64 = a.astype(np.int64), b.astype(np.int64)
        safe = np.where(b64 == 0, 1, b64)
        q = np.abs(a64) // np.abs(safe) * np.sign(a64) * np.sign(safe)
        return np.where(b64 == 0, 0, q)
    return a / b


def _c_mod(a, b):
    """MXNet's mod: sign of the divisor, x mod 0 -> 0."""
    if np.issubdtype(a.dtype, np.integer):
        a64, b64 = a.astype(np.int64), b.astype(np.int64)
        return np.where(b64 == 0, 0, np.mod(a64, np.where(b64 == 0, 1, b64)))
    safe = np.where(b == 0, 1, b)
    return np.where(b == 0, 0, np.mod(a, safe))


def _c_pow(a, b):
    if np.issubdtype(a.dtype, np.integer):
        return np.power(a.astype(F64), b.astype(F64))
    return np.power(a, b)


_BINARY = {  # kind -> reference on arithmetic-typed arrays
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _c_div, "pow": _c_pow,
    "max": np.maximum, "min": np.minimum, "mod": _c_mod,
    "eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
    "lt": np.less, "le": np.less_equal,
}
_CMP = {"eq", "ne", "gt", "ge", "lt", "le"}


def _binary_ref(kind):
    fn = _BINARY[kind]

    def ref(a, b):
        dt = a.dtype
        r = fn(_acc(a), _acc(b))
        if kind in _CMP:
            return np.asarray(r).astype(dt)
        return _store(r, dt)
    return ref


def _binary_inputs(kind, lshape, rshape, dt):
    if kind == "pow":
        if np.issubdtype(np.dtype(dt), np.integer):
            return _inputs(_rand(lshape, dt, 0, 5), _rand(rshape, dt, 0, 3))
        return _inputs(_rand(lshape, dt, 0.5, 2.5), _rand(rshape, dt, -2, 2))
    nonzero = kind in ("div", "mod")
    if kind in _CMP and np.issubdtype(np.dtype(dt), np.integer):
        return _inputs(_rand(lshape, dt, -2, 2), _rand(rshape, dt, -2, 2))  # many ties
    return _inputs(_rand(lshape, dt), _rand(rshape, dt, nonzero=nonzero))


def _binary_cases(name, kind, shapes, dtypes):
    cases = []
    for dt in dtypes:
        for ls, rs in shapes:
            cases.append(Case(_binary_inputs(kind, ls, rs, dt), ref=_binary_ref(kind),
                              name="%s-%s-%s-%s" % (name, np.dtype(dt).name, ls, rs), **_tol(dt)))
    if kind in _CMP:
        for dt in (U8, BOOL):
            ls, rs = shapes[-1]
            cases.append(Case(_inputs(_rand(ls, dt, 0, 3), _rand(rs, dt, 0, 3)), ref=_binary_ref(kind),
                              name="%s-%s" % (name, np.dtype(dt).name), rtol=0, atol=0))
    return cases


_ELEMWISE_BINARY = {
    "elemwise_add": "add", "elemwise_sub": "sub", "elemwise_mul": "mul", "elemwise_div": "div",
    "_power": "pow", "_maximum": "max", "_minimum": "min", "_mod": "mod",
    "_equal": "eq", "_not_equal": "ne", "_greater": "gt", "_greater_equal": "ge",
    "_lesser": "lt", "_lesser_equal": "le",
}
_SAME_SHAPES = [((3, 4), (3, 4)), ((2, 3, 5), (2, 3, 5))]
_DTYPES = (F32, F64, F16, I32)

_BROADCAST = {
    "broadcast_add": "add", "broadcast_sub": "sub", "broadcast_mul": "mul", "broadcast_div": "div",
    "broadcast_power": "pow", "broadcast_maximum": "max", "broadcast_minimum": "min",
    "broadcast_mod": "mod", "broadcast_equal": "eq", "broadcast_not_equal": "ne",
    "broadcast_greater": "gt", "broadcast_greater_equal": "ge", "broadcast_lesser": "lt",
    "broadcast_lesser_equal": "le",
}
_BCAST_SHAPES = [((2, 3, 4), (3, 1)), ((1,), (2, 3)), ((4, 1, 5), (1, 3, 1)), ((5, 1), (1, 7)),
                 ((3, 4), (3, 4)), ((2, 1, 3), (3,))]

# name -> (kind, scalar on the left)
_SCALAR = {
    "_plus_scalar": ("add", False), "_minus_scalar": ("sub", False), "_rminus_scalar": ("sub", True),
    "_mul_scalar": ("mul", False), "_div_scalar": ("div", False), "_rdiv_scalar": ("div", True),
    "_power_scalar": ("pow", False), "_rpower_scalar": ("pow", True),
    "_maximum_scalar": ("max", False), "_minimum_scalar": ("min", False),
    "_mod_scalar": ("mod", False), "_rmod_scalar": ("mod", True),
    "_equal_scalar": ("eq", False), "_not_equal_scalar": ("ne", False),
    "_greater_scalar": ("gt", False), "_greater_equal_scalar": ("ge", False),
    "_lesser_scalar": ("lt", False), "_lesser_equal_scalar": ("le", False),
}


def _scalar_ref(kind, left, scalar):
    bref = _binary_ref(kind)

    def ref(x):
        s = _store(np.full(x.shape, scalar, dtype=F64), x.dtype)  # DType(scalar)
        return bref(s, x) if left else bref(x, s)
    return ref


def _scalar_cases(name):
    kind, left = _SCALAR[name]
    cases = []
    for dt in (F32, F64, F16, I32):
        is_int = np.issubdtype(np.dtype(dt), np.integer)
        if kind == "pow":
            scalar = 2.0 if not left else 1.5
            lo, hi = (0, 4) if is_int else (0.5, 2.5)
            if is_int and left:
                scalar = 3.0
        elif kind in ("div", "mod"):
            scalar = 2.5 if not is_int else 3.0
            lo, hi = (-6, 6) if is_int else (-3, 3)
        elif kind in _CMP:
            scalar = 1.0 if is_int else 0.25
            lo, hi = (-2, 2) if is_int else (-1, 1)
        else:
            scalar = 1.5
            lo, hi = (-6, 6) if is_int else (-3, 3)
        attrs = {"scalar": scalar}
        cases.append(Case(_inputs(_rand((3, 5), dt, lo, hi, nonzero=(left and kind in ("div", "mod")))),
                          attrs=attrs, ref=_scalar_ref(kind, left, scalar),
                          name="%s-%s" % (name, np.dtype(dt).name), **_tol(dt)))
    # The scalar is converted to the input dtype first: int32 * 2.7 multiplies by 2.
    cases.append(Case(_inputs(_rand((4,), I32, -5, 5, nonzero=True)), attrs={"scalar": 2.7, "is_int": False},
                      ref=_scalar_ref(kind, left, 2.7), name="%s-int32-truncated-scalar" % name, rtol=0, atol=0))
    return cases


# ---- hand-written edge cases --------------------------------------------

_EDGE = {
    "elemwise_div": [Case([np.array([5, -7, 7, -7, 0], I32), np.array([0, 2, -2, -2, 0], I32)],
                          ref=lambda a, b: np.array([0, -3, -3, 3, 0], I32), rtol=0, atol=0,
                          name="elemwise_div-int32-by-zero")],
    "_mod": [Case([np.array([5, -7, 7, -7, 3], I32), np.array([0, 2, -2, -2, 3], I32)],
                  ref=lambda a, b: np.array([0, 1, -1, -1, 0], I32), rtol=0, atol=0, name="_mod-int32-by-zero"),
             Case([np.array([5.5, -5.5, 5.5], F32), np.array([0.0, 2.0, -2.0], F32)],
                  ref=lambda a, b: np.array([0.0, 0.5, -0.5], F32), name="_mod-float-by-zero")],
    "elemwise_add": [Case([np.array([0, 0, 1, 1], BOOL), np.array([0, 1, 0, 1], BOOL)],
                          ref=lambda a, b: np.array([0, 1, 1, 1], BOOL), rtol=0, atol=0, name="elemwise_add-bool"),
                     Case([np.array([250, 3], U8), np.array([10, 4], U8)],
                          ref=lambda a, b: np.array([4, 7], U8), rtol=0, atol=0, name="elemwise_add-uint8-wraps")],
    "round": [Case([np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], F32)],
                   ref=lambda x: np.array([-3, -2, -1, 1, 2, 3], F32), name="round-halves-away-from-zero")],
    "reciprocal": [Case([np.array([0, 1, -1, 2], I32)], ref=lambda x: np.array([0, 1, -1, 0], I32),
                        rtol=0, atol=0, name="reciprocal-int32-zero")],
}


# ---- broadcast_to / like / axis, where, clip, Cast -----------------------

def _broadcast_to_ref(shape):
    def ref(x):
        target = tuple(x.shape[i] if s == 0 else s for i, s in enumerate(shape))
        return np.broadcast_to(x, target).copy()
    return ref


def _broadcast_axis_ref(axis, size):
    def ref(x):
        axes = axis if isinstance(axis, tuple) else (axis,)
        sizes = size if isinstance(size, tuple) else (size,)
        target = list(x.shape)
        for a, s in zip(axes, sizes):
            target[a] = s
        return np.broadcast_to(x, tuple(target)).copy()
    return ref


def _broadcast_like_axes_ref(lhs_axes, rhs_axes):
    def ref(a, b):
        target = list(a.shape)
        for la, ra in zip(lhs_axes, rhs_axes):
            target[la] = b.shape[ra]
        return np.broadcast_to(a, tuple(target)).copy()
    return ref


def _cast_ref(dtype):
    def ref(x):
        if dtype == "bool":
            return x != 0
        return _store(x, np.dtype(dtype))
    return ref


def _cast_cases():
    cases = []
    src = {"float32": F32, "float64": F64, "float16": F16, "int32": I32, "int8": I8, "int64": I64,
           "uint8": U8, "bool": BOOL}
    for sname, sdt in src.items():
        for dname in src:
            lo, hi = (0, 100) if sdt != BOOL else (0, 1)
            cases.append(Case(_inputs(_rand((2, 5), sdt, lo, hi)), attrs={"dtype": dname}, ref=_cast_ref(dname),
                              name="Cast-%s-%s" % (sname, dname), rtol=1e-3 if "float16" in (sname, dname) else 0,
                              atol=0))
    cases.append(Case([np.array([0.9, 1.3, -2.7, 300.0, -1.0], F32)], attrs={"dtype": "int32"},
                      ref=lambda x: np.array([0, 1, -2, 300, -1], I32), rtol=0, atol=0, name="Cast-truncates"))
    cases.append(Case([np.array([300.0, 11.1, 10.9, -1.0, -3.0], F32)], attrs={"dtype": "uint8"},
                      ref=lambda x: np.array([44, 11, 10, 255, 253], U8), rtol=0, atol=0, name="Cast-uint8-wraps"))
    cases.append(Case([np.array([0.1, 65520.0, 1.0 + 2.0 ** -11], F32)], attrs={"dtype": "float16"},
                      ref=lambda x: np.array([0.1, np.inf, 1.0], F16), rtol=0, atol=0, name="Cast-float16-rounding"))
    return cases


def _where_ref(c, x, y):
    if c.shape != x.shape:
        c = c.reshape((-1,) + (1,) * (x.ndim - 1))
    return np.where(c != 0, x, y)


def _clip_ref(a_min, a_max):
    def ref(x):
        lo, hi = _store(np.array(a_min), x.dtype), _store(np.array(a_max), x.dtype)
        a = _acc(x)
        return _store(np.where(a > hi, hi, np.where(a < lo, lo, a)), x.dtype)
    return ref


CASES = {}
for _name in _UNARY:
    CASES[_name] = _unary_cases(_name)
for _name, _kind in _ELEMWISE_BINARY.items():
    CASES[_name] = _binary_cases(_name, _kind, _SAME_SHAPES, _DTYPES)
for _name, _kind in _BROADCAST.items():
    CASES[_name] = _binary_cases(_name, _kind, _BCAST_SHAPES[:3] if _kind in _CMP else _BCAST_SHAPES,
                                 _DTYPES if _kind in ("add", "div", "mod", "gt") else (F32, F16, I32))
for _name in _SCALAR:
    CASES[_name] = _scalar_cases(_name)
for _name, _extra in _EDGE.items():
    CASES[_name] = CASES[_name] + _extra

CASES["broadcast_to"] = [
    Case(_inputs(_rand((1, 3), F32)), attrs={"shape": (2, 3)}, ref=_broadcast_to_ref((2, 3)), name="broadcast_to-row"),
    Case(_inputs(_rand((4, 1, 2), I32)), attrs={"shape": (0, 5, 0)}, ref=_broadcast_to_ref((0, 5, 0)),
         rtol=0, atol=0, name="broadcast_to-zero-keeps"),
    Case(_inputs(_rand((1, 1), F16)), attrs={"shape": (3, 2)}, ref=_broadcast_to_ref((3, 2)), name="broadcast_to-f16"),
]
CASES["broadcast_axis"] = [
    Case(_inputs(_rand((1, 2, 1), F32)), attrs={"axis": 2, "size": 3}, ref=_broadcast_axis_ref(2, 3),
         name="broadcast_axis-one"),
    Case(_inputs(_rand((1, 2, 1), F64)), attrs={"axis": (0, 2), "size": (2, 3)}, ref=_broadcast_axis_ref((0, 2), (2, 3)),
         name="broadcast_axis-two"),
    Case(_inputs(_rand((3, 1), U8, 0, 9)), attrs={"axis": (-1,), "size": (4,)}, ref=_broadcast_axis_ref((1,), (4,)),
         rtol=0, atol=0, name="broadcast_axis-negative-axis"),
]
CASES["broadcast_like"] = [
    Case(_inputs(_rand((1, 3), F32), _rand((4, 3), F32)), ref=lambda a, b: np.broadcast_to(a, b.shape).copy(),
         name="broadcast_like-rows"),
    Case(_inputs(_rand((2, 1, 1), I32), _rand((2, 3, 4), I32)), ref=lambda a, b: np.broadcast_to(a, b.shape).copy(),
         rtol=0, atol=0, name="broadcast_like-int32"),
    Case(_inputs(_rand((1,), F32), _rand((2, 5), F32)), attrs={"lhs_axes": (0,), "rhs_axes": (-1,)},
         ref=_broadcast_like_axes_ref((0,), (-1,)), name="broadcast_like-axes"),
]
CASES["where"] = [
    Case(_inputs(_rand((3, 4), F32, -1, 1), _rand((3, 4), F32), _rand((3, 4), F32)), ref=_where_ref,
         name="where-same-shape"),
    Case(_inputs(_rand((3,), I32, 0, 1), _rand((3, 2, 2), F64), _rand((3, 2, 2), F64)), ref=_where_ref,
         name="where-1d-condition"),
    Case(_inputs(_rand((2, 3), BOOL), _rand((2, 3), I32), _rand((2, 3), I32)), ref=_where_ref, rtol=0, atol=0,
         name="where-bool-condition-int32"),
    Case(_inputs(_rand((5,), U8, 0, 2), _rand((5,), F16), _rand((5,), F16)), ref=_where_ref, rtol=0, atol=0,
         name="where-float16"),
]
CASES["clip"] = [
    Case(_inputs(_rand((4, 5), F32)), attrs={"a_min": -1.0, "a_max": 1.5}, ref=_clip_ref(-1.0, 1.5), name="clip-f32"),
    Case(_inputs(_rand((10,), F16)), attrs={"a_min": 0.0, "a_max": 1.0}, ref=_clip_ref(0.0, 1.0), **_tol(F16),
         name="clip-f16"),
    Case(_inputs(_rand((10,), I32, -9, 9)), attrs={"a_min": -2.5, "a_max": 4.0}, ref=_clip_ref(-2.5, 4.0),
         rtol=0, atol=0, name="clip-int32-bounds-truncate"),
    Case(_inputs(_rand((6,), F64)), attrs={"a_min": -0.5, "a_max": 0.5}, ref=_clip_ref(-0.5, 0.5), name="clip-f64"),
]
CASES["Cast"] = _cast_cases()
