"""Cases for issue 17's elementwise operators: the inverse trig and hyperbolic
functions, erf/erfinv, gamma/gammaln (and their gradient ops), rcbrt, log2,
log10, degrees/radians, softsign, rint/fix/trunc, logical_not and the binary
logical ops, hypot, hard_sigmoid, and the contrib pointwise ops (isnan/isinf/
isfinite, div_sqrt_dim, round_ste/sign_ste, gradientmultiplier, quadratic).

References are MXNet's documented formulas through NumPy/SciPy, with Weft's (=
MXNet's) arithmetic rules (tests/python/op_cases/elemwise.py): float16
computes in float32 and rounds once, integers stay integers, logical results
and class tests are 1/0 in the input dtype, and MXNet's ``rint`` sends halves
to the floor (``rint(1.5) = 1``, ``rint(-1.5) = -2``).
"""
import numpy as np
from scipy import special

from .case import Case
from .elemwise import BOOL, F16, F32, F64, I32, U8, _acc, _inputs, _rand, _store, _tol
from .nn_act import softmax_length_cases, softmax_length_grad_cases

_SQRT_PI = np.sqrt(np.pi)


def _float_ref(fn):
    def ref(*xs):
        dt = xs[0].dtype
        return _store(fn(*[_acc(x) for x in xs]), dt)
    return ref


def _mx_rint(x):
    f, c = np.floor(x), np.ceil(x)
    return np.where(x - f <= c - x, f, c)


def _softsign(x):
    return x / (1 + np.abs(x))


# name -> (reference on the arithmetic type, (low, high), float tolerance override)
_MATH = {
    "arcsin": (np.arcsin, (-0.9, 0.9)),
    "arccos": (np.arccos, (-0.9, 0.9)),
    "arctan": (np.arctan, (-3, 3)),
    "sinh": (np.sinh, (-3, 3)),
    "cosh": (np.cosh, (-3, 3)),
    "arcsinh": (np.arcsinh, (-3, 3)),
    "arccosh": (np.arccosh, (1.1, 5)),
    "arctanh": (np.arctanh, (-0.9, 0.9)),
    "erf": (special.erf, (-2, 2)),
    "erfinv": (special.erfinv, (-0.95, 0.95)),
    "gamma": (special.gamma, (0.2, 5)),
    "gammaln": (special.gammaln, (0.2, 8)),
    "rcbrt": (lambda x: 1.0 / np.cbrt(x), (0.3, 9)),
    "log2": (np.log2, (0.1, 9)),
    "log10": (np.log10, (0.1, 9)),
    "degrees": (np.degrees, (-3, 3)),
    "radians": (np.radians, (-180, 180)),
    "softsign": (_softsign, (-3, 3)),
}


def _math_cases(name):
    fn, (lo, hi) = _MATH[name]
    cases = []
    for dt, shape in ((F32, (3, 4)), (F64, (5,)), (F16, (2, 3, 2))):
        tol = _tol(dt)
        if name in ("gamma", "gammaln", "erfinv") and dt == F32:
            tol = dict(rtol=1e-5, atol=1e-5)
        cases.append(Case(_inputs(_rand(shape, dt, lo, hi)), ref=_float_ref(fn),
                          name="%s-%s" % (name, np.dtype(dt).name), **tol))
    return cases


_EXACT = {  # name -> reference (floats); integers are unchanged
    "rint": _mx_rint,
    "fix": np.fix,
    "trunc": np.trunc,
}


def _exact_cases(name):
    fn = _EXACT[name]
    cases = [Case(_inputs(_rand(shape, dt, -3, 3)), ref=_float_ref(fn), name="%s-%s" % (name, np.dtype(dt).name),
                  **_tol(dt)) for dt, shape in ((F32, (3, 4)), (F64, (5,)), (F16, (6,)))]
    cases.append(Case(_inputs(_rand((7,), I32, -100, 100)), ref=lambda x: x.copy(), rtol=0, atol=0,
                      name="%s-int32-unchanged" % name))
    halves = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -1.9, 1.9, 2.1], F32)
    cases.append(Case([halves], ref=lambda x: fn(x).astype(F32), rtol=0, atol=0, name="%s-halves" % name))
    return cases


CASES = {}
for _name in _MATH:
    CASES[_name] = _math_cases(_name)
for _name in _EXACT:
    CASES[_name] = _exact_cases(_name)

# MXNet's documented examples
CASES["rint"].append(Case([np.array([-1.5, 1.5, -1.9, 1.9, 2.1], F32)],
                          ref=lambda x: np.array([-2., 1., -2., 2., 2.], F32), rtol=0, atol=0, name="rint-doc"))
CASES["fix"].append(Case([np.array([-2.1, -1.9, 1.9, 2.1], F32)],
                         ref=lambda x: np.array([-2., -1., 1., 2.], F32), rtol=0, atol=0, name="fix-doc"))
CASES["erfinv"].append(Case([np.array([0.0, 0.5, -1.0, 1.0, 0.999999, -0.9999999999, 1.5], F64)],
                            ref=special.erfinv, rtol=1e-11, atol=0, name="erfinv-edges-f64"))
CASES["erfinv"].append(Case([np.array([0.99999, -0.999, 1e-6, -0.3], F32)], ref=_float_ref(special.erfinv),
                            rtol=2e-5, atol=0, name="erfinv-tails-f32"))
CASES["gamma"].append(Case([np.array([-2.5, -0.5, 0.5, 3.7, 1.0, 6.0, 10.3], F64)], ref=special.gamma,
                           rtol=1e-12, atol=0, name="gamma-negative-and-integers"))
CASES["gammaln"].append(Case([np.array([-2.5, -0.5, 0.5, 1.0, 2.0, 30.5, 120.0], F64)], ref=special.gammaln,
                             rtol=1e-12, atol=1e-13, name="gammaln-negative-and-large"))


# ---- gamma gradients: (out_grad, data) ----------------------------------

def _gamma_grad(g, x):
    return g * special.gamma(x) * special.digamma(x)


def _gammaln_grad(g, x):
    return g * special.digamma(x)


for _name, _fn in (("_backward_gamma", _gamma_grad), ("_backward_gammaln", _gammaln_grad)):
    CASES[_name] = [
        Case(_inputs(_rand((3, 4), F64), _rand((3, 4), F64, 0.1, 6)), ref=_fn, rtol=1e-11, atol=1e-12,
             name="%s-f64" % _name),
        Case(_inputs(_rand((6,), F32), _rand((6,), F32, 0.3, 5)), ref=_float_ref(_fn), rtol=2e-5, atol=1e-5,
             name="%s-f32" % _name),
        Case([np.ones(6, F64), np.array([-2.5, -0.5, 0.5, 1.0, 25.0, 1e-3], F64)], ref=_fn, rtol=1e-11,
             atol=1e-12, name="%s-reflection-and-large" % _name),
    ]


# ---- logical_not and the contrib class tests (1/0 in the input dtype) -----

def _zeros_and_values(shape, dt):
    def make(rng):
        v = rng.choice(np.array([0, 0, 1, -2, 3]), size=shape)
        if dt == BOOL:
            return v != 0
        if np.issubdtype(np.dtype(dt), np.floating):
            v = v * 0.75
        return v.astype(dt)
    return make


def _nonfinite(dt):
    return [np.array([np.nan, np.inf, -np.inf, 0.0, -1.5, 3.0, np.nan], dt)]


def _class_ref(fn):
    def ref(x):
        if np.issubdtype(x.dtype, np.floating):
            return fn(x).astype(x.dtype)
        return fn(x.astype(F64)).astype(x.dtype)
    return ref


CASES["logical_not"] = [
    Case(_inputs(_zeros_and_values(shape, dt)), ref=lambda x: (x == 0).astype(x.dtype), rtol=0, atol=0,
         name="logical_not-%s" % np.dtype(dt).name)
    for dt, shape in ((F32, (3, 4)), (F64, (5,)), (F16, (6,)), (I32, (7,)), (U8, (4,)), (BOOL, (5,)))]
CASES["logical_not"].append(Case([np.array([-2., 0., 1.], F32)], ref=lambda x: np.array([0., 1., 0.], F32),
                                 rtol=0, atol=0, name="logical_not-doc"))

for _name, _fn in (("_contrib_isnan", np.isnan), ("_contrib_isinf", np.isinf), ("_contrib_isfinite", np.isfinite)):
    CASES[_name] = [Case(_nonfinite(dt), ref=_class_ref(_fn), rtol=0, atol=0, name="%s-%s" % (_name, np.dtype(dt).name))
                    for dt in (F32, F64, F16)]
    CASES[_name].append(Case(_inputs(_rand((5,), I32, -9, 9)), ref=_class_ref(_fn), rtol=0, atol=0,
                             name="%s-int32" % _name))


# ---- binary logical ops and hypot ------------------------------------------

def _logical_ref(fn):
    def ref(a, b):
        return fn(_acc(a) != 0, _acc(b) != 0).astype(a.dtype)
    return ref


_LOGICAL = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}


def _hypot_ref(a, b):
    dt = a.dtype
    if np.issubdtype(dt, np.integer):
        return _store(np.hypot(a.astype(F32), b.astype(F32)), dt)
    return _store(np.hypot(_acc(a), _acc(b)), dt)


def _two(maker, lshape, rshape, dt):
    return lambda rng: [maker(lshape, dt)(rng), maker(rshape, dt)(rng)]


for _w, _fn in _LOGICAL.items():
    CASES["_logical_" + _w] = [
        Case(_two(_zeros_and_values, (3, 4), (3, 4), dt), ref=_logical_ref(_fn), rtol=0, atol=0,
             name="_logical_%s-%s" % (_w, np.dtype(dt).name)) for dt in (F32, F64, F16, I32, BOOL)]
    CASES["broadcast_logical_" + _w] = [
        Case(_two(_zeros_and_values, ls, rs, dt), ref=_logical_ref(_fn), rtol=0, atol=0,
             name="broadcast_logical_%s-%s-%s-%s" % (_w, np.dtype(dt).name, ls, rs))
        for dt in (F32, I32, BOOL) for ls, rs in (((2, 3, 4), (3, 1)), ((4, 1), (1, 5)), ((3,), (3,)))]

    def _scalar_ref(fn, s):
        def ref(x):
            return fn(_acc(x) != 0, np.full(x.shape, _store(np.array(s), x.dtype) != 0)).astype(x.dtype)
        return ref
    CASES["_logical_%s_scalar" % _w] = [
        Case(_inputs(_zeros_and_values((3, 5), dt)), attrs={"scalar": s}, ref=_scalar_ref(_fn, s), rtol=0, atol=0,
             name="_logical_%s_scalar-%s-%g" % (_w, np.dtype(dt).name, s))
        for dt in (F32, I32) for s in (0.0, 2.0, 0.5)]  # int32: 0.5 converts to 0 first

CASES["_hypot"] = [Case(_inputs(_rand((3, 4), dt), _rand((3, 4), dt)), ref=_hypot_ref, name="_hypot-%s" % np.dtype(dt).name,
                        **_tol(dt)) for dt in (F32, F64, F16)]
CASES["_hypot"].append(Case([np.array([3, -5, 0, 8, 1], I32), np.array([4, 12, -7, 15, 1], I32)], ref=_hypot_ref,
                            rtol=0, atol=0, name="_hypot-int32"))
CASES["broadcast_hypot"] = [
    Case(_inputs(_rand(ls, dt), _rand(rs, dt)), ref=_hypot_ref, name="broadcast_hypot-%s-%s-%s" % (np.dtype(dt).name, ls, rs),
         **_tol(dt))
    for dt in (F32, F64, F16) for ls, rs in (((2, 3, 4), (3, 1)), ((1,), (2, 3)), ((5, 1), (1, 7)))]
CASES["_hypot_scalar"] = [
    Case(_inputs(_rand((3, 5), dt)), attrs={"scalar": 1.5},
         ref=lambda x: _hypot_ref(x, np.full(x.shape, _store(np.array(1.5), x.dtype))),
         name="_hypot_scalar-%s" % np.dtype(dt).name, **_tol(dt)) for dt in (F32, F64, F16)]


# ---- hard_sigmoid, quadratic, div_sqrt_dim, the straight-through estimators ----

def _hard_sigmoid(alpha=0.2, beta=0.5):
    return _float_ref(lambda x: np.clip(alpha * x + beta, 0, 1))


CASES["hard_sigmoid"] = [
    Case(_inputs(_rand((4, 5), F32, -4, 4)), ref=_hard_sigmoid(), name="hard_sigmoid-defaults"),
    Case(_inputs(_rand((7,), F64, -4, 4)), attrs={"alpha": 0.3, "beta": 0.4}, ref=_hard_sigmoid(0.3, 0.4),
         name="hard_sigmoid-alpha-beta", **_tol(F64)),
    Case(_inputs(_rand((2, 3), F16, -4, 4)), ref=_hard_sigmoid(), name="hard_sigmoid-f16", **_tol(F16)),
]


def _quadratic(a=0.0, b=0.0, c=0.0):
    return _float_ref(lambda x: a * x * x + b * x + c)


CASES["_contrib_quadratic"] = [
    Case([np.array([[1, 2], [3, 4]], F32)], attrs={"a": 1, "b": 2, "c": 3},
         ref=lambda x: np.array([[6, 11], [18, 27]], F32), name="quadratic-doc"),
    Case(_inputs(_rand((3, 4), F64)), attrs={"a": -0.5, "b": 1.25, "c": 2.0}, ref=_quadratic(-0.5, 1.25, 2.0),
         name="quadratic-f64", **_tol(F64)),
    Case(_inputs(_rand((5,), F32)), ref=_quadratic(), name="quadratic-defaults-zero"),
    Case(_inputs(_rand((2, 3), F16)), attrs={"a": 0.5, "b": -1, "c": 0.25}, ref=_quadratic(0.5, -1, 0.25),
         name="quadratic-f16", **_tol(F16)),
]
CASES["_contrib_backward_quadratic"] = [
    Case(_inputs(_rand((3, 4), dt), _rand((3, 4), dt)), attrs={"a": 1.5, "b": -0.5, "c": 7.0},
         ref=_float_ref(lambda g, x: g * (2 * 1.5 * x - 0.5)), name="backward_quadratic-%s" % np.dtype(dt).name,
         **_tol(dt)) for dt in (F32, F64)]

CASES["_contrib_div_sqrt_dim"] = [
    Case(_inputs(_rand(shape, dt)), ref=_float_ref(lambda x: x / np.sqrt(x.shape[-1])),
         name="div_sqrt_dim-%s-%s" % (np.dtype(dt).name, shape), **_tol(dt))
    for dt, shape in ((F32, (2, 3, 16)), (F64, (4, 9)), (F16, (5,)))]

CASES["_contrib_round_ste"] = [
    Case([np.array([-1.5, 1.5, -1.9, 1.9, 2.7], F32)], ref=lambda x: np.array([-2., 2., -2., 2., 3.], F32),
         rtol=0, atol=0, name="round_ste-doc"),
    Case(_inputs(_rand((3, 4), F64)), ref=lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), name="round_ste-f64"),
]
CASES["_contrib_sign_ste"] = [
    Case([np.array([-2, 0, 3], F32)], ref=lambda x: np.array([-1., 0., 1.], F32), rtol=0, atol=0, name="sign_ste-doc"),
    Case(_inputs(_rand((7,), I32, -3, 3)), ref=np.sign, rtol=0, atol=0, name="sign_ste-int32"),
]

CASES["_contrib_gradientmultiplier"] = [
    Case(_inputs(_rand((3, 4), F32)), attrs={"scalar": -2.0}, ref=lambda x: x.copy(), rtol=0, atol=0,
         name="gradientmultiplier-identity"),
    Case(_inputs(_rand((5,), I32, -9, 9)), attrs={"scalar": 0.5}, ref=lambda x: x.copy(), rtol=0, atol=0,
         name="gradientmultiplier-int32"),
]
CASES["_contrib_backward_gradientmultiplier"] = [
    Case(_inputs(_rand((3, 4), F32)), attrs={"scalar": -2.0}, ref=lambda g: g * F32(-2.0),
         name="backward_gradientmultiplier-f32"),
    Case(_inputs(_rand((6,), F64)), attrs={"scalar": 0.25}, ref=lambda g: g * 0.25, name="backward_gradientmultiplier-f64",
         **_tol(F64)),
]


# ---- softmin: softmax(-x / temperature) along axis --------------------------

def _softmin_ref(axis=-1, t=1.0, dtype=None):
    def ref(x):
        z = -x.astype(F64) / t
        z = z - z.max(axis=axis, keepdims=True)
        e = np.exp(z)
        return (e / e.sum(axis=axis, keepdims=True)).astype(dtype or x.dtype)
    return ref


def _softmin_grad_inputs(shape, axis, t):
    def make(rng):
        x = rng.uniform(-2, 2, size=shape)
        return [rng.uniform(-1, 1, size=shape), _softmin_ref(axis, t)(x)]
    return make


def _softmin_grad_ref(axis, t):
    def ref(g, y):  # d softmax(-x / t): -(1 / t) y (g - sum(g y))
        return -(1.0 / t) * y * (g - (g * y).sum(axis=axis, keepdims=True))
    return ref


CASES["softmin"] = [
    Case(_inputs(_rand((3, 5), F32)), ref=_softmin_ref(), name="softmin-last-axis"),
    Case(_inputs(_rand((2, 3, 4), F32)), attrs={"axis": 1}, ref=_softmin_ref(1), name="softmin-axis1"),
    Case(_inputs(_rand((2, 3, 4), F64)), attrs={"axis": 0, "temperature": 2.5}, ref=_softmin_ref(0, 2.5),
         name="softmin-temperature-f64", **_tol(F64)),
    Case(_inputs(_rand((2, 6), F32)), attrs={"dtype": "float64"}, ref=_softmin_ref(dtype=F64), name="softmin-dtype"),
    Case(_inputs(_rand((3, 8), F16)), ref=_softmin_ref(), name="softmin-f16", rtol=5e-3, atol=5e-3),
    Case(_inputs(_rand((2, 4), F32, -80, 80)), ref=_softmin_ref(), name="softmin-large-values", rtol=1e-5, atol=1e-6),
    Case([np.array([[1., 2., 3.], [3., 2., 1.]], F32)], attrs={"axis": 0},
         ref=lambda x: np.array([[0.88079703, 0.5, 0.11920292], [0.11920292, 0.5, 0.88079703]], F32), name="softmin-doc"),
]
CASES["softmin"] += softmax_length_cases(False, sign=-1.0)  # softmin(x, t) = softmax(x, -t)
CASES["_backward_softmin"] = [
    Case(_softmin_grad_inputs((3, 5), -1, 1.0), ref=_softmin_grad_ref(-1, 1.0), name="backward_softmin", **_tol(F64)),
    Case(_softmin_grad_inputs((2, 3, 4), 1, 2.0), attrs={"axis": 1, "temperature": 2.0}, ref=_softmin_grad_ref(1, 2.0),
         name="backward_softmin-axis-temperature", **_tol(F64)),
]
CASES["_backward_softmin"] += softmax_length_grad_cases(False, sign=-1.0)


# ---- _np_cumsum (cumsum) ------------------------------------------------------

def _cumsum_ref(axis=None, dtype=None):
    def ref(a):
        out_dt = np.dtype(dtype) if dtype else (np.dtype(np.int64) if a.dtype == BOOL else a.dtype)
        acc = F32 if out_dt == F16 else out_dt
        return np.cumsum(a.astype(out_dt).astype(acc), axis=axis).astype(out_dt)
    return ref


def _cumsum_grad_ref(axis=None):
    def ref(g, a):
        flat = g.reshape(-1) if axis is None else g
        ax = 0 if axis is None else axis
        r = np.flip(np.cumsum(np.flip(flat, ax), axis=ax), ax)
        return r.reshape(a.shape).astype(a.dtype)
    return ref


CASES["_np_cumsum"] = [
    Case([np.array([[1, 2, 3], [4, 5, 6]], F32)], ref=_cumsum_ref(), rtol=0, atol=0, name="cumsum-doc-flat"),
    Case([np.array([[1, 2, 3], [4, 5, 6]], F32)], attrs={"axis": 0}, ref=_cumsum_ref(0), rtol=0, atol=0,
         name="cumsum-doc-axis0"),
    Case(_inputs(_rand((2, 3, 4), F64)), attrs={"axis": 1}, ref=_cumsum_ref(1), name="cumsum-axis1-f64", **_tol(F64)),
    Case(_inputs(_rand((3, 5), F32)), attrs={"axis": -1}, ref=_cumsum_ref(-1), name="cumsum-negative-axis"),
    Case(_inputs(_rand((4, 3), I32, -9, 9)), attrs={"axis": 0}, ref=_cumsum_ref(0), rtol=0, atol=0,
         name="cumsum-int32"),
    Case(_inputs(_rand((2, 5), I32, -9, 9)), attrs={"axis": 1, "dtype": "float64"}, ref=_cumsum_ref(1, "float64"),
         name="cumsum-dtype-float64", **_tol(F64)),
    Case(_inputs(_rand((6,), BOOL)), ref=_cumsum_ref(), rtol=0, atol=0, name="cumsum-bool-gives-int64"),
    Case(_inputs(_rand((3, 4), F16)), attrs={"axis": 1}, ref=_cumsum_ref(1), name="cumsum-f16", **_tol(F16)),
]
CASES["_backward_np_cumsum"] = [
    Case(_inputs(_rand((2, 3, 4), F64), _rand((2, 3, 4), F64)), attrs={"axis": 1}, ref=_cumsum_grad_ref(1),
         name="backward_cumsum-axis1", **_tol(F64)),
    Case(_inputs(_rand((12,), F32), _rand((3, 4), F32)), ref=_cumsum_grad_ref(), name="backward_cumsum-flat"),
    Case(_inputs(_rand((2, 5), F64), _rand((2, 5), F32)), attrs={"axis": 1, "dtype": "float64"},
         ref=_cumsum_grad_ref(1), name="backward_cumsum-dtype-back-to-input", rtol=1e-6, atol=1e-6),
]


# ---- moments ------------------------------------------------------------------

def _moments_ref(axes=None, keepdims=False):
    def ref(x):
        ax = tuple(axes) if axes is not None else None
        x64 = x.astype(F64)
        m = x64.mean(axis=ax, keepdims=keepdims)
        v = x64.var(axis=ax, keepdims=keepdims)
        if m.ndim == 0:
            m, v = m.reshape(1), v.reshape(1)
        return m.astype(x.dtype), v.astype(x.dtype)
    return ref


def _moments_grad_inputs(shape, axes, keepdims):
    def make(rng):
        x = rng.uniform(-2, 2, size=shape)
        m, _ = _moments_ref(axes, keepdims)(x)
        return [rng.uniform(-1, 1, size=m.shape), rng.uniform(-1, 1, size=m.shape), x, m]
    return make


def _moments_grad_ref(axes, keepdims):
    def ref(gm, gv, x, m):
        ax = tuple(a % x.ndim for a in axes)
        shape = [1 if d in ax else s for d, s in enumerate(x.shape)]
        n = np.prod([x.shape[a] for a in ax])
        return (gm.reshape(shape) + 2 * gv.reshape(shape) * (x - m.reshape(shape))) / n
    return ref


CASES["moments"] = [
    Case([np.array([[1, 2, 3], [4, 5, 6]], F32)], attrs={"axes": (0,)},
         ref=lambda x: (np.array([2.5, 3.5, 4.5], F32), np.array([2.25, 2.25, 2.25], F32)), name="moments-doc-axes0"),
    Case([np.array([[1, 2, 3], [4, 5, 6]], F32)], attrs={"axes": (0, 1)},
         ref=lambda x: (np.array([3.5], F32), np.array([2.9166667], F32)), name="moments-doc-all"),
    Case(_inputs(_rand((2, 3, 4), F64)), attrs={"axes": (0, 2)}, ref=_moments_ref((0, 2)), name="moments-f64",
         **_tol(F64)),
    Case(_inputs(_rand((2, 3, 4), F32)), attrs={"axes": (-1,), "keepdims": True}, ref=_moments_ref((-1,), True),
         name="moments-keepdims", rtol=1e-5, atol=1e-5),
    Case(_inputs(_rand((3, 5), F32)), ref=_moments_ref(), name="moments-axes-none", rtol=1e-5, atol=1e-5),
    Case(_inputs(_rand((4, 6), F16)), attrs={"axes": (1,)}, ref=_moments_ref((1,)), name="moments-f16", **_tol(F16)),
]
CASES["_backward_moments"] = [
    Case(_moments_grad_inputs((2, 3, 4), (0, 2), False), attrs={"axes": (0, 2)}, ref=_moments_grad_ref((0, 2), False),
         name="backward_moments", **_tol(F64)),
    Case(_moments_grad_inputs((3, 4), (1,), True), attrs={"axes": (1,), "keepdims": True},
         ref=_moments_grad_ref((1,), True), name="backward_moments-keepdims", **_tol(F64)),
]


# ---- amp_cast / amp_multicast ---------------------------------------------------

def _amp_cast_ref(dtype):
    def ref(x):
        return x.astype(dtype) if np.issubdtype(x.dtype, np.floating) else x.copy()
    return ref


CASES["amp_cast"] = [
    Case(_inputs(_rand((3, 4), F32)), attrs={"dtype": "float16"}, ref=_amp_cast_ref(F16), rtol=0, atol=0,
         name="amp_cast-f32-to-f16"),
    Case(_inputs(_rand((5,), F16)), attrs={"dtype": "float32"}, ref=_amp_cast_ref(F32), rtol=0, atol=0,
         name="amp_cast-f16-to-f32"),
    Case(_inputs(_rand((5,), F64)), attrs={"dtype": "float32"}, ref=_amp_cast_ref(F32), rtol=0, atol=0,
         name="amp_cast-f64-to-f32"),
    Case(_inputs(_rand((6,), I32, -9, 9)), attrs={"dtype": "float64"}, ref=_amp_cast_ref(F64), rtol=0, atol=0,
         name="amp_cast-int32-passes-through"),
]


def _multicast_ref(narrow=False):
    def ref(*xs):
        floats = [x.dtype for x in xs if np.issubdtype(x.dtype, np.floating)]
        pick = min if narrow else max
        common = pick(floats, key=lambda d: np.dtype(d).itemsize) if floats else None
        return tuple(x.astype(common) if np.issubdtype(x.dtype, np.floating) else x.copy() for x in xs)
    return ref


CASES["amp_multicast"] = [
    Case(_inputs(_rand((3, 4), F16), _rand((2,), F32)), attrs={"num_outputs": 2}, ref=_multicast_ref(),
         rtol=0, atol=0, name="amp_multicast-widest"),
    Case(_inputs(_rand((3,), F16), _rand((2, 2), F32), _rand((4,), I32, -5, 5)),
         attrs={"num_outputs": 3, "cast_narrow": True}, ref=_multicast_ref(True), rtol=0, atol=0,
         name="amp_multicast-narrow-int-untouched"),
    Case(_inputs(_rand((3,), F64)), attrs={"num_outputs": 1}, ref=_multicast_ref(), rtol=0, atol=0,
         name="amp_multicast-one"),
]


# ---- all_finite / multi_all_finite / multi_sum_sq ---------------------------------

def _finite_flag(*xs):
    return np.array([1.0 if all(np.isfinite(x).all() for x in xs) else 0.0], F32)


CASES["all_finite"] = [
    Case(_inputs(_rand((3, 4), F32)), ref=_finite_flag, rtol=0, atol=0, name="all_finite-finite"),
    Case([np.array([1.0, np.inf, 2.0], F32)], ref=_finite_flag, rtol=0, atol=0, name="all_finite-inf"),
    Case([np.array([[1.0, 2.0], [np.nan, 0.0]], F16)], ref=_finite_flag, rtol=0, atol=0, name="all_finite-nan-f16"),
    Case([np.array([-np.inf], F64)], ref=_finite_flag, rtol=0, atol=0, name="all_finite-f64"),
]
CASES["multi_all_finite"] = [
    Case(_inputs(_rand((3,), F32), _rand((2, 2), F16)), attrs={"num_arrays": 2}, ref=_finite_flag, rtol=0, atol=0,
         name="multi_all_finite-finite"),
    Case([np.array([1.0, 2.0], F32), np.array([0.0, np.nan], F32), np.array([3.0], F64)], attrs={"num_arrays": 3},
         ref=_finite_flag, rtol=0, atol=0, name="multi_all_finite-nan-in-second"),
    Case(_inputs(_rand((4,), F32)), ref=_finite_flag, rtol=0, atol=0, name="multi_all_finite-default-one-array"),
]


def _sum_sq(*xs):
    return np.array([np.sum(x.astype(F64) ** 2) for x in xs], F32)


CASES["multi_sum_sq"] = [
    Case(_inputs(_rand((3, 4), F32), _rand((7,), F32), _rand((2, 2, 2), F16)), attrs={"num_arrays": 3}, ref=_sum_sq,
         rtol=1e-5, atol=1e-6, name="multi_sum_sq-three"),
    Case(_inputs(_rand((5,), F64)), attrs={"num_arrays": 1}, ref=_sum_sq, rtol=1e-6, atol=1e-6,
         name="multi_sum_sq-f64"),
]


# ---- _contrib_allclose, _contrib_arange_like, _contrib_index_array -------------

def _allclose_ref(rtol=1e-5, atol=1e-8, equal_nan=True):
    def ref(a, b):
        return np.array([1 if np.allclose(a.astype(F64), b.astype(F64), rtol=rtol, atol=atol, equal_nan=equal_nan)
                         else 0], np.int32)
    return ref


CASES["_contrib_allclose"] = [
    Case([np.array([1e10, 1e-7], F64), np.array([1.00001e10, 1e-8], F64)], ref=_allclose_ref(), rtol=0, atol=0,
         name="allclose-doc-false"),
    Case([np.array([1e10, 1e-8], F64), np.array([1.00001e10, 1e-9], F64)], ref=_allclose_ref(), rtol=0, atol=0,
         name="allclose-doc-true"),
    Case([np.array([1.0, np.nan, np.inf], F32), np.array([1.0, np.nan, np.inf], F32)], ref=_allclose_ref(), rtol=0,
         atol=0, name="allclose-nan-equal"),
    Case([np.array([1.0, np.nan], F32), np.array([1.0, np.nan], F32)], attrs={"equal_nan": False},
         ref=_allclose_ref(equal_nan=False), rtol=0, atol=0, name="allclose-nan-not-equal"),
    Case([np.array([np.inf, 1.0], F32), np.array([-np.inf, 1.0], F32)], ref=_allclose_ref(), rtol=0, atol=0,
         name="allclose-opposite-infinities"),
    Case([np.array([[1, 2], [3, 4]], I32), np.array([[1, 2], [3, 5]], I32)], attrs={"atol": 1.0, "rtol": 0.0},
         ref=_allclose_ref(0.0, 1.0), rtol=0, atol=0, name="allclose-int32-atol"),
]


def _arange_like_ref(start=0.0, step=1.0, repeat=1, axis=None):
    def ref(x):
        n = x.size if axis is None else x.shape[axis]
        v = start + step * (np.arange(n) // repeat)
        return v.reshape(x.shape if axis is None else (n,)).astype(x.dtype)
    return ref


CASES["_contrib_arange_like"] = [
    Case(_inputs(_rand((3, 4), F32)), ref=_arange_like_ref(), rtol=0, atol=0, name="arange_like-doc"),
    Case(_inputs(_rand((3, 4), F32)), attrs={"axis": -1}, ref=_arange_like_ref(axis=-1), rtol=0, atol=0,
         name="arange_like-axis"),
    Case(_inputs(_rand((2, 5), F64)), attrs={"start": 1.5, "step": -0.5, "repeat": 3},
         ref=_arange_like_ref(1.5, -0.5, 3), rtol=0, atol=0, name="arange_like-start-step-repeat"),
    Case(_inputs(_rand((7,), I32)), attrs={"start": 2, "step": 3}, ref=_arange_like_ref(2, 3), rtol=0, atol=0,
         name="arange_like-int32"),
]


def _index_array_ref(axes=None):
    def ref(x):
        idx = np.stack(np.indices(x.shape), axis=-1).astype(np.int64)
        return idx if axes is None else idx[..., [a % x.ndim for a in axes]]
    return ref


CASES["_contrib_index_array"] = [
    Case(_inputs(_rand((2, 3), F32)), ref=_index_array_ref(), rtol=0, atol=0, name="index_array-all"),
    Case(_inputs(_rand((2, 3, 4), I32)), attrs={"axes": (-1, 0)}, ref=_index_array_ref((-1, 0)), rtol=0, atol=0,
         name="index_array-axes"),
    Case(_inputs(_rand((5,), F64)), ref=_index_array_ref(), rtol=0, atol=0, name="index_array-1d"),
]


# ---- _histogram ------------------------------------------------------------------

def _histogram_ref(bin_cnt=None, range=None):  # pylint: disable=redefined-builtin
    def ref(x, *bins):
        edges = bins[0] if bins else np.linspace(range[0], range[1], bin_cnt + 1).astype(x.dtype)
        counts, _ = np.histogram(x.astype(F64), bins=edges.astype(F64))
        return counts.astype(np.int64), np.asarray(edges, x.dtype)
    return ref


CASES["_histogram"] = [
    Case([np.array([[0, 1], [2, 2], [3, 4]], F32)], attrs={"bin_cnt": 5, "range": (0, 5)},
         ref=lambda x: (np.array([1, 1, 2, 1, 1], np.int64), np.array([0, 1, 2, 3, 4, 5], F32)), rtol=0, atol=0,
         name="histogram-doc-uniform"),
    Case([np.array([[0, 1], [2, 2], [3, 4]], F32), np.array([0., 2.1, 3.], F32)],
         ref=lambda x, b: (np.array([4, 1], np.int64), b.copy()), rtol=0, atol=0, name="histogram-doc-edges"),
    Case(_inputs(_rand((50,), F64, -2, 2)), attrs={"bin_cnt": 7, "range": (-1.5, 1.5)},
         ref=_histogram_ref(7, (-1.5, 1.5)), rtol=0, atol=1e-12, name="histogram-uniform-outside-ignored"),
    Case([np.array([0.0, 0.5, 1.0, 1.0, np.nan, 2.0, -0.1], F32), np.array([0.0, 0.5, 1.0], F32)],
         ref=_histogram_ref(), rtol=0, atol=0, name="histogram-right-edge-and-nan"),
    Case(_inputs(_rand((20,), I32, 0, 9)), attrs={"bin_cnt": 3, "range": (0, 9)}, ref=_histogram_ref(3, (0, 9)),
         rtol=0, atol=0, name="histogram-int32"),
]


# ---- _identity_with_attr_like_rhs ------------------------------------------------
# MXNet 1.9.1: the output is lhs; lhs, rhs and the output share one shape and one dtype (ElemwiseShape<2, 1>,
# ElemwiseType<2, 1>); rhs's values are never read.

CASES["_identity_with_attr_like_rhs"] = [
    Case(_inputs(_rand((3, 4), F32), _rand((3, 4), F32)), ref=lambda lhs, rhs: lhs, rtol=0, atol=0, name="float32"),
    Case(_inputs(_rand((2, 3, 5), F64), _rand((2, 3, 5), F64)), ref=lambda lhs, rhs: lhs, rtol=0, atol=0,
         name="float64"),
    Case(_inputs(_rand((7,), I32), _rand((7,), I32)), ref=lambda lhs, rhs: lhs, rtol=0, atol=0, name="int32"),
    Case(_inputs(_rand((2, 2), F16), _rand((2, 2), F16)), ref=lambda lhs, rhs: lhs, rtol=0, atol=0, name="float16"),
]

# _CrossDeviceCopy: the executor's copy between group2ctx contexts (tests/python/test_group2ctx.py); called on one
# device it copies its input.
CASES["_CrossDeviceCopy"] = [
    Case(_inputs(_rand((3, 4), F32)), ref=lambda x: x, rtol=0, atol=0, name="float32"),
    Case(_inputs(_rand((2, 5), I32)), ref=lambda x: x, rtol=0, atol=0, name="int32"),
]
