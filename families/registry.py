"""The family registry: one dict, filled once, where a duplicate name or a clashing predicate is an error."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Mapping

from families.ir import Skeleton


@dataclass(frozen=True)
class Family:
    """What a logic family declares: its name, id prefix, types, predicate signatures and generator."""

    name: str
    prefix: str
    types: frozenset[str]
    predicates: Mapping[str, tuple[str, ...]]   # fact predicates -> argument types
    queries: Mapping[str, tuple[str, ...]]      # query predicates -> argument types
    rules: tuple[str, ...]
    order_matters: bool                          # may a renderer reorder the facts?
    labels: tuple[str, ...] | None               # the fixed label set, None when options vary per item
    generate: Callable[[int, int, random.Random], Skeleton]


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
    # Import order is the round-robin order of the spec (order, membership, state), then equality.
    from families import equality, membership_inheritance, sequential_state_update, transitive_order
    for module in (transitive_order, membership_inheritance, sequential_state_update, equality):
        register(module.FAMILY)


_load()
