"""A bare "under" said on both sides of a subset ("Every item under label D is also under label P") as "in"."""
from __future__ import annotations

# What may stand between the predicate's "is" and its "under" ("is also under"); a negation is kept, so the negated
# twin reads as "is not in" and is misread, never read as the subset.
_BETWEEN = frozenset({"also", "not"})


def parallel_under(words: list[str]) -> list[str]:
    """The words with both of two bare "under"s as "in" where they stand in parallel: the first after the subject's
    noun or pronoun ("every item under @0", "everything under @0"), the second after the predicate's "is" or "are";
    whatever "under" means of the first (filed, catalogued, placed), the second means the same, and all that is under
    the one is under the other. A single bare "under" ("all Smiths are under the Guild") says another thing: unchanged."""
    at = [k for k, w in enumerate(words) if w == "under"]
    if len(at) != 2 or at[0] < 1 or words[at[0] - 1][:1] == "@" or words[at[0] - 1] in ("is", "are", "not"):
        return words
    k = at[1] - 1
    while k > at[0] and words[k] in _BETWEEN:
        k -= 1
    if words[k] not in ("is", "are") or not words[at[0] + 1:at[0] + 2] or words[at[0] + 1][:1] != "@":
        return words
    return [("in" if k in at else w) for k, w in enumerate(words)]
