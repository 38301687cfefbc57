"""Cases of the optimizer updates of core/op/optim/optim_single.cc and
optim_multi.cc: the returned weights (or lamb phase 1's g, multi_lars' rates)
against MXNet 1.9.1's documented formulas in float64. The in-place state
updates are checked in tests/python/test_optim_more.py, where the state arrays
are visible. The references here also return the new states (refs_* below), so
that test reuses them."""
import numpy as np

from .case import Case

F16, F32, F64 = np.float16, np.float32, np.float64


def clip(x, c):
    return np.clip(x, -c, c) if c >= 0 else x


def f64(*xs):
    return [np.asarray(x, dtype=F64) for x in xs]


# ---- single-tensor rules: (new weight or output, [new states]) -------------
def ftml(w, g, d, v, z, lr, t, beta1=0.6, beta2=0.999, epsilon=1e-8, wd=0.0, rescale_grad=1.0, clip_grad=-1.0):
    w, g, d, v, z = f64(w, g, d, v, z)
    gg = clip(rescale_grad * g + wd * w, clip_grad)
    v = beta2 * v + (1 - beta2) * gg * gg
    dt = (1 - beta1 ** t) / lr * (np.sqrt(v / (1 - beta2 ** t)) + epsilon)
    z = beta1 * z + (1 - beta1) * gg - (dt - beta1 * d) * w
    return -z / dt, [dt, v, z]


def rmspropalex(w, g, n, gs, delta, lr, gamma1=0.95, gamma2=0.9, epsilon=1e-8, wd=0.0, rescale_grad=1.0,
                clip_gradient=-1.0, clip_weights=-1.0):
    w, g, n, gs, delta = f64(w, g, n, gs, delta)
    gg = clip(rescale_grad * g + wd * w, clip_gradient)
    n = (1 - gamma1) * gg * gg + gamma1 * n
    gs = (1 - gamma1) * gg + gamma1 * gs
    delta = gamma2 * delta - lr * gg / np.sqrt(n - gs * gs + epsilon)
    return clip(w + delta, clip_weights), [n, gs, delta]


def lamb1(w, g, mean, var, t, wd, beta1=0.9, beta2=0.999, epsilon=1e-6, bias_correction=True, rescale_grad=1.0,
          clip_gradient=-1.0):
    w, g, mean, var = f64(w, g, mean, var)
    gg = clip(rescale_grad * g, clip_gradient)
    mean = beta1 * mean + (1 - beta1) * gg
    var = beta2 * var + (1 - beta2) * gg * gg
    if bias_correction:
        out = (mean / (1 - beta1 ** t)) / (np.sqrt(var / (1 - beta2 ** t)) + epsilon) + wd * w
    else:
        out = mean / (np.sqrt(var) + epsilon) + wd * w
    return out, [mean, var]


def lamb_rate(r1, r2, lr, lower_bound=-1.0, upper_bound=-1.0):
    r1, r2 = float(np.asarray(r1).ravel()[0]), float(np.asarray(r2).ravel()[0])
    if lower_bound >= 0:
        r1 = max(r1, lower_bound)
    if upper_bound >= 0:
        r1 = min(r1, upper_bound)
    return lr if r1 == 0 or r2 == 0 else lr * r1 / r2


def lamb2(w, g, r1, r2, lr, lower_bound=-1.0, upper_bound=-1.0):
    w, g = f64(w, g)
    return w - lamb_rate(r1, r2, lr, lower_bound, upper_bound) * g, []


def sgd(w, g, lr, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    w, g = f64(w, g)
    return (1 - lr * wd) * w - lr * clip(rescale_grad * g, clip_gradient)


def sgd_mom(w, g, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    w, g, mom = f64(w, g, mom)
    mom = momentum * mom - lr * wd * w - lr * clip(rescale_grad * g, clip_gradient)
    return w + mom, mom


def nag(w, g, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    w, g, mom = f64(w, g, mom)
    gg = clip(rescale_grad * g, clip_gradient) + wd * w
    mom = momentum * mom + gg
    return w - lr * (momentum * mom + gg), mom


def adamw(w, g, mean, var, scale, lr, eta, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0, clip_gradient=-1.0):
    w, g, mean, var = f64(w, g, mean, var)
    s = float(np.asarray(scale, dtype=F64).ravel()[0])
    if np.isnan(s):  # MXNet skips the update only for a NaN rescale_grad
        return w, [mean, var]
    gg = clip(s * g, clip_gradient)
    mean = beta1 * mean + (1 - beta1) * gg
    var = beta2 * var + (1 - beta2) * gg * gg
    return w - eta * (lr * mean / (np.sqrt(var) + epsilon) + wd * w), [mean, var]


def group_adagrad(w, g, hist, lr, rescale_grad=1.0, clip_gradient=-1.0, epsilon=1e-5):
    w, g, hist = f64(w, g, hist)
    gg = clip(rescale_grad * g, clip_gradient)
    g2 = gg.reshape(gg.shape[0], -1)
    hist = hist + np.mean(g2 * g2, axis=1, keepdims=True)
    div = np.sqrt(hist + epsilon).reshape((-1,) + (1,) * (w.ndim - 1))
    return w - lr * gg / div, [hist]


def lars(lrs, wsq, gsq, wds, eta, eps, rescale_grad=1.0):
    lrs, wsq, gsq, wds = f64(lrs, wsq, gsq, wds)
    wn = np.sqrt(wsq)
    valid = (wn > 0) & (gsq > 0)
    return np.where(valid, lrs * eta * wn / (np.sqrt(gsq) * rescale_grad + wds * wn + eps), lrs)


def lamb_full(w, g, mean, var, lr, wd, t, beta1=0.9, beta2=0.999, epsilon=1e-6, rescale_grad=1.0,
              lower_bound=-1.0, upper_bound=-1.0, clip_gradient=-1.0, bias_correction=True):
    gdir, (mean, var) = lamb1(w, g, mean, var, t, wd, beta1, beta2, epsilon, bias_correction, rescale_grad,
                              clip_gradient)
    r1 = np.linalg.norm(np.asarray(w, F64))
    r2 = np.linalg.norm(gdir)
    return np.asarray(w, F64) - lamb_rate(r1, r2, lr, lower_bound, upper_bound) * gdir, [mean, var]


# ---- input makers -----------------------------------------------------------
def u(shape, dtype, lo=-1.0, hi=1.0):
    return lambda rng: rng.uniform(lo, hi, size=shape).astype(dtype)


def one(v, dtype=F32):
    return lambda rng: np.array([v], dtype=dtype)


def make(*makers):
    return lambda rng: [m(rng) for m in makers]


def mp_make(shape, wdtype, states=(), extra=()):
    """weight (wdtype), grad (wdtype), float32 states, then weight32 = weight in float32."""
    def gen(rng):
        w32 = rng.uniform(-1, 1, size=shape).astype(F32)
        w = w32.astype(wdtype)
        w32 = w.astype(F32)
        g = rng.uniform(-1, 1, size=shape).astype(wdtype)
        st = [m(rng) for m in states]
        return [w, g] + st + [w32] + [m(rng) for m in extra]
    return gen


def C(inputs, ref, name, tol, **attrs):
    return Case(inputs=inputs, attrs=attrs, ref=ref, rtol=tol, atol=tol * 0.1, name=name)


def first(rule, dtype=None, **attrs):
    """The reference of a single-output update: rule(...)[0] as dtype (default: the first input's)."""
    def ref(*xs):
        r = rule(*xs, **attrs)
        out = r[0] if isinstance(r, tuple) else r
        return np.asarray(out).astype(dtype or xs[0].dtype)
    return ref


def mp_ref(rule, n_states, dtype=None, **attrs):
    """mp_* references: the rule applied to weight32 (the input after the states)."""
    def ref(w, g, *rest):
        states, w32 = rest[:n_states], rest[n_states]
        r = rule(w32, g, *states, *rest[n_states + 1:], **attrs)
        out = r[0] if isinstance(r, tuple) else r
        return np.asarray(out).astype(dtype or w.dtype)
    return ref


SH = (3, 4)


def single_cases():
    pos = lambda dt: u(SH, dt, 0.5, 1.5)  # noqa: E731
    cases = {
        "ftml_update": [
            C(make(u(SH, F32), u(SH, F32), pos(F32), pos(F32), u(SH, F32)), first(ftml, lr=0.1, t=3), "default",
              1e-4, lr=0.1, t=3),
            C(make(u(SH, F64), u(SH, F64), pos(F64), pos(F64), u(SH, F64)),
              first(ftml, lr=0.05, t=2, beta1=0.5, beta2=0.9, epsilon=1e-6, wd=0.1, rescale_grad=0.5, clip_grad=0.3),
              "params_f64", 1e-10, lr=0.05, t=2, beta1=0.5, beta2=0.9, epsilon=1e-6, wd=0.1, rescale_grad=0.5,
              clip_grad=0.3),
            C(make(u(SH, F16), u(SH, F16), pos(F16), pos(F16), u(SH, F16)), first(ftml, lr=0.1, t=3), "float16",
              2e-2, lr=0.1, t=3),
        ],
        "rmspropalex_update": [
            C(make(u(SH, F32), u(SH, F32), u(SH, F32, 1, 2), u(SH, F32, -0.5, 0.5), u(SH, F32)),
              first(rmspropalex, lr=0.01), "default", 1e-4, lr=0.01),
            C(make(u(SH, F64), u(SH, F64), u(SH, F64, 1, 2), u(SH, F64, -0.5, 0.5), u(SH, F64)),
              first(rmspropalex, lr=0.5, gamma1=0.9, gamma2=0.8, wd=0.1, clip_gradient=0.5, clip_weights=0.6),
              "clips_f64", 1e-10, lr=0.5, gamma1=0.9, gamma2=0.8, wd=0.1, clip_gradient=0.5, clip_weights=0.6),
        ],
        "lamb_update_phase1": [
            C(make(u(SH, F32), u(SH, F32), u(SH, F32), pos(F32)), first(lamb1, t=2, wd=0.01), "default", 1e-4,
              t=2, wd=0.01),
            C(make(u(SH, F64), u(SH, F64), u(SH, F64), pos(F64)),
              first(lamb1, t=1, wd=0.1, bias_correction=False, rescale_grad=2.0, clip_gradient=0.5), "no_bias_f64",
              1e-10, t=1, wd=0.1, bias_correction=False, rescale_grad=2.0, clip_gradient=0.5),
        ],
        "mp_lamb_update_phase1": [
            C(mp_make(SH, F16, (u(SH, F32), pos(F32))), mp_ref(lamb1, 2, dtype=F32, t=3, wd=0.01), "float16", 1e-4,
              t=3, wd=0.01),
            C(mp_make(SH, F32, (u(SH, F32), pos(F32))), mp_ref(lamb1, 2, dtype=F32, t=3, wd=0.01, beta1=0.8),
              "float32", 1e-4, t=3, wd=0.01, beta1=0.8),
        ],
        "lamb_update_phase2": [
            C(make(u(SH, F32), u(SH, F32), one(2.0), one(4.0)), first(lamb2, lr=0.1), "default", 1e-5, lr=0.1),
            C(make(u(SH, F64), u(SH, F64), one(2.0, F64), one(4.0, F64)),
              first(lamb2, lr=0.1, lower_bound=0.5, upper_bound=1.5), "bounds_f64", 1e-12, lr=0.1, lower_bound=0.5,
              upper_bound=1.5),
            C(make(u(SH, F32), u(SH, F32), one(0.0), one(4.0)), first(lamb2, lr=0.1), "zero_norm", 1e-5, lr=0.1),
        ],
        "mp_lamb_update_phase2": [
            C(mp_make(SH, F16, (), ()), None, "unused", 1e-3, lr=0.1),  # replaced below
        ],
        "mp_sgd_update": [
            C(mp_make(SH, F16), mp_ref(sgd, 0, lr=0.1, wd=0.01), "float16", 1e-3, lr=0.1, wd=0.01),
            C(mp_make(SH, F32), mp_ref(sgd, 0, lr=0.1, rescale_grad=0.5, clip_gradient=0.2), "float32", 1e-5,
              lr=0.1, rescale_grad=0.5, clip_gradient=0.2),
        ],
        "mp_sgd_mom_update": [
            C(mp_make(SH, F16, (u(SH, F32),)), mp_ref(sgd_mom, 1, lr=0.1, momentum=0.9), "float16", 1e-3, lr=0.1,
              momentum=0.9),
            C(mp_make(SH, F32, (u(SH, F32),)), mp_ref(sgd_mom, 1, lr=0.1, momentum=0.5, wd=0.1, clip_gradient=0.3),
              "float32", 1e-5, lr=0.1, momentum=0.5, wd=0.1, clip_gradient=0.3),
        ],
        "mp_nag_mom_update": [
            C(mp_make(SH, F16, (u(SH, F32),)), mp_ref(nag, 1, lr=0.1, momentum=0.9), "float16", 1e-3, lr=0.1,
              momentum=0.9),
            C(mp_make(SH, F32, (u(SH, F32),)), mp_ref(nag, 1, lr=0.1, momentum=0.5, wd=0.1, rescale_grad=2.0),
              "float32", 1e-5, lr=0.1, momentum=0.5, wd=0.1, rescale_grad=2.0),
        ],
        "_contrib_adamw_update": [
            C(make(u(SH, F32), u(SH, F32), u(SH, F32), pos(F32), one(0.5)), first(adamw, lr=0.01, eta=0.5),
              "default", 1e-4, lr=0.01, eta=0.5),
            C(make(u(SH, F64), u(SH, F64), u(SH, F64), pos(F64), one(2.0, F64)),
              first(adamw, lr=0.01, eta=1.0, beta1=0.8, beta2=0.9, epsilon=1e-6, wd=0.1, clip_gradient=0.5),
              "params_f64", 1e-10, lr=0.01, eta=1.0, beta1=0.8, beta2=0.9, epsilon=1e-6, wd=0.1, clip_gradient=0.5),
            C(make(u(SH, F32), u(SH, F32), u(SH, F32), pos(F32), one(np.nan)), first(adamw, lr=0.01, eta=0.5),
              "skipped_nan", 1e-6, lr=0.01, eta=0.5),
        ],
        "_contrib_mp_adamw_update": [
            C(mp_make(SH, F16, (u(SH, F32), pos(F32)), (one(0.5),)), mp_ref(adamw, 2, lr=0.01, eta=0.5, wd=0.01),
              "float16", 1e-3, lr=0.01, eta=0.5, wd=0.01),
            C(mp_make(SH, F32, (u(SH, F32), pos(F32)), (one(0.0),)), mp_ref(adamw, 2, lr=0.01, eta=0.5, wd=0.1),
              "zero_rescale_decays", 1e-6, lr=0.01, eta=0.5, wd=0.1),
            C(mp_make(SH, F32, (u(SH, F32), pos(F32)), (one(1.5),)),
              mp_ref(adamw, 2, lr=0.01, eta=0.7, clip_gradient=0.4), "float32", 1e-5, lr=0.01, eta=0.7,
              clip_gradient=0.4),
        ],
        "_contrib_group_adagrad_update": [
            C(make(u((4, 3), F32), u((4, 3), F32), u((4, 1), F32, 0, 1)), first(group_adagrad, lr=0.1), "default",
              1e-5, lr=0.1),
            C(make(u((3, 2, 2), F64), u((3, 2, 2), F64), u((3, 1), F64, 0, 1)),
              first(group_adagrad, lr=0.2, rescale_grad=2.0, clip_gradient=0.5, epsilon=1e-3), "3d_clip_f64", 1e-12,
              lr=0.2, rescale_grad=2.0, clip_gradient=0.5, epsilon=1e-3),
        ],
        "multi_lars": [
            C(make(u((4,), F32, 0.1, 1), u((4,), F32, 0, 4), u((4,), F32, 0, 4), u((4,), F32, 0, 0.01)),
              first(lars, eta=0.01, eps=1e-8), "default", 1e-5, eta=0.01, eps=1e-8),
            C(lambda rng: [np.array([0.1, 0.2, 0.3], F64), np.array([0.0, 4.0, 9.0], F64),
                           np.array([1.0, 0.0, 16.0], F64), np.array([0.1, 0.1, 0.0], F64)],
              first(lars, eta=0.5, eps=1e-6, rescale_grad=0.5), "invalid_norms_f64", 1e-12, eta=0.5, eps=1e-6,
              rescale_grad=0.5),
        ],
    }

    def mp2(wdtype, lr, **kw):
        def gen(rng):
            w32 = rng.uniform(-1, 1, size=SH).astype(F32)
            w = w32.astype(wdtype)
            g = rng.uniform(-1, 1, size=SH).astype(F32)
            return [w, g, np.array([2.0], F32), np.array([3.0], F32), w.astype(F32)]

        def ref(w, g, r1, r2, w32):
            return lamb2(w32, g, r1, r2, lr, **kw)[0].astype(w.dtype)
        return gen, ref
    g16, r16 = mp2(F16, 0.1)
    g32, r32 = mp2(F32, 0.1, lower_bound=2.5)
    cases["mp_lamb_update_phase2"] = [C(g16, r16, "float16", 1e-3, lr=0.1),
                                      C(g32, r32, "float32_bound", 1e-5, lr=0.1, lower_bound=2.5)]
    return cases


# ---- multi-tensor cases -----------------------------------------------------
SHAPES = [(3, 4), (5,)]


def multi_inputs(dtype, n_states, mp, tail=None, positive=()):
    """Groups (weight, grad, states..., [weight32]) over SHAPES, then tail(rng) arrays."""
    def gen(rng):
        xs = []
        for shape in SHAPES:
            w = rng.uniform(-1, 1, size=shape).astype(dtype)
            xs += [w, rng.uniform(-1, 1, size=shape).astype(dtype)]
            for s in range(n_states):
                lo, hi = (0.5, 1.5) if s in positive else (-1, 1)
                xs.append(rng.uniform(lo, hi, size=shape).astype(F32 if mp else dtype))
            if mp:
                xs.append(w.astype(F32))
        return xs + (tail(rng) if tail else [])
    return gen


def multi_ref(rule, n_states, mp, per, tail=0, **attrs):
    """Applies rule to each group; per(k) -> the group's own keyword arguments."""
    stride = 2 + n_states + (1 if mp else 0)

    def ref(*xs):
        n = (len(xs) - tail) // stride
        outs = []
        for k in range(n):
            grp = xs[k * stride:(k + 1) * stride]
            w, g, states = grp[0], grp[1], list(grp[2:2 + n_states])
            master = grp[-1] if mp else w
            extra = list(xs[n * stride:]) if tail else []
            r = rule(master, g, *states, *extra, **attrs, **per(k, xs, n * stride))
            out = r[0] if isinstance(r, tuple) else r
            outs.append(np.asarray(out).astype(w.dtype))
        return tuple(outs)
    return ref


def multi_cases():
    lrs, wds = (0.1, 0.05), (0.01, 0.0)
    per = lambda k, xs, t: dict(lr=lrs[k], wd=wds[k])  # noqa: E731
    pre = lambda k, xs, t: dict(lr=float(xs[t][k]), wd=float(xs[t + 1][k]))  # noqa: E731
    no_extra = lambda rule: (lambda *a, **kw: rule(*a[:len(a)], **kw))  # noqa: E731
    lw = lambda rng: [np.array(lrs, F32), np.array(wds, F32)]  # noqa: E731

    def drop_tail(rule, n_tail):
        return lambda *a, **kw: rule(*a[:len(a) - n_tail], **kw)

    sgd_kw = dict(lrs=lrs, wds=wds, num_weights=2)
    cases = {
        "multi_sgd_update": [
            C(multi_inputs(F32, 0, False), multi_ref(sgd, 0, False, per), "two", 1e-5, **sgd_kw),
            C(multi_inputs(F64, 0, False), multi_ref(sgd, 0, False, per, rescale_grad=0.5, clip_gradient=0.2),
              "clip_f64", 1e-12, rescale_grad=0.5, clip_gradient=0.2, **sgd_kw),
        ],
        "multi_sgd_mom_update": [
            C(multi_inputs(F32, 1, False), multi_ref(sgd_mom, 1, False, per, momentum=0.9), "two", 1e-5,
              momentum=0.9, **sgd_kw),
        ],
        "multi_mp_sgd_update": [
            C(multi_inputs(F16, 0, True), multi_ref(sgd, 0, True, per), "float16", 1e-3, **sgd_kw),
            C(multi_inputs(F32, 0, True), multi_ref(sgd, 0, True, per, clip_gradient=0.3), "float32", 1e-5,
              clip_gradient=0.3, **sgd_kw),
        ],
        "multi_mp_sgd_mom_update": [
            C(multi_inputs(F16, 1, True), multi_ref(sgd_mom, 1, True, per, momentum=0.9), "float16", 1e-3,
              momentum=0.9, **sgd_kw),
            C(multi_inputs(F32, 1, True), multi_ref(sgd_mom, 1, True, per, momentum=0.5), "float32", 1e-5,
              momentum=0.5, **sgd_kw),
        ],
        "preloaded_multi_sgd_update": [
            C(multi_inputs(F32, 0, False, lw), multi_ref(drop_tail(sgd, 2), 0, False, pre, tail=2), "two", 1e-5,
              num_weights=2),
        ],
        "preloaded_multi_sgd_mom_update": [
            C(multi_inputs(F32, 1, False, lw), multi_ref(drop_tail(sgd_mom, 2), 1, False, pre, tail=2, momentum=0.9),
              "two", 1e-5, momentum=0.9, num_weights=2),
        ],
        "preloaded_multi_mp_sgd_update": [
            C(multi_inputs(F16, 0, True, lw), multi_ref(drop_tail(sgd, 2), 0, True, pre, tail=2), "float16", 1e-3,
              num_weights=2),
            C(multi_inputs(F32, 0, True, lw), multi_ref(drop_tail(sgd, 2), 0, True, pre, tail=2, rescale_grad=2.0),
              "float32", 1e-5, rescale_grad=2.0, num_weights=2),
        ],
        "preloaded_multi_mp_sgd_mom_update": [
            C(multi_inputs(F16, 1, True, lw), multi_ref(drop_tail(sgd_mom, 2), 1, True, pre, tail=2, momentum=0.9),
              "float16", 1e-3, momentum=0.9, num_weights=2),
            C(multi_inputs(F32, 1, True, lw), multi_ref(drop_tail(sgd_mom, 2), 1, True, pre, tail=2, momentum=0.9),
              "float32", 1e-5, momentum=0.9, num_weights=2),
        ],
    }
    del no_extra
    etas = (1.0, 0.5)
    aper = lambda k, xs, t: dict(lr=lrs[k], wd=wds[k], eta=etas[k])  # noqa: E731
    scale = lambda v: (lambda rng: [np.array([v], F32)])  # noqa: E731
    akw = dict(lrs=lrs, wds=wds, etas=etas, num_weights=2)
    cases["_contrib_multi_adamw_update"] = [
        C(multi_inputs(F32, 2, False, scale(0.5), positive=(1,)), multi_ref(adamw, 2, False, aper, tail=1),
          "two", 1e-4, **akw),
        C(multi_inputs(F32, 2, False, scale(np.nan), positive=(1,)), multi_ref(adamw, 2, False, aper, tail=1),
          "skipped_nan", 1e-6, **akw),
    ]
    cases["_contrib_multi_mp_adamw_update"] = [
        C(multi_inputs(F16, 2, True, scale(0.5), positive=(1,)), multi_ref(adamw, 2, True, aper, tail=1),
          "float16", 1e-3, **akw),
        C(multi_inputs(F32, 2, True, scale(1.0), positive=(1,)),
          multi_ref(adamw, 2, True, aper, tail=1, clip_gradient=0.3), "float32", 1e-4, clip_gradient=0.3, **akw),
    ]
    steps = (1, 3)
    lper = lambda k, xs, t: dict(lr=lrs[k], wd=wds[k], t=steps[k])  # noqa: E731
    lkw = dict(learning_rates=lrs, wds=wds, step_count=steps, num_tensors=2)
    cases["_contrib_multi_lamb_update"] = [
        C(multi_inputs(F32, 2, False, positive=(1,)), multi_ref(lamb_full, 2, False, lper), "two", 1e-4, **lkw),
        C(multi_inputs(F64, 2, False, positive=(1,)),
          multi_ref(lamb_full, 2, False, lper, bias_correction=False, lower_bound=0.1, upper_bound=1.0,
                    rescale_grad=0.5), "bounds_f64", 1e-9, bias_correction=False, lower_bound=0.1, upper_bound=1.0,
          rescale_grad=0.5, **lkw),
    ]
    cases["_contrib_multi_mp_lamb_update"] = [
        C(multi_inputs(F16, 2, True, positive=(1,)), multi_ref(lamb_full, 2, True, lper), "float16", 1e-3, **lkw),
        C(multi_inputs(F32, 2, True, positive=(1,)), multi_ref(lamb_full, 2, True, lper, clip_gradient=0.5),
          "float32", 1e-4, clip_gradient=0.5, **lkw),
    ]
    return cases


CASES = dict(single_cases())
CASES.update(multi_cases())


# ---- reset_arrays: no outputs; its inputs are zeroed in place (compare_inputs) ----
def _zeros_like_all(*xs):
    return tuple(np.zeros_like(x) for x in xs)


CASES["reset_arrays"] = [
    Case(lambda r: [r.standard_normal((3, 4)).astype(F32), r.standard_normal((5,)).astype(F64),
                    r.integers(-9, 9, (2, 3)).astype(np.int32)],
         attrs={"num_arrays": 3}, ref=_zeros_like_all, rtol=0, atol=0, compare_inputs=True,
         name="reset_arrays-three-dtypes"),
    Case(lambda r: [r.standard_normal((7,)).astype(F32)], attrs={"num_arrays": 1}, ref=_zeros_like_all,
         rtol=0, atol=0, compare_inputs=True, name="reset_arrays-one"),
]
