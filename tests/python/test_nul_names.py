"""Issue 35 point 5: a string holding a NUL is refused wherever it would cross
the C ABI, by one check (Note [C strings] in core/base/c_string.h), instead of
coming back cut short: ``Variable("p\\0q").name`` was ``'p'``, and
``Variable("a") + Variable("a\\0zzz")`` had two arguments both named ``a``."""
import json

import numpy as np
import pytest

import weft as mx
from weft.base import InvalidArgumentError, ffi, lib

NUL_NAME = "p\x00q"


def _refused(match="NUL byte at offset"):
    return pytest.raises(InvalidArgumentError, match=match)


def test_the_library_check_names_what_and_where():
    b = b"ab\x00cd"
    assert lib.weft_check_string(b, len(b), b"a test string") != 0
    msg = ffi.string(lib.weft_last_error()).decode()
    assert msg.startswith("a test string 'ab\\x00cd' holds a NUL byte at offset 2"), msg
    assert lib.weft_check_string(b"abcd", 4, b"a test string") == 0
    assert lib.weft_check_string(ffi.NULL, 0, b"empty") == 0


def test_symbol_variable_names():
    with _refused("Variable: name 'p\\\\x00q' holds a NUL byte at offset 1"):
        mx.sym.Variable(NUL_NAME)
    with _refused():
        mx.sym.var("a\x00zzz")
    a = mx.sym.Variable("a")
    assert a.name == "a"


def test_operator_names_attributes_and_inputs():
    x = mx.sym.Variable("x")
    with _refused("FullyConnected: name"):
        mx.sym.FullyConnected(x, num_hidden=2, name="fc\x00evil")
    with _refused("Activation: attribute value"):
        mx.sym.Activation(x, act_type="relu\x00tanh")
    with _refused("attribute"):
        x._set_attr(lr_mult="1\x002")
    with _refused("attribute key"):
        x.attr("a\x00b")
    with _refused("argument name"):
        (x * 2)(**{"x\x00y": mx.sym.Variable("z")})


def test_imperative_attribute_values():
    x = mx.nd.ones((2, 2))
    with _refused("attribute value"):
        mx.nd.Activation(x, act_type="relu\x00tanh")
    assert mx.nd.Activation(x, act_type="relu").asnumpy().sum() == 4


def test_json_text_with_a_raw_nul():
    text = mx.sym.Variable("data").tojson()
    with _refused("load_json"):
        mx.sym.load_json(text + "\x00garbage")
    assert mx.sym.load_json(text).list_arguments() == ["data"]


def test_params_names_kvstore_keys_and_predictor_inputs(tmp_path):
    with pytest.raises(ValueError, match="save: the array name"):
        mx.nd.save(str(tmp_path / "x.params"), {NUL_NAME: mx.nd.ones((1,))})
    kv = mx.kv.create("local")
    with _refused("kvstore init: key"):
        kv.init("w\x00x", mx.nd.ones((2,)))
    sym = mx.sym.relu(mx.sym.Variable("data"))
    with _refused("Predictor: input name"):
        mx.predictor.Predictor(sym.tojson(), b"", {"da\x00ta": (1, 2)})
    p = mx.predictor.Predictor(sym.tojson(), b"", {"data": (1, 2)})
    with _refused("Predictor: input name"):
        p.forward(**{"da\x00ta": np.ones((1, 2), np.float32)})


def test_two_names_that_differ_after_a_nul_never_meet():
    # Before: both arguments came back as "a".
    with _refused():
        mx.sym.Variable("a") + mx.sym.Variable("a\x00zzz")
    j = json.loads((mx.sym.Variable("a") + mx.sym.Variable("b")).tojson())
    assert [n["name"] for n in j["nodes"] if n["op"] == "null"] == ["a", "b"]
