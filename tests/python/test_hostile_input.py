"""Issue 22's findings that are regression tests now: input that used to be
accepted silently and came back wrong."""
import json

import numpy as np
import pytest

import weft as mx
from weft.base import WeftError


def test_a_float_dimension_is_refused_not_truncated():
    # int() made (2.5, 3) a (2, 3) array; NumPy refuses the float, and so do we.
    for shape in ((2.5, 3), 2.5, (2, np.float64(3.0))):
        with pytest.raises(TypeError, match="shape must be an int or a tuple of ints"):
            mx.nd.ones(shape)
    assert mx.nd.ones((np.int64(2), 3)).shape == (2, 3)  # NumPy integers stay fine
    assert mx.nd.zeros(4).shape == (4,)


def _symbol_json(name):
    return json.dumps({
        "nodes": [{"op": "null", "name": name, "inputs": []},
                  {"op": "relu", "name": "r", "inputs": [[0, 0, 0]]}],
        "arg_nodes": [0], "node_row_ptr": [0, 1, 2], "heads": [[1, 0, 0]],
        "attrs": {"mxnet_version": ["int", 10901]}})


def test_a_nul_inside_a_json_string_is_refused():
    # A name holding \u0000 came back cut short through the C ABI, and the JSON
    # written for it did not load again.
    assert mx.sym.load_json(_symbol_json("data")).list_arguments() == ["data"]
    with pytest.raises(WeftError, match="NUL"):
        mx.sym.load_json(_symbol_json("da\u0000ta"))
