"""What equality's docstring says it equalizes between the correct option's pair and the other pair."""
from __future__ import annotations

from collections import Counter

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import bench, independence_p, make, put_into

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


# The forms a strong model writes for (in)equality (issue 42), each a class built from parts: a quantity's own words on
# both sides, sharing a value, premise labels, terse and notation forms, "whatever ... the same one", with a variable
# named "a" among the names (the article "a" is then a name too). Each reads as its fact and not as its opposite; a
# symbol, sign, hedge or comparison put in anywhere never reads.
_NAMES = {"q": "q", "j": "j", "a": "a", "e": "e"}
_TYPES = dict.fromkeys(_NAMES, "Variable")
FORMS = {
    "EQUAL": ["The quantity {0} equals the quantity {1}.", "{0} and {1} share a value.", "{0} and {1} carry the same value.",
              "{0} coincides with {1}.", "{0} is no different from {1}.", "Premise: {0} = {1}.", "Given: {0} = {1}.",
              "We know {0} equals {1}.", "{0} matches {1} exactly.", "EQUAL({0}, {1}).", "{0}, {1}: equal.",
              "{0} has exactly the value {1} has.", "Whatever value {0} has, {1} has the same one.", "{0} = {1} holds.",
              "Premise 3: {0} = {1}.", "{0} is exactly equal to {1}.", "{0} and {1} are one and the same.",
              "{0} and {1} must be equal."],
    "NOT_EQUAL": ["{0} =/= {1}.", "{0} is never equal to {1}.", "{0} and {1} never take the same value.",
                  "{0} has a different value from {1}.", "{0} takes a different value than {1}.",
                  "{0} and {1} are distinct in value.", "{0} and {1} are two different values.", "NOT_EQUAL({0}, {1}).",
                  "{0}, {1}: not equal.", "Whatever {0} is, {1} is something else.", "Premise: {0} != {1}.",
                  "We know {0} does not equal {1}.", "{0} and {1} do not share a value.",
                  "The quantity {0} is not equal to the quantity {1}.", "Fact 2: {0} != {1}.",
                  "{0}'s value is not {1}'s.", "{0} does not equal {1} in value."]}
_CASES = [(pred, form, pair) for pred, forms in FORMS.items() for form in forms for pair in (("q", "j"), ("a", "e"))]
INSERTS = ["<", ">", "<=", ">=", "-", "+", "%", "~", "≈", "|", "*", "2", "probably", "maybe", "perhaps", "roughly",
           "about", "nearly", "almost", "likely"]


def _read(text: str, pred: str, pair: tuple[str, str]) -> str:
    from families.reading import Marked, reader
    return reader(FAMILY).read_fact(text, (pred, pair), Marked(_NAMES, _TYPES), _TYPES)[0]


@pytest.mark.parametrize("pred,form,pair", _CASES)
def test_each_equality_form_reads_as_its_fact_and_misreads_as_its_opposite(pred, form, pair):
    text = form.format(*pair)
    assert _read(text, pred, pair) == "read", text
    assert _read(text, pred, pair[::-1]) == "read", text   # symmetric
    assert _read(text, "NOT_EQUAL" if pred == "EQUAL" else "EQUAL", pair) == "misread", text


@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(_CASES), word=st.sampled_from(INSERTS), where=st.floats(0, 1))
def test_a_symbol_sign_or_hedge_put_into_an_equality_form_never_reads(case, word, where):
    pred, form, pair = case
    text = put_into(form.format(*pair), word, where, bullets=("-", "*"))
    assert _read(text, pred, pair) != "read", text


@settings(max_examples=100, deadline=None)
@given(case=st.sampled_from([c for c in _CASES if c[0] == "EQUAL"]), where=st.floats(0, 1),
       word=st.sampled_from(["not", "never", "no", "cannot"]))
def test_a_negation_put_into_an_equal_form_never_reads_as_equal(case, where, word):
    pred, form, pair = case
    text = put_into(form.format(*pair), word, where)
    assert _read(text, pred, pair) != "read", text


QUESTIONS = ["Which conclusion can be drawn with certainty?", "Question: which statement is entailed by the premises?",
             "Exactly one of these conclusions can be derived from the premises. Which is it?",
             "Using only the equalities and inequalities listed, identify the statement that must be true.",
             "Conclusion?", "From the premises, it necessarily follows that:",
             "Choose the statement that has to be true if all the premises hold:", "Identify the entailed conclusion among:",
             "Which of the four statements below is a valid consequence of the premises?"]
_OPTIONS = ("a != e", "q = j", "a = e", "q != j")


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("listed", ['{0}, {1}, {2} or {3}', '"{0}", "{1}", "{2}", "{3}"', "(A) {0} (B) {1} (C) {2} (D) {3}"])
def test_entailment_asked_in_free_english_reads_and_asked_of_a_falsehood_does_not(question, listed):
    from families.reading import Marked, reader

    def asked(text: str) -> str:
        return reader(FAMILY).read_question(text, ("ENTAILED", ()), Marked(_NAMES, _TYPES), _TYPES, _OPTIONS)[0]
    text = question + " " + listed.format(*_OPTIONS)
    assert asked(text) == "read", text
    assert asked(text.replace("true", "false").replace("entailed", "false").replace("Conclusion", "False conclusion")
                 .replace("can be", "cannot be").replace("follows", "never follows")
                 .replace("valid", "invalid")) != "read", text


def _entailment(text: str, labels: tuple[str, ...]) -> str:
    """How an entailment question over `labels` reads, each symbol of the labels named as itself."""
    from families.reading import Marked, reader
    syms = {t: t for label in labels for t in label.split() if t.isalpha()}
    types = {s: "Variable" for s in syms}
    return reader(FAMILY).read_question(text, ("ENTAILED", ()), Marked(syms, types), types, labels).kind


def test_options_each_glossed_in_brackets_must_mean_their_labels():
    """"Which one must be true: n = o (n equals o), m != d (m is not equal to d), ...": each gloss reads as its option."""
    labels = ("n = o", "m = d", "m != d", "n != o")

    def asked(text: str) -> str:
        return _entailment(text, labels)
    right = ("Which one of these must be true: n = o (n equals o), m = d (m equals d), m != d (m is not equal to d), "
             "or n != o (n is not equal to o)?")
    assert asked(right) == "read"
    assert asked(right.replace("m = d (m equals d)", "m = d (m is not equal to d)")) == "misread"


def test_quoted_options_glossed_or_explained_with_says_must_mean_their_labels():
    """Blind model renders: "Options: 'd = f' (d equals f), ..." and "'e != j' says e and j differ; ...": read where each
    gloss means its option, misread where one means another (both were false misreads, as holding a negation)."""
    labels = ("d = f", "a = p", "a != p", "d != f")

    def asked(text: str) -> str:
        return _entailment(text, labels)
    quoted = ("Which statement must hold? Options: 'd = f' (d equals f), 'a = p' (a equals p), 'a != p' (a is not equal "
              "to p), 'd != f' (d is not equal to f).")
    says = ("Which option necessarily holds? 'd != f' says d and f differ; 'd = f' says d and f are equal; 'a = p' says a "
            "and p are equal; 'a != p' says a and p differ.")
    assert asked(quoted) == "read" and asked(says) == "read"
    assert asked(quoted.replace("'a = p' (a equals p)", "'a = p' (a is not equal to p)")) == "misread"
    assert asked(says.replace("'d = f' says d and f are equal", "'d = f' says d and f differ")) == "misread"
