"""weft.tools: command-line tools (``python -m weft.tools.im2rec``)."""
