"""Every vision network of weft.gluon.model_zoo, hybridized, exported to ONNX
(weft.onnx.export_model), checked by onnx.checker and run in ONNX Runtime,
equals Weft's own output (issue 40). Inputs are as small as each net allows:
32x32 where the net has no fixed-size pooling; AlexNet 64x64; SqueezeNet and
DenseNet 224x224 (their final 13x13 / 7x7 poolings); Inception V3 299x299."""
import numpy as np
import pytest

from onnx_check import onnx, rel_err, randomize_block, run_onnx  # noqa: F401  (skips without onnx)

import weft as mx
from weft.gluon.model_zoo import vision

_SIZE = {"alexnet": 64, "squeezenet1.0": 224, "squeezenet1.1": 224, "inceptionv3": 299,
         "densenet121": 224, "densenet161": 224, "densenet169": 224, "densenet201": 224}
_NETS = ["resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1",
         "resnet18_v2", "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2",
         "vgg11", "vgg13", "vgg16", "vgg19", "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn",
         "alexnet", "densenet121", "densenet161", "densenet169", "densenet201", "inceptionv3",
         "squeezenet1.0", "squeezenet1.1", "mobilenet1.0", "mobilenet0.75", "mobilenet0.5",
         "mobilenet0.25", "mobilenetv2_1.0", "mobilenetv2_0.75", "mobilenetv2_0.5",
         "mobilenetv2_0.25"]


def test_the_list_is_the_whole_zoo():
    # A net added to the zoo must be added here too. _MODELS holds MXNet's names and,
    # as aliases, the constructor names; a constructor named as in MXNet has one key.
    models = vision._MODELS
    mxnet_names = {k for k, f in models.items()
                   if k != f.__name__ or sum(v is f for v in models.values()) == 1}
    assert set(_NETS) == mxnet_names


@pytest.mark.parametrize("name", _NETS)
def test_zoo_net_exports_equal(name, tmp_path):
    size = _SIZE.get(name, 32)
    x = np.random.RandomState(1).uniform(-1, 1, (1, 3, size, size)).astype(np.float32)
    net = vision.get_model(name, classes=10)
    net.initialize(mx.init.Xavier())
    net.hybridize()
    net(mx.nd.array(x))
    randomize_block(net)
    want = net(mx.nd.array(x)).asnumpy()
    prefix = str(tmp_path / name)
    net.export(prefix)
    path = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [x.shape],
                                np.float32, str(tmp_path / "model.onnx"))
    onnx.checker.check_model(path)
    got = run_onnx(path, {"data": x})[0]
    assert rel_err(got, want) <= 1e-5
