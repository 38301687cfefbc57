"""weft.viz (MXNet 1.9.1's mx.viz): print_summary's table and plot_network's
graphviz.Digraph, checked against the layout, labels, colours and parameter
counts MXNet's visualization.py defines."""
import contextlib
import io
import shutil

import graphviz  # a dependency of weft.viz; scripts/setup.sh installs it (and the dot program)
import pytest

import weft as mx


def _net():
    data = mx.sym.var("data")
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="conv1")
    net = mx.sym.BatchNorm(net, name="bn1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=5, name="fc1")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def _row(fields, positions=(52, 76, 88, 120)):
    line = ""
    for field, edge in zip(fields, positions):
        line = (line + str(field))[:edge]
        line += " " * (edge - len(line))
    return line


def test_print_summary_table():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        mx.viz.print_summary(_net(), shape={"data": (1, 3, 8, 8)})
    rows = [("data(null)", "3x8x8", 0, ""),
            ("conv1(Convolution)", "4x6x6", 3 * 4 * 3 * 3 + 4, "data"),
            ("bn1(BatchNorm)", "4x6x6", 2 * 4, "conv1"),
            ("relu1(Activation)", "4x6x6", 0, "bn1"),
            ("pool1(Pooling)", "4x3x3", 0, "relu1"),
            ("flat(Flatten)", "36", 0, "pool1"),
            ("fc1(FullyConnected)", "5", (36 + 1) * 5, "flat"),
            ("softmax(SoftmaxOutput)", "5", 0, "fc1")]
    expect = ["_" * 120, _row(["Layer (type)", "Output Shape", "Param #", "Previous Layer"]), "=" * 120]
    for i, row in enumerate(rows):
        expect += [_row(row), ("=" if i == len(rows) - 1 else "_") * 120]
    expect += ["Total params: 305", "_" * 120]
    assert out.getvalue().splitlines() == expect


def test_print_summary_without_shapes_and_bad_input():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        mx.viz.print_summary(_net(), line_length=80)
    lines = out.getvalue().splitlines()
    # without shapes MXNet counts only the biases (4 + 5) and no BatchNorm parameters
    assert lines[3].startswith("data(null)") and lines[-2] == "Total params: 9"
    assert all(len(line) == 80 for line in lines if line.startswith(("conv1", "fc1")))
    with pytest.raises(TypeError, match="Symbol"):
        mx.viz.print_summary("not a symbol")


def _body(dot):
    return "\n".join(dot.body)


def test_plot_network_nodes_and_edges():
    dot = mx.viz.plot_network(_net(), title="net", shape={"data": (1, 3, 8, 8)})
    assert isinstance(dot, graphviz.Digraph) and dot.name == "net" and dot.format == "pdf"
    body = _body(dot)
    lines = {line.split(" [", 1)[0].strip(): line for line in dot.body if " -> " not in line}
    assert "shape=oval" in lines["data"] and 'fillcolor="#8dd3c7"' in lines["data"]
    assert 'label="Convolution\n3x3/1, 4"' in lines["conv1"] and 'fillcolor="#fb8072"' in lines["conv1"]
    assert 'fillcolor="#bebada"' in lines["bn1"]
    assert 'label="Activation\nrelu"' in lines["relu1"] and 'fillcolor="#ffffb3"' in lines["relu1"]
    assert 'label="Pooling\nmax, 2x2/2x2"' in lines["pool1"] and 'fillcolor="#80b1d3"' in lines["pool1"]
    assert 'fillcolor="#fdb462"' in lines["flat"]
    assert 'label="FullyConnected\n5"' in lines["fc1"]
    assert 'fillcolor="#fccde5"' in lines["softmax"]
    for line in lines.values():
        if line.startswith("\tconv1"):
            assert "fixedsize=true" in line and "width=1.3" in line and "height=0.8034" in line
    # weights hidden, edges point back to the inputs with the input's shape
    assert "conv1_weight" not in body and "bn1_gamma" not in body
    assert 'conv1 -> data [label="3x8x8" arrowtail=open dir=back]' in body
    assert 'fc1 -> flat [label=36 arrowtail=open dir=back]' in body
    assert "softmax -> softmax_label" in body  # labels are inputs, not weights


def test_plot_network_shows_weights_and_renders():
    dot = mx.viz.plot_network(_net(), hide_weights=False, node_attrs={"fontsize": "10"})
    body = _body(dot)
    assert "conv1 -> conv1_weight" in body and 'label=""' in body
    assert "fontsize=10" in body
    if shutil.which("dot") is None:
        pytest.fail("graphviz's dot program is missing; scripts/setup.sh installs it")
    svg = dot.pipe(format="svg").decode("utf-8")
    assert svg.lstrip().startswith("<?xml") and "conv1" in svg


def test_plot_network_errors():
    with pytest.raises(TypeError, match="Symbol"):
        mx.viz.plot_network(42)
    with pytest.raises(ValueError, match="incomplete"), pytest.warns(UserWarning, match="Cannot decide shape"):
        mx.viz.plot_network(mx.sym.dot(mx.sym.var("data"), mx.sym.var("w")), shape={"data": (1, 3)})


def test_plot_network_labels_dtypes():
    import numpy as np
    dot = mx.viz.plot_network(_net(), shape={"data": (1, 3, 8, 8)}, dtype={"data": np.float32})
    body = _body(dot)
    assert 'conv1 -> data [label="3x8x8(float32)" arrowtail=open dir=back]' in body
    assert 'fc1 -> flat [label="36(float32)" arrowtail=open dir=back]' in body
