"""Recurrent cells (MXNet 1.x's ``gluon.rnn.rnn_cell``): one time step at a
time, or a whole sequence with ``unroll``.

    cell = rnn.LSTMCell(100)                          # parameters lstm0_i2h_weight, ...
    cell.initialize()
    outputs, states = cell.unroll(5, x, layout='NTC', merge_outputs=True)

A cell is called as ``output, new_states = cell(step_input, states)`` with a
(batch, features) input and a list of (batch, hidden) states. The weights
have MXNet's shapes and gate orders (LSTM: i, f, g, o; GRU: r, z, n), which
are also the fused ``RNN`` operator's, so a cell and an ``rnn.LSTM`` layer
with the same weights compute the same thing.

Note [Zero states without a batch size]
    MXNet makes default begin states with ``symbol.zeros(shape=(0, hidden))``
    and lets shape inference fill in the batch. Weft's shape inference does
    not fill the shapes of operator outputs backwards, so when ``unroll`` (or
    the RNN layer) is traced with Symbols and no begin state is given, the
    zeros are derived from the first input instead: one feature column,
    ``zeros_like``, then broadcast to the state's width. The batch dimension
    then follows the data, and no shape is needed up front.

Note [State function arguments]
    ``begin_state(func=...)`` calls ``func(name=..., shape=..., __layout__=...,
    **kwargs)`` as MXNet does. Weft's NDArray creators (``nd.zeros``,
    ``nd.ones``, ``nd.random.*``) do not take ``name`` or dunder hints, so
    those keys are passed only to functions from ``weft.symbol``.
"""
# pylint: disable=arguments-differ,too-many-arguments,protected-access
from ... import ndarray, symbol
from ...base import InvalidArgumentError
from ...util import is_np_array
from .._np_mode import np_unroll
from ..block import Block, HybridBlock
from ..nn import LeakyReLU

__all__ = ["RecurrentCell", "HybridRecurrentCell", "RNNCell", "LSTMCell", "GRUCell", "SequentialRNNCell",
           "HybridSequentialRNNCell", "DropoutCell", "ModifierCell", "ResidualCell", "ZoneoutCell",
           "BidirectionalCell"]

tensor_types = (symbol.Symbol, ndarray.NDArray)


def _as_list(obj):
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]


def _cells_state_info(cells, batch_size):
    return sum([c.state_info(batch_size) for c in cells], [])


def _cells_begin_state(cells, **kwargs):
    return sum([c.begin_state(**kwargs) for c in cells], [])


def _call_state_func(func, name, info):
    """``func(name=name, **info)`` (Note [State function arguments])."""
    if getattr(func, "__module__", "").startswith(symbol.__name__):
        return func(name=name, **info)
    state = func(**{k: v for k, v in info.items() if not k.startswith("__")})
    if is_np_array() and isinstance(state, ndarray.NDArray):
        state = state.as_np_ndarray()  # MXNet 1.9.1's begin_state in NumPy mode (no copy)
    return state


def _batch_zeros(like, shape, batch_axis=0, ndim=2):
    """Zeros of ``shape`` (one 0 entry: the batch) whose batch is that of
    ``like``, a Symbol of rank ``ndim`` with the batch at ``batch_axis``
    (Note [Zero states without a batch size])."""
    col = like
    for axis in range(ndim):
        if axis != batch_axis:
            col = symbol.slice_axis(col, axis=axis, begin=0, end=1)
    col = symbol.reshape(symbol.zeros_like(col), shape=(-1,))          # (batch,)
    pos = list(shape).index(0)
    for _ in range(pos):
        col = symbol.expand_dims(col, axis=0)
    for _ in range(len(shape) - pos - 1):
        col = symbol.expand_dims(col, axis=-1)
    axes = tuple(i for i in range(len(shape)) if i != pos)
    if not axes:
        return col
    return symbol.broadcast_axis(col, axis=axes, size=tuple(shape[i] for i in axes))


def _get_begin_state(cell, F, begin_state, inputs, batch_size):
    """``begin_state`` or, when None, zeros for ``cell`` matching ``inputs``,
    a list of (batch, features) steps."""
    if begin_state is not None:
        return begin_state
    first = inputs[0]
    if F is ndarray:
        with first.context:
            return cell.begin_state(func=ndarray.zeros, batch_size=batch_size, dtype=first.dtype)
    return [_batch_zeros(first, info["shape"]) for info in cell.state_info(0)]


def _swap(F, x, a, b):
    if a == b:
        return x
    axes = list(range(3))
    axes[a], axes[b] = axes[b], axes[a]
    return F.transpose(x, axes=tuple(axes))


def _format_sequence(length, inputs, layout, merge, in_layout=None):
    """(inputs as a list of steps or one merged tensor, time axis, F, batch size).

    ``merge``: True stacks a list into one tensor, False splits a tensor into
    ``length`` (batch, features) steps, None keeps the given form."""
    if inputs is None:
        raise InvalidArgumentError("unroll: inputs must be given")
    axis = layout.find("T")
    batch_axis = layout.find("N")
    batch_size = 0
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, symbol.Symbol):
        F = symbol
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise InvalidArgumentError("unroll doesn't allow grouped symbol as input. Please convert to list "
                                           "with list(inputs) first or let unroll handle splitting.")
            inputs = list(symbol.split(inputs, axis=in_axis, num_outputs=length, squeeze_axis=1))
    elif isinstance(inputs, ndarray.NDArray):
        F = ndarray
        batch_size = inputs.shape[batch_axis]
        if merge is False:
            if length is not None and length != inputs.shape[in_axis]:
                raise InvalidArgumentError("unroll: length %d does not match the input's time dimension %d"
                                           % (length, inputs.shape[in_axis]))
            inputs = _as_list(ndarray.split(inputs, axis=in_axis, num_outputs=inputs.shape[in_axis],
                                            squeeze_axis=1))
    else:
        if length is not None and len(inputs) != length:
            raise InvalidArgumentError("unroll: length %d does not match the %d inputs given"
                                       % (length, len(inputs)))
        if isinstance(inputs[0], symbol.Symbol):
            F = symbol
        else:
            F = ndarray
            batch_size = inputs[0].shape[0]
        if merge is True:
            inputs = F.stack(*inputs, axis=axis)
            in_axis = axis
    if isinstance(inputs, tensor_types) and axis != in_axis:
        inputs = _swap(F, inputs, axis, in_axis)
    return inputs, axis, F, batch_size


def _mask_sequence_variable_length(F, data, length, valid_length, time_axis, merge):
    """Zeros the steps at or after each sequence's ``valid_length``."""
    if not isinstance(data, tensor_types):
        data = F.stack(*data, axis=time_axis)
    outputs = F.SequenceMask(data, sequence_length=valid_length, use_sequence_length=True, axis=time_axis)
    if not merge:
        outputs = list(F.split(outputs, num_outputs=length, axis=time_axis, squeeze_axis=True)) \
            if F is symbol else _as_list(F.split(outputs, num_outputs=length, axis=time_axis, squeeze_axis=True))
    return outputs


class RecurrentCell(Block):
    """Base class of recurrent cells: ``state_info``, ``begin_state``,
    ``unroll``; subclasses compute one step in ``forward(inputs, states)``."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._modified = False
        self.reset()

    def reset(self):
        """Resets the step counters before a new sequence."""
        self._init_counter = -1
        self._counter = -1
        for cell in self._children.values():
            cell.reset()

    def state_info(self, batch_size=0):
        """A list of dicts (``shape``, ``__layout__``) describing the states."""
        raise NotImplementedError()

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial states made by ``func(name=..., shape=..., **kwargs)``
        (default zeros; kwargs e.g. ``ctx``, ``dtype``)."""
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        states = []
        for info in self.state_info(batch_size):
            self._init_counter += 1
            info = dict(info) if info is not None else {}
            info.update(kwargs)
            states.append(_call_state_func(func, "%sbegin_state_%d" % (self._prefix, self._init_counter), info))
        return states

    @np_unroll  # np arrays in and out in NumPy mode (Note [Gluon in NumPy mode], gluon/_np_mode.py)
    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        """Runs ``length`` steps. ``inputs``: one tensor in ``layout`` or a list
        of (batch, features) steps; ``merge_outputs``: True returns one tensor,
        False a list, None the form of ``inputs``; ``valid_length`` (batch,)
        zeros the outputs past each sequence's end and returns the states at
        its last valid step. Returns (outputs, final states)."""
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        begin_state = _get_begin_state(self, F, begin_state, inputs, batch_size)
        states = begin_state
        outputs = []
        all_states = []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
            if valid_length is not None:
                all_states.append(states)
        if valid_length is not None:
            states = [F.SequenceLast(F.stack(*ele_list, axis=0), sequence_length=valid_length,
                                     use_sequence_length=True, axis=0)
                      for ele_list in zip(*all_states)]
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis, True)
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    @staticmethod
    def _get_activation(F, inputs, activation, **kwargs):
        """``activation`` (a name, a LeakyReLU block or a callable) applied to ``inputs``."""
        func = {"tanh": F.tanh, "relu": F.relu, "sigmoid": F.sigmoid}.get(activation) \
            if isinstance(activation, str) else None
        if func is not None:
            return func(inputs, **kwargs)
        if isinstance(activation, str):
            return F.Activation(inputs, act_type=activation, **kwargs)
        if isinstance(activation, LeakyReLU):
            return F.LeakyReLU(inputs, act_type="leaky", slope=activation._alpha, **kwargs)
        return activation(inputs, **kwargs)

    def forward(self, inputs, states):
        """One step: (output, new states)."""
        self._counter += 1
        return super().forward(inputs, states)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """A RecurrentCell computing its step in ``hybrid_forward(F, inputs, states, ...)``."""

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


def _gate_params(cell, gates, hidden_size, input_size, i2h_weight_initializer, h2h_weight_initializer,
                 i2h_bias_initializer, h2h_bias_initializer):
    """Registers i2h/h2h weights and biases for ``gates`` stacked gates."""
    cell.i2h_weight = cell.params.get("i2h_weight", shape=(gates * hidden_size, input_size),
                                      init=i2h_weight_initializer, allow_deferred_init=True)
    cell.h2h_weight = cell.params.get("h2h_weight", shape=(gates * hidden_size, hidden_size),
                                      init=h2h_weight_initializer, allow_deferred_init=True)
    cell.i2h_bias = cell.params.get("i2h_bias", shape=(gates * hidden_size,), init=i2h_bias_initializer,
                                    allow_deferred_init=True)
    cell.h2h_bias = cell.params.get("h2h_bias", shape=(gates * hidden_size,), init=h2h_bias_initializer,
                                    allow_deferred_init=True)


def _i2h_h2h(F, inputs, state, num_hidden, i2h_weight, h2h_weight, i2h_bias, h2h_bias, prefix):
    i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=num_hidden,
                           name=prefix + "i2h")
    h2h = F.FullyConnected(data=state, weight=h2h_weight, bias=h2h_bias, num_hidden=num_hidden,
                           name=prefix + "h2h")
    return i2h, h2h


class RNNCell(HybridRecurrentCell):
    """Elman cell: ``h' = activation(W_i x + b_i + W_h h + b_h)``.

    Parameters
    ----------
    hidden_size : int
    activation : str or Block
        'tanh' (default), 'relu', 'sigmoid', another Activation name, or a block.
    i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer
        Initializers (biases default to zeros).
    input_size : int
        Input features; 0 infers it at the first step.
    """

    def __init__(self, hidden_size, activation="tanh", i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None,
                 params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._activation = activation
        self._input_size = input_size
        _gate_params(self, 1, hidden_size, input_size, i2h_weight_initializer, h2h_weight_initializer,
                     i2h_bias_initializer, h2h_bias_initializer)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "rnn"

    def __repr__(self):
        shape = self.i2h_weight.shape
        return "{}({} -> {}, {})".format(self.__class__.__name__, shape[1] if shape[1] else None, shape[0],
                                         self._activation)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h, h2h = _i2h_h2h(F, inputs, states[0], self._hidden_size, i2h_weight, h2h_weight, i2h_bias,
                            h2h_bias, prefix)
        output = self._get_activation(F, F.elemwise_add(i2h, h2h, name=prefix + "plus0"), self._activation,
                                      name=prefix + "out")
        return output, [output]


class LSTMCell(HybridRecurrentCell):
    """Long short-term memory cell (Hochreiter and Schmidhuber), gates in the
    order input, forget, cell candidate, output:

        i, f, g, o = split(W_i x + b_i + W_h h + b_h, 4)
        c' = sigmoid(f) * c + sigmoid(i) * tanh(g);   h' = sigmoid(o) * tanh(c')

    States are [h, c]. ``activation`` replaces tanh and
    ``recurrent_activation`` the gates' sigmoid. Other arguments as RNNCell's.
    """

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None,
                 params=None, activation="tanh", recurrent_activation="sigmoid"):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._activation = activation
        self._recurrent_activation = recurrent_activation
        _gate_params(self, 4, hidden_size, input_size, i2h_weight_initializer, h2h_weight_initializer,
                     i2h_bias_initializer, h2h_bias_initializer)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"},
                {"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "lstm"

    def __repr__(self):
        shape = self.i2h_weight.shape
        return "{}({} -> {})".format(self.__class__.__name__, shape[1] if shape[1] else None, shape[0])

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h, h2h = _i2h_h2h(F, inputs, states[0], self._hidden_size * 4, i2h_weight, h2h_weight, i2h_bias,
                            h2h_bias, prefix)
        gates = F.elemwise_add(i2h, h2h, name=prefix + "plus0")
        slice_gates = F.SliceChannel(gates, num_outputs=4, name=prefix + "slice")
        in_gate = self._get_activation(F, slice_gates[0], self._recurrent_activation, name=prefix + "i")
        forget_gate = self._get_activation(F, slice_gates[1], self._recurrent_activation, name=prefix + "f")
        in_transform = self._get_activation(F, slice_gates[2], self._activation, name=prefix + "c")
        out_gate = self._get_activation(F, slice_gates[3], self._recurrent_activation, name=prefix + "o")
        next_c = F.elemwise_add(F.elemwise_mul(forget_gate, states[1], name=prefix + "mul0"),
                                F.elemwise_mul(in_gate, in_transform, name=prefix + "mul1"), name=prefix + "state")
        next_h = F.elemwise_mul(out_gate, self._get_activation(F, next_c, self._activation),
                                name=prefix + "out")
        return next_h, [next_h, next_c]


class GRUCell(HybridRecurrentCell):
    """Gated recurrent unit cell (Cho et al.), gates in the order reset,
    update, candidate, with the reset gate applied after the hidden-to-hidden
    product (as cuDNN and MXNet do):

        r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
        z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
        n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
        h' = (1 - z) * n + z * h

    Arguments as LSTMCell's.
    """

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0, prefix=None,
                 params=None, activation="tanh", recurrent_activation="sigmoid"):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._activation = activation
        self._recurrent_activation = recurrent_activation
        _gate_params(self, 3, hidden_size, input_size, i2h_weight_initializer, h2h_weight_initializer,
                     i2h_bias_initializer, h2h_bias_initializer)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "gru"

    def __repr__(self):
        shape = self.i2h_weight.shape
        return "{}({} -> {})".format(self.__class__.__name__, shape[1] if shape[1] else None, shape[0])

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        prev_h = states[0]
        i2h, h2h = _i2h_h2h(F, inputs, prev_h, self._hidden_size * 3, i2h_weight, h2h_weight, i2h_bias,
                            h2h_bias, prefix)
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, name=prefix + "i2h_slice")
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, name=prefix + "h2h_slice")
        reset_gate = self._get_activation(F, F.elemwise_add(i2h_r, h2h_r, name=prefix + "plus0"),
                                          self._recurrent_activation, name=prefix + "r_act")
        update_gate = self._get_activation(F, F.elemwise_add(i2h_z, h2h_z, name=prefix + "plus1"),
                                           self._recurrent_activation, name=prefix + "z_act")
        next_h_tmp = self._get_activation(
            F, F.elemwise_add(i2h, F.elemwise_mul(reset_gate, h2h, name=prefix + "mul0"), name=prefix + "plus2"),
            self._activation, name=prefix + "h_act")
        ones = F.ones_like(update_gate, name=prefix + "ones_like0")
        next_h = F.elemwise_add(F.elemwise_mul(F.elemwise_sub(ones, update_gate, name=prefix + "minus0"),
                                               next_h_tmp, name=prefix + "mul1"),
                                F.elemwise_mul(update_gate, prev_h, name=prefix + "mul20"), name=prefix + "out")
        return next_h, [next_h]


class _SequentialMixin:
    """Stacking shared by SequentialRNNCell and HybridSequentialRNNCell."""

    def __repr__(self):
        return "{name}(\n{modstr}\n)".format(
            name=self.__class__.__name__,
            modstr="\n".join("({i}): {m}".format(i=i, m=repr(m)) for i, m in self._children.items()))

    def add(self, cell):
        """Appends a cell (its output is the next cell's input)."""
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        return _cells_begin_state(self._children.values(), **kwargs)

    def _step(self, inputs, states):
        next_states = []
        p = 0
        for cell in self._children.values():
            if isinstance(cell, BidirectionalCell):
                raise InvalidArgumentError("a BidirectionalCell cannot be stepped; use unroll")
            n = len(cell.state_info())
            state = states[p:p + n]
            p += n
            inputs, state = cell(inputs, state)
            next_states.append(state)
        return inputs, sum(next_states, [])

    @np_unroll  # np arrays in and out in NumPy mode (Note [Gluon in NumPy mode], gluon/_np_mode.py)
    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        num_cells = len(self._children)
        p = 0
        next_states = []
        for i, cell in enumerate(self._children.values()):
            n = len(cell.state_info())
            states = None if begin_state is None else begin_state[p:p + n]   # None: each cell makes zeros
            p += n
            inputs, states = cell.unroll(length, inputs=inputs, begin_state=states, layout=layout,
                                         merge_outputs=None if i < num_cells - 1 else merge_outputs,
                                         valid_length=valid_length)
            next_states.extend(states)
        return inputs, next_states

    def __getitem__(self, i):
        return self._children[str(i)]

    def __len__(self):
        return len(self._children)


class SequentialRNNCell(_SequentialMixin, RecurrentCell):
    """Stacks cells: each one's output is the next one's input; the states
    are all cells' states concatenated."""

    def __call__(self, inputs, states):
        self._counter += 1
        return self._step(inputs, states)


class HybridSequentialRNNCell(_SequentialMixin, HybridRecurrentCell):
    """SequentialRNNCell of hybrid cells (hybridizable as one step)."""

    def __call__(self, inputs, states):
        self._counter += 1
        return self._step(inputs, states)

    def hybrid_forward(self, F, inputs, states):
        return self._step(inputs, states)


class DropoutCell(HybridRecurrentCell):
    """Applies dropout (``rate``, along ``axes``) to the input; no states."""

    def __init__(self, rate, axes=(), prefix=None, params=None):
        super().__init__(prefix, params)
        if not isinstance(rate, (int, float)):
            raise InvalidArgumentError("rate must be a number, got %s" % type(rate).__name__)
        self._rate = rate
        self._axes = axes

    @property
    def rate(self):
        return self._rate

    def __repr__(self):
        return "{}(rate={}, axes={})".format(self.__class__.__name__, self._rate, self._axes)

    def state_info(self, batch_size=0):
        return []

    def _alias(self):
        return "dropout"

    def hybrid_forward(self, F, inputs, states):
        if self._rate > 0:
            inputs = F.Dropout(data=inputs, p=self._rate, axes=self._axes, name="t%d_fwd" % self._counter)
        return inputs, states

    @np_unroll  # np arrays in and out in NumPy mode (Note [Gluon in NumPy mode], gluon/_np_mode.py)
    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        inputs, _, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, tensor_types):
            return self.hybrid_forward(F, inputs, begin_state if begin_state else [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout,
                              merge_outputs=merge_outputs, valid_length=valid_length)


class ModifierCell(HybridRecurrentCell):
    """Base class of cells that wrap ``base_cell`` and change its behaviour;
    the wrapped cell then must not be called directly."""

    def __init__(self, base_cell):
        if base_cell._modified:
            raise InvalidArgumentError("Cell %s is already modified. One cell cannot be modified twice"
                                       % base_cell.name)
        base_cell._modified = True
        super().__init__(prefix=base_cell.prefix + self._alias(), params=None)
        self.base_cell = base_cell

    @property
    def params(self):
        return self.base_cell.params

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, func=ndarray.zeros, **kwargs):
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. DropoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        self.base_cell._modified = False
        begin = self.base_cell.begin_state(func=func, **kwargs)
        self.base_cell._modified = True
        return begin

    def __repr__(self):
        return "{}({})".format(self.__class__.__name__, self.base_cell)

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError


class ZoneoutCell(ModifierCell):
    """Zoneout (Krueger et al.): in training, each output / state unit keeps
    its previous value with probability ``zoneout_outputs`` / ``zoneout_states``."""

    def __init__(self, base_cell, zoneout_outputs=0.0, zoneout_states=0.0):
        if isinstance(base_cell, BidirectionalCell):
            raise InvalidArgumentError("BidirectionalCell doesn't support zoneout since it doesn't support step. "
                                       "Please add ZoneoutCell to the cells underneath instead.")
        if isinstance(base_cell, _SequentialMixin) and \
                any(isinstance(c, BidirectionalCell) for c in base_cell._children.values()):
            raise InvalidArgumentError("Bidirectional SequentialRNNCell doesn't support zoneout. Please add "
                                       "ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self._prev_output = None

    def __repr__(self):
        return "{}(p_out={}, p_state={}, {})".format(self.__class__.__name__, self.zoneout_outputs,
                                                     self.zoneout_states, self.base_cell)

    def _alias(self):
        return "zoneout"

    def reset(self):
        super().reset()
        self._prev_output = None

    def hybrid_forward(self, F, inputs, states):
        cell, p_outputs, p_states = self.base_cell, self.zoneout_outputs, self.zoneout_states
        next_output, next_states = cell(inputs, states)

        def mask(p, like):
            return F.Dropout(F.ones_like(like), p=p)

        prev_output = self._prev_output
        if prev_output is None:
            prev_output = F.zeros_like(next_output)
        output = F.where(mask(p_outputs, next_output), next_output, prev_output) if p_outputs != 0.0 \
            else next_output
        states = ([F.where(mask(p_states, new_s), new_s, old_s) for new_s, old_s in zip(next_states, states)]
                  if p_states != 0.0 else next_states)
        self._prev_output = output
        return output, states


class ResidualCell(ModifierCell):
    """Adds the input to ``base_cell``'s output (He et al.'s residual
    connection); input and output widths must agree."""

    def hybrid_forward(self, F, inputs, states):
        output, states = self.base_cell(inputs, states)
        output = F.elemwise_add(output, inputs, name="t%d_fwd" % self._counter)
        return output, states

    @np_unroll  # np arrays in and out in NumPy mode (Note [Gluon in NumPy mode], gluon/_np_mode.py)
    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        self.reset()
        self.base_cell._modified = False
        outputs, states = self.base_cell.unroll(length, inputs=inputs, begin_state=begin_state, layout=layout,
                                                merge_outputs=merge_outputs, valid_length=valid_length)
        self.base_cell._modified = True
        merge_outputs = isinstance(outputs, tensor_types) if merge_outputs is None else merge_outputs
        inputs, axis, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if valid_length is not None:
            inputs = _mask_sequence_variable_length(F, inputs, length, valid_length, axis, merge_outputs)
        if merge_outputs:
            outputs = F.elemwise_add(outputs, inputs)
        else:
            outputs = [F.elemwise_add(i, j) for i, j in zip(outputs, inputs)]
        return outputs, states


class BidirectionalCell(HybridRecurrentCell):
    """Runs ``l_cell`` forward and ``r_cell`` backward in time and
    concatenates their outputs along the feature axis; only ``unroll`` works
    (a single step has no "backward"). States: l_cell's, then r_cell's."""

    def __init__(self, l_cell, r_cell, output_prefix="bi_"):
        super().__init__(prefix="", params=None)
        self.register_child(l_cell, "l_cell")
        self.register_child(r_cell, "r_cell")
        self._output_prefix = output_prefix

    def __call__(self, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    def __repr__(self):
        return "{}(forward={}, backward={})".format(self.__class__.__name__, self._children["l_cell"],
                                                    self._children["r_cell"])

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. DropoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        return _cells_begin_state(self._children.values(), **kwargs)

    @np_unroll  # np arrays in and out in NumPy mode (Note [Gluon in NumPy mode], gluon/_np_mode.py)
    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        if valid_length is not None:
            raise InvalidArgumentError("BidirectionalCell.unroll: valid_length is not supported in Weft "
                                       "(it needs SequenceReverse)")
        self.reset()
        inputs, axis, F, _ = _format_sequence(length, inputs, layout, False)
        reversed_inputs = list(reversed(inputs))
        l_cell, r_cell = self._children.values()
        n_left = len(l_cell.state_info())
        l_begin, r_begin = (None, None) if begin_state is None else (begin_state[:n_left], begin_state[n_left:])
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=l_begin, layout=layout,
                                            merge_outputs=False)
        r_outputs, r_states = r_cell.unroll(length, inputs=reversed_inputs, begin_state=r_begin,
                                            layout=layout, merge_outputs=False)
        reversed_r_outputs = list(reversed(r_outputs))
        if merge_outputs:
            l_outputs = F.stack(*l_outputs, axis=axis)
            reversed_r_outputs = F.stack(*reversed_r_outputs, axis=axis)
            outputs = F.concat(l_outputs, reversed_r_outputs, dim=2, name="%sout" % self._output_prefix)
        else:
            outputs = [F.concat(l_o, r_o, dim=1, name="%st%d" % (self._output_prefix, i))
                       for i, (l_o, r_o) in enumerate(zip(l_outputs, reversed_r_outputs))]
        return outputs, l_states + r_states

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")
