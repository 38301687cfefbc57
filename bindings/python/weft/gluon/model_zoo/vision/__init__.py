"""Vision networks of MXNet 1.x's Gluon model zoo: ResNet V1/V2, VGG (with and
without BatchNorm), AlexNet, DenseNet 121/161/169/201, Inception V3, MobileNet
V1/V2 and SqueezeNet 1.0/1.1 -- every model MXNet 1.9.1's get_model knows.

    net = weft.gluon.model_zoo.vision.get_model('resnet18_v1', classes=10)
    net.initialize(weft.init.Xavier())
    out = net(weft.nd.zeros((1, 3, 224, 224)))      # (1, 10)

Inputs are NCHW images, at least 224x224 for the published configurations
(ResNet, MobileNet and VGG also run on smaller ones; SqueezeNet's final
13x13 and DenseNet's 7x7 poolings need 224, Inception V3's 8x8 pooling 299). ``pretrained=True`` raises: Weft downloads nothing
(Note [No pretrained downloads] in model_zoo/_pretrained.py).
"""
from .alexnet import *  # noqa: F401,F403
from .densenet import *  # noqa: F401,F403
from .inception import *  # noqa: F401,F403
from .mobilenet import *  # noqa: F401,F403
from .resnet import *  # noqa: F401,F403
from .squeezenet import *  # noqa: F401,F403
from .vgg import *  # noqa: F401,F403
from .alexnet import __all__ as _alexnet_all
from .densenet import __all__ as _densenet_all
from .inception import __all__ as _inception_all
from .mobilenet import __all__ as _mobilenet_all
from .resnet import __all__ as _resnet_all
from .squeezenet import __all__ as _squeezenet_all
from .vgg import __all__ as _vgg_all

__all__ = (["get_model"] + _alexnet_all + _densenet_all + _inception_all + _mobilenet_all + _resnet_all
           + _squeezenet_all + _vgg_all)

# MXNet's names for get_model (mobilenet1.0, squeezenet1.1, ...); the constructor
# names (mobilenet1_0, squeezenet1_1, ...) are accepted as well.
_MODELS = {
    "resnet18_v1": resnet18_v1, "resnet34_v1": resnet34_v1, "resnet50_v1": resnet50_v1,
    "resnet101_v1": resnet101_v1, "resnet152_v1": resnet152_v1,
    "resnet18_v2": resnet18_v2, "resnet34_v2": resnet34_v2, "resnet50_v2": resnet50_v2,
    "resnet101_v2": resnet101_v2, "resnet152_v2": resnet152_v2,
    "vgg11": vgg11, "vgg13": vgg13, "vgg16": vgg16, "vgg19": vgg19,
    "vgg11_bn": vgg11_bn, "vgg13_bn": vgg13_bn, "vgg16_bn": vgg16_bn, "vgg19_bn": vgg19_bn,
    "alexnet": alexnet,
    "densenet121": densenet121, "densenet161": densenet161, "densenet169": densenet169,
    "densenet201": densenet201,
    "inceptionv3": inception_v3,
    "squeezenet1.0": squeezenet1_0, "squeezenet1.1": squeezenet1_1,
    "mobilenet1.0": mobilenet1_0, "mobilenet0.75": mobilenet0_75, "mobilenet0.5": mobilenet0_5,
    "mobilenet0.25": mobilenet0_25,
    "mobilenetv2_1.0": mobilenet_v2_1_0, "mobilenetv2_0.75": mobilenet_v2_0_75,
    "mobilenetv2_0.5": mobilenet_v2_0_5, "mobilenetv2_0.25": mobilenet_v2_0_25,
}
_MODELS.update({f.__name__: f for f in list(_MODELS.values())})


def get_model(name, **kwargs):
    """The network ``name`` (e.g. 'resnet50_v1', 'vgg16_bn', 'mobilenet1.0' or
    'mobilenet1_0'), built with ``kwargs`` (classes, pretrained, prefix, ...)."""
    key = name.lower()
    if key not in _MODELS:
        raise ValueError("Model %s is not supported. Available options are\n\t%s"
                         % (name, "\n\t".join(sorted(_MODELS))))
    return _MODELS[key](**kwargs)
