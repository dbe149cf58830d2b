"""A statement label's clause that speaks of the label's own pair by a pronoun ('"r != h" means they hold different
values', '"k != n" says their colours differ', '"d != f" if the two must differ'): the pronoun as the pair the label
names, and nothing else. A clause that names any symbol itself keeps its pronouns (they may stand for anything)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from families.free_forms import s_form
from families.question_forms import symbols_marked

if TYPE_CHECKING:
    from families.reading import Marked

# What stands for the pair, as the subject or object: "they", "them", "the two", "both", "both of them", "the two of
# them"; and "their" before a noun (read as "A and B's": "their colours differ" as "A and B's colours differ").
_PAIR_WORDS = (("the", "two", "of", "them"), ("the", "2", "of", "them"), ("both", "of", "them"), ("the", "two"), ("the", "2"), ("they", "both"), ("they",),
               ("them",), ("both",))


def label_pair(label: str, marked: Marked, types: Mapping[str, str]) -> tuple[str, str] | None:
    """The two marks a statement label names ("r != h" -> the marks of r and h, whatever names the render gave
    them); None where the label names other than two distinct symbols."""
    marks = [w for w in symbols_marked(marked, types).words(label) if w[:1] == "@"]
    if len(marks) != 2 or marks[0] == marks[1]:
        return None
    return marks[0], marks[1]


def pair_named(words: list[str], pair: tuple[str, str]) -> list[str] | None:
    """The clause with each pronoun of a pair as the pair ("they hold different values" -> "@a and @b hold different
    values", "their scores differ" -> "@a and @b 's scores differ"); None where the clause names a symbol itself, or
    holds no such pronoun."""
    if any(w[:1] == "@" for w in words):
        return None
    a, b = pair
    out: list[str] = []
    k, changed = 0, False
    while k < len(words):
        if words[k] == "their":
            out += [a, "and", b, "'s"]
            k, changed = k + 1, True
            continue
        hit = next((p for p in _PAIR_WORDS if tuple(words[k:k + len(p)]) == p), None)
        if hit is None:
            out.append(words[k])
            k += 1
            continue
        out += [a, "and", b]
        k, changed = k + len(hit), True
    return out if changed else None


def pair_kind_away(words: list[str], kinds: frozenset[str]) -> list[str] | None:
    """A clause with the render's kind noun, said once in the plural after two names ("the Hollis and Kestrel parcels
    have different weights", the render saying "the Hollis parcel" elsewhere), read away: "@a and @b have different
    weights"; None where no such plural follows two names."""
    plurals = {s_form(k) for k in kinds if not k.endswith("s")} | {k for k in kinds if k.endswith("s")}
    out, changed = list(words), False
    for k in range(len(out) - 3, -1, -1):
        if out[k][:1] == "@" and out[k + 1] == "and" and out[k + 2][:1] == "@" and out[k + 3] in plurals:
            out = out[:k + 3] + out[k + 4:]
            changed = True
    return out if changed else None
