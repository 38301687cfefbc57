"""Trainer: applies an optimizer to a set of Parameters (MXNet 1.x's
``mxnet.gluon.Trainer``).

    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(batch_size)          # rescale_grad = 1 / batch_size, then update

Parameter ``i`` (in sorted-name order for a dict) is optimizer index ``i``, and
the optimizer's ``param_dict`` maps it back to the Parameter, so each
Parameter's ``lr_mult`` / ``wd_mult`` apply. Parameters with grad_req 'null'
are skipped.

Note [Trainer and KVStore]
    As in MXNet 1.x, the store is chosen at the first step (``_init_kvstore``):
    with ``kvstore`` 'local' / 'device' and every Parameter on one device no
    store is needed; with copies on several devices a level-1 store sums the
    gradients (``pushpull``) so every copy is updated with the sum by its own
    Updater (all sharing one optimizer), or, with ``update_on_kvstore=True``,
    the store runs the optimizer once and every copy pulls the new weight.
    ``'dist_sync'`` / ``'dist_async'`` / ``'dist_device_sync'`` (or a KVStore
    object of such a type) in a job started by ``python -m weft.launch``:
    Parameter i is key i, rank 0's initial values are pulled by every worker,
    and by default (``update_on_kvstore`` None) the optimizer runs on the
    servers when it can be sent there (weft.kvstore.optimizer_spec), otherwise
    gradients are summed across workers and each worker updates its copy
    (dist_async always needs the servers to update). Changing the batch size
    re-sends the optimizer with the new rescale_grad. ``kvstore=None`` leaves
    each copy's gradient alone, as in MXNet. compression_params are refused
    where gradients would travel (weft has no gradient compression).
    ``'allreduce'`` (a job under mpirun): the store is made by the
    constructor, not at the first step, so every rank starts from rank 0's
    values (Parameter i is key i; init broadcasts them); each step sums every gradient over the
    workers in one ``pushpull`` call (bucketed, Note [Buckets] in
    core/kvstore/kvstore_allreduce.h) and each worker updates its own copy
    (update_on_kvstore=True runs the same update inside the store).

Note [Stale gradients]
    As in MXNet, backward marks a gradient "fresh" when it writes it
    (``NDArray._fresh_grad`` on the parameter's array, kept by the core's
    autograd: Note [Fresh gradients] in core/autograd/autograd.cc) and the
    Trainer clears the mark when it applies the gradient. A parameter whose
    gradient is not fresh at ``step``/``update`` was not used by the backward
    since the last step: the Trainer raises naming it, or with
    ignore_stale_grad skips it. Parameters whose deferred initialization never
    finished (never used in a forward pass) are treated the same way.
"""
# pylint: disable=protected-access
import os

from .. import kvstore as kvs
from .. import optimizer as opt
from ..base import InvalidArgumentError, WeftError
from .parameter import DeferredInitializationError, Parameter, ParameterDict

__all__ = ["Trainer"]

_LOCAL_KVSTORES = ("local", "device")


class Trainer:
    """Applies an Optimizer on a set of Parameters.

    Parameters
    ----------
    params : ParameterDict, dict of str to Parameter, or list of Parameter
    optimizer : str or weft.optimizer.Optimizer
        A registered name ('sgd', 'adam', ...) or an instance (then
        optimizer_params must be empty).
    optimizer_params : dict
        Keyword arguments of the optimizer, e.g. ``{'learning_rate': 0.1}``.
    kvstore : None, str or weft.kvstore.KVStore
        'local', 'device', 'dist_sync', 'dist_async', 'dist_device_sync' or a
        store (Note [Trainer and KVStore]).
    compression_params : dict or None
        Gradient compression; only accepted where no gradients travel.
    update_on_kvstore : None or bool
        Whether the store runs the optimizer (None: on the servers of a
        distributed store when the optimizer can be sent there).
    """

    def __init__(self, params, optimizer, optimizer_params=None, kvstore="device", compression_params=None,
                 update_on_kvstore=None):
        if isinstance(params, (dict, ParameterDict)):
            params = [params[key] for key in sorted(params.keys())]
        if not isinstance(params, (list, tuple)):
            raise InvalidArgumentError("First argument must be a list or dict of Parameters, got %s."
                                       % type(params).__name__)
        self._params = []
        self._param2idx = {}
        for i, param in enumerate(params):
            if not isinstance(param, Parameter):
                raise InvalidArgumentError("First argument must be a list or dict of Parameters, got list of %s."
                                           % type(param).__name__)
            if param.name in self._param2idx:
                raise InvalidArgumentError("Parameter '%s' is given to the Trainer twice" % param.name)
            self._param2idx[param.name] = i
            self._params.append(param)
            param._set_trainer(self)
        _check_kvstore_arg(kvstore)
        if update_on_kvstore not in (None, True, False):
            raise InvalidArgumentError("update_on_kvstore must be None, True or False, got %r" % (update_on_kvstore,))
        self._kvstore_params = {"kvstore": kvstore, "update_on_kvstore": update_on_kvstore}
        self._compression_params = compression_params
        self._init_optimizer(optimizer, optimizer_params if optimizer_params else {})
        self._scale = self._optimizer.rescale_grad
        self._kv_initialized = False
        self._kvstore = None            # made at the first step (Note [Trainer and KVStore])
        self._update_on_kvstore = False
        self._distributed = False
        self._sent_rescale = None
        self._reduce_grads = False
        self._contexts = None
        self._params_to_init = []
        if kvstore == "allreduce" or (isinstance(kvstore, kvs.KVStore) and kvstore.type == "allreduce"):
            # Every rank must compute its first gradient on rank 0's weights: broadcast the
            # initialized ones now, not at the first step (deferred ones follow at that step).
            self._init_kvstore()

    def _init_optimizer(self, optimizer, optimizer_params):
        param_dict = dict(enumerate(self._params))
        if isinstance(optimizer, opt.Optimizer):
            if optimizer_params:
                raise InvalidArgumentError("optimizer_params must be None if optimizer is an instance of "
                                           "Optimizer instead of str")
            self._optimizer = optimizer
            self._optimizer.param_dict = param_dict
        elif isinstance(optimizer, str):
            self._optimizer = opt.create(optimizer, param_dict=param_dict, **optimizer_params)
        else:
            raise InvalidArgumentError("optimizer must be a name or an Optimizer, got %s" % type(optimizer).__name__)
        self._updaters = []  # one per device, made with the device list (_init_kvstore)

    def _check_contexts(self):
        """The devices every initialized Parameter lives on (the same for all)."""
        contexts = None
        for param in self._params:
            try:
                ctx = param.list_ctx()
            except WeftError:
                continue  # not initialized: reported by _update
            if contexts is not None and list(contexts) != list(ctx):
                raise InvalidArgumentError(
                    "All Parameters must be initialized on the same set of contexts, but Parameter %s is "
                    "initialized on %s while previous Parameters are initialized on %s."
                    % (param.name, str(ctx), str(contexts)))
            contexts = ctx
        return list(contexts) if contexts else []

    def _init_kvstore(self):
        """Decides how gradients are combined (Note [Trainer and KVStore]); runs at the first step."""
        contexts = self._check_contexts()
        kvstore = self._kvstore_params["kvstore"]
        want_update = self._kvstore_params["update_on_kvstore"]
        distributed = (isinstance(kvstore, kvs.KVStore) and _is_multi_worker(kvstore.type)) or \
            (isinstance(kvstore, str) and _is_multi_worker(kvstore))
        multi = len(contexts) > 1
        store = None
        # A store that outlives this call (a distributed one, or one the caller gave) keeps its
        # keys when the devices change (reset_ctx): it is reused, not initialised again.
        reused = self._kvstore is not None and (distributed or isinstance(kvstore, kvs.KVStore))
        if reused:
            store = self._kvstore
        elif distributed or (multi and kvstore is not None):
            if self._compression_params:
                raise InvalidArgumentError("compression_params: weft has no gradient compression")
            store = kvstore if isinstance(kvstore, kvs.KVStore) else kvs.create(kvstore)
        elif isinstance(kvstore, kvs.KVStore):
            store = kvstore
        update_on_kvstore = False
        if store is not None:
            self._distributed = _is_multi_worker(store.type)
            if want_update is not None:
                update_on_kvstore = want_update
            elif self._distributed and store.type != "allreduce":
                update_on_kvstore = _can_run_on_servers(self._optimizer)
            if store.type == "dist_async" and not update_on_kvstore:
                raise InvalidArgumentError("Trainer: dist_async needs update_on_kvstore (the servers apply each "
                                           "push at once); %s" % _why_not_on_servers(self._optimizer))
        self._kvstore = store
        self._update_on_kvstore = update_on_kvstore
        self._reduce_grads = store is not None
        old_contexts, self._contexts = self._contexts, contexts
        kept = self._updaters[0].get_states() if self._updaters and self._updaters[0].states else None
        self._updaters = [opt.get_updater(self._optimizer) for _ in (contexts or [None])]
        if kept is not None:
            # The parameters moved (reset_ctx): each device gets its own copy of the states, and
            # the per-device update counts (Adam's bias correction) carry over to new devices.
            for updater in self._updaters:
                updater.set_states(kept)
            counts = getattr(self._optimizer, "_all_index_update_counts", None)
            if isinstance(counts, dict) and old_contexts:
                src = counts.get(old_contexts[0].device_id, {})
                for ctx in contexts:
                    if not counts.get(ctx.device_id):
                        counts[ctx.device_id] = dict(src)
        self._kv_initialized = True
        self._params_to_init = list(self._params) if store is not None and not reused else []
        if store is not None and update_on_kvstore:
            store.set_optimizer(self._optimizer)
            self._sent_rescale = self._optimizer.rescale_grad
        self._init_params()

    def _reset_kvstore(self):
        """Forgets the device layout and the store (Parameter.set_data calls this when needed)."""
        if self._kvstore is not None and (self._distributed or isinstance(self._kvstore_params["kvstore"],
                                                                          kvs.KVStore)):
            raise InvalidArgumentError("Trainer: the weights live in the KVStore (update_on_kvstore) and a %s store "
                                       "cannot be initialised again: set_data after the first step needs "
                                       "update_on_kvstore=False" % self._kvstore.type)
        self._kv_initialized = False
        self._kvstore = None

    def _init_params(self):
        """Puts every Parameter whose initialization has finished into the store: key i with
        the first copy's value, then every copy pulls it (in a distributed job: rank 0's value)."""
        if self._kvstore is None:
            self._params_to_init = []
            return
        ready = [p for p in self._params_to_init if not p._deferred_init]
        if ready:  # one init call: a distributed store synchronises the workers once per call
            idx = [self._param2idx[p.name] for p in ready]
            self._kvstore.init(idx, [p.list_data()[0] for p in ready])
            for i, param in zip(idx, ready):
                self._kvstore.pull(i, param.list_data(), priority=-i)
        self._params_to_init = [p for p in self._params_to_init if p._deferred_init]

    def _ready(self):
        if not self._kv_initialized:
            self._init_kvstore()
        elif self._contexts != self._check_contexts():
            self._init_kvstore()  # parameters were moved (reset_ctx) since the first step
        if self._params_to_init:
            self._init_params()

    # -- learning rate -------------------------------------------------------------------------
    @property
    def learning_rate(self):
        """The optimizer's current learning rate."""
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        """The Optimizer (an instance, also when a name was given)."""
        return self._optimizer

    def set_learning_rate(self, lr):
        """Sets the optimizer's learning rate (not with an lr_scheduler)."""
        self._optimizer.set_learning_rate(lr)

    # -- steps -----------------------------------------------------------------------------------
    def step(self, batch_size, ignore_stale_grad=False):
        """One update: ``rescale_grad = 1 / batch_size`` (times the optimizer's own
        rescale_grad at construction), allreduce_grads, then update. Call after
        ``backward`` and outside ``autograd.record()``."""
        self._optimizer.rescale_grad = self._scale / batch_size
        self._ready()
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """Combines the gradients of the copies on several devices (Note
        [Trainer and KVStore]); with one device there is nothing to do. For
        ``allreduce_grads(); <modify grads>; update(batch_size)``."""
        self._ready()
        self._allreduce_grads()

    def update(self, batch_size, ignore_stale_grad=False):
        """The update half of ``step``, after ``allreduce_grads``."""
        self._ready()
        self._optimizer.rescale_grad = self._scale / batch_size
        self._update(ignore_stale_grad)

    def _allreduce_grads(self):
        if not self._reduce_grads:
            return
        if self._update_on_kvstore and self._optimizer.rescale_grad != self._sent_rescale:
            self._kvstore.set_optimizer(self._optimizer)  # the batch size changed: new rescale_grad
            self._sent_rescale = self._optimizer.rescale_grad
        if self._kvstore.type == "allreduce" and not self._update_on_kvstore:
            # One call for every key: the store fuses small gradients into buckets and
            # reduces them from the last layer back (Note [Buckets] in kvstore_allreduce.h).
            keys, grads = [], []
            for i, param in enumerate(self._params):
                if param.grad_req != "null" and not param._deferred_init:
                    keys.append(i)
                    grads.append(param.list_grad())
            if keys:
                self._kvstore.pushpull(keys, grads, out=grads)
            return
        for i, param in enumerate(self._params):
            if param.grad_req == "null" or param._deferred_init:
                continue
            grads = param.list_grad()
            if self._update_on_kvstore:
                self._kvstore.push(i, grads, priority=-i)
            else:
                self._kvstore.pushpull(i, grads, out=grads, priority=-i)

    def _update(self, ignore_stale_grad=False):
        # Check every parameter before touching any, so a refused step changes nothing.
        todo = []
        for i, param in enumerate(self._params):
            if param.grad_req == "null":
                continue
            try:
                arrays = param.list_data()
            except DeferredInitializationError:
                if ignore_stale_grad:
                    continue
                raise _stale_error(param.name, "its initialization is still deferred: it has not been used "
                                   "in a forward pass") from None
            if not ignore_stale_grad:
                for arr in arrays:
                    if not arr._fresh_grad:
                        raise _stale_error(param.name, "its gradient on context %s has not been updated by "
                                           "backward since the last `step`" % str(arr.context))
            todo.append((i, param, arrays))
        updates = [[] for _ in self._updaters]
        for i, param, arrays in todo:
            if self._update_on_kvstore:
                # The store ran the optimizer at push (allreduce_grads): fetch the new weights.
                self._kvstore.pull(i, arrays, priority=-i)
                for arr in arrays:
                    arr._fresh_grad = False
                continue
            for upd, arr, grad in zip(updates, arrays, param.list_grad()):
                if arr._fresh_grad:  # stale ones are skipped (ignore_stale_grad)
                    upd.append((i, grad, arr))
                    arr._fresh_grad = False
        for updater, upd in zip(self._updaters, updates):
            if upd:
                idx, grads, arrays = zip(*upd)
                updater(list(idx), list(grads), list(arrays))

    # -- optimizer states --------------------------------------------------------------------------
    def save_states(self, fname):
        """Writes the optimizer and its per-parameter states to fname
        (weft's pickle-free format, weft/optimizer/updater.py)."""
        self._ready()
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname, dump_optimizer=True)
            return
        data = self._updaters[0].get_states(dump_optimizer=True)
        with open(fname, "wb") as fout:
            fout.write(data)

    def load_states(self, fname):
        """Restores what save_states wrote; the optimizer is replaced by the saved one."""
        self._ready()
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
            self._optimizer = self._kvstore._updater.optimizer
            self._optimizer.param_dict = dict(enumerate(self._params))
            return
        with open(fname, "rb") as fin:
            states = fin.read()
        for updater in self._updaters:
            updater.set_states(states)
            updater.optimizer = self._updaters[0].optimizer
        self._optimizer = self._updaters[0].optimizer
        self._optimizer.param_dict = dict(enumerate(self._params))


_STORE_TYPES = ("local", "device", "dist_sync", "dist_async", "dist_device_sync", "dist", "allreduce")


def _is_multi_worker(store_type):
    """Stores whose workers are separate processes (the weights are set up once per job)."""
    return store_type.startswith("dist") or store_type == "allreduce"


def _check_kvstore_arg(kvstore):
    if kvstore is None or isinstance(kvstore, kvs.KVStore):
        return
    if isinstance(kvstore, str) and kvstore in _STORE_TYPES:
        if kvstore.startswith("dist") and not (os.environ.get("WEFT_ROLE") or os.environ.get("DMLC_ROLE")):
            raise InvalidArgumentError(
                "Trainer: kvstore=%r: a distributed KVStore needs a job started by python -m weft.launch "
                "(WEFT_ROLE is not set in this process)" % kvstore)
        return
    if isinstance(kvstore, str):
        raise InvalidArgumentError("Trainer: kvstore=%r: weft has no KVStore of this type; "
                                   "use 'device', 'local', None, 'dist_sync' / 'dist_async' / "
                                   "'dist_device_sync' or 'allreduce'" % kvstore)
    raise InvalidArgumentError("Trainer: kvstore must be None, a store name or a weft.kvstore.KVStore, got a %s "
                               "object" % type(kvstore).__name__)


def _can_run_on_servers(optimizer):
    try:
        kvs.kvstore.optimizer_spec(optimizer)
        return True
    except InvalidArgumentError:
        return False


def _why_not_on_servers(optimizer):
    try:
        kvs.kvstore.optimizer_spec(optimizer)
        return "set update_on_kvstore=True"
    except InvalidArgumentError as exc:
        return str(exc)


def _stale_error(name, why):
    return UserWarning(
        "Gradient of Parameter `%s` cannot be used: %s. This could mean a bug in your model that made it only "
        "use a subset of the Parameters (Blocks) for this iteration. If you are intentionally only using a "
        "subset, call step with ignore_stale_grad=True to suppress this warning and skip updating of "
        "Parameters with stale gradient" % (name, why))
