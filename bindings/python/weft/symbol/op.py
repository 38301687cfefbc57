"""Generated symbol functions whose names do not start with '_' (filled at import)."""
