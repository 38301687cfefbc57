"""_npi_gamma nodes as MXNet 1.9.1 writes them for np.random.gamma (issue 37): shape and
scale each a number or, as None, an input array, broadcast to `size` or, without it, to one
another (np.random.gamma(array(3), 2.0) is (3,), with size (4, 3) it is (4, 3), gamma(array(3),
array((2, 1))) is (2, 3): MXNet 1.9.1's, checked there). The op is an np sampler of
core/op/random/np_samplers.cc (Note [Sampler parameters from arrays]); draws are checked by
shape, dtype and moments under a seed, not by value."""
import json

import numpy as onp
import pytest

import weft


def _draw(attrs, *arrays):
    # the node's attributes as MXNet 1.9.1's mx.sym.np.random.gamma(a, 2.0, size=(4, 3)) writes them
    full = dict({"ctx": "cpu(0)", "dtype": "float32", "shape": "None", "scale": "None", "size": "None"}, **attrs)
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(len(arrays))]
    nodes.append({"op": "_npi_gamma", "name": "g", "attrs": full, "inputs": [[i, 0, 0] for i in range(len(arrays))]})
    sym = weft.sym.load_json(json.dumps({"nodes": nodes, "arg_nodes": list(range(len(arrays))),
                                         "node_row_ptr": list(range(len(arrays) + 2)),
                                         "heads": [[len(arrays), 0, 0]],
                                         "attrs": {"mxnet_version": ["int", 10901], "is_np_shape": ["int", 1]}}))
    args = {"in%d" % i: weft.nd.array(a, dtype=a.dtype) for i, a in enumerate(arrays)}
    return sym.bind(weft.cpu(), args, grad_req="null").forward()[0].asnumpy()


def test_shape_as_an_array_broadcast_to_size():
    weft.random.seed(21)
    k = onp.array([0.5, 2.0, 9.0], "float32")
    got = _draw({"shape": "None", "scale": "2.0", "size": "(6000, 3)"}, k)
    assert got.shape == (6000, 3) and got.dtype == onp.float32 and (got >= 0).all()
    mean, std = 2.0 * k, 2.0 * onp.sqrt(k)
    assert (abs(got.mean(axis=0) - mean) < 5 * std / onp.sqrt(6000)).all(), got.mean(axis=0)
    assert (abs(got.std(axis=0) / std - 1) < 0.1).all(), got.std(axis=0)


def test_both_as_arrays_without_size_broadcast_together():
    weft.random.seed(22)
    k = onp.full((1, 2000), 3.0, "float64")
    theta = onp.array([[0.5], [4.0]], "float32")
    got = _draw({"dtype": "float64"}, k, theta)
    assert got.shape == (2, 2000) and got.dtype == onp.float64
    for row, t in enumerate((0.5, 4.0)):
        assert abs(got[row].mean() - 3 * t) < 5 * onp.sqrt(3) * t / onp.sqrt(2000), got[row].mean()


def test_number_parameters_still_draw_and_shape_zero_gives_zero():
    weft.random.seed(23)
    got = _draw({"shape": "4.0", "scale": "0.25", "size": "(5000,)"})
    assert got.shape == (5000,) and abs(got.mean() - 1.0) < 5 * 0.5 / onp.sqrt(5000)
    assert _draw({"shape": "2.0", "scale": "1.0"}).shape == ()  # size None: one draw, a 0-d array as MXNet's
    onp.testing.assert_array_equal(_draw({"scale": "3.0", "size": "(2, 2)"}, onp.zeros(2, "float32")), 0)


@pytest.mark.parametrize("attrs, arrays, error, match", [
    ({"shape": "None", "scale": "1", "size": "(3,)"}, [onp.ones((2, 1), "float32")], weft.base.ShapeError,
     r"_npi_gamma: input 'shape' of shape \(2, 1\) does not broadcast to size \(3,\)"),
    ({"shape": "None", "scale": "1"}, [onp.array([1.0, -1.0], "float32")], weft.base.InvalidArgumentError,
     "_npi_gamma: parameter 'shape' must be >= 0, got -1"),
    ({"shape": "1", "scale": "None"}, [onp.array([-0.5], "float64")], weft.base.InvalidArgumentError,
     "_npi_gamma: parameter 'scale' must be >= 0, got -0.5"),
    ({"shape": "-2", "scale": "1"}, [], weft.base.InvalidArgumentError,
     "_npi_gamma: parameter 'shape' must be >= 0, got -2"),
    ({"shape": "None", "scale": "1"}, [onp.ones(2, "int32")], weft.DTypeError,
     r"_npi_gamma: input 'shape' \(the parameter as an array\) must be float32 or float64"),
])
def test_bad_parameters_are_refused_naming_them(attrs, arrays, error, match):
    with pytest.raises(error, match=match):
        _draw(attrs, *arrays)
