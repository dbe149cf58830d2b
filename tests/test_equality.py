"""What equality's docstring says it equalizes between the correct option's pair and the other pair."""
from __future__ import annotations

from collections import Counter

import orjson
import pytest

from tests.conftest import bench, independence_p, make

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


# The card's own distractors (issue 13): gold, its flip, two false statements; exactly one pair listed.
def _flip(option: str) -> str:
    return option.replace(" != ", " = ") if " != " in option else option.replace(" = ", " != ")


@pytest.mark.parametrize("complexity", [1, 2, 3, 5, 8])
def test_card_style_options_gold_flip_and_two_false_statements(complexity):
    import dataclasses

    from families.equality import card_style
    from tests.reference_solver import solve_equality
    for i in range(150):
        ours = make("equality", i, complexity)
        card = card_style(ours)
        assert (card.facts, card.gold_answer, card.proof) == (ours.facts, ours.gold_answer, ours.proof)
        assert len(set(card.answer_options)) == 4 and card.gold_answer in card.answer_options
        assert _flip(card.gold_answer) in card.answer_options
        assert solve_equality(card) == solve_equality(ours)   # exactly one option follows, with the same hops
        others = [o for o in card.answer_options if o not in (card.gold_answer, _flip(card.gold_answer))]
        pairs = [frozenset(o.replace(" != ", " = ").split(" = ")) for o in card.answer_options]
        assert len(set(pairs)) == 3   # one complementary pair, and two statements about two other pairs
        for false in others:   # each is false: its flip is what the premises entail
            assert solve_equality(dataclasses.replace(card, answer_options=(_flip(false),)))[0] == _flip(false)
        assert card_style(ours) == card   # the same item always gets the same options


def test_card_style_from_generate_and_grids(tmp_path):
    out = tmp_path / "card.jsonl"
    bench("generate", "-n", "40", "-f", "equality", "--distractors", "card", "-o", str(out), "-q", check=True)
    again = tmp_path / "again.jsonl"
    bench("generate", "-n", "40", "-f", "equality", "--distractors", "card", "-o", str(again), "-q", check=True)
    assert out.read_bytes() == again.read_bytes()
    assert bench("validate", str(out)).returncode == 0
    lm = tmp_path / "lm.jsonl"
    bench("generate", "-n", "40", "--format", "logicmark", "--distractors", "card", "-o", str(lm), "-q", check=True)
    for line in lm.read_bytes().splitlines():
        rec = orjson.loads(line)
        assert _flip(rec["answer"]) in rec["options"]
    bad = bench("generate", "-n", "4", "--distractors", "theirs", "-o", str(tmp_path / "x.jsonl"))
    assert bad.returncode == 2 and "distractors 'theirs': expected ours or card" in bad.stderr
    from runner.config.grid import load_grid
    from runner.plan.units import skeletons
    grid = tmp_path / "grid.yaml"
    grid.write_text("name: g\nskeletons: {generate: {count: 8, families: [equality], distractors: card}}\n"
                    "providers: {t: {kind: template}, r: {kind: random}}\nrenderers: [t]\nsolvers: [r]\n")
    from families.validation import skeleton_from_json
    assert [sk.answer_options for sk in skeletons(load_grid(grid))] == \
        [skeleton_from_json(line).answer_options for line in out.read_bytes().splitlines()[:8]]
