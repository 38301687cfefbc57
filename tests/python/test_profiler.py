"""weft.profiler (MXNet 1.9.1's mx.profiler): the engine's trace and MXNet's aggregate table."""
import collections
import json

import numpy as np
import pytest

import weft as mx
from weft import autograd, gluon, nd, profiler


def _reset(tmp_path):
    profiler.set_state("stop")
    nd.waitall()
    profiler.set_config(filename=str(tmp_path / "flush.json"))
    profiler.dump(finished=True)  # drops what earlier tests recorded
    profiler.dumps(reset=True)
    profiler.set_config(profile_all=False, profile_symbolic=True, profile_imperative=True, profile_memory=True,
                        profile_api=True, continuous_dump=False, aggregate_stats=True,
                        filename=str(tmp_path / "trace.json"))


@pytest.fixture
def trace_file(tmp_path):
    _reset(tmp_path)
    yield tmp_path / "trace.json"
    profiler.set_state("stop")
    profiler.resume()
    _reset(tmp_path)


def _load(path):
    with open(path) as f:
        return json.load(f)  # must be valid JSON (what chrome://tracing and Perfetto read)


def _ops(trace):
    return [e for e in trace["traceEvents"] if e.get("cat") == "operator"]


def _assert_nested(events):
    """Complete events on one thread either nest or follow each other."""
    by_tid = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            by_tid[(e["pid"], e["tid"])].append((float(e["ts"]), float(e["ts"]) + float(e["dur"]), e["name"]))
    for spans in by_tid.values():
        spans.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, name in spans:
            while stack and stack[-1][1] <= start + 1e-3:
                stack.pop()
            if stack:
                assert end <= stack[-1][1] + 1e-3, "%s overlaps %s without nesting" % (name, stack[-1][2])
            stack.append((start, end, name))


def _well_formed(trace):
    for e in trace["traceEvents"]:
        assert e["ph"] in ("M", "X", "C", "i"), e
        assert isinstance(e["pid"], int)
        if e["ph"] != "M":
            assert isinstance(e["tid"], int) and isinstance(e["ts"], (int, float))
        if e["ph"] == "X":
            assert e["dur"] >= 0
    _assert_nested(trace["traceEvents"])


def test_known_imperative_ops_give_one_event_each(trace_file):
    x = nd.ones((4, 4))
    nd.waitall()
    profiler.set_state("run")
    y = x * 2
    z = y + 1
    w = nd.dot(z, z)
    w.wait_to_read()
    profiler.set_state("stop")
    profiler.dump()
    trace = _load(trace_file)
    _well_formed(trace)
    ops = _ops(trace)
    assert sorted(e["name"] for e in ops) == ["_mul_scalar", "_plus_scalar", "dot"]
    for e in ops:
        assert e["ph"] == "X" and e["args"]["device"] == "cpu/0"
    np.testing.assert_allclose(w.asnumpy(), np.full((4, 4), 36.0))


def _one_gluon_step():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(8, activation="relu"), gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    data = nd.array(np.random.RandomState(0).rand(5, 4))
    label = nd.array([0, 1, 2, 0, 1])
    net(data).wait_to_read()  # parameters initialised before the profiled step
    nd.waitall()
    return net, trainer, loss_fn, data, label


def test_trace_of_one_gluon_training_step(trace_file):
    net, trainer, loss_fn, data, label = _one_gluon_step()
    profiler.set_state("run")
    with autograd.record():
        loss = loss_fn(net(data), label)
    loss.backward()
    trainer.step(5)
    nd.waitall()
    profiler.set_state("stop")
    profiler.dump()
    trace = _load(trace_file)
    _well_formed(trace)
    counts = collections.Counter(e["name"] for e in _ops(trace))
    # Two Dense layers: two forward and two backward FullyConnected ops; four parameters updated.
    assert counts["FullyConnected"] == 2
    assert counts["_backward_FullyConnected"] == 2
    updates = sum(n for name, n in counts.items() if "sgd" in name)
    assert updates >= 1, counts
    # The aggregate table counts the same runs as the trace.
    stats = json.loads(profiler.dumps(format="json"))
    table = stats["Time"]["operator"]
    assert {name: row["Count"] for name, row in table.items()} == dict(counts)
    for row in table.values():
        assert row["Min"] <= row["Avg"] <= row["Max"]
        assert abs(row["Total"] - row["Avg"] * row["Count"]) < 1e-3 * row["Count"] + 1e-3
    text = profiler.dumps()
    assert "operator\n=================" in text and "FullyConnected" in text
    assert "Total Count" in text and "Avg Time (ms)" in text


def test_trace_of_one_symbolic_forward_backward(trace_file):
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=6, name="fc1")
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.tanh(fc1), num_hidden=3, name="fc2"), name="softmax")
    exe = out.simple_bind(mx.cpu(), data=(4, 5))
    for name, arr in exe.arg_dict.items():
        arr[:] = np.random.RandomState(1).rand(*arr.shape) * 0.1
    nd.waitall()
    # Symbolic only: the executor's ops are recorded, the imperative copy below is not.
    profiler.set_config(profile_symbolic=True, profile_imperative=False)
    profiler.set_state("run")
    exe.arg_dict["data"][:] = np.ones((4, 5))
    exe.forward(is_train=True)
    exe.backward()
    nd.waitall()
    profiler.set_state("stop")
    profiler.dump()
    trace = _load(trace_file)
    _well_formed(trace)
    counts = collections.Counter(e["name"] for e in _ops(trace))
    assert counts["FullyConnected"] == 2 and counts["_backward_FullyConnected"] == 2, counts
    assert counts["SoftmaxOutput"] == 1 and counts["_backward_SoftmaxOutput"] == 1, counts
    assert not any(name.startswith("_copy") or name.startswith("_set") for name in counts), counts


def test_pause_and_resume_leave_out_the_ops_pushed_in_between(trace_file):
    x = nd.ones((3,))
    nd.waitall()
    profiler.set_state("run")
    a = x * 2
    a.wait_to_read()
    profiler.pause()
    b = x - 7
    b.wait_to_read()
    profiler.resume()
    c = x + 5
    c.wait_to_read()
    profiler.set_state("stop")
    profiler.dump()
    names = [e["name"] for e in _ops(_load(trace_file))]
    assert sorted(names) == ["_mul_scalar", "_plus_scalar"], names


def test_stopped_profiler_records_nothing(trace_file):
    x = nd.ones((3,)) * 2
    x.wait_to_read()
    profiler.dump()
    assert _ops(_load(trace_file)) == []
    assert "operator" not in profiler.dumps()


def test_user_objects_go_into_the_same_trace(trace_file):
    profiler.set_state("run")
    domain = profiler.Domain("mydomain")
    task = domain.new_task("step")
    frame = domain.new_frame("frame")
    event = profiler.Event("evt")
    counter = domain.new_counter("items", 3)
    frame.start()
    task.start()
    event.start()
    (nd.ones((2,)) * 3).wait_to_read()
    event.stop()
    task.stop()
    counter += 2
    counter -= 1
    domain.new_marker("here").mark("thread")
    frame.stop()
    profiler.set_state("stop")
    profiler.dump()
    trace = _load(trace_file)
    _well_formed(trace)
    ev = {e["name"]: e for e in trace["traceEvents"] if e["ph"] != "M"}
    assert ev["step"]["ph"] == "X" and ev["step"]["cat"] == "mydomain"
    assert ev["frame"]["ph"] == "X" and ev["evt"]["cat"] == "event"
    assert ev["here"]["ph"] == "i" and ev["here"]["s"] == "t" and ev["here"]["cat"] == "mydomain"
    values = [e["args"]["items"] for e in trace["traceEvents"] if e["name"] == "items"]
    assert values == [3, 5, 4] and all(e["ph"] == "C" for e in trace["traceEvents"] if e["name"] == "items")
    step, frm = ev["step"], ev["frame"]
    assert frm["ts"] <= step["ts"] and step["ts"] + step["dur"] <= frm["ts"] + frm["dur"] + 1e-3
    table = json.loads(profiler.dumps(format="json"))["Time"]
    assert table["mydomain"]["step"]["Count"] == 1


def test_memory_and_api_events(trace_file):
    profiler.set_state("run")
    x = nd.zeros((256,))
    (x + 1).wait_to_read()
    # The temporary's memory is released by an engine op pushed when its handle
    # dies; wait for it, or its record may land between dump() and dumps().
    nd.waitall()
    profiler.set_state("stop")
    profiler.dump()
    trace = _load(trace_file)
    mem = [e for e in trace["traceEvents"] if e.get("cat") == "Device Storage"]
    assert mem and all(e["ph"] == "C" and e["name"] == "Memory: cpu/0" for e in mem)
    api = [e for e in trace["traceEvents"] if e.get("cat") == "MXNET_C_API"]
    assert api and all(e["ph"] == "X" and e["name"].startswith("weft_") for e in api)
    stats = json.loads(profiler.dumps(format="json"))
    assert stats["Memory"]["Device Storage"]["Memory: cpu/0"]["Count"] == len(mem)
    assert "Device Storage" in profiler.dumps() and "Min Use  (kB)" in profiler.dumps()


def test_dumps_sorts_and_resets(trace_file):
    profiler.set_state("run")
    x = nd.ones((8,))
    for _ in range(3):
        x = x * 1.5
    y = x + 1
    y.wait_to_read()
    profiler.set_state("stop")
    rows = json.loads(profiler.dumps(format="json", sort_by="count"))["Time"]["operator"]
    assert list(rows)[0] == "_mul_scalar" and rows["_mul_scalar"]["Count"] == 3
    asc = json.loads(profiler.dumps(format="json", sort_by="count", ascending=True))["Time"]["operator"]
    assert list(asc)[-1] == "_mul_scalar"
    profiler.dumps(reset=True)
    assert "operator" not in json.loads(profiler.dumps(format="json"))["Time"]


def test_scope_prefixes_op_names(trace_file):
    profiler.set_state("run")
    with profiler.scope("block1"):
        (nd.ones((2,)) * 2).wait_to_read()
    profiler.set_state("stop")
    profiler.dump()
    assert "block1:_mul_scalar" in [e["name"] for e in _ops(_load(trace_file))]


def test_bad_config_and_state_raise_naming_them(trace_file):
    with pytest.raises(mx.base.MXNetError, match="bogus_key"):
        profiler.set_config(bogus_key=True)
    with pytest.raises(mx.base.MXNetError, match="profile_all"):
        profiler.set_config(profile_all="perhaps")
    with pytest.raises(mx.base.MXNetError, match="dump_period"):
        profiler.set_config(dump_period=-1)
    with pytest.raises(mx.base.MXNetError, match="'running'"):
        profiler.set_state("running")
    with pytest.raises(mx.base.MXNetError, match="'html'"):
        profiler.dumps(format="html")
    with pytest.raises(mx.base.MXNetError, match="'median'"):
        profiler.dumps(sort_by="median")
    with pytest.raises(mx.base.MXNetError, match="server"):
        profiler.set_state("run", profile_process="server")
    with pytest.raises(mx.base.MXNetError, match="'sometimes'"):
        profiler.Domain("d").new_marker("m").mark("sometimes")
    with pytest.raises(mx.base.MXNetError, match="without start"):
        profiler.Domain("d").new_task("t").stop()
    # A refused configuration changes nothing: the profiler still runs as configured.
    profiler.set_state("run")
    (nd.ones((2,)) * 2).wait_to_read()
    profiler.set_state("stop")
    profiler.dump()
    assert sorted(e["name"] for e in _ops(_load(trace_file))) == ["_mul_scalar", "_ones"]


def test_continuous_dump_writes_the_file_while_running(tmp_path):
    _reset(tmp_path)
    path = tmp_path / "cont.json"
    profiler.set_config(continuous_dump=True, dump_period=0.05, filename=str(path))
    try:
        profiler.set_state("run")
        (nd.ones((2,)) * 2).wait_to_read()
        import time
        deadline = time.time() + 10
        while time.time() < deadline and not (path.exists() and len(_ops(_load(path))) == 2):
            time.sleep(0.05)
        assert sorted(e["name"] for e in _ops(_load(path))) == ["_mul_scalar", "_ones"]
    finally:
        profiler.set_state("stop")
        _reset(tmp_path)


def test_a_forked_child_can_use_weft_while_the_parent_profiles(tmp_path):
    import os
    import signal
    import time
    _reset(tmp_path)
    profiler.set_config(continuous_dump=True, dump_period=0.01, filename=str(tmp_path / "parent.json"))
    profiler.set_state("run")
    try:
        (nd.ones((2,)) * 2).wait_to_read()
        pid = os.fork()
        if pid == 0:  # child: starts with the profiler stopped, and may start its own
            try:
                (nd.ones((2,)) + 1).wait_to_read()
                profiler.set_config(filename=str(tmp_path / "child.json"), continuous_dump=False)
                profiler.set_state("run")
                (nd.ones((2,)) + 1).wait_to_read()
                profiler.set_state("stop")
                profiler.dump()
                os._exit(0)
            except BaseException:  # pylint: disable=broad-except
                os._exit(1)
        deadline = time.time() + 60
        while time.time() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung")
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        assert "_plus_scalar" in [e["name"] for e in _ops(_load(tmp_path / "child.json"))]
    finally:
        profiler.set_state("stop")
        _reset(tmp_path)
