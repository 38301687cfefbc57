"""weft.tools: command-line tools (``python -m weft.tools.im2rec``, ``python -m weft.tools.onnx``)."""
