"""What membership_inheritance's docstring says it equalizes across labels, measured."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import by_label, independence_p, make

FAMILY = "membership_inheritance"


def roles(sk, symbol) -> Counter:
    return Counter((f.predicate, f.arguments.index(symbol)) for f in sk.facts if symbol in f.arguments)


@pytest.mark.parametrize("complexity", [2, 3, 7, 20])
def test_queried_symbols_look_alike_in_every_label(complexity):
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        x, target = sk.query.arguments
        assert roles(sk, x) == Counter({("MEMBER_OF", 0): 1, ("NOT_MEMBER_OF", 0): 1}), (sk.id, sk.gold_answer)
        assert roles(sk, target) == Counter({("SUBSET_OF", 0): 1, ("SUBSET_OF", 1): 1}), (sk.id, sk.gold_answer)


@pytest.mark.parametrize("complexity", [2, 5, 12])
def test_shape_is_independent_of_the_label(complexity):
    def counts(sk):
        return len(sk.entities), tuple(sorted(Counter(f.predicate for f in sk.facts).items()))
    assert independence_p(by_label(FAMILY, complexity, counts)) > 0.01


@pytest.mark.parametrize("complexity", [4, 9, 20])
def test_sets_next_to_the_queried_symbols_are_inner_from_4(complexity):
    # x's two sets and the queried set's neighbours each have a subset and a superset, in every label.
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        x, target = sk.query.arguments
        near = [f.arguments[1] for f in sk.facts if f.arguments[0] == x]
        near += [a for f in sk.facts if f.predicate == "SUBSET_OF" and target in f.arguments
                 for a in f.arguments if a != target]
        for s in near:
            assert roles(sk, s)[("SUBSET_OF", 0)] == 1 and roles(sk, s)[("SUBSET_OF", 1)] == 1, (sk.id, s)


@pytest.mark.parametrize("complexity", [2, 5, 13])
def test_entity_and_set_are_complexity_premises_apart_in_every_label(complexity):
    from tests.test_transitive_order import undirected_distance
    for i in range(300):
        sk = make(FAMILY, i, complexity)
        assert undirected_distance(sk, *sk.query.arguments) == complexity, (sk.id, sk.gold_answer)
