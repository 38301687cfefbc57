"""Graphs MXNet 1.9.1 wrote in NumPy mode naming the operators of issue 37's "npinsert" group
(_npi_insert_scalar/_slice/_tensor, _npi_delete, _npi_average, _npi_ediff1d, _npi_percentile,
_npi_boolean_mask_assign_tensor) load
in Weft and compute what MXNet computed (values, shapes, dtypes), forward and, where MXNet has a
gradient, one backward.

tests/python/mxnet_written/np_nodes_npinsert/ holds what MXNet wrote (its make_with_mxnet.py):
one <case>-symbol.json per case and arrays.params (V3 records) with each case's inputs, MXNet's
outputs, the head gradients and MXNet's input gradients."""
import glob
import json
import os

import numpy as onp
import pytest

import weft
from weft import gluon, npx
from weft.ndarray.op_call import _call

WRITTEN_BY_MXNET = ("_npi_average", "_npi_boolean_mask_assign_tensor", "_npi_delete", "_npi_ediff1d",
                    "_npi_insert_scalar", "_npi_insert_slice", "_npi_insert_tensor", "_npi_percentile")
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_nodes_npinsert")
CASES = sorted(os.path.basename(p)[:-len("-symbol.json")] for p in glob.glob(os.path.join(HERE, "*-symbol.json")))
# np.delete with an obj array: the output's shape depends on obj's values, so a bound executor
# refuses the graph (Note [Data-dependent output shapes]); a hybridized block runs it.
DYNAMIC = {"npi_delete_array", "npi_delete_array_flat"}


@pytest.fixture(scope="module")
def arrays():
    return {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "arrays.params")).items()}


def _of(arrays, case, kind):
    """{name: array} of one case's records of one kind (in, out, head, grad)."""
    prefix = "%s:%s:" % (case, kind)
    return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}


def _tol(a, inputs):
    # MXNet computes in its inputs' dtype; Weft's kernels in double, rounded once
    single = a.dtype == onp.float32 or any(v.dtype == onp.float32 for v in inputs.values())
    return dict(rtol=2e-6, atol=2e-6) if single else dict(rtol=1e-12, atol=1e-12)


def _load(case):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        return weft.sym.load_json(f.read())


def test_every_group_case_is_in_the_fixtures():
    assert len(CASES) == 39  # the cases make_with_mxnet.py writes


@pytest.mark.parametrize("case", sorted(set(CASES) - DYNAMIC))
def test_mxnet_written_graph_loads_and_computes_mxnets_values(case, arrays):
    sym = _load(case)
    inputs = _of(arrays, case, "in")
    outs = _of(arrays, case, "out")
    grads = _of(arrays, case, "grad")
    heads = _of(arrays, case, "head")
    args = {k: weft.nd.array(v, dtype=v.dtype) for k, v in inputs.items()}
    args_grad = {k: weft.nd.zeros(v.shape, dtype=v.dtype) for k, v in inputs.items() if k in grads}
    req = {k: ("write" if k in grads else "null") for k in inputs}
    exe = sym.bind(weft.cpu(), args, args_grad=args_grad or None, grad_req=req)
    got = exe.forward(is_train=bool(grads))
    assert len(got) == len(outs)
    for k, y in enumerate(got):
        want = outs[str(k)]
        y = y.asnumpy()
        assert y.dtype == want.dtype, (case, k, y.dtype, want.dtype)
        assert y.shape == want.shape, (case, k, y.shape, want.shape)
        onp.testing.assert_allclose(y, want, **_tol(want, inputs))
    if not grads:
        return
    exe.backward([weft.nd.array(heads[str(k)], dtype=heads[str(k)].dtype) for k in range(len(got))])
    for k, want in grads.items():
        g = exe.grad_dict[k].asnumpy()
        assert g.dtype == want.dtype and g.shape == want.shape, (case, k)
        onp.testing.assert_allclose(g, want, **_tol(want, inputs))


@pytest.mark.parametrize("case", sorted(DYNAMIC))
def test_delete_with_an_obj_array_runs_in_a_hybridized_block_not_in_bind(case, arrays):
    sym = _load(case)
    inputs = _of(arrays, case, "in")
    want = _of(arrays, case, "out")["0"]
    args = {k: weft.nd.array(v, dtype=v.dtype) for k, v in inputs.items()}
    with pytest.raises(weft.base.MXNetError, match="_npi_delete"):
        sym.bind(weft.cpu(), args).forward()
    names = sym.list_arguments()
    block = gluon.SymbolBlock(sym, [weft.sym.var(n) for n in names])
    block.hybridize()
    for _ in range(2):  # the second call reuses the cached graph
        y = block(*[args[n] for n in names]).asnumpy()
        assert y.dtype == want.dtype and y.shape == want.shape
        onp.testing.assert_array_equal(y, want)


def test_the_fixture_files_name_the_groups_operators():
    ops = set()
    for case in CASES:
        with open(os.path.join(HERE, case + "-symbol.json")) as f:
            ops |= {n["op"] for n in json.load(f)["nodes"]}
    missing = sorted(set(WRITTEN_BY_MXNET) - ops)
    assert not missing, missing


def test_the_backward_ops_are_registered_under_mxnets_names():
    for name in ("_backward_np_average", "_npi_backward_ediff1d"):
        assert weft.base.op_exists(name), name


def _nd(a, dtype=None):
    a = onp.asarray(a)
    return weft.nd.array(a, dtype=dtype or a.dtype)


def test_insert_where_mxnet_fails_gives_numpys_result():
    # Note [np.insert's three forms]: MXNet 1.9.1 refuses `val` with an int obj on a 2-D arr and
    # reads a 0-d obj array from the wrong memory; Weft gives NumPy's answer for both.
    a = onp.arange(12, dtype=onp.float32).reshape(3, 4)
    got = _call("_npi_insert_scalar", [_nd(a)], int_ind=-1, val=7.0, axis=0).asnumpy()
    onp.testing.assert_array_equal(got, onp.insert(a, -1, 7.0, axis=0))
    v = onp.array([7.0, 8.0, 9.0], onp.float32)
    got = _call("_npi_insert_tensor", [_nd(a), _nd(v), _nd(onp.array(2, onp.int64))], axis=1).asnumpy()
    onp.testing.assert_array_equal(got, onp.insert(a, onp.array(2), v, axis=1))


def test_delete_reads_a_bool_obj_as_integers_as_mxnet_does():
    # Note [np.delete as MXNet reads obj]: MXNet deletes indices 1 and 0 for [True, False, True, False]
    a = onp.arange(12.0, dtype=onp.float32).reshape(3, 4)
    got = _call("_npi_delete", [_nd(a), _nd(onp.array([True, False, True, False]))], axis=1).asnumpy()
    onp.testing.assert_array_equal(got, a[:, 2:])


@pytest.mark.parametrize("op,inputs,attrs,match", [
    ("_npi_insert_scalar", [onp.ones((3, 4), onp.float32), onp.ones((3,), onp.float32)], {"int_ind": 5, "axis": 1},
     r"_npi_insert_scalar: index 5 in 'obj' is out of bounds"),
    ("_npi_insert_tensor", [onp.ones((3, 4), onp.float32), onp.ones((1,), onp.float32),
                            onp.array([0, -6], onp.int64)], {"axis": 1}, r"index -6 in 'obj'"),
    ("_npi_insert_tensor", [onp.ones((3, 4), onp.float32), onp.ones((3,), onp.float32),
                            onp.array([0.5], onp.float32)], {"axis": 1}, r"'obj' must hold integers"),
    ("_npi_insert_slice", [onp.ones((3, 4), onp.float32), onp.ones((2, 3), onp.float32)],
     {"start": 0, "stop": 3, "axis": 1}, r"'values' of shape \(2, 3\) cannot be broadcast"),
    ("_npi_insert_slice", [onp.ones((4,), onp.float32), onp.ones((1,), onp.float32)], {"step": 0},
     r"'step'.*must not be zero"),
    ("_npi_delete", [onp.ones((3, 4), onp.float32)], {"int_ind": 4, "axis": 1}, r"index 4 in 'obj'"),
    ("_npi_delete", [onp.ones((3, 4), onp.float32)], {"int_ind": 0, "axis": 2}, r"axis"),
    ("_npi_average", [onp.ones((3, 4), onp.float32), onp.ones((4,), onp.float32)], {},
     r"'axis' must then be given"),
    ("_npi_average", [onp.ones((3, 4), onp.float32), onp.ones((3,), onp.float32)], {"axis": 1},
     r"length of input 'weights' \(3\)"),
    ("_npi_average", [onp.ones((3, 4), onp.float32), onp.ones((3, 4), onp.float64)], {"axis": 1},
     r"one dtype"),
    ("_npi_percentile", [onp.ones((3, 4), onp.float32)], {"q_scalar": 101}, r"'q' = 101 exceeds"),
    ("_npi_percentile", [onp.ones((3, 4), onp.float32), onp.ones((2, 2), onp.float32)], {},
     r"'q' must be 0-d or 1-D"),
    ("_npi_percentile", [onp.ones((3, 4), onp.bool_)], {"q_scalar": 5}, r"got bool"),
    ("_npi_ediff1d", [onp.ones((3,), onp.int32), onp.ones((2,), onp.float32)], {"to_end_arr_given": True},
     r"input1's dtype int32"),
    ("_npi_boolean_mask_assign_tensor", [onp.ones((3, 4), onp.float32), onp.ones((4,), onp.bool_),
                                         onp.ones((4,), onp.float32)], {"start_axis": 0},
     r"'mask' of shape \(4,\) does not match data \(3, 4\)"),
    ("_npi_boolean_mask_assign_tensor", [onp.ones((3, 4), onp.float32), onp.array([True, False, True]),
                                         onp.ones((3, 4), onp.float32)], {"start_axis": 0},
     r"'value' of shape \(3, 4\) cannot be broadcast to the selection of 2 masked elements"),
])
def test_bad_input_is_refused_naming_op_and_argument(op, inputs, attrs, match):
    with pytest.raises(weft.base.MXNetError, match=match):
        _call(op, [_nd(x) for x in inputs], **attrs).asnumpy()


def test_nan_gives_a_nan_percentile_as_in_mxnet():
    a = onp.array([[1.0, onp.nan, 3.0], [1.0, 2.0, 3.0]], onp.float64)
    got = _call("_npi_percentile", [_nd(a)], q_scalar=50, axis=1).asnumpy()
    assert onp.isnan(got[0]) and got[1] == 2.0


def test_mask_assignment_of_an_array_differentiates_data_and_value():
    # Note [Boolean-mask assignment of an array]: g at data's unselected elements; for value, g
    # summed over the selection positions each value element was broadcast to (MXNet: zeros)
    d = weft.nd.array(onp.arange(12.0).reshape(4, 3))
    m = weft.nd.array(onp.array([True, False, True, True]), dtype="bool")
    v = weft.nd.array(onp.array([1.0, 2.0, 3.0]))
    d.attach_grad()
    v.attach_grad()
    g = onp.arange(12.0).reshape(4, 3) + 1
    with weft.autograd.record():
        y = _call("_npi_boolean_mask_assign_tensor", [d, m, v], start_axis=0)
    y.backward(weft.nd.array(g))
    want = onp.arange(12.0).reshape(4, 3)
    want[[0, 2, 3]] = [1.0, 2.0, 3.0]
    onp.testing.assert_array_equal(y.asnumpy(), want)
    onp.testing.assert_array_equal(d.grad.asnumpy(), g * onp.array([0, 1, 0, 0])[:, None])
    onp.testing.assert_array_equal(v.grad.asnumpy(), g[[0, 2, 3]].sum(axis=0))


def _none_free(attrs):
    """A node's attributes without the ones written as None (MXNet writes some, Weft omits them)."""
    return {k: v for k, v in (attrs or {}).items() if v != "None"}


# weft.sym.np calls that should write the node MXNet wrote for a fixture case (same inputs order)
SYM_NP_CASES = {
    "npi_average_weights_1d": lambda S, v: S.average(v["a"], axis=0, weights=v["w"], returned=True),
    "npi_average_returned_count": lambda S, v: S.average(v["a"], axis=(0, 1), returned=True),
    "npi_ediff1d_end_array": lambda S, v: S.ediff1d(v["a"], to_begin=3.0, to_end=v["e"]),
    "npi_ediff1d_arrays": lambda S, v: S.ediff1d(v["a"], to_begin=v["b"], to_end=v["e"]),
    "npi_percentile_q_array": lambda S, v: S.percentile(v["a"], v["q"], axis=1),
    "npi_percentile_lower": lambda S, v: S.percentile(v["a"], 30, axis=(0, 2), interpolation="lower",
                                                      keepdims=True),
    "npi_insert_scalar": lambda S, v: S.insert(v["a"], 1, v["v"], axis=1),
    "npi_insert_scalar_val": lambda S, v: S.insert(v["a"], 2, 7.5),
    "npi_insert_slice": lambda S, v: S.insert(v["a"], slice(0, 3), v["v"], axis=1),
    "npi_insert_tensor": lambda S, v: S.insert(v["a"], v["o"], v["v"], axis=1),
    "npi_delete_slice": lambda S, v: S.delete(v["a"], slice(0, None, 2), axis=1),
    "npi_delete_negative": lambda S, v: S.delete(v["a"], -4, axis=1),
}


@pytest.mark.parametrize("case", sorted(SYM_NP_CASES))
def test_sym_np_writes_the_node_mxnet_writes_and_computes_its_values(case, arrays):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        theirs = [n for n in json.load(f)["nodes"] if n["op"] != "null"]
    inputs = _of(arrays, case, "in")
    y = SYM_NP_CASES[case](weft.sym.np, {k: weft.sym.var(k) for k in inputs})
    y = weft.sym.Group(y) if isinstance(y, list) else y
    ours = [n for n in json.loads(y.tojson())["nodes"] if n["op"] != "null"]
    assert [n["op"] for n in ours] == [n["op"] for n in theirs]
    assert _none_free(ours[0].get("attrs")) == _none_free(theirs[0].get("attrs")), case
    got = y.bind(weft.cpu(), {k: weft.nd.array(v, dtype=v.dtype) for k, v in inputs.items()}).forward()
    for k, g in enumerate(got):
        want = _of(arrays, case, "out")[str(k)]
        assert g.dtype == want.dtype and g.shape == want.shape
        onp.testing.assert_allclose(g.asnumpy(), want, **_tol(want, inputs))


@pytest.mark.parametrize("call,match", [
    (lambda S, a: S.average([1.0], axis=0), r"average: a must be a Symbol"),
    (lambda S, a: S.ediff1d(a, to_end="x"), r"ediff1d: to_end must be a Symbol, a number or None"),
    (lambda S, a: S.percentile(a, "50"), r"percentile: q must be a number or a Symbol"),
    (lambda S, a: S.percentile(a, 50, overwrite_input=True), r"overwrite_input"),
    (lambda S, a: S.insert(a, 1.5, 2.0), r"insert: obj must be an integer"),
    (lambda S, a: S.insert(a, 1, "v"), r"insert: values must be a Symbol or a number"),
    (lambda S, a: S.delete(a, slice(0, 2.5)), r"delete: obj.stop must be an integer"),
    (lambda S, a: S.delete(a, 0, axis=1.0), r"delete: axis must be an integer"),
])
def test_sym_np_bad_arguments_name_function_and_argument(call, match):
    with pytest.raises((TypeError, NotImplementedError), match=match):
        call(weft.sym.np, weft.sym.var("a"))
