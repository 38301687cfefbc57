"""mx.contrib.text: vocabularies and token embeddings for text data (MXNet 1.9.1)."""
from . import utils
from . import vocab
from . import embedding

__all__ = ["utils", "vocab", "embedding"]
