"""Graphs MXNet 1.9.1 writes in NumPy mode name the `_npi_*` kernels with
MXNet's attribute strings (issue 37 point 3): they load, bind (the ops whose
output shapes follow from their input shapes) and compute NumPy's values."""
import json

import numpy as onp

import weft
from weft.ndarray.op_call import _call


def _graph(op, attrs, n_inputs, n_outputs=1):
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(n_inputs)]
    nodes.append({"op": op, "name": "node", "attrs": attrs, "inputs": [[i, 0, 0] for i in range(n_inputs)]})
    return json.dumps({"nodes": nodes, "arg_nodes": list(range(n_inputs)), "heads": [[n_inputs, k, 0] for k in range(n_outputs)],
                       "attrs": {"mxnet_version": ["int", 10901]}})


def _run(op, attrs, *arrays):
    sym = weft.sym.load_json(_graph(op, attrs, len(arrays)))
    args = {"in%d" % i: weft.nd.array(a, dtype=a.dtype) for i, a in enumerate(arrays)}
    exe = sym.bind(weft.cpu(), args)
    return exe.forward()[0].asnumpy()


def test_mxnet_written_graphs_load_and_compute():
    x = onp.arange(12, dtype=onp.float32).reshape(3, 4) ** 2
    # attribute strings as MXNet's SetAttrDict / the frontend write them
    onp.testing.assert_array_equal(_run("_npi_diff", {"n": "2", "axis": "0"}, x), onp.diff(x, n=2, axis=0))
    onp.testing.assert_array_equal(
        _run("_npi_pad", {"pad_width": "((1,2),(0,3))", "mode": "reflect", "constant_values": "0",
                          "reflect_type": "even"}, x),
        onp.pad(x, ((1, 2), (0, 3)), mode="reflect"))
    onp.testing.assert_array_equal(
        _run("_npi_pad", {"pad_width": "((2,2),)", "mode": "constant", "constant_values": "1.5"}, x),
        onp.pad(x, 2, constant_values=1.5))
    p, v = onp.array([1.0, -2.0, 3.0], onp.float32), onp.array([0.5, 2.0], onp.float32)
    onp.testing.assert_allclose(_run("_npi_polyval", {}, p, v), onp.polyval(p, v), rtol=1e-6)
    xp, fp, q = onp.array([1.0, 2.0, 3.0]), onp.array([3.0, 2.0, 0.0]), onp.array([0.0, 2.5, 4.0])
    onp.testing.assert_array_equal(
        _run("_npi_interp", {"left": "None", "right": "None", "period": "None", "x_scalar": "0.0",
                             "x_is_scalar": "False"}, xp, fp, q), onp.interp(q, xp, fp))
    assert float(_run("_npi_interp", {"x_scalar": "2.5", "x_is_scalar": "True"}, xp, fp)) == 1.0


def test_mxnet_written_dynamic_shape_graphs_load():
    # their outputs are sized from values, so a bound executor refuses them (as MXNet does); loading
    # checks MXNet's attribute names and the input/output lists they imply
    uniq = weft.sym.load_json(_graph("_npi_unique", {"return_index": "True", "return_inverse": "False",
                                                     "return_counts": "True", "axis": "None"}, 1, 3))
    assert uniq.list_outputs() == ["node_output", "node_index", "node_counts"]
    both = weft.sym.load_json(_graph("_npi_bincount", {"minlength": "3", "has_weights": "True"}, 2))
    assert both.list_arguments() == ["in0", "in1"]


def test_mxnet_names_of_ops_weft_np_calls_under_legacy_names():
    # _np_diag, _npi_flip and _npi_cholesky are MXNet's own registrations of the diag, reverse
    # and potrf kernels (core/opdef/np_op_names.cc); graphs naming them load and compute NumPy's values
    v = onp.array([1.0, -2.0, 3.0], onp.float32)
    m = onp.arange(12, dtype=onp.float32).reshape(3, 4)
    onp.testing.assert_array_equal(_run("_np_diag", {"k": "1"}, v), onp.diag(v, k=1))
    onp.testing.assert_array_equal(_run("_np_diag", {"k": "-1"}, m), onp.diag(m, k=-1))
    onp.testing.assert_array_equal(_run("_np_diag", {}, m), onp.diag(m))
    t = onp.arange(24, dtype=onp.float32).reshape(2, 3, 4)
    onp.testing.assert_array_equal(_run("_npi_flip", {"axis": "(0, 2)"}, t), onp.flip(t, axis=(0, 2)))
    onp.testing.assert_array_equal(_run("_npi_flip", {"axis": "(-1,)"}, t), onp.flip(t, axis=-1))
    onp.testing.assert_array_equal(_run("_npi_flip", {"axis": "1"}, t), onp.flip(t, axis=1))
    a = onp.array([[4.0, 2.0, 0.4], [2.0, 5.0, 1.0], [0.4, 1.0, 3.0]])
    batch = onp.stack([a, a * 2 + onp.eye(3)])
    for attrs in ({}, {"lower": "True"}):
        onp.testing.assert_allclose(_run("_npi_cholesky", attrs, batch), onp.linalg.cholesky(batch), rtol=1e-12)
    onp.testing.assert_allclose(_run("_npi_cholesky", {"lower": "False"}, a), onp.linalg.cholesky(a).T, rtol=1e-12)


def test_mxnet_names_of_legacy_ops_differentiate_as_those():
    a = onp.array([[4.0, 2.0], [2.0, 3.0]])
    x = weft.nd.array(a, dtype="float64")
    x.attach_grad()
    with weft.autograd.record():
        y = weft.nd.sum(_call("_npi_cholesky", [x]))
    y.backward()
    z = weft.nd.array(a, dtype="float64")
    z.attach_grad()
    with weft.autograd.record():
        w = weft.nd.sum(_call("_linalg_potrf", [z]))
    w.backward()
    assert onp.abs(x.grad.asnumpy()).sum() > 0
    onp.testing.assert_array_equal(x.grad.asnumpy(), z.grad.asnumpy())
