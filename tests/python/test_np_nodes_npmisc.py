"""Graphs MXNet 1.9.1 wrote in NumPy mode with the npmisc group's operator names (issue 37
point 3) load in Weft and compute what MXNet computed: _npi_share_memory, _npi_powerd and
_npi_choice are Weft operators under MXNet's names (core/op/reduce/np_share_memory.cc,
core/op/random/np_samplers.cc, core/op/random/np_choice.cc); _npi_cvimresize (and _cvimresize,
the name MXNet writes for it) is read as _image_resize (Note [NumPy-mode image nodes read as
image ops] in core/graph/np_nodes_npmisc.cc). The fixtures (mxnet_written/np_nodes_npmisc/)
were written by MXNet itself (make_with_mxnet.py beside them). None of these operators has a
gradient in MXNet 1.9.1, so forward values only. Random cases: shapes, dtypes and moments of
both samples against the distribution, never values."""
import json
import math
import os

import numpy as onp
import pytest

import weft
from weft import npx

from image_bombs import jpeg_claiming, png_claiming, truncated_jpeg, truncated_png

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_nodes_npmisc")
with open(os.path.join(HERE, "graphs.json")) as _f:
    GRAPHS = json.load(_f)
ARRAYS = {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "arrays.params")).items()}
DECLARED = ["_npi_share_memory", "_npi_powerd", "_npi_choice"]
DETERMINISTIC = sorted(n for n in GRAPHS if n.startswith(("share_memory", "cvimresize")))
DECODES = sorted({k.split("/")[0] for k in ARRAYS if k.startswith("decode_")})


def _inputs(name):
    n = len([k for k in ARRAYS if k.startswith(name + "/in")])
    return [ARRAYS["%s/in%d" % (name, i)] for i in range(n)]


def _run(name, op_name=None, seed=7):
    g = json.loads(json.dumps(GRAPHS[name]))
    if op_name is not None:
        (node,) = [n for n in g["nodes"] if n["op"] != "null"]
        node["op"] = op_name
    sym = weft.sym.load_json(json.dumps(g))
    weft.random.seed(seed)
    args = {"in%d" % i: weft.nd.array(x, dtype=x.dtype) for i, x in enumerate(_inputs(name))}
    got = sym.bind(weft.cpu(), args, grad_req="null").forward()[0].asnumpy()
    want = ARRAYS[name + "/out0"]
    assert got.shape == want.shape and got.dtype == want.dtype, (name, got.shape, got.dtype, want.shape, want.dtype)
    return got, want


def test_every_name_loads_as_an_operator():
    for name in DECLARED:
        assert weft.base.op_exists(name), name
    graph_ops = {n["op"] for g in GRAPHS.values() for n in g["nodes"]} - {"null"}
    samplers = {"_npi_gumbel", "_npi_logistic", "_npi_rayleigh", "_npi_weibull", "_npi_pareto", "_npi_bernoulli",
                "_npi_normal", "_npi_uniform", "_npi_exponential"}
    assert set(DECLARED) | samplers | {"_cvimresize", "_cvimdecode", "take"} == graph_ops
    for name in ("_npi_cvimdecode", "_npi_cvimread"):  # aliases of _cvimdecode/_cvimread, as in MXNet
        assert json.loads(weft.base.op_schema(name))["name"] == name[len("_npi"):]


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_mxnet_graph_computes_mxnet_values(name):
    got, want = _run(name)
    if name == "cvimresize":  # MXNet resizes with OpenCV's fixed-point bilinear: uint8 off by one
        onp.testing.assert_allclose(got.astype(int), want.astype(int), rtol=0, atol=1)
    elif want.dtype == onp.float32:
        onp.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    else:
        onp.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", [n for n in DETERMINISTIC if n.startswith("cvimresize")])
def test_the_npi_name_of_cvimresize_computes_the_same(name):
    # MXNet writes _cvimresize (its operator's name) but reads its alias _npi_cvimresize too
    got, _ = _run(name)
    got_alias, _ = _run(name, "_npi_cvimresize")
    onp.testing.assert_array_equal(got, got_alias)


def test_share_memory_of_one_array_is_true_and_of_two_is_false():
    assert ARRAYS["share_memory_same/out0"] and not ARRAYS["share_memory_distinct/out0"]
    assert not ARRAYS["share_memory_empty/out0"]  # either empty: False, as MXNet


def test_refused_resize_filter_names_the_attribute():
    with pytest.raises(weft.base.WeftIOError, match=r"_cvimresize: attribute 'interp' = '3' is not supported"):
        weft.sym.load_json(json.dumps(GRAPHS["refused_cvimresize_area"]))


@pytest.mark.parametrize("attrs, match", [({"h": "2"}, "attribute 'w' is required"),
                                          ({"w": "0", "h": "2"}, "attribute 'w' = '0' is not a positive integer"),
                                          ({"w": "3", "h": "(2, 2)"}, "attribute 'h' = '\\(2, 2\\)'")])
def test_cvimresize_without_a_size_is_refused(attrs, match):
    g = json.loads(json.dumps(GRAPHS["cvimresize"]))
    g["nodes"][1]["attrs"] = attrs
    with pytest.raises(weft.base.WeftIOError, match="_cvimresize: " + match):
        weft.sym.load_json(json.dumps(g))


def _power_moments(a):
    return a / (a + 1), math.sqrt(a / ((a + 1) ** 2 * (a + 2)))


@pytest.mark.parametrize("name, a", [("powerd", 2.0), ("powerd_small_a", 0.5)])
def test_powerd_draws_match_mxnets_distribution(name, a):
    got, want = _run(name)
    mean, std = _power_moments(a)
    for sample in (got.astype(onp.float64), want.astype(onp.float64)):
        assert 0 <= sample.min() and sample.max() <= 1
        assert abs(sample.mean() - mean) < 5 * std / math.sqrt(sample.size), (name, sample.mean(), mean)
        assert abs(sample.std() - std) < 0.1 * std, (name, sample.std(), std)
    assert not onp.array_equal(got, _run(name, seed=8)[0])  # the seed decides the draw


def test_one_draw_is_a_0d_array():
    for name in ("powerd_scalar", "choice_scalar"):
        got, _ = _run(name)
        assert got.shape == ()


def _frequencies(sample, n):
    return onp.bincount(sample.ravel(), minlength=n) / sample.size


@pytest.mark.parametrize("name, p", [("choice", [0.2] * 5), ("choice_weighted", [0.1, 0.0, 0.6, 0.3])])
def test_choice_draws_match_mxnets_frequencies(name, p):
    got, want = _run(name)
    p = onp.array(p)
    se = onp.sqrt(p * (1 - p) / got.size)
    for sample in (got, want):
        assert sample.min() >= 0 and sample.max() < len(p)
        f = _frequencies(sample, len(p))
        assert (abs(f - p) <= 5 * se + 1e-12).all(), (name, f, p)


def test_choice_without_replacement_draws_distinct_indices():
    got, want = _run("choice_no_replace")
    # all ten of range(10), each once (MXNet's sample is in order; a random order is NumPy's
    # and equally a draw without replacement)
    assert sorted(got) == sorted(want) == list(range(10))
    got, want = _run("choice_no_replace_part")
    for sample in (got, want):
        assert len(set(sample.ravel())) == 10 and sample.min() >= 0 and sample.max() < 1000
    got, want = _run("choice_weighted_no_replace")
    assert sorted(got) == sorted(want) == [0, 2, 3]  # the three positive weights, each once


def test_choice_without_replacement_favours_heavy_weights():
    # first of the draws by weight: P(first = j) = p[j]
    g = json.loads(json.dumps(GRAPHS["choice_weighted_no_replace"]))
    sym = weft.sym.load_json(json.dumps(g))
    p = ARRAYS["choice_weighted_no_replace/in0"]
    exe = sym.bind(weft.cpu(), {"in0": weft.nd.array(p)}, grad_req="null")
    weft.random.seed(11)
    first = onp.array([int(exe.forward()[0].asnumpy()[0]) for _ in range(400)])
    f = _frequencies(first, 4)
    se = onp.sqrt(p * (1 - p) / first.size)
    assert (abs(f - p) <= 5 * se + 1e-12).all(), f


@pytest.mark.parametrize("name, values, p", [
    ("choice_population", [10.0, 20.0, 30.0, 40.0, 50.0], [0.2] * 5),
    ("choice_population_weighted", [10.0, 20.0, 30.0, 40.0, 50.0], [0.5, 0.0, 0.0, 0.25, 0.25])])
def test_choice_of_an_array_takes_its_elements(name, values, p):
    got, want = _run(name)
    p = onp.array(p)
    se = onp.sqrt(p * (1 - p) / got.size)
    for sample in (got, want):
        idx = onp.searchsorted(values, sample)
        assert onp.array_equal(onp.array(values, "float32")[idx], sample)
        assert (abs(_frequencies(idx, len(values)) - p) <= 5 * se + 1e-12).all()


def _choice(attrs, *arrays):
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(len(arrays))]
    nodes.append({"op": "_npi_choice", "name": "node", "attrs": attrs,
                  "inputs": [[i, 0, 0] for i in range(len(arrays))]})
    sym = weft.sym.load_json(json.dumps({"nodes": nodes, "arg_nodes": list(range(len(arrays))),
                                         "heads": [[len(arrays), 0, 0]]}))
    args = {"in%d" % i: weft.nd.array(a, dtype=a.dtype) for i, a in enumerate(arrays)}
    return sym.bind(weft.cpu(), args, grad_req="null").forward()[0].asnumpy()


def test_choice_without_replacement_from_a_huge_range_is_bounded():
    # Note [Choice by sampling rule]: Floyd's algorithm, k draws (MXNet 1.9.1 allocates 2^40 keys)
    got = _choice({"a": str(2 ** 40), "size": "(4,)", "replace": "False"})
    assert got.dtype == onp.int64 and len(set(got)) == 4 and got.min() >= 0 and got.max() < 2 ** 40
    got = _choice({"a": str(2 ** 62), "size": "(3,)"})
    assert got.min() >= 0 and got.max() < 2 ** 62


@pytest.mark.parametrize("attrs, arrays, error, match", [
    ({"a": "3", "size": "(5,)", "replace": "False"}, [], weft.base.InvalidArgumentError,
     r"_npi_choice: cannot take a larger sample \(5\) than the population \(3\)"),
    ({"a": "0", "size": "(2,)"}, [], weft.base.InvalidArgumentError, "_npi_choice: 'a' must be greater than 0"),
    ({"a": "-2", "size": "(2,)"}, [], weft.base.InvalidArgumentError, "_npi_choice: parameter 'a' must be >= 0"),
    ({"a": "3", "size": "(2,)", "weighted": "True"}, [onp.array([0.5, -0.5, 1.0])], weft.base.InvalidArgumentError,
     r"_npi_choice: p\[1\] = -0.5 is not a probability"),
    ({"a": "3", "size": "(2,)", "weighted": "True"}, [onp.array([0.5, 0.5])], weft.base.ShapeError,
     "_npi_choice: input 'p' \\(the weights\\) must be 1-D of the population's length 3"),
    ({"a": "None", "size": "(2,)"}, [onp.ones((2, 2), "float32")], weft.base.ShapeError,
     "_npi_choice: input 'input1' \\(the population a\\) must be 1-D"),
    ({"a": "3", "size": "(2,)", "weighted": "True"}, [onp.ones(3, "int32")], weft.DTypeError,
     "_npi_choice: input 'p' \\(the weights\\) must be float16, float32 or float64"),
])
def test_bad_choice_is_refused_naming_the_argument(attrs, arrays, error, match):
    with pytest.raises(error, match=match):
        _choice(attrs, *arrays)


def test_bad_power_exponent_is_refused():
    g = json.loads(json.dumps(GRAPHS["powerd"]))
    g["nodes"][0]["attrs"]["a"] = "0"
    with pytest.raises(weft.base.InvalidArgumentError, match="_npi_powerd: parameter 'a' must be > 0"):
        weft.sym.load_json(json.dumps(g)).bind(weft.cpu(), {}).forward()


EULER = 0.5772156649015329


def _weibull(a):
    m = math.gamma(1 + 1 / a)
    return m, math.sqrt(math.gamma(1 + 2 / a) - m * m)


def _pareto(a):
    return 1 / (a - 1), math.sqrt(a / ((a - 1) ** 2 * (a - 2)))


# (case, [(index into the output, mean, standard deviation, std tolerance)]): each group of
# elements draws with one parameter set (Note [Sampler parameters from arrays])
ARRAY_PARAMS = [
    ("gumbel_array_loc", [(r, loc + 2 * EULER, 2 * math.pi / math.sqrt(6), 0.1) for r, loc in ((0, -5.0), (1, 5.0))]),
    ("logistic_arrays", [((r, slice(c, None, 2)), loc, s * math.pi / math.sqrt(3), 0.15)
                         for r, loc in ((0, -5.0), (1, 5.0)) for c, s in ((0, 0.5), (1, 1.5))]),
    ("rayleigh_array_scale", [((slice(None), c), s * math.sqrt(math.pi / 2), s * math.sqrt((4 - math.pi) / 2), 0.1)
                              for c, s in ((0, 1.0), (1, 3.0))]),
    ("weibull_array_a", [(r, *_weibull(a), 0.1) for r, a in ((0, 1.0), (1, 3.0))]),
    ("pareto_array_a", [(r, *_pareto(a), 0.35) for r, a in ((0, 8.0), (1, 20.0))]),
    ("powerd_array_a", [(r, *_power_moments(a), 0.1) for r, a in ((0, 0.5), (1, 4.0))]),
    ("bernoulli_array_prob", [(r, p, math.sqrt(p * (1 - p)), 0.1) for r, p in ((0, 0.2), (1, 0.9))]),
    ("normal_array_loc", [(r, loc, 2.0, 0.1) for r, loc in ((0, -5.0), (1, 5.0))]),
    ("uniform_arrays", [(r, (lo + hi) / 2, (hi - lo) / math.sqrt(12), 0.1) for r, lo, hi in ((0, 0, 1), (1, 10, 14))]),
    ("exponential_array_scale", [(r, s, s, 0.15) for r, s in ((0, 0.5), (1, 3.0))]),
]


@pytest.mark.parametrize("name, groups", ARRAY_PARAMS, ids=[c for c, _ in ARRAY_PARAMS])
def test_samplers_with_array_parameters_match_mxnets_distributions(name, groups):
    got, want = _run(name)
    for index, mean, std, std_tol in groups:
        for sample in (got[index].astype(onp.float64), want[index].astype(onp.float64)):
            assert abs(sample.mean() - mean) < 5 * std / math.sqrt(sample.size), (name, index, sample.mean(), mean)
            assert abs(sample.std() - std) < std_tol * std, (name, index, sample.std(), std)


def _sampler(op, attrs, *arrays):
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(len(arrays))]
    nodes.append({"op": op, "name": "node", "attrs": attrs, "inputs": [[i, 0, 0] for i in range(len(arrays))]})
    sym = weft.sym.load_json(json.dumps({"nodes": nodes, "arg_nodes": list(range(len(arrays))),
                                         "heads": [[len(arrays), 0, 0]]}))
    args = {"in%d" % i: weft.nd.array(a, dtype=a.dtype) for i, a in enumerate(arrays)}
    return sym.bind(weft.cpu(), args, grad_req="null").forward()[0].asnumpy()


def test_array_parameters_without_size_broadcast_together():
    got = _sampler("_npi_gumbel", {"loc": "None", "scale": "None"}, onp.zeros((3, 1), "float32"),
                   onp.ones((4,), "float64"))
    assert got.shape == (3, 4) and got.dtype == onp.float32
    got = _sampler("_npi_rayleigh", {"scale": "None"}, onp.ones((), "float32"))
    assert got.shape == ()
    # scalar parameters still draw one value without size, and a zero scale gives loc
    got = _sampler("_npi_logistic", {"loc": "None", "scale": "0"}, onp.array([1.5, -2.0], "float32"))
    onp.testing.assert_array_equal(got, [1.5, -2.0])


@pytest.mark.parametrize("op, attrs, arrays, error, match", [
    ("_npi_gumbel", {"loc": "None", "scale": "1", "size": "(3,)"}, [onp.zeros((2, 1), "float32")],
     weft.base.ShapeError, r"_npi_gumbel: input 'loc' of shape \(2, 1\) does not broadcast to size \(3,\)"),
    ("_npi_gumbel", {"loc": "None", "scale": "None"}, [onp.zeros(3, "float32"), onp.ones(2, "float32")],
     weft.base.ShapeError, "_npi_gumbel: input 'scale' of shape \\(2,\\) does not broadcast with the other"),
    ("_npi_weibull", {"a": "None"}, [onp.array([1.0, -1.0], "float32")], weft.base.InvalidArgumentError,
     "_npi_weibull: parameter 'a' must be >= 0, got -1"),
    ("_npi_pareto", {"a": "None"}, [onp.array([0.0], "float64")], weft.base.InvalidArgumentError,
     "_npi_pareto: parameter 'a' must be > 0, got 0"),
    ("_npi_bernoulli", {"is_logit": "False"}, [onp.array([1.5], "float32")], weft.base.InvalidArgumentError,
     r"_npi_bernoulli: parameter 'prob' must be in \[0, 1\], got 1.5"),
    ("_npi_normal_n", {"loc": "None", "scale": "1", "size": "(3,)"}, [onp.zeros(3, "float32")],
     weft.base.InvalidArgumentError, "_npi_normal_n: parameter 'loc' = None \\(an input array"),
    ("_npi_exponential", {"scale": "None"}, [onp.array([1.0, -0.5], "float32")], weft.base.InvalidArgumentError,
     "_npi_exponential: parameter 'scale' must be >= 0, got -0.5"),
    ("_npi_normal", {"loc": "0", "scale": "1", "dtype": "int32"}, [], weft.DTypeError,
     "_npi_normal: parameter 'dtype' must be float16, float32 or float64"),
    ("_npi_rayleigh", {"scale": "None"}, [onp.ones(2, "int32")], weft.DTypeError,
     "_npi_rayleigh: input 'scale' \\(the parameter as an array\\) must be float32 or float64"),
])
def test_bad_array_parameters_are_refused_naming_them(op, attrs, arrays, error, match):
    with pytest.raises(error, match=match):
        _sampler(op, attrs, *arrays)


def test_bernoulli_logits_as_an_array():
    logit = onp.array([[-3.0], [3.0]], "float32")
    weft.random.seed(5)
    got = _sampler("_npi_bernoulli", {"is_logit": "True", "size": "(2, 4000)"}, logit)
    p = 1 / (1 + onp.exp(-logit[:, 0]))
    assert (abs(got.mean(axis=1) - p) < 5 * onp.sqrt(p * (1 - p) / 4000)).all(), got.mean(axis=1)


@pytest.mark.parametrize("name", DECODES)
def test_decode_and_read_give_mxnets_pixels(name):
    # MXNet's imperative results (it cannot bind a graph of these: Note [Decoding ops over the
    # C++ decoders] in core/io/cv_image_ops.cc); the same options for the buffer and the file
    flag = 0 if name.endswith("_grey") else 1
    to_rgb = not name.endswith("_bgr")
    buf = ARRAYS[name + "/in0"]
    want = ARRAYS[name + "/out0"]
    path = os.path.join(HERE, "photo.jpg" if "jpeg" in name else "pattern.png")
    got = [weft.nd._npi_cvimdecode(weft.nd.array(buf, dtype="uint8"), flag=flag, to_rgb=to_rgb).asnumpy(),
           weft.nd._cvimread(filename=path, flag=flag, to_rgb=to_rgb).asnumpy()]
    for g in got:
        assert g.shape == want.shape and g.dtype == want.dtype == onp.uint8
        onp.testing.assert_array_equal(g, want)
    onp.testing.assert_array_equal(ARRAYS[name + "/read"], want)


def test_a_graph_of_decode_loads_and_binding_it_is_refused():
    # the output's size is the image's: bind refuses it, as MXNet's executor cannot run it either
    sym = weft.sym.load_json(json.dumps(GRAPHS["decode_graph"]))
    assert sym.list_arguments() == ["in0"]
    buf = weft.nd.array(ARRAYS["decode_png/in0"], dtype="uint8")
    with pytest.raises(weft.base.WeftError, match="_cvimdecode"):
        sym.bind(weft.cpu(), {"in0": buf}).forward()


@pytest.mark.parametrize("call, error, match", [
    (lambda: weft.nd._cvimdecode(weft.nd.array([1, 2, 3], dtype="uint8")), weft.base.WeftIOError,
     "_cvimdecode: not an image"),
    (lambda: weft.nd._cvimdecode(weft.nd.array(ARRAYS["decode_png/in0"][:40], dtype="uint8")),
     weft.base.WeftIOError, "_cvimdecode"),
    (lambda: weft.nd._cvimdecode(weft.nd.array([1.0, 2.0])), weft.DTypeError, "_cvimdecode: input 'buf' must be uint8"),
    (lambda: weft.nd._cvimdecode(weft.nd.array(ARRAYS["decode_png/in0"], dtype="uint8"), flag=3),
     weft.base.InvalidArgumentError, "_cvimdecode: parameter 'flag' must be 0 \\(grey\\) or 1"),
    (lambda: weft.nd._cvimread(filename="/dev/zero"), weft.base.WeftIOError,
     "_cvimread: '/dev/zero' is not a regular file"),
    (lambda: weft.nd._cvimread(filename=os.path.join(HERE, "no-such.png")), weft.base.WeftIOError,
     "_cvimread: cannot read"),
    (lambda: weft.nd._cvimread(filename=os.path.join(HERE, "graphs.json")), weft.base.WeftIOError,
     "_cvimread: not an image"),
])
def test_bad_images_are_refused_naming_the_operator(call, error, match):
    with pytest.raises(error, match=match):
        call().asnumpy()


def test_a_header_over_the_pixel_budget_is_refused_before_allocating(monkeypatch):
    monkeypatch.setenv("WEFT_MAX_IMAGE_PIXELS", "100")  # the 12 x 16 pattern has 192
    with pytest.raises(weft.base.WeftIOError, match="over the image budget"):
        weft.nd._cvimdecode(weft.nd.array(ARRAYS["decode_png/in0"], dtype="uint8")).asnumpy()


@pytest.mark.parametrize("data, match", [
    (lambda: png_claiming(1 << 20, 1 << 20), "over the image budget"),
    (lambda: jpeg_claiming(60000, 60000), "over the image budget"),
    (truncated_png, "_cvimdecode"),
    (truncated_jpeg, "_cvimdecode"),
])
def test_hostile_headers_are_refused_without_a_huge_allocation(data, match):
    # Note [Image pixel budget]: the header's size is checked before anything is allocated
    buf = weft.nd.array(onp.frombuffer(data(), onp.uint8), dtype="uint8")
    with pytest.raises(weft.base.WeftIOError, match=match):
        weft.nd._cvimdecode(buf).asnumpy()
