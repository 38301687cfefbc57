"""Graphs MXNet 1.9.1 wrote in NumPy mode with the npmath group's operator names (issue 37
point 3: comparisons, predicates, where, boolean_mask_assign_scalar, arctan2/copysign/ldexp/lcm,
around, nan_to_num, and the names MXNet registers as aliases, which it reads but never writes):
each loads in Weft and computes MXNet's values, shapes and dtypes, and, where MXNet has a
gradient, MXNet's input gradients. The fixtures (mxnet_written/np_nodes_npmath/) were written
by MXNet itself (make_with_mxnet.py beside them)."""
import json
import os

import numpy as onp
import pytest

import weft
from weft import npx
from weft.ndarray.op_call import _call

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_nodes_npmath")
with open(os.path.join(HERE, "graphs.json")) as _f:
    GRAPHS = json.load(_f)
ARRAYS = {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "arrays.params")).items()}
# Random operators: MXNet's draws cannot be reproduced, only shapes and dtypes compared.
RANDOM = {n for n in GRAPHS if n.startswith("image_random_")}
# Outputs MXNet 1.9.1 gets wrong, compared with NumPy's instead: its image.flip_left_right
# scrambles an HWC image (imperatively too: npx.image.flip_left_right(x) != x[:, ::-1] there);
# Weft's _image_flip_left_right, which the name aliases, mirrors the width axis.
NUMPY_INSTEAD = {"image_flip_left_right": lambda x: x[:, ::-1]}

# MXNet 1.9.1 names that are aliases of a Weft operator (core/opdef/np_op_names.cc), each
# checked there: MXSymbolGetAtomicSymbolInfo on the name gives the target's name.
ALIASES = {"_npi_abs": "abs", "_npi_cast": "Cast", "_npi_copyto": "_copyto", "_npi_hypot_scalar": "_hypot_scalar",
           "_npi_nonzero": "_npx_nonzero"}
ALIASES.update({"_npx__image_" + n: "_image_" + n for n in (
    "adjust_lighting crop flip_left_right flip_top_bottom normalize random_brightness random_color_jitter "
    "random_contrast random_flip_left_right random_flip_top_bottom random_hue random_lighting random_saturation "
    "resize to_tensor").split()})
# Operators declared under MXNet's names (core/op/elemwise/np_compare.cc, np_where.cc,
# np_binary_math.cc, np_unary_math.cc).
DECLARED = ["_npi_%s%s" % (op, sfx) for op in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal")
            for sfx in ("", "_scalar")]
DECLARED += ["_npi_" + n for n in ("isnan", "isinf", "isfinite", "isposinf", "isneginf", "logical_not", "where",
                                   "where_lscalar", "where_rscalar", "where_scalar2", "arctan2", "arctan2_scalar",
                                   "rarctan2_scalar", "copysign", "copysign_scalar", "rcopysign_scalar", "ldexp",
                                   "ldexp_scalar", "rldexp_scalar", "lcm", "lcm_scalar", "around", "nan_to_num",
                                   "boolean_mask_assign_scalar")]
DECLARED += ["_npx_constraint_check"]  # core/op/reduce/np_constraint_check.cc


# Cases whose node MXNet was given under an alias (it read and ran it): MXNet writes an
# operator's own name, so the test puts the alias back into MXNet's text before loading.
ALIAS_CASES = {"abs": "_npi_abs", "cast": "_npi_cast", "hypot_scalar": "_npi_hypot_scalar"}
ALIAS_CASES.update({n: "_npx__" + n for n in GRAPHS if n.startswith("image_")})


def _graph_json(name):
    g = json.loads(json.dumps(GRAPHS[name]))
    if name in ALIAS_CASES:
        ops = [node for node in g["nodes"] if node["op"] != "null"]
        assert len(ops) == 1, name
        ops[0]["op"] = ALIAS_CASES[name]
    return json.dumps(g)


def _inputs(name):
    n = len([k for k in ARRAYS if k.startswith(name + "/in")])
    return [ARRAYS["%s/in%d" % (name, i)] for i in range(n)]


def test_every_name_loads_as_an_operator():
    for name in list(ALIASES) + DECLARED:
        assert weft.base.op_exists(name), name
    for alias, target in ALIASES.items():
        assert json.loads(weft.base.op_schema(alias))["name"] == target
    graph_ops = {n["op"] for g in GRAPHS.values() for n in g["nodes"]} - {"null"}
    assert set(DECLARED) <= graph_ops, sorted(set(DECLARED) - graph_ops)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_mxnet_graph_computes_mxnet_values(name):
    text = _graph_json(name)
    if name in ALIAS_CASES:
        assert '"op": "%s"' % ALIAS_CASES[name] in text
    sym = weft.sym.load_json(text)
    xs = _inputs(name)
    grad_idx = sorted(int(k.rsplit("grad", 1)[1]) for k in ARRAYS if k.startswith(name + "/grad"))
    args = {"in%d" % i: weft.nd.array(x, dtype=x.dtype) for i, x in enumerate(xs)}
    grads = {"in%d" % i: weft.nd.zeros(xs[i].shape, dtype=xs[i].dtype) for i in grad_idx}
    req = {"in%d" % i: ("write" if i in grad_idx else "null") for i in range(len(xs))}
    exe = sym.bind(weft.cpu(), args, args_grad=grads or None, grad_req=req if grad_idx else "null")
    got = exe.forward(is_train=bool(grad_idx))[0].asnumpy()
    want = NUMPY_INSTEAD[name](*xs) if name in NUMPY_INSTEAD else ARRAYS[name + "/out0"]
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if name in RANDOM:
        assert onp.isfinite(got).all()
        return
    if name == "image_resize":  # MXNet resizes with OpenCV's fixed-point bilinear: uint8 off by one
        onp.testing.assert_allclose(got.astype(int), want.astype(int), rtol=0, atol=1)
    elif onp.issubdtype(want.dtype, onp.floating):
        tol = 2e-3 if want.dtype == onp.float16 else 1e-6
        onp.testing.assert_allclose(got, want, rtol=tol, atol=tol * 1e-1)
    else:
        onp.testing.assert_array_equal(got, want)
    if grad_idx:
        exe.backward([weft.nd.array(ARRAYS[name + "/head"])])
        for i in grad_idx:
            onp.testing.assert_allclose(grads["in%d" % i].asnumpy(), ARRAYS["%s/grad%d" % (name, i)], rtol=1e-5,
                                        atol=1e-6, err_msg="%s: gradient of in%d" % (name, i))


def test_random_image_nodes_draw_within_their_ranges():
    # what can be checked of a random draw: brightness scales every pixel by one factor in
    # [min_factor, max_factor], a random flip gives the image or its mirror
    x = ARRAYS["image_random_brightness/in0"]
    sym = weft.sym.load_json(_graph_json("image_random_brightness"))
    weft.random.seed(3)
    got = sym.bind(weft.cpu(), {"in0": weft.nd.array(x)}).forward()[0].asnumpy()
    ratio = got[x > 0] / x[x > 0]
    assert 0.5 - 1e-6 <= ratio.min() and ratio.max() <= 1.5 + 1e-6 and onp.ptp(ratio) < 1e-4
    sym = weft.sym.load_json(_graph_json("image_random_flip_left_right"))
    got = sym.bind(weft.cpu(), {"in0": weft.nd.array(x)}).forward()[0].asnumpy()
    assert onp.array_equal(got, x) or onp.array_equal(got, x[:, ::-1])


def test_copyto_and_nonzero_aliases_compute():
    # MXNet 1.9.1 binds no graph of _npi_copyto, and _npi_nonzero's output is sized from values
    # (a bound executor refuses it, as MXNet's): both checked imperatively
    x = onp.array([[0.0, 1.5], [-2.0, 0.0]], "float32")
    onp.testing.assert_array_equal(_call("_npi_copyto", [weft.nd.array(x)]).asnumpy(), x)
    nz = _call("_npi_nonzero", [weft.nd.array(x)]).asnumpy()
    onp.testing.assert_array_equal(nz, onp.argwhere(x))
    assert nz.dtype == onp.int64


def test_bool_valued_ops_pass_zero_gradients():
    # comparisons, predicates and where_scalar2 give zeros to their inputs (MXNet's
    # MakeZeroGradNodes); the C++ gradient check cannot take them (bool outputs)
    a = onp.array([1.0, -2.0, 3.0, onp.inf], "float32")
    x = weft.nd.array(a)
    x.attach_grad()
    with weft.autograd.record():
        m = [_call(op, [x, x * 0.5]) for op in ("_npi_greater", "_npi_less_equal")]
        m += [_call("_npi_equal_scalar", [x], scalar=3.0), _call("_npi_isinf", [x]), _call("_npi_logical_not", [x])]
        w = _call("_npi_where_scalar2", [x], x=1.0, y=2.0)
        loss = sum((weft.nd.Cast(k, dtype="float32") * x).sum() for k in m) + (w * x).sum()
    loss.backward()
    want = sum(k.asnumpy().astype("float32") for k in m) + w.asnumpy()
    onp.testing.assert_allclose(x.grad.asnumpy(), want)


def _bind_one(op, attrs, *arrays):
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(len(arrays))]
    nodes.append({"op": op, "name": "node", "attrs": attrs, "inputs": [[i, 0, 0] for i in range(len(arrays))]})
    sym = weft.sym.load_json(json.dumps({"nodes": nodes, "arg_nodes": list(range(len(arrays))),
                                         "heads": [[len(arrays), 0, 0]]}))
    return sym.bind(weft.cpu(), {"in%d" % i: weft.nd.array(a, dtype=a.dtype) for i, a in enumerate(arrays)})


@pytest.mark.parametrize("op, attrs, arrays, match", [
    ("_npi_equal", {}, [onp.ones(2, "int32"), onp.ones(2, "float32")], "different dtypes"),
    ("_npi_where", {}, [onp.ones(2, bool), onp.ones(2, "int32"), onp.ones(2, "float32")], "different dtypes"),
    ("_npi_arctan2", {}, [onp.ones(2, "int32"), onp.ones(2, "int32")], "takes floats"),
    ("_npi_lcm", {}, [onp.ones(2, "float32"), onp.ones(2, "float32")], "int8, uint8, int32 or int64"),
    ("_npi_lcm_scalar", {"scalar": "2.5", "is_int": "False"}, [onp.ones(2, "int32")], "is_int"),
    ("_npi_ldexp", {}, [onp.ones(2, bool), onp.ones(2, bool)], "bool"),
    ("_npi_around", {}, [onp.ones(2, "float16")], "float16"),
])
def test_bad_dtypes_are_refused_naming_the_operator(op, attrs, arrays, match):
    with pytest.raises(weft.DTypeError, match=op + ".*" + match):
        _bind_one(op, attrs, *arrays).forward()


def test_shapes_that_do_not_broadcast_are_refused():
    with pytest.raises(weft.base.ShapeError, match="_npi_where"):
        _bind_one("_npi_where", {}, onp.ones((2, 3), bool), onp.ones((4,), "float32"), onp.ones((3,), "float32"))
    with pytest.raises(weft.base.ShapeError, match="_npi_less"):
        _bind_one("_npi_less", {}, onp.ones((2, 3), "float32"), onp.ones((2,), "float32"))


def test_around_with_huge_decimals_is_bounded():
    # Note [Around as MXNet rounds]: the scaling loops stop at 0, inf or NaN
    x = onp.array([1.5, -2.25, 0.0], "float64")
    got = _bind_one("_npi_around", {"decimals": str(2 ** 62)}, x).forward()[0].asnumpy()
    onp.testing.assert_array_equal(got, [onp.inf, -onp.inf, 0.0])
    got = _bind_one("_npi_around", {"decimals": str(-2 ** 62)}, x).forward()[0].asnumpy()
    onp.testing.assert_array_equal(got, [0.0, 0.0, 0.0])


def test_constraint_check_raises_its_message():
    ok = _bind_one("_npx_constraint_check", {"msg": "scale must be positive"}, onp.ones((2, 2), bool)).forward()[0]
    assert ok.shape == () and ok.dtype == onp.bool_ and bool(ok.asnumpy())
    exe = _bind_one("_npx_constraint_check", {"msg": "scale must be positive"}, onp.array([True, False]))
    with pytest.raises(ValueError, match="scale must be positive"):
        exe.forward()[0].asnumpy()
    with pytest.raises(weft.DTypeError, match="_npx_constraint_check"):
        _bind_one("_npx_constraint_check", {}, onp.ones(2, "float32")).forward()
