"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder:
for each case below, a one-node graph MXNet builds (its own attribute strings) naming one of
the NumPy-mode operators of issue 37's "npshape" group, saved as <case>-symbol.json, and one
V3 parameter file, arrays.params (npx.save, a dict), holding per case its inputs
("<case>:in:<name>"), MXNet's forward outputs ("<case>:out:<k>") and, where MXNet has a
gradient, the head gradients ("<case>:head:<k>") and MXNet's input gradients
("<case>:grad:<name>") after one backward.

MXNet writes an alias's canonical name (np.amax's node is `_np_max`), so for the alias names
the case renames the node to the alias (`rename`) and MXNet loads that JSON back and computes
the values saved: MXNet itself accepts the name. Not run by the tests (MXNet is never a test
dependency): tests/python/test_np_nodes_npshape.py reads these files."""
import json

import numpy as onp


def _f32(shape, lo=-2.0, hi=2.0, seed=0):
    return onp.random.RandomState(seed).uniform(lo, hi, size=shape).astype("float32")


def _f64(shape, seed=0):
    return onp.random.RandomState(seed).uniform(-3, 3, size=shape).astype("float64")


def cases(mx, np, npx):
    """(case, build(vars) -> symbol, inputs {name: array}, rename (op_from, op_to) or None)."""
    S = mx.sym.np
    a234 = _f32((2, 3, 4))
    return [
        # ---- translations (read as the legacy op that computes them) ----
        ("np_amax", lambda v: S.max(v["a"], axis=1), {"a": a234}, ("_np_max", "_np_amax")),
        ("np_amin", lambda v: S.min(v["a"], axis=(0, 2), keepdims=True), {"a": a234}, ("_np_min", "_np_amin")),
        ("np_product", lambda v: S.prod(v["a"], axis=0), {"a": _f32((3, 4), 0.5, 1.5)}, ("_np_prod", "_np_product")),
        ("npi_reshape", lambda v: mx.sym.npx.reshape(v["a"], (-2, -1)), {"a": a234}, ("_npx_reshape", "_npi_reshape")),
        ("np_diagonal", lambda v: S.diagonal(v["a"], offset=1, axis1=0, axis2=2), {"a": _f32((3, 2, 4))}, None),
        ("np_diagonal_neg", lambda v: S.diagonal(v["a"], offset=-1), {"a": _f64((4, 3))}, None),
        # ---- aliases (MXNet registers the name on the legacy op) ----
        ("np_repeat", lambda v: S.repeat(v["a"], 2, axis=1), {"a": a234}, ("repeat", "_np_repeat")),
        ("npi_argsort", lambda v: S.argsort(v["a"], axis=1), {"a": a234}, ("argsort", "_npi_argsort")),
        ("npi_gather_nd", lambda v: mx.sym.npx.gather_nd(v["a"], v["i"]),
         {"a": a234, "i": onp.array([[1, 0, 1], [2, 0, 1]], "int64")}, ("gather_nd", "_npi_gather_nd")),
        ("npi_slice", lambda v: v["a"][1:3, ::2], {"a": _f32((4, 5))}, ("slice", "_npi_slice")),
        ("npi_sort", lambda v: S.sort(v["a"], axis=0), {"a": a234}, ("sort", "_npi_sort")),
        ("npi_take", lambda v: S.take(v["a"], v["i"], axis=1, mode="clip"),
         {"a": a234, "i": onp.array([[0, 2], [5, -1]], "int64")}, ("take", "_npi_take")),
        ("npi_take_wrap", lambda v: S.take(v["a"], v["i"], axis=0, mode="wrap"),
         {"a": _f32((3, 2)), "i": onp.array([4, -1, 0], "int32")}, ("take", "_npi_take")),
        ("npi_slice_assign",
         lambda v: mx.sym._internal._slice_assign(v["a"].as_nd_ndarray(), v["b"].as_nd_ndarray(),
                                                  begin=(1, 0), end=(3, 4), step=(1, 2)).as_np_ndarray(),
         {"a": _f32((4, 4)), "b": _f32((2, 2), seed=1)}, ("_slice_assign", "_npi_slice_assign")),
        ("npi_slice_assign_scalar",
         lambda v: mx.sym._internal._slice_assign_scalar(v["a"].as_nd_ndarray(), scalar=2.5, begin=(None, 1),
                                                         end=(None, 3)).as_np_ndarray(),
         {"a": _f32((3, 4))}, ("_slice_assign_scalar", "_npi_slice_assign_scalar")),
        ("npi_rnn_param_concat",
         lambda v: mx.sym._internal._rnn_param_concat(v["a"].as_nd_ndarray(), v["b"].as_nd_ndarray(), num_args=2,
                                                      dim=0).as_np_ndarray(),
         {"a": _f32((6,)), "b": _f32((4,), seed=3)}, ("_rnn_param_concat", "_npi_rnn_param_concat")),
        ("npi_histogram",
         lambda v: mx.sym._internal._histogram(v["a"].as_nd_ndarray(), bin_cnt=4, range=(0.0, 1.0)),
         {"a": _f32((10,), 0.0, 1.0)}, ("_histogram", "_npi_histogram")),
        ("npi_hsplit", lambda v: S.hsplit(v["a"], 2), {"a": _f32((3, 4))}, None),
        ("npi_hsplit_indices", lambda v: S.hsplit(v["a"], [1, 3]), {"a": a234}, None),
        ("npi_dsplit", lambda v: S.dsplit(v["a"], 2), {"a": a234}, None),
        # ---- new operators (core/op/reduce/np_reduce.cc) ----
        ("npi_argmax", lambda v: S.argmax(v["a"], axis=1), {"a": a234}, None),
        ("npi_argmax_flat", lambda v: S.argmax(v["a"]), {"a": a234}, None),
        ("npi_argmin_int", lambda v: S.argmin(v["a"], axis=0),
         {"a": onp.array([[3, 1, 4], [1, 5, 9], [2, 6, 1]], "int32")}, None),
        ("np_all", lambda v: S.all(v["a"], axis=0), {"a": onp.array([[1, 0, 2], [3, 4, 0]], "float32")}, None),
        ("np_all_flat", lambda v: S.all(v["a"]), {"a": onp.array([[1, 2], [3, 4]], "int32")}, None),
        ("np_any", lambda v: S.any(v["a"], axis=1), {"a": onp.array([[0, 0, 0], [0, 4, 0]], "float32")}, None),
        ("np_sometrue", lambda v: S.any(v["a"]), {"a": onp.array([[0, 0], [0, 0]], "float32")},
         ("_np_any", "_np_sometrue")),
        ("npi_std", lambda v: S.std(v["a"], axis=1, ddof=1), {"a": a234}, None),
        ("npi_std_flat", lambda v: S.std(v["a"]), {"a": _f64((3, 4))}, None),
        ("npi_std_int", lambda v: S.std(v["a"], axis=0),
         {"a": onp.array([[1, 5, 3], [4, 2, 6]], "int32")}, None),
        ("npi_var", lambda v: S.var(v["a"], axis=(0, 2), keepdims=True), {"a": a234}, None),
        ("npi_var_dtype", lambda v: S.var(v["a"], axis=0, dtype="float64"), {"a": _f32((4, 3))}, None),
        ("npi_broadcast_to", lambda v: S.broadcast_to(v["a"], (2, 3, 4)), {"a": _f32((3, 1))}, None),
        ("np_diagflat", lambda v: S.diagflat(v["a"], k=-1), {"a": _f32((2, 2))}, None),
        ("npi_rot90", lambda v: S.rot90(v["a"], 3, axes=(1, 2)), {"a": a234}, None),
        ("npi_rot90_k1", lambda v: S.rot90(v["a"]), {"a": _f64((2, 3))}, None),
        ("np_atleast_1d", lambda v: S.atleast_1d(v["a"], v["b"]), {"a": onp.array(1.5, "float32"), "b": _f32((3,))},
         None),
        ("np_atleast_2d", lambda v: S.atleast_2d(v["a"], v["b"]), {"a": _f32((3,)), "b": _f32((2, 2), seed=8)}, None),
        ("np_atleast_3d", lambda v: S.atleast_3d(v["a"], v["b"]), {"a": _f32((2, 3)), "b": _f32((4,), seed=9)}, None),
        # np.diag_indices_from splits the node's (ndim, n) output into a tuple; the node itself:
        ("npi_diag_indices_from", lambda v: mx.sym.np._internal.diag_indices_from(v["a"]), {"a": _f32((3, 3, 3))},
         None),
        # ---- new operators (core/op/shape/np_stack.cc) ----
        ("npi_hstack", lambda v: S.hstack([v["a"], v["b"]]), {"a": _f32((2, 3)), "b": _f32((2, 1), seed=4)}, None),
        ("npi_hstack_1d", lambda v: S.hstack([v["a"], v["b"]]), {"a": _f32((3,)), "b": _f32((2,), seed=4)}, None),
        ("npi_column_stack", lambda v: S.column_stack([v["a"], v["b"]]),
         {"a": _f32((3,)), "b": _f32((3, 3), seed=5)}, None),
        ("npi_dstack", lambda v: S.dstack([v["a"], v["b"]]), {"a": a234, "b": _f32((2, 3, 1), seed=6)}, None),
        ("npi_dstack_2d", lambda v: S.dstack([v["a"], v["b"]]),
         {"a": _f32((2, 3)), "b": _f64((2, 3)).astype("float32")}, None),
        ("npi_vstack", lambda v: S.vstack([v["a"], v["b"]]), {"a": _f32((4,)), "b": _f32((2, 4), seed=7)}, None),
        # ---- new operators (core/op/shape/np_layout.cc) ----
        ("np_moveaxis", lambda v: S.moveaxis(v["a"], [0, 1], [2, 0]), {"a": _f32((2, 3, 4, 2))}, None),
        ("np_roll", lambda v: S.roll(v["a"], (1, 2), axis=(0, 1)), {"a": a234}, None),
        ("np_roll_flat", lambda v: S.roll(v["a"], -3), {"a": _f64((3, 4))}, None),
        ("npi_tril", lambda v: S.tril(v["a"], k=-1), {"a": _f32((2, 4, 3))}, None),
        ("npi_tril_1d", lambda v: S.tril(v["a"], k=1), {"a": _f32((4,))}, None),
    ]


def _run(mx, np, npx, case, build, inputs, rename, store):
    vs = {k: mx.sym.var(k).as_np_ndarray() for k in inputs}
    sym = build(vs)
    if isinstance(sym, list):  # the splits: every output a head
        sym = mx.sym.Group([s.as_nd_ndarray() for s in sym])
    text = sym.tojson()
    if rename:
        graph = json.loads(text)
        ops = [n for n in graph["nodes"] if n["op"] == rename[0]]
        assert len(ops) == 1, (case, [n["op"] for n in graph["nodes"]])
        ops[0]["op"] = rename[1]
        text = json.dumps(graph, indent=2)
    ops = [n["op"] for n in json.loads(text)["nodes"] if n["op"] != "null"]
    sym = mx.sym.load_json(text)  # MXNet loads the name it is saved under
    args = {k: np.array(a, dtype=a.dtype) for k, a in inputs.items()}
    floats = [k for k, a in inputs.items() if a.dtype.kind == "f"]
    grads = {k: np.zeros(a.shape, dtype=a.dtype) for k, a in inputs.items() if k in floats}
    req = {k: ("write" if k in floats else "null") for k in inputs}
    try:
        exe = sym.bind(mx.cpu(), args=args, args_grad=grads, grad_req=req)
    except mx.base.MXNetError as e:  # no FGradient in MXNet: forward only
        print("  no gradient:", str(e).strip().splitlines()[-1][:120])
        floats = []
        exe = sym.bind(mx.cpu(), args=args)
    outs = [o.as_np_ndarray() for o in exe.forward(is_train=True)]
    for k, o in enumerate(outs):
        store["%s:out:%d" % (case, k)] = o
    for k, a in args.items():
        store["%s:in:%s" % (case, k)] = a
    has_grad = bool(floats)
    try:
        heads = [np.array((onp.arange(o.size).reshape(o.shape) % 5 + 1).astype(o.dtype) / 4) for o in outs]
        exe.backward(heads)
        for k, o in enumerate(heads):
            store["%s:head:%d" % (case, k)] = o
        for k in floats:
            store["%s:grad:%s" % (case, k)] = exe.grad_dict[k].as_np_ndarray()
    except mx.base.MXNetError as e:
        has_grad = False
        print("  no backward:", str(e).splitlines()[0][:120])
    with open("%s-symbol.json" % case, "w") as f:
        f.write(text)
    print(case, ops, [(o.shape, str(o.dtype)) for o in outs], "grad" if has_grad else "")


if __name__ == "__main__":
    import mxnet as mx
    from mxnet import np, npx
    npx.set_np()
    store = {}
    for case, build, inputs, rename in cases(mx, np, npx):
        _run(mx, np, npx, case, build, inputs, rename, store)
    npx.save("arrays.params", store)
