"""Network visualisation (MXNet 1.9.1's ``mx.viz``): ``print_summary`` prints a
symbol's layer table, ``plot_network`` returns a ``graphviz.Digraph`` of it.

Both read the symbol's JSON, so they show exactly the graph that would be saved
(``-symbol.json``), with MXNet's labels, colours, column layout and parameter
counts (including MXNet's quirks, noted where they matter: the parameter counts
come from the first dimension after the batch of each input, so a
FullyConnected after a Convolution counts channels, not features).

``plot_network`` needs the ``graphviz`` Python package, and rendering
(``dot.render()``) its ``dot`` program.
"""
import copy
import json
import re
import warnings

from .base import ArgumentTypeError, InvalidArgumentError
from .symbol import Symbol

__all__ = ["print_summary", "plot_network"]

# MXNet's colour map: inputs, conv/fc, activations, batchnorm, pooling, shape ops, softmax, the rest.
_COLOURS = ("#8dd3c7", "#fb8072", "#ffffb3", "#bebada", "#80b1d3", "#fdb462", "#b3de69", "#fccde5")
_WEIGHT_SUFFIXES = ("_weight", "_bias", "_beta", "_gamma", "_moving_var", "_moving_mean", "_running_var",
                    "_running_mean")


def _str2tuple(string):
    """The integers of an attribute string such as '(3, 3)', as strings."""
    return re.findall(r"\d+", string)


def _check_symbol(symbol):
    if not isinstance(symbol, Symbol):
        raise ArgumentTypeError("symbol must be a Symbol, got %s" % type(symbol).__name__)


def _internal_shapes(symbol, shape):
    internals = symbol.get_internals()
    _, out_shapes, _ = internals.infer_shape(**shape)
    if out_shapes is None:
        raise InvalidArgumentError("Input shape is incomplete: %s does not determine every shape" % (shape,))
    return dict(zip(internals.list_outputs(), out_shapes))


def _attrs(node):
    return node.get("attrs", node.get("attr", node.get("param", {}))) or {}


def print_summary(symbol, shape=None, line_length=120, positions=(.44, .64, .74, 1.)):
    """Prints the layer table of symbol: each operator's name and type, its
    output shape (without the batch dimension; needs ``shape``, a dict of input
    name -> shape), its parameter count (Convolution, FullyConnected,
    BatchNorm, Embedding) and the layers it reads; then the total.

    Parameters
    ----------
    symbol : Symbol
    shape : dict of str to tuple, or None
    line_length : int
        Width of the table.
    positions : sequence of float or int
        Right edges of the four columns, as fractions of line_length (or characters).
    """
    _check_symbol(symbol)
    show_shape = shape is not None
    shape_dict = _internal_shapes(symbol, shape) if show_shape else {}
    conf = json.loads(symbol.tojson())
    nodes = conf["nodes"]
    # MXNet takes the set of the first head entry ([node, index, version]), so node 0 counts as a head too.
    heads = set(conf["heads"][0])
    positions = list(positions)
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]

    def print_row(fields):
        line = ""
        for i, field in enumerate(fields):
            line += str(field)
            line = line[:positions[i]]
            line += " " * (positions[i] - len(line))
        print(line)

    def output_key(node):
        return node["name"] + "_output" if node["op"] != "null" else node["name"]

    def layer_summary(node, out_shape):
        op = node["op"]
        attrs = _attrs(node)
        previous = []
        pre_filter = 0
        if op != "null":
            for item in node["inputs"]:
                input_node = nodes[item[0]]
                if input_node["op"] != "null" or item[0] in heads:
                    previous.append(input_node["name"])
                    key = output_key(input_node)
                    if show_shape and key in shape_dict:
                        pre_filter += int(shape_dict[key][1:][0])
        params = 0
        no_bias = attrs.get("no_bias") == "True"
        if op == "Convolution":
            params = pre_filter * int(attrs["num_filter"]) // int(attrs.get("num_group", "1"))
            for k in _str2tuple(attrs["kernel"]):
                params *= int(k)
            if not no_bias:
                params += int(attrs["num_filter"])
        elif op == "FullyConnected":
            params = (pre_filter if no_bias else pre_filter + 1) * int(attrs["num_hidden"])
        elif op == "BatchNorm":
            if show_shape:
                params = int(shape_dict[node["name"] + "_output"][1]) * 2
        elif op == "Embedding":
            params = int(attrs["input_dim"]) * int(attrs["output_dim"])
        print_row([node["name"] + "(" + op + ")", "x".join(str(x) for x in out_shape), params,
                   previous[0] if previous else ""])
        for name in previous[1:]:
            print_row(["", "", "", name])
        return params

    print("_" * line_length)
    print_row(["Layer (type)", "Output Shape", "Param #", "Previous Layer"])
    print("=" * line_length)
    total_params = 0
    for i, node in enumerate(nodes):
        if node["op"] == "null" and i > 0:
            continue
        out_shape = []
        if show_shape and (node["op"] != "null" or i in heads):
            key = output_key(node)
            if key in shape_dict:
                out_shape = shape_dict[key][1:]
        total_params += layer_summary(node, out_shape)
        print(("=" if i == len(nodes) - 1 else "_") * line_length)
    print("Total params: {params}".format(params=total_params))
    print("_" * line_length)


def _node_label_and_colour(node):
    op, name, attrs = node["op"], node["name"], _attrs(node)
    if op == "Convolution":
        return ("Convolution\n{kernel}/{stride}, {filter}".format(
            kernel="x".join(_str2tuple(attrs["kernel"])),
            stride="x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1",
            filter=attrs["num_filter"]), _COLOURS[1])
    if op == "FullyConnected":
        return "FullyConnected\n{hidden}".format(hidden=attrs["num_hidden"]), _COLOURS[1]
    if op == "BatchNorm":
        return name, _COLOURS[3]
    if op == "Activation":
        return "Activation\n{activation}".format(activation=attrs["act_type"]), _COLOURS[2]
    if op == "LeakyReLU":
        return "LeakyReLU\n{activation}".format(activation=attrs.get("act_type", "Leaky")), _COLOURS[2]
    if op == "Pooling":
        return ("Pooling\n{pooltype}, {kernel}/{stride}".format(
            pooltype=attrs["pool_type"],
            kernel="x".join(_str2tuple(attrs["kernel"])) if "kernel" in attrs else "[]",
            stride="x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1"), _COLOURS[4])
    if op in ("Concat", "Flatten", "Reshape"):
        return name, _COLOURS[5]
    if op == "Softmax":
        return name, _COLOURS[6]
    if op == "Custom":
        return attrs["op_type"], _COLOURS[7]
    return name, _COLOURS[7]


def plot_network(symbol, title="plot", save_format="pdf", shape=None, dtype=None, node_attrs=None,
                 hide_weights=True):
    """A ``graphviz.Digraph`` of symbol, drawn as MXNet 1.9.1 draws it: inputs
    as ovals, operators as filled boxes labelled with their settings, edges
    from each operator back to its inputs, labelled with the input's shape
    (without the batch dimension) when ``shape`` is given and with its dtype
    when ``dtype`` is given.

    Parameters
    ----------
    symbol : Symbol
    title : str
        The graph's name (and file name when rendered).
    save_format : str
        The format ``render()`` writes ('pdf', 'png', 'svg' ...).
    shape, dtype : dict of str to tuple / numpy dtype, or None
        Input shapes / types to label the edges with.
    node_attrs : dict or None
        Graphviz node attributes overriding MXNet's defaults (box 1.3 x 0.8034, filled).
    hide_weights : bool
        Leave out parameters (names ending in _weight, _bias, _gamma ...) and their edges.
    """
    try:
        # graphviz is optional: only plot_network needs it.
        from graphviz import Digraph  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise ImportError("Draw network requires graphviz library (pip install graphviz; the dot program "
                          "is Debian's graphviz package)") from None
    _check_symbol(symbol)
    shape_dict = _internal_shapes(symbol, shape) if shape is not None else None
    type_dict = None
    if dtype is not None:
        internals = symbol.get_internals()
        _, out_types, _ = internals.infer_type(**dtype)
        if out_types is None:
            raise InvalidArgumentError("Input type is incomplete: %s does not determine every type" % (dtype,))
        type_dict = dict(zip(internals.list_outputs(), out_types))
    nodes = json.loads(symbol.tojson())["nodes"]
    names = [node["name"] for node in nodes]
    if len(names) != len(set(names)):
        seen = set()
        repeated = sorted({n for n in names if n in seen or seen.add(n)})
        warnings.warn("There are multiple variables with the same name in your graph, this may result in cyclic "
                      "graph. Repeated names: " + ",".join(repeated), RuntimeWarning, stacklevel=2)
    node_attr = {"shape": "box", "fixedsize": "true", "width": "1.3", "height": "0.8034", "style": "filled"}
    node_attr.update(node_attrs or {})
    dot = Digraph(name=title, format=save_format)
    hidden_nodes = set()
    for node in nodes:
        attr = copy.deepcopy(node_attr)
        if node["op"] == "null":
            if node["name"].endswith(_WEIGHT_SUFFIXES):
                if hide_weights:
                    hidden_nodes.add(node["name"])
                # shown weights get no node of their own: graphviz draws them as plain ovals from the edges
                continue
            attr["shape"] = "oval"
            label, attr["fillcolor"] = node["name"], _COLOURS[0]
        else:
            label, attr["fillcolor"] = _node_label_and_colour(node)
        dot.node(name=node["name"], label=label, **attr)
    for node in nodes:
        if node["op"] == "null":
            continue
        inputs = node["inputs"]
        if node["op"] == "_contrib_BilinearResize2D":
            inputs = inputs[:1]
        for item in inputs:
            input_node = nodes[item[0]]
            input_name = input_node["name"]
            if input_name in hidden_nodes:
                continue
            attr = {"dir": "back", "arrowtail": "open", "label": ""}
            key = input_name
            if input_node["op"] != "null":
                key = input_name + "_output"
                params = _attrs(input_node)
                if "num_outputs" in params:  # MXNet labels a multi-output input with its last output
                    key += str(int(params["num_outputs"]) - 1)
            if shape_dict is not None:
                attr["label"] = "x".join(str(x) for x in shape_dict[key][1:])
            if type_dict is not None:
                attr["label"] += "(" + type_dict[key].__name__ + ")"
            dot.edge(tail_name=node["name"], head_name=input_name, **attr)
    return dot
