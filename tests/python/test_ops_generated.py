"""Every registry operator is a generated Python function in weft.nd with a real
signature (inputs, then the schema's params with defaults, then keyword-only
out/name) and a numpydoc docstring; attribute values are converted the MXNet way."""
import inspect
import json

import numpy as np
import pytest

import weft
import weft.nd as nd
from weft.ndarray.ndarray import attr_str, shape_attr_str

OPS = weft.base.op_names()
SCHEMAS = {op: json.loads(weft.base.op_schema(op)) for op in OPS}
ALL_NAMES = sorted({n for op, s in SCHEMAS.items() for n in [op] + s["aliases"]})


def test_registry_is_not_empty_and_sorted():
    assert OPS and OPS == sorted(OPS)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_op_and_alias_is_generated(name):
    fn = getattr(nd._internal, name)
    assert inspect.isfunction(fn) and fn.__name__ == name
    if not name.startswith("_"):
        assert getattr(nd.op, name) is fn
    public = getattr(nd, name)
    assert callable(public)


@pytest.mark.parametrize("op", OPS)
def test_signature_and_docstring(op):
    schema = SCHEMAS[op]
    fn = getattr(nd._internal, op)
    sig = inspect.signature(fn)
    assert sig is fn.__signature__
    params = list(sig.parameters.values())
    names = [p.name for p in params]
    assert names[-3:] == ["out", "name", "kwargs"]
    assert sig.parameters["out"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["out"].default is None and sig.parameters["name"].default is None
    schema_params = [p["name"] for p in schema["params"]]
    if op in ("Custom", "_backward_Custom"):
        # weft.operator's wrappers: the inputs come from the user's CustomOpProp
        assert params[0].kind is inspect.Parameter.VAR_POSITIONAL and names[1] == "op_type"
        assert "\nop_type : " in fn.__doc__ and "Returns\n-------" in fn.__doc__
        return
    if schema["variadic"]:
        assert params[0].kind is inspect.Parameter.VAR_POSITIONAL
        assert names[1:1 + len(schema_params)] == schema_params
    else:
        n_in = len(schema["inputs"])
        assert names[:n_in] == schema["inputs"]
        assert names[n_in:n_in + len(schema_params)] == schema_params
    for p in schema["params"]:
        default = sig.parameters[p["name"]].default
        if p["required"]:
            assert repr(default) == "<required>"
        else:
            assert default is not inspect.Parameter.empty
    doc = fn.__doc__
    assert doc and "Parameters\n----------" in doc and "Returns\n-------" in doc
    if schema["doc"]:
        assert schema["doc"].strip().splitlines()[0] in doc
    for p in schema_params:
        assert "\n%s : " % p in doc


def test_public_namespace_has_underscore_ops_unless_shadowed():
    for op in OPS:
        if op.startswith("_"):
            assert getattr(nd, op) is getattr(nd._internal, op)


def test_generated_call_positional_params_and_defaults():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = nd.array(x)
    np.testing.assert_allclose(nd.sum(a, 1).asnumpy(), x.sum(axis=1))
    np.testing.assert_allclose(nd.sum(a, axis=(0, 1), keepdims=True).asnumpy(), x.sum(keepdims=True))
    np.testing.assert_allclose(nd.sum(data=a, axis=0).asnumpy(), x.sum(axis=0))
    sig = inspect.signature(nd.sum)
    assert sig.parameters["keepdims"].default is False


def test_variadic_ops_set_num_args():
    a, b, c = nd.ones((1, 2)), nd.zeros((1, 2)), nd.ones((1, 2)) * 2
    r = nd.concat(a, b, c, dim=0)
    assert r.shape == (3, 2)
    np.testing.assert_array_equal(r.asnumpy(), [[1, 1], [0, 0], [2, 2]])
    r2 = nd.concat([a, b], dim=1)  # one list is accepted too
    assert r2.shape == (1, 4)
    assert nd.stack(a, b).shape == (2, 1, 2)


def test_multi_output_ops_return_lists():
    a = nd.array(np.arange(12, dtype=np.float32).reshape(2, 6))
    parts = nd.split(a, num_outputs=3, axis=1)
    assert isinstance(parts, list) and len(parts) == 3
    np.testing.assert_array_equal(parts[1].asnumpy(), [[2, 3], [8, 9]])


def test_zero_input_ops_use_current_context():
    with weft.cpu(1):
        assert nd._zeros(shape=(2,)).context == weft.cpu(1)
    assert nd._zeros(shape=(2,), ctx=weft.cpu(1)).context == weft.cpu(1)
    with weft.cpu(1):
        assert nd._zeros(shape=(2,), ctx=None).context == weft.cpu(1)
    out = nd.ones((2,), ctx=weft.cpu(1))
    assert nd._zeros(shape=(2,), out=out) is out  # out's device, not the current one
    np.testing.assert_array_equal(out.asnumpy(), [0, 0])


def test_attribute_text_like_mxnet():
    assert attr_str(True) == "True" and attr_str(False) == "False"
    assert attr_str((2, 3)) == "(2, 3)" and attr_str([2, 3]) == "(2, 3)" and attr_str((2,)) == "(2,)"
    assert attr_str((np.int64(2), None)) == "(2, None)"
    assert attr_str(None) == "None"
    assert attr_str(np.float32) == "float32" and attr_str(np.dtype("int8")) == "int8"
    assert attr_str(weft.cpu(1)) == "cpu(1)"
    assert attr_str(1.5) == "1.5" and attr_str(3) == "3" and attr_str(np.float32(0.25)) == "0.25"
    assert shape_attr_str(3) == "(3,)"


def test_dtype_attribute_forms():
    a = nd.array([1.5, 2.5])
    for d in ("int32", np.int32, np.dtype("int32")):
        r = nd.cast(a, dtype=d)
        assert r.dtype == np.int32


def test_hot_path_has_no_inspect():
    src = nd._internal.elemwise_add._weft_source
    assert "inspect" not in src and "signature" not in src
