"""Cases of the fused RNN operator (rnn_relu, rnn_tanh, lstm, gru; stacked,
bidirectional, state_outputs) and _backward_RNN. The reference is a float64
NumPy forward using MXNet's parameter packing and cuDNN gate order; it also
builds the hidden reserve output (layout: Note [RNN reserve], core/op/seq/rnn_cpu.h)
that _backward_RNN reads. Backward references are finite differences of it."""
import numpy as np

from .nn_ref import F32, F64, C, fd

GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


def sig(v):
    return 1 / (1 + np.exp(-v))


def param_size(mode, input_size, state_size, num_layers, bidirectional):
    g, h, d = GATES[mode], state_size, 2 if bidirectional else 1
    return sum(d * g * h * ((input_size if l == 0 else d * h) + h + 2) for l in range(num_layers))


def unpack(w, mode, input_size, h, layers, dirs):
    gh = GATES[mode] * h
    mats, off = [], 0
    for l in range(layers):
        n_in = input_size if l == 0 else dirs * h
        for _ in range(dirs):
            W = w[off:off + gh * n_in].reshape(gh, n_in)
            off += gh * n_in
            U = w[off:off + gh * h].reshape(gh, h)
            off += gh * h
            mats.append([W, U])
    for m in mats:
        m.append(w[off:off + gh])
        m.append(w[off + gh:off + 2 * gh])
        off += 2 * gh
    return mats


def rnn64(x, w, hx, cx=None, *, state_size, num_layers, mode, bidirectional=False, state_outputs=False, **_):
    """Returns (out, hy, cy, reserve) in float64."""
    x, w, hx = (np.asarray(a, F64) for a in (x, w, hx))
    cx = None if cx is None else np.asarray(cx, F64)
    S, N, I = x.shape
    H, L, D, G = state_size, num_layers, 2 if bidirectional else 1, GATES[mode]
    extra = H if mode in ("lstm", "gru") else 0
    mats = unpack(w, mode, I, H, L, D)
    hy, cy, reserve = np.zeros((L * D, N, H)), np.zeros((L * D, N, H)), []
    inp = x
    for l in range(L):
        Y = np.zeros((S, N, D * H))
        steps = []
        for d in range(D):
            W, U, bi, bh = mats[l * D + d]
            st = np.zeros((S, N, G * H + extra))
            h = hx[l * D + d].copy()
            c = cx[l * D + d].copy() if mode == "lstm" else None
            for k in range(S):
                t = k if d == 0 else S - 1 - k
                xp = inp[t] @ W.T + bi
                hp = h @ U.T + bh
                if mode == "lstm":
                    a = xp + hp
                    i, f, gg, o = sig(a[:, :H]), sig(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sig(a[:, 3 * H:])
                    c = f * c + i * gg
                    h = o * np.tanh(c)
                    st[t] = np.concatenate([i, f, gg, o, c], axis=1)
                elif mode == "gru":
                    r = sig(xp[:, :H] + hp[:, :H])
                    z = sig(xp[:, H:2 * H] + hp[:, H:2 * H])
                    hn = hp[:, 2 * H:]
                    n = np.tanh(xp[:, 2 * H:] + r * hn)
                    h = (1 - z) * n + z * h
                    st[t] = np.concatenate([r, z, n, hn], axis=1)
                else:
                    a = xp + hp
                    h = np.tanh(a) if mode == "rnn_tanh" else np.maximum(a, 0)
                    st[t] = h
                Y[t, :, d * H:(d + 1) * H] = h
            hy[l * D + d] = h
            if mode == "lstm":
                cy[l * D + d] = c
            steps.append(st.ravel())
        reserve += [Y.ravel(), np.ones(Y.size)] + steps
        inp = Y
    return inp, hy, cy, np.concatenate(reserve)


def rnn_ref(**attrs):
    def ref(x, w, hx, cx=None):
        out, hy, cy, _ = rnn64(x, w, hx, cx, **attrs)
        outs = [out]
        if attrs.get("state_outputs"):
            outs.append(hy)
            if attrs["mode"] == "lstm":
                outs.append(cy)
        return tuple(o.astype(x.dtype) for o in outs)
    return ref


def rnn_inputs(attrs, S=3, N=2, I=3, dtype=F32):
    H, L, D = attrs["state_size"], attrs["num_layers"], 2 if attrs.get("bidirectional") else 1
    P = param_size(attrs["mode"], I, H, L, attrs.get("bidirectional", False))

    def make(rng):
        xs = [rng.uniform(-1, 1, (S, N, I)), rng.uniform(-0.5, 0.5, (P,)), rng.uniform(-1, 1, (L * D, N, H))]
        if attrs["mode"] == "lstm":
            xs.append(rng.uniform(-1, 1, (L * D, N, H)))
        return [a.astype(dtype) for a in xs]
    return make


def fwd_case(name, rtol=1e-4, atol=1e-5, dtype=F32, **attrs):
    return C(rnn_inputs(attrs, dtype=dtype), rnn_ref(**attrs), name=name, rtol=rtol, atol=atol, **attrs)


def grad_inputs(attrs):
    base = rnn_inputs(attrs, S=3, N=2, I=2, dtype=F64)

    def make(rng):
        xs = base(rng)
        out, hy, cy, reserve = rnn64(*xs, **attrs)
        heads = [rng.uniform(-1, 1, out.shape)]
        if attrs.get("state_outputs"):
            heads.append(rng.uniform(-1, 1, hy.shape))
            if attrs["mode"] == "lstm":
                heads.append(rng.uniform(-1, 1, cy.shape))
        return heads + xs + [reserve]
    return make


def grad_ref(**attrs):
    nh = 1 + (1 + (attrs["mode"] == "lstm") if attrs.get("state_outputs") else 0)
    nx = 4 if attrs["mode"] == "lstm" else 3

    def ref(*arrays):
        heads, xs = arrays[:nh], list(arrays[nh:nh + nx])

        def f(*v):
            out, hy, cy, _ = rnn64(*v, **attrs)
            outs = [out, hy, cy][:nh]
            return np.concatenate([o.ravel() for o in outs])
        gy = np.concatenate([h.ravel() for h in heads])
        return tuple(fd(f, xs, k, gy) for k in range(nx))
    return ref


def grad_case(name, **attrs):
    return C(grad_inputs(attrs), grad_ref(**attrs), name=name, rtol=1e-5, atol=1e-7, **attrs)


FORWARD = [fwd_case(m, state_size=4, num_layers=1, mode=m) for m in GATES] + [
    fwd_case("lstm_2layer_bidir_states", state_size=3, num_layers=2, mode="lstm", bidirectional=True,
             state_outputs=True),
    fwd_case("gru_2layer_bidir_states", state_size=3, num_layers=2, mode="gru", bidirectional=True,
             state_outputs=True),
    fwd_case("tanh_2layer_states_f64", dtype=F64, rtol=1e-10, atol=1e-12, state_size=3, num_layers=2,
             mode="rnn_tanh", state_outputs=True),
    fwd_case("relu_bidir", state_size=3, num_layers=1, mode="rnn_relu", bidirectional=True),
    # p only applies when training; the harness runs inference.
    fwd_case("lstm_dropout_inference", state_size=3, num_layers=2, mode="lstm", p=0.5),
]

BACKWARD = [grad_case(m, state_size=2, num_layers=1, mode=m) for m in GATES] + [
    grad_case("lstm_2layer_bidir_states", state_size=2, num_layers=2, mode="lstm", bidirectional=True,
              state_outputs=True),
    grad_case("gru_2layer_bidir_states", state_size=2, num_layers=2, mode="gru", bidirectional=True,
              state_outputs=True),
    grad_case("tanh_2layer_states", state_size=2, num_layers=2, mode="rnn_tanh", state_outputs=True),
]

CASES = {"RNN": FORWARD, "_backward_RNN": BACKWARD}
