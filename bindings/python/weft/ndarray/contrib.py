"""Operators registered as '_contrib_<name>', exposed as weft.nd.contrib.<name> (filled at import)."""
