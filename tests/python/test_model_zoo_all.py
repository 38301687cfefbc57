"""Every network MXNet 1.9.1's model_zoo.vision.get_model knows builds, infers
(1, 1000) for its published input size, and runs one forward (batch 1, the
smallest input its architecture accepts); the ones test_model_zoo.py does not
already run are run here. DenseNet and Inception V3 (new here) also have
torchvision's parameter counts (the same architectures; Inception V3 without
the auxiliary classifier, which MXNet's model zoo does not build) and MXNet's
parameter names."""
import numpy as np
import pytest

import weft as mx
from weft.gluon.model_zoo import vision

MXNET_191_NAMES = ["resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1", "resnet18_v2",
                   "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2", "vgg11", "vgg13", "vgg16", "vgg19",
                   "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn", "alexnet", "densenet121", "densenet161",
                   "densenet169", "densenet201", "squeezenet1.0", "squeezenet1.1", "inceptionv3", "mobilenet1.0",
                   "mobilenet0.75", "mobilenet0.5", "mobilenet0.25", "mobilenetv2_1.0", "mobilenetv2_0.75",
                   "mobilenetv2_0.5", "mobilenetv2_0.25"]

# run here: name -> (published input side, smallest side for the forward, trainable count or None)
NEW_FORWARDS = {
    "resnet101_v1": (224, 32, None), "resnet152_v1": (224, 32, None), "resnet101_v2": (224, 32, None),
    "resnet152_v2": (224, 32, None), "vgg13": (224, 32, 133047848), "vgg19": (224, 32, 143667240),
    "vgg13_bn": (224, 32, 133053736), "vgg19_bn": (224, 32, 143678248), "squeezenet1.0": (224, 224, 1248424),
    "densenet121": (224, 224, 7978856), "densenet161": (224, 224, 28681000), "densenet169": (224, 224, 14149480),
    "densenet201": (224, 224, 20013928), "inceptionv3": (299, 299, 23834568),
    "mobilenet0.75": (224, 32, None), "mobilenet0.5": (224, 32, None), "mobilenet0.25": (224, 32, None),
    "mobilenetv2_0.75": (224, 32, None), "mobilenetv2_0.5": (224, 32, None), "mobilenetv2_0.25": (224, 32, None),
}


@pytest.fixture(autouse=True)
def fresh_names():
    with mx.name.NameManager():
        yield


def test_every_mxnet_191_name_builds():
    for name in MXNET_191_NAMES:
        assert isinstance(vision.get_model(name), mx.gluon.HybridBlock), name
        assert isinstance(mx.gluon.model_zoo.get_model(name), mx.gluon.HybridBlock), name


@pytest.mark.parametrize("name", sorted(NEW_FORWARDS))
def test_shapes_counts_and_one_forward(name):
    side, small, count = NEW_FORWARDS[name]
    out = vision.get_model(name)(mx.sym.var("data"))
    arg_shapes, out_shapes, _ = out.infer_shape(data=(1, 3, side, side))
    assert out_shapes == [(1, 1000)]
    if count is not None:
        assert sum(int(np.prod(s)) for n, s in zip(out.list_arguments(), arg_shapes) if n != "data") == count
    net = vision.get_model(name, classes=10)
    net.initialize(mx.init.Xavier())
    y = net(mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (1, 3, small, small)))).asnumpy()
    assert y.shape == (1, 10) and np.all(np.isfinite(y))


def test_densenet_and_inception_names_and_errors():
    names = list(vision.densenet121().collect_params())
    assert names[:2] == ["densenet0_conv0_weight", "densenet0_batchnorm0_gamma"]
    assert "densenet0_stage1_conv0_weight" in names and "densenet0_stage4_conv31_weight" in names
    assert names[-2:] == ["densenet0_dense0_weight", "densenet0_dense0_bias"]
    names = list(vision.inception_v3().collect_params())
    assert names[0] == "inception30_conv0_weight"
    assert "inception30_A1_conv0_weight" in names and "inception30_E2_conv8_weight" in names
    assert names[-1] == "inception30_dense0_bias"
    for name in ("densenet169", "inceptionv3"):
        with pytest.raises(mx.InvalidArgumentError, match="download"):
            vision.get_model(name, pretrained=True)
    with pytest.raises(ValueError, match="Invalid number of layers"):
        vision.get_densenet(100)
