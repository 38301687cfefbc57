"""npx.random's normal_n / uniform_n with array parameters in graphs MXNet 1.9.1 writes
(issue 37): the nodes _npi_normal_n / _npi_uniform_n with a parameter None read it from an
input array, and `size` (npx's batch_shape) prefixes the parameters' broadcast shape --
MXNet 1.9.1's normal_n(loc (1, 3), scale (2, 1), batch_shape=(4,)) has shape (4, 2, 3)
(checked there). core/op/random/np_samplers.cc; random draws are checked by shape, dtype
and moments under a seed, not by value."""
import json

import numpy as onp
import pytest

import weft


def _graph(op, attrs, n_inputs):
    # the node as MXNet 1.9.1's mx.sym.npx.random.normal_n(a, 1.0, batch_shape=(4,)) writes it
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(n_inputs)]
    nodes.append({"op": op, "name": "node", "attrs": dict({"ctx": "cpu(0)", "dtype": "float32"}, **attrs),
                  "inputs": [[i, 0, 0] for i in range(n_inputs)]})
    return weft.sym.load_json(json.dumps({"nodes": nodes, "arg_nodes": list(range(n_inputs)),
                                          "node_row_ptr": list(range(n_inputs + 2)), "heads": [[n_inputs, 0, 0]],
                                          "attrs": {"mxnet_version": ["int", 10901], "is_np_shape": ["int", 1]}}))


def _draw(op, attrs, *arrays):
    sym = _graph(op, attrs, len(arrays))
    args = {"in%d" % i: weft.nd.array(a, dtype=a.dtype) for i, a in enumerate(arrays)}
    return sym.bind(weft.cpu(), args, grad_req="null").forward()[0].asnumpy()


def test_normal_n_prefixes_size_to_the_parameters_shape():
    weft.random.seed(11)
    loc = onp.array([[0.0, 10.0, -5.0]], "float32")
    scale = onp.array([[1.0], [3.0]], "float64")
    got = _draw("_npi_normal_n", {"loc": "None", "scale": "None", "size": "(4000,)"}, loc, scale)
    assert got.shape == (4000, 2, 3) and got.dtype == onp.float32
    want_mean = onp.broadcast_to(loc, (2, 3))
    want_std = onp.broadcast_to(scale, (2, 3))
    assert (abs(got.mean(axis=0) - want_mean) < 5 * want_std / onp.sqrt(4000)).all(), got.mean(axis=0)
    assert (abs(got.std(axis=0) / want_std - 1) < 0.1).all(), got.std(axis=0)


def test_uniform_n_with_one_array_and_a_two_dim_prefix():
    weft.random.seed(12)
    low = onp.array([0.0, 100.0], "float32")
    got = _draw("_npi_uniform_n", {"low": "None", "high": "200.0", "size": "(30, 50)", "dtype": "float64"}, low)
    assert got.shape == (30, 50, 2) and got.dtype == onp.float64
    assert (got[..., 0] >= 0).all() and (got[..., 1] >= 100).all() and (got < 200).all()
    assert abs(got[..., 0].mean() - 100) < 5 * 200 / 12 ** 0.5 / 1500 ** 0.5
    assert abs(got[..., 1].mean() - 150) < 5 * 100 / 12 ** 0.5 / 1500 ** 0.5


def test_without_size_the_parameters_shape_and_numbers_unchanged():
    weft.random.seed(13)
    got = _draw("_npi_normal_n", {"loc": "None", "scale": "0"}, onp.array([[1.5], [-2.0]], "float32"))
    onp.testing.assert_array_equal(got, [[1.5], [-2.0]])  # scale 0: exactly loc
    got = _draw("_npi_normal_n", {"loc": "1", "scale": "2", "size": "(5, 2)"})
    assert got.shape == (5, 2)


@pytest.mark.parametrize("op, attrs, arrays, error, match", [
    ("_npi_normal_n", {"loc": "None", "scale": "None", "size": "(3,)"},
     [onp.zeros(3, "float32"), onp.ones(2, "float32")], weft.base.ShapeError,
     r"_npi_normal_n: input 'scale' of shape \(2,\) does not broadcast with the other parameters"),
    ("_npi_normal_n", {"loc": "0", "scale": "None", "size": "(3,)"}, [onp.array([1.0, -1.0], "float32")],
     weft.base.InvalidArgumentError, "_npi_normal_n: parameter 'scale' must be >= 0, got -1"),
    ("_npi_uniform_n", {"low": "None", "high": "1", "size": "(-1,)"}, [onp.zeros(2, "float32")],
     weft.base.InvalidArgumentError, r"_npi_uniform_n: parameter 'size' \(-1,\) has a negative dimension"),
])
def test_bad_parameters_are_refused_naming_them(op, attrs, arrays, error, match):
    with pytest.raises(error, match=match):
        _draw(op, attrs, *arrays)
