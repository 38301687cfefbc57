"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder:
np.linalg.norm graphs whose _npi_norm node has flag -1 (an explicit numeric ord) that the graph
reader once refused: axis=None, where the input's rank chooses a vector norm (1-D) or a matrix
norm (2-D), and ords other than 1 and 2 over one axis. One <case>-symbol.json per case and
arrays.params (npx.save, a dict) holding per case its input ("<case>:in:<name>"), MXNet's forward
output ("<case>:out:0") and the input's gradient for a head of ones ("<case>:grad:<name>").
Not run by the tests (MXNet is never a test dependency): tests/python/test_np_norm_nodes.py
reads these files."""
import numpy as onp


def _f32(shape, seed=0, lo=-2.0, hi=2.0):
    return onp.random.RandomState(seed).uniform(lo, hi, size=shape).astype("float32")


def cases(mx):
    """(case, build(vars) -> symbol, inputs {name: array})."""
    la = mx.sym.np.linalg
    zero = _f32((3, 4), seed=3)
    zero[1, 2] = 0.0
    return [
        ("vector_ord3", lambda v: la.norm(v["a"], ord=3), {"a": _f32((6,))}),
        ("vector_neg1", lambda v: la.norm(v["a"], ord=-1), {"a": _f32((5,), seed=1, lo=0.5)}),
        ("vector_half_axis", lambda v: la.norm(v["a"], ord=0.5, axis=1), {"a": _f32((3, 4), seed=2)}),
        ("vector_zero_count_axis", lambda v: la.norm(v["a"], ord=0, axis=0), {"a": zero}),
        ("vector_ord3_keepdims", lambda v: la.norm(v["a"], ord=3, axis=-1, keepdims=True),
         {"a": _f32((2, 3, 4), seed=4)}),
        ("vector_f64_ord4", lambda v: la.norm(v["a"], ord=4, axis=0), {"a": _f32((5, 2), seed=5).astype("float64")}),
        ("matrix_ord1", lambda v: la.norm(v["a"], ord=1), {"a": _f32((3, 4), seed=6)}),
        ("matrix_neg1", lambda v: la.norm(v["a"], ord=-1), {"a": _f32((4, 3), seed=7)}),
        ("matrix_ord2", lambda v: la.norm(v["a"], ord=2), {"a": _f32((3, 4), seed=8)}),
        ("matrix_neg2", lambda v: la.norm(v["a"], ord=-2), {"a": _f32((3, 4), seed=9)}),  # MXNet: wide only
        ("matrix_inf", lambda v: la.norm(v["a"], ord=onp.inf), {"a": _f32((3, 4), seed=10)}),
        ("matrix_ord1_keepdims", lambda v: la.norm(v["a"], ord=1, keepdims=True), {"a": _f32((2, 5), seed=11)}),
    ]


def main():
    import json
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
        grads = {k: np.zeros(inputs[k].shape, dtype=inputs[k].dtype) for k in names}
        exe = sym.bind(mx.cpu(), args, args_grad=grads)
        outs = exe.forward(is_train=True)
        exe.backward([np.ones(o.shape, dtype=o.dtype) for o in outs])
        for k in names:
            store["%s:in:%s" % (case, k)] = args[k]
            store["%s:grad:%s" % (case, k)] = grads[k]
        store["%s:out:0" % case] = outs[0].as_np_ndarray() if hasattr(outs[0], "as_np_ndarray") else outs[0]
        print(case, [(n["op"], n.get("attrs")) for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"],
              outs[0].shape, outs[0].dtype)
    npx.save("arrays.params", store)


if __name__ == "__main__":
    main()
