"""The model zoo's answer to ``pretrained=True``, in a leaf module that every network file
imports (the package's __init__ imports the networks, so it cannot hold it).

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
