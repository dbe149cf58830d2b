"""Deterministic, streaming skeleton generation: the item plan, the JSONL and LogicMark writers."""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, Sequence

from families.ir import Skeleton, parse_complexity
from families.registry import FAMILIES
from families.seeding import item_rng
from runner.errors import UserError

DISTRACTORS = ("ours", "card")   # equality's options: see families/equality.py


@dataclass(frozen=True)
class GenerationPlan:
    """Which family and complexity item i gets: families round-robin, complexities in a weighted cycle."""

    seed: int
    families: tuple[str, ...]
    cycle: tuple[int, ...]
    distractors: str = "ours"   # equality only: ours (two complementary pairs) or the card's (one pair)

    def item(self, index: int) -> Skeleton:
        """Item `index`, made without items 0..index-1: its RNG comes from a hash of its coordinates."""
        family = self.families[index % len(self.families)]
        complexity = self.cycle[(index // len(self.families)) % len(self.cycle)]
        sk = FAMILIES[family].generate(index, complexity, item_rng(self.seed, family, index, complexity))
        if self.distractors == "card" and family == "equality":
            from families.equality import card_style  # here: families load through the registry first
            return card_style(sk)
        return sk

    def items(self, count: int, start: int = 0) -> Iterator[Skeleton]:
        """Items start..start+count-1, one at a time."""
        for index in range(start, start + count):
            yield self.item(index)


MAX_CYCLE = 100_000


def complexity_cycle(weights: dict[int, Fraction]) -> tuple[int, ...]:
    """A cycle whose every prefix is as close as possible to the weights (smooth weighted round-robin).

    The cycle's length is the common denominator, so each full cycle hits the target exactly, and
    any run is a prefix of a longer one with the same seed.
    """
    weights = {c: Fraction(w) for c, w in weights.items() if w > 0}
    denom = 1
    for w in weights.values():
        denom = denom * w.denominator // _gcd(denom, w.denominator)
    ints = {c: int(w * denom) for c, w in weights.items()}
    total = sum(ints.values())
    if total > MAX_CYCLE:   # the cycle is made once, in memory: refuse weights that would need millions of steps
        raise UserError(f"--target-hop-dist: these weights repeat only every {total:,} items (at most "
                        f"{MAX_CYCLE:,}); round them, e.g. to two decimals")
    current = dict.fromkeys(ints, 0)
    cycle = []
    for _ in range(total):
        for c in current:
            current[c] += ints[c]
        best = max(sorted(current), key=lambda c: current[c])
        current[best] -= total
        cycle.append(best)
    return tuple(cycle)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# A weight as written: a decimal (an exponent of up to three digits) or a ratio of whole numbers
_WEIGHT = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?|\d+/\d+")


def parse_hop_dist(text: str) -> dict[int, Fraction]:
    """`1:0.1,2:0.4,3:0.25` -> weights per complexity; UserError naming the bad part."""
    weights: dict[int, Fraction] = {}
    for part in text.split(","):
        if ":" not in part:
            raise UserError(f"--target-hop-dist: {part!r} should be COMPLEXITY:FRACTION, e.g. 2:0.4")
        c, w = part.split(":", 1)
        try:
            complexity = parse_complexity(c)
        except ValueError as exc:
            raise UserError(f"--target-hop-dist: {part!r}: {exc}") from None
        if not _WEIGHT.fullmatch(w := w.strip()):   # checked first: Fraction('1e-999999999') works out 10**999999999
            raise UserError(f"--target-hop-dist: {part!r}: expected a fraction such as 0.25, 1/4 or 2.5e-1")
        try:
            exact = Fraction(w)
        except ZeroDivisionError:
            raise UserError(f"--target-hop-dist: {part!r}: a fraction cannot divide by 0") from None
        weight = exact.limit_denominator(1000)
        if weight < 0 or weight > 1_000_000:
            raise UserError(f"--target-hop-dist: {part!r}: expected a fraction from 0 to 1 (a weight up to 1000000)")
        if weight == 0 and exact > 0:   # kept to thousandths, it would be no weight at all, unsaid
            raise UserError(f"--target-hop-dist: {part!r}: weights are kept to thousandths: give 0 or at least 0.001")
        if complexity in weights:   # summed, the user's weights would not be what they wrote
            raise UserError(f"--target-hop-dist: complexity {complexity} is given twice; give each once")
        weights[complexity] = weight
    if sum(weights.values()) <= 0:
        raise UserError("--target-hop-dist: the fractions add up to zero")
    return weights


def make_plan(seed: int, complexities: Sequence[str | int] = ("medium",), families: Sequence[str] = (),
              hop_dist: str | None = None, distractors: str = "ours") -> GenerationPlan:
    """Check the user's choices and build the plan; UserError names the value at fault."""
    if distractors not in DISTRACTORS:
        raise UserError(f"distractors {distractors!r}: expected {' or '.join(DISTRACTORS)}")
    names = tuple(families) or tuple(FAMILIES)
    for name in names:
        if name not in FAMILIES:
            raise UserError(f"unknown family {name!r}: expected one of {', '.join(FAMILIES)}")
    if hop_dist is not None:   # given empty, it is a mistake to say, not the default
        cycle = complexity_cycle(parse_hop_dist(hop_dist))
    else:
        try:
            cycle = tuple(parse_complexity(c) for c in complexities)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    return GenerationPlan(seed=seed, families=names, cycle=cycle, distractors=distractors)
