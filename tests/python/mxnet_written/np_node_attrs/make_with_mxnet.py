"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder:
for each case below, a one-node graph MXNet builds (its own attribute strings) naming a
NumPy-mode operator with an attribute value the reader once refused (issue 37's attribute
values: a reduction over no axis or with a dtype, concatenate with axis=None, npx.reshape's
codes, np.linalg.norm's flags), saved as <case>-symbol.json, and one V3 parameter file,
arrays.params (npx.save, a dict), holding per case its inputs ("<case>:in:<name>") and MXNet's
forward outputs ("<case>:out:<k>"). Not run by the tests (MXNet is never a test dependency):
tests/python/test_np_node_attrs.py reads these files."""
import numpy as onp


def _f32(shape, lo=-2.0, hi=2.0, seed=0):
    return onp.random.RandomState(seed).uniform(lo, hi, size=shape).astype("float32")


def _i32(shape, seed=0):
    return onp.random.RandomState(seed).randint(-5, 6, size=shape).astype("int32")


def _bool(shape, seed=0):
    return onp.random.RandomState(seed).uniform(size=shape) < 0.5


def cases(mx):
    """(case, build(vars) -> symbol, inputs {name: array})."""
    S = mx.sym.np
    X = mx.sym.npx
    a = _f32((2, 3, 4))
    return [
        # ---- a reduction over no axis: x's values, in dtype where given ----
        ("np_sum_noaxis", lambda v: S.sum(v["a"], axis=()), {"a": a}),
        ("np_sum_noaxis_dtype", lambda v: S.sum(v["a"], axis=(), dtype="float64"), {"a": _i32((3, 4))}),
        ("npi_mean_noaxis_dtype", lambda v: S.mean(v["a"], axis=(), dtype="float64", keepdims=True), {"a": a}),
        ("np_max_noaxis", lambda v: S.max(v["a"], axis=()), {"a": _i32((2, 5))}),
        ("np_min_noaxis_keepdims", lambda v: S.min(v["a"], axis=(), keepdims=True), {"a": a}),
        ("np_prod_noaxis_dtype", lambda v: S.prod(v["a"], axis=(), dtype="int64"), {"a": _i32((4,))}),
        # ---- a reduction over some axes with a dtype: the input cast to dtype, reduced ----
        ("np_sum_dtype_int64", lambda v: S.sum(v["a"], axis=1, dtype="int64"),
         {"a": onp.full((2, 40), 100, "int8")}),
        ("np_sum_dtype_f64", lambda v: S.sum(v["a"], axis=(0, 2), dtype="float64", keepdims=True), {"a": a}),
        ("npi_mean_dtype_f64", lambda v: S.mean(v["a"], axis=0, dtype="float64"), {"a": _i32((3, 5))}),
        ("npi_mean_dtype_f32", lambda v: S.mean(v["a"], axis=-1, dtype="float32"), {"a": _i32((4, 3))}),
        ("np_prod_dtype_f64", lambda v: S.prod(v["a"], axis=2, dtype="float64"), {"a": a}),
        ("np_prod_dtype_int64", lambda v: S.prod(v["a"], axis=0, dtype="int64"), {"a": _i32((3, 4), seed=2)}),
        # ---- the output dtype by the input's (MXNet's NumpySumType / NumpyMeanType) and 0-d full reductions ----
        ("np_sum_bool", lambda v: S.sum(v["a"], axis=1), {"a": _bool((3, 5))}),
        ("np_sum_bool_full", lambda v: S.sum(v["a"]), {"a": _bool((2, 3, 2), seed=1)}),
        ("np_sum_int8_wraps", lambda v: S.sum(v["a"], axis=0), {"a": onp.full((40, 2), 100, "int8")}),
        ("np_prod_bool", lambda v: S.prod(v["a"], axis=0, keepdims=True), {"a": _bool((3, 4), seed=2)}),
        ("npi_mean_int", lambda v: S.mean(v["a"]), {"a": _i32((3, 4))}),
        ("npi_mean_bool", lambda v: S.mean(v["a"], axis=1), {"a": _bool((2, 5), seed=3)}),
        ("np_sum_full_dtype", lambda v: S.sum(v["a"], dtype="float64"), {"a": a}),
        ("npi_mean_full_dtype", lambda v: S.mean(v["a"], dtype="float64"), {"a": _i32((2, 5))}),
        ("np_prod_full_dtype", lambda v: S.prod(v["a"], dtype="int64"), {"a": _i32((2, 3), seed=4)}),
        ("np_sum_every_axis", lambda v: S.sum(v["a"], axis=(0, 1)), {"a": _f32((3, 2))}),
        ("np_max_full", lambda v: S.max(v["a"]), {"a": _i32((3, 3), seed=5)}),
        ("np_min_bool", lambda v: S.min(v["a"], axis=0), {"a": _bool((3, 4), seed=6)}),
        # ---- concatenate with axis=None: the flattened inputs joined ----
        ("npi_concatenate_flat", lambda v: S.concatenate([v["a"], v["b"], v["c"]], axis=None),
         {"a": _f32((2, 3)), "b": _f32((4,), seed=1), "c": _f32((2, 1, 2), seed=2)}),
        ("npi_concatenate_flat_one", lambda v: S.concatenate([v["a"]], axis=None), {"a": _i32((3, 2))}),
        # ---- npx.reshape's -3: the size-1 input dimension it stands for dropped ----
        ("npx_reshape_skip", lambda v: X.reshape(v["a"], (-2, -3, -2, -3, -2)), {"a": _f32((2, 1, 3, 1, 4))}),
        ("npx_reshape_skip_first", lambda v: X.reshape(v["a"], (-3, -1)), {"a": _f32((1, 3, 4))}),
        ("npx_reshape_skip_merge", lambda v: X.reshape(v["a"], (-5, -3, -2)), {"a": _f32((2, 3, 1, 4))}),
        ("npx_reshape_skip_split", lambda v: X.reshape(v["a"], (-6, 2, 3, -3, -2)), {"a": _i32((6, 1, 4))}),
        ("npx_reshape_skip_reverse", lambda v: X.reshape(v["a"], (-1, -3, 2), reverse=True),
         {"a": _f32((3, 4, 1, 2))}),
        ("npx_reshape_skip_rest", lambda v: X.reshape(v["a"], (-3, -4)), {"a": _f32((1, 2, 3))}),
        # ---- npx.reshape with -3 codes only: a 0-d result, what is left needing one element ----
        ("npx_reshape_skip_all", lambda v: X.reshape(v["a"], (-3, -3)), {"a": _f32((1, 1))}),
        ("npx_reshape_skip_all_rest", lambda v: X.reshape(v["a"], (-3, -3)), {"a": _i32((1, 1, 1))}),
        ("npx_reshape_skip_all_reverse", lambda v: X.reshape(v["a"], (-3,), reverse=True), {"a": _f32((1,))}),
        ("npx_reshape_skip_last_reverse", lambda v: X.reshape(v["a"], (-4, -3), reverse=True),
         {"a": _f32((2, 3, 1))}),
    ]


def main():
    import mxnet as mx
    from mxnet import np, npx
    npx.set_np()
    store = {}
    for case, build, inputs in cases(mx):
        names = sorted(inputs)
        sym = build({k: mx.sym.var(k).as_np_ndarray() for k in names})
        with open(case + "-symbol.json", "w") as f:
            f.write(sym.tojson())
        args = {k: np.array(inputs[k], dtype=inputs[k].dtype) for k in names}
        outs = sym.bind(mx.cpu(), args).forward()
        for k in names:
            store["%s:in:%s" % (case, k)] = args[k]
        for k, y in enumerate(outs):
            store["%s:out:%d" % (case, k)] = y.as_np_ndarray() if hasattr(y, "as_np_ndarray") else y
    npx.save("arrays.params", store)


if __name__ == "__main__":
    main()
