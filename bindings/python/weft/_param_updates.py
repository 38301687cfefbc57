"""How Module pushes gradients and pulls weights through a KVStore (MXNet 1.x keeps these in
mx.model, which re-exports them): the store to create for a device count, its initial values,
and one update step with the updater on the workers or on the store."""
import os

from . import kvstore as kvs
from .base import InvalidArgumentError

__all__ = []


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
