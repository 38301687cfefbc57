"""Graphs MXNet 1.9.1 wrote in NumPy mode with the products, random, creation and norm
operators of issue 37's nplinalg group (point 3) load in Weft and compute what MXNet computed.

tests/python/mxnet_written/np_nodes_nplinalg/ holds one graph per case as MXNet wrote it and,
in data.params, the inputs, MXNet's outputs and MXNet's input gradients (its
make_with_mxnet.py). _np_dot, _npi_matmul, _npi_tensordot(_int_axes), _np_trace and
_npi_full_like, the windows, _npi_logspace and _npi_indices are Weft operators under
MXNet's names (core/op/dense/np_products.cc, core/op/reduce/np_trace.cc,
core/op/init/np_full_like.cc, np_index_fills.cc); most other nodes are read as the legacy operator that computes them
(Note [NumPy-mode random and norm nodes] in core/graph/np_nodes_nplinalg.cc; gamma, normal, uniform
and exponential are operators of their own now, core/op/random/np_samplers.cc); the names
MXNet registers as aliases of a legacy operator (_npi_linspace, _npi_random_randint,
_npi_shuffle, _npi_Custom) are aliases here too (core/opdef/np_op_names.cc)."""
import glob
import json
import math
import os

import numpy as onp
import pytest

import weft
from weft import npx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_nodes_nplinalg")
DATA = npx.load(os.path.join(HERE, "data.params"))

DETERMINISTIC = ["dot", "dot_nd", "dot_vector", "matmul", "matmul_vector", "tensordot", "tensordot_axes",
                 "tensordot_transposed", "trace", "trace_axes", "trace_int", "full_like", "full_like_int",
                 "full_like_dtype", "hanning", "hamming", "blackman", "logspace", "logspace_f64", "indices",
                 "indices_int64", "identity", "identity_f64", "linspace", "linspace_open", "norm", "norm_keepdims",
                 "norm_axis", "norm_ord1_axis", "norm_ord2_axis_keepdims", "norm_fro_axes", "norm_fro",
                 "norm_spectral", "norm_spectral_neg", "norm_nuclear", "norm_nuclear_axes"]
# The legacy norm's full reduction gives shape (1,) where MXNet's gives a 0-d array (Note
# [NumPy-mode random and norm nodes]); values and dtypes are MXNet's.
FULL_REDUCTION_AS_1 = {"norm", "norm_fro"}
# MXNet 1.9.1's gradient of norm(t, ord=-2, axis=(0, 2), keepdims=True) is not the gradient of
# what it computes (its values differ from central differences by up to 0.7; its gradient of
# ord=-2 over a single 2-D matrix is right); Weft's equals the differences
# (test_singular_value_norm_gradients_equal_central_differences).
MXNET_GRADIENT_WRONG = {"norm_spectral_neg"}
# (case, mean, standard deviation of the distribution MXNet was asked for)
RANDOM = [("normal", 1.5, 2.0), ("normal_n", 1.5, 2.0), ("normal_f64", -3.0, 0.5),
          ("uniform", 1.0, 4 / 12 ** 0.5), ("uniform_n", 1.0, 4 / 12 ** 0.5), ("uniform_f64", 2.25, 0.5 / 12 ** 0.5),
          ("exponential", 2.0, 2.0), ("gamma", 6.0, 18 ** 0.5), ("gamma_f64", 0.5, 0.5 ** 0.5),
          ("randint", 0.5, (63 / 12) ** 0.5),
          ("gumbel", 1 + 2 * 0.5772156649015329, 2 * math.pi / 6 ** 0.5), ("logistic", -0.5, 0.5 * math.pi / 3 ** 0.5),
          ("rayleigh", 2 * (math.pi / 2) ** 0.5, 2 * ((4 - math.pi) / 2) ** 0.5),
          ("weibull", math.gamma(1 + 1 / 1.5), (math.gamma(1 + 2 / 1.5) - math.gamma(1 + 1 / 1.5) ** 2) ** 0.5),
          ("pareto", 1 / 5, (6 / (25 * 4)) ** 0.5), ("bernoulli", 0.3, (0.3 * 0.7) ** 0.5),
          ("bernoulli_logit", 1 / (1 + math.exp(-0.5)), (0.5 / (1 + math.cosh(0.5))) ** 0.5)]
# The sample standard deviation's tolerance (relative): the Pareto II of shape 6 has a large
# kurtosis, so 1000 samples' deviation spreads about 10% around the distribution's.
STD_TOL = {"pareto": 0.35}
# Refused when written; they load now (_weft_np_norm: test_once_refused_norms_compute_numpys_values).
REFUSED = {}
ONCE_REFUSED_NORMS = {"refused_norm_ord_no_axis": dict(ord=1), "refused_norm_ord3": dict(ord=3, axis=1)}


def _sym(case):
    return weft.sym.load(os.path.join(HERE, case + "-symbol.json"))


def _mx(case, kind):
    prefix = "%s/%s:" % (case, kind)
    return {k[len(prefix):]: v.asnumpy() for k, v in DATA.items() if k.startswith(prefix)}


def _bind(case, grads=False):
    args = {k: weft.nd.array(v, dtype=v.dtype) for k, v in _mx(case, "arg").items()}
    args_grad = {k: weft.nd.zeros(v.shape, dtype=v.dtype) for k, v in args.items()} if grads else None
    return _sym(case).bind(weft.cpu(), args, args_grad=args_grad), args_grad


def _ops(case):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        return [n["op"] for n in json.load(f)["nodes"] if n["op"] != "null"]


def test_every_case_has_its_files():
    written = {os.path.basename(p)[:-len("-symbol.json")] for p in glob.glob(os.path.join(HERE, "*-symbol.json"))}
    others = {"shuffle", "normal_scalar", "multinomial", "refused_tensordot_pairing", "refused_gumbel_array_loc",
              "refused_normal_array_loc"} | set(ONCE_REFUSED_NORMS)
    assert written == set(DETERMINISTIC) | {c for c, _, _ in RANDOM} | set(REFUSED) | others
    # the operators as MXNet wrote them: its own NumPy-mode names, none of them a Weft op name
    assert _ops("norm") == ["_npi_norm"] and _ops("identity") == ["_npi_identity"]
    assert _ops("dot_nd") == ["_np_dot"] and _ops("matmul") == ["_npi_matmul"]
    assert _ops("trace") == ["_np_trace"] and _ops("full_like") == ["_npi_full_like"]
    assert _ops("tensordot") == ["_npi_tensordot_int_axes"] and _ops("tensordot_axes") == ["_npi_tensordot"]
    assert {_ops(c)[0] for c, _, _ in RANDOM} == {"_npi_normal", "_npi_normal_n", "_npi_uniform", "_npi_uniform_n",
                                                  "_npi_exponential", "_npi_gamma", "_random_randint", "_npi_gumbel",
                                                  "_npi_logistic", "_npi_rayleigh", "_npi_weibull", "_npi_pareto",
                                                  "_npi_bernoulli"}


@pytest.mark.parametrize("case", DETERMINISTIC)
def test_forward_equals_mxnets(case):
    exe, _ = _bind(case)
    outs = exe.forward()
    want = _mx(case, "out")
    assert len(outs) == len(want)
    for k, o in enumerate(outs):
        w, got = want[str(k)], o.asnumpy()
        assert got.dtype == w.dtype
        if case in FULL_REDUCTION_AS_1:
            assert w.shape == () and got.shape == (1,)
            got = got.reshape(())
        assert got.shape == w.shape
        onp.testing.assert_allclose(got, w, rtol=1e-6 if w.dtype == onp.float32 else 1e-12, atol=1e-7)


@pytest.mark.parametrize("case", [c for c in DETERMINISTIC if _mx(c, "grad") and c not in MXNET_GRADIENT_WRONG])
def test_backward_equals_mxnets(case):
    exe, grads = _bind(case, grads=True)
    outs = exe.forward(is_train=True)
    exe.backward([weft.nd.ones(o.shape, dtype=o.dtype) for o in outs])
    want = _mx(case, "grad")
    assert set(grads) == set(want)
    for k, g in grads.items():
        assert g.dtype == want[k].dtype
        onp.testing.assert_allclose(g.asnumpy(), want[k], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("case", ["norm_spectral", "norm_spectral_neg", "norm_nuclear", "norm_nuclear_axes"])
def test_singular_value_norm_gradients_equal_central_differences(case):
    # _npi_norm's flags 0 and 2 read as _weft_np_svd_norm (Note [Singular-value norms]); the
    # gradient of the sum of the outputs by central differences of the forward, in float64
    (name, x), = _mx(case, "arg").items()
    x = x.astype(onp.float64)
    sym = _sym(case)

    def total(v):
        return sum(float(o.asnumpy().astype(onp.float64).sum())
                   for o in sym.bind(weft.cpu(), {name: weft.nd.array(v, dtype="float64")}).forward())

    grad = weft.nd.zeros(x.shape, dtype="float64")
    exe = sym.bind(weft.cpu(), {name: weft.nd.array(x, dtype="float64")}, args_grad={name: grad})
    outs = exe.forward(is_train=True)
    exe.backward([weft.nd.ones(o.shape, dtype=o.dtype) for o in outs])
    want = onp.zeros_like(x)
    for i in onp.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += 1e-6
        down[i] -= 1e-6
        want[i] = (total(up) - total(down)) / 2e-6
    onp.testing.assert_allclose(grad.asnumpy(), want, rtol=1e-5, atol=1e-6)
    assert _ops(case) == ["_npi_norm"]


@pytest.mark.parametrize("case,mean,std", RANDOM)
def test_random_draws_match_mxnets_distribution(case, mean, std):
    weft.random.seed(7)
    exe, _ = _bind(case)
    got = exe.forward()[0].asnumpy()
    mx_sample = _mx(case, "out")["0"]
    assert got.shape == mx_sample.shape and got.dtype == mx_sample.dtype
    n = got.size
    # both samples' means within 5 standard errors of the distribution's, and of each other
    for sample in (got, mx_sample):
        assert abs(sample.mean() - mean) < 5 * std / n ** 0.5, (case, sample.mean(), mean)
        assert abs(sample.std() - std) < STD_TOL.get(case, 0.1) * std, (case, sample.std(), std)
    if case.startswith("bernoulli"):
        assert set(onp.unique(got)) == {0, 1}
    if case == "randint":
        assert got.min() >= -3 and got.max() < 5 and set(onp.unique(got)) == set(range(-3, 5))
    if case.startswith("uniform"):
        lo, hi = mean - std * 3 ** 0.5, mean + std * 3 ** 0.5
        assert got.min() >= lo and got.max() < hi
    if case.startswith("gamma") or case in ("exponential", "rayleigh", "weibull", "pareto"):
        assert got.min() > 0


def test_one_draw_is_a_0d_array():
    weft.random.seed(7)
    exe, _ = _bind("normal_scalar")
    got = exe.forward()[0]
    assert got.shape == _mx("normal_scalar", "out")["0"].shape == ()


def test_multinomial_counts_match_mxnets():
    weft.random.seed(7)
    exe, _ = _bind("multinomial")
    got = exe.forward()[0].asnumpy()
    mx_sample = _mx("multinomial", "out")["0"]
    assert _ops("multinomial") == ["_npi_multinomial"]
    assert got.shape == mx_sample.shape == (1000, 3) and got.dtype == mx_sample.dtype == onp.int64
    p = onp.array([0.2, 0.3, 0.5])
    for sample in (got, mx_sample):
        assert (sample.sum(axis=1) == 10).all() and (sample >= 0).all()
        se = onp.sqrt(10 * p * (1 - p) / 1000)
        assert (abs(sample.mean(axis=0) - 10 * p) < 5 * se).all(), sample.mean(axis=0)


def test_shuffle_permutes_rows():
    weft.random.seed(7)
    exe, _ = _bind("shuffle")
    got = exe.forward()[0].asnumpy()
    rows = _mx("shuffle", "arg")["rows"]
    assert got.shape == _mx("shuffle", "out")["0"].shape
    assert sorted(map(tuple, got)) == sorted(map(tuple, rows))


@pytest.mark.parametrize("case", sorted(ONCE_REFUSED_NORMS))
def test_once_refused_norms_compute_numpys_values(case):
    # _npi_norm with flag -1 and axis=None or an ord other than 1 and 2 reads as _weft_np_norm (Note
    # [Norms by the input's rank]); MXNet wrote no data for these, so NumPy is the reference
    m = _mx("norm", "arg")["m"]
    got = _sym(case).bind(weft.cpu(), {"m": weft.nd.array(m)}).forward()[0].asnumpy()
    want = onp.linalg.norm(m.astype("float64"), **ONCE_REFUSED_NORMS[case])
    assert got.shape == want.shape and got.dtype == onp.float32
    onp.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("case", ["refused_gumbel_array_loc", "refused_normal_array_loc"])
def test_sampler_with_an_array_parameter_loads(case):
    # np.random.gumbel(loc=array): MXNet's node has loc=None and the array as an input, which
    # _npi_gumbel and _npi_normal take (Note [Sampler parameters from arrays] in
    # core/op/random/np_samplers_rules.h; the npmisc group's test compares such draws with MXNet's)
    weft.random.seed(7)
    m = _mx("norm", "arg")["m"]
    got = _sym(case).bind(weft.cpu(), {"m": weft.nd.array(m)}).forward()[0].asnumpy()
    assert got.shape == (2, 3) and got.dtype == onp.float32 and onp.isfinite(got).all()


def test_tensordot_pairing_that_needs_a_copy_runs_as_einsum():
    # The pairs (1, 1), (2, 0) are no run of b's axes in a's order: Weft refused this graph
    # (hence the case's name, which MXNet's files keep) until such pairings ran as an einsum
    # (Note [Tensordot pairings as einsum]); MXNet wrote no data for it, so NumPy is the reference.
    sym = _sym("refused_tensordot_pairing")
    t = onp.arange(24, dtype="float64").reshape(2, 3, 4) / 5
    c2 = onp.cos(onp.arange(24, dtype="float64")).reshape(4, 3, 2)
    args = {"t": weft.nd.array(t, dtype="float64"), "c2": weft.nd.array(c2, dtype="float64")}
    got = sym.bind(weft.cpu(), args).forward()[0].asnumpy()
    onp.testing.assert_allclose(got, onp.tensordot(t, c2, axes=([1, 2], [1, 0])), rtol=1e-12)


@pytest.mark.parametrize("alias,legacy", [("_npi_linspace", "_linspace"), ("_npi_random_randint", "_random_randint"),
                                          ("_npi_shuffle", "_shuffle"), ("_npi_Custom", "Custom")])
def test_mxnet_alias_names_exist(alias, legacy):
    # MXNet writes the legacy name for these (add_alias), but both names are its operator's
    assert weft.base.op_exists(alias) and weft.base.op_exists(legacy)


@pytest.mark.parametrize("case,alias", [("linspace", "_npi_linspace"), ("randint", "_npi_random_randint"),
                                        ("shuffle", "_npi_shuffle")])
def test_graphs_naming_the_alias_compute_the_same(case, alias):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        graph = json.load(f)
    for node in graph["nodes"]:
        if node["op"] != "null":
            node["op"] = alias
    args = {k: weft.nd.array(v, dtype=v.dtype) for k, v in _mx(case, "arg").items()}
    outs = []
    for sym in (_sym(case), weft.sym.load_json(json.dumps(graph))):
        weft.random.seed(3)
        outs.append(sym.bind(weft.cpu(), args).forward()[0].asnumpy())
    onp.testing.assert_array_equal(outs[0], outs[1])
    assert outs[0].dtype == _mx(case, "out")["0"].dtype


class _Cube(weft.operator.CustomOp):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], self.scale * in_data[0] ** 3)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * 3 * self.scale * in_data[0] ** 2)


@weft.operator.register("nplinalg_cube")
class _CubeProp(weft.operator.CustomOpProp):
    def __init__(self, scale="1"):
        super().__init__(need_top_grad=True)
        self.scale = float(scale)

    def create_operator(self, ctx, shapes, dtypes):
        return _Cube(self.scale)


def test_npi_custom_node_runs_the_custom_operator():
    # MXNet writes "Custom" for np-mode custom ops (_npi_Custom is its add_alias name), but a graph
    # naming _npi_Custom loads in MXNet, so here: the alias keeps Custom's free keyword arguments
    graph = {"nodes": [{"op": "null", "name": "x", "inputs": []},
                       {"op": "_npi_Custom", "name": "cube", "attrs": {"op_type": "nplinalg_cube", "scale": "2.5"},
                        "inputs": [[0, 0, 0]]}],
             "arg_nodes": [0], "heads": [[1, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}
    x = onp.array([[1.0, -2.0], [0.5, 3.0]], dtype=onp.float32)
    grad = weft.nd.zeros(x.shape)
    exe = weft.sym.load_json(json.dumps(graph)).bind(weft.cpu(), {"x": weft.nd.array(x)}, args_grad={"x": grad})
    out = exe.forward(is_train=True)[0]
    onp.testing.assert_allclose(out.asnumpy(), 2.5 * x ** 3, rtol=1e-6)
    exe.backward([weft.nd.ones(x.shape)])
    onp.testing.assert_allclose(grad.asnumpy(), 7.5 * x ** 2, rtol=1e-6)
