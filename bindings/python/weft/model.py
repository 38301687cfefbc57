"""Checkpoints (MXNet 1.x's ``mx.model``): save_checkpoint, load_checkpoint, load_params, and
BatchEndParam, the record batch-end callbacks receive.

Files are MXNet's: ``prefix-symbol.json`` (the symbol) and ``prefix-%04d.params``
(``weft.nd.save`` of a dict whose keys are ``arg:<name>`` and ``aux:<name>``), so
checkpoints move between Weft and MXNet 1.x either way.

This file sits low (callback.py, feedforward.py and module/ import it): mx.model.FeedForward is
assembled by weft/__init__.py from feedforward.py, and the kvstore helpers Module shares
(_create_kvstore, _update_params, ...) live in _param_updates.py, re-exported here under
MXNet's names.
"""
import logging
from collections import namedtuple

from . import ndarray as nd
from . import symbol as sym
from ._param_updates import (_create_kvstore, _initialize_kvstore, _update_params,  # noqa: F401
                             _update_params_on_kvstore)
from .base import WeftIOError
from .context import cpu

__all__ = ["BatchEndParam", "save_checkpoint", "load_checkpoint", "load_params", "FeedForward"]

BatchEndParam = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])


def save_checkpoint(prefix, epoch, symbol, arg_params, aux_params, remove_amp_cast=True):
    """Writes ``prefix-symbol.json`` (when symbol is not None) and ``prefix-%04d.params``."""
    if symbol is not None:
        symbol.save("%s-symbol.json" % prefix, remove_amp_cast=remove_amp_cast)
    save_dict = {("arg:%s" % k): v.as_in_context(cpu()) for k, v in arg_params.items()}
    save_dict.update({("aux:%s" % k): v.as_in_context(cpu()) for k, v in aux_params.items()})
    param_name = "%s-%04d.params" % (prefix, epoch)
    nd.save(param_name, save_dict)
    logging.info('Saved checkpoint to "%s"', param_name)


def load_params(prefix, epoch):
    """(arg_params, aux_params) from ``prefix-%04d.params``."""
    fname = "%s-%04d.params" % (prefix, epoch)
    save_dict = nd.load(fname)
    if not isinstance(save_dict, dict):
        raise WeftIOError("load_params: %s holds an unnamed list of arrays, not a checkpoint "
                          "(keys 'arg:<name>' / 'aux:<name>')" % fname)
    arg_params, aux_params = {}, {}
    for k, v in save_dict.items():
        tp, sep, name = k.partition(":")
        if not sep or tp not in ("arg", "aux"):
            raise WeftIOError("load_params: %s has key %r; a checkpoint's keys are 'arg:<name>' or 'aux:<name>'"
                              % (fname, k))
        (arg_params if tp == "arg" else aux_params)[name] = v
    return arg_params, aux_params


def load_checkpoint(prefix, epoch):
    """(symbol, arg_params, aux_params) from ``prefix-symbol.json`` and ``prefix-%04d.params``."""
    symbol = sym.load("%s-symbol.json" % prefix)
    arg_params, aux_params = load_params(prefix, epoch)
    return symbol, arg_params, aux_params
