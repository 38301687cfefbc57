"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder
with MXNet's interpreter (python make_with_mxnet.py): for each case a one-operator graph as
MXNet's NumPy-mode symbol API writes it (<case>-symbol.json) and, in data.params (npx.save, a
dict of V3 records), its inputs ("<case>/arg:<name>"), MXNet's outputs ("<case>/out:<k>") and,
for the float cases, MXNet's input gradients for an all-ones head gradient
("<case>/grad:<name>"): all zeros, as MXNet 1.9.1 declares these operators' gradients
(MakeZeroGradNodes); Weft gives the true gradient instead (Note [Gradients of eigh, eigvalsh
and pinv] in core/op/linalg/np_eigh.cc), which the test checks against finite differences and
the stored zeros only record MXNet's rule. Not run by the tests (MXNet is never a test
dependency): tests/python/test_np_nodes_npeig.py reads its files."""
import json

import numpy as onp


def inputs():
    """The deterministic inputs, as plain NumPy."""
    g = onp.cos(onp.arange(16, dtype="float64") * 1.7).reshape(4, 4)
    b = onp.sin(onp.arange(18, dtype="float64") * 0.9 + 0.3).reshape(2, 3, 3)
    return {"s": (g + g.T).astype("float32"),        # symmetric
            "b": b,                                  # not symmetric: UPLO picks the triangle
            "sym64": b + b.transpose(0, 2, 1),
            "ints": onp.array([[4, 1, 0], [1, 2, -2], [0, -2, -1]], dtype="int64"),
            "wide": (onp.arange(15) % 4 - 1.5 + onp.sin(onp.arange(15) * 1.3)).reshape(3, 5).astype("float32"),
            # singular values relative to the largest: wide 1, .88, .48; tall 1, .55, .30 and 1, .57, .16
            "tall": (onp.arange(24) % 7 - 3 + onp.cos(onp.arange(24))).reshape(2, 4, 3).astype("float32"),
            # rank 2 of 3 (third row the sum of the first two), rounded: the cutoff drops the zero
            "rank2": onp.array([[1.0, 2.0, 0.5], [0.5, -1.0, 2.0], [1.5, 1.0, 2.5]], dtype="float32"),
            "rc": onp.array([0.05, 0.2], dtype="float32"),
            "rc0": onp.array(0.5, dtype="float32")}


def cases(S, a):
    """(name, symbol, inputs it reads, differentiable) for MXNet's mx.sym.np namespace S; a(name)
    is an np-mode variable."""
    la = S.linalg
    return [
        ("eigh", la.eigh(a("s")), ["s"], True),
        ("eigh_upper_batch", la.eigh(a("b"), UPLO="U"), ["b"], False),
        ("eigh_f64", la.eigh(a("sym64")), ["sym64"], True),
        ("eigh_int", la.eigh(a("ints")), ["ints"], False),
        ("eigvalsh", la.eigvalsh(a("s")), ["s"], True),
        ("eigvalsh_upper_batch", la.eigvalsh(a("b"), UPLO="U"), ["b"], False),
        ("eigvalsh_lower_batch", la.eigvalsh(a("b")), ["b"], False),
        ("pinv", la.pinv(a("wide")), ["wide"], True),
        ("pinv_rcond", la.pinv(a("tall"), 0.4), ["tall"], True),
        ("pinv_rank2", la.pinv(a("rank2"), 1e-5), ["rank2"], False),
        ("pinv_array_rcond", la.pinv(a("tall"), a("rc")), ["tall", "rc"], True),
        ("pinv_0d_rcond", la.pinv(a("wide"), a("rc0")), ["wide", "rc0"], False),
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
        if isinstance(sym, (list, tuple)):
            sym = mx.sym.Group([s.as_nd_ndarray() for s in sym]).as_np_ndarray()
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
            exe.backward([mx.nd.ones(o.shape, dtype=o.dtype) for o in outs])
            for k in reads:
                data["%s/grad:%s" % (name, k)] = grads[k].as_np_ndarray()
        print(name, [(n["op"], n.get("attrs")) for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"],
              [(o.shape, o.dtype) for o in outs])
    npx.save("data.params", data)
