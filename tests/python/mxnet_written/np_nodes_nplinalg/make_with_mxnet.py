"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder
with MXNet's interpreter (python make_with_mxnet.py): for each case a one-operator graph as
MXNet's NumPy-mode symbol API writes it (<case>-symbol.json) and, in data.params (npx.save, a
dict of V3 records), its inputs ("<case>/arg:<name>"), MXNet's outputs ("<case>/out:<k>") and,
for a differentiable case, MXNet's input gradients for an all-ones head gradient
("<case>/grad:<name>"). Random cases draw 1000 samples under mx.random.seed(7): the test
compares shapes, dtypes and moments with MXNet's sample, never values. The refused cases
(refused()) are written as MXNet writes them and have no data: Weft refuses them naming the
attribute; refused_tensordot_pairing (t of shape (2, 3, 4) and c2 of (4, 3, 2)) was refused when
bound and now runs as an einsum (Note [Tensordot pairings as einsum]), checked against NumPy.
Not run by the tests (MXNet is never a test dependency): tests/python/test_np_nodes_nplinalg.py
reads its files."""
import json

import numpy as onp


def inputs():
    """The deterministic inputs, as plain NumPy."""
    return {"m": onp.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], dtype="float32"),
            "t": (onp.arange(24, dtype="float64").reshape(2, 3, 4) - 11.5) / 4,
            "rows": onp.arange(12, dtype="float32").reshape(6, 2),
            "w": onp.linspace(-1, 1, 12, dtype="float32").reshape(3, 4),
            "u": onp.cos(onp.arange(40, dtype="float64")).reshape(5, 4, 2),
            "v": onp.sin(onp.arange(20, dtype="float64")).reshape(1, 4, 5),
            "vec": onp.array([0.5, -1.0, 2.0], dtype="float32"),
            "ints": onp.arange(6, dtype="int32").reshape(2, 3),
            "c": onp.tan(onp.arange(24, dtype="float64") / 30).reshape(3, 4, 2)}


def cases(S, a):
    """(name, symbol, inputs it reads, differentiable) for MXNet's mx.sym.np namespace S; a(name)
    is an np-mode variable."""
    m, t = a("m"), a("t")
    rnd, la = S.random, S.linalg
    return [
        ("tensordot", S.tensordot(t, a("c"), axes=2), ["t", "c"], False),
        ("tensordot_axes", S.tensordot(t, a("c"), axes=([1, 2], [0, 1])), ["t", "c"], True),
        ("tensordot_transposed", S.tensordot(a("c"), t, axes=([0, 1], [1, 2])), ["c", "t"], True),
        ("trace", S.trace(m), ["m"], True),
        ("trace_axes", S.trace(t, offset=1, axis1=2, axis2=0), ["t"], True),
        ("trace_int", S.trace(a("ints"), offset=-1), ["ints"], False),
        ("full_like", S.full_like(m, 3.5), ["m"], True),
        ("full_like_int", S.full_like(a("ints"), 3.5), ["ints"], False),
        ("full_like_dtype", S.full_like(a("ints"), -2.25, dtype="float64"), ["ints"], False),
        ("hanning", S.hanning(7), [], False),
        ("hamming", S.hamming(6, dtype="float64"), [], False),
        ("blackman", S.blackman(9), [], False),
        ("logspace", S.logspace(1, 3, 4, endpoint=False, base=2.0), [], False),
        ("logspace_f64", S.logspace(-1, 2, 6, dtype="float64"), [], False),
        ("indices", S.indices((2, 3)), [], False),
        ("indices_int64", S.indices((3, 1, 2), dtype="int64"), [], False),
        ("identity", S.identity(3), [], False),
        ("identity_f64", S.identity(4, dtype="float64"), [], False),
        ("linspace", S.linspace(-1, 2, 7), [], False),
        ("linspace_open", S.linspace(0, 1, 4, endpoint=False), [], False),
        ("dot", S.dot(m, a("w")), ["m", "w"], True),
        ("dot_nd", S.dot(t, a("u")), ["t", "u"], True),
        ("dot_vector", S.dot(m, a("vec")), ["m", "vec"], True),
        ("matmul", S.matmul(t, a("v")), ["t", "v"], True),
        ("matmul_vector", S.matmul(a("vec"), a("w")), ["vec", "w"], True),
        ("norm", la.norm(m), ["m"], True),
        ("norm_keepdims", la.norm(t, keepdims=True), ["t"], True),
        ("norm_axis", la.norm(t, axis=1), ["t"], True),
        ("norm_ord1_axis", la.norm(m, ord=1, axis=0), ["m"], True),
        ("norm_ord2_axis_keepdims", la.norm(t, ord=2, axis=-1, keepdims=True), ["t"], True),
        ("norm_fro_axes", la.norm(t, ord="fro", axis=(0, 2)), ["t"], True),
        ("norm_fro", la.norm(m, ord="fro"), ["m"], True),
        ("normal", rnd.normal(1.5, 2.0, size=(1000,)), [], False),
        ("normal_f64", rnd.normal(-3.0, 0.5, size=(10, 100), dtype="float64"), [], False),
        ("normal_scalar", rnd.normal(0.0, 1.0), [], False),
        ("uniform", rnd.uniform(-1.0, 3.0, size=(1000,)), [], False),
        ("uniform_f64", rnd.uniform(2.0, 2.5, size=(1000,), dtype="float64"), [], False),
        ("exponential", rnd.exponential(2.0, size=(1000,)), [], False),
        ("gamma", rnd.gamma(2.0, 3.0, size=(1000,)), [], False),
        ("gamma_f64", rnd.gamma(0.5, 1.0, size=(1000,), dtype="float64"), [], False),
        ("randint", rnd.randint(-3, 5, size=(1000,)), [], False),
        ("gumbel", rnd.gumbel(1.0, 2.0, size=(1000,)), [], False),
        ("logistic", rnd.logistic(-0.5, 0.5, size=(1000,)), [], False),
        ("rayleigh", rnd.rayleigh(2.0, size=(1000,)), [], False),
        ("weibull", rnd.weibull(1.5, size=(1000,)), [], False),
        ("pareto", rnd.pareto(6.0, size=(1000,)), [], False),
        ("multinomial", __import__("mxnet").symbol.numpy._internal.multinomial(n=10, pvals=(0.2, 0.3, 0.5),
                                                                              size=(1000,)), [], False),
        ("bernoulli", __import__("mxnet").sym.npx.random.bernoulli(prob=0.3, size=(1000,)), [], False),
        ("bernoulli_logit", __import__("mxnet").sym.npx.random.bernoulli(logit=0.5, size=(1000,), dtype="int32"),
         [], False),
        ("shuffle", __import__("mxnet").symbol.numpy._internal.shuffle(a("rows")), ["rows"], False),
    ]


def refused(S, a):
    """Graphs Weft refuses, naming the attribute (Note [NumPy-mode random and norm nodes])."""
    m = a("m")
    return [
        ("refused_normal_array_loc", S.random.normal(m, 1.0, size=(2, 3))),
        ("refused_gumbel_array_loc", S.random.gumbel(m, 1.0, size=(2, 3))),
        ("refused_norm_spectral", S.linalg.norm(m, ord=2, axis=(0, 1))),
        ("refused_norm_nuclear", S.linalg.norm(m, ord="nuc")),
        ("refused_norm_ord_no_axis", S.linalg.norm(m, ord=1)),
        ("refused_norm_ord3", S.linalg.norm(m, ord=3, axis=1)),
        ("refused_tensordot_pairing", S.tensordot(a("t"), a("c2"), axes=([1, 2], [1, 0]))),
    ]


def extra_normal_n(mx):
    """npx.random's _n forms (their own MXNet operators), scalar parameters."""
    from mxnet.symbol.numpy import _internal as npi
    return [("normal_n", npi.normal_n(loc=1.5, scale=2.0, size=(1000,)), [], False),
            ("uniform_n", npi.uniform_n(low=-1.0, high=3.0, size=(1000,)), [], False)]


if __name__ == "__main__":
    import mxnet as mx
    from mxnet import np, npx
    npx.set_np()

    def var(name):
        return mx.sym.var(name).as_np_ndarray()

    data = {}
    vals = inputs()
    for name, sym, reads, diff in cases(mx.sym.np, var) + extra_normal_n(mx):
        with open(name + "-symbol.json", "w") as f:
            f.write(sym.tojson())
        mx.random.seed(7)
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
        print(name, [n["op"] for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"],
              [(o.shape, o.dtype) for o in outs])
    for name, sym in refused(mx.sym.np, var):
        with open(name + "-symbol.json", "w") as f:
            f.write(sym.tojson())
        print(name, [(n["op"], n.get("attrs")) for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"])
    npx.save("data.params", data)
