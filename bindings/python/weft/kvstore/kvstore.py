"""The KVStore front end over the C ABI (weft_kvstore_*).

Keys are ints or strs (one kind per store, as in MXNet); values are NDArrays
or, for one key, a list of NDArrays on several devices (summed before the
update on push, all written on pull).
"""
# pylint: disable=protected-access
import atexit
import json
import sys
import weakref

from ..base import InvalidArgumentError, c_str, check_call, error_for, ffi, lib
from ..ndarray import NDArray
from .. import optimizer as opt

__all__ = ["KVStore", "create"]

_TYPES = ("local", "device", "dist_sync", "dist_async", "dist_device_sync", "dist", "allreduce")

# Optimizers the servers can run (core/kvstore/server_optimizer.h) and the
# hyper-parameters each sends besides learning_rate, wd, rescale_grad and
# clip_gradient.
_SERVER_OPTIMIZERS = {
    "sgd": ("momentum",),
    "nag": ("momentum",),
    "adam": ("beta1", "beta2", "epsilon"),
    "rmsprop": ("gamma1", "gamma2", "epsilon", "centered", "clip_weights"),
    "signum": ("momentum", "wd_lh"),
    "ftrl": ("lamda1", "beta"),
}

_LIVE_STORES = weakref.WeakSet()


def create(name="local"):
    """A new KVStore of type name (see weft.kvstore)."""
    if not isinstance(name, str):
        raise InvalidArgumentError("kvstore.create: name must be a str, got %s" % type(name).__name__)
    handle = ffi.new("weft_kvstore**")
    check_call(lib.weft_kvstore_create(name.encode(), handle))
    return KVStore(handle[0])


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


class KVStore:
    """A key-value store; make one with ``weft.kv.create``."""

    def __init__(self, handle):
        self.handle = handle
        self._key_kind = None        # int or str, fixed by the first key used
        self._keys = []              # in init order, as the user gave them
        self._updater = None
        self._updater_cb = None
        self._updater_error = None
        self._optimizer = None
        self._opt_spec = None
        _LIVE_STORES.add(self)

    def __del__(self):
        self.close()

    def close(self):
        """Releases the store; a dist store leaves the job (waits for the other workers)."""
        h, self.handle = getattr(self, "handle", None), None
        if h is not None:
            lib.weft_kvstore_free(h)

    def _h(self):
        if self.handle is None:
            raise InvalidArgumentError("kvstore: the store has been closed")
        return self.handle

    # -- properties -----------------------------------------------------------------------------
    @property
    def type(self):
        """'local', 'device', 'dist_sync', 'dist_async', 'dist_device_sync' or 'allreduce'."""
        out = ffi.new("const char**")
        check_call(lib.weft_kvstore_type(self._h(), out))
        return ffi.string(out[0]).decode()

    @property
    def rank(self):
        """This worker's rank (0 for level-1 stores)."""
        out = ffi.new("int*")
        check_call(lib.weft_kvstore_rank(self._h(), out))
        return out[0]

    @property
    def num_workers(self):
        """Number of workers in the job (1 for level-1 stores)."""
        out = ffi.new("int*")
        check_call(lib.weft_kvstore_num_workers(self._h(), out))
        return out[0]

    # -- keys and values ------------------------------------------------------------------------
    def _key_text(self, key, what):
        if isinstance(key, bool) or not isinstance(key, (int, str)):
            raise InvalidArgumentError("kvstore %s: keys must be int or str, got %r" % (what, key))
        kind = int if isinstance(key, int) else str
        if self._key_kind is None:
            self._key_kind = kind
        elif self._key_kind is not kind:
            raise InvalidArgumentError("kvstore %s: key %r is a %s but this store uses %s keys (do not mix them)"
                                       % (what, key, kind.__name__, self._key_kind.__name__))
        return c_str(str(key), "kvstore %s: key" % what)

    def _flatten(self, key, value, what):
        """(keys, arrays) as parallel lists, MXNet's key/value conventions."""
        keys, arrays = [], []
        if isinstance(key, (list, tuple)):
            values = _as_list(value)
            if len(values) != len(key):
                raise InvalidArgumentError("kvstore %s: %d keys but %d values" % (what, len(key), len(values)))
            pairs = zip(key, values)
        else:
            pairs = [(key, value)]
        for k, v in pairs:
            text = self._key_text(k, what)
            for arr in _as_list(v):
                if not isinstance(arr, NDArray):
                    raise InvalidArgumentError("kvstore %s: the value of key %r must be an NDArray or a list of "
                                               "them, got %s" % (what, k, type(arr).__name__))
                keys.append(text)
                arrays.append(arr)
        return keys, arrays

    @staticmethod
    def _c_lists(keys, arrays):
        ckeys = [ffi.new("char[]", k) for k in keys]
        return ckeys, ffi.new("const char*[]", ckeys), ffi.new("weft_ndarray*[]", [a.handle for a in arrays])

    def _call(self, rc):
        if rc:
            err, self._updater_error = self._updater_error, None
            exc = error_for(rc)
            if err is not None:
                raise err from exc
            raise exc

    def init(self, key, value):
        """Initialises key(s) with value(s); in a dist store rank 0's values win."""
        keys, arrays = self._flatten(key, value, "init")
        keep, ck, ca = self._c_lists(keys, arrays)  # pylint: disable=unused-variable
        self._call(lib.weft_kvstore_init(self._h(), len(keys), ck, ca))
        for k in _as_list(key):
            self._keys.append(k)
        if self._opt_spec is not None:
            self._send_optimizer()  # new keys may carry lr/wd multipliers

    def push(self, key, value, priority=0):
        """Pushes value(s); several values for one key are summed. An engine op: returns at once."""
        keys, arrays = self._flatten(key, value, "push")
        keep, ck, ca = self._c_lists(keys, arrays)  # pylint: disable=unused-variable
        self._call(lib.weft_kvstore_push(self._h(), len(keys), ck, ca, int(priority)))

    def pull(self, key, out=None, priority=0, ignore_sparse=True):  # pylint: disable=unused-argument
        """Pulls the value(s) of key(s) into out (one NDArray, or a list for copies on several devices)."""
        if out is None:
            raise InvalidArgumentError("kvstore pull: out= is required (the arrays to write)")
        keys, arrays = self._flatten(key, out, "pull")
        keep, ck, ca = self._c_lists(keys, arrays)  # pylint: disable=unused-variable
        self._call(lib.weft_kvstore_pull(self._h(), len(keys), ck, ca, int(priority)))

    def pushpull(self, key, value, out=None, priority=0):
        """push(key, value) then pull(key, out); out None: the values themselves receive the result."""
        vkeys, varrays = self._flatten(key, value, "pushpull")
        okeys, oarrays = self._flatten(key, value if out is None else out, "pushpull")
        keep1, vk, va = self._c_lists(vkeys, varrays)  # pylint: disable=unused-variable
        keep2, ok, oa = self._c_lists(okeys, oarrays)  # pylint: disable=unused-variable
        self._call(lib.weft_kvstore_pushpull(self._h(), len(vkeys), vk, va, len(okeys), ok, oa, int(priority)))

    def broadcast(self, key, value, out, priority=0):
        """Initialises key(s) with rank 0's value(s) and pulls them into out (MXNet 1.9's
        ``KVStore.broadcast``: init then pull)."""
        self.init(key, value)
        self.pull(key, out=out, priority=priority)

    def abort(self, reason):
        """Ends every process of the job at once, printing reason (the 'allreduce' store:
        MPI_Abort; other stores: nothing)."""
        check_call(lib.weft_kvstore_abort(self._h(), str(reason).encode()))

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Not available: weft arrays are dense; use pull."""
        raise InvalidArgumentError("kvstore row_sparse_pull: weft has no row-sparse arrays; use pull")

    # -- updates ---------------------------------------------------------------------------------
    def set_updater(self, updater):
        """Local stores: updater(key, grad, weight) runs on push, with the summed gradient."""
        if not callable(updater):
            raise InvalidArgumentError("kvstore set_updater: expected a callable, got %s" % type(updater).__name__)
        if self.type.startswith("dist"):
            raise InvalidArgumentError("kvstore set_updater: a %s store cannot run Python code on its servers; "
                                       "use set_optimizer" % self.type)
        kind = self._key_kind

        def call(ckey, recv, stored, _user):
            try:
                k = ffi.string(ckey).decode()
                updater(int(k) if kind is int else k, NDArray(recv), NDArray(stored))
                return 0
            except BaseException as exc:  # pylint: disable=broad-except
                self._updater_error = exc
                return -1

        cb = ffi.callback("weft_kvstore_updater_fn", call)  # the typedef parses in API and ABI mode
        check_call(lib.weft_kvstore_set_updater(self._h(), cb, ffi.NULL))
        self._updater, self._updater_cb = updater, cb

    _set_updater = set_updater

    def set_optimizer(self, optimizer):
        """Local stores: updates run here with ``optimizer.get_updater``. Dist stores: the
        optimizer runs on the servers; it travels as its registered name and hyper-parameters
        (JSON), so only those optimizers (sgd, nag, adam, rmsprop, signum, ftrl) without an
        lr_scheduler can be sent."""
        if not isinstance(optimizer, opt.Optimizer):
            raise InvalidArgumentError("kvstore set_optimizer: expected a weft.optimizer.Optimizer, got %s"
                                       % type(optimizer).__name__)
        self._optimizer = optimizer
        if not self.type.startswith("dist"):
            self.set_updater(opt.get_updater(optimizer))
            return
        self._opt_spec = optimizer_spec(optimizer)
        self._send_optimizer()

    def _send_optimizer(self):
        spec = dict(self._opt_spec)
        spec.update(_key_multipliers(self._optimizer, self._keys))
        check_call(lib.weft_kvstore_set_optimizer(self._h(), json.dumps(spec).encode()))

    def barrier(self):
        """Waits until every worker reaches the barrier (level-1 stores: at once)."""
        check_call(lib.weft_kvstore_barrier(self._h()))

    _barrier = barrier

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Writes the updater's states (weft's pickle-free format, weft/optimizer/updater.py)."""
        updater = self._local_updater("save_optimizer_states")
        with open(fname, "wb") as fout:
            fout.write(updater.get_states(dump_optimizer))

    def load_optimizer_states(self, fname):
        """Restores what save_optimizer_states wrote."""
        updater = self._local_updater("load_optimizer_states")
        with open(fname, "rb") as fin:
            updater.set_states(fin.read())

    def _local_updater(self, what):
        if self.type.startswith("dist"):
            raise InvalidArgumentError("kvstore %s: the optimizer states of a %s store live on the servers and "
                                       "cannot be saved from a worker" % (what, self.type))
        if not isinstance(self._updater, opt.Updater):
            raise InvalidArgumentError("kvstore %s: the store has no optimizer (call set_optimizer first)" % what)
        return self._updater


def optimizer_spec(optimizer):
    """The JSON-ready description servers rebuild the optimizer from; raises a clear
    error for one that cannot be described that way."""
    name = type(optimizer).__name__.lower()
    registered = opt.Optimizer.opt_registry.get(name)
    if name not in _SERVER_OPTIMIZERS or registered is not type(optimizer):
        raise InvalidArgumentError(
            "kvstore set_optimizer: %s cannot run on the servers: they rebuild the optimizer from its name and "
            "hyper-parameters (never from code) and know %s; use update_on_kvstore=False to update on the workers"
            % (type(optimizer).__name__, ", ".join(sorted(_SERVER_OPTIMIZERS))))
    if optimizer.lr_scheduler is not None:
        raise InvalidArgumentError("kvstore set_optimizer: an lr_scheduler cannot be sent to the servers; use "
                                   "update_on_kvstore=False (or set the learning rate each epoch)")
    if getattr(optimizer, "multi_precision", False):
        raise InvalidArgumentError("kvstore set_optimizer: multi_precision is not supported on the servers")
    spec = {"name": name, "learning_rate": float(optimizer.learning_rate), "wd": float(optimizer.wd),
            "rescale_grad": float(optimizer.rescale_grad),
            "clip_gradient": None if not optimizer.clip_gradient else float(optimizer.clip_gradient)}
    for attr in _SERVER_OPTIMIZERS[name]:
        value = getattr(optimizer, attr, None)
        if value is not None:
            spec[attr] = float(value)
    return spec


def _key_multipliers(optimizer, keys):
    """Per-key lr / wd multipliers (Gluon's lr_mult, names without weight decay ...)."""
    lr, wd = optimizer.learning_rate, optimizer.wd
    lr_mult, wd_mult = {}, {}
    for k in keys:
        if lr:
            m = optimizer._get_lrs([k])[0] / lr
            if m != 1.0:
                lr_mult[str(k)] = m
        if wd:
            m = optimizer._get_wds([k])[0] / wd
            if m != 1.0:
                wd_mult[str(k)] = m
    return {"lr_mult": lr_mult, "wd_mult": wd_mult}


@atexit.register
def _leave_jobs():
    # A dist worker must tell the scheduler it is done, or the job would count it as dead.
    # A rank of an allreduce job that dies of an uncaught exception ends the whole job now:
    # the others would otherwise wait in their next collective until the timeout.
    failure = getattr(sys, "last_value", None)
    for store in list(_LIVE_STORES):
        if failure is not None and store.handle is not None and store.type == "allreduce" and store.num_workers > 1:
            store.abort("the script raised %s: %s" % (type(failure).__name__, failure))
        store.close()
