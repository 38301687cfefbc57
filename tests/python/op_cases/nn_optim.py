"""Cases of the fused optimizer updates (sgd_update, sgd_mom_update,
nag_mom_update, adam_update, rmsprop_update, ftrl_update, signum_update,
signsgd_update): the returned weight against MXNet 1.x's formulas in float64.
The in-place state updates (mutate_inputs) are checked in
tests/cpp/nn_misc_test.cc, where the state arrays are visible."""
import numpy as np

from .nn_ref import F32, F64, C, ins, rand


def clip(g, c):
    return np.clip(g, -c, c) if c >= 0 else g


def new_weight(kind, w, g, *states, lr, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0, momentum=0.0, beta1=0.9,
               beta2=0.999, epsilon=1e-8, gamma1=0.95, clip_weights=-1.0, lamda1=0.01, beta=1.0, wd_lh=0.0,
               **_):
    w, g = w.astype(F64), g.astype(F64) * rescale_grad
    s = [x.astype(F64) for x in states]
    if kind == "sgd":
        return (1 - lr * wd) * w - lr * clip(g, clip_gradient)
    if kind == "sgd_mom":
        return w + momentum * s[0] - lr * wd * w - lr * clip(g, clip_gradient)
    if kind == "nag":
        gg = clip(g, clip_gradient) + wd * w
        return w - lr * (momentum * (momentum * s[0] + gg) + gg)
    if kind == "adam":
        gg = clip(g + wd * w, clip_gradient)
        m = beta1 * s[0] + (1 - beta1) * gg
        v = beta2 * s[1] + (1 - beta2) * gg * gg
        return w - lr * m / (np.sqrt(v) + epsilon)
    if kind == "rmsprop":
        gg = clip(g + wd * w, clip_gradient)
        n = (1 - gamma1) * gg * gg + gamma1 * s[0]
        nw = w - lr * gg / np.sqrt(n + epsilon)
        return clip(nw, clip_weights)
    if kind == "ftrl":
        gg = clip(g, clip_gradient)
        z = s[0] + gg - (np.sqrt(s[1] + gg * gg) - np.sqrt(s[1])) * w / lr
        n = s[1] + gg * gg
        return np.where(np.abs(z) > lamda1, (np.sign(z) * lamda1 - z) / ((beta + np.sqrt(n)) / lr + wd), 0.0)
    if kind == "signum":
        m = momentum * s[0] - (1 - momentum) * wd * w - (1 - momentum) * clip(g, clip_gradient)
        return (1 - lr * wd_lh) * w + lr * np.sign(m)
    if kind == "signsgd":
        return (1 - lr * wd) * w - lr * np.sign(g)
    raise ValueError(kind)


def opt_ref(kind, **attrs):
    return lambda w, g, *s: new_weight(kind, w, g, *s, **attrs).astype(w.dtype)


def opt_case(kind, n_states, name, dtype=F32, positive_states=(), **attrs):
    shape = (3, 4)
    makers = [rand(shape, dtype), rand(shape, dtype, -2, 2)]
    for i in range(n_states):
        makers.append(rand(shape, dtype, 0.0, 1.0) if i in positive_states else rand(shape, dtype))
    tol = 1e-12 if dtype == F64 else 1e-5
    return C(ins(*makers), opt_ref(kind, **attrs), name=name, rtol=tol, atol=tol * 0.1, **attrs)


CASES = {
    "sgd_update": [
        opt_case("sgd", 0, "plain", lr=0.1),
        opt_case("sgd", 0, "wd_rescale_clip", lr=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=0.3),
        opt_case("sgd", 0, "float64", dtype=F64, lr=0.05, wd=0.1, lazy_update=False),
    ],
    "sgd_mom_update": [
        opt_case("sgd_mom", 1, "momentum", lr=0.1, momentum=0.9),
        opt_case("sgd_mom", 1, "wd_clip_f64", dtype=F64, lr=0.1, momentum=0.5, wd=0.01, clip_gradient=0.5),
    ],
    "nag_mom_update": [
        opt_case("nag", 1, "momentum", lr=0.1, momentum=0.9),
        opt_case("nag", 1, "wd_clip_f64", dtype=F64, lr=0.1, momentum=0.5, wd=0.01, clip_gradient=0.5,
                 rescale_grad=2.0),
    ],
    "adam_update": [
        opt_case("adam", 2, "default", positive_states=(1,), lr=0.01),
        opt_case("adam", 2, "wd_clip_f64", dtype=F64, positive_states=(1,), lr=0.01, beta1=0.8, beta2=0.9,
                 epsilon=1e-6, wd=0.1, clip_gradient=0.5),
    ],
    "rmsprop_update": [
        opt_case("rmsprop", 1, "default", positive_states=(0,), lr=0.01),
        opt_case("rmsprop", 1, "clip_weights_f64", dtype=F64, positive_states=(0,), lr=0.5, gamma1=0.9,
                 wd=0.1, clip_gradient=1.0, clip_weights=0.4),
    ],
    "ftrl_update": [
        opt_case("ftrl", 2, "default", positive_states=(1,), lr=0.1),
        opt_case("ftrl", 2, "params_f64", dtype=F64, positive_states=(1,), lr=0.2, lamda1=0.3, beta=0.5,
                 wd=0.1, clip_gradient=1.0),
    ],
    "signum_update": [
        opt_case("signum", 1, "momentum", lr=0.1, momentum=0.9),
        opt_case("signum", 1, "wd_lh_f64", dtype=F64, lr=0.1, momentum=0.5, wd=0.1, wd_lh=0.2),
    ],
    "signsgd_update": [
        opt_case("signsgd", 0, "plain", lr=0.1),
        opt_case("signsgd", 0, "wd_f64", dtype=F64, lr=0.1, wd=0.5, rescale_grad=0.1),
    ],
}
