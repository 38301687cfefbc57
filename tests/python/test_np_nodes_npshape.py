"""Graphs MXNet 1.9.1 wrote in NumPy mode naming the operators of issue 37's "npshape" group
load in Weft and compute what MXNet computed (values, shapes, dtypes), forward and, where
MXNet has a gradient, one backward.

tests/python/mxnet_written/np_nodes_npshape/ holds what MXNet wrote (its make_with_mxnet.py):
one <case>-symbol.json per case and arrays.params (V3 records) with each case's inputs,
MXNet's outputs, the head gradients and MXNet's input gradients."""
import glob
import json
import os

import numpy as onp
import pytest

import weft
from weft import npx
from weft.ndarray.op_call import _call

# The group's names each fixture graph holds (_npi_scatter_set_nd, which MXNet runs only in place,
# is checked by test_scatter_set_nd_under_its_numpy_name).
WRITTEN_BY_MXNET = (
    "_np_all", "_np_amax", "_np_amin", "_np_any", "_np_atleast_1d", "_np_atleast_2d", "_np_atleast_3d",
    "_np_diagflat", "_np_diagonal", "_np_moveaxis", "_np_product", "_np_repeat", "_np_roll", "_np_sometrue",
    "_npi_argmax", "_npi_argmin", "_npi_argsort", "_npi_broadcast_to", "_npi_column_stack",
    "_npi_diag_indices_from", "_npi_dsplit", "_npi_dstack", "_npi_gather_nd", "_npi_histogram", "_npi_hsplit",
    "_npi_hstack", "_npi_reshape", "_npi_rnn_param_concat", "_npi_rot90", "_npi_slice", "_npi_slice_assign",
    "_npi_slice_assign_scalar", "_npi_sort", "_npi_std", "_npi_take", "_npi_tril", "_npi_var", "_npi_vstack",
)
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_nodes_npshape")
CASES = sorted(os.path.basename(p)[:-len("-symbol.json")] for p in glob.glob(os.path.join(HERE, "*-symbol.json")))


@pytest.fixture(scope="module")
def arrays():
    return {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "arrays.params")).items()}


def _of(arrays, case, kind):
    """{name: array} of one case's records of one kind (in, out, head, grad)."""
    prefix = "%s:%s:" % (case, kind)
    return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}


def _tol(a, inputs):
    # MXNet computes in its inputs' dtype (a float32 variance asked for as float64 is float32's)
    single = a.dtype == onp.float32 or any(v.dtype == onp.float32 for v in inputs.values())
    return dict(rtol=1e-6, atol=1e-6) if single else dict(rtol=1e-12, atol=1e-12)


# Note [Gradients where MXNet 1.9.1 is wrong]
# MXNet 1.9.1's backward of np.rot90 turns the head gradient by +k where the adjoint turns it
# by -k, and np.atleast_{1,2,3}d back-propagate zeros; Weft's ops give the true adjoints (checked
# by finite differences in tests/cpp/gradient_check_test.cc), so for these cases the input
# gradients are compared with the adjoint of MXNet's own forward, not with the ones it stored.
def _rot90_adjoint(k, axes):
    return lambda ins, heads: {"a": onp.rot90(heads["0"], -k, axes)}


def _atleast_adjoint(ins, heads):
    return {name: heads[str(i)].reshape(ins[name].shape) for i, name in enumerate(sorted(ins))}


MXNET_GRADIENT_BUGS = {
    "npi_rot90": _rot90_adjoint(3, (1, 2)),
    "npi_rot90_k1": _rot90_adjoint(1, (0, 1)),
    "np_atleast_1d": _atleast_adjoint,
    "np_atleast_2d": _atleast_adjoint,
    "np_atleast_3d": _atleast_adjoint,
}


def test_every_group_case_is_in_the_fixtures():
    assert len(CASES) == 51  # the cases make_with_mxnet.py writes


@pytest.mark.parametrize("case", CASES)
def test_mxnet_written_graph_loads_and_computes_mxnets_values(case, arrays):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        text = f.read()
    sym = weft.sym.load_json(text)
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
    if case in MXNET_GRADIENT_BUGS:  # Note [Gradients where MXNet 1.9.1 is wrong]
        adjoint = MXNET_GRADIENT_BUGS[case](inputs, heads)
        assert any(not onp.allclose(adjoint[k], grads[k]) for k in grads), "MXNet's gradient is right after all"
        grads = adjoint
    for k, want in grads.items():
        g = exe.grad_dict[k].asnumpy()
        assert g.dtype == want.dtype and g.shape == want.shape, (case, k)
        onp.testing.assert_allclose(g, want, **_tol(want, inputs))


def test_the_fixture_files_name_the_groups_operators():
    ops = set()
    for case in CASES:
        with open(os.path.join(HERE, case + "-symbol.json")) as f:
            ops |= {n["op"] for n in json.load(f)["nodes"]}
    missing = sorted(set(WRITTEN_BY_MXNET) - ops)
    assert not missing, missing


def test_aliases_are_registered_names():
    for name in ("_np_repeat", "_npi_argsort", "_npi_gather_nd", "_npi_histogram", "_npi_scatter_set_nd",
                 "_npi_slice", "_npi_slice_assign", "_npi_slice_assign_scalar", "_npi_sort", "_npi_take",
                 "_npi_rnn_param_concat"):
        assert weft.base.op_exists(name), name


def test_scatter_set_nd_under_its_numpy_name():
    # MXNet's _scatter_set_nd only runs in place (its kernel checks that out is lhs), so MXNet cannot
    # run it in a bound graph to write a fixture; the alias computes what the legacy op does.
    lhs = onp.arange(12, dtype=onp.float32).reshape(3, 4)
    rhs = onp.array([-1.0, -2.0], onp.float32)
    idx = onp.array([[0, 2], [1, 3]], onp.int64)
    args = [weft.nd.array(lhs), weft.nd.array(rhs), weft.nd.array(idx, dtype="int64")]
    got = _call("_npi_scatter_set_nd", args, shape=(3, 4))
    want = lhs.copy()
    want[0, 1], want[2, 3] = -1.0, -2.0
    onp.testing.assert_array_equal(got.asnumpy(), want)


def _node(op, attrs, n_inputs=1):
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(n_inputs)]
    nodes.append({"op": op, "name": "n", "attrs": attrs, "inputs": [[i, 0, 0] for i in range(n_inputs)]})
    return json.dumps({"nodes": nodes, "arg_nodes": list(range(n_inputs)), "heads": [[n_inputs, 0, 0]],
                       "attrs": {"mxnet_version": ["int", 10901]}})


@pytest.mark.parametrize("op,attrs,what", [
    ("_npi_reshape", {"newshape": "(-4, -3)"}, "'newshape'"),
    ("_np_diagonal", {"offset": "None"}, "'offset'"),
])
def test_values_the_read_op_cannot_express_are_refused(op, attrs, what):
    with pytest.raises(weft.base.MXNetError) as e:
        weft.sym.load_json(_node(op, attrs))
    assert op in str(e.value) and what in str(e.value)


def test_a_1d_input_of_hsplit_is_refused_not_split_differently():
    # Note [NumPy-mode shape nodes read as other nodes]: read as _split_v2 on axis 1, which a 1-D
    # input does not have (NumPy splits it on axis 0): binding fails instead of giving another result
    sym = weft.sym.load_json(_node("_npi_hsplit", {"axis": "1", "indices": "[]", "sections": "3",
                                                   "squeeze_axis": "False"}))
    with pytest.raises(weft.base.MXNetError):
        sym.bind(weft.cpu(), {"in0": weft.nd.ones((6,))}).forward()[0].asnumpy()
