"""Custom operators in the profiler's output under their registered op_type (issue 41
point 4; Note [Custom ops in the profiler] in weft/operator.py): the MXNet 1.9.1
profiler tutorial's MyAddOne shows up as "MyAddOne::pure_python" in the domain
"Custom Operator", in dumps()' aggregate table and in the chrome trace, imperatively
and in a bound symbol, for forward and backward."""
import json

import numpy as np
import pytest

import weft as mx
from weft import autograd, nd, profiler


class MyAddOne(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] + 1)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0])


@mx.operator.register("MyAddOne")
class CustomAddOneProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def list_arguments(self):
        return ["data"]

    def list_outputs(self):
        return ["output"]

    def infer_shape(self, in_shape):
        return [in_shape[0]], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return MyAddOne()


@pytest.fixture
def trace_file(tmp_path):
    def reset():
        profiler.set_state("stop")
        nd.waitall()
        profiler.set_config(filename=str(tmp_path / "flush.json"))
        profiler.dump(finished=True)  # drops what earlier tests recorded
        profiler.dumps(reset=True)
        # as the tutorial: custom ops' Python runs imperatively, so profile_all
        profiler.set_config(profile_all=True, aggregate_stats=True, continuous_dump=False,
                            filename=str(tmp_path / "trace.json"))

    reset()
    yield tmp_path / "trace.json"
    reset()


def _custom_rows(text):
    """{name: count} of the 'Custom Operator' section of dumps()."""
    section = text.split("Custom Operator\n=================\n", 1)
    assert len(section) == 2, text
    rows = {}
    for line in section[1].splitlines()[2:]:
        if not line.strip():
            break
        fields = line.split()
        rows[fields[0]] = int(fields[1])
    return rows


def _custom_events(path):
    with open(path) as f:
        trace = json.load(f)
    return [e for e in trace["traceEvents"] if e.get("cat") == "Custom Operator"]


def test_tutorial_myaddone_imperative(trace_file):
    inp = nd.zeros(shape=(500, 500))
    profiler.set_state("run")
    w = nd.Custom(inp, op_type="MyAddOne")
    nd.waitall()
    profiler.set_state("stop")
    np.testing.assert_array_equal(w.asnumpy(), np.ones((500, 500)))
    assert _custom_rows(profiler.dumps()) == {"MyAddOne::pure_python": 1}
    profiler.dump()
    events = _custom_events(trace_file)
    assert [(e["name"], e["ph"]) for e in events] == [("MyAddOne::pure_python", "X")]
    assert events[0]["dur"] >= 0


def test_tutorial_myaddone_symbolic_forward_and_backward(trace_file):
    a = mx.symbol.Variable("a")
    b = mx.symbol.Custom(data=a, op_type="MyAddOne")
    exe = b.simple_bind(ctx=mx.cpu(), a=(10, 10), grad_req="write")
    profiler.set_state("run")
    out = exe.forward(is_train=True, a=nd.ones((10, 10)))[0]
    exe.backward(nd.ones((10, 10)) * 3)
    nd.waitall()
    profiler.set_state("stop")
    np.testing.assert_array_equal(out.asnumpy(), np.full((10, 10), 2.0))
    np.testing.assert_array_equal(exe.grad_dict["a"].asnumpy(), np.full((10, 10), 3.0))
    assert _custom_rows(profiler.dumps()) == {"MyAddOne::pure_python": 2}  # forward, backward
    profiler.dump()
    assert [e["name"] for e in _custom_events(trace_file)] == ["MyAddOne::pure_python"] * 2


def test_custom_op_not_recorded_while_stopped_and_errors_still_reported(trace_file):
    x = nd.ones((2,))
    x.attach_grad()
    with autograd.record():
        y = nd.Custom(x, op_type="MyAddOne")
    y.backward()
    nd.waitall()
    np.testing.assert_array_equal(x.grad.asnumpy(), [1.0, 1.0])
    assert "Custom Operator" not in profiler.dumps()

    class Broken(MyAddOne):
        def forward(self, is_train, req, in_data, out_data, aux):
            raise ValueError("broken on purpose")

    @mx.operator.register("MyBroken")
    class BrokenProp(CustomAddOneProp):  # pylint: disable=unused-variable
        def create_operator(self, ctx, shapes, dtypes):
            return Broken()

    profiler.set_state("run")
    with pytest.raises(Exception, match="broken on purpose"):
        nd.Custom(nd.ones((2,)), op_type="MyBroken").asnumpy()
    profiler.set_state("stop")
    # the failed call is still timed, and the profiler is left consistent
    assert _custom_rows(profiler.dumps()) == {"MyBroken::pure_python": 1}


class _SlowAddOne(MyAddOne):
    """Sleeps inside forward, so that another thread's call of the same op_type overlaps it."""
    def forward(self, is_train, req, in_data, out_data, aux):
        import time
        time.sleep(0.02)
        super().forward(is_train, req, in_data, out_data, aux)


@mx.operator.register("SlowAddOne")
class _SlowAddOneProp(CustomAddOneProp):
    def create_operator(self, ctx, shapes, dtypes):
        return _SlowAddOne()


def test_overlapping_calls_of_one_op_type_on_several_threads(trace_file):
    # One Task per op_type shared by every call gave "stop() of
    # 'X::pure_python' without start()" when a forward and a backward (or two
    # forwards) of one op_type ran at once on two engine workers.
    import threading
    profiler.set_state("run")
    errors = []

    def work(seed):
        try:
            for _ in range(5):
                x = nd.array(np.random.RandomState(seed).randn(3, 4))
                x.attach_grad()
                with autograd.record():
                    y = nd.Custom(x, op_type="SlowAddOne")
                y.backward()
                np.testing.assert_allclose(x.grad.asnumpy(), np.ones((3, 4)))
        except Exception as e:  # pylint: disable=broad-except
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    nd.waitall()
    profiler.set_state("stop")
    assert not errors, errors
    rows = _custom_rows(profiler.dumps())
    assert rows.get("SlowAddOne::pure_python", 0) == 40  # 4 threads x 5 x (forward + backward)
