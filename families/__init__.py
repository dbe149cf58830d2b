"""Logic families: the skeleton IR, one module per family, and the registry."""
