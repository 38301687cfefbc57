"""Model parallelism across CPU contexts (issue 41, point 6): `bind`/`simple_bind(group2ctx=...)` and
`Module(group2ctxs=...)`, written from MXNet 1.9.1's tests/python/unittest/test_model_parallel.py (test_chain),
test_multi_device_exec.py (test_ctx_group) and test_module.py (test_module_ctx_group). Each `ctx_group`'s nodes
run on its context (Note [Device placement] in core/graph/place_device.cc), `_CrossDeviceCopy` engine ops join the
contexts, and the results equal the one-context bind."""
import numpy as np
import pytest

import weft as mx


def _chain():
    data1 = mx.sym.Variable("data1", dtype=np.float32)
    data2 = mx.sym.Variable("data2", dtype=np.float32)
    data3 = mx.sym.Variable("data3", dtype=np.float32)
    with mx.AttrScope(ctx_group="dev1"):
        net = data1 + data2
        net = net * 3
    with mx.AttrScope(ctx_group="dev2"):
        net = net + data3
    return net


def test_chain_across_two_cpu_contexts():  # MXNet's test_model_parallel.test_chain
    ctx1, ctx2 = mx.cpu(0), mx.cpu(1)
    net = _chain()
    shape = (4, 5)
    arr = [mx.nd.empty(shape, ctx=ctx1), mx.nd.empty(shape, ctx=ctx1), mx.nd.empty(shape, ctx=ctx2)]
    arr_grad = [mx.nd.empty(shape, ctx=ctx1), mx.nd.empty(shape, ctx=ctx1), mx.nd.empty(shape, ctx=ctx2)]
    exec1 = net.bind(ctx1, args=arr, args_grad=arr_grad, group2ctx={"dev1": ctx1, "dev2": ctx2})
    arr[0][:] = 1.0
    arr[1][:] = 2.0
    arr[2][:] = 3.0
    arr2 = [a.copyto(ctx1) for a in arr]
    arr_grad2 = [a.copyto(ctx1) for a in arr_grad]
    exec2 = net.bind(ctx1, args=arr2, args_grad=arr_grad2)

    plan = exec1.debug_str()
    assert "_CrossDeviceCopy" in plan and "Cross-device copies: 1" in plan
    assert "_CrossDeviceCopy" not in exec2.debug_str()

    exec1.forward(is_train=True)
    exec2.forward(is_train=True)
    assert exec1.outputs[0].context == ctx2  # the last node is dev2's
    np.testing.assert_allclose(exec1.outputs[0].asnumpy(), exec2.outputs[0].asnumpy())
    np.testing.assert_allclose(exec1.outputs[0].asnumpy(), np.full(shape, 12.0))
    out_grad = mx.nd.ones(shape, ctx=ctx1)
    exec1.backward([out_grad])
    exec2.backward([out_grad.copyto(ctx1)])
    for a, b in zip(arr_grad, arr_grad2):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy())
    np.testing.assert_allclose(arr_grad[0].asnumpy(), np.full(shape, 3.0))
    np.testing.assert_allclose(arr_grad[2].asnumpy(), np.ones(shape))
    assert [g.context for g in arr_grad] == [ctx1, ctx1, ctx2]


def test_each_group_runs_on_its_context():
    exe = _chain().simple_bind(mx.cpu(0), group2ctx={"dev1": mx.cpu(2), "dev2": mx.cpu(3)},
                               data1=(2, 3), data2=(2, 3), data3=(2, 3))
    plan = exe.debug_str()
    steps = [line for line in plan.splitlines() if line.startswith("  ")]
    # forward: data1 + data2 and * 3 on dev1, the copy and + data3 on dev2; backward likewise per group
    on = {line.split("'")[1]: line.split(" on ")[1].split(" ")[0] for line in steps}
    assert sorted(set(on.values())) == ["cpu(2)", "cpu(3)"]
    copies = [line for line in steps if line.lstrip().startswith("_CrossDeviceCopy")]
    assert copies and all(" on cpu(3) " in c or " on cpu(2) " in c for c in copies)
    # MXNet's simple_bind: an input of no group is allocated on the default context (copied to its readers)
    assert [a.context for a in exe.arg_arrays] == [mx.cpu(0)] * 3
    assert [g.context for g in exe.grad_arrays] == [mx.cpu(0)] * 3
    exe.forward(is_train=True, data1=np.ones((2, 3)), data2=np.ones((2, 3)), data3=np.ones((2, 3)))
    exe.backward(mx.nd.ones((2, 3)))
    np.testing.assert_array_equal(exe.outputs[0].asnumpy(), np.full((2, 3), 7.0, np.float32))
    np.testing.assert_array_equal(exe.grad_dict["data1"].asnumpy(), np.full((2, 3), 3.0, np.float32))
    np.testing.assert_array_equal(exe.grad_dict["data3"].asnumpy(), np.ones((2, 3), np.float32))

    with mx.AttrScope(ctx_group="dev1"):
        grouped = mx.sym.Variable("x") * 2
    exe = grouped.simple_bind(mx.cpu(0), group2ctx={"dev1": mx.cpu(2)}, x=(2,))
    assert exe.arg_arrays[0].context == mx.cpu(2) and exe.grad_arrays[0].context == mx.cpu(2)


@pytest.mark.parametrize("grad_req", ["null", "write", "add"])
def test_ctx_group_arrays_on_their_contexts(grad_req):  # MXNet's test_multi_device_exec.test_ctx_group
    with mx.AttrScope(ctx_group="stage1"):
        data = mx.symbol.Variable("data")
        fc1 = mx.symbol.FullyConnected(data=data, name="fc1", num_hidden=128)
        act1 = mx.symbol.Activation(data=fc1, name="relu1", act_type="relu")
    set_stage1 = set(act1.list_arguments())
    with mx.AttrScope(ctx_group="stage2"):
        fc2 = mx.symbol.FullyConnected(data=act1, name="fc2", num_hidden=64)
        act2 = mx.symbol.Activation(data=fc2, name="relu2", act_type="relu")
        fc3 = mx.symbol.FullyConnected(data=act2, name="fc3", num_hidden=10)
        fc3 = mx.symbol.BatchNorm(fc3, name="batchnorm0")
        mlp = mx.symbol.SoftmaxOutput(data=fc3, name="softmax")
    group2ctx = {"stage1": mx.cpu(1), "stage2": mx.cpu(2)}
    texec = mlp.simple_bind(mx.cpu(0), group2ctx=group2ctx, data=(1, 200), grad_req=grad_req)
    for arr, name in zip(texec.arg_arrays, mlp.list_arguments()):
        assert arr.context == group2ctx["stage1" if name in set_stage1 else "stage2"], name
    for arr in texec.aux_arrays:
        assert arr.context == group2ctx["stage2"]

    # The same values as the one-context bind, forward and backward.
    ref = mlp.simple_bind(mx.cpu(0), data=(1, 200), grad_req=grad_req)
    rng = np.random.default_rng(1)
    for name, arr in texec.arg_dict.items():
        value = rng.standard_normal(arr.shape).astype(np.float32) * 0.1
        if name == "softmax_label":
            value = np.array([3], np.float32)
        arr[:] = value
        ref.arg_dict[name][:] = value
    for name, arr in texec.aux_dict.items():
        value = np.ones(arr.shape, np.float32) if name.endswith("var") else np.zeros(arr.shape, np.float32)
        arr[:] = value
        ref.aux_dict[name][:] = value
    for _ in range(2):  # twice: "add" accumulates, and the second forward reuses every buffer
        texec.forward(is_train=True)
        ref.forward(is_train=True)
        np.testing.assert_allclose(texec.outputs[0].asnumpy(), ref.outputs[0].asnumpy(), rtol=1e-5, atol=1e-6)
        if grad_req != "null":
            texec.backward()
            ref.backward()
    if grad_req != "null":
        for name in mlp.list_arguments():
            if name == "softmax_label":
                continue
            np.testing.assert_allclose(texec.grad_dict[name].asnumpy(), ref.grad_dict[name].asnumpy(),
                                       rtol=1e-4, atol=1e-6, err_msg=name)
    for name in texec.aux_dict:  # BatchNorm's moving statistics, written in place on stage2's context
        np.testing.assert_allclose(texec.aux_dict[name].asnumpy(), ref.aux_dict[name].asnumpy(), rtol=1e-5,
                                   atol=1e-6, err_msg=name)


def _module_case(ctxs, group2ctxs, grad_ctxs=None):  # MXNet's test_module.test_module_ctx_group
    with mx.AttrScope(ctx_group="dev1"):
        a = mx.symbol.Variable("a")
        a = a * 2
    with mx.AttrScope(ctx_group="dev2"):
        b = mx.symbol.Variable("b")
        c = a + b
    shape = (2, 5)
    mod1 = mx.mod.Module(c, context=ctxs, data_names=["a", "b"], label_names=None, group2ctxs=group2ctxs)
    mod1.bind(data_shapes=[["a", shape], ["b", shape]], inputs_need_grad=True)
    mod1.init_params()
    mod1.forward(data_batch=mx.io.DataBatch(data=[mx.nd.ones(shape), mx.nd.ones(shape)]), is_train=True)
    mod1.backward([mx.nd.ones(shape)])
    mod1_input_grads = mod1.get_input_grads()

    mod2 = mx.mod.Module(c, context=ctxs, data_names=["a", "b"], label_names=None)
    mod2.bind(data_shapes=[["a", shape], ["b", shape]], inputs_need_grad=True)
    mod2.init_params()
    mod2.forward(data_batch=mx.io.DataBatch(data=[mx.nd.ones(shape), mx.nd.ones(shape)]), is_train=True)
    mod2.backward([mx.nd.ones(shape)])
    mod2_input_grads = mod2.get_input_grads()

    if grad_ctxs is not None:
        assert mod1_input_grads[0].context == grad_ctxs[0]
        assert mod1_input_grads[1].context == grad_ctxs[1]
    np.testing.assert_array_equal(mod1_input_grads[0].asnumpy(), mod2_input_grads[0].asnumpy())
    np.testing.assert_array_equal(mod1_input_grads[1].asnumpy(), mod2_input_grads[1].asnumpy())
    np.testing.assert_array_equal(mod1_input_grads[0].asnumpy(), np.full(shape, 2.0, np.float32))


def test_module_ctx_group():
    _module_case([mx.cpu(0)], {"dev1": mx.cpu(1), "dev2": mx.cpu(2)}, grad_ctxs=[mx.cpu(1), mx.cpu(2)])
    _module_case([mx.cpu(0), mx.cpu(1)], [{"dev1": mx.cpu(2), "dev2": mx.cpu(3)},
                                          {"dev1": mx.cpu(4), "dev2": mx.cpu(5)}])
    _module_case([mx.cpu(0), mx.cpu(1)], {"dev1": mx.cpu(2), "dev2": mx.cpu(3)})
    _module_case([mx.cpu(0), mx.cpu(1)], {"dev1": mx.cpu(2), "dev2": [mx.cpu(4)]})
    _module_case([mx.cpu(0), mx.cpu(1)], {"dev1": mx.cpu(2), "dev2": [mx.cpu(4), mx.cpu(5)]})


def test_bad_group2ctx_is_refused():
    net = _chain()
    args = {n: mx.nd.ones((2, 2)) for n in net.list_arguments()}
    with pytest.raises(mx.base.ArgumentTypeError, match="group2ctx"):
        net.bind(mx.cpu(), args, group2ctx={"dev1": "cpu(1)"})
    with pytest.raises(mx.base.ArgumentTypeError, match="group2ctx"):
        net.bind(mx.cpu(), args, group2ctx=[mx.cpu(1)])
    with pytest.raises(mx.base.InvalidArgumentError, match="group2ctxs"):
        mx.mod.Module(net, context=[mx.cpu(0), mx.cpu(1)], data_names=["data1", "data2", "data3"], label_names=None,
                      group2ctxs={"dev1": [mx.cpu(1), mx.cpu(2), mx.cpu(3)]}).bind(
                          data_shapes=[("data1", (2, 2)), ("data2", (2, 2)), ("data3", (2, 2))])


def test_aux_state_on_another_context_is_refused():
    with mx.AttrScope(ctx_group="dev1"):
        bn = mx.sym.BatchNorm(mx.sym.Variable("x"), name="bn")
    shapes = {"x": (2, 3), "bn_gamma": (3,), "bn_beta": (3,)}
    args = {n: mx.nd.ones(shapes[n], ctx=mx.cpu(1)) for n in bn.list_arguments()}
    aux = {n: mx.nd.ones((3,), ctx=mx.cpu(0)) for n in bn.list_auxiliary_states()}
    with pytest.raises(mx.base.InvalidArgumentError, match="bn.*writes its input"):
        bn.bind(mx.cpu(0), args, aux_states=aux, group2ctx={"dev1": mx.cpu(1)})


def test_place_inputs_checks_its_arrays():
    n_groups, names, types, ids, _keep = mx.executor._group_lists({"dev1": mx.cpu(1)}, "test")
    out_t, out_i = mx.base.ffi.new("int[]", 2), mx.base.ffi.new("int[]", 2)
    net = _chain()  # held: its handle must outlive the calls
    with pytest.raises(mx.base.InvalidArgumentError, match="place_inputs.*3 arguments"):
        mx.base.check_call(mx.base.lib.weft_symbol_place_inputs(net.handle, 1, 0, n_groups, names, types, ids,
                                                               2, out_t, out_i))
    with pytest.raises(mx.base.InvalidArgumentError, match="group2ctx"):
        mx.base.check_call(mx.base.lib.weft_symbol_place_inputs(net.handle, 1, 0, -1, names, types, ids,
                                                               2, out_t, out_i))
