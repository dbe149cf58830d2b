"""What sequential_state_update's docstring says about its options, measured."""
from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import make

FAMILY = "sequential_state_update"


@pytest.mark.parametrize("complexity", [1, 2, 9, 20])
def test_options_share_a_parity_and_are_never_negative(complexity):
    # A plain sum of the numbers (signs ignored) has the answer's parity: options two apart defeat it.
    for i in range(1000):
        values = [int(o) for o in make(FAMILY, i, complexity).answer_options]
        assert [b - a for a, b in zip(values, values[1:])] == [2, 2] and min(values) >= 0


def test_gold_position_is_uniform():
    counts = Counter(make(FAMILY, i, 3).answer_options.index(make(FAMILY, i, 3).gold_answer) for i in range(3000))
    assert all(abs(c / 3000 - 1 / 3) < 0.04 for c in counts.values()) and len(counts) == 3
