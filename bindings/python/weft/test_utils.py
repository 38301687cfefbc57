"""Testing helpers with MXNet 1.x's names, signatures and tolerances (``mx.test_utils``).

Comparisons take NumPy arrays or NDArrays. Without explicit tolerances the
defaults depend on the dtypes compared (``default_rtols`` / ``default_atols``:
float16 1e-2 / 1e-1, float32 1e-4 / 1e-3, float64 1e-5 / 1e-20, integers and
bool exact) and the looser of the two operands' wins. A failure raises
AssertionError with MXNet's message ("Error ... exceeds tolerance rtol=...,
atol=... (mismatch ...%). Location of maximum error: ...").

Gradient checks bind symbols with the ordinary executor (``Symbol.bind`` /
``simple_bind``). ``get_mnist`` reads the four MNIST ``*.gz`` files from a local
folder (nothing is downloaded).
"""
# pylint: disable=invalid-name,too-many-arguments,too-many-locals,too-many-branches
import os
import sys
import time
import traceback
from collections import OrderedDict
from contextlib import contextmanager

import numpy as np

from . import context as _context
from . import ndarray as nd
from . import symbol as _sym
from .base import InvalidArgumentError
from .context import current_context  # noqa: F401  (MXNet's test_utils has these names too)
from .ndarray import NDArray  # noqa: F401
from .util import use_np, use_np_default_dtype  # noqa: F401  # mx.test_utils.use_np, as MXNet 1.9.1 exports it
# The helpers live in modules of their own (file size); same names here. They sit below this
# file: none imports test_utils.
from ._test_compare import (_numpy, assert_allclose, assert_almost_equal, assert_almost_equal_ignore_nan,
                            assert_almost_equal_with_err, assert_exception, almost_equal, checkShapes,
                            default_atols, default_context, default_dtype, default_numeric_eps, default_rtols,
                            effective_dtype, get_atol, get_etol, get_rtol, get_tolerance, get_tols,
                            locationError, np_reduce, rand_coord_2d, rand_ndarray, rand_shape_2d, rand_shape_3d,
                            rand_shape_nd, random_arrays, random_sample, random_uniform_arrays, same,
                            set_default_context)
from ._test_data import (DummyIter, EnvManager, download, gen_buckets_probs_with_ppf, get_bz2_data,
                         get_mnist, get_mnist_iterator, get_mnist_ubyte, get_zip_data, has_tvm_ops, is_cd_run,
                         is_op_runnable, mean_check, var_check)
from ._test_checks import (almost_equal_ignore_nan, assign_each, assign_each2, chi_square_check,
                           collapse_sum_like, compare_ndarray_tuple, compare_optimizer, create_2d_tensor,
                           create_vector, retry, same_symbol_structure, set_env_var, simple_forward,
                           verify_generator)
from ._test_builders import (check_gluon_hybridize_consistency, create_sparse_array, create_sparse_array_zd,
                         download_model, get_cifar10, get_identity_mat, get_identity_mat_batch, get_im2rec_path,
                         is_aarch64_run, new_matrix_with_real_eigvals_2d, new_matrix_with_real_eigvals_nd,
                         new_orthonormal_matrix_2d, new_sym_matrix_with_real_eigvals_2d,
                         new_sym_matrix_with_real_eigvals_nd, rand_sparse_ndarray, shuffle_csr_column_indices)
from ._test_builders import __all__ as _builders_all

__all__ = [
    "default_context", "set_default_context", "default_dtype", "default_rtols", "default_atols",
    "default_numeric_eps", "effective_dtype", "get_tolerance", "get_tols", "get_atol", "get_rtol", "get_etol",
    "random_arrays", "random_uniform_arrays", "random_sample", "rand_ndarray", "rand_shape_2d", "rand_shape_3d",
    "rand_shape_nd", "rand_coord_2d", "np_reduce", "same", "checkShapes", "almost_equal", "locationError",
    "assert_almost_equal", "assert_allclose", "assert_almost_equal_with_err", "assert_almost_equal_ignore_nan",
    "assert_exception", "numeric_grad", "check_numeric_gradient", "check_symbolic_forward",
    "check_symbolic_backward", "check_speed", "check_consistency", "list_gpus", "same_array", "discard_stderr",
    "environment", "get_mnist", "get_mnist_ubyte", "get_mnist_iterator", "DummyIter", "assign_each",
    "assign_each2", "almost_equal_ignore_nan", "retry", "simple_forward", "set_env_var", "same_symbol_structure",
    "compare_ndarray_tuple", "compare_optimizer", "chi_square_check", "verify_generator", "create_2d_tensor",
    "create_vector", "collapse_sum_like", "download", "get_bz2_data", "get_zip_data", "EnvManager", "is_cd_run",
    "has_tvm_ops", "is_op_runnable", "gen_buckets_probs_with_ppf", "mean_check", "var_check", "use_np",
]
__all__ += _builders_all


# ---- symbolic checks ------------------------------------------------------------------------------
def _sorted_items(d):
    return sorted(d.items(), key=lambda t: t[0])


def _as_nd(v, ctx, dtype):
    return nd.array(v, ctx=ctx, dtype=v.dtype if dtype == "asnumpy" else dtype)


def _parse_location(sym, location, ctx, dtype=default_dtype()):
    """{argument name: NDArray} from a list (list_arguments order) or a dict naming every argument."""
    if not isinstance(location, (dict, list, tuple)):
        raise InvalidArgumentError("location must be a list or a dict of arrays, got %s" % type(location).__name__)
    if isinstance(location, dict):
        if set(location.keys()) != set(sym.list_arguments()):
            raise ValueError("Symbol arguments and keys of the given location do not match. symbol args:%s, "
                             "location.keys():%s" % (str(set(sym.list_arguments())), str(set(location.keys()))))
    else:
        location = dict(zip(sym.list_arguments(), location))
    location = {k: _as_nd(v, ctx, dtype) if isinstance(v, np.ndarray) else v for k, v in location.items()}
    return OrderedDict(_sorted_items(location))


def _parse_aux_states(sym, aux_states, ctx, dtype=default_dtype()):
    if aux_states is None:
        return None
    if isinstance(aux_states, dict):
        if set(aux_states.keys()) != set(sym.list_auxiliary_states()):
            raise ValueError("Symbol aux_states names and given aux_states do not match. symbol aux_names:%s, "
                             "aux_states.keys:%s" % (str(set(sym.list_auxiliary_states())),
                                                     str(set(aux_states.keys()))))
    elif isinstance(aux_states, (list, tuple)):
        aux_states = dict(zip(sym.list_auxiliary_states(), aux_states))
    return {k: _as_nd(np.asarray(_numpy(v)), ctx, dtype) for k, v in aux_states.items()}


def numeric_grad(executor, location, aux_states=None, eps=1e-4, use_forward_train=True, dtype=default_dtype()):
    """Central finite differences of sum(outputs[0]) for every float argument in location
    ({name: numpy array}); returns {name: numpy gradient}."""
    approx_grads = {k: np.zeros(v.shape, dtype=dtype) for k, v in location.items()}
    for k, v in location.items():
        executor.arg_dict[k][:] = np.asarray(v, dtype=dtype)
    for k in location:
        location[k] = np.array(location[k], order="C")
    for k, v in location.items():
        if v.dtype.kind != "f":
            continue
        old_value = v.copy()
        for i in range(int(np.prod(v.shape))):
            v.ravel()[i] += eps / 2.0
            executor.arg_dict[k][:] = v.astype(dtype)
            if aux_states is not None:
                for key, val in aux_states.items():
                    executor.aux_dict[key][:] = val
            executor.forward(is_train=use_forward_train)
            f_peps = executor.outputs[0].asnumpy()
            v.ravel()[i] -= eps
            executor.arg_dict[k][:] = v.astype(dtype)
            if aux_states is not None:
                for key, val in aux_states.items():
                    executor.aux_dict[key][:] = val
            executor.forward(is_train=use_forward_train)
            f_neps = executor.outputs[0].asnumpy()
            approx_grads[k].ravel()[i] = (f_peps.astype(np.float64) - f_neps).sum() / eps
            v.ravel()[i] = old_value.ravel()[i]
        executor.arg_dict[k][:] = old_value.astype(dtype)
    return approx_grads


def check_numeric_gradient(sym, location, aux_states=None, numeric_eps=None, rtol=None, atol=None,
                           grad_nodes=None, use_forward_train=True, ctx=None, grad_stype_dict=None,
                           dtype=default_dtype()):
    """Checks the symbol's backward against finite differences of a random projection
    of its (first) output, as MXNet does (grad_nodes: names, or {name: grad_req})."""
    if dtype not in (np.float16, np.float32, np.float64):
        raise InvalidArgumentError("check_numeric_gradient: dtype must be float16, float32 or float64")
    for k, v in (grad_stype_dict or {}).items():
        if v != "default":
            raise InvalidArgumentError("check_numeric_gradient: '%s': weft gradients are dense" % k)
    ctx = ctx or default_context()
    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    location_npy = {k: v.asnumpy() for k, v in location.items()}
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    aux_states_npy = None if aux_states is None else {k: v.asnumpy() for k, v in aux_states.items()}
    if grad_nodes is None:
        grad_nodes = sym.list_arguments()
        grad_req = {k: "write" for k in grad_nodes}
    elif isinstance(grad_nodes, (list, tuple)):
        grad_nodes = list(grad_nodes)
        grad_req = {k: "write" for k in grad_nodes}
    elif isinstance(grad_nodes, dict):
        grad_req = grad_nodes.copy()
        grad_nodes = list(grad_nodes.keys())
    else:
        raise ValueError("grad_nodes must be None, a list or a dict")
    input_shape = {k: v.shape for k, v in location.items()}
    _, out_shape, _ = sym.infer_shape(**input_shape)
    proj = _sym.var("__random_proj")
    out = _sym.make_loss(sym * proj)
    # A projection with no tiny elements, or the finite differences lose their precision.
    location = dict(list(location.items()) + [("__random_proj", nd.array(np.random.rand(*out_shape[0]) + 0.1,
                                                                        ctx=ctx, dtype=dtype))])
    args_grad_npy = dict([(k, np.random.normal(0, 0.01, size=location[k].shape)) for k in grad_nodes]
                         + [("__random_proj", np.random.normal(0, 0.01, size=out_shape[0]))])
    args_grad = {k: nd.array(v, ctx=ctx, dtype=dtype) for k, v in args_grad_npy.items()}
    grad_req["__random_proj"] = "write"
    executor = out.bind(ctx, args=location, args_grad=args_grad, grad_req=grad_req, aux_states=aux_states)
    executor.forward(is_train=True)
    if len(executor.outputs) != 1:
        raise InvalidArgumentError("check_numeric_gradient: the symbol must have one output")
    eps = get_tolerance(executor.outputs[0], numeric_eps, default_numeric_eps())
    if dtype in (np.float32, np.float16) and eps < 1e-5:
        raise InvalidArgumentError("check_numeric_gradient: numeric_eps=%g is too small for %s"
                                   % (eps, np.dtype(dtype).name))
    executor.backward()
    symbolic_grads = {k: v.asnumpy() for k, v in executor.grad_dict.items()}
    numeric_gradients = numeric_grad(executor, location_npy, aux_states_npy, eps=eps,
                                     use_forward_train=use_forward_train, dtype=dtype)
    for name in grad_nodes:
        fd_grad = numeric_gradients[name]
        if grad_req[name] == "write":
            assert_almost_equal(fd_grad, symbolic_grads[name], rtol, atol,
                                ("NUMERICAL_%s" % name, "BACKWARD_%s" % name))
        elif grad_req[name] == "add":
            assert_almost_equal(fd_grad, symbolic_grads[name] - args_grad_npy[name], rtol, atol,
                                ("NUMERICAL_%s" % name, "BACKWARD_%s" % name))
        elif grad_req[name] == "null":
            assert executor.grad_dict.get(name) is None
        else:
            raise ValueError("Invalid grad_req %s for argument %s" % (grad_req[name], name))


def check_symbolic_forward(sym, location, expected, rtol=None, atol=None, aux_states=None, ctx=None,
                           equal_nan=False, dtype=default_dtype()):
    """Binds sym at location, runs forward (is_train=False) and compares each output
    with expected (a list in output order or a dict by output name). Returns the outputs."""
    ctx = ctx or default_context()
    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    if isinstance(expected, dict):
        expected = [expected[k] for k in sym.list_outputs()]
    args_grad_data = {k: nd.zeros(v.shape, ctx=ctx, dtype=v.dtype) for k, v in location.items()}
    executor = sym.bind(ctx, args=location, args_grad=args_grad_data, aux_states=aux_states)
    executor.forward(is_train=False)
    for output_name, expect, output in zip(sym.list_outputs(), expected, executor.outputs):
        assert_almost_equal(expect, output, rtol, atol, ("EXPECTED_%s" % output_name, "FORWARD_%s" % output_name),
                            equal_nan=equal_nan)
    return executor.outputs


def check_symbolic_backward(sym, location, out_grads, expected, rtol=None, atol=None, aux_states=None,
                            grad_req="write", ctx=None, grad_stypes=None, equal_nan=False, dtype=default_dtype()):
    """Runs forward (training) and backward with out_grads and compares the argument
    gradients with expected (list in argument order or dict). With grad_req 'add' the
    gradients start from random values that are subtracted before comparing; with
    'null' they must stay untouched. Returns {name: gradient NDArray}."""
    ctx = ctx or default_context()
    for k, v in (grad_stypes or {}).items():
        if v not in (None, "default"):
            raise InvalidArgumentError("check_symbolic_backward: '%s': weft gradients are dense" % k)
    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    if isinstance(expected, (list, tuple)):
        expected = dict(zip(sym.list_arguments(), expected))
    # The gradient buffers start dirty, deterministically, so 'add' and 'null' are checked.
    args_grad_npy = {k: np.random.normal(size=np.shape(v)) for k, v in _sorted_items(expected)}
    args_grad_data = {k: nd.array(v, ctx=ctx, dtype=np.asarray(_numpy(expected[k])).dtype if dtype == "asnumpy"
                                  else dtype) for k, v in args_grad_npy.items()}
    if isinstance(grad_req, str):
        grad_req = {k: grad_req for k in sym.list_arguments()}
    elif isinstance(grad_req, (list, tuple)):
        grad_req = dict(zip(sym.list_arguments(), grad_req))
    executor = sym.bind(ctx, args=location, args_grad=args_grad_data, aux_states=aux_states, grad_req=grad_req)
    executor.forward(is_train=True)
    if isinstance(out_grads, (tuple, list)):
        out_grads = [_as_nd(a, ctx, dtype) if isinstance(a, np.ndarray) else a for a in out_grads]
    elif isinstance(out_grads, dict):
        out_grads = {k: _as_nd(v, ctx, dtype) if isinstance(v, np.ndarray) else v for k, v in out_grads.items()}
    elif out_grads is not None:
        raise InvalidArgumentError("out_grads must be None, a list or a dict")
    executor.backward(out_grads)
    grads = args_grad_data
    for name in expected:
        names = ("EXPECTED_%s" % name, "BACKWARD_%s" % name)
        if grad_req[name] == "write":
            assert_almost_equal(expected[name], grads[name], rtol, atol, names, equal_nan=equal_nan)
        elif grad_req[name] == "add":
            assert_almost_equal(expected[name], grads[name].asnumpy() - args_grad_npy[name], rtol, atol, names,
                                equal_nan=equal_nan)
        elif grad_req[name] == "null":
            assert_almost_equal(args_grad_npy[name].astype(grads[name].dtype), grads[name], rtol, atol, names,
                                equal_nan=equal_nan)
        else:
            raise ValueError("Invalid grad_req %s for argument %s" % (grad_req[name], name))
    return args_grad_data


def check_speed(sym, location=None, ctx=None, N=20, grad_req=None, typ="whole", **kwargs):
    """Seconds per run of sym ('whole': forward + backward, 'forward': forward only)."""
    ctx = ctx or default_context()
    grad_req = grad_req or "write"
    if location is None:
        exe = sym.simple_bind(ctx, grad_req=grad_req, **kwargs)
        location = {k: np.random.normal(size=arr.shape, scale=1.0) for k, arr in exe.arg_dict.items()}
    else:
        if not isinstance(location, dict):
            raise InvalidArgumentError('Expect dict, get "location"=%s' % str(location))
        exe = sym.simple_bind(ctx, grad_req=grad_req, **{k: v.shape for k, v in location.items()})
    for name, iarr in location.items():
        exe.arg_dict[name][:] = iarr.astype(exe.arg_dict[name].dtype)
    if typ not in ("whole", "forward"):
        raise ValueError('typ can only be "whole" or "forward".')
    train = typ == "whole"

    def step():
        exe.forward(is_train=train)
        if train:
            exe.backward(out_grads=exe.outputs)
    step()
    nd.waitall()
    tic = time.time()
    for _ in range(N):
        step()
    nd.waitall()
    return (time.time() - tic) / N


def check_consistency(sym, ctx_list, scale=1.0, grad_req="write", arg_params=None, aux_params=None, rtol=None,
                      atol=None, raise_on_err=True, ground_truth=None, equal_nan=False, use_uniform=False,
                      rand_type=np.float64):
    """Runs sym under every entry of ctx_list (dicts of ``ctx``, input shapes and
    ``type_dict``, as simple_bind takes them) on the same random inputs and checks the
    outputs and gradients agree with the most precise run. Returns the ground truth."""
    if len(ctx_list) <= 1:
        raise InvalidArgumentError("check_consistency: ctx_list needs at least two entries")
    syms = [sym] * len(ctx_list) if isinstance(sym, _sym.Symbol) else list(sym)
    if len(syms) != len(ctx_list):
        raise InvalidArgumentError("check_consistency: one symbol per ctx_list entry")
    output_names = syms[0].list_outputs()
    arg_names = syms[0].list_arguments()
    exe_list = []
    for s, spec in zip(syms, ctx_list):
        if s.list_arguments() != arg_names or s.list_outputs() != output_names:
            raise InvalidArgumentError("check_consistency: the symbols differ in arguments or outputs")
        spec = dict(spec)
        exe_list.append(s.simple_bind(spec.pop("ctx"), grad_req=grad_req, **spec))
    arg_params = {} if arg_params is None else arg_params
    aux_params = {} if aux_params is None else aux_params

    def smaller_dtype(dt1, dt2):
        return dt1 if dt2 is None or np.dtype(dt1).itemsize < np.dtype(dt2).itemsize else dt2

    for n, arr in _sorted_items(exe_list[0].arg_dict):
        if n not in arg_params:
            if use_uniform:
                arg_params[n] = np.random.uniform(low=-0.92 * scale, high=0.92 * scale,
                                                  size=arr.shape).astype(rand_type)
            else:
                arg_params[n] = np.random.normal(size=arr.shape, scale=scale).astype(rand_type)
    for n in exe_list[0].aux_dict:
        aux_params.setdefault(n, 0)
    for exe in exe_list:
        for name, arr in exe.arg_dict.items():
            arr[:] = arg_params[name]
        for name, arr in exe.aux_dict.items():
            arr[:] = aux_params[name]
        if grad_req == "add":
            for arr in exe.grad_arrays:
                if arr is not None:
                    arr[:] = 0
    for exe in exe_list:
        exe.forward(is_train=False)
    dtypes = [np.dtype(exe.outputs[0].dtype) for exe in exe_list]
    gt_idx = int(np.argmax([d.itemsize for d in dtypes]))  # the most precise run is the reference

    def compare(phase, names_arrays, gt, i):
        for name, arr in names_arrays:
            if gt[name] is None:
                assert arr is None, name
                continue
            try:
                assert_almost_equal(arr, gt[name], rtol=rtol, atol=atol, equal_nan=equal_nan)
            except AssertionError as err:
                print("%s Err: ctx %d vs ctx %d at %s" % (phase, i, gt_idx, name))
                traceback.print_exc()
                if raise_on_err:
                    raise err
                print(str(err))

    gt = ground_truth if ground_truth is not None else exe_list[gt_idx].output_dict.copy()
    for i, exe in enumerate(exe_list):
        if i != gt_idx:
            compare("Predict", zip(output_names, exe.outputs), gt, i)
    if grad_req != "null":
        for exe in exe_list:
            exe.forward(is_train=True)
        least_precise = [out.dtype for out in exe_list[0].outputs]
        for exe in exe_list:
            least_precise = [smaller_dtype(out.dtype, dt) for out, dt in zip(exe.outputs, least_precise)]
        golden = [out.astype(dt).asnumpy() for out, dt in zip(exe_list[0].outputs, least_precise)]
        for exe, spec in zip(exe_list, ctx_list):
            exe.backward([nd.array(g, ctx=spec["ctx"], dtype=out.dtype) for g, out in zip(golden, exe.outputs)])
        if ground_truth is None:
            gt = exe_list[gt_idx].output_dict.copy()
            gt.update({n: g for n, g in zip(arg_names, exe_list[gt_idx].grad_arrays)})
        for i, exe in enumerate(exe_list):
            if i != gt_idx:
                compare("Train", zip(output_names + arg_names, exe.outputs + exe.grad_arrays), gt, i)
    return gt


# ---- environment, devices, data -------------------------------------------------------------------
def list_gpus():
    """range(number of GPUs)."""
    return range(_context.num_gpus())


def same_array(array1, array2):
    """True when the two NDArrays share memory (a write to one shows in the other)."""
    array1[:] += 1
    if not same(array1.asnumpy(), array2.asnumpy()):
        array1[:] -= 1
        return False
    array1[:] -= 1
    return same(array1.asnumpy(), array2.asnumpy())


@contextmanager
def discard_stderr():
    """Sends the process's stderr to /dev/null in the block: file descriptor 2 itself,
    so what the C++ library writes there is discarded too (also when Python's
    sys.stderr is captured and has no file descriptor)."""
    with open(os.devnull, "w", encoding="utf-8") as bit_bucket:
        stderr_fileno = 2
        try:
            sys.stderr.flush()
        except (AttributeError, OSError, ValueError):
            pass
        old_stderr = os.dup(stderr_fileno)
        try:
            os.dup2(bit_bucket.fileno(), stderr_fileno)
            yield
        finally:
            try:
                sys.stderr.flush()
            except (AttributeError, OSError, ValueError):
                pass
            os.dup2(old_stderr, stderr_fileno)
            os.close(old_stderr)


@contextmanager
def environment(*args):
    """Sets environment variables for the block and restores them after:
    ``environment('NAME', 'value')`` or ``environment({'A': '1', 'B': None})`` (None unsets).
    The process environment is changed, so the C++ library's getenv sees the values."""
    if len(args) == 2 and isinstance(args[0], str):
        new = {args[0]: args[1]}
    elif len(args) == 1 and isinstance(args[0], dict):
        new = dict(args[0])
    else:
        raise InvalidArgumentError("environment: expected (name, value) or a dict {name: value}")
    saved = {k: os.environ.get(k) for k in new}

    def apply(values):
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = str(v)
    apply(new)
    try:
        yield
    finally:
        apply(saved)


# Note [Star-import surface]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# MXNet 1.9.1's test_utils has no __all__, so `from mxnet.test_utils import *` hands a test
# module every public module-level name: the helpers and also the modules and classes
# test_utils itself imports (mx, np, npt, rnd, os, sys, time, logging, ..., Context, NDArray,
# Symbol, array). MXNet's legacy tests use those names unqualified (`mx.nd...`, `np.array`).
# We import the same modules here and make __all__ every public global, which is what a
# module without __all__ exports. Not brought in: `ss` (scipy.stats, MXNet's optional
# import; loading it would slow every `import weft`) and `requests`.
import bz2  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import errno  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import gzip  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import json  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import logging  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import numbers  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import platform  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import struct  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position
import zipfile  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order,wrong-import-position

import numpy.random as rnd  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order
import numpy.testing as npt  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-order

from .context import Context  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-position
from .ndarray import array  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-position
from .ndarray.ndarray import _STORAGE_TYPE_STR_TO_ID  # noqa: E402,F401  pylint: disable=unused-import
from .runtime import Features  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-position
from .symbol import Symbol  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-position
from .util import getenv, setenv  # noqa: E402,F401  pylint: disable=unused-import,wrong-import-position

# `mx` is the package itself (MXNet: `import mxnet as mx`). This module does not import its own
# package (that would be a circle); weft/__init__.py, which imports this module, sets
# test_utils.mx to itself right after, before anyone can import from here.
__all__ = sorted(set(__all__) | {_n for _n in globals() if not _n.startswith("_")} | {"mx"})
