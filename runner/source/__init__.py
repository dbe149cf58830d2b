"""Where skeletons come from: deterministic generation, and reading skeleton files."""
