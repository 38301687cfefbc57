"""Every vision network of weft.gluon.model_zoo, hybridized, exported to ONNX
(weft.onnx.export_model), checked by onnx.checker and run in ONNX Runtime,
equals Weft's own output, and imported back (weft.onnx.import_model) equals it
again (issue 40; onnx_check.check_zoo_net). The nets with the most parameters
(VGG, ResNet-101/152, AlexNet) are in test_onnx_export_zoo_large.py."""
import pytest

from onnx_check import check_zoo_net
from weft.gluon.model_zoo import vision

SMALL = ["resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet18_v2", "resnet34_v2", "resnet50_v2",
         "densenet121", "densenet161", "densenet169", "densenet201", "inceptionv3",
         "squeezenet1.0", "squeezenet1.1", "mobilenet1.0", "mobilenet0.75", "mobilenet0.5",
         "mobilenet0.25", "mobilenetv2_1.0", "mobilenetv2_0.75", "mobilenetv2_0.5", "mobilenetv2_0.25"]
LARGE = ["resnet101_v1", "resnet152_v1", "resnet101_v2", "resnet152_v2", "vgg11", "vgg13", "vgg16", "vgg19",
         "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn", "alexnet"]


def test_the_two_lists_are_the_whole_zoo():
    # A net added to the zoo must be added to one of them. _MODELS holds MXNet's names
    # and, as aliases, the constructor names; a constructor named as in MXNet has one key.
    models = vision._MODELS
    mxnet_names = {k for k, f in models.items()
                   if k != f.__name__ or sum(v is f for v in models.values()) == 1}
    assert sorted(SMALL + LARGE) == sorted(mxnet_names)


@pytest.mark.parametrize("name", SMALL)
def test_zoo_net_exports_and_imports_back_equal(name, tmp_path):
    check_zoo_net(name, tmp_path)
