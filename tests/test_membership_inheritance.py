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
