"""Worker for tests/python/test_deep_graph.py (Note [Deep graphs] in core/graph/graph.h).

Runs one deep-graph scenario in its own process, so that a stack overflow is a
failed test instead of a dead pytest, and prints one JSON line of timings:

    deep_graph_worker.py chain N [--grad] [--roundtrip]
        a symbol JSON of N chained nodes (relu, with every 1000th a _plus_scalar
        of 1 so the value shows that every node ran) is loaded, its shape
        inferred, bound with simple_bind, run forward (and backward with
        --grad), checked against the same chain computed here, and freed;
        --roundtrip also saves it and loads the saved text back.
    deep_graph_worker.py tape N [--backward]
        records the same chain imperatively under autograd.record(), checks the
        value (and with --backward the gradient), and frees the tape.
    deep_graph_worker.py hybrid N
        the chain JSON as a hybridized gluon.SymbolBlock (a CachedOp), run forward
        and backward under autograd.record(), checked and freed.
    deep_graph_worker.py predict N
        the chain JSON through the predict API (weft.predictor.Predictor): created,
        run, checked and freed.
    deep_graph_worker.py load N
        loads the chain JSON and prints the error the loader raises, if any
        (the test sets WEFT_MAX_GRAPH_NODES).

Also runnable by hand for the figures of a bigger chain (``chain 1000000``;
``--pure`` makes every node a relu).
"""
import gc
import json
import sys
import time

import numpy as np

import weft
from weft.base import WeftError

PLUS_EVERY = 1000
DATA = np.array([[-2.0, -0.5, 0.0], [0.25, 1.5, 3.0]], dtype=np.float32)


def is_plus(i, pure):
    return not pure and i % PLUS_EVERY == 0


def chain_json(n, pure=False):
    """The symbol JSON of data -> n chained nodes, as MXNet 1.9.1 writes it."""
    parts = ['{"nodes": [{"op": "null", "name": "data", "inputs": []}']
    for i in range(1, n + 1):
        if is_plus(i, pure):
            parts.append('{"op": "_plus_scalar", "name": "p%d", "attrs": {"scalar": "1"}, "inputs": [[%d, 0, 0]]}'
                         % (i, i - 1))
        else:
            parts.append('{"op": "relu", "name": "r%d", "inputs": [[%d, 0, 0]]}' % (i, i - 1))
    parts[-1] += '], "arg_nodes": [0], "heads": [[%d, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}' % n
    return ", ".join(parts)


def reference(n, pure):
    """The chain's value on DATA, and its gradient for a head gradient of ones."""
    value = DATA.astype(np.float64)
    grad = np.ones_like(value)
    for i in range(1, n + 1):
        if is_plus(i, pure):
            value = value + 1.0
        else:
            grad = grad * (value > 0)
            value = np.maximum(value, 0.0)
    return value, grad


def run_chain(n, grad, roundtrip, pure):
    times = {}
    t = time.perf_counter()

    def lap(name):
        nonlocal t
        now = time.perf_counter()
        times[name] = round(now - t, 3)
        t = now

    text = chain_json(n, pure)
    lap("make_json")
    sym = weft.sym.load_json(text)
    lap("load")
    if roundtrip:
        saved = sym.tojson()
        again = weft.sym.load_json(saved)
        assert again.tojson() == saved, "a saved deep graph does not load back to the same text"
        assert json.loads(saved)["heads"] == [[n, 0, 0]]
        del again
        lap("roundtrip")
    _, out_shapes, _ = sym.infer_shape(data=DATA.shape)
    assert out_shapes == [DATA.shape], out_shapes
    lap("infer_shape")
    exe = sym.simple_bind(weft.cpu(), grad_req="write" if grad else "null", data=DATA.shape)
    lap("bind")
    exe.arg_dict["data"][:] = DATA
    out = exe.forward(is_train=grad)[0].asnumpy()
    lap("forward")
    want, want_grad = reference(n, pure)
    np.testing.assert_allclose(out, want, rtol=0, atol=0)
    if grad:
        exe.backward()
        got = exe.grad_dict["data"].asnumpy()
        lap("backward")
        np.testing.assert_allclose(got, want_grad, rtol=0, atol=0)
    del exe, out
    gc.collect()
    lap("free_executor")
    del sym
    gc.collect()
    lap("free_symbol")
    times["nodes"] = n
    print(json.dumps(times), flush=True)


def run_tape(n, backward):
    times = {}
    t = time.perf_counter()
    x = weft.nd.array(DATA)
    x.attach_grad()
    with weft.autograd.record():
        y = x
        for i in range(1, n + 1):
            y = y + 1 if is_plus(i, False) else weft.nd.relu(y)
    times["record"] = round(time.perf_counter() - t, 3)
    want, want_grad = reference(n, False)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=0, atol=0)
    if backward:
        t = time.perf_counter()
        y.backward()
        np.testing.assert_allclose(x.grad.asnumpy(), want_grad, rtol=0, atol=0)
        times["backward"] = round(time.perf_counter() - t, 3)
    t = time.perf_counter()
    del y
    gc.collect()
    times["free_tape"] = round(time.perf_counter() - t, 3)
    times["nodes"] = n
    print(json.dumps(times), flush=True)


def run_hybrid(n):
    t = time.perf_counter()
    block = weft.gluon.SymbolBlock(outputs=weft.sym.load_json(chain_json(n)), inputs=weft.sym.var("data"))
    block.hybridize()
    x = weft.nd.array(DATA)
    x.attach_grad()
    with weft.autograd.record():
        y = block(x)
    y.backward()
    want, want_grad = reference(n, False)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=0, atol=0)
    np.testing.assert_allclose(x.grad.asnumpy(), want_grad, rtol=0, atol=0)
    times = {"run": round(time.perf_counter() - t, 3)}
    t = time.perf_counter()
    del block, y
    gc.collect()
    times["free"] = round(time.perf_counter() - t, 3)
    times["nodes"] = n
    print(json.dumps(times), flush=True)


def run_predict(n):
    from weft.predictor import Predictor  # pylint: disable=import-outside-toplevel
    t = time.perf_counter()
    pred = Predictor(chain_json(n), None, {"data": DATA.shape})
    times = {"create": round(time.perf_counter() - t, 3)}
    pred.forward(data=DATA)
    np.testing.assert_allclose(pred.get_output(0), reference(n, False)[0], rtol=0, atol=0)
    t = time.perf_counter()
    del pred
    gc.collect()
    times["free"] = round(time.perf_counter() - t, 3)
    times["nodes"] = n
    print(json.dumps(times), flush=True)


def run_load(n):
    text = chain_json(n)
    try:
        weft.sym.load_json(text)
    except WeftError as e:
        print(json.dumps({"error": type(e).__name__, "message": str(e)}), flush=True)
        return
    print(json.dumps({"error": None}), flush=True)


def main(argv):
    mode, n = argv[1], int(argv[2])
    if mode == "chain":
        run_chain(n, "--grad" in argv, "--roundtrip" in argv, "--pure" in argv)
    elif mode == "tape":
        run_tape(n, "--backward" in argv)
    elif mode == "hybrid":
        run_hybrid(n)
    elif mode == "predict":
        run_predict(n)
    elif mode == "load":
        run_load(n)
    else:
        raise SystemExit("unknown mode %r" % mode)


if __name__ == "__main__":
    main(sys.argv)
