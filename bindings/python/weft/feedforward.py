"""``mx.model.FeedForward``: MXNet 1.x's deprecated model API, kept for old scripts.

It trains, scores and predicts through ``weft.mod.Module`` (the same executors),
taking NumPy arrays or data iterators as MXNet's did.
"""
# pylint: disable=too-many-arguments,too-many-instance-attributes,too-many-locals
import logging
import warnings

import numpy as np

from . import io
from . import metric
from . import ndarray as nd
from . import symbol as sym
from .base import InvalidArgumentError
from .callback import LogValidationMetricsCallback
from .context import Context, cpu
from .initializer import Uniform
from .model import BatchEndParam, load_checkpoint, save_checkpoint
from .module import Module

__all__ = ["FeedForward"]


def _concat_batches(parts):
    """Per output, the batches' NumPy pieces joined; one output comes back bare."""
    joined = [np.concatenate(pieces) for pieces in zip(*parts)]
    return joined[0] if len(joined) == 1 else joined


class FeedForward:
    """A symbol (or ``sym_gen``) with its parameters; optimizer hyper-parameters are
    keyword arguments (``learning_rate=0.1, momentum=0.9``). Deprecated in MXNet:
    use ``mx.mod.Module``."""

    def __init__(self, symbol, ctx=None, num_epoch=None, epoch_size=None, optimizer="sgd",
                 initializer=Uniform(0.01), numpy_batch_size=128, arg_params=None, aux_params=None,
                 allow_extra_params=False, begin_epoch=0, **kwargs):
        warnings.warn("mxnet.model.FeedForward has been deprecated. Please use mxnet.mod.Module instead.",
                      DeprecationWarning, stacklevel=2)
        if isinstance(symbol, sym.Symbol):
            self.symbol, self.sym_gen = symbol, None
        else:
            if not callable(symbol):
                raise TypeError("FeedForward: symbol must be a Symbol or a sym_gen callable")
            self.symbol, self.sym_gen = None, symbol
        if self.sym_gen is not None:
            raise InvalidArgumentError("FeedForward with a sym_gen (bucketing) is not supported; use "
                                       "mx.mod.BucketingModule")
        self.arg_params = arg_params
        self.aux_params = aux_params
        self.allow_extra_params = allow_extra_params
        if ctx is None:
            ctx = [cpu()]
        elif isinstance(ctx, Context):
            ctx = [ctx]
        self.ctx = ctx
        self.num_epoch = num_epoch
        self.epoch_size = epoch_size
        self.kwargs = kwargs.copy()
        self.optimizer = optimizer
        self.initializer = initializer
        self.numpy_batch_size = numpy_batch_size
        self.begin_epoch = begin_epoch

    # -- data ---------------------------------------------------------------------------------
    def _init_iter(self, X, y, is_train):
        """An NDArrayIter over arrays (shuffled, rolling over for training), or X itself."""
        if isinstance(X, (np.ndarray, nd.NDArray)):
            if y is None:
                if is_train:
                    raise ValueError("y must be specified when X is numpy.ndarray")
                y = np.zeros(X.shape[0])
            if not isinstance(y, (np.ndarray, nd.NDArray)):
                raise TypeError("y must be ndarray when X is numpy.ndarray")
            if X.shape[0] != y.shape[0]:
                raise ValueError("The numbers of data points and labels not equal")
            if y.ndim == 2 and y.shape[1] == 1:
                y = y.flatten()
            if y.ndim != 1:
                raise ValueError("Label must be 1D or 2D (with 2nd dimension being 1)")
            batch_size = min(X.shape[0], self.numpy_batch_size)
            if is_train:
                return io.NDArrayIter(X, y, batch_size, shuffle=True, last_batch_handle="roll_over")
            return io.NDArrayIter(X, y, batch_size, shuffle=False)
        if not isinstance(X, io.DataIter):
            raise TypeError("X must be DataIter, NDArray or numpy.ndarray")
        return X

    def _init_eval_iter(self, eval_data):
        if eval_data is None:
            return None
        if isinstance(eval_data, (tuple, list)) and len(eval_data) == 2:
            if eval_data[0] is None:
                raise ValueError("Eval data is NONE")
            if eval_data[1] is None and isinstance(eval_data[0], io.DataIter):
                return eval_data[0]
            data = np.array(eval_data[0]) if isinstance(eval_data[0], list) else eval_data[0]
            label = np.array(eval_data[1]) if isinstance(eval_data[1], list) else eval_data[1]
            return self._init_iter(data, label, is_train=True)
        if not isinstance(eval_data, io.DataIter):
            raise TypeError("Eval data must be DataIter, or NDArray/numpy.ndarray/list pair "
                            "(i.e. tuple/list of length 2)")
        return eval_data

    def _module(self, data_iter, for_training, work_load_list=None, logger=None):
        data_names = [x[0] for x in data_iter.provide_data]
        known = set(self.arg_params or {})
        # inputs that are neither data nor a parameter we hold are the labels
        label_names = [x[0] for x in (data_iter.provide_label or [])] if for_training else \
            [a for a in self.symbol.list_arguments() if a not in data_names and a not in known]
        return Module(self.symbol, data_names=data_names, label_names=label_names,
                      logger=logger or logging, context=self.ctx if for_training else self.ctx[:1],
                      work_load_list=work_load_list if for_training else None)

    def _predictor(self, data_iter):
        mod = self._module(data_iter, for_training=False)
        provide_label = [d for d in (data_iter.provide_label or []) if d[0] in mod.label_names]
        mod.bind(data_shapes=data_iter.provide_data, label_shapes=provide_label or None, for_training=False)
        mod.set_params(self.arg_params, self.aux_params or {}, allow_extra=self.allow_extra_params)
        return mod

    # -- training and use ---------------------------------------------------------------------
    def fit(self, X, y=None, eval_data=None, eval_metric="acc", epoch_end_callback=None, batch_end_callback=None,
            kvstore="local", logger=None, work_load_list=None, monitor=None,
            eval_end_callback=LogValidationMetricsCallback(), eval_batch_end_callback=None):
        """Trains for epochs begin_epoch .. num_epoch - 1 (parameters given at
        construction are kept; the missing ones are initialized)."""
        data = self._init_iter(X, y, is_train=True)
        eval_data = self._init_eval_iter(eval_data)
        if self.epoch_size is not None:
            data = io.ResizeIter(data, self.epoch_size)
        mod = self._module(data, True, work_load_list, logger)
        mod.fit(data, eval_data=eval_data, eval_metric=eval_metric, epoch_end_callback=epoch_end_callback,
                batch_end_callback=batch_end_callback, kvstore=kvstore, optimizer=self.optimizer,
                optimizer_params=self.kwargs, eval_end_callback=eval_end_callback,
                eval_batch_end_callback=eval_batch_end_callback, initializer=self.initializer,
                arg_params=self.arg_params, aux_params=self.aux_params, allow_missing=True,
                begin_epoch=self.begin_epoch, num_epoch=self.num_epoch, monitor=monitor)
        arg_params, aux_params = mod.get_params()
        self.arg_params = {k: v.copy() for k, v in arg_params.items()}
        self.aux_params = {k: v.copy() for k, v in aux_params.items()}

    def predict(self, X, num_batch=None, return_data=False, reset=True):
        """The outputs as NumPy arrays (the pad of the last batch removed); with
        return_data also the data and labels seen, as (outputs, data, label)."""
        X = self._init_iter(X, None, is_train=False)
        if reset:
            X.reset()
        mod = self._predictor(X)
        outputs, data_list, label_list = [], [], []
        for i, batch in enumerate(X):
            if num_batch is not None and i == num_batch:
                break
            mod.forward(batch, is_train=False)
            real_size = X.batch_size - (batch.pad or 0)
            outputs.append([out[0:real_size].asnumpy() for out in mod.get_outputs()])
            if return_data:
                data_list.append([d[0:real_size].asnumpy() for d in batch.data])
                label_list.append([l[0:real_size].asnumpy() for l in batch.label])
        if not outputs:
            return [] if not return_data else ([], [], [])
        if return_data:
            return _concat_batches(outputs), _concat_batches(data_list), _concat_batches(label_list)
        return _concat_batches(outputs)

    def score(self, X, eval_metric="acc", num_batch=None, batch_end_callback=None, reset=True):
        """The metric's value over X (an iterator with labels)."""
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        X = self._init_iter(X, None, is_train=False)
        if reset:
            X.reset()
        mod = self._predictor(X)
        eval_metric.reset()
        for i, batch in enumerate(X):
            if num_batch is not None and i == num_batch:
                break
            mod.forward(batch, is_train=False)
            eval_metric.update(batch.label, mod.get_outputs())
            if batch_end_callback is not None:
                params = BatchEndParam(epoch=0, nbatch=i, eval_metric=eval_metric, locals=locals())
                for callback in (batch_end_callback if isinstance(batch_end_callback, list)
                                 else [batch_end_callback]):
                    callback(params)
        return eval_metric.get()[1]

    def save(self, prefix, epoch=None, remove_amp_cast=True):
        """``prefix-symbol.json`` and ``prefix-%04d.params`` (epoch defaults to num_epoch)."""
        if epoch is None:
            epoch = self.num_epoch
        if epoch is None:
            raise ValueError("save: give epoch (or num_epoch at construction)")
        save_checkpoint(prefix, epoch, self.symbol, self.arg_params, self.aux_params or {},
                        remove_amp_cast=remove_amp_cast)

    @staticmethod
    def load(prefix, epoch, ctx=None, **kwargs):
        """A FeedForward from a checkpoint; training continues at that epoch."""
        symbol, arg_params, aux_params = load_checkpoint(prefix, epoch)
        return FeedForward(symbol, ctx=ctx, arg_params=arg_params, aux_params=aux_params, begin_epoch=epoch,
                           **kwargs)

    @staticmethod
    def create(symbol, X, y=None, ctx=None, num_epoch=None, epoch_size=None, optimizer="sgd",
               initializer=Uniform(0.01), eval_data=None, eval_metric="acc", epoch_end_callback=None,
               batch_end_callback=None, kvstore="local", logger=None, work_load_list=None,
               eval_end_callback=LogValidationMetricsCallback(), eval_batch_end_callback=None, **kwargs):
        """Makes a FeedForward and fits it."""
        model = FeedForward(symbol, ctx=ctx, num_epoch=num_epoch, epoch_size=epoch_size, optimizer=optimizer,
                            initializer=initializer, **kwargs)
        model.fit(X, y, eval_data=eval_data, eval_metric=eval_metric, epoch_end_callback=epoch_end_callback,
                  batch_end_callback=batch_end_callback, kvstore=kvstore, logger=logger,
                  work_load_list=work_load_list, eval_end_callback=eval_end_callback,
                  eval_batch_end_callback=eval_batch_end_callback)
        return model
