"""Convolutional recurrent cells (MXNet 1.9.1's ``gluon.contrib.rnn``):
Conv1D/2D/3D RNN, LSTM (Shi et al., 2015) and GRU cells, whose input-to-hidden
and hidden-to-hidden transforms are convolutions. The hidden-to-hidden
convolution is padded to keep the state's spatial size (its kernel must be
odd); the state's size is the input-to-hidden convolution's output size.

    cell = contrib.rnn.Conv2DLSTMCell(input_shape=(3, 16, 16), hidden_channels=8,
                                      i2h_kernel=(3, 3), h2h_kernel=(3, 3), i2h_pad=(1, 1))
    outputs, states = cell.unroll(5, x, layout='NTC')     # x: (N, 5, 3, 16, 16)
"""
# pylint: disable=arguments-differ,too-many-arguments,too-many-instance-attributes,protected-access
from .... import symbol
from ....base import InvalidArgumentError
from ...rnn.rnn_cell import HybridRecurrentCell, _batch_zeros, _format_sequence

__all__ = ["Conv1DRNNCell", "Conv2DRNNCell", "Conv3DRNNCell", "Conv1DLSTMCell", "Conv2DLSTMCell",
           "Conv3DLSTMCell", "Conv1DGRUCell", "Conv2DGRUCell", "Conv3DGRUCell"]

_LAYOUTS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _spec(value, dims, what):
    spec = (value,) * dims if isinstance(value, int) else tuple(value)
    if len(spec) != dims or not all(isinstance(v, int) for v in spec):
        raise InvalidArgumentError("For {dims}D convolution, the convolution settings can only be either int or "
                                   "list/tuple of length {dims}; {what} is {v!r}".format(dims=dims, what=what,
                                                                                        v=value))
    return spec


def _conv_out_size(dimensions, kernels, paddings, dilations):
    return tuple(int(x + 2 * p - d * (k - 1) - 1) + 1 if x else 0
                 for x, k, p, d in zip(dimensions, kernels, paddings, dilations))


class _BaseConvRNNCell(HybridRecurrentCell):
    """Parameters i2h_weight (gates*hidden, in_channels, *i2h_kernel), h2h_weight
    (gates*hidden, hidden, *h2h_kernel), i2h_bias and h2h_bias (gates*hidden,)."""

    _num_gates = 1

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad, i2h_dilate, h2h_dilate,
                 i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                 dims, conv_layout, activation, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        if conv_layout != _LAYOUTS[dims]:
            raise InvalidArgumentError("%s: only layout %s is supported, got %r"
                                       % (type(self).__name__, _LAYOUTS[dims], conv_layout))
        input_shape = tuple(input_shape)
        if len(input_shape) != dims + 1:
            raise InvalidArgumentError("%s: input_shape must be (channels, %s), got %r"
                                       % (type(self).__name__, ", ".join("dim%d" % i for i in range(dims)),
                                          input_shape))
        self._hidden_channels = hidden_channels
        self._input_shape = input_shape
        self._conv_layout = conv_layout
        self._activation = activation
        self._i2h_kernel = _spec(i2h_kernel, dims, "i2h_kernel")
        self._stride = (1,) * dims
        self._i2h_pad = _spec(i2h_pad, dims, "i2h_pad")
        self._i2h_dilate = _spec(i2h_dilate, dims, "i2h_dilate")
        self._h2h_kernel = _spec(h2h_kernel, dims, "h2h_kernel")
        if not all(k % 2 == 1 for k in self._h2h_kernel):
            raise InvalidArgumentError("Only support odd number, get h2h_kernel= %s" % str(h2h_kernel))
        self._h2h_dilate = _spec(h2h_dilate, dims, "h2h_dilate")
        self._h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate, self._h2h_kernel))
        self._channel_axis = 1
        in_channels = input_shape[0]
        total_out = hidden_channels * self._num_gates
        self._state_shape = (hidden_channels,) + _conv_out_size(input_shape[1:], self._i2h_kernel, self._i2h_pad,
                                                                self._i2h_dilate)
        self.i2h_weight = self.params.get("i2h_weight", shape=(total_out, in_channels) + self._i2h_kernel,
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get("h2h_weight", shape=(total_out, hidden_channels) + self._h2h_kernel,
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(total_out,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(total_out,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def _num_states(self):
        return 1

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size,) + self._state_shape, "__layout__": self._conv_layout}
                for _ in range(self._num_states())]

    def __repr__(self):
        return "{name}({i2h} -> {hidden}, i2h_kernel={k}, h2h_kernel={hk})".format(
            name=self.__class__.__name__, i2h=self._input_shape, hidden=self._state_shape, k=self._i2h_kernel,
            hk=self._h2h_kernel)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        symbolic = isinstance(inputs, symbol.Symbol) or (
            isinstance(inputs, (list, tuple)) and inputs and isinstance(inputs[0], symbol.Symbol))
        if begin_state is None and symbolic:
            # zeros whose batch follows the data (Note [Zero states without a batch size] in rnn_cell.py),
            # of the state's rank rather than a dense cell's 2
            steps, _, _, _ = _format_sequence(length, inputs, layout, False)
            begin_state = [_batch_zeros(steps[0], info["shape"], ndim=len(info["shape"]))
                           for info in self.state_info(0)]
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout, merge_outputs=merge_outputs,
                              valid_length=valid_length)

    def _conv_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias, prefix):
        num_filter = self._hidden_channels * self._num_gates
        i2h = F.Convolution(data=inputs, num_filter=num_filter, kernel=self._i2h_kernel, stride=self._stride,
                            pad=self._i2h_pad, dilate=self._i2h_dilate, weight=i2h_weight, bias=i2h_bias,
                            layout=self._conv_layout, name=prefix + "i2h")
        h2h = F.Convolution(data=states[0], num_filter=num_filter, kernel=self._h2h_kernel, dilate=self._h2h_dilate,
                            pad=self._h2h_pad, stride=self._stride, weight=h2h_weight, bias=h2h_bias,
                            layout=self._conv_layout, name=prefix + "h2h")
        return i2h, h2h


class _ConvRNNCell(_BaseConvRNNCell):
    """``h' = activation(conv(x, W_i) + conv(h, W_h))``."""

    def _alias(self):
        return "conv_rnn"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias, prefix)
        output = self._get_activation(F, i2h + h2h, self._activation, name=prefix + "out")
        return output, [output]


class _ConvLSTMCell(_BaseConvRNNCell):
    """Gates i, f, c, o as LSTMCell's, from convolutions; states [h, c]."""

    _num_gates = 4

    def _num_states(self):
        return 2

    def _alias(self):
        return "conv_lstm"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias, prefix)
        gates = i2h + h2h
        slice_gates = F.SliceChannel(gates, num_outputs=4, name=prefix + "slice", axis=self._channel_axis)
        in_gate = F.Activation(slice_gates[0], act_type="sigmoid", name=prefix + "i")
        forget_gate = F.Activation(slice_gates[1], act_type="sigmoid", name=prefix + "f")
        in_transform = self._get_activation(F, slice_gates[2], self._activation, name=prefix + "c")
        out_gate = F.Activation(slice_gates[3], act_type="sigmoid", name=prefix + "o")
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform, name=prefix + "state")
        next_h = F.elemwise_mul(out_gate, self._get_activation(F, next_c, self._activation), name=prefix + "out")
        return next_h, [next_h, next_c]


class _ConvGRUCell(_BaseConvRNNCell):
    """Gates r, z and the candidate as GRUCell's, from convolutions."""

    _num_gates = 3

    def _alias(self):
        return "conv_gru"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias, prefix)
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, name=prefix + "i2h_slice", axis=self._channel_axis)
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, name=prefix + "h2h_slice", axis=self._channel_axis)
        reset_gate = F.Activation(i2h_r + h2h_r, act_type="sigmoid", name=prefix + "r_act")
        update_gate = F.Activation(i2h_z + h2h_z, act_type="sigmoid", name=prefix + "z_act")
        next_h_tmp = self._get_activation(F, i2h + reset_gate * h2h, self._activation, name=prefix + "h_act")
        next_h = F.elemwise_add((1. - update_gate) * next_h_tmp, update_gate * states[0], name=prefix + "out")
        return next_h, [next_h]


def _cell_class(base, dims):
    layout = _LAYOUTS[dims]
    zeros = (0,) * dims
    ones = (1,) * dims

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad=zeros, i2h_dilate=ones,
                 h2h_dilate=ones, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", conv_layout=layout,
                 activation="tanh", prefix=None, params=None):
        base.__init__(self, input_shape=input_shape, hidden_channels=hidden_channels, i2h_kernel=i2h_kernel,
                      h2h_kernel=h2h_kernel, i2h_pad=i2h_pad, i2h_dilate=i2h_dilate, h2h_dilate=h2h_dilate,
                      i2h_weight_initializer=i2h_weight_initializer, h2h_weight_initializer=h2h_weight_initializer,
                      i2h_bias_initializer=i2h_bias_initializer, h2h_bias_initializer=h2h_bias_initializer,
                      dims=dims, conv_layout=conv_layout, activation=activation, prefix=prefix, params=params)

    kind = {_ConvRNNCell: "RNN", _ConvLSTMCell: "LSTM", _ConvGRUCell: "GRU"}[base]
    name = "Conv%dD%sCell" % (dims, kind)
    doc = ("%dD convolutional %s cell (MXNet's %s). input_shape: (channels, %s) of one step, without the "
           "batch; layout %s; i2h_pad / dilations as Convolution's; activation 'tanh' by default."
           % (dims, kind, name, ", ".join("d%d" % i for i in range(dims)), layout))
    return type(name, (base,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


Conv1DRNNCell = _cell_class(_ConvRNNCell, 1)
Conv2DRNNCell = _cell_class(_ConvRNNCell, 2)
Conv3DRNNCell = _cell_class(_ConvRNNCell, 3)
Conv1DLSTMCell = _cell_class(_ConvLSTMCell, 1)
Conv2DLSTMCell = _cell_class(_ConvLSTMCell, 2)
Conv3DLSTMCell = _cell_class(_ConvLSTMCell, 3)
Conv1DGRUCell = _cell_class(_ConvGRUCell, 1)
Conv2DGRUCell = _cell_class(_ConvGRUCell, 2)
Conv3DGRUCell = _cell_class(_ConvGRUCell, 3)
