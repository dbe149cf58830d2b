"""A premise that states its fact twice ("The Cedar Circle is entirely contained in the Ash Circle: all of its members
belong to the Ash Circle", "The Linden Circle is a subgroup of the Rowan Circle, so each Linden Circle member is a Rowan
Circle member"): its clauses, split at a joint of restatement or conjunction, each read by the fact grammar.

Only in a family whose facts hold in any order (order, membership, equality: `Family.order_matters` false): in a
family of steps a step said twice may be two steps ("Silo gains 2 items, and it gains 2 items"). Such a premise reads
as its fact only where one clause reads as exactly that fact and every other clause reads as that fact again (its
converse, a restatement) or as another fact of the same skeleton, word for word a fact it is given anyway
("The Phoenix float is left of the Owl float, and the Comet float is left of the Phoenix float"). The premises then
claim exactly the skeleton's facts, no more. Never a claim the facts only entail ("..., so the Comet float is left of
the Owl float": it may give the answer away). A clause that reads as any other fact makes the premise `misread`; one
that reads as nothing leaves it unread. Never a joint: "or", "unless", "if", "but", "although" (a disjunction or a
condition claims less, a contrast may claim more). A pronoun in a later clause ("its members", "it") is each of the
fact's names in turn: the clause counts only where every name it could stand for that reads at all reads alike (a
name the clause already says is no such name where it would read as another fact: a reading about one thing twice is
no fact)."""
from __future__ import annotations

import re
from functools import partial
from typing import Callable

# joints of restatement or conjunction, with their connective words ("so", "that is", "in other words")
_JOINT = re.compile(
    r"\s*(?::|;|—|--|,\s*(?:and\s+)?so\b|,\s*(?:and\s+)?thus\b|,\s*(?:and\s+)?hence\b|,\s*and\b|,\s*i\.e\.,?|"
    r",\s*that\s+is(?:\s+to\s+say)?,?|,\s*in\s+other\s+words,?|,\s*which\s+means(?:\s+that)?|,\s*meaning(?:\s+that)?|"
    r",\s*so\s+that\b)\s*", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(its|their|it|they|them)\b", re.IGNORECASE)
# a clause that opens with these is the next clause's connective, read away ("... : in other words, ...")
_LEAD = re.compile(r"^(?:that\s+is|in\s+other\s+words|i\.e\.|equivalently|put\s+another\s+way|so|thus|hence|"
                   r"therefore|and)\b\s*,?\s*", re.IGNORECASE)   # whole words: never the "So" of "Sorrel"

# a clause -> its verdict: kind ("read", "misread", "unread", or "given": another fact of the skeleton), detail
Read = Callable[[str], tuple[str, str]]


def clauses(text: str) -> list[str] | None:
    """The premise's clauses at its joints (two or three, none empty), or None where it has no joint."""
    body = text.strip().rstrip(".!").strip()
    parts = [_LEAD.sub("", p).strip() for p in _JOINT.split(body)]
    if not 2 <= len(parts) <= 3 or any(len(p.split()) < 3 for p in parts):
        return None
    return [p[:1].upper() + p[1:] + "." for p in parts]


def _as_name(name: str, m: re.Match[str]) -> str:
    return f"the {name}'s" if m.group(1).lower() in ("its", "their") else f"the {name}"


def resolved(clause: str, names: list[str]) -> list[tuple[str, bool]]:
    """The clause with its pronouns as each of the names ("its" as "Cedar Circle's"), or the clause itself; each with
    whether the name it stands for is also said in the clause (a reading then about one thing twice, "all of the Ash
    Circle's members belong to the Ash Circle", which no fact of a skeleton is: never taken for another fact)."""
    if not _PRONOUN.search(clause):
        return [(clause, False)]
    out = []
    for n in names:
        said = _PRONOUN.sub(partial(_as_name, n), clause)
        out.append((said, len(re.findall(rf"\b{re.escape(n)}\b", said, re.IGNORECASE)) > 1))
    return out


def verdict(text: str, names: list[str], read: Read) -> tuple[str, str] | None:
    """("read", "") where every clause reads as the fact, ("misread", the clause and what it says) where one reads as
    another fact or holds a word against it, or None (unread, or no joint)."""
    parts = clauses(text)
    if parts is None:
        return None
    kinds = []
    for part in parts:
        said = [(v, twice) for c, twice in resolved(part, names) if (v := read(c))[0] != "unread"]
        seen = {v[0] for v, twice in said if v[0] in ("read", "given") or not twice}
        if seen == {"read"}:
            kinds.append("read")
        elif seen == {"given"}:
            kinds.append("given")
        elif seen == {"misread"}:
            return "misread", f"'{part}' {next(v[1] for v, twice in said if not twice)}"
        else:
            kinds.append("unread")   # nothing, or a pronoun that may stand for either name (read one way, not another)
    return ("read", "") if "read" in kinds and set(kinds) <= {"read", "given"} else None
