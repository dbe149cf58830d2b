"""Faithful renders: a model renders a skeleton as structured JSON, checked symbol by symbol against it."""
