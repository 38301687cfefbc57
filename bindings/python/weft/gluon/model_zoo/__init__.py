"""weft.gluon.model_zoo: MXNet 1.x's Gluon model zoo (architectures only).

``model_zoo.vision.get_model('resnet18_v1', classes=10)`` builds the network
with MXNet's structure and parameter names, so parameter files saved by MXNet
load with ``net.load_parameters``. Weft downloads nothing: ``pretrained=True``
raises (Note [No pretrained downloads] in _pretrained.py).
"""
from . import vision

__all__ = ["vision", "get_model"]


def get_model(name, **kwargs):
    """The model zoo's network ``name`` (see ``vision.get_model``)."""
    return vision.get_model(name, **kwargs)
