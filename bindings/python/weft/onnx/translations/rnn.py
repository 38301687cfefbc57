"""The fused RNN operator (LSTM, GRU, vanilla; stacked, bidirectional) as one
ONNX LSTM/GRU/RNN node per layer."""

from ..registry import register

__all__ = []

# Note [RNN gate order]
# ~~~~~~~~~~~~~~~~~~~~~
# MXNet stacks an LSTM's gates i, f, g, o and a GRU's r, z, n (cuDNN's order);
# ONNX wants i, o, f, c and z, r, h. Each weight and bias block is reshaped to
# (gates, hidden, ...) and its gate axis gathered in ONNX's order. MXNet's GRU
# applies the reset gate after the recurrent matrix product (cuDNN's form),
# which is ONNX's linear_before_reset=1.
_MODES = {"lstm": ("LSTM", 4, [0, 3, 1, 2]), "gru": ("GRU", 3, [1, 0, 2]),
          "rnn_tanh": ("RNN", 1, [0]), "rnn_relu": ("RNN", 1, [0])}


def _block(b, flat, offset, gates, hidden, cols, order):
    """The (1, gates*hidden[, cols]) block of the flat parameter vector at ``offset``,
    its gates in ONNX's order."""
    size = gates * hidden * (cols or 1)
    piece = b.slice(flat, [offset], [offset + size], [0])
    shape = [gates, hidden, cols] if cols else [gates, hidden]
    piece = b.reshape(piece, shape)
    if order != list(range(gates)):
        piece = b.node("Gather", [piece, b.int64s(order)], axis=0)
    return b.reshape(piece, [1, gates * hidden] + ([cols] if cols else [])), offset + size


@register("RNN")
def rnn(b, node):
    mode = node.str("mode")
    if mode not in _MODES:
        raise node.error("mode=%s is not one of %s" % (mode, sorted(_MODES)))
    for unsupported in ("projection_size", "lstm_state_clip_min", "lstm_state_clip_max"):
        if node.has(unsupported):
            raise node.error("%s is not supported" % unsupported)
    if node.bool("use_sequence_length"):
        raise node.error("use_sequence_length=True is not supported")
    onnx_op, gates, order = _MODES[mode]
    hidden, layers = node.int("state_size"), node.int("num_layers")
    dirs = 2 if node.bool("bidirectional") else 1
    width = node.in_shapes[0][2]
    x, flat, h0 = node.inputs[:3]
    c0 = node.inputs[3] if mode == "lstm" else None
    # Offsets of each layer's/direction's i2h and h2h weights, then of the biases
    # (Note [Fused parameter order] in gluon/rnn/rnn_layer.py).
    offset, weights = 0, []
    for layer in range(layers):
        cols = width if layer == 0 else dirs * hidden
        per_dir = []
        for _ in range(dirs):
            w, offset = _block(b, flat, offset, gates, hidden, cols, order)
            r, offset = _block(b, flat, offset, gates, hidden, hidden, order)
            per_dir.append((w, r))
        weights.append(per_dir)
    biases = []
    for layer in range(layers):
        per_dir = []
        for _ in range(dirs):
            wb, offset = _block(b, flat, offset, gates, hidden, None, order)
            rb, offset = _block(b, flat, offset, gates, hidden, None, order)
            per_dir.append(b.node("Concat", [wb, rb], axis=1))
        biases.append(per_dir)
    attrs = {"hidden_size": hidden, "direction": "bidirectional" if dirs == 2 else "forward"}
    if onnx_op == "GRU":
        attrs["linear_before_reset"] = 1
    if onnx_op == "RNN":
        attrs["activations"] = ["Relu" if mode == "rnn_relu" else "Tanh"] * dirs
    hs, cs = [], []
    for layer in range(layers):
        cat = (lambda parts: parts[0] if dirs == 1 else b.node("Concat", parts, axis=0))  # noqa: E731
        w = cat([wr[0] for wr in weights[layer]])
        r = cat([wr[1] for wr in weights[layer]])
        bias = cat(biases[layer])
        span = ([layer * dirs], [(layer + 1) * dirs], [0])
        ins = [x, w, r, bias, "", b.slice(h0, *span)]
        if c0 is not None:
            ins.append(b.slice(c0, *span))
        outs = b.node(onnx_op, ins, n_out=3 if c0 is not None else 2, **attrs)
        y, yh = outs[0], outs[1]
        hs.append(yh)
        if c0 is not None:
            cs.append(outs[2])
        # Y is (T, dirs, N, H); the next layer (and MXNet's output) reads (T, N, dirs*H).
        x = b.reshape(b.transpose(y, [0, 2, 1, 3]), [0, 0, -1])
    b.node("Identity", [x], outputs=[node.outputs[0]], name=node.name)
    if node.bool("state_outputs"):
        for states, out in ((hs, node.outputs[1]), (cs, node.outputs[2] if c0 is not None else None)):
            if out is None:
                continue
            if len(states) == 1:
                b.node("Identity", states, outputs=[out])
            else:
                b.node("Concat", states, outputs=[out], axis=0)


