"""The operator namespaces of weft.nd and weft.sym, generated from the registered
names as MXNet's _init_op_module does: ``_contrib_<x>`` -> ``contrib.<x>``,
``_linalg_<x>`` -> ``linalg.<x>``, ``_image_<x>`` -> ``image.<x>``,
``_random_<x>_like`` -> ``random.<x>_like``; and the names MXNet's namespace
modules import (``mx.nd.contrib.current_context``, ``mx.sym.contrib.check_call``
...)."""
import types

import numpy as np
import pytest

import weft
from weft import _namespaces
from weft.base import op_names


@pytest.fixture(autouse=True)
def fresh_names():
    with weft.name.NameManager():
        yield


def test_split_name_follows_mxnet_prefix_rules():
    assert _namespaces.split_name("_contrib_box_nms") == ("_contrib_", "box_nms")
    assert _namespaces.split_name("_linalg_gemm2") == ("_linalg_", "gemm2")
    assert _namespaces.split_name("_image_to_tensor") == ("_image_", "to_tensor")
    # MXNet files only the _like samplers under random; the others stay in _internal
    # and the random module's own samplers call them.
    assert _namespaces.split_name("_random_uniform_like") == ("_random_", "uniform_like")
    assert _namespaces.split_name("_random_uniform") is None
    assert _namespaces.split_name("_sample_uniform") is None
    # Not a namespace: an alias without the leading underscore stays in weft.nd only.
    assert _namespaces.split_name("linalg_gemm") is None
    assert _namespaces.split_name("_contrib_") is None
    assert _namespaces.split_name("sum") is None


def fake_modules():
    return {p: types.ModuleType("fake" + p.strip("_")) for p in _namespaces.PREFIXES}


def test_fill_makes_working_nd_functions_under_the_short_name():
    mods = fake_modules()
    funcs = {"_contrib_mysum": weft.nd._FUNCS["sum"], "_linalg_mydot": weft.nd._FUNCS["dot"],
             "_random_thing_like": weft.nd._FUNCS["zeros_like"], "_random_thing": weft.nd._FUNCS["ones_like"],
             "plain": weft.nd._FUNCS["sum"]}
    added = _namespaces.fill(mods, funcs, lambda fn, short: _namespaces.renamed(fn, short))
    assert added == {"_contrib_": ["mysum"], "_linalg_": ["mydot"], "_image_": [], "_random_": ["thing_like"]}
    c, la, rnd = mods["_contrib_"], mods["_linalg_"], mods["_random_"]
    assert c.mysum.__name__ == "mysum" and c.mysum._weft_op == "sum"
    assert c.mysum.__module__ == "fakecontrib" and c.mysum.__qualname__ == "mysum"
    assert c.__all__ == ["mysum"] and not hasattr(rnd, "thing")
    x = weft.nd.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(c.mysum(x, axis=1).asnumpy(), [3.0, 7.0])
    np.testing.assert_allclose(la.mydot(x, x).asnumpy(), np.array([[1, 2], [3, 4]]) @ np.array([[1, 2], [3, 4]]))
    assert (rnd.thing_like(x).asnumpy() == 0).all()
    # The original function is untouched (renamed makes a copy with its own globals).
    assert weft.nd._FUNCS["sum"].__name__ == "sum"


def test_fill_keeps_what_the_module_defines_itself():
    mods = fake_modules()

    def foreach(*args):  # a Python helper the module has (MXNet's control flow)
        return "mine"
    mods["_contrib_"].foreach = foreach
    _namespaces.fill(mods, {"_contrib_foreach": weft.nd._FUNCS["sum"]}, lambda fn, short: _namespaces.renamed(fn, short))
    assert mods["_contrib_"].foreach is foreach


def test_symbol_namespace_functions_name_nodes_by_the_short_name():
    # mx.sym.contrib.box_nms(...) names its node box_nms0, not _contrib_box_nms0.
    mods = fake_modules()
    _namespaces.fill(mods, {"_contrib_my_fc": weft.sym._FUNCS["FullyConnected"]},
                     lambda fn, short: _namespaces.renamed(fn, short, _HINT=short.lower()))
    data = weft.sym.var("data")
    out = mods["_contrib_"].my_fc(data, num_hidden=3)
    assert out.name == "my_fc0"
    assert out.list_arguments() == ["data", "my_fc0_weight", "my_fc0_bias"]
    # The registry's own function still uses its name.
    assert weft.sym.FullyConnected(data, num_hidden=3).name == "fullyconnected0"


@pytest.mark.parametrize("front", ["nd", "sym"])
def test_every_registered_prefixed_operator_is_in_its_namespace(front):
    funcs = getattr(weft, front)._FUNCS
    modules = {"_contrib_": getattr(weft, front).contrib, "_linalg_": getattr(weft, front).linalg,
               "_image_": getattr(weft, front).image, "_random_": getattr(weft, front).random}
    registered = set(op_names())
    for name, fn in funcs.items():
        hit = _namespaces.split_name(name)
        if hit is None:
            continue
        prefix, short = hit
        got = getattr(modules[prefix], short, None)
        assert got is not None, "weft.%s.%s has no %s (operator %s)" % (front, prefix.strip("_"), short, name)
        if getattr(got, "_weft_op", None) is not None:  # not a Python helper of the module
            assert got._weft_op == fn._weft_op and got._weft_op in registered
            assert got.__name__ == short and got.__module__ == modules[prefix].__name__


def test_namespace_modules_are_modules_of_both_fronts():
    for front in (weft.nd, weft.sym):
        for mod in (front.contrib, front.linalg, front.image, front.random):
            assert isinstance(mod, types.ModuleType)
    assert weft.nd.linalg.__name__ == "weft.ndarray.linalg"
    assert weft.sym.image.__name__ == "weft.symbol.image"
    # weft.nd.image (operators) is not weft.image (the loading/augmentation package).
    assert weft.nd.image is not weft.image


def test_names_mxnet_namespace_modules_import():
    assert weft.nd.contrib.current_context is weft.context.current_context
    assert weft.nd.random.current_context is weft.context.current_context
    assert weft.nd.contrib.current_context() == weft.cpu()
    with weft.Context("cpu", 1):
        assert weft.nd.random.current_context() == weft.cpu(1)
    # mx.nd.contrib.uniform is mxnet.random.uniform; mx.sym.contrib.uniform mx.sym.random.uniform.
    assert weft.nd.contrib.uniform is weft.nd.random.uniform
    assert weft.sym.contrib.uniform is weft.sym.random.uniform
    weft.random.seed(7)
    a = weft.nd.contrib.uniform(0, 1, shape=(3,)).asnumpy()
    weft.random.seed(7)
    np.testing.assert_array_equal(a, weft.nd.random.uniform(0, 1, shape=(3,)).asnumpy())
    assert weft.sym.contrib.check_call is weft.base.check_call
    weft.sym.contrib.check_call(0)
    with pytest.raises(weft.base.InvalidArgumentError):
        weft.sym.contrib.check_call(1)


@pytest.mark.parametrize("front", ["nd", "sym"])
def test_wiring_leaves_every_generated_function_in_place(front):
    # The import-time loops use module globals: none may shadow or delete an operator
    # function (an operator is called _mod, for one).
    mod = getattr(weft, front)
    for name, fn in mod._FUNCS.items():
        assert getattr(mod._internal, name) is fn
        assert hasattr(mod, name), "weft.%s.%s" % (front, name)
