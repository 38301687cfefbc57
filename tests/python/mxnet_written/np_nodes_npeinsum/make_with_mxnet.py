"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder
with MXNet's interpreter (python make_with_mxnet.py): for each case a one-operator graph as
MXNet's NumPy-mode symbol API writes it (<case>-symbol.json: _npi_einsum, _npi_tensorinv,
_npi_tensorsolve) and, in data.params (npx.save, a dict of V3 records), its inputs
("<case>/arg:<name>"), MXNet's outputs ("<case>/out:<k>") and, for a differentiable case,
MXNet's input gradients for the head gradient "<case>/head:0" (fixed, not all ones, so a
gradient that ignored the head's layout would show) in "<case>/grad:<name>".
Not run by the tests (MXNet is never a test dependency): tests/python/test_np_nodes_npeinsum.py
reads its files."""
import json

import numpy as onp


def _conditioned(shape, side, dtype):
    """Deterministic values whose (side, side) reading is diagonally dominant."""
    m = onp.cos(onp.arange(side * side, dtype="float64")).reshape(side, side) + side * onp.eye(side)
    return m.reshape(shape).astype(dtype)


def inputs():
    """The deterministic inputs, as plain NumPy."""
    return {"m": onp.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], dtype="float32"),
            "w": onp.linspace(-1, 1, 12, dtype="float32").reshape(3, 4),
            "sq": (onp.arange(9, dtype="float32").reshape(3, 3) - 4) / 2,
            "vec": onp.array([0.5, -1.0, 2.0], dtype="float32"),
            "t": (onp.arange(24, dtype="float64").reshape(2, 3, 4) - 11.5) / 4,
            "u": onp.sin(onp.arange(12, dtype="float64")).reshape(1, 4, 3),
            "bq": onp.cos(onp.arange(16, dtype="float32")).reshape(2, 2, 4),
            "bk": onp.sin(onp.arange(24, dtype="float32")).reshape(2, 3, 4),
            "ints": onp.arange(6, dtype="int32").reshape(2, 3) - 2,
            "ints2": onp.arange(12, dtype="int32").reshape(3, 4) % 5 - 2,
            "a6": _conditioned((2, 3, 6), 6, "float64"),
            "a6f": _conditioned((6, 2, 3), 6, "float32"),
            "b23": onp.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], dtype="float64"),
            "b23f": onp.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], dtype="float32"),
            "vec4": onp.array([1.0, -0.5, 0.25, 2.0], dtype="float32")}


def cases(S, a):
    """(name, symbol, inputs it reads, differentiable) for MXNet's mx.sym.np namespace S; a(name)
    is an np-mode variable (one object per input: MXNet writes each call as its own node, and
    two nodes of one name would be two graph inputs)."""
    m, vec, la = a("m"), a("vec"), S.linalg
    return [
        ("einsum_matmul", S.einsum("ij,jk->ik", m, a("w")), ["m", "w"], True),
        ("einsum_implicit", S.einsum("ij,jk", m, a("w")), ["m", "w"], True),
        ("einsum_optimize", S.einsum("ij,jk->ik", m, a("w"), optimize=True), ["m", "w"], True),
        ("einsum_trace", S.einsum("ii", a("sq")), ["sq"], True),
        ("einsum_diag", S.einsum("ii->i", a("sq")), ["sq"], True),
        ("einsum_diag_vec", S.einsum("ii,i->i", a("sq"), vec), ["sq", "vec"], True),
        ("einsum_transpose", S.einsum("ij->ji", m), ["m"], True),
        ("einsum_sum", S.einsum("ijk->", a("t")), ["t"], True),
        ("einsum_outer", S.einsum("i,j->ij", vec, vec), ["vec"], True),
        ("einsum_attention", S.einsum("bqd,bkd->bqk", a("bq"), a("bk")), ["bq", "bk"], True),
        ("einsum_ellipsis", S.einsum("...jk,...kl->...jl", a("t"), a("u")), ["t", "u"], True),
        ("einsum_three", S.einsum("ij,jk,k->i", m, a("w"), a("vec4")),
         ["m", "w", "vec4"], True),
        ("einsum_int", S.einsum("ij,jk->ik", a("ints"), a("ints2")), ["ints", "ints2"], False),
        ("tensorinv", la.tensorinv(a("a6"), ind=2), ["a6"], True),
        ("tensorinv_ind1", la.tensorinv(a("a6f"), ind=1), ["a6f"], True),
        ("tensorsolve", la.tensorsolve(a("a6"), a("b23")), ["a6", "b23"], True),
        ("tensorsolve_axes", la.tensorsolve(a("a6f"), a("b23f"), axes=(0,)), ["a6f", "b23f"], True),
    ]


if __name__ == "__main__":
    import mxnet as mx
    from mxnet import np, npx
    npx.set_np()

    def var(name):
        return mx.sym.var(name).as_np_ndarray()

    data = {}
    vals = inputs()
    for name, sym, reads, diff in cases(mx.sym.np, var):
        with open(name + "-symbol.json", "w") as f:
            f.write(sym.tojson())
        args = {k: mx.nd.array(vals[k], dtype=vals[k].dtype) for k in reads}
        grads = {k: mx.nd.zeros(vals[k].shape, dtype=vals[k].dtype) for k in reads} if diff else None
        exe = sym.as_nd_ndarray().bind(mx.cpu(), args, args_grad=grads)
        outs = exe.forward(is_train=diff)
        for k in reads:
            data["%s/arg:%s" % (name, k)] = np.array(vals[k], dtype=vals[k].dtype)
        for i, o in enumerate(outs):
            data["%s/out:%d" % (name, i)] = o.as_np_ndarray()
        if diff:
            heads = [mx.nd.array(onp.cos(onp.arange(o.size)).reshape(o.shape) + 0.5, dtype=o.dtype) for o in outs]
            exe.backward(heads)
            data["%s/head:0" % name] = heads[0].as_np_ndarray()
            for k in reads:
                data["%s/grad:%s" % (name, k)] = grads[k].as_np_ndarray()
        print(name, [(n["op"], n.get("attrs")) for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"],
              [(o.shape, o.dtype) for o in outs])
    npx.save("data.params", data)
