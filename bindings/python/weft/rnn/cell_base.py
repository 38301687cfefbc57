"""The legacy (symbolic) RNN cell base: RNNParams, BaseRNNCell and the sequence helpers
(MXNet 1.9.1's mx.rnn.rnn_cell, first part).

A cell builds Symbol graphs: ``cell(inputs, states)`` adds one time step,
``cell.unroll(length, inputs)`` adds ``length`` steps sharing the cell's weight
variables. States start as ``sym.zeros`` of shape (0, num_hidden): the 0 is the
batch size, filled in by shape inference when the graph is bound.
"""
from .. import ndarray
from .. import symbol
from ..base import InvalidArgumentError

__all__ = ["RNNParams", "BaseRNNCell"]


class RNNParams:
    """The weight variables of one or more cells, created on first use under a name prefix.

    Parameters
    ----------
    prefix : str
        Prepended to every name given to ``get``.
    """

    def __init__(self, prefix=""):
        self._prefix = prefix
        self._params = {}

    def get(self, name, **kwargs):
        """The variable ``prefix + name``, created (with ``kwargs``, e.g. ``init=``) the first time."""
        name = self._prefix + name
        if name not in self._params:
            self._params[name] = symbol.Variable(name, **kwargs)
        return self._params[name]


def _normalize_sequence(length, inputs, layout, merge, in_layout=None):
    """inputs (one Symbol with a time axis, or a list of per-step Symbols) as a list of
    ``length`` steps (merge=False), one Symbol with the time axis of ``layout``
    (merge=True), or as given (merge=None). Returns (inputs, time axis)."""
    if inputs is None:
        raise InvalidArgumentError("unroll: inputs must be a Symbol or a list of Symbols, got None")
    if layout not in ("NTC", "TNC"):
        raise InvalidArgumentError("unroll: layout must be 'NTC' or 'TNC', got %r" % (layout,))
    axis = layout.find("T")
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, symbol.Symbol):
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise InvalidArgumentError("unroll expects inputs to be one Symbol with a single output "
                                           "or a list of Symbols, got a Symbol with %d outputs"
                                           % len(inputs.list_outputs()))
            inputs = list(symbol.split(inputs, axis=in_axis, num_outputs=length, squeeze_axis=1))
    else:
        inputs = list(inputs)
        if length is not None and len(inputs) != length:
            raise InvalidArgumentError("unroll: length is %d but %d inputs were given" % (length, len(inputs)))
        if merge is True:
            inputs = [symbol.expand_dims(i, axis=axis) for i in inputs]
            inputs = symbol.Concat(*inputs, dim=axis)
            in_axis = axis
    if isinstance(inputs, symbol.Symbol) and axis != in_axis:
        inputs = symbol.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis


class BaseRNNCell:
    """Abstract base of the symbolic RNN cells.

    Parameters
    ----------
    prefix : str
        Prefix of the cell's variable and node names.
    params : RNNParams or None
        Weights shared with another cell; None creates the cell's own.
    """

    def __init__(self, prefix="", params=None):
        if params is None:
            params = RNNParams(prefix)
            self._own_params = True
        else:
            self._own_params = False
        self._prefix = prefix
        self._params = params
        self._modified = False
        self.reset()

    def reset(self):
        """Resets the step counters (before building a new unrolled graph)."""
        self._init_counter = -1
        self._counter = -1
        for cell in getattr(self, "_cells", ()):
            cell.reset()

    def __call__(self, inputs, states):
        """One step: (output, new states)."""
        raise NotImplementedError()

    @property
    def params(self):
        """The cell's RNNParams (reading it hands ownership to the caller, as in MXNet)."""
        self._own_params = False
        return self._params

    @property
    def state_info(self):
        """One dict per state: its ``shape`` (0 = batch size) and ``__layout__``."""
        raise NotImplementedError()

    @property
    def state_shape(self):
        """The shape of each state."""
        return [ele["shape"] for ele in self.state_info]

    @property
    def _gate_names(self):
        return ()

    def begin_state(self, func=symbol.zeros, **kwargs):
        """Initial states as Symbols made by ``func`` (``sym.zeros``, ``sym.Variable``, ...),
        each named ``<prefix>begin_state_<n>`` and given its state_info as keywords."""
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. DropoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        states = []
        for info in self.state_info:
            self._init_counter += 1
            if info is not None:
                kwargs.update(info)
            states.append(func(name="%sbegin_state_%d" % (self._prefix, self._init_counter), **kwargs))
        return states

    def unpack_weights(self, args):
        """args (name -> NDArray) with each fused i2h/h2h weight and bias split per gate
        (``<prefix>i2h_f_weight`` ...), as checkpoints store them."""
        args = args.copy()
        if not self._gate_names:
            return args
        h = self._num_hidden
        for group_name in ("i2h", "h2h"):
            weight = args.pop("%s%s_weight" % (self._prefix, group_name))
            bias = args.pop("%s%s_bias" % (self._prefix, group_name))
            for j, gate in enumerate(self._gate_names):
                args["%s%s%s_weight" % (self._prefix, group_name, gate)] = weight[j * h:(j + 1) * h].copy()
                args["%s%s%s_bias" % (self._prefix, group_name, gate)] = bias[j * h:(j + 1) * h].copy()
        return args

    def pack_weights(self, args):
        """The inverse of unpack_weights: per-gate weights joined back into i2h/h2h."""
        args = args.copy()
        if not self._gate_names:
            return args
        for group_name in ("i2h", "h2h"):
            weight, bias = [], []
            for gate in self._gate_names:
                weight.append(args.pop("%s%s%s_weight" % (self._prefix, group_name, gate)))
                bias.append(args.pop("%s%s%s_bias" % (self._prefix, group_name, gate)))
            args["%s%s_weight" % (self._prefix, group_name)] = ndarray.concatenate(weight)
            args["%s%s_bias" % (self._prefix, group_name)] = ndarray.concatenate(bias)
        return args

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        """``length`` steps over inputs (a Symbol with a time axis per ``layout``, or a
        list of per-step Symbols). Returns (outputs, states): outputs one Symbol
        (merge_outputs=True), a list of per-step Symbols (False), or whichever
        the steps give (None)."""
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, False)
        if begin_state is None:
            begin_state = self.begin_state()
        states = begin_state
        outputs = []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, inputs, activation, **kwargs):
        if isinstance(activation, str):
            return symbol.Activation(inputs, act_type=activation, **kwargs)
        return activation(inputs, **kwargs)


def _cells_state_info(cells):
    return sum([c.state_info for c in cells], [])


def _cells_begin_state(cells, **kwargs):
    return sum([c.begin_state(**kwargs) for c in cells], [])


def _cells_unpack_weights(cells, args):
    for cell in cells:
        args = cell.unpack_weights(args)
    return args


def _cells_pack_weights(cells, args):
    for cell in cells:
        args = cell.pack_weights(args)
    return args
