"""weft.onnx.import_model of a small CNN exported by torch.onnx.export at
opsets 13 and 17 (issue 40 point 2, 'when torch is installed'): Conv with
groups and dilations, BatchNormalization, Relu, bilinear Resize, MaxPool with ceil_mode,
Flatten and Gemm (Linear), a dynamic batch, a view by the run-time batch size;
imported equal to ONNX Runtime.

torch is not a Weft dependency and CI does not install it: the export runs in
a subprocess of an interpreter that has torch -- this one when ``import
torch`` works, else the one WEFT_TORCH_PYTHON names -- and the test skips,
saying so, when there is none."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

from onnx_check import onnx, rel_err, run_onnx

import weft as mx

_EXPORT = r'''
import inspect, sys
import torch
torch.manual_seed(0)

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.b1 = torch.nn.BatchNorm2d(8)
        self.c2 = torch.nn.Conv2d(8, 8, 3, padding=2, dilation=2, groups=4, bias=False)
        self.b2 = torch.nn.BatchNorm2d(8)
        self.pool = torch.nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.fc = torch.nn.Linear(8 * 10 * 10, 10)  # 20x20 -> 10x10 only with ceil_mode

    def forward(self, x):
        x = self.b1(torch.relu(self.c1(x)))   # BatchNorm after Relu: not fused into the Conv
        x = torch.relu(self.b2(self.c2(x)))   # BatchNorm after Conv: torch may fuse it
        x = torch.nn.functional.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
        n = x.size(0)  # a view by a size read at run time: Shape -> Gather -> ... -> Reshape
        return self.fc(torch.flatten(self.pool(x), 1)).view(n, 2, 5)

net = Net()
with torch.no_grad():
    for bn in (net.b1, net.b2):
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 1.5)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.5, 0.5)
net.eval()
kw = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
for opset, path in zip((13, 17), sys.argv[1:]):
    torch.onnx.export(net, (torch.randn(2, 3, 10, 10),), path, opset_version=opset, input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": {0: "N"}, "y": {0: "N"}}, **kw)
'''


def _torch_python():
    if importlib.util.find_spec("torch") is not None:
        return sys.executable
    return os.environ.get("WEFT_TORCH_PYTHON")


@pytest.fixture(scope="module")
def torch_models(tmp_path_factory):
    python = _torch_python()
    if not python:
        pytest.skip("torch is not installed here and WEFT_TORCH_PYTHON names no interpreter that has it "
                    "(CI does not install torch; issue 40 checks torch exports when torch is installed)")
    d = tmp_path_factory.mktemp("torch_onnx")
    paths = [str(d / "cnn13.onnx"), str(d / "cnn17.onnx")]
    script = d / "export.py"
    script.write_text(_EXPORT)
    done = subprocess.run([python, str(script)] + paths, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(zip((13, 17), paths))


@pytest.mark.parametrize("opset", [13, 17])
def test_torch_exported_cnn_imports_equal_to_onnxruntime(opset, torch_models):
    path = torch_models[opset]
    model = onnx.load(path)
    assert model.opset_import[0].version == opset
    ops = {n.op_type for n in model.graph.node}
    assert {"Conv", "Relu", "MaxPool", "Flatten", "Gemm", "BatchNormalization", "Shape", "Reshape",
            "Resize"} <= ops, ops
    assert any(a.name == "ceil_mode" and a.i == 1 for n in model.graph.node for a in n.attribute)
    assert mx.onnx.get_model_metadata(path)["input_tensor_data"] == [("x", (None, 3, 10, 10))]
    sym, arg, aux = mx.onnx.import_model(path)
    for batch in (1, 3):
        x = np.random.RandomState(batch).uniform(-1, 1, (batch, 3, 10, 10)).astype(np.float32)
        ex = sym.bind(mx.cpu(), dict(arg, x=mx.nd.array(x)), aux_states=aux, grad_req="null")
        got = ex.forward(is_train=False)[0].asnumpy()
        assert rel_err(got, run_onnx(path, {"x": x})[0]) <= 1e-5
