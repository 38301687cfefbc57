"""weft.gluon.model_zoo: MXNet 1.x's Gluon model zoo (architectures only).

``model_zoo.vision.get_model('resnet18_v1', classes=10)`` builds the network
with MXNet's structure and parameter names, so parameter files saved by MXNet
load with ``net.load_parameters``. Weft downloads nothing: ``pretrained=True``
raises (Note [No pretrained downloads]).

Note [No pretrained downloads]
    MXNet fetched pretrained weights from a model store over the network.
    Weft never reaches the network on its own, so instead of failing later
    with a connection error every constructor rejects ``pretrained=True`` up
    front and says what to do instead: build with ``pretrained=False`` and
    ``load_parameters`` a file obtained separately.
"""
from ...base import InvalidArgumentError


def _reject_pretrained(pretrained, name):
    """Raises for ``pretrained=True`` (Note [No pretrained downloads])."""
    if pretrained:
        raise InvalidArgumentError(
            "%s: pretrained=True is not supported: Weft does not download model weights. Build the model "
            "with pretrained=False and load a parameter file you have with net.load_parameters(path)." % name)


from . import vision  # noqa: E402  pylint: disable=wrong-import-position

__all__ = ["vision", "get_model"]


def get_model(name, **kwargs):
    """The model zoo's network ``name`` (see ``vision.get_model``)."""
    return vision.get_model(name, **kwargs)
