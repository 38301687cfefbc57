"""Every generated symbol function, including the '_'-prefixed ones (filled at import),
like MXNet's mxnet.symbol._internal."""
