"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder
(numpy < 1.24 beside it). Not run by the tests (MXNet is never a test dependency):
tests/python/test_np_nodes_npmisc.py loads each graph in Weft and compares.

For every NumPy-mode operator name of the npmisc group (issue 37 point 3) this builds a small
graph (inputs in0, in1, ...), either as a one-node graph of the op and attribute strings given
(`wiring` says which input feeds each of the node's inputs) or with MXNet's own np symbol API
(np.random.choice of an array writes _npi_choice and a take node), has MXNet read it and write
it back (graphs.json holds MXNet's text), binds it on deterministic inputs, runs forward and
saves inputs and outputs with npx.save into arrays.params, keyed "<case>/in<k>" and
"<case>/out0". Random cases (np.random's samplers with array parameters too) draw under
mx.random.seed(7): the test compares shapes, dtypes and moments with MXNet's sample, never
values. None of these operators has a gradient in
MXNet 1.9.1 (its backward through _npi_share_memory fails as non-differentiable)."""
import json

import numpy as onp

CASES = []  # (case, builder, inputs)


def node(op, attrs, wiring):
    """A one-node graph of op over inputs in0..; wiring[j] is the input feeding the node's input j."""
    attrs = {k: str(v) for k, v in attrs.items()}

    def build(mx, n_inputs):
        nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(n_inputs)]
        nodes.append({"op": op, "name": "node", "attrs": attrs, "inputs": [[i, 0, 0] for i in wiring]})
        return mx.sym.load_json(json.dumps({"nodes": nodes, "arg_nodes": list(range(n_inputs)),
                                            "heads": [[n_inputs, 0, 0]],
                                            "attrs": {"mxnet_version": ["int", 10901], "is_np_shape": ["int", 1]}}))
    return build


def case(name, build, inputs):
    CASES.append((name, build, [onp.asarray(x) for x in inputs]))


def cases():
    m = (onp.arange(6, dtype="float32").reshape(2, 3) - 2.5) / 2
    case("share_memory_same", node("_npi_share_memory", {}, [0, 0]), [m])
    case("share_memory_distinct", node("_npi_share_memory", {}, [0, 1]), [m, m.copy()])
    case("share_memory_mixed_dtypes", node("_npi_share_memory", {}, [0, 1]), [m, onp.arange(4, dtype="int64")])
    case("share_memory_empty", node("_npi_share_memory", {}, [0, 0]), [onp.zeros((0, 3), "float32")])
    case("powerd", node("_npi_powerd", {"a": 2.0, "size": (1000,)}, []), [])
    case("powerd_small_a", node("_npi_powerd", {"a": 0.5, "size": (20, 50)}, []), [])
    case("powerd_scalar", node("_npi_powerd", {"a": 3.0, "size": "None"}, []), [])
    rnd = lambda f: lambda mx, _n: f(mx.sym.np.random, lambda k: mx.sym.var(k).as_np_ndarray())  # noqa: E731
    case("choice", rnd(lambda R, v: R.choice(5, size=(1000,))), [])
    case("choice_scalar", rnd(lambda R, v: R.choice(7)), [])
    case("choice_no_replace", rnd(lambda R, v: R.choice(10, size=(10,), replace=False)), [])
    case("choice_no_replace_part", rnd(lambda R, v: R.choice(1000, size=(2, 5), replace=False)), [])
    p = onp.array([0.1, 0.0, 0.6, 0.3], "float32")
    case("choice_weighted", rnd(lambda R, v: R.choice(4, size=(1000,), p=v("in0"))), [p])
    case("choice_weighted_no_replace", rnd(lambda R, v: R.choice(4, size=(3,), replace=False, p=v("in0"))), [p])
    x = onp.array([10.0, 20.0, 30.0, 40.0, 50.0], "float32")
    case("choice_population", rnd(lambda R, v: R.choice(v("in0"), size=(1000,))), [x])
    case("choice_population_weighted", rnd(lambda R, v: R.choice(v("in0"), size=(1000,), p=v("in1"))),
         [x, onp.array([0.5, 0.0, 0.0, 0.25, 0.25], "float64")])
    # np.random's samplers with array parameters (Note [Sampler parameters from arrays])
    loc = onp.array([[-5.0], [5.0]], "float32")
    case("gumbel_array_loc", rnd(lambda R, v: R.gumbel(v("in0"), 2.0, size=(2, 1000))), [loc])
    case("logistic_arrays", rnd(lambda R, v: R.logistic(v("in0"), v("in1"))),
         [onp.repeat(loc, 1000, axis=1), onp.array([0.5, 1.5] * 500, "float32")])
    case("rayleigh_array_scale", rnd(lambda R, v: R.rayleigh(v("in0"), size=(1000, 2))),
         [onp.array([1.0, 3.0], "float32")])
    case("weibull_array_a", rnd(lambda R, v: R.weibull(v("in0"), size=(2, 1000))),
         [onp.array([[1.0], [3.0]], "float32")])
    case("pareto_array_a", rnd(lambda R, v: R.pareto(v("in0"), size=(2, 1000))),
         [onp.array([[8.0], [20.0]], "float32")])
    case("powerd_array_a", node("_npi_powerd", {"a": "None", "size": (2, 1000)}, [0]),
         [onp.array([[0.5], [4.0]], "float32")])
    case("bernoulli_array_prob", lambda mx, _n: mx.sym.npx.random.bernoulli(
        prob=mx.sym.var("in0").as_np_ndarray(), size=(2, 1000)), [onp.array([[0.2], [0.9]], "float32")])
    case("normal_array_loc", rnd(lambda R, v: R.normal(v("in0"), 2.0, size=(2, 1000))), [loc])
    case("uniform_arrays", rnd(lambda R, v: R.uniform(v("in0"), v("in1"), size=(2, 1000))),
         [onp.array([[0.0], [10.0]], "float32"), onp.array([[1.0], [14.0]], "float32")])
    case("exponential_array_scale", rnd(lambda R, v: R.exponential(v("in0"), size=(2, 1000))),
         [onp.array([[0.5], [3.0]], "float32")])
    img = (onp.arange(5 * 7 * 3) * 37 % 256).astype("uint8").reshape(5, 7, 3)
    case("cvimresize", node("_npi_cvimresize", {"w": 4, "h": 3}, [0]), [img])
    case("cvimresize_nearest", node("_npi_cvimresize", {"w": 9, "h": 6, "interp": 0}, [0]), [img])
    case("cvimresize_float", node("_npi_cvimresize", {"w": 3, "h": 8, "interp": 1}, [0]), [img.astype("float32")])
    case("refused_cvimresize_area", node("_npi_cvimresize", {"w": 3, "h": 2, "interp": 3}, [0]), [img])


# (case, file, attrs) decoded by MXNet's _npi_cvimdecode / _npi_cvimread imperatively: MXNet
# 1.9.1 registers them without a kernel its executor can run (binding a graph of one crashes
# it), so their graphs (decode_graph) are written but only the imperative results recorded.
# pattern.png and photo.jpg were encoded by OpenCV (tests/python/image_data.py: rgb_image(12,
# 16, 3), PNG and JPEG of quality 90).
DECODES = [("decode_png", "pattern.png", {}), ("decode_png_grey", "pattern.png", {"flag": 0}),
           ("decode_png_bgr", "pattern.png", {"to_rgb": 0}), ("decode_jpeg", "photo.jpg", {}),
           ("decode_jpeg_grey", "photo.jpg", {"flag": 0})]


def decodes(mx, np, graphs, arrays):
    npi = mx.nd.numpy._internal
    for name, path, attrs in DECODES:
        with open(path, "rb") as f:
            buf = np.array(onp.frombuffer(f.read(), dtype="uint8"), dtype="uint8")
        arrays[name + "/in0"] = buf
        arrays[name + "/out0"] = npi.cvimdecode(buf, **attrs)
        arrays[name + "/read"] = npi.cvimread(filename=path, **attrs)
        assert (arrays[name + "/read"].asnumpy() == arrays[name + "/out0"].asnumpy()).all()
        print(name, arrays[name + "/out0"].shape)
    graphs["decode_graph"] = json.loads(node("_npi_cvimdecode", {"flag": 1, "to_rgb": 1}, [0])(mx, 1).tojson())


def main():
    import mxnet as mx  # pylint: disable=import-outside-toplevel
    from mxnet import np, npx  # pylint: disable=import-outside-toplevel
    npx.set_np()
    cases()
    graphs, arrays = {}, {}
    for name, build, inputs in CASES:
        sym = build(mx, len(inputs))
        graphs[name] = json.loads(sym.tojson())
        if name.startswith("refused_"):
            continue
        mx.random.seed(7)
        args = {"in%d" % i: np.array(x, dtype=x.dtype) for i, x in enumerate(inputs)}
        out = sym.bind(mx.cpu(), args, grad_req="null").forward()[0]
        for i in range(len(inputs)):
            arrays["%s/in%d" % (name, i)] = args["in%d" % i]
        arrays["%s/out0" % name] = out.as_np_ndarray() if hasattr(out, "as_np_ndarray") else out
        print(name, [n["op"] for n in graphs[name]["nodes"] if n["op"] != "null"], out.shape, out.dtype)
    decodes(mx, np, graphs, arrays)
    with open("graphs.json", "w") as f:
        json.dump(graphs, f, indent=None, sort_keys=True)
    npx.save("arrays.params", arrays)


if __name__ == "__main__":
    main()
