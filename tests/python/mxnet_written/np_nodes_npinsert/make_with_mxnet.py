"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder:
for each case below, a one-node graph MXNet builds (its own attribute strings) naming one of
the NumPy-mode operators of issue 37's "npinsert" group (np.insert's three forms, np.delete,
np.average, np.ediff1d, np.percentile, boolean-mask assignment of an array), saved as
<case>-symbol.json, and one V3 parameter file, arrays.params (npx.save, a dict), holding per
case its inputs ("<case>:in:<name>"), MXNet's forward outputs ("<case>:out:<k>") and, where
MXNet has a gradient, the head gradients ("<case>:head:<k>") and MXNet's input gradients
("<case>:grad:<name>") after one backward.

Not run by the tests (MXNet is never a test dependency): tests/python/test_np_nodes_npinsert.py
reads these files."""
import json

import numpy as onp


def _f32(shape, lo=-2.0, hi=2.0, seed=0):
    return onp.random.RandomState(seed).uniform(lo, hi, size=shape).astype("float32")


def _f64(shape, seed=0):
    return onp.random.RandomState(seed).uniform(-3, 3, size=shape).astype("float64")


def _i64(values):
    return onp.array(values, "int64")


def cases(mx, np, npx):
    """(case, build(vars) -> symbol, inputs {name: array}, rename (op_from, op_to) or None)."""
    S = mx.sym.np
    a34 = _f32((3, 4))
    return [
        # ---- np.average (core/op/reduce/np_average.cc) ----
        ("npi_average_flat", lambda v: S.average(v["a"]), {"a": a34}, None),
        ("npi_average_axis", lambda v: S.average(v["a"], axis=1), {"a": _f64((2, 3, 4))}, None),
        ("npi_average_weights", lambda v: S.average(v["a"], axis=(0, 2), weights=v["w"]),
         {"a": _f32((2, 3, 4)), "w": _f32((2, 3, 4), 0.5, 2.0, seed=1)}, None),
        ("npi_average_weights_1d", lambda v: S.average(v["a"], axis=0, weights=v["w"], returned=True),
         {"a": a34, "w": _f32((3,), 0.5, 2.0, seed=2)}, None),
        ("npi_average_returned", lambda v: S.average(v["a"], axis=1, weights=v["w"], returned=True),
         {"a": _f64((3, 4)), "w": _f64((3, 4), seed=3) ** 2}, None),
        ("npi_average_returned_count", lambda v: S.average(v["a"], axis=(0, 1), returned=True), {"a": a34}, None),
        ("npi_average_int", lambda v: S.average(v["a"], axis=1, weights=v["w"], returned=True),
         {"a": onp.array([[1, 2, 3], [4, 5, 7]], "int32"), "w": onp.array([1, 2, 3], "int32")}, None),
        # ---- np.ediff1d (core/op/reduce/np_ediff1d.cc) ----
        ("npi_ediff1d", lambda v: S.ediff1d(v["a"]), {"a": a34}, None),
        ("npi_ediff1d_scalars", lambda v: S.ediff1d(v["a"], to_begin=-1.5, to_end=2.0), {"a": _f64((5,))}, None),
        ("npi_ediff1d_arrays", lambda v: S.ediff1d(v["a"], to_begin=v["b"], to_end=v["e"]),
         {"a": _f32((2, 3)), "b": _f32((2,), seed=1), "e": _f32((1, 3), seed=2)}, None),
        ("npi_ediff1d_end_array", lambda v: S.ediff1d(v["a"], to_begin=3.0, to_end=v["e"]),
         {"a": _f32((4,)), "e": _f32((2,), seed=3)}, None),
        ("npi_ediff1d_int", lambda v: S.ediff1d(v["a"], to_end=7), {"a": onp.array([1, 4, 9, 16], "int32")}, None),
        # ---- np.percentile (core/op/reduce/np_percentile.cc) ----
        ("npi_percentile", lambda v: S.percentile(v["a"], 50), {"a": _f32((3, 5))}, None),
        ("npi_percentile_q_array", lambda v: S.percentile(v["a"], v["q"], axis=1),
         {"a": _f32((3, 5)), "q": onp.array([10.0, 90.0], "float32")}, None),
        ("npi_percentile_lower", lambda v: S.percentile(v["a"], 30, axis=(0, 2), interpolation="lower",
                                                        keepdims=True), {"a": _f64((3, 5, 2))}, None),
        ("npi_percentile_nearest", lambda v: S.percentile(v["a"], v["q"], interpolation="nearest"),
         {"a": onp.arange(15, dtype="float32"), "q": onp.array([25.0, 75.0], "float64")}, None),
        ("npi_percentile_midpoint", lambda v: S.percentile(v["a"], 33, axis=0, interpolation="midpoint"),
         {"a": _f32((4, 3))}, None),
        ("npi_percentile_higher_int", lambda v: S.percentile(v["a"], 40, interpolation="higher"),
         {"a": onp.array([[1, 5, 2, 8]], "int32")}, None),
        ("npi_percentile_int", lambda v: S.percentile(v["a"], 40), {"a": onp.array([[1, 5, 2, 8]], "int32")}, None),
        # ---- np.insert (core/op/index/np_insert.cc) ----
        ("npi_insert_scalar", lambda v: S.insert(v["a"], 1, v["v"], axis=1), {"a": a34, "v": _f32((3,), seed=1)},
         None),
        ("npi_insert_scalar_moved", lambda v: S.insert(v["a"], -1, v["v"], axis=1),
         {"a": a34, "v": _f32((2, 3), seed=2)}, None),
        ("npi_insert_scalar_rows", lambda v: S.insert(v["a"], 3, v["v"], axis=0), {"a": a34, "v": _f32((2, 4), seed=3)},
         None),
        ("npi_insert_scalar_val", lambda v: S.insert(v["a"], 2, 7.5), {"a": _f64((5,))}, None),
        ("npi_insert_scalar_int", lambda v: S.insert(v["a"], 1, v["v"], axis=0),
         {"a": onp.arange(12, dtype="int32").reshape(3, 4), "v": onp.array([7.6], "float32")}, None),
        ("npi_insert_slice", lambda v: S.insert(v["a"], slice(0, 3), v["v"], axis=1),
         {"a": a34, "v": _f32((3,), seed=4)}, None),
        ("npi_insert_slice_step", lambda v: S.insert(v["a"], slice(None, None, 2), v["v"], axis=1),
         {"a": a34, "v": _f32((3, 1), seed=5)}, None),
        ("npi_insert_slice_flat", lambda v: S.insert(v["a"], slice(1, None, 2), v["v"]),
         {"a": _f64((2, 3)), "v": _f64((3,), seed=6)}, None),
        ("npi_insert_tensor", lambda v: S.insert(v["a"], v["o"], v["v"], axis=1),
         {"a": a34, "v": _f32((3,), seed=7), "o": _i64([3, 1, 1])}, None),
        ("npi_insert_tensor_one", lambda v: S.insert(v["a"], v["o"], v["v"], axis=1),
         {"a": a34, "v": _f32((3, 2), seed=8), "o": _i64([1])}, None),
        ("npi_insert_tensor_flat", lambda v: S.insert(v["a"], v["o"], v["v"]),
         {"a": _f32((2, 3)), "v": _f32((2,), seed=9), "o": _i64([-1, 0])}, None),
        # ---- np.delete (core/op/index/np_delete.cc; an obj array: see the test) ----
        ("npi_delete", lambda v: S.delete(v["a"], 1, axis=0), {"a": a34}, None),
        ("npi_delete_negative", lambda v: S.delete(v["a"], -4, axis=1), {"a": a34}, None),
        ("npi_delete_slice", lambda v: S.delete(v["a"], slice(0, None, 2), axis=1), {"a": _f64((3, 4))}, None),
        ("npi_delete_slice_flat", lambda v: S.delete(v["a"], slice(-1, None)),
         {"a": onp.arange(6, dtype="int32").reshape(2, 3)}, None),
        ("npi_delete_array", lambda v: S.delete(v["a"], v["o"], axis=1),
         {"a": a34, "o": _i64([0, 2, 2, -1, 9])}, None),
        ("npi_delete_array_flat", lambda v: S.delete(v["a"], v["o"]),
         {"a": _f32((2, 3)), "o": _i64([[1, 5], [-6, 1]])}, None),
        # ---- data[mask] = array (core/op/index/np_mask_assign_tensor.cc) ----
        ("npi_boolean_mask_assign_tensor",
         lambda v: S._internal.boolean_mask_assign_tensor(v["d"], v["m"], v["v"], start_axis=0),
         {"d": _f32((2, 3, 4)), "m": onp.array([[True, False, True], [False, False, True]]),
          "v": _f32((4,), seed=1)}, None),
        ("npi_boolean_mask_assign_tensor_rows",
         lambda v: S._internal.boolean_mask_assign_tensor(v["d"], v["m"], v["v"], start_axis=0),
         {"d": _f64((4, 3)), "m": onp.array([False, True, True, False]), "v": _f64((2, 3), seed=2)}, None),
        ("npi_boolean_mask_assign_tensor_axis1",
         lambda v: S._internal.boolean_mask_assign_tensor(v["d"], v["m"], v["v"], start_axis=1),
         {"d": _f32((2, 4, 3)), "m": onp.array([True, False, True, True]), "v": _f32((2, 3, 3), seed=3)}, None),
    ]


# np.delete's output shape depends on obj, and MXNet's bound executor sizes it before running:
# it gives a (0,) output for every delete graph. MXNet's imperative np.delete sizes it after, so
# these cases store what that computes on the same inputs (the graph is still MXNet's own).
# MXNet runs boolean_mask_assign_tensor only in place (its kernel refuses another output), so a
# bound graph cannot run it there: its cases store MXNet's in-place `a[mask] = value`.
IMPERATIVE = {
    "npi_delete": lambda np, a: np.delete(a["a"], 1, axis=0),
    "npi_delete_negative": lambda np, a: np.delete(a["a"], -4, axis=1),
    "npi_delete_slice": lambda np, a: np.delete(a["a"], slice(0, None, 2), axis=1),
    "npi_delete_slice_flat": lambda np, a: np.delete(a["a"], slice(-1, None)),
    "npi_delete_array": lambda np, a: np.delete(a["a"], a["o"], axis=1),
    "npi_delete_array_flat": lambda np, a: np.delete(a["a"], a["o"]),
    "npi_boolean_mask_assign_tensor": lambda np, a: _assigned(a, 0),
    "npi_boolean_mask_assign_tensor_rows": lambda np, a: _assigned(a, 0),
    "npi_boolean_mask_assign_tensor_axis1": lambda np, a: _assigned(a, 1),
}


def _assigned(a, start_axis):
    """MXNet's in-place data[mask] = value (the frontend's call, out=data)."""
    import mxnet as mx
    d = a["d"].copy()
    mx.nd.np._internal.boolean_mask_assign_tensor(d, a["m"], a["v"], start_axis=start_axis, out=d)
    return d


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
    if case in IMPERATIVE:  # no gradient to compare: MXNet's is zeros or absent for these
        floats = []
        outs = [IMPERATIVE[case](np, args)]
    else:
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
        if not has_grad:
            raise mx.base.MXNetError("forward only")
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
