"""What transitive_order's docstring says it equalizes across labels, measured."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import by_label, independence_p, make

FAMILY = "transitive_order"


def degrees(sk) -> tuple[Counter, Counter]:
    left = Counter(f.arguments[0] for f in sk.facts)
    right = Counter(f.arguments[1] for f in sk.facts)
    return left, right


def shape(sk) -> tuple:
    """Counts a heuristic could take without following a chain: premises, entities, degree profile."""
    left, right = degrees(sk)
    profile = Counter((left[e], right[e]) for e in sk.entities)
    return len(sk.facts), len(sk.entities), tuple(sorted(profile.items()))


@pytest.mark.parametrize("complexity", [2, 3, 7, 20])
def test_queried_entities_look_alike_in_every_label(complexity):
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        left, right = degrees(sk)
        x, y = sk.query.arguments
        for e in (x, y):   # the chain goes on past both: once on each side, never the junction
            assert (left[e], right[e]) == (1, 1), (sk.id, sk.gold_answer, e)
        assert not any({x, y} <= set(f.arguments) for f in sk.facts), sk.id


@pytest.mark.parametrize("complexity", [2, 5, 12])
def test_shape_is_independent_of_the_label(complexity):
    # The shape is drawn before the label: counts and degree profiles differ only by sampling noise.
    assert independence_p(by_label(FAMILY, complexity, shape)) > 0.01


def test_premise_positions_are_independent_of_the_label():
    def first_mentions(sk):
        text = [f.arguments for f in sk.facts]
        return tuple(min(i for i, a in enumerate(text) if q in a) * 4 // len(text) for q in sk.query.arguments)
    assert independence_p(by_label(FAMILY, 4, first_mentions)) > 0.01


@pytest.mark.parametrize("complexity", [4, 9, 20])
def test_neighbours_of_queried_entities_look_alike_from_4(complexity):
    # One step along a chain from either queried entity meets an ordinary inner entity in every label.
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        left, right = degrees(sk)
        for q in sk.query.arguments:
            for f in sk.facts:
                if q in f.arguments:
                    other = f.arguments[1 - f.arguments.index(q)]
                    assert (left[other], right[other]) == (1, 1), (sk.id, sk.gold_answer)


@pytest.mark.parametrize("complexity", [2, 5, 13])
def test_queried_entities_are_complexity_premises_apart_in_every_label(complexity):
    for i in range(300):
        sk = make(FAMILY, i, complexity)
        assert undirected_distance(sk, *sk.query.arguments) == complexity, (sk.id, sk.gold_answer)


def undirected_distance(sk, a, b) -> int:
    """Premises between two symbols, ignoring direction (breadth-first)."""
    adj: dict[str, set] = {}
    for f in sk.facts:
        u, v = f.arguments[0], f.arguments[-1]
        adj.setdefault(u, set()).add(v)
        adj.setdefault(v, set()).add(u)
    seen, frontier, d = {a}, {a}, 0
    while b not in frontier:
        frontier = {w for u in frontier for w in adj.get(u, ()) if w not in seen}
        seen |= frontier
        d += 1
    return d
