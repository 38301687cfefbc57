"""DataParallelExecutorGroup: one executor per device, each on a slice of the batch
(MXNet 1.x's ``mxnet.module.executor_group``).

Every executor is an ordinary ``simple_bind`` executor (weft/executor.py); the
group only slices batches along their batch axis (``N`` of the layout, else 0),
copies the slices in, and merges outputs back. Gradients are summed across
devices by the Module (through the KVStore), not here.
"""
# pylint: disable=too-many-instance-attributes,too-many-arguments
import logging
from collections import OrderedDict, namedtuple

import numpy as np

from ..base import InvalidArgumentError, ShapeError
from ..context import Context, cpu
from ..io import DataDesc
from .. import ndarray as nd
from ..ndarray import NDArray

__all__ = ["DataParallelExecutorGroup", "data_desc", "batch_axis"]

_Desc = namedtuple("DataDesc", ["name", "shape", "dtype", "layout"])


def data_desc(item, dtype=None, layout=None):
    """A weft.io.DataDesc from a DataDesc or a ``(name, shape)`` pair;
    dtype and layout, when given, replace the item's."""
    name, shape = item[0], tuple(int(d) for d in item[1])
    dtype = dtype if dtype is not None else getattr(item, "dtype", np.float32)
    layout = layout if layout is not None else getattr(item, "layout", "NCHW")
    return DataDesc(name, shape, dtype=dtype, layout=layout)


def batch_axis(layout):
    """The position of ``N`` in layout; 0 without a layout (MXNet's DataDesc.get_batch_axis)."""
    if layout is None:
        return 0
    return layout.find("N")


def split_input_slice(batch_size, work_load_list):
    """Slices of the batch per device, proportional to work_load_list (MXNet's rounding)."""
    total = sum(work_load_list)
    batch_num_list = [round(w * batch_size / total) for w in work_load_list]
    if sum(batch_num_list) < batch_size:
        batch_num_list[-1] += batch_size - sum(batch_num_list)
    slices, end = [], 0
    for batch_num in batch_num_list:
        begin = int(min(end, batch_size))
        end = int(min(begin + batch_num, batch_size))
        if begin >= end:
            raise ValueError("Too many slices. Some splits are empty.")
        slices.append(slice(begin, end))
    return slices


def _slice(src, axis, islice):
    if isinstance(src, np.ndarray):
        index = [slice(None)] * src.ndim
        index[axis] = islice
        return src[tuple(index)]
    if axis == 0:
        return src[islice.start:islice.stop]
    return nd.slice_axis(src, axis=axis, begin=islice.start, end=islice.stop)


def _load_general(data, targets, major_axis):
    """Copies each source array's device slices into the executors' arrays; a source
    that is a list holds one array per device already (pre-sliced batches)."""
    for d_src, d_targets, axis in zip(data, targets, major_axis):
        if isinstance(d_src, (list, tuple)):
            if len(d_src) != len(d_targets):
                raise InvalidArgumentError("a list of batches must have one batch per device: %d for %d devices"
                                           % (len(d_src), len(d_targets)))
            for part, (_, d_dst) in zip(d_src, d_targets):
                _copy_part(part, d_dst)
            continue
        if not isinstance(d_src, (NDArray, np.ndarray)):
            raise InvalidArgumentError("a batch's data and labels must be NDArrays or numpy arrays, got %s"
                                       % type(d_src).__name__)
        for slice_idx, d_dst in d_targets:
            _copy_part(d_src if axis < 0 else _slice(d_src, axis, slice_idx), d_dst)


def _copy_part(part, d_dst):
    if not isinstance(part, (NDArray, np.ndarray)):
        raise InvalidArgumentError("a batch's data and labels must be NDArrays or numpy arrays, got %s"
                                   % type(part).__name__)
    if tuple(part.shape) != d_dst.shape:
        raise ShapeError("a batch slice has shape %s, the bound input %s (reshape the module or bind "
                         "with the batch's shapes)" % (tuple(part.shape), d_dst.shape))
    if isinstance(part, NDArray):
        part.copyto(d_dst)
    else:
        d_dst[:] = part


def _merge_multi_context(outputs, major_axis):
    """Concatenates each output's per-device pieces along its batch axis."""
    rets = []
    for tensors, axis in zip(outputs, major_axis):
        if axis >= 0 and len(tensors) > 1:
            ctx = tensors[0].context
            rets.append(nd.concat(*[t.as_in_context(ctx) for t in tensors], dim=axis))
        else:
            rets.append(tensors[0])  # one device, or no batch axis: the first device's
    return rets


def _prepare_group2ctxs(group2ctxs, ctx_len):
    """One group2ctx dict (or None) per context of the group, from what Module takes (MXNet 1.9.1's rules): None;
    a list of dicts, one per context; or a dict whose values are a Context (the same for every context), a list
    of one Context, or a list of one Context per context."""
    if group2ctxs is None:
        return [None] * ctx_len
    if isinstance(group2ctxs, list):
        if len(group2ctxs) != ctx_len:
            raise InvalidArgumentError("group2ctxs: a list must hold one dict per context (%d), got %d"
                                       % (ctx_len, len(group2ctxs)))
        for g in group2ctxs:
            if g is not None and not isinstance(g, dict):
                raise InvalidArgumentError("group2ctxs: list items must be dicts of group name to Context, got %s"
                                           % type(g).__name__)
        return list(group2ctxs)
    if isinstance(group2ctxs, dict):
        ret = [{} for _ in range(ctx_len)]
        for k, v in group2ctxs.items():
            if isinstance(v, Context):
                ctxs = [v] * ctx_len
            elif isinstance(v, (list, tuple)) and len(v) in (1, ctx_len):
                ctxs = list(v) * ctx_len if len(v) == 1 else list(v)
            else:
                raise InvalidArgumentError("group2ctxs['%s']: expected a Context or a list of 1 or %d contexts, "
                                           "got %r" % (k, ctx_len, v))
            for i in range(ctx_len):
                ret[i][k] = ctxs[i]
        return ret
    raise InvalidArgumentError("group2ctxs must be a dict of group name to Context (or to a list of contexts), or a "
                               "list of such dicts, one per context; got %s" % type(group2ctxs).__name__)


class DataParallelExecutorGroup:
    """Binds ``symbol`` once per context on its share of the batch.

    ``shared_group`` (another group over the same contexts) makes the parameters and
    their gradients the same arrays (BucketingModule's buckets)."""

    def __init__(self, symbol, contexts, workload, data_shapes, label_shapes, param_names, for_training,
                 inputs_need_grad, shared_group=None, logger=logging, fixed_param_names=None, grad_req="write",
                 state_names=None, group2ctxs=None):
        self.param_names = param_names
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.symbol = symbol
        self.contexts = contexts
        self.workload = workload
        self.group2ctxs = _prepare_group2ctxs(group2ctxs, len(contexts))
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.logger = logger
        self.fixed_param_names = list(fixed_param_names or [])
        self.state_names = list(state_names or [])
        if not for_training:
            grad_req = "null"
        data_names = [x[0] for x in data_shapes]
        if isinstance(grad_req, str):
            self.grad_req = {}
            for k in self.arg_names:
                if k in self.param_names:
                    self.grad_req[k] = "null" if k in self.fixed_param_names else grad_req
                elif k in data_names:
                    self.grad_req[k] = grad_req if self.inputs_need_grad else "null"
                else:
                    self.grad_req[k] = "null"
        elif isinstance(grad_req, (list, tuple)):
            if len(grad_req) != len(self.arg_names):
                raise InvalidArgumentError("grad_req has %d entries, the symbol has %d arguments"
                                           % (len(grad_req), len(self.arg_names)))
            self.grad_req = dict(zip(self.arg_names, grad_req))
        elif isinstance(grad_req, dict):
            self.grad_req = {k: "null" for k in self.arg_names}
            self.grad_req.update(grad_req)
        else:
            raise ValueError("grad_req must be one of str, list, tuple, or dict.")
        self.shared_group = shared_group
        self.shared_data_arrays = ([{} for _ in contexts] if shared_group is None
                                   else shared_group.shared_data_arrays)
        self.batch_size = None
        self.slices = None
        self.execs = []
        self._default_execs = None
        self.data_arrays = None
        self.label_arrays = None
        self.param_arrays = None
        self.state_arrays = None
        self.grad_arrays = None
        self.aux_arrays = None
        self.input_grad_arrays = None
        self.data_shapes = None
        self.label_shapes = None
        self.data_names = None
        self.label_names = None
        self.data_layouts = None
        self.label_layouts = None
        self.output_names = self.symbol.list_outputs()
        self.output_layouts = [batch_axis(self.symbol[name].attr("__layout__")) for name in self.output_names]
        self.num_outputs = len(self.output_names)
        self._total_exec_bytes = 0
        self.bind_exec(data_shapes, label_shapes, shared_group)

    def decide_slices(self, data_shapes):
        """Batch size (checked equal across inputs) and each device's slice; returns the batch axes."""
        if not data_shapes:
            raise InvalidArgumentError("bind needs at least one data input")
        major_axis = [batch_axis(getattr(x, "layout", None)) for x in data_shapes]
        for desc, axis in zip(data_shapes, major_axis):
            if axis == -1:
                continue
            batch_size = desc[1][axis]
            if self.batch_size is not None and batch_size != self.batch_size:
                raise ShapeError("all data must have the same batch size: batch_size = %d, but %s has shape %s"
                                 % (self.batch_size, desc[0], desc[1]))
            self.batch_size = batch_size
            self.slices = split_input_slice(self.batch_size, self.workload)
        return major_axis

    def _collect_arrays(self):
        self.data_arrays = [[(self.slices[i], e.arg_dict[name]) for i, e in enumerate(self.execs)]
                            for name in (d[0] for d in self.data_shapes)]
        self.state_arrays = [[e.arg_dict[name] for e in self.execs] for name in self.state_names]
        if self.label_shapes is not None:
            self.label_arrays = [[(self.slices[i], e.arg_dict[name]) for i, e in enumerate(self.execs)]
                                 for name in (d[0] for d in self.label_shapes)]
        else:
            self.label_arrays = None
        self.param_arrays = [[e.arg_arrays[i] for e in self.execs]
                             for i, name in enumerate(self.arg_names) if name in self.param_names]
        if self.for_training:
            self.grad_arrays = [[e.grad_arrays[i] for e in self.execs]
                                for i, name in enumerate(self.arg_names) if name in self.param_names]
        else:
            self.grad_arrays = None
        data_names = [x[0] for x in self.data_shapes]
        if self.inputs_need_grad:
            self.input_grad_arrays = [[e.grad_arrays[self.arg_names.index(name)] for e in self.execs]
                                      for name in data_names if name in self.arg_names]
        else:
            self.input_grad_arrays = None
        self.aux_arrays = [[e.aux_arrays[i] for e in self.execs] for i in range(len(self.aux_names))]

    def bind_exec(self, data_shapes, label_shapes, shared_group=None, reshape=False):
        """Binds (or, with reshape, reshapes from the first binding) every executor."""
        assert reshape or not self.execs
        self.batch_size = None
        self.data_layouts = self.decide_slices(data_shapes)
        self.label_layouts = self.decide_slices(label_shapes) if label_shapes is not None else None
        for i in range(len(self.contexts)):
            shapes = self._sliced_shape(data_shapes, i, self.data_layouts)
            if label_shapes is not None:
                shapes += self._sliced_shape(label_shapes, i, self.label_layouts)
            if reshape:
                self.execs[i] = self._default_execs[i].reshape(
                    partial_shaping=True, allow_up_sizing=True, **{d[0]: tuple(d[1]) for d in shapes})
            else:
                self.execs.append(self._bind_ith_exec(i, shapes, shared_group))
        self.data_shapes = data_shapes
        self.label_shapes = label_shapes
        self.data_names = [i[0] for i in data_shapes]
        self.label_names = [i[0] for i in label_shapes] if label_shapes is not None else []
        self._collect_arrays()

    def reshape(self, data_shapes, label_shapes):
        """New input shapes for every executor; the parameters keep their arrays."""
        if data_shapes == self.data_shapes and label_shapes == self.label_shapes:
            return
        if self._default_execs is None:
            self._default_execs = list(self.execs)
        self.bind_exec(data_shapes, label_shapes, reshape=True)

    def set_params(self, arg_params, aux_params, allow_extra=False):
        """Copies the given parameters into every executor."""
        for exe in self.execs:
            exe.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra)

    def get_params(self, arg_params, aux_params):
        """Writes the parameters, averaged over the devices, into the given dicts' arrays."""
        for name, block in zip(self.param_names, self.param_arrays):
            weight = sum(w.copyto(cpu()) for w in block) / len(block)
            weight.astype(arg_params[name].dtype).copyto(arg_params[name])
        for name, block in zip(self.aux_names, self.aux_arrays):
            weight = sum(w.copyto(cpu()) for w in block) / len(block)
            weight.astype(aux_params[name].dtype).copyto(aux_params[name])

    def forward(self, data_batch, is_train=None):
        """Loads the batch's slices (or, for a list of batches, one batch per device)
        and runs every executor (is_train None: for_training)."""
        if isinstance(data_batch, list):
            data = [[b.data[i] for b in data_batch] for i in range(len(self.data_arrays))]
            label = ([[b.label[i] for b in data_batch] for i in range(len(self.label_arrays))]
                     if self.label_arrays is not None and data_batch[0].label else None)
        else:
            data, label = data_batch.data, data_batch.label if self.label_arrays is not None else None
        _load_general(data, self.data_arrays, self.data_layouts)
        if is_train is None:
            is_train = self.for_training
        if label:
            _load_general(label, self.label_arrays, self.label_layouts)
        for exe in self.execs:
            exe.forward(is_train=is_train)

    def get_output_shapes(self):
        """[(name, shape)] of the merged outputs."""
        outputs = self.execs[0].outputs
        shapes = [out.shape for out in outputs]
        concat_shapes = []
        for key, the_shape, axis in zip(self.symbol.list_outputs(), shapes, self.output_layouts):
            the_shape = list(the_shape)
            if axis >= 0:
                the_shape[axis] = self.batch_size
            concat_shapes.append((key, tuple(the_shape)))
        return concat_shapes

    def get_outputs(self, merge_multi_context=True, begin=0, end=None):
        """Outputs, merged across devices, or per output a list per device."""
        if end is None:
            end = self.num_outputs
        outputs = [[exe.outputs[i] for exe in self.execs] for i in range(begin, end)]
        if merge_multi_context:
            outputs = _merge_multi_context(outputs, self.output_layouts[begin:end])
        return outputs

    def get_states(self, merge_multi_context=True):
        assert not merge_multi_context, "merge_multi_context=True is not supported for get_states yet."
        return self.state_arrays

    def set_states(self, states=None, value=None):
        """Sets the state arrays from per-device lists, or all to one value."""
        if states is not None:
            assert value is None, "Only one of states & value can be specified."
            _load_general(states, [[(None, a) for a in d] for d in self.state_arrays],
                          [-1] * len(states))
        else:
            assert value is not None, "At least one of states & value must be specified."
            for d_dst in self.state_arrays:
                for dst in d_dst:
                    dst[:] = value

    def get_input_grads(self, merge_multi_context=True):
        """Gradients of the data inputs (bind with inputs_need_grad=True)."""
        assert self.inputs_need_grad
        if merge_multi_context:
            return _merge_multi_context(self.input_grad_arrays, self.data_layouts)
        return self.input_grad_arrays

    def backward(self, out_grads=None):
        """Backward on every executor; out_grads (merged batch) are sliced per device."""
        assert self.for_training, "re-bind with for_training=True to run backward"
        if out_grads is None:
            out_grads = []
        elif isinstance(out_grads, NDArray):
            out_grads = [out_grads]
        for i, (exe, islice) in enumerate(zip(self.execs, self.slices)):
            out_grads_slice = []
            for grad, axis in zip(out_grads, self.output_layouts):
                if axis >= 0:
                    part = nd.slice_axis(grad, axis=axis, begin=islice.start, end=islice.stop)
                    out_grads_slice.append(part.as_in_context(self.contexts[i]))
                else:
                    out_grads_slice.append(grad.as_in_context(self.contexts[i]))
            exe.backward(out_grads=out_grads_slice)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Updates eval_metric with each device's outputs and its slice of labels."""
        for current_exec, (texec, islice) in enumerate(zip(self.execs, self.slices)):
            if not pre_sliced:
                labels_slice = []
                for label, axis in zip(labels, self.label_layouts or [0] * len(labels)):
                    if axis == 0:
                        labels_slice.append(label[islice])
                    elif axis > 0:
                        labels_slice.append(_slice(label, axis, islice))
                    else:
                        labels_slice.append(label)
            else:
                labels_slice = labels[current_exec]
            labels_ = OrderedDict(zip(self.label_names, labels_slice))
            preds = OrderedDict(zip(self.output_names, texec.outputs))
            eval_metric.update_dict(labels_, preds)

    def _sliced_shape(self, shapes, i, major_axis):
        sliced = []
        for desc, axis in zip(shapes, major_axis):
            shape = list(desc[1])
            if axis >= 0:
                shape[axis] = self.slices[i].stop - self.slices[i].start
            sliced.append(_Desc(desc[0], tuple(shape), getattr(desc, "dtype", np.float32),
                                getattr(desc, "layout", None)))
        return sliced

    def _bind_ith_exec(self, i, shapes, shared_group):
        shared_exec = None if shared_group is None else shared_group.execs[i]
        context = self.contexts[i]
        input_shapes = {d.name: d.shape for d in shapes}
        input_types = {d.name: d.dtype for d in shapes}
        exe = self.symbol.simple_bind(ctx=context, grad_req=self.grad_req, type_dict=input_types,
                                      shared_arg_names=self.param_names, shared_exec=shared_exec,
                                      shared_buffer=self.shared_data_arrays[i], group2ctx=self.group2ctxs[i],
                                      **input_shapes)
        self._total_exec_bytes += exe.internal_bytes()
        return exe

    def install_monitor(self, mon):
        """Installs a monitor (``mon.install(executor)``) on every executor."""
        for exe in self.execs:
            mon.install(exe)
