"""The family registry: one dict, filled once, where a duplicate name or a clashing predicate is an error."""
from __future__ import annotations

from families.family import Family
from families.wording import parse_phrasing

FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add a family; a duplicate name or prefix, or a predicate spelled alike with another signature, is an error."""
    if family.name in FAMILIES:
        raise ValueError(f"family {family.name!r} is registered twice")
    for other in FAMILIES.values():
        if other.prefix == family.prefix:
            raise ValueError(f"families {other.name!r} and {family.name!r} share the id prefix {family.prefix!r}")
        for table, other_table in ((family.predicates, other.predicates), (family.queries, other.queries)):
            for pred, sig in table.items():
                if pred in other_table and other_table[pred] != sig:
                    raise ValueError(f"predicate {pred} of {family.name!r} clashes with {other.name!r}: "
                                     f"{sig} vs {other_table[pred]}")
    _check_wording(family)
    FAMILIES[family.name] = family
    return family


def _check_wording(family: Family) -> None:
    """Every fact and query predicate has phrasings, each holding each of its arguments once."""
    w = family.wording
    for table, phrasings in ((family.predicates, w.facts), (family.queries, w.questions)):
        for pred, sig in table.items():
            if not phrasings.get(pred):
                raise ValueError(f"family {family.name!r}: predicate {pred} has no phrasing")
            for ph in phrasings[pred]:
                slots = sorted(p.slot for p in parse_phrasing(ph) if p.slot is not None)
                if slots != list(range(len(sig))):
                    raise ValueError(f"family {family.name!r}: phrasing {ph!r} of {pred} must hold each of "
                                     f"{{0}}..{{{len(sig) - 1}}} once")
    extra = (set(w.facts) - set(family.predicates)) | (set(w.questions) - set(family.queries))
    if extra:
        raise ValueError(f"family {family.name!r}: phrasings of unknown predicates {sorted(extra)}")
    labels = family.labels or ()
    if w.definitions and set(w.definitions) != set(labels):
        raise ValueError(f"family {family.name!r}: answer definitions must cover exactly its labels")


def _load() -> None:
    # Import order is the round-robin order of the spec (order, membership, state), then equality. The
    # family modules know only `Family` (families/family.py), so any of them may be imported first.
    from families import equality, membership_inheritance, sequential_state_update, transitive_order
    for module in (transitive_order, membership_inheritance, sequential_state_update, equality):
        register(module.FAMILY)


_load()
