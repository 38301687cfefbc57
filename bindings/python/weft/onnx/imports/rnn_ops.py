"""Import of ONNX's LSTM, GRU and RNN as Weft's fused RNN operator, one layer
each (the gate orders are Note [RNN gate order] in translations/rnn.py, read
backwards)."""
import numpy as np

from ... import symbol as S
from ..import_registry import register_import

__all__ = []

# ONNX gate order -> MXNet's: LSTM i,o,f,c -> i,f,c,o; GRU z,r,h -> r,z,n.
_GATES = {"LSTM": (4, [0, 2, 3, 1]), "GRU": (3, [1, 0, 2]), "RNN": (1, [0])}


def _const(ctx, node, i, what):
    if len(node.input) <= i or not node.input[i]:
        return None
    v = ctx.const_value(node.input[i])
    if v is None:
        raise ctx.error(node, "a computed %s is not supported" % what)
    return v


@register_import("LSTM", "GRU", "RNN")
def recurrent(ctx, node):
    op = node.op_type
    gates, order = _GATES[op]
    hidden = ctx.attr(node, "hidden_size")
    direction = ctx.attr(node, "direction", "forward")
    if direction not in ("forward", "bidirectional"):
        raise ctx.error(node, "direction=%s is not supported" % direction)
    if ctx.attr(node, "layout", 0) != 0 or ctx.attr(node, "clip") is not None or \
            ctx.attr(node, "input_forget", 0):
        raise ctx.error(node, "layout, clip and input_forget are not supported")
    mode = {"LSTM": "lstm", "GRU": "gru"}.get(op)
    acts = ctx.attr(node, "activations")
    if op == "RNN":
        act = (acts or ["Tanh"])[0]
        if act not in ("Tanh", "Relu") or (acts and len(set(acts)) > 1):
            raise ctx.error(node, "activations=%s are not supported" % acts)
        mode = "rnn_tanh" if act == "Tanh" else "rnn_relu"
    elif acts is not None:
        raise ctx.error(node, "non-default activations are not supported")
    if op == "GRU" and ctx.attr(node, "linear_before_reset", 0) != 1:
        raise ctx.error(node, "linear_before_reset=0 has no Weft form (Weft's GRU is cuDNN's)")
    if len(node.input) > 4 and node.input[4]:
        raise ctx.error(node, "sequence_lens is not supported")
    if len(node.input) > 7 and node.input[7]:
        raise ctx.error(node, "peepholes are not supported")
    w, r = _const(ctx, node, 1, "W"), _const(ctx, node, 2, "R")
    dirs = w.shape[0]
    b = _const(ctx, node, 3, "B")
    if b is None:
        b = np.zeros((dirs, 2 * gates * hidden), w.dtype)

    def mx_order(block):  # (gates*hidden, ...) in ONNX order -> MXNet order, flattened
        return block.reshape((gates, hidden) + block.shape[1:])[order].reshape(-1)

    flat = [mx_order(m) for d in range(dirs) for m in (w[d], r[d])]
    flat += [mx_order(v) for d in range(dirs) for v in (b[d, :gates * hidden], b[d, gates * hidden:])]
    params = ctx.new_param(ctx.name(node) + "_parameters", np.concatenate(flat).astype(w.dtype))
    x_shape = ctx.shape_of(node.input[0])
    states = []
    for i in (5, 6) if op == "LSTM" else (5,):
        if len(node.input) > i and node.input[i]:
            states.append(ctx.symbol(node.input[i]))
        else:
            states.append(S.zeros((dirs, x_shape[1], hidden)))
    out = S.RNN(ctx.symbol(node.input[0]), params, *states, state_size=hidden, num_layers=1,
                bidirectional=dirs == 2, mode=mode, state_outputs=True, name=ctx.name(node))
    # Weft gives (T, N, dirs*H); ONNX's Y is (T, dirs, N, H).
    y = S.transpose(S.Reshape(out[0], shape=(0, 0, dirs, hidden)), axes=(0, 2, 1, 3))
    return [y, out[1]] + ([out[2]] if op == "LSTM" else [])
