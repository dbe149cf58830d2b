"""The audit's results as a terminal table and as JSON."""
from __future__ import annotations

from typing import Sequence

import orjson

from audit.shortcut import GroupResult


def to_text(results: Sequence[GroupResult]) -> str:
    """One row per family and complexity: items, accuracy, chance, margin with its 95% interval, features."""
    header = f"{'family':<24} {'cx':>3} {'items':>6} {'acc':>6} {'chance':>6}  {'margin pp [95% CI]':<22} features (pp lost when permuted)"
    lines = [header, "-" * len(header)]
    for r in results:
        if r.accuracy is None:
            lines.append(f"{r.family:<24} {r.complexity:>3} {r.items:>6} {'-':>6} {r.chance:>6.3f}  {r.note}")
            continue
        margin = f"{r.margin_pp:+5.1f} [{r.margin_low_pp:+5.1f}, {r.margin_high_pp:+5.1f}]"
        feats = ", ".join(f"{name} {pp:.1f}" for name, pp in r.features) or "none"
        lines.append(f"{r.family:<24} {r.complexity:>3} {r.items:>6} {r.accuracy:>6.3f} {r.chance:>6.3f}  "
                     f"{margin:<22} {feats}{'  (' + r.note + ')' if r.note else ''}")
    return "\n".join(lines)


def to_json(results: Sequence[GroupResult]) -> bytes:
    """A JSON array, one object per group (accuracy, chance, margin_pp and its interval, features)."""
    return orjson.dumps([r.to_dict() for r in results], option=orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY)
