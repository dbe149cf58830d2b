"""Confidence intervals shared by the engine (an auditor's trust) and the report (accuracy cells)."""
from __future__ import annotations

import math

Z95 = 1.959964


def wilson(k: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """The Wilson score interval of k successes in n trials; (None, None) when n is 0."""
    if n == 0:
        return None, None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half
