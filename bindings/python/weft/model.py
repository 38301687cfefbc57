"""Checkpoints and the update helpers Module shares (MXNet 1.x's ``mx.model``).

Files are MXNet's: ``prefix-symbol.json`` (the symbol) and ``prefix-%04d.params``
(``weft.nd.save`` of a dict whose keys are ``arg:<name>`` and ``aux:<name>``), so
checkpoints move between Weft and MXNet 1.x either way.
"""
import logging
import os
from collections import namedtuple

from .base import InvalidArgumentError, WeftIOError
from . import kvstore as kvs
from . import ndarray as nd
from . import symbol as sym
from .context import cpu

__all__ = ["BatchEndParam", "save_checkpoint", "load_checkpoint", "load_params", "FeedForward"]

BatchEndParam = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])


def _create_kvstore(kvstore, num_device, arg_params):
    """(kvstore or None, update_on_kvstore), MXNet's rules: no store for one device
    unless it is distributed; large parameters are updated on the workers."""
    update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, kvs.KVStore):
        kv = kvstore
    elif isinstance(kvstore, str):
        if num_device == 1 and "dist" not in kvstore and kvstore != "allreduce":
            kv = None  # no need for a store on one device
        else:
            kv = kvs.create(kvstore)
            if kvstore == "local":
                max_size = max(int(arr.size) for arr in arg_params.values()) if arg_params else 0
                if max_size > 1024 * 1024 * 16:
                    update_on_kvstore = False
    else:
        raise InvalidArgumentError("kvstore must be a KVStore, a str or None, got %s" % type(kvstore).__name__)
    if kv is None:
        update_on_kvstore = False
    return kv, update_on_kvstore


def _initialize_kvstore(kvstore, param_arrays, arg_params, param_names, update_on_kvstore):
    for idx, param_on_devs in enumerate(param_arrays):
        name = param_names[idx]
        kvstore.init(name, arg_params[name])
        if update_on_kvstore or kvstore.type == "allreduce":  # allreduce: every rank starts from rank 0's values
            kvstore.pull(name, param_on_devs, priority=-idx)


def _update_params_on_kvstore(param_arrays, grad_arrays, kvstore, param_names):
    """Pushes each gradient (summed over devices, updated on the store), pulls the weights."""
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        name = param_names[index]
        kvstore.push(name, grad_list, priority=-index)
        kvstore.pull(name, arg_list, priority=-index)


def _update_params(param_arrays, grad_arrays, updater, num_device, kvstore=None, param_names=None):
    """Sums gradients over devices through the store (when there is one), then runs the
    updater on every device's copy; state index ``i * num_device + k`` as in MXNet."""
    updates = [[] for _ in range(num_device)]
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        if kvstore:
            name = param_names[index]
            kvstore.push(name, grad_list, priority=-index)
            kvstore.pull(name, grad_list, priority=-index)
        for k, (w, g) in enumerate(zip(arg_list, grad_list)):
            updates[k].append((index * num_device + k, g, w))
    for dev_updates in updates:
        if dev_updates:
            idx, grads, weights = zip(*dev_updates)
            updater(list(idx), list(grads), list(weights))


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


# At the end: FeedForward uses the functions above (and weft.callback, which imports this module).
from .feedforward import FeedForward  # noqa: E402  pylint: disable=wrong-import-position
