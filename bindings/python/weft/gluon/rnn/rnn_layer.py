"""Recurrent layers over the fused ``RNN`` operator (MXNet 1.x's
``gluon.rnn.rnn_layer``): ``RNN``, ``LSTM`` and ``GRU``, multi-layer and
bidirectional.

    layer = rnn.LSTM(100, num_layers=2, layout='NTC')
    layer.initialize()
    out = layer(x)                          # (batch, seq, 100)
    out, [h, c] = layer(x, layer.begin_state(batch_size=4))

Each layer ``i`` and direction (``l`` forward, ``r`` backward) has the
parameters ``{d}{i}_i2h_weight`` (gates*hidden, inputs), ``{d}{i}_h2h_weight``
(gates*hidden, hidden), ``{d}{i}_i2h_bias`` and ``{d}{i}_h2h_bias``, named as
in MXNet (``lstm0_l0_i2h_weight``) so parameter files carry over. The forward
pass packs them into the operator's one flat vector (Note [Fused parameter
order]). ``input_size=0`` defers the first layer's input width to the first
call.

Note [Fused parameter order]
    The RNN operator takes all weights, then all biases: for each layer, for
    each direction, i2h then h2h. Each matrix is flattened row-major with the
    gates stacked in the order of the cells (LSTM i, f, g, o; GRU r, z, n), so
    ``_unfuse()`` can hand the same Parameters to LSTMCell / GRUCell / RNNCell.
"""
# pylint: disable=arguments-differ,too-many-arguments,too-many-instance-attributes,too-many-locals
from ... import ndarray
from ...base import InvalidArgumentError, ShapeError
from ..block import HybridBlock
from . import rnn_cell

__all__ = ["RNN", "LSTM", "GRU"]

_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


class _RNNLayer(HybridBlock):
    """The layer shared by RNN, LSTM and GRU (``mode`` picks the recurrence)."""

    def __init__(self, hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                 i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                 mode, projection_size=None, h2r_weight_initializer=None, lstm_state_clip_min=None,
                 lstm_state_clip_max=None, lstm_state_clip_nan=False, dtype="float32", use_sequence_length=False,
                 **kwargs):
        super().__init__(**kwargs)
        if layout not in ("TNC", "NTC"):
            raise InvalidArgumentError("Invalid layout %s; must be one of ['TNC' or 'NTC']" % layout)
        if projection_size:
            raise InvalidArgumentError("%s: projection_size is not supported by Weft's RNN operator"
                                       % self.__class__.__name__)
        if lstm_state_clip_min is not None or lstm_state_clip_max is not None:
            raise InvalidArgumentError("%s: state clipping is not supported by Weft's RNN operator"
                                       % self.__class__.__name__)
        if use_sequence_length:
            raise InvalidArgumentError("%s: use_sequence_length is not supported by Weft's RNN operator"
                                       % self.__class__.__name__)
        del h2r_weight_initializer, lstm_state_clip_nan  # only meaningful with projection / clipping
        self._hidden_size = hidden_size
        self._num_layers = num_layers
        self._mode = mode
        self._layout = layout
        self._dropout = dropout
        self._dir = 2 if bidirectional else 1
        self._input_size = input_size
        self._i2h_weight_initializer = i2h_weight_initializer
        self._h2h_weight_initializer = h2h_weight_initializer
        self._i2h_bias_initializer = i2h_bias_initializer
        self._h2h_bias_initializer = h2h_bias_initializer
        self._dtype = dtype
        self._gates = _GATES[mode]

        ng, ni, nh = self._gates, input_size, hidden_size
        for i in range(num_layers):
            for j in ["l", "r"][:self._dir]:
                self._register_param("{}{}_i2h_weight".format(j, i), (ng * nh, ni), i2h_weight_initializer)
                self._register_param("{}{}_h2h_weight".format(j, i), (ng * nh, nh), h2h_weight_initializer)
                self._register_param("{}{}_i2h_bias".format(j, i), (ng * nh,), i2h_bias_initializer)
                self._register_param("{}{}_h2h_bias".format(j, i), (ng * nh,), h2h_bias_initializer)
            ni = nh * self._dir

    def _register_param(self, name, shape, init):
        p = self.params.get(name, shape=shape, init=init, allow_deferred_init=True, dtype=self._dtype)
        setattr(self, name, p)
        return p

    def __repr__(self):
        s = "{name}({mapping}, {_layout}"
        if self._num_layers != 1:
            s += ", num_layers={_num_layers}"
        if self._dropout != 0:
            s += ", dropout={_dropout}"
        if self._dir == 2:
            s += ", bidirectional"
        s += ")"
        shape = self.l0_i2h_weight.shape
        mapping = "{0} -> {1}".format(shape[1] if shape[1] else None, shape[0] // self._gates)
        return s.format(name=self.__class__.__name__, mapping=mapping, **self.__dict__)

    def state_info(self, batch_size=0):
        """The states' shapes: (num_layers * directions, batch, hidden), one
        for RNN and GRU, two (h, c) for LSTM."""
        info = {"shape": (self._num_layers * self._dir, batch_size, self._hidden_size), "__layout__": "LNC",
                "dtype": self._dtype}
        return [dict(info) for _ in range(2 if self._mode == "lstm" else 1)]

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial states made by ``func(name=..., shape=..., **kwargs)``
        (default zeros; kwargs e.g. ``ctx``, ``dtype``)."""
        states = []
        for i, info in enumerate(self.state_info(batch_size)):
            info.update(kwargs)
            states.append(rnn_cell._call_state_func(func, "%sh0_%d" % (self.prefix, i), info))
        return states

    def _unfuse(self):
        """A HybridSequentialRNNCell of cells sharing this layer's parameters
        (bidirectional layers become BidirectionalCells, dropout DropoutCells)."""
        make = {
            "rnn_relu": lambda **kw: rnn_cell.RNNCell(self._hidden_size, activation="relu", **kw),
            "rnn_tanh": lambda **kw: rnn_cell.RNNCell(self._hidden_size, activation="tanh", **kw),
            "lstm": lambda **kw: rnn_cell.LSTMCell(self._hidden_size, **kw),
            "gru": lambda **kw: rnn_cell.GRUCell(self._hidden_size, **kw),
        }[self._mode]
        stack = rnn_cell.HybridSequentialRNNCell(prefix=self.prefix, params=self.params)
        with stack.name_scope():
            ni = self._input_size
            for i in range(self._num_layers):
                kwargs = {"input_size": ni,
                          "i2h_weight_initializer": self._i2h_weight_initializer,
                          "h2h_weight_initializer": self._h2h_weight_initializer,
                          "i2h_bias_initializer": self._i2h_bias_initializer,
                          "h2h_bias_initializer": self._h2h_bias_initializer}
                if self._dir == 2:
                    stack.add(rnn_cell.BidirectionalCell(make(prefix="l%d_" % i, **kwargs),
                                                         make(prefix="r%d_" % i, **kwargs)))
                else:
                    stack.add(make(prefix="l%d_" % i, **kwargs))
                if self._dropout > 0 and i != self._num_layers - 1:
                    stack.add(rnn_cell.DropoutCell(self._dropout))
                ni = self._hidden_size * self._dir
        return stack

    def infer_shape(self, inputs, *args):
        """Sets the first layer's input width from ``inputs`` (the fused
        parameter vector hides it from graph shape inference)."""
        if len(inputs.shape) != 3:
            raise ShapeError("%s: input data should be rank-3 (%s), got shape %s"
                             % (self.__class__.__name__, self._layout, inputs.shape))
        ni = inputs.shape[self._layout.find("C")]
        for i in range(self._num_layers):
            for j in ["l", "r"][:self._dir]:
                getattr(self, "{}{}_i2h_weight".format(j, i)).shape = (self._gates * self._hidden_size, ni)
            ni = self._hidden_size * self._dir

    def __call__(self, inputs, states=None, **kwargs):
        """``layer(inputs)`` -> outputs; ``layer(inputs, states)`` -> (outputs, new states)."""
        skip_states = states is None
        if skip_states and isinstance(inputs, ndarray.NDArray):
            states = self.begin_state(inputs.shape[self._layout.find("N")], ctx=inputs.context, dtype=inputs.dtype)
        if isinstance(states, rnn_cell.tensor_types):
            states = [states]
        out = super().__call__(inputs, states, **kwargs)
        return out[0] if skip_states else out

    def _symbol_begin_state(self, inputs):
        """Zero states for a traced call without states (Note [Zero states
        without a batch size] in rnn_cell.py); ``inputs`` is in TNC."""
        return [rnn_cell._batch_zeros(inputs, info["shape"], batch_axis=1, ndim=3) for info in self.state_info(0)]

    def hybrid_forward(self, F, inputs, states, **kwargs):
        if self._layout == "NTC":
            inputs = F.transpose(inputs, axes=(1, 0, 2))
        if states is None:
            states = self._symbol_begin_state(inputs)
        elif F is ndarray:
            for state, info in zip(states, self.state_info(inputs.shape[1])):
                if state.shape != info["shape"]:
                    raise ShapeError("Invalid recurrent state shape. Expecting %s, got %s."
                                     % (str(info["shape"]), str(state.shape)))
        # Note [Fused parameter order]
        params = [F.reshape(kwargs["{}{}_{}_{}".format(d, l, g, t)], shape=(-1,))
                  for t in ["weight", "bias"] for l in range(self._num_layers)
                  for d in ["l", "r"][:self._dir] for g in ["i2h", "h2h"]]
        # MXNet 1.9.1 joins them with _rnn_param_concat, whose shape inference fills the weights
        # that only data sizes (Note [RNN parameter concat], core/op/shape/concat.cc).
        params = F._internal._rnn_param_concat(*params, dim=0)
        rnn = F.RNN(inputs, params, *states, state_size=self._hidden_size, num_layers=self._num_layers,
                    bidirectional=self._dir == 2, p=self._dropout, state_outputs=True, mode=self._mode)
        outputs, states = rnn[0], [rnn[i] for i in range(1, 3 if self._mode == "lstm" else 2)]
        if self._layout == "NTC":
            outputs = F.transpose(outputs, axes=(1, 0, 2))
        return outputs, states


class RNN(_RNNLayer):
    """Multi-layer Elman RNN: ``h_t = activation(W_i x_t + b_i + W_h h_{t-1} + b_h)``.

    Parameters
    ----------
    hidden_size : int
    num_layers : int
    activation : {'relu', 'tanh'}
    layout : {'TNC', 'NTC'}
        Where the time (T), batch (N) and feature (C) axes are.
    dropout : float
        Dropout on each layer's output except the last (training only).
    bidirectional : bool
        Also run backward in time; outputs are twice as wide.
    i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer
        Initializers (biases default to zeros).
    input_size : int
        Input features; 0 infers them at the first call.
    dtype : str
        The parameters' dtype.

    ``layer(x)`` returns the outputs (T, N, dirs*hidden in TNC); ``layer(x,
    states)`` returns (outputs, new states), states being
    [(num_layers*dirs, N, hidden)].
    """

    def __init__(self, hidden_size, num_layers=1, activation="relu", layout="TNC", dropout=0,
                 bidirectional=False, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, dtype="float32",
                 **kwargs):
        if activation not in ("relu", "tanh"):
            raise InvalidArgumentError("RNN: activation must be 'relu' or 'tanh', got %r" % (activation,))
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                         "rnn_" + activation, dtype=dtype, **kwargs)


class LSTM(_RNNLayer):
    """Multi-layer LSTM (gates i, f, g, o as LSTMCell). Arguments as RNN's
    (without ``activation``); states are [h, c], each (num_layers*dirs, N,
    hidden). ``projection_size`` and state clipping are not supported."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False, input_size=0,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", projection_size=None, h2r_weight_initializer=None,
                 state_clip_min=None, state_clip_max=None, state_clip_nan=False, dtype="float32", **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                         "lstm", projection_size, h2r_weight_initializer, state_clip_min, state_clip_max,
                         state_clip_nan, dtype, **kwargs)


class GRU(_RNNLayer):
    """Multi-layer GRU (gates r, z, n as GRUCell). Arguments as RNN's
    (without ``activation``); states are [(num_layers*dirs, N, hidden)]."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False, input_size=0,
                 i2h_weight_initializer=None, h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", dtype="float32", **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                         "gru", dtype=dtype, **kwargs)
