"""A render unit's verdict as a reviewer sorts them (faithful, misread, unread, unfaithful, unchecked, invalid, error)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from rendering.structure import reason_code

Verdict = Literal["faithful", "misread", "unread", "unfaithful", "unchecked", "invalid", "error"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)


def codes(rec: Mapping) -> set[str]:
    """The reason codes of a render record's checks (`misread` of `misread: the premise of fact 3 ...`)."""
    checks = rec.get("checks")
    return {reason_code(c) for c in checks} if isinstance(checks, list) else set()


def verdict_of(rec: Mapping) -> Verdict:
    """A render unit's verdict as a reviewer sorts them: faithful, misread, unread, unfaithful (for another
    reason: a fact missing, twice, a name), unchecked (free text), invalid, error."""
    status = rec.get("status")
    if status == "ok":
        return "faithful"
    if status == "unfaithful":
        found = codes(rec)
        return "misread" if "misread" in found else "unread" if "unread" in found else "unfaithful"
    return "unchecked" if status == "unchecked" else "invalid" if status == "invalid" else "error"
