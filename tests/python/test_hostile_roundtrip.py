"""Issue 22, point 4: the round-trip invariant over the MXNet fixtures and a few
hundred seeded mutations of them. A symbol file either fails to load with a
WeftError or it loads, re-saves, and the re-saved JSON loads to the same graph
(same nodes, attributes and heads); the same for .params files. The fuzzer found
1,785 mutated symbol files whose re-saved JSON did not load again."""
import json
import os
import random

import numpy as np
import pytest

import weft as mx
from weft.base import WeftError

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "fixtures")
SYMBOLS = ["sym_misc.json", "cnn-symbol.json"]
PARAMS = ["nd_dict.params", "nd_list.params", "nd_single.params", "nd_empty.params", "cnn-0000.params"]
MUTATIONS_PER_SYMBOL = 150  # 300 symbol files, about 2 s
MUTATIONS_PER_PARAMS = 60   # 300 .params files, under a second

# Values a hostile or damaged file could hold in an attribute.
ODD_VALUES = ["0", "-1", "1", "2", "4294967295", "1e9", "nan", "inf", "()", "(0,)", "(0, 0)", "(3, 3)",
              "(1, 1, 1, 1, 1)", "(-1, 0)", "(17, 1085102592571150096)", "None", "True", "false", "abc",
              "", " ", "[1, 2]", "(2,", "\u00e9t\u00e9", "sum", "float16", "int64", "9" * 40]
OPS = ["relu", "Convolution", "Pooling", "Concat", "SliceChannel", "Reshape", "FullyConnected", "BatchNorm",
       "elemwise_add", "_mul_scalar", "sum", "Flatten", "Dropout", "null", "NoSuchOp", "transpose", "split"]


def _read(name, mode="r"):
    with open(os.path.join(FIXTURES, name), mode) as f:
        return f.read()


def _mutate_symbol(doc, rng):
    """One to three structural edits of a parsed symbol document."""
    doc = json.loads(json.dumps(doc))
    nodes = doc["nodes"]
    for _ in range(rng.randint(1, 3)):
        node = rng.choice(nodes)
        kind = rng.randrange(11)
        attrs = node.setdefault("attrs", {})
        if kind == 0 and attrs:          # an attribute gets an odd value
            attrs[rng.choice(sorted(attrs))] = rng.choice(ODD_VALUES)
        elif kind == 1 and attrs:        # an attribute disappears
            del attrs[rng.choice(sorted(attrs))]
        elif kind == 2:                  # an attribute appears
            attrs[rng.choice(["num_args", "num_outputs", "kernel", "stride", "pad", "axis", "shape",
                              "num_filter", "no_bias", "__shape__", "__dtype__", "odd"])] = rng.choice(ODD_VALUES)
        elif kind == 3:                  # the op changes
            node["op"] = rng.choice(OPS)
        elif kind == 4 and node["inputs"]:  # an input points elsewhere
            e = rng.choice(node["inputs"])
            e[rng.randrange(len(e))] = rng.choice([0, 1, -1, len(nodes), len(nodes) - 1, 2, 7])
        elif kind == 5 and node["inputs"]:  # an input goes away
            node["inputs"].pop(rng.randrange(len(node["inputs"])))
        elif kind == 6:                  # an input is added
            node["inputs"].append([rng.randrange(len(nodes)), 0, 0])
        elif kind == 7:                  # a head changes
            doc["heads"] = [[rng.choice([0, len(nodes) - 1, len(nodes), -1]), rng.choice([0, 1, 3]), 0]]
        elif kind == 8:                  # a name changes: empty, duplicated or odd
            node["name"] = rng.choice(["", nodes[0]["name"], "a b", "x\u00e9", "data"])
        elif kind == 9:                  # bookkeeping lists damaged
            key = rng.choice(["arg_nodes", "node_row_ptr", "heads"])
            doc[key] = rng.choice([[], [0], list(range(len(nodes) + 3)), doc.get(key, [])[::-1]])
        else:                            # the version marker changes (old files get upgraded)
            doc.setdefault("attrs", {})["mxnet_version"] = ["int", rng.choice([800, 10300, 10901, 20000, -1])]
    return json.dumps(doc)


def _mutate_text(text, rng):
    """A byte-level edit: a cut, a flipped character or a deleted span."""
    i = rng.randrange(len(text))
    kind = rng.randrange(3)
    if kind == 0:
        return text[:i]
    if kind == 1:
        return text[:i] + rng.choice('{}[]",:0-9aZ\\ ') + text[i + 1:]
    return text[:i] + text[i + rng.randint(1, 40):]


def _graph(sym):
    """What 'the same graph' means: every node's op, name, attributes and inputs, and the heads."""
    doc = json.loads(sym.tojson())
    nodes = [(n["op"], n["name"], n.get("attrs", {}), n["inputs"]) for n in doc["nodes"]]
    return nodes, doc["heads"], doc["arg_nodes"]


def _check_symbol_round_trip(text):
    try:
        sym = mx.sym.load_json(text)
    except WeftError:
        return "refused"
    saved = sym.tojson()
    again = mx.sym.load_json(saved)  # must not raise: the invariant
    assert _graph(again) == _graph(sym)
    assert again.tojson() == saved
    assert again.list_arguments() == sym.list_arguments()
    assert again.list_outputs() == sym.list_outputs()
    assert again.list_auxiliary_states() == sym.list_auxiliary_states()
    assert again.attr_dict() == sym.attr_dict()
    return "round-tripped"


@pytest.mark.parametrize("name", SYMBOLS)
def test_symbol_fixture_round_trips(name):
    assert _check_symbol_round_trip(_read(name)) == "round-tripped"


@pytest.mark.parametrize("name", SYMBOLS)
def test_mutated_symbols_are_refused_or_round_trip(name):
    rng = random.Random("weft-issue-22-" + name)
    text = _read(name)
    doc = json.loads(text)
    seen = {"refused": 0, "round-tripped": 0}
    for i in range(MUTATIONS_PER_SYMBOL):
        mutated = _mutate_symbol(doc, rng) if i % 3 else _mutate_text(text, rng)
        try:
            seen[_check_symbol_round_trip(mutated)] += 1
        except Exception as e:  # pragma: no cover - the message names the input that broke
            raise AssertionError("mutation %d broke the round trip: %r\n%s" % (i, e, mutated)) from e
    # Both outcomes occur, or the mutations are not testing anything.
    assert seen["refused"] > 10 and seen["round-tripped"] > 10, seen


def _check_params_round_trip(data, tmp_path):
    src = tmp_path / "in.params"
    src.write_bytes(data)
    try:
        loaded = mx.nd.load(str(src))
    except WeftError:
        return "refused"
    items = list(loaded.items()) if isinstance(loaded, dict) else list(enumerate(loaded))
    out = tmp_path / "out.params"
    mx.nd.save(str(out), loaded)
    again = mx.nd.load(str(out))
    again_items = list(again.items()) if isinstance(again, dict) else list(enumerate(again))
    assert [k for k, _ in again_items] == [k for k, _ in items]
    for (_, a), (_, b) in zip(items, again_items):
        assert (a.shape, a.dtype, a.context) == (b.shape, b.dtype, b.context)
        assert a.asnumpy().tobytes() == b.asnumpy().tobytes()
    out2 = tmp_path / "out2.params"
    mx.nd.save(str(out2), again)
    assert out2.read_bytes() == out.read_bytes()
    return "round-tripped"


@pytest.mark.parametrize("name", PARAMS)
def test_params_fixture_round_trips(name, tmp_path):
    assert _check_params_round_trip(_read(name, "rb"), tmp_path) == "round-tripped"


def _mutate_bytes(data, rng):
    b = bytearray(data)
    kind = rng.randrange(4)
    i = rng.randrange(len(b))
    if kind == 0:
        return bytes(b[:i])
    if kind == 1:
        b[i] ^= 1 << rng.randrange(8)
    elif kind == 2:  # a header word (count, ndim, dim, device, dtype) gets an odd value
        i -= i % 4
        b[i:i + 4] = rng.choice([0, 1, 2, 0xFFFFFFFF, 0x7FFFFFFF, 999, 12]).to_bytes(4, "little")
    else:
        b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(b)


@pytest.mark.parametrize("name", PARAMS)
def test_mutated_params_are_refused_or_round_trip(name, tmp_path):
    rng = random.Random("weft-issue-22-" + name)
    data = _read(name, "rb")
    seen = {"refused": 0, "round-tripped": 0}
    for i in range(MUTATIONS_PER_PARAMS):
        mutated = _mutate_bytes(data, rng)
        try:
            seen[_check_params_round_trip(mutated, tmp_path)] += 1
        except Exception as e:  # pragma: no cover
            raise AssertionError("mutation %d broke the round trip: %r" % (i, e)) from e
    assert seen["refused"] > 0 and seen["round-tripped"] > 0, seen
