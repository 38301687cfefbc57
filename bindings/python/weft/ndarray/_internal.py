"""Every generated operator function, including the '_'-prefixed ones (filled at import),
like MXNet's mxnet.ndarray._internal."""
