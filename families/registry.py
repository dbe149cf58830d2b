"""The family registry: one dict, filled once, where a duplicate name or a clashing predicate is an error."""
from __future__ import annotations

from families.family import Family


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
    FAMILIES[family.name] = family
    return family


def _load() -> None:
    # Import order is the round-robin order of the spec (order, membership, state), then equality. The
    # family modules know only `Family` (families/family.py), so any of them may be imported first.
    from families import equality, membership_inheritance, sequential_state_update, transitive_order
    for module in (transitive_order, membership_inheritance, sequential_state_update, equality):
        register(module.FAMILY)


_load()
