"""What a logic family declares (its name, types, predicates, labels, generator): the one record the registry holds."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Mapping

from families.ir import Skeleton
from families.wording import Wording, say


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
    # How its facts and questions are worded (families/wording.py): what the template writes, the prompt
    # says, a constrained renderer may write, and the fidelity check reads back.
    wording: Wording

    @property
    def readings(self) -> dict[str, str]:
        """Each fact predicate's canonical sentence, `{0}` `{1}` for its arguments, no full stop."""
        return {p: say(self.wording.facts[p][0], [f"{{{i}}}" for i in range(len(sig))], end="")
                for p, sig in self.predicates.items()}

    def asks(self, spelled: list[str]) -> str:
        """The canonical question of the family's query, its arguments spelled, no question mark."""
        query = next(iter(self.queries))
        return self.wording.question(query, spelled)[:-1]
