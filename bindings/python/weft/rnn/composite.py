"""Cells made of cells: SequentialRNNCell, BidirectionalCell, DropoutCell and the
modifiers ModifierCell, ZoneoutCell, ResidualCell (MXNet 1.9.1's mx.rnn.rnn_cell).

Note [Cells that cannot step]
    FusedRNNCell and BidirectionalCell only unroll (the fused op runs the whole
    sequence; the backward half needs the sequence reversed). They set the class
    attribute ``_can_step = False``, which ZoneoutCell and SequentialRNNCell.__call__
    check; testing the attribute rather than the class keeps this module free of an
    import of fused_cell, which imports this one for FusedRNNCell.unfuse.
"""
import numbers

from .. import symbol
from ..base import InvalidArgumentError
from .cell_base import (BaseRNNCell, _cells_begin_state, _cells_pack_weights, _cells_state_info,
                        _cells_unpack_weights, _normalize_sequence)

__all__ = ["SequentialRNNCell", "BidirectionalCell", "DropoutCell", "ModifierCell", "ZoneoutCell",
           "ResidualCell"]


class SequentialRNNCell(BaseRNNCell):
    """Cells stacked: each cell's output is the next cell's input.

    Parameters
    ----------
    params : RNNParams or None
        Weights for all the child cells (then the children must own theirs).
    """

    def __init__(self, params=None):
        super().__init__(prefix="", params=params)
        self._override_cell_params = params is not None
        self._cells = []

    def add(self, cell):
        """Appends a cell to the stack."""
        self._cells.append(cell)
        if self._override_cell_params:
            if not cell._own_params:  # pylint: disable=protected-access
                raise InvalidArgumentError("SequentialRNNCell.add: either specify params for "
                                           "SequentialRNNCell or child cells, not both.")
            cell.params._params.update(self.params._params)  # pylint: disable=protected-access
        self.params._params.update(cell.params._params)  # pylint: disable=protected-access

    @property
    def state_info(self):
        return _cells_state_info(self._cells)

    def begin_state(self, **kwargs):  # pylint: disable=arguments-differ
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        return _cells_begin_state(self._cells, **kwargs)

    def unpack_weights(self, args):
        return _cells_unpack_weights(self._cells, args)

    def pack_weights(self, args):
        return _cells_pack_weights(self._cells, args)

    def __call__(self, inputs, states):
        self._counter += 1
        next_states = []
        p = 0
        for cell in self._cells:
            if not getattr(cell, "_can_step", True):
                raise InvalidArgumentError("SequentialRNNCell: %s cannot be stepped; use unroll"
                                           % type(cell).__name__)
            n = len(cell.state_info)
            state = states[p:p + n]
            p += n
            inputs, state = cell(inputs, state)
            next_states.append(state)
        return inputs, sum(next_states, [])

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        num_cells = len(self._cells)
        if begin_state is None:
            begin_state = self.begin_state()
        p = 0
        next_states = []
        for i, cell in enumerate(self._cells):
            n = len(cell.state_info)
            states = begin_state[p:p + n]
            p += n
            inputs, states = cell.unroll(length, inputs=inputs, begin_state=states, layout=layout,
                                         merge_outputs=None if i < num_cells - 1 else merge_outputs)
            next_states.extend(states)
        return inputs, next_states


class DropoutCell(BaseRNNCell):
    """Dropout on the input (no state).

    Parameters
    ----------
    dropout : float
        Probability of zeroing an element.
    prefix : str, default 'dropout_'
    params : RNNParams or None
    """

    def __init__(self, dropout, prefix="dropout_", params=None):
        super().__init__(prefix, params)
        if not isinstance(dropout, numbers.Number):
            raise InvalidArgumentError("DropoutCell: dropout probability must be a number, got %s"
                                       % type(dropout).__name__)
        self.dropout = dropout

    @property
    def state_info(self):
        return []

    def __call__(self, inputs, states):
        if self.dropout > 0:
            inputs = symbol.Dropout(data=inputs, p=self.dropout)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, symbol.Symbol):
            return self(inputs, [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout,
                              merge_outputs=merge_outputs)


class ModifierCell(BaseRNNCell):
    """Base of the cells that wrap another cell and change what it computes; the base
    cell is then used only through the modifier."""

    def __init__(self, base_cell):
        super().__init__()
        base_cell._modified = True  # pylint: disable=protected-access
        self.base_cell = base_cell

    @property
    def params(self):
        self._own_params = False
        return self.base_cell.params

    @property
    def state_info(self):
        return self.base_cell.state_info

    def begin_state(self, init_sym=symbol.zeros, **kwargs):  # pylint: disable=arguments-differ
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. DropoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        self.base_cell._modified = False  # pylint: disable=protected-access
        begin = self.base_cell.begin_state(init_sym, **kwargs)
        self.base_cell._modified = True  # pylint: disable=protected-access
        return begin

    def unpack_weights(self, args):
        return self.base_cell.unpack_weights(args)

    def pack_weights(self, args):
        return self.base_cell.pack_weights(args)

    def __call__(self, inputs, states):
        raise NotImplementedError


class ZoneoutCell(ModifierCell):
    """Zoneout (Krueger et al. 2016): in training each output / state element keeps its
    previous value with probability zoneout_outputs / zoneout_states."""

    def __init__(self, base_cell, zoneout_outputs=0., zoneout_states=0.):
        if not getattr(base_cell, "_can_step", True):
            raise InvalidArgumentError("ZoneoutCell: %s cannot be stepped, so it does not support zoneout "
                                       "(unfuse a FusedRNNCell, or wrap the cells under a BidirectionalCell)"
                                       % type(base_cell).__name__)
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self.prev_output = None

    def reset(self):
        super().reset()
        self.prev_output = None

    def __call__(self, inputs, states):
        cell, p_outputs, p_states = self.base_cell, self.zoneout_outputs, self.zoneout_states
        next_output, next_states = cell(inputs, states)

        def mask(p, like):
            # Dropout of ones: 0 where the old value is kept (scaled 1/(1-p) elsewhere; where only
            # tests for non-zero). Outside training Dropout is the identity, so nothing is zoned out.
            return symbol.Dropout(symbol.ones_like(like), p=p)

        prev_output = self.prev_output if self.prev_output is not None else symbol.zeros((0, 0))
        output = (symbol.where(mask(p_outputs, next_output), next_output, prev_output)
                  if p_outputs != 0. else next_output)
        states = ([symbol.where(mask(p_states, new_s), new_s, old_s) for new_s, old_s in zip(next_states, states)]
                  if p_states != 0. else next_states)
        self.prev_output = output
        return output, states


class ResidualCell(ModifierCell):
    """Adds the input to the base cell's output (Wu et al. 2016, residual connections)."""

    def __call__(self, inputs, states):
        output, states = self.base_cell(inputs, states)
        output = symbol.elemwise_add(output, inputs, name="%s_plus_residual" % output.name)
        return output, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        self.base_cell._modified = False  # pylint: disable=protected-access
        outputs, states = self.base_cell.unroll(length, inputs=inputs, begin_state=begin_state, layout=layout,
                                                merge_outputs=merge_outputs)
        self.base_cell._modified = True  # pylint: disable=protected-access
        merge_outputs = isinstance(outputs, symbol.Symbol) if merge_outputs is None else merge_outputs
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if merge_outputs:
            outputs = symbol.elemwise_add(outputs, inputs, name="%s_plus_residual" % outputs.name)
        else:
            outputs = [symbol.elemwise_add(o, i, name="%s_plus_residual" % o.name)
                       for o, i in zip(outputs, inputs)]
        return outputs, states


class BidirectionalCell(BaseRNNCell):
    """Runs l_cell forward and r_cell backward over the sequence and concatenates their
    outputs on the feature axis. Unroll only (Note [Cells that cannot step]).

    Parameters
    ----------
    l_cell, r_cell : BaseRNNCell
    params : RNNParams or None
    output_prefix : str, default 'bi_'
    """
    _can_step = False

    def __init__(self, l_cell, r_cell, params=None, output_prefix="bi_"):
        super().__init__("", params=params)
        self._output_prefix = output_prefix
        self._override_cell_params = params is not None
        if self._override_cell_params:
            if not (l_cell._own_params and r_cell._own_params):  # pylint: disable=protected-access
                raise InvalidArgumentError("BidirectionalCell: either specify params for BidirectionalCell "
                                           "or child cells, not both.")
            l_cell.params._params.update(self.params._params)  # pylint: disable=protected-access
            r_cell.params._params.update(self.params._params)  # pylint: disable=protected-access
        self.params._params.update(l_cell.params._params)  # pylint: disable=protected-access
        self.params._params.update(r_cell.params._params)  # pylint: disable=protected-access
        self._cells = [l_cell, r_cell]

    def unpack_weights(self, args):
        return _cells_unpack_weights(self._cells, args)

    def pack_weights(self, args):
        return _cells_pack_weights(self._cells, args)

    def __call__(self, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    @property
    def state_info(self):
        return _cells_state_info(self._cells)

    def begin_state(self, **kwargs):  # pylint: disable=arguments-differ
        if self._modified:
            raise InvalidArgumentError("After applying modifier cells (e.g. DropoutCell) the base cell cannot "
                                       "be called directly. Call the modifier cell instead.")
        return _cells_begin_state(self._cells, **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        inputs, axis = _normalize_sequence(length, inputs, layout, False)
        if begin_state is None:
            begin_state = self.begin_state()
        states = begin_state
        l_cell, r_cell = self._cells
        n_l = len(l_cell.state_info)
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=states[:n_l], layout=layout,
                                            merge_outputs=merge_outputs)
        r_outputs, r_states = r_cell.unroll(length, inputs=list(reversed(inputs)), begin_state=states[n_l:],
                                            layout=layout, merge_outputs=merge_outputs)
        if merge_outputs is None:
            merge_outputs = isinstance(l_outputs, symbol.Symbol) and isinstance(r_outputs, symbol.Symbol)
            if not merge_outputs:
                if isinstance(l_outputs, symbol.Symbol):
                    l_outputs = list(symbol.SliceChannel(l_outputs, axis=axis, num_outputs=length, squeeze_axis=1))
                if isinstance(r_outputs, symbol.Symbol):
                    r_outputs = list(symbol.SliceChannel(r_outputs, axis=axis, num_outputs=length, squeeze_axis=1))
        if merge_outputs:
            l_outputs = [l_outputs]
            r_outputs = [symbol.reverse(r_outputs, axis=axis)]
        else:
            r_outputs = list(reversed(r_outputs))
        # the feature axis is the last: 1 for a (N, C) step, 2 for a merged (N, T, C) / (T, N, C)
        outputs = [symbol.Concat(l_o, r_o, dim=1 + merge_outputs,
                                 name=("%sout" % self._output_prefix if merge_outputs
                                       else "%st%d" % (self._output_prefix, i)))
                   for i, (l_o, r_o) in enumerate(zip(l_outputs, r_outputs))]
        if merge_outputs:
            outputs = outputs[0]
        # nested, as MXNet's: [l_cell's states, r_cell's states] (begin_state is flat)
        return outputs, [l_states, r_states]
