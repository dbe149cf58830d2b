"""What a logic family declares (its name, types, predicates, labels, generator): the one record the registry holds."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
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
    # How each fact predicate reads in plain words ({0} {1}: its arguments), and what the query asks:
    # what a render prompt tells a model (the skeleton's rules say how facts combine, not what they say).
    readings: Mapping[str, str] = field(default_factory=dict)
    asks: str = ""
