"""Cases of the control-flow operators _foreach, _while_loop, _cond and their
backward ops (core/op/control/, Note [Subgraph operators]). Their nodes carry
graphs, so a case builds the node with weft.sym.contrib and binds it (Case.call)
instead of calling weft.nd.<op>; a backward case binds with gradients and
returns the input gradients for head gradients of ones."""
import numpy as np

import weft

from .case import Case

F32 = np.float32
sym = weft.sym


def _bind_run(outputs, names, arrays, backward=False):
    """Binds the Group of outputs on the arrays (by argument name), runs
    forward (and backward with head gradients of ones); returns the outputs
    (or the gradients of `names`, in order)."""
    g = sym.Group(outputs)
    args = dict(zip(names, arrays))
    ctx = arrays[0].context  # the subgraph runs where its inputs are (the GPU harness passes gpu(0) arrays)
    grads = {n: weft.nd.zeros(a.shape, dtype=a.dtype, ctx=ctx) for n, a in args.items()} if backward else None
    exe = g.bind(ctx, args=args, args_grad=grads)
    outs = exe.forward(is_train=backward)
    if not backward:
        return [o.copy() for o in outs]
    exe.backward([weft.nd.ones(o.shape, dtype=o.dtype, ctx=ctx) for o in outs])
    return [grads[n] for n in names]


def _cumsum_sym():
    data, init = sym.var("data"), sym.var("init")
    outs, states = sym.contrib.foreach(lambda x, s: (x + s[0], [x + s[0]]), data, [init])
    return [outs, states[0]]


def _foreach(data, init, backward=False):
    return _bind_run(_cumsum_sym(), ["data", "init"], [data, init], backward)


def _cumsum_ref(data, init):
    outs = np.cumsum(data, axis=0) + init
    return outs, outs[-1]


def _cumsum_grad_ref(data, init):
    t = data.shape[0]
    # outs[t] = init + sum_{u<=t} data[u]; the final state is outs[-1] (its head gradient counts again).
    g = (t - np.arange(t) + 1).astype(F32)[:, None] * np.ones_like(data)
    return g, np.full_like(init, t + 1)


def _while_sym(max_iterations=10):
    i, s = sym.var("i"), sym.var("s")
    outs, final = sym.contrib.while_loop(lambda i, s: i <= 5, lambda i, s: ([i + s], [i + 1, s + i]), (i, s),
                                         max_iterations=max_iterations)
    return outs + final


def _while(i, s, backward=False):
    return _bind_run(_while_sym(), ["i", "s"], [i, s], backward)


def _while_steps(i, s, max_iterations=10):
    """MXNet's example loop in float64: (step outputs, final i, final s)."""
    i, s = i.astype(np.float64), s.astype(np.float64)
    outs = []
    while len(outs) < max_iterations and i[0] <= 5:
        outs.append(i + s)
        i, s = i + 1, s + i
    return outs, i, s


def _while_ref(i, s, max_iterations=10):
    outs, i, s = _while_steps(i, s, max_iterations)
    padded = np.zeros((max_iterations, 1))
    padded[:len(outs)] = np.array(outs).reshape(-1, 1)
    return padded.astype(F32), i.astype(F32), s.astype(F32)


def _while_grad_ref(i, s, eps=1e-3):
    """Central differences of sum(outputs) + i_final + s_final (the branch
    taken does not change within eps for these inputs)."""
    def total(i, s):
        outs, i_final, s_final = _while_steps(i, s)
        return float(np.sum(outs) + i_final[0] + s_final[0])
    gi = (total(i + eps, s) - total(i - eps, s)) / (2 * eps)
    gs = (total(i, s + eps) - total(i, s - eps)) / (2 * eps)
    return np.array([gi], dtype=F32), np.array([gs], dtype=F32)


def _cond_sym():
    a, b = sym.var("a"), sym.var("b")
    return [sym.contrib.cond(sym.sum(a * b) < 5, lambda: a * b + 1, lambda: a - b)]


def _cond(a, b, backward=False):
    return _bind_run(_cond_sym(), ["a", "b"], [a, b], backward)


def _cond_ref(a, b):
    return a * b + 1 if np.sum(a * b) < 5 else a - b


def _cond_grad_ref(a, b):
    if np.sum(a * b) < 5:
        return b, a
    return np.ones_like(a), -np.ones_like(b)


def _data(rng):
    return [rng.standard_normal((4, 3)).astype(F32), rng.standard_normal((3,)).astype(F32)]


_I_S = [np.array([0.0], F32), np.array([1.0], F32)]
_I_S_GRAD = [np.array([-0.5], F32), np.array([1.0], F32)]
_SMALL = [np.array([0.5, 1.0], F32), np.array([1.0, 2.0], F32)]   # sum(a*b) = 2.5 < 5: then
_LARGE = [np.array([2.0, 3.0], F32), np.array([1.0, 2.0], F32)]   # sum(a*b) = 8: else

CASES = {
    "_foreach": [Case(_data, call=_foreach, ref=_cumsum_ref, rtol=1e-5, atol=1e-5, name="cumulative sum")],
    "_backward_foreach": [Case(_data, call=lambda d, i: _foreach(d, i, backward=True), ref=_cumsum_grad_ref,
                               name="gradient of the cumulative sum")],
    "_while_loop": [Case(_I_S, call=_while, ref=_while_ref, name="MXNet's example, padded to max_iterations")],
    "_backward_while_loop": [Case(_I_S_GRAD, call=lambda i, s: _while(i, s, backward=True), ref=_while_grad_ref,
                                  rtol=1e-3, atol=1e-3, name="gradient against central differences")],
    "_cond": [Case(_SMALL, call=_cond, ref=_cond_ref, name="then branch"),
              Case(_LARGE, call=_cond, ref=_cond_ref, name="else branch")],
    "_backward_cond": [Case(_SMALL, call=lambda a, b: _cond(a, b, backward=True), ref=_cond_grad_ref,
                            name="then branch"),
                       Case(_LARGE, call=lambda a, b: _cond(a, b, backward=True), ref=_cond_grad_ref,
                            name="else branch")],
}
