"""FusedRNNCell (the whole stack as one RNN op) and its FusedRNN initializer
(MXNet 1.9.1's mx.rnn.FusedRNNCell and mx.init.FusedRNN).

Note [Fused parameter layout]
    The RNN op takes one flat ``parameters`` vector: first every weight, then every
    bias; within each, layer by layer, direction by direction (l, r), the i2h block
    then the h2h block, each block gate by gate (LSTM i, f, c, o; GRU r, z, o), each
    gate a row-major (num_hidden, inputs) matrix. ``_slice_weights`` names each piece
    as the unfused cells name theirs (``<prefix>l0_i2h_f_weight``), which is how
    checkpoints store them (save_rnn_checkpoint unpacks, load packs).
"""
import warnings

from .. import initializer as _initializer
from .. import ndarray
from .. import symbol
from ..base import InvalidArgumentError
from .cell_base import BaseRNNCell, _normalize_sequence
from .cells import GRUCell, LSTMCell, RNNCell
from .composite import BidirectionalCell, DropoutCell, SequentialRNNCell

__all__ = ["FusedRNNCell", "FusedRNN"]

_GATES = {"rnn_relu": [""], "rnn_tanh": [""], "lstm": ["_i", "_f", "_c", "_o"], "gru": ["_r", "_z", "_o"]}


class FusedRNNCell(BaseRNNCell):
    """A multi-layer RNN run by the fused RNN op (unroll only).

    Parameters
    ----------
    num_hidden : int
    num_layers : int, default 1
    mode : {'rnn_relu', 'rnn_tanh', 'lstm', 'gru'}, default 'lstm'
    bidirectional : bool, default False
    dropout : float, default 0
        Dropout between layers.
    get_next_state : bool, default False
        Whether unroll returns the final states.
    forget_bias : float, default 1.0
    prefix : str or None, default '<mode>_'
    params : RNNParams or None
    """
    _can_step = False  # Note [Cells that cannot step] in composite.py

    def __init__(self, num_hidden, num_layers=1, mode="lstm", bidirectional=False, dropout=0.,
                 get_next_state=False, forget_bias=1.0, prefix=None, params=None):
        if mode not in _GATES:
            raise InvalidArgumentError("FusedRNNCell: mode must be one of %s, got %r" % (sorted(_GATES), mode))
        if prefix is None:
            prefix = "%s_" % mode
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._dropout = dropout
        self._get_next_state = get_next_state
        self._directions = ["l", "r"] if bidirectional else ["l"]
        initializer = FusedRNN(None, num_hidden, num_layers, mode, bidirectional, forget_bias)
        self._parameter = self.params.get("parameters", init=initializer)

    @property
    def state_info(self):
        b = self._bidirectional + 1
        n = (self._mode == "lstm") + 1
        return [{"shape": (b * self._num_layers, 0, self._num_hidden), "__layout__": "LNC"} for _ in range(n)]

    @property
    def _gate_names(self):
        return _GATES[self._mode]

    @property
    def _num_gates(self):
        return len(self._gate_names)

    def _slice_weights(self, arr, li, lh):
        """Views of arr named per unfused cell weight (Note [Fused parameter layout])."""
        args = {}
        gate_names = self._gate_names
        directions = self._directions
        b = len(directions)
        p = 0
        for layer in range(self._num_layers):
            for direction in directions:
                for gate in gate_names:
                    name = "%s%s%d_i2h%s_weight" % (self._prefix, direction, layer, gate)
                    if layer > 0:
                        size = b * lh * lh
                        args[name] = arr[p:p + size].reshape((lh, b * lh))
                    else:
                        size = li * lh
                        args[name] = arr[p:p + size].reshape((lh, li))
                    p += size
                for gate in gate_names:
                    name = "%s%s%d_h2h%s_weight" % (self._prefix, direction, layer, gate)
                    size = lh ** 2
                    args[name] = arr[p:p + size].reshape((lh, lh))
                    p += size
        for layer in range(self._num_layers):
            for direction in directions:
                for group in ("i2h", "h2h"):
                    for gate in gate_names:
                        name = "%s%s%d_%s%s_bias" % (self._prefix, direction, layer, group, gate)
                        args[name] = arr[p:p + lh]
                        p += lh
        if p != arr.size:
            raise InvalidArgumentError("FusedRNNCell: a parameters vector of %d elements does not fit this cell "
                                       "(needs %d)" % (arr.size, p))
        return args

    def unpack_weights(self, args):
        args = args.copy()
        arr = args.pop(self._parameter.name)
        b = len(self._directions)
        m = self._num_gates
        h = self._num_hidden
        num_input = arr.size // b // h // m - (self._num_layers - 1) * (h + b * h + 2) - h - 2
        nargs = self._slice_weights(arr, num_input, self._num_hidden)
        args.update({name: a.copy() for name, a in nargs.items()})
        return args

    def pack_weights(self, args):
        args = args.copy()
        b = self._bidirectional + 1
        m = self._num_gates
        c = self._gate_names
        h = self._num_hidden
        w0 = args["%sl0_i2h%s_weight" % (self._prefix, c[0])]
        num_input = w0.shape[1]
        total = (num_input + h + 2) * h * m * b + (self._num_layers - 1) * m * h * (h + b * h + 2) * b
        arr = ndarray.zeros((total,), ctx=w0.context, dtype=w0.dtype)
        for name, a in self._slice_weights(arr, num_input, h).items():
            a[:] = args.pop(name)
        args[self._parameter.name] = arr
        return args

    def __call__(self, inputs, states):
        raise NotImplementedError("FusedRNNCell cannot be stepped. Please use unroll")

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, True)
        if axis == 1:
            warnings.warn("NTC layout detected. Consider using TNC for FusedRNNCell for faster speed")
            inputs = symbol.swapaxes(inputs, dim1=0, dim2=1)
        if begin_state is None:
            begin_state = self.begin_state()
        states = begin_state
        if self._mode == "lstm":
            states = {"state": states[0], "state_cell": states[1]}
        else:
            states = {"state": states[0]}
        rnn = symbol.RNN(data=inputs, parameters=self._parameter, state_size=self._num_hidden,
                         num_layers=self._num_layers, bidirectional=self._bidirectional, p=self._dropout,
                         state_outputs=self._get_next_state, mode=self._mode, name=self._prefix + "rnn",
                         **states)
        attr = {"__layout__": "LNC"}
        if not self._get_next_state:
            outputs, states = rnn, []
        elif self._mode == "lstm":
            rnn[1]._set_attr(**attr)  # pylint: disable=protected-access
            rnn[2]._set_attr(**attr)  # pylint: disable=protected-access
            outputs, states = rnn[0], [rnn[1], rnn[2]]
        else:
            rnn[1]._set_attr(**attr)  # pylint: disable=protected-access
            outputs, states = rnn[0], [rnn[1]]
        if axis == 1:
            outputs = symbol.swapaxes(outputs, dim1=0, dim2=1)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def unfuse(self):
        """The same network as a SequentialRNNCell of stepping cells (whose weights
        unpack_weights names)."""
        make = {"rnn_relu": lambda p: RNNCell(self._num_hidden, activation="relu", prefix=p),
                "rnn_tanh": lambda p: RNNCell(self._num_hidden, activation="tanh", prefix=p),
                "lstm": lambda p: LSTMCell(self._num_hidden, prefix=p),
                "gru": lambda p: GRUCell(self._num_hidden, prefix=p)}[self._mode]
        stack = SequentialRNNCell()
        for i in range(self._num_layers):
            if self._bidirectional:
                stack.add(BidirectionalCell(make("%sl%d_" % (self._prefix, i)), make("%sr%d_" % (self._prefix, i)),
                                            output_prefix="%sbi_l%d_" % (self._prefix, i)))
            else:
                stack.add(make("%sl%d_" % (self._prefix, i)))
            if self._dropout > 0 and i != self._num_layers - 1:
                stack.add(DropoutCell(self._dropout, prefix="%s_dropout%d_" % (self._prefix, i)))
        return stack


@_initializer.register
class FusedRNN(_initializer.Initializer):
    """Initializes a fused RNN ``parameters`` vector piece by piece as the unfused cells'
    weights would be: with ``init`` (an Initializer, its dumps() string, or None for the
    global initializer), LSTM forget-gate biases set to forget_bias."""

    def __init__(self, init, num_hidden, num_layers, mode, bidirectional=False, forget_bias=1.0):
        if isinstance(init, str):
            init = _initializer.create(init)
        super().__init__(init=init.dumps() if init is not None else None, num_hidden=num_hidden,
                         num_layers=num_layers, mode=mode, bidirectional=bidirectional, forget_bias=forget_bias)
        self._init = init
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._forget_bias = forget_bias

    def _init_weight(self, desc, arr):
        cell = FusedRNNCell(self._num_hidden, self._num_layers, self._mode, self._bidirectional,
                            forget_bias=self._forget_bias, prefix="")
        args = cell.unpack_weights({"parameters": arr})
        global_init = getattr(desc, "global_init", None)
        for name in args:
            arg_desc = _initializer.InitDesc(name, global_init=global_init)
            if self._mode == "lstm" and name.endswith("_f_bias"):
                args[name][:] = self._forget_bias
            elif self._init is not None:
                self._init(arg_desc, args[name])
            elif global_init is not None:
                global_init(arg_desc, args[name])
            else:
                raise InvalidArgumentError("FusedRNN: no initializer for the pieces of %s (pass init=, or call "
                                           "it through a global initializer with an InitDesc)" % desc)
        arr[:] = cell.pack_weights(args)["parameters"]
