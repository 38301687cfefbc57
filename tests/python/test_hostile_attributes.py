"""Issue 22, point 2: count-like attributes are bounded in one place
(core/opdef/param_bounds.cc) before anything allocates or loops, and symbol files
whose declared counts do not match their inputs are refused at load."""
import json
import time

import pytest

import weft as mx
from weft.base import WeftError


def _doc(op, attrs, n_inputs=1):
    nodes = [{"op": "null", "name": "x%d" % i, "inputs": []} for i in range(n_inputs)]
    nodes.append({"op": op, "name": "y", "attrs": attrs, "inputs": [[i, 0, 0] for i in range(n_inputs)]})
    return json.dumps({"nodes": nodes, "arg_nodes": list(range(n_inputs)),
                       "node_row_ptr": list(range(len(nodes) + 1)), "heads": [[n_inputs, 0, 0]],
                       "attrs": {"mxnet_version": ["int", 10901]}})


@pytest.mark.parametrize("op,attrs,n_inputs,param", [
    # split built one output name per num_outputs: 4294967295 of them.
    ("SliceChannel", {"num_outputs": "4294967295"}, 1, "num_outputs"),
    ("SliceChannel", {"num_outputs": "1000000000"}, 1, "num_outputs"),
    ("SliceChannel", {"num_outputs": "0"}, 1, "num_outputs"),
    ("Concat", {"num_args": "4294967295"}, 1, "num_args"),
    ("Convolution", {"kernel": "(3, 3)", "num_filter": "-4"}, 3, "num_filter"),
    ("Convolution", {"kernel": "(3, 3)", "num_filter": "4294967296"}, 3, "num_filter"),
    ("Convolution", {"kernel": "(3, 3, 3, 3)", "num_filter": "4"}, 3, "kernel"),
    ("Convolution", {"kernel": "(3, 3)", "stride": "(0, 1)", "num_filter": "4"}, 3, "stride"),
    ("Convolution", {"kernel": "(3, 3)", "pad": "(-1, 0)", "num_filter": "4"}, 3, "pad"),
    ("Convolution", {"kernel": "(3, 3)", "dilate": "(1, 9999999999)", "num_filter": "4"}, 3, "dilate"),
    ("Convolution", {"kernel": "(3, 3)", "num_group": "0", "num_filter": "4"}, 3, "num_group"),
    ("Pooling", {"kernel": "(2, 2)", "stride": "(0, 0)"}, 1, "stride"),
    ("FullyConnected", {"num_hidden": "0"}, 3, "num_hidden"),
    ("RNN", {"state_size": "4", "num_layers": "1000000000", "mode": "lstm"}, 4, "num_layers"),
    ("RNN", {"state_size": "-1", "num_layers": "1", "mode": "lstm"}, 4, "state_size"),
])
def test_out_of_range_counts_are_refused_at_load(op, attrs, n_inputs, param):
    t0 = time.monotonic()
    with pytest.raises(WeftError, match=param):
        mx.sym.load_json(_doc(op, attrs, n_inputs))
    assert time.monotonic() - t0 < 5


def test_the_same_bounds_hold_for_imperative_calls():
    x = mx.nd.ones((1, 3, 8, 8))
    w = mx.nd.ones((4, 3, 3, 3))
    with pytest.raises(WeftError, match="stride"):
        mx.nd.Convolution(x, w, kernel=(3, 3), stride=(0, 0), num_filter=4, no_bias=True).wait_to_read()
    with pytest.raises(WeftError, match="num_outputs"):
        mx.nd.split(x, num_outputs=2 ** 32 - 1, axis=1)
    # In-range values still work.
    assert mx.nd.Convolution(x, w, kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=4,
                             no_bias=True).shape == (1, 4, 4, 4)
    assert len(mx.nd.split(x, num_outputs=3, axis=1)) == 3


@pytest.mark.parametrize("op,attrs,n_inputs", [
    ("Concat", {"num_args": "3"}, 1),     # declares three inputs, has one
    ("Concat", {"num_args": "1"}, 3),     # declares one, has three
    ("add_n", {"num_args": "2"}, 5),
    ("relu", {}, 2),                      # a fixed-arity op with an extra input
])
def test_declared_counts_must_match_the_inputs(op, attrs, n_inputs):
    with pytest.raises(WeftError, match="input"):
        mx.sym.load_json(_doc(op, attrs, n_inputs))


def test_a_head_past_the_outputs_is_refused():
    doc = json.loads(_doc("SliceChannel", {"num_outputs": "2"}))
    doc["heads"] = [[1, 5, 0]]  # split has outputs 0 and 1
    with pytest.raises(WeftError, match="output"):
        mx.sym.load_json(json.dumps(doc))
