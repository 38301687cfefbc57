"""Issue 35, point 1: graphs of any size, walked without recursion (Note [Deep graphs]
in core/graph/graph.h). A symbol JSON of 200,000 chained relus used to load and then
die with SIGSEGV when freed, one stack frame per node; bind grew faster than the
node count (98 s for 20,000 relus with gradients).

Each scenario runs in a subprocess (tests/python/deep_graph_worker.py), so a stack
overflow fails the test with the signal instead of killing pytest, under a time
limit far above what the run needs (longer under the ASan build: Note [Watchdogs under
ASan] in sanitizer_time.py).
"""
import json
import os
import subprocess
import sys

import pytest

import weft
from weft.base import WeftIOError
from sanitizer_time import time_limit

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "deep_graph_worker.py")


def _run(args, env_extra=None, timeout=120):
    env = dict(os.environ)
    env.pop("WEFT_MAX_GRAPH_NODES", None)
    env.update(env_extra or {})
    proc = subprocess.run([sys.executable, WORKER] + args, capture_output=True, text=True,
                          timeout=time_limit(timeout), env=env)
    how = "signal %d" % -proc.returncode if proc.returncode < 0 else "exit %d" % proc.returncode
    assert proc.returncode == 0, "worker %s died (%s):\n%s" % (" ".join(args), how, proc.stderr[-3000:])
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    assert lines, "worker %s printed no result:\n%s" % (" ".join(args), proc.stdout[-2000:])
    return json.loads(lines[-1])


def test_chain_of_300000_nodes_loads_binds_runs_and_is_freed():
    # Over the ~174,000 nodes where freeing overflowed the stack; the worker checks
    # the output against the chain computed in NumPy and frees executor and symbol.
    times = _run(["chain", "300000"])
    assert times["nodes"] == 300000
    assert "free_symbol" in times


def test_deep_chain_with_gradient_saves_loads_and_trains():
    # The gradient doubles the graph: forward and backward chains of 60,000 each,
    # planned, run and freed; the saved JSON loads back to the same text.
    times = _run(["chain", "60000", "--grad", "--roundtrip"])
    assert "backward" in times and "roundtrip" in times


def test_hybridized_block_runs_and_differentiates_a_deep_chain():
    # A CachedOp over 200,000 nodes, forward and backward under autograd.
    times = _run(["hybrid", "200000"])
    assert "free" in times


def test_predict_api_takes_a_deep_chain():
    times = _run(["predict", "300000"])
    assert "free" in times


def test_deep_autograd_tape_is_freed():
    # 250,000 ops recorded imperatively: the tape is the same graph IR, and
    # dropping its last array used to overflow the stack the same way.
    times = _run(["tape", "250000"])
    assert "free_tape" in times


def test_autograd_backward_through_a_long_tape():
    times = _run(["tape", "20000", "--backward"])
    assert "backward" in times


def test_loader_refuses_a_graph_over_the_node_limit():
    result = _run(["load", "1000"], {"WEFT_MAX_GRAPH_NODES": "500"})
    assert result["error"] == "WeftIOError", result
    msg = result["message"]
    assert "1001 nodes" in msg and "limit of 500" in msg and "WEFT_MAX_GRAPH_NODES" in msg, msg


def test_loader_takes_a_graph_at_the_node_limit():
    assert _run(["load", "999"], {"WEFT_MAX_GRAPH_NODES": "1000"})["error"] is None


def test_node_limit_counts_subgraph_nodes(monkeypatch):
    # Read at every load, so the setting applies in this process too.
    data, h0 = weft.sym.var("data"), weft.sym.var("h0")
    outs, _ = weft.sym.contrib.foreach(lambda x, s: (x + s[0], [x * 2 + s[0]]), data, [h0])
    text = outs.tojson()
    nodes = json.loads(text)["nodes"]
    total = len(nodes) + sum(len(g["nodes"]) for n in nodes for g in n.get("subgraphs", []))
    assert total > len(nodes)
    monkeypatch.setenv("WEFT_MAX_GRAPH_NODES", str(total))
    weft.sym.load_json(text)
    monkeypatch.setenv("WEFT_MAX_GRAPH_NODES", str(total - 1))
    with pytest.raises(WeftIOError) as err:
        weft.sym.load_json(text)
    msg = str(err.value)
    assert "%d nodes counting its subgraphs" % total in msg and "limit of %d" % (total - 1) in msg, msg


def test_bad_node_limit_setting_is_named():
    result = _run(["load", "10"], {"WEFT_MAX_GRAPH_NODES": "ten"})
    assert result["error"] == "InvalidArgumentError", result
    assert "WEFT_MAX_GRAPH_NODES" in result["message"] and "'ten'" in result["message"], result
