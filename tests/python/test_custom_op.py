"""weft.operator (MXNet 1.x custom operators, issue 19 point 2): CustomOp /
CustomOpProp / register with nd.Custom and sym.Custom, imperatively,
symbolically (bind / forward / backward, shape and type inference through the
prop), under autograd.record() and inside hybridize(); assign with every req; aux states;
declare_backward_dependency; keyword arguments as strings; an exception in
forward or backward surfacing at the next wait naming the op_type; NDArray
ops and waits inside the callbacks on a one-worker engine (no deadlock); and
a CustomOp softmax training scikit-learn's digits to the Gluon demo's accuracy
(>= 97%, examples/digits_demo.py)."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import weft as mx

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
HAS_SKLEARN = importlib.util.find_spec("sklearn") is not None


def softmax_np(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# ---- a softmax loss (MXNet's example/numpy-ops/custom_softmax.py) -----------------------------------------
class Softmax(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        self.assign(out_data[0], req[0], mx.nd.array(softmax_np(x)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        label = in_data[1].asnumpy().ravel().astype(int)
        y = out_data[0].asnumpy()
        y[np.arange(label.shape[0]), label] -= 1.0
        self.assign(in_grad[0], req[0], mx.nd.array(y))
        self.assign(in_grad[1], req[1], mx.nd.zeros_like(in_data[1]))


@mx.operator.register("test_softmax")
class SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ["data", "label"]

    def list_outputs(self):
        return ["output"]

    def infer_shape(self, in_shape):
        data_shape = in_shape[0]
        return [data_shape, (data_shape[0],)], [data_shape], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()


# ---- y = scale * x**2 with the output gradient (need_top_grad) and NDArray ops inside -------------------
class Square(mx.operator.CustomOp):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0]
        self.assign(out_data[0], req[0], self.scale * x * x)  # NDArray ops on the worker thread

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        assert out_data[0] is None, "out_data was not declared as a backward dependency"
        g = out_grad[0] * in_data[0] * (2 * self.scale)
        g.wait_to_read()
        self.assign(in_grad[0], req[0], g)


@mx.operator.register("test_square")
class SquareProp(mx.operator.CustomOpProp):
    def __init__(self, scale="1"):
        super().__init__(need_top_grad=True)
        assert isinstance(scale, str), "keyword arguments arrive as strings"
        self.scale = float(scale)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        return out_grad + in_data  # not out_data

    def create_operator(self, ctx, shapes, dtypes):
        return Square(self.scale)


def test_imperative_forward_matches_numpy():
    x = np.random.RandomState(0).randn(6, 5).astype(np.float32)
    label = np.arange(6) % 5
    y = mx.nd.Custom(mx.nd.array(x), mx.nd.array(label), op_type="test_softmax")
    np.testing.assert_allclose(y.asnumpy(), softmax_np(x), rtol=1e-5, atol=1e-6)
    # inputs by name, in any order
    y2 = mx.nd.Custom(label=mx.nd.array(label), data=mx.nd.array(x), op_type="test_softmax")
    np.testing.assert_allclose(y2.asnumpy(), softmax_np(x), rtol=1e-5, atol=1e-6)
    z = mx.nd.Custom(mx.nd.array(x), op_type="test_square", scale=3)
    np.testing.assert_allclose(z.asnumpy(), 3 * x * x, rtol=1e-5)
    assert "test_softmax" in mx.operator.get_all_registered_operators()


def test_autograd_record_and_backward():
    x = mx.nd.array(np.random.RandomState(1).randn(4, 3))
    x.attach_grad()
    head = mx.nd.array(np.random.RandomState(2).randn(4, 3))
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="test_square", scale=0.5)
    y.backward(head)
    np.testing.assert_allclose(x.grad.asnumpy(), head.asnumpy() * x.asnumpy(), rtol=1e-5, atol=1e-6)
    # the loss op: no head gradient needed
    label = mx.nd.array([0, 2, 1, 1])
    with mx.autograd.record():
        p = mx.nd.Custom(x, label, op_type="test_softmax")
    p.backward()
    want = softmax_np(x.asnumpy())
    want[np.arange(4), [0, 2, 1, 1]] -= 1
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_symbolic_inference_bind_forward_backward():
    data, label = mx.sym.var("data"), mx.sym.var("label")
    net = mx.sym.Custom(data=data, label=label, op_type="test_softmax", name="sm")
    assert net.list_arguments() == ["data", "label"]
    assert net.list_outputs() == ["sm_output"]
    arg_shapes, out_shapes, aux_shapes = net.infer_shape(data=(3, 4))  # the label's shape from the prop
    assert arg_shapes == [(3, 4), (3,)] and out_shapes == [(3, 4)] and aux_shapes == []
    arg_types, out_types, _ = net.infer_type(data=np.float64, label=np.float64)
    assert out_types == [np.float64]
    # a missing input becomes a variable named after the node, as for any op
    assert mx.sym.Custom(data, op_type="test_softmax", name="s2").list_arguments() == ["data", "s2_label"]

    x = np.random.RandomState(3).randn(3, 4).astype(np.float32)
    lab = np.array([1, 0, 3], dtype=np.float32)
    exe = net.simple_bind(mx.cpu(), data=(3, 4), grad_req={"data": "write", "label": "null"})
    exe.forward(is_train=True, data=mx.nd.array(x), label=mx.nd.array(lab))
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), softmax_np(x), rtol=1e-5, atol=1e-6)
    exe.backward()
    want = softmax_np(x)
    want[np.arange(3), lab.astype(int)] -= 1
    np.testing.assert_allclose(exe.grad_dict["data"].asnumpy(), want, rtol=1e-5, atol=1e-6)

    # grad_req 'add' reaches the custom backward as req 'add': two backwards sum
    sq = mx.sym.Custom(data, op_type="test_square", scale="2")
    xs = mx.nd.array(x)
    grad = mx.nd.zeros((3, 4))
    exe2 = sq.bind(mx.cpu(), {"data": xs}, args_grad={"data": grad}, grad_req="add")
    for _ in range(2):
        exe2.forward(is_train=True)
        exe2.backward(mx.nd.ones((3, 4)))
    np.testing.assert_allclose(grad.asnumpy(), 2 * 4 * x, rtol=1e-5)


def test_inside_a_hybridized_block():
    class Net(mx.gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            self.fc = mx.gluon.nn.Dense(4)

        def hybrid_forward(self, F, x):
            return F.Custom(self.fc(x), op_type="test_square", scale=2)

    net = Net()
    net.initialize()
    x = mx.nd.array(np.random.RandomState(6).randn(3, 5))
    results = []
    for hybrid in (False, True):
        if hybrid:
            net.hybridize()
        with mx.autograd.record():
            y = net(x)
        y.backward()
        results.append((y.asnumpy(), net.fc.weight.grad().asnumpy().copy()))
    h = net.fc(x).asnumpy()
    np.testing.assert_allclose(results[0][0], 2 * h * h, rtol=1e-5)
    for a, b in zip(results[0], results[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_numeric_gradient_of_a_custom_op():
    data = mx.sym.var("data")
    sq = mx.sym.Custom(data, op_type="test_square", scale="1.5")
    x = np.random.RandomState(4).uniform(-1, 1, (3, 2))
    mx.test_utils.check_numeric_gradient(sq, [x], numeric_eps=1e-4, rtol=1e-2, atol=1e-3, dtype=np.float64)


def test_assign_honours_every_req():
    op = mx.operator.CustomOp()
    dst = mx.nd.ones((2, 2))
    op.assign(dst, "null", mx.nd.full((2, 2), 5))
    assert (dst.asnumpy() == 1).all()
    op.assign(dst, "write", mx.nd.full((2, 2), 5))
    assert (dst.asnumpy() == 5).all()
    op.assign(dst, "inplace", np.full((2, 2), 7, dtype=np.float32))
    assert (dst.asnumpy() == 7).all()
    op.assign(dst, "add", mx.nd.full((2, 2), 2))
    assert (dst.asnumpy() == 9).all()
    with pytest.raises(mx.InvalidArgumentError, match="req"):
        op.assign(dst, "bogus", dst)


class Count(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        aux[0][:] += 1  # an aux state, written in place
        self.assign(out_data[0], req[0], in_data[0] + aux[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0])


@mx.operator.register("test_count")
class CountProp(mx.operator.CustomOpProp):
    def list_auxiliary_states(self):
        return ["counter"]

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], [in_shape[0]]

    def infer_type(self, in_type):
        assert in_type[0] == np.float32
        return in_type, [in_type[0]], [in_type[0]]

    def create_operator(self, ctx, shapes, dtypes):
        return Count()


def test_aux_states():
    data = mx.sym.var("data")
    net = mx.sym.Custom(data, op_type="test_count", name="c")
    assert net.list_arguments() == ["data"]
    assert net.list_auxiliary_states() == ["c_counter"]
    _, _, aux_shapes = net.infer_shape(data=(2, 3))
    assert aux_shapes == [(2, 3)]
    counter = mx.nd.zeros((2, 3))
    exe = net.bind(mx.cpu(), {"data": mx.nd.ones((2, 3))}, aux_states={"c_counter": counter})
    exe.forward()
    exe.forward()
    np.testing.assert_array_equal(exe.outputs[0].asnumpy(), np.full((2, 3), 3.0))
    np.testing.assert_array_equal(counter.asnumpy(), np.full((2, 3), 2.0))
    # imperatively the aux state is the last input and is written
    c = mx.nd.zeros((2,))
    y = mx.nd.Custom(mx.nd.array([1.0, 2.0]), c, op_type="test_count")
    np.testing.assert_array_equal(y.asnumpy(), [2.0, 3.0])
    np.testing.assert_array_equal(c.asnumpy(), [1.0, 1.0])


class Broken(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        raise ValueError("forward exploded")

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        raise ValueError("backward exploded")


@mx.operator.register("test_broken")
class BrokenProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return Broken()


class BrokenBackward(Square):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        raise ValueError("backward exploded")


@mx.operator.register("test_broken_backward")
class BrokenBackwardProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return BrokenBackward(1.0)


def test_exception_in_forward_surfaces_at_wait_naming_the_op():
    y = mx.nd.Custom(mx.nd.ones((2, 2)), op_type="test_broken")  # pushed: no error yet
    with pytest.raises(mx.WeftError, match=r"test_broken.*forward.*ValueError: forward exploded"):
        y.asnumpy()
    # the engine keeps running
    z = mx.nd.Custom(mx.nd.ones((2, 2)), op_type="test_square")
    np.testing.assert_array_equal(z.asnumpy(), np.ones((2, 2)))
    x = mx.nd.ones((2, 2))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="test_broken_backward")
    with pytest.raises(mx.WeftError, match=r"test_broken_backward.*backward.*ValueError: backward exploded"):
        y.backward()
        x.grad.asnumpy()
    mx.nd.waitall()


def test_bad_calls_are_rejected_naming_the_op():
    with pytest.raises(mx.NotFoundError, match="'no_such_op' is not registered"):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="no_such_op")
    with pytest.raises(mx.ArgumentTypeError, match="op_type"):
        mx.nd.Custom(mx.nd.ones((2,)))
    with pytest.raises(mx.InvalidArgumentError, match="Custom.*expected 2 input"):
        mx.nd.Custom(mx.nd.ones((2, 2)), op_type="test_softmax")
    with pytest.raises(mx.ShapeError, match="test_softmax.*label.*\\(3,\\)"):
        mx.nd.Custom(mx.nd.ones((3, 2)), mx.nd.ones((4,)), op_type="test_softmax")
    with pytest.raises(mx.ArgumentTypeError, match="CustomOpProp"):
        mx.operator.register("test_not_a_prop")(object)


@mx.operator.register("test_bad_shape")
class BadShapeProp(mx.operator.CustomOpProp):
    def infer_shape(self, in_shape):
        raise RuntimeError("cannot infer")


def test_error_in_infer_shape_names_the_op():
    with pytest.raises(mx.WeftError, match="test_bad_shape.*infer_shape.*RuntimeError: cannot infer"):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="test_bad_shape")


_ONE_WORKER = r"""
import numpy as np, weft as mx

class Nested(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        t = mx.nd.exp(in_data[0]) - 1          # ops pushed from the engine worker ...
        s = t.sum().asscalar()                  # ... and a wait on them
        self.assign(out_data[0], req[0], t / s)
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * mx.nd.exp(in_data[0]))

@mx.operator.register("nested")
class NestedProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return Nested()

x = mx.nd.array(np.linspace(0.1, 1, 6).reshape(2, 3))
outs = [mx.nd.Custom(x * (i + 1), op_type="nested") for i in range(20)]  # many queued at once
for i, o in enumerate(outs):
    t = np.exp(x.asnumpy() * (i + 1)) - 1
    assert np.allclose(o.asnumpy(), t / t.sum(), rtol=1e-5), i
print("ok")
"""


@pytest.mark.parametrize("engine", ["threaded", "naive"])
def test_callbacks_may_push_and_wait_on_a_one_worker_engine(engine):
    env = dict(os.environ, WEFT_CPU_WORKER_NTHREADS="1", WEFT_ENGINE=engine)
    r = subprocess.run([sys.executable, "-c", _ONE_WORKER], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


@pytest.mark.skipif(not HAS_SKLEARN, reason="scikit-learn is not installed (the demo's data set)")
def test_custom_softmax_trains_digits_to_the_gluon_demo_accuracy():
    spec = importlib.util.spec_from_file_location("module_digits", os.path.join(ROOT, "examples", "module_digits.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    x_train, y_train, x_test, y_test = example.load_digits_split()
    mx.random.seed(42)
    np.random.seed(42)
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=512, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc2")
    net = mx.sym.Custom(net, name="softmax", op_type="test_softmax")  # label: softmax_label
    batch, epochs, lr = 32, 20, 0.002
    train = mx.io.NDArrayIter(x_train, y_train, batch, shuffle=True)
    test = mx.io.NDArrayIter(x_test, y_test, batch)
    schedule = mx.lr_scheduler.CosineScheduler(max_update=epochs * -(-len(x_train) // batch), base_lr=lr,
                                               final_lr=lr / 100)
    mod = mx.mod.Module(net, context=mx.cpu())
    mod.fit(train, num_epoch=epochs, optimizer="adam", eval_metric="acc",
            optimizer_params={"learning_rate": lr, "lr_scheduler": schedule}, initializer=mx.init.Xavier())
    accuracy = float((mod.predict(test).asnumpy().argmax(axis=1) == y_test).mean())
    assert accuracy >= 0.97, accuracy


def test_register_again_replaces_and_json_round_trip():
    class Plus(mx.operator.CustomOp):
        def __init__(self, k):
            super().__init__()
            self.k = k

        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] + self.k)

    def make(k):
        class PlusProp(mx.operator.CustomOpProp):
            def create_operator(self, ctx, shapes, dtypes):
                return Plus(k)
        return PlusProp

    x = mx.nd.ones((2,))
    mx.operator.register("test_plus")(make(1))
    np.testing.assert_array_equal(mx.nd.Custom(x, op_type="test_plus").asnumpy(), [2, 2])
    mx.operator.register("test_plus")(make(10))
    np.testing.assert_array_equal(mx.nd.Custom(x, op_type="test_plus").asnumpy(), [11, 11])
    net = mx.sym.Custom(mx.sym.var("data"), op_type="test_square", scale="3", name="sq")
    again = mx.sym.load_json(net.tojson())
    assert again.list_arguments() == ["data"] and again.list_outputs() == ["sq_output"]
    exe = again.bind(mx.cpu(), {"data": mx.nd.array([1.0, 2.0])})
    np.testing.assert_allclose(exe.forward()[0].asnumpy(), [3.0, 12.0])
