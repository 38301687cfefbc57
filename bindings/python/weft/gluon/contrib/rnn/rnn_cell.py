"""MXNet 1.9.1's ``gluon.contrib.rnn`` dense cells: VariationalDropoutCell
(one dropout mask per sequence, Gal & Ghahramani, 2016) and LSTMPCell (an LSTM
with a projected hidden state, Sak et al., 2014)."""
# pylint: disable=arguments-differ,too-many-arguments,protected-access
from ....base import InvalidArgumentError
from ...rnn.rnn_cell import BidirectionalCell, HybridRecurrentCell, ModifierCell, SequentialRNNCell

__all__ = ["VariationalDropoutCell", "LSTMPCell"]


class VariationalDropoutCell(ModifierCell):
    """Applies dropout to the inputs, the first state (h) and the outputs of
    ``base_cell`` with masks drawn once per sequence (at the first step after
    ``reset()``, which ``unroll`` calls) and reused at every step. Outside
    training (``autograd.record(train_mode=True)``) Dropout is the identity.

    Parameters
    ----------
    base_cell : RecurrentCell
    drop_inputs, drop_states, drop_outputs : float
        Dropout rates.
    """

    def __init__(self, base_cell, drop_inputs=0., drop_states=0., drop_outputs=0.):
        if drop_states and isinstance(base_cell, BidirectionalCell):
            raise InvalidArgumentError("BidirectionalCell doesn't support variational state dropout. Please add "
                                       "VariationalDropoutCell to the cells underneath instead.")
        if drop_states and isinstance(base_cell, SequentialRNNCell) and getattr(base_cell, "_bidirectional",
                                                                                False):
            raise InvalidArgumentError("Bidirectional SequentialRNNCell doesn't support variational state "
                                       "dropout. Please add VariationalDropoutCell to the cells underneath "
                                       "instead.")
        super().__init__(base_cell)
        self.drop_inputs = drop_inputs
        self.drop_states = drop_states
        self.drop_outputs = drop_outputs
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _alias(self):
        return "vardrop"

    def reset(self):
        super().reset()
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def hybrid_forward(self, F, inputs, states):
        if self.drop_states and self.drop_states_mask is None:
            self.drop_states_mask = F.Dropout(F.ones_like(states[0]), p=self.drop_states)
        if self.drop_inputs and self.drop_inputs_mask is None:
            self.drop_inputs_mask = F.Dropout(F.ones_like(inputs), p=self.drop_inputs)
        if self.drop_states:
            states = list(states)
            states[0] = states[0] * self.drop_states_mask  # only h, always the first state
        if self.drop_inputs:
            inputs = inputs * self.drop_inputs_mask
        next_output, next_states = self.base_cell(inputs, states)
        if self.drop_outputs and self.drop_outputs_mask is None:
            self.drop_outputs_mask = F.Dropout(F.ones_like(next_output), p=self.drop_outputs)
        if self.drop_outputs:
            next_output = next_output * self.drop_outputs_mask
        return next_output, next_states

    def __repr__(self):
        return "{name}(p_out={drop_outputs}, p_state={drop_states})".format(
            name=self.__class__.__name__, drop_outputs=self.drop_outputs, drop_states=self.drop_states)


class LSTMPCell(HybridRecurrentCell):
    """LSTM with a projection of the hidden state (LSTMP)::

        i, f, g, o = split(W_i x + b_i + W_h r + b_h, 4)
        c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
        h' = sigmoid(o) * tanh(c')
        r' = W_r h'                           (no bias)

    The output and first state are r' (projection_size); the second state is c'
    (hidden_size).

    Parameters
    ----------
    hidden_size, projection_size : int
    i2h_weight_initializer, h2h_weight_initializer, h2r_weight_initializer, i2h_bias_initializer,
    h2h_bias_initializer
        Initializers (biases default to zeros).
    input_size : int
        Input features; 0 infers it at the first step.
    """

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 h2r_weight_initializer=None, i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 input_size=0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._projection_size = projection_size
        self.i2h_weight = self.params.get("i2h_weight", shape=(4 * hidden_size, input_size),
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get("h2h_weight", shape=(4 * hidden_size, projection_size),
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.h2r_weight = self.params.get("h2r_weight", shape=(projection_size, hidden_size),
                                          init=h2r_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(4 * hidden_size,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(4 * hidden_size,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._projection_size), "__layout__": "NC"},
                {"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "lstmp"

    def __repr__(self):
        shape = self.i2h_weight.shape
        proj_shape = self.h2r_weight.shape
        return "{name}({mapping})".format(name=self.__class__.__name__, mapping="{0} -> {1} -> {2}".format(
            shape[1] if shape[1] else None, shape[0], proj_shape[0]))

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, h2r_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=self._hidden_size * 4,
                               name=prefix + "i2h")
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias, num_hidden=self._hidden_size * 4,
                               name=prefix + "h2h")
        gates = i2h + h2h
        slice_gates = F.SliceChannel(gates, num_outputs=4, name=prefix + "slice")
        in_gate = F.Activation(slice_gates[0], act_type="sigmoid", name=prefix + "i")
        forget_gate = F.Activation(slice_gates[1], act_type="sigmoid", name=prefix + "f")
        in_transform = F.Activation(slice_gates[2], act_type="tanh", name=prefix + "c")
        out_gate = F.Activation(slice_gates[3], act_type="sigmoid", name=prefix + "o")
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform, name=prefix + "state")
        hidden = F.elemwise_mul(out_gate, F.Activation(next_c, act_type="tanh"), name=prefix + "hidden")
        next_r = F.FullyConnected(data=hidden, num_hidden=self._projection_size, weight=h2r_weight, no_bias=True,
                                  name=prefix + "out")
        return next_r, [next_r, next_c]
