"""The np.random samplers' GPU kernel with parameters given as arrays (Note [Sampler parameters
from arrays] in core/op/random/np_samplers_rules.h), on graphs MXNet 1.9.1 wrote
(tests/python/mxnet_written/np_nodes_npmisc/): each group of elements draws from its own
parameters on gpu(0) as on the CPU, and a parameter out of range is refused before any draw
(the kernel checks host copies of the arrays). The harness (test_op_harness_gpu.py) covers
the scalar forms."""
import json
import math
import os

import numpy as np
import pytest

import weft
from weft import npx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python", "mxnet_written",
                    "np_nodes_npmisc")
with open(os.path.join(HERE, "graphs.json")) as _f:
    GRAPHS = json.load(_f)
ARRAYS = {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "arrays.params")).items()}
GPU = weft.gpu(0)


def _run(name, ctx, arrays=None):
    arrays = arrays or [ARRAYS["%s/in%d" % (name, i)] for i in range(len([k for k in ARRAYS
                                                                           if k.startswith(name + "/in")]))]
    sym = weft.sym.load_json(json.dumps(GRAPHS[name]))
    weft.random.seed(7)
    args = {"in%d" % i: weft.nd.array(a, dtype=a.dtype, ctx=ctx) for i, a in enumerate(arrays)}
    out = sym.bind(ctx, args, grad_req="null").forward()[0]
    assert out.context == ctx
    return out.asnumpy()


@pytest.mark.parametrize("name, groups", [
    ("gumbel_array_loc", [(0, -5.0 + 2 * 0.5772156649015329, 2 * math.pi / math.sqrt(6)),
                          (1, 5.0 + 2 * 0.5772156649015329, 2 * math.pi / math.sqrt(6))]),
    ("powerd_array_a", [(0, 1 / 3, math.sqrt(0.5 / (1.5 ** 2 * 2.5))), (1, 0.8, math.sqrt(4 / (25 * 6)))]),
    ("bernoulli_array_prob", [(0, 0.2, 0.4), (1, 0.9, 0.3)]),
    ("normal_array_loc", [(0, -5.0, 2.0), (1, 5.0, 2.0)]),  # Box-Muller: both words of the element's Philox
    ("uniform_arrays", [(0, 0.5, 1 / math.sqrt(12)), (1, 12.0, 4 / math.sqrt(12))]),
])
def test_array_parameters_draw_per_element_on_gpu(name, groups):
    got = _run(name, GPU)
    cpu = _run(name, weft.cpu())
    assert got.shape == cpu.shape == ARRAYS[name + "/out0"].shape and got.dtype == cpu.dtype
    for row, mean, std in groups:
        x = got[row].astype(np.float64)
        assert abs(x.mean() - mean) < 5 * std / math.sqrt(x.size), (name, row, x.mean(), mean)
        assert abs(x.std() - std) < 0.1 * std, (name, row, x.std(), std)


def test_array_parameter_out_of_range_is_refused_on_gpu():
    with pytest.raises(weft.base.InvalidArgumentError, match="_npi_powerd: parameter 'a' must be > 0, got -1"):
        _run("powerd_array_a", GPU, [np.array([[1.0], [-1.0]], "float32")])
