"""weft.gluon.model_zoo.vision: every network builds, infers (1, classes) for a
224x224 image symbolically, and has the parameter count of MXNet's model zoo;
each runs forward on the smallest input its architecture accepts, hybridized
too; parameter names are MXNet's; get_model's names and pretrained=True.

Parameter counts are trainable parameters (BatchNorm's running statistics
excluded). Where MXNet's architecture differs from torchvision's the MXNet
count is the one expected: ResNet-50 V1 has biases on the bottleneck's two
1x1 convolutions (+18,880 over torchvision's 25,557,032) and MobileNetV2 keeps
the first block's expansion convolution and a bias-free 1x1-convolution
classifier (+1,088 - 1,000 over torchvision's 3,504,872).
"""
import numpy as np
import pytest

import weft as mx
from weft import autograd
from weft.gluon.model_zoo import vision

# name -> (trainable parameters for 1000 classes and 224x224 inputs, smallest input side for a forward)
MODELS = {
    "resnet18_v1": (11689512, 32),
    "resnet34_v1": (21797672, 32),
    "resnet50_v1": (25575912, 32),
    "resnet18_v2": (11687854, 32),
    "resnet34_v2": (21796014, 32),
    "resnet50_v2": (25549486, 32),
    "vgg11": (132863336, 32),
    "vgg16": (138357544, 32),
    "vgg11_bn": (132868840, 32),
    "vgg16_bn": (138365992, 32),
    "alexnet": (61100840, 63),
    "mobilenet1_0": (4231976, 32),
    "mobilenet_v2_1_0": (3504960, 32),
    "squeezenet1_1": (1235496, 224),
}


@pytest.fixture(autouse=True)
def fresh_names():
    with mx.name.NameManager():
        yield


def symbolic_counts(net, side=224):
    """(output shapes, trainable count, auxiliary count) from shape inference alone."""
    out = net(mx.sym.var("data"))
    arg_shapes, out_shapes, aux_shapes = out.infer_shape(data=(1, 3, side, side))
    trainable = sum(int(np.prod(s)) for n, s in zip(out.list_arguments(), arg_shapes) if n != "data")
    return out_shapes, trainable, sum(int(np.prod(s)) for s in aux_shapes)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_output_shape_and_parameter_count(name):
    out_shapes, trainable, _ = symbolic_counts(vision.get_model(name))
    assert out_shapes == [(1, 1000)]
    assert trainable == MODELS[name][0]


def test_published_counts_that_match_torchvision():
    # The counts usually quoted for these (torchvision / Keras) agree with MXNet's architectures.
    for name, count in [("resnet18_v1", 11689512), ("vgg16", 138357544), ("alexnet", 61100840),
                        ("mobilenet1_0", 4231976), ("squeezenet1_1", 1235496)]:
        assert MODELS[name][0] == count


@pytest.mark.parametrize("name", sorted(MODELS))
def test_forward_and_hybridize(name):
    side = MODELS[name][1]
    net = vision.get_model(name, classes=10)
    net.initialize(mx.init.Xavier())
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (1, 3, side, side)))
    out = net(x).asnumpy()
    assert out.shape == (1, 10)
    assert np.all(np.isfinite(out))
    net.hybridize()
    hybrid = net(x).asnumpy()
    scale = max(np.abs(out).max(), 1e-30)
    np.testing.assert_allclose(hybrid / scale, out / scale, rtol=1e-4, atol=1e-4)


def test_collect_params_agree_with_symbolic_shapes():
    net = vision.resnet18_v1(classes=7)
    net.initialize(mx.init.Xavier())
    net(mx.nd.zeros((1, 3, 32, 32)))
    params = net.collect_params()
    trainable = sum(p.data().size for p in params.values() if p.grad_req != "null")
    _, expected, aux = symbolic_counts(vision.resnet18_v1(classes=7))
    assert trainable == expected
    assert sum(p.data().size for p in params.values() if p.grad_req == "null") == aux


def test_parameter_names_are_mxnets():
    names = list(vision.resnet18_v1().collect_params())
    assert names[:5] == ["resnetv10_conv0_weight", "resnetv10_batchnorm0_gamma", "resnetv10_batchnorm0_beta",
                         "resnetv10_batchnorm0_running_mean", "resnetv10_batchnorm0_running_var"]
    assert "resnetv10_stage1_conv0_weight" in names
    assert "resnetv10_stage2_conv2_weight" in names            # stage 2's shortcut projection
    assert names[-2:] == ["resnetv10_dense0_weight", "resnetv10_dense0_bias"]
    names = list(vision.resnet50_v2().collect_params())
    assert names[0] == "resnetv20_batchnorm0_gamma" and "resnetv20_stage4_conv9_weight" in names
    names = list(vision.mobilenet_v2_1_0().collect_params())
    assert names[0] == "mobilenetv20_features_conv0_weight"
    assert "mobilenetv20_features_linearbottleneck0_conv0_weight" in names
    assert names[-1] == "mobilenetv20_output_pred_weight"
    names = list(vision.squeezenet1_1().collect_params())
    assert names[0] == "squeezenet0_conv0_weight" and names[-1] == "squeezenet0_conv25_bias"
    names = list(vision.vgg16_bn().collect_params())
    assert names[:2] == ["vgg0_conv0_weight", "vgg0_conv0_bias"] and names[-1] == "vgg0_dense2_bias"
    names = list(vision.alexnet().collect_params())
    assert names[0] == "alexnet0_conv0_weight" and names[-1] == "alexnet0_dense2_bias"
    names = list(vision.mobilenet1_0().collect_params())
    assert names[-2:] == ["mobilenet0_dense0_weight", "mobilenet0_dense0_bias"]


def test_depthwise_and_fire_structure():
    net = vision.mobilenet1_0()
    conv1 = net.collect_params()["mobilenet0_conv1_weight"]          # the first depthwise convolution
    net.initialize()
    net(mx.nd.zeros((1, 3, 32, 32)))
    assert conv1.shape == (32, 1, 3, 3)
    fire = vision.Fire(16, 64, 64)
    fire.initialize()
    assert fire(mx.nd.zeros((1, 8, 5, 5))).shape == (1, 128, 5, 5)


def test_get_model_names_and_errors():
    assert isinstance(vision.get_model("MobileNet1.0"), vision.MobileNet)
    assert isinstance(vision.get_model("mobilenetv2_0.25"), vision.MobileNetV2)
    assert isinstance(vision.get_model("squeezenet1.1"), vision.SqueezeNet)
    assert isinstance(vision.get_model("squeezenet1_1"), vision.SqueezeNet)
    assert isinstance(mx.gluon.model_zoo.get_model("resnet34_v2"), vision.ResNetV2)
    with pytest.raises(ValueError, match="not supported"):
        vision.get_model("resnet19_v1")
    with pytest.raises(mx.InvalidArgumentError, match="download"):
        vision.get_model("resnet18_v1", pretrained=True)
    with pytest.raises(mx.InvalidArgumentError, match="download"):
        vision.vgg11_bn(pretrained=True)


def test_thumbnail_resnet_trains_a_step():
    net = vision.get_resnet(1, 18, classes=4, thumbnail=True)
    net.initialize(mx.init.Xavier())
    x = mx.nd.array(np.random.RandomState(1).randn(2, 3, 8, 8))
    with autograd.record():
        loss = mx.gluon.loss.SoftmaxCrossEntropyLoss()(net(x), mx.nd.array([0, 3]))
    loss.backward()
    for name, p in net.collect_params().items():
        if p.grad_req != "null":
            assert np.abs(p.grad().asnumpy()).sum() > 0, name
