"""Module: a Symbol with its parameters, bound on one or several devices
(MXNet 1.x's ``mx.mod.Module``).

With ``context=[ctx0, ctx1, ...]`` each device runs the whole graph on its share
of the batch (``work_load_list`` weights the shares); gradients are summed over
the devices through a KVStore and every device applies the same update, so the
copies stay equal.
"""
# pylint: disable=too-many-instance-attributes,too-many-arguments,protected-access
import logging
import warnings

from .. import ndarray as nd
from .. import optimizer as opt
from ..base import InvalidArgumentError
from ..context import Context, cpu
from ..initializer import InitDesc, Uniform
from ..model import _create_kvstore, _initialize_kvstore, _update_params, _update_params_on_kvstore
from ..model import load_checkpoint
from .base_module import BaseModule, _check_input_names, _parse_data_desc
from .executor_group import DataParallelExecutorGroup, data_desc

__all__ = ["Module"]


class Module(BaseModule):
    """A module over one symbol.

    symbol: the network; data_names / label_names: its input arguments (label names
    missing from the symbol only warn, so a prediction symbol works with the
    default 'softmax_label'); context: a Context or a list (data parallelism);
    work_load_list: relative share of the batch per context; fixed_param_names:
    parameters not updated; state_names: inputs kept across batches (set_states)."""

    def __init__(self, symbol, data_names=("data",), label_names=("softmax_label",), logger=logging,
                 context=cpu(), work_load_list=None, fixed_param_names=None, state_names=None, group2ctxs=None,
                 compression_params=None):
        super().__init__(logger=logger)
        if isinstance(context, Context):
            context = [context]
        self._context = list(context)
        if not self._context or not all(isinstance(c, Context) for c in self._context):
            raise InvalidArgumentError("Module: context must be a Context or a non-empty list of them")
        if work_load_list is None:
            work_load_list = [1] * len(self._context)
        if len(work_load_list) != len(self._context):
            raise InvalidArgumentError("Module: work_load_list has %d entries for %d contexts"
                                       % (len(work_load_list), len(self._context)))
        self._work_load_list = work_load_list
        self._group2ctxs = group2ctxs
        self._symbol = symbol
        data_names = list(data_names) if data_names is not None else []
        label_names = list(label_names) if label_names is not None else []
        state_names = list(state_names) if state_names is not None else []
        fixed_param_names = list(fixed_param_names) if fixed_param_names is not None else []
        _check_input_names(symbol, data_names, "data", True)
        _check_input_names(symbol, label_names, "label", False)
        _check_input_names(symbol, state_names, "state", True)
        _check_input_names(symbol, fixed_param_names, "fixed_param", True)
        arg_names = symbol.list_arguments()
        input_names = data_names + label_names + state_names
        self._param_names = [x for x in arg_names if x not in input_names]
        self._fixed_param_names = fixed_param_names
        self._aux_names = symbol.list_auxiliary_states()
        self._data_names = data_names
        self._label_names = label_names
        self._state_names = state_names
        self._output_names = symbol.list_outputs()
        self._arg_params = None
        self._aux_params = None
        self._params_dirty = False
        self._compression_params = compression_params
        self._optimizer = None
        self._kvstore = None
        self._update_on_kvstore = None
        self._updater = None
        self._preload_opt_states = None
        self._grad_req = None
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    @staticmethod
    def load(prefix, epoch, load_optimizer_states=False, **kwargs):
        """A Module from a checkpoint (``prefix-symbol.json``, ``prefix-%04d.params``);
        kwargs go to Module(). The optimizer states load at init_optimizer."""
        sym, args, auxs = load_checkpoint(prefix, epoch)
        mod = Module(symbol=sym, **kwargs)
        mod._arg_params = args
        mod._aux_params = auxs
        mod.params_initialized = True
        if load_optimizer_states:
            mod._preload_opt_states = "%s-%04d.states" % (prefix, epoch)
        return mod

    def save_checkpoint(self, prefix, epoch, save_optimizer_states=False, remove_amp_cast=True):
        """Writes ``prefix-symbol.json``, ``prefix-%04d.params`` and, when asked, ``prefix-%04d.states``."""
        self._symbol.save("%s-symbol.json" % prefix, remove_amp_cast=remove_amp_cast)
        param_name = "%s-%04d.params" % (prefix, epoch)
        self.save_params(param_name)
        logging.info('Saved checkpoint to "%s"', param_name)
        if save_optimizer_states:
            state_name = "%s-%04d.states" % (prefix, epoch)
            self.save_optimizer_states(state_name)
            logging.info('Saved optimizer state to "%s"', state_name)

    def _reset_bind(self):
        self.binded = False
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    # -- properties ---------------------------------------------------------------------------
    @property
    def data_names(self):
        return self._data_names

    @property
    def label_names(self):
        return self._label_names

    @property
    def output_names(self):
        return self._output_names

    @property
    def data_shapes(self):
        assert self.binded
        return self._data_shapes

    @property
    def label_shapes(self):
        assert self.binded
        return self._label_shapes

    @property
    def output_shapes(self):
        assert self.binded
        return self._exec_group.get_output_shapes()

    # -- parameters ---------------------------------------------------------------------------
    def get_params(self):
        """(arg_params, aux_params): CPU copies, averaged over the devices."""
        assert self.binded and self.params_initialized
        if self._params_dirty:
            self._sync_params_from_devices()
        return (self._arg_params, self._aux_params)

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None, allow_missing=False,
                    force_init=False, allow_extra=False):
        """Fills the parameters: from arg_params / aux_params where given, else with the
        initializer (a parameter missing from given dicts is an error unless
        allow_missing)."""
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. init_params call ignored.",
                          stacklevel=2)
            return
        assert self.binded, "call bind before initializing the parameters"

        def _impl(name, arr, cache):
            if cache is not None:
                if name in cache:
                    cache_arr = cache[name]
                    if cache_arr is not arr:
                        if tuple(cache_arr.shape) != arr.shape:
                            raise InvalidArgumentError("init_params: '%s' has shape %s, the module's has %s"
                                                       % (name, tuple(cache_arr.shape), arr.shape))
                        if isinstance(cache_arr, nd.NDArray):
                            cache_arr.copyto(arr)
                        else:
                            arr[:] = cache_arr
                else:
                    if not allow_missing:
                        raise RuntimeError("%s is not presented" % name)
                    if initializer is not None:
                        initializer(name, arr)
            else:
                initializer(name, arr)

        attrs = self._symbol.attr_dict()
        for name, arr in sorted(self._arg_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, arg_params)
        for name, arr in sorted(self._aux_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, aux_params)
        self.params_initialized = True
        self._params_dirty = False
        self._exec_group.set_params(self._arg_params, self._aux_params, allow_extra=allow_extra)

    def set_params(self, arg_params, aux_params, allow_missing=False, force_init=True, allow_extra=False):
        """Assigns the parameters (straight into the executors when already initialized)."""
        if not allow_missing:
            self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                             allow_missing=allow_missing, force_init=force_init, allow_extra=allow_extra)
            return
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. set_params call ignored.",
                          stacklevel=2)
            return
        self._exec_group.set_params(arg_params, aux_params, allow_extra=allow_extra)
        self._params_dirty = True  # the CPU copies are stale until synced
        self.params_initialized = True

    # -- binding ------------------------------------------------------------------------------
    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False, force_rebind=False,
             shared_module=None, grad_req="write"):
        """Binds an executor per context for inputs of these shapes (DataDescs or
        ``(name, shape)`` pairs). shared_module: another bound Module whose
        parameters this one uses (the same arrays)."""
        if force_rebind:
            self._reset_bind()
        if self.binded:
            self.logger.warning("Already bound, ignoring bind()")
            return
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._grad_req = grad_req
        if not for_training and inputs_need_grad:
            raise InvalidArgumentError("bind: inputs_need_grad=True needs for_training=True")
        self._data_shapes, self._label_shapes = _parse_data_desc(self.data_names, self.label_names, data_shapes,
                                                                 label_shapes)
        if shared_module is not None:
            if not (isinstance(shared_module, Module) and shared_module.binded and shared_module.params_initialized):
                raise InvalidArgumentError("bind: shared_module must be a bound Module with initialized parameters")
            shared_group = shared_module._exec_group
            if len(shared_group.execs) < len(self._context):
                raise InvalidArgumentError("bind: shared_module runs on fewer contexts than this module")
        else:
            shared_group = None
        self._exec_group = DataParallelExecutorGroup(
            self._symbol, self._context, self._work_load_list, self._data_shapes, self._label_shapes,
            self._param_names, for_training, inputs_need_grad, shared_group, logger=self.logger,
            fixed_param_names=self._fixed_param_names, grad_req=grad_req, group2ctxs=self._group2ctxs,
            state_names=self._state_names)
        self._total_exec_bytes = self._exec_group._total_exec_bytes
        if shared_module is not None:
            self.params_initialized = True
            self._arg_params = shared_module._arg_params
            self._aux_params = shared_module._aux_params
        elif self.params_initialized:
            # re-binding (or loaded from a checkpoint): copy the parameters in
            self._exec_group.set_params(self._arg_params, self._aux_params)
        else:
            assert self._arg_params is None and self._aux_params is None
            param_arrays = [nd.zeros(x[0].shape, dtype=x[0].dtype) for x in self._exec_group.param_arrays]
            self._arg_params = dict(zip(self._param_names, param_arrays))
            aux_arrays = [nd.zeros(x[0].shape, dtype=x[0].dtype) for x in self._exec_group.aux_arrays]
            self._aux_params = dict(zip(self._aux_names, aux_arrays))
        if shared_module is not None and shared_module.optimizer_initialized:
            self.borrow_optimizer(shared_module)
        self.binded = True

    def reshape(self, data_shapes, label_shapes=None):
        """New input shapes (e.g. another batch size); the parameters stay."""
        assert self.binded
        self._data_shapes, self._label_shapes = _parse_data_desc(self.data_names, self.label_names, data_shapes,
                                                                 label_shapes)
        self._exec_group.reshape(self._data_shapes, self._label_shapes)

    # -- optimizer ----------------------------------------------------------------------------
    def init_optimizer(self, kvstore="local", optimizer="sgd", optimizer_params=(("learning_rate", 0.01),),
                       force_init=False):
        """Creates the optimizer (rescale_grad 1/batch size unless given) and the KVStore
        that sums gradients over devices (none for one device, unless distributed)."""
        assert self.binded and self.params_initialized
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring...")
            return
        if self._params_dirty:
            self._sync_params_from_devices()
        kvstore, update_on_kvstore = _create_kvstore(kvstore, len(self._context), self._arg_params)
        batch_size = self._exec_group.batch_size
        if kvstore and (("dist" in kvstore.type and "_sync" in kvstore.type) or kvstore.type == "allreduce"):
            batch_size *= kvstore.num_workers
        rescale_grad = 1.0 / batch_size
        idx2name = {}
        if update_on_kvstore:
            idx2name.update(enumerate(self._exec_group.param_names))
        else:
            for k in range(len(self._context)):
                idx2name.update({i * len(self._context) + k: n for i, n in enumerate(self._exec_group.param_names)})
        if isinstance(optimizer, str):
            optimizer_params = dict(optimizer_params)
            if "rescale_grad" not in optimizer_params:
                optimizer_params["rescale_grad"] = rescale_grad
            optimizer = opt.create(optimizer, sym=self.symbol, param_idx2name=idx2name, **optimizer_params)
        else:
            if not isinstance(optimizer, opt.Optimizer):
                raise InvalidArgumentError("init_optimizer: optimizer must be a name or an Optimizer, got %s"
                                           % type(optimizer).__name__)
            if optimizer.rescale_grad != rescale_grad:
                warnings.warn("Optimizer created manually outside Module but rescale_grad is not normalized to "
                              "1.0/batch_size/num_workers (%s vs. %s). Is this intended?"
                              % (optimizer.rescale_grad, rescale_grad), stacklevel=2)
            if not optimizer.idx2name:
                optimizer.idx2name = idx2name.copy()
        self._optimizer = optimizer
        self._kvstore = kvstore
        self._update_on_kvstore = update_on_kvstore
        self._updater = None
        if kvstore:
            if self._compression_params:
                raise InvalidArgumentError("init_optimizer: gradient compression is not supported by weft's KVStore")
            if update_on_kvstore:
                kvstore.set_optimizer(self._optimizer)
            _initialize_kvstore(kvstore=kvstore, param_arrays=self._exec_group.param_arrays,
                                arg_params=self._arg_params, param_names=self._param_names,
                                update_on_kvstore=update_on_kvstore)
        if not update_on_kvstore:
            self._updater = opt.get_updater(optimizer)
        self.optimizer_initialized = True
        if self._preload_opt_states is not None:
            self.load_optimizer_states(self._preload_opt_states)
            self._preload_opt_states = None

    def borrow_optimizer(self, shared_module):
        """Uses shared_module's optimizer, store and updater (BucketingModule)."""
        assert shared_module.optimizer_initialized
        self._optimizer = shared_module._optimizer
        self._kvstore = shared_module._kvstore
        self._update_on_kvstore = shared_module._update_on_kvstore
        self._updater = shared_module._updater
        self.optimizer_initialized = True

    # -- computations -------------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        """Forward on the batch; a batch of other shapes reshapes the module first."""
        assert self.binded and self.params_initialized
        curr_data_shapes = tuple(i.shape for i in self._data_shapes)
        if isinstance(data_batch, list):  # one batch per device, already sliced
            if len(data_batch) != len(self._context):
                raise InvalidArgumentError("forward: %d batches for %d devices" % (len(data_batch), len(self._context)))
            new_data_shapes = []
            for i in range(len(data_batch[0].data)):
                shape = tuple(data_batch[0].data[i].shape)
                if any(tuple(db.data[i].shape) != shape for db in data_batch):
                    raise InvalidArgumentError("All data batches in a list need to have the same shape")
                new_data_shapes.append((len(data_batch) * shape[0],) + shape[1:])
            if tuple(new_data_shapes) != curr_data_shapes:
                raise InvalidArgumentError("forward: a list of batches must match the bound shapes %s, got %s"
                                           % (curr_data_shapes, tuple(new_data_shapes)))
            self._exec_group.forward(data_batch, is_train)
            return
        new_data_shapes = tuple(tuple(i.shape) for i in data_batch.data)
        if curr_data_shapes != new_data_shapes:
            if getattr(data_batch, "provide_data", None):
                new_dshape = data_batch.provide_data
            else:
                new_dshape = [data_desc((i.name, shape), i.dtype, i.layout)
                              for i, shape in zip(self._data_shapes, new_data_shapes)]
            if getattr(data_batch, "provide_label", None):
                new_lshape = data_batch.provide_label
            elif getattr(data_batch, "label", None) and self._label_shapes:
                new_lshape = [data_desc((i.name, tuple(j.shape)), i.dtype, i.layout)
                              for i, j in zip(self._label_shapes, data_batch.label)]
            else:
                new_lshape = None
            self.reshape(new_dshape, new_lshape)
        self._exec_group.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        """Backward; out_grads (one per output, merged batch) for outputs that are not losses."""
        assert self.binded and self.params_initialized
        self._exec_group.backward(out_grads=out_grads)

    def update(self):
        """Applies the optimizer to the gradients of the last backward."""
        assert self.binded and self.params_initialized and self.optimizer_initialized
        self._params_dirty = True
        if self._update_on_kvstore:
            _update_params_on_kvstore(self._exec_group.param_arrays, self._exec_group.grad_arrays,
                                      self._kvstore, self._exec_group.param_names)
        else:
            _update_params(self._exec_group.param_arrays, self._exec_group.grad_arrays, updater=self._updater,
                           num_device=len(self._context), kvstore=self._kvstore,
                           param_names=self._exec_group.param_names)

    def get_outputs(self, merge_multi_context=True):
        """The outputs of the last forward (merged over devices unless asked not to)."""
        assert self.binded and self.params_initialized
        return self._exec_group.get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        """Gradients of the data inputs (bind with inputs_need_grad=True)."""
        assert self.binded and self.params_initialized and self.inputs_need_grad
        return self._exec_group.get_input_grads(merge_multi_context=merge_multi_context)

    def get_states(self, merge_multi_context=True):
        assert self.binded and self.params_initialized
        return self._exec_group.get_states(merge_multi_context=merge_multi_context)

    def set_states(self, states=None, value=None):
        assert self.binded and self.params_initialized
        self._exec_group.set_states(states, value)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Accumulates the last outputs against labels into eval_metric."""
        self._exec_group.update_metric(eval_metric, labels, pre_sliced)

    def _sync_params_from_devices(self):
        self._exec_group.get_params(self._arg_params, self._aux_params)
        self._params_dirty = False

    def save_optimizer_states(self, fname):
        """Writes the optimizer states (weft's pickle-free format, see weft/optimizer/updater.py)."""
        assert self.optimizer_initialized
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname)
        else:
            with open(fname, "wb") as fout:
                fout.write(self._updater.get_states())

    def load_optimizer_states(self, fname):
        """Restores what save_optimizer_states wrote."""
        assert self.optimizer_initialized
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
        else:
            with open(fname, "rb") as fin:
                self._updater.set_states(fin.read())

    def install_monitor(self, mon):
        """Installs a monitor on every executor."""
        assert self.binded
        self._exec_group.install_monitor(mon)
