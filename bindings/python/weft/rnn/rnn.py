"""mx.rnn.rnn: checkpoints of models built from legacy RNN cells (MXNet 1.9.1).

Saving unpacks each cell's fused weights into per-gate arrays (the form that does not
depend on whether the cell was fused, Note [Fused parameter layout] in fused_cell.py);
loading packs them back for the cells given.
"""
from .. import model
from .cell_base import BaseRNNCell

__all__ = ["save_rnn_checkpoint", "load_rnn_checkpoint", "do_rnn_checkpoint"]


def _cell_list(cells):
    return [cells] if isinstance(cells, BaseRNNCell) else list(cells)


def save_rnn_checkpoint(cells, prefix, epoch, symbol, arg_params, aux_params):
    """Saves ``prefix-symbol.json`` and ``prefix-%04d.params`` with the cells' weights unpacked.

    Parameters
    ----------
    cells : BaseRNNCell or list of BaseRNNCell
    prefix : str
    epoch : int
    symbol : Symbol
    arg_params, aux_params : dict of str to NDArray
    """
    for cell in _cell_list(cells):
        arg_params = cell.unpack_weights(arg_params)
    model.save_checkpoint(prefix, epoch, symbol, arg_params, aux_params)


def load_rnn_checkpoint(cells, prefix, epoch):
    """Loads a checkpoint saved by save_rnn_checkpoint and packs the weights for ``cells``.

    Returns
    -------
    (Symbol, dict of str to NDArray, dict of str to NDArray)
    """
    sym, arg, aux = model.load_checkpoint(prefix, epoch)
    for cell in _cell_list(cells):
        arg = cell.pack_weights(arg)
    return sym, arg, aux


def do_rnn_checkpoint(cells, prefix, period=1):
    """An epoch-end callback (for Module.fit) calling save_rnn_checkpoint every ``period`` epochs."""
    period = int(max(1, period))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            save_rnn_checkpoint(cells, prefix, iter_no + 1, sym, arg, aux)
    return _callback
