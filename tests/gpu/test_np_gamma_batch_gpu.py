"""The np samplers' GPU kernel for _npi_gamma (a rejection loop: its Philox source gives any
number of uniforms per element) and for _npi_normal_n's batch prefix, with array parameters,
on gpu(0): shapes, dtypes and per-parameter moments under a seed (the CPU forms:
tests/python/test_np_gamma_nodes.py, test_np_samplers_batch.py)."""
import json

import numpy as np

import weft

GPU = weft.gpu(0)


def _draw(op, attrs, *arrays):
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(len(arrays))]
    nodes.append({"op": op, "name": "s", "attrs": dict({"ctx": "gpu(0)", "dtype": "float32"}, **attrs),
                  "inputs": [[i, 0, 0] for i in range(len(arrays))]})
    sym = weft.sym.load_json(json.dumps({"nodes": nodes, "arg_nodes": list(range(len(arrays))),
                                         "heads": [[len(arrays), 0, 0]]}))
    weft.random.seed(31)
    args = {"in%d" % i: weft.nd.array(a, dtype=a.dtype, ctx=GPU) for i, a in enumerate(arrays)}
    return sym.bind(GPU, args, grad_req="null").forward()[0].asnumpy()


def test_gamma_with_an_array_shape_on_the_gpu():
    k = np.array([0.5, 2.0, 9.0], "float32")
    got = _draw("_npi_gamma", {"shape": "None", "scale": "2.0", "size": "(6000, 3)"}, k)
    assert got.shape == (6000, 3) and got.dtype == np.float32 and (got >= 0).all()
    mean, std = 2.0 * k, 2.0 * np.sqrt(k)
    assert (abs(got.mean(axis=0) - mean) < 5 * std / np.sqrt(6000)).all(), got.mean(axis=0)
    assert (abs(got.std(axis=0) / std - 1) < 0.1).all(), got.std(axis=0)


def test_normal_n_batch_prefix_on_the_gpu():
    loc = np.array([[0.0, 10.0, -5.0]], "float32")
    scale = np.array([[1.0], [3.0]], "float32")
    got = _draw("_npi_normal_n", {"loc": "None", "scale": "None", "size": "(4000,)"}, loc, scale)
    assert got.shape == (4000, 2, 3)
    std = np.broadcast_to(scale, (2, 3))
    assert (abs(got.mean(axis=0) - np.broadcast_to(loc, (2, 3))) < 5 * std / np.sqrt(4000)).all()
    assert (abs(got.std(axis=0) / std - 1) < 0.1).all(), got.std(axis=0)
