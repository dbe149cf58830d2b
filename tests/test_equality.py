"""What equality's docstring says it equalizes between the correct option's pair and the other pair."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import independence_p, make

FAMILY = "equality"


def pairs(sk):
    """(correct pair, other pair), each as its two variables."""
    u, _, v = sk.gold_answer.split(" ")
    other = next(o for o in sk.answer_options if u not in o.split(" "))
    a, _, b = other.split(" ")
    return (u, v), (a, b)


def profile(sk, var) -> tuple[int, int]:
    counts = Counter(f.predicate for f in sk.facts if var in f.arguments)
    return counts["EQUAL"], counts["NOT_EQUAL"]


@pytest.mark.parametrize("complexity", [2, 4, 9])
def test_both_pairs_have_the_same_mention_profile(complexity):
    seen: dict[str, list] = {"correct": [], "other": []}
    for i in range(3000):
        sk = make(FAMILY, i, complexity, seed=2)
        good, bad = pairs(sk)
        seen["correct"].append(tuple(sorted(profile(sk, x) for x in good)))
        seen["other"].append(tuple(sorted(profile(sk, x) for x in bad)))
        for a, b in (good, bad):   # from complexity 2 on, neither pair shares a premise
            assert not any({a, b} <= set(f.arguments) for f in sk.facts), sk.id
    assert independence_p(seen) > 0.01


@pytest.mark.parametrize("complexity", [2, 6])
def test_counts_of_premises_say_nothing_about_the_operator(complexity):
    seen: dict[str, list] = {}
    for i in range(3000):
        sk = make(FAMILY, i, complexity, seed=4)
        op = "!=" if "!=" in sk.gold_answer else "="
        seen.setdefault(op, []).append(Counter(f.predicate for f in sk.facts)["NOT_EQUAL"])
    assert independence_p(seen) > 0.01


@pytest.mark.parametrize("complexity", [5, 9])
def test_neighbours_of_both_pairs_look_alike_from_5(complexity):
    seen: dict[str, list] = {"correct": [], "other": []}
    for i in range(3000):
        sk = make(FAMILY, i, complexity, seed=6)
        for name, pair in zip(seen, pairs(sk)):
            hood = []
            for x in pair:
                nbrs = [a for f in sk.facts if x in f.arguments for a in f.arguments if a != x]
                hood.append(tuple(sorted(profile(sk, n) for n in nbrs)))
            seen[name].append(tuple(sorted(hood)))
    assert independence_p(seen) > 0.01
