"""Premises read back to their facts by each family's wording: paraphrases read, flips are misread, the
sentences SmolLM2 wrote for the wrong facts are caught, and any single corruption of a faithful render
is never `ok`."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.family import Family
from families.reading import Marked, Reader, reader
from families.registry import FAMILIES, register
from families.wording import Wording, normalize, say
from providers.builtin import template_structure
from rendering.structure import check, from_object, premise_verdicts, reason_code
from tests.conftest import make

FAMILY_NAMES = sorted(FAMILIES)
NAMES = {"E0": "Nico", "E1": "Ben", "S0": "Bakers", "S1": "Divers", "C0": "Hopper", "C1": "Silo"}
TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set", "C0": "Counter", "C1": "Counter"}
VARS = {"l": "l", "k": "k"}


def verdict(family: str, text: str, fact: tuple, names=NAMES, types=TYPES):
    return reader(family).read_fact(text, fact, Marked(names), {**types, **{v: "Variable" for v in VARS}})


# Sentences a strong model would write, ten or more per predicate, each read as its fact.
PARAPHRASES = {
    ("transitive_order", ("LEFT_OF", ("E0", "E1"))): [
        "Nico is to the left of Ben.", "Nico stands to the left of Ben.", "Nico sits somewhere left of Ben.",
        "Ben is to the right of Nico.", "Ben stands somewhere to the right of Nico.", "Nico is further left than Ben.",
        "Ben has Nico to his left.", "To the left of Ben stands Nico.", "Nico is on the left side of Ben.",
        "Also, Nico is positioned somewhere to the left of Ben.", "Ben sits farther to the right than Nico.",
        "Nico has Ben on their right.", "Note that Ben is located to the right of Nico."],
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0"))): [
        "Nico is one of the Bakers.", "Nico is a member of the Bakers.", "Nico is among the Bakers.",
        "Nico belongs to the Bakers.", "Nico is part of the Bakers.", "The Bakers include Nico.",
        "Bakers count Nico among them.", "Nico is in the Bakers.", "The Bakers contain Nico as a member.",
        "Nico is counted among the Bakers.", "We know that Nico belongs to Bakers."],
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0"))): [
        "Nico is not one of the Bakers.", "Nico isn't a member of the Bakers.", "Nico does not belong to the Bakers.",
        "Nico doesn't belong to Bakers.", "The Bakers do not include Nico.", "The Bakers exclude Nico.",
        "Nico is outside the Bakers.", "Nico is not among the Bakers.", "Nico is excluded from the Bakers.",
        "Nico is never one of the Bakers.", "Bakers don't count Nico among them."],
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1"))): [
        "All Bakers are Divers.", "All the Bakers are also Divers.", "Every one of the Bakers is one of the Divers.",
        "Each member of the Bakers is also a member of the Divers.", "The Bakers are all Divers.",
        "Bakers are all among the Divers.", "The Divers include all the Bakers.",
        "Anyone who is one of the Bakers is also one of the Divers.",
        "If someone is a member of the Bakers, then they are also a member of the Divers.",
        "Being one of the Bakers means being one of the Divers.", "The Bakers form a subset of the Divers.",
        "Every member of the Bakers belongs to the Divers."],
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 53))): [
        "Hopper starts with 53 items.", "Hopper begins with 53 items.", "Hopper starts out with 53.",
        "Hopper holds 53 items at first.", "At first, Hopper has 53 items.", "Initially Hopper contains 53 items.",
        "Hopper initially holds 53 items.", "The initial value of Hopper is 53.", "There are 53 items in Hopper at first.",
        "To begin with, Hopper stores fifty-three items.", "The starting count of Hopper is 53."],
    ("sequential_state_update", ("INCREMENT", ("C0", 98))): [
        "Hopper gains 98 items.", "Then Hopper receives 98 more items.", "Next, Hopper gets 98 items.",
        "Hopper is given 98 items.", "98 more items are added to Hopper.", "Then, 98 items are put into Hopper.",
        "Hopper goes up by 98.", "The count of Hopper increases by 98.", "After that, someone adds 98 items to Hopper.",
        "Later Hopper collects 98 additional items.", "Hopper picks up ninety-eight items."],
    ("sequential_state_update", ("DECREMENT", ("C0", 9))): [
        "Hopper loses 9 items.", "Then Hopper gives away 9 items.", "Next, Hopper spends 9 items.",
        "9 items are removed from Hopper.", "Then 9 items are taken out of Hopper.", "Hopper goes down by 9.",
        "The number of items in Hopper drops by 9.", "After that, someone takes 9 items from Hopper.",
        "Hopper sells nine items.", "Later, Hopper hands over 9 items.", "Hopper decreases by 9 items."],
    ("equality", ("EQUAL", ("l", "k"))): [
        "l = k", "l equals k.", "l is equal to k.", "l is the same as k.", "k equals l.", "l and k are equal.",
        "l == k", "l has the same value as k.", "k and l are the same.", "The value of l equals the value of k.",
        "l is identical to k."],
    ("equality", ("NOT_EQUAL", ("l", "k"))): [
        "l != k", "l ≠ k", "l does not equal k.", "l doesn't equal k.", "l is not equal to k.", "k differs from l.",
        "l is different from k.", "l and k are not equal.", "l and k are different.", "l isn't the same as k.",
        "The variable l is not equal to the variable k.", "l <> k"],
}


@pytest.mark.parametrize("family,fact", list(PARAPHRASES), ids=[f"{f[1][0]}" for f in PARAPHRASES])
def test_ten_paraphrases_per_predicate_read_as_their_fact(family, fact):
    sentences = PARAPHRASES[(family, fact)]
    assert len(sentences) >= 10
    names = {**NAMES, **VARS}
    for s in sentences:
        assert verdict(family, s, fact, names) == ("read", ""), s


def test_every_predicate_of_every_family_has_paraphrases_here():
    covered = {(f, fact[0]) for f, fact in PARAPHRASES}
    assert covered == {(f, p) for f, fam in FAMILIES.items() for p in fam.predicates}


# Flips: each kind is misread, and says which kind.
FLIPS = [
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Nico stands to the right of Ben.", "direction"),
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Ben is to the left of Nico.", "direction"),
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Nico is not to the left of Ben.", "negation"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), "Nico is not one of the Bakers.", "polarity"),
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0")), "Nico is one of the Bakers.", "polarity"),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), "All Divers are Bakers.", "direction"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), "Nico is one of the Divers.", "symbols"),
    ("sequential_state_update", ("INCREMENT", ("C0", 98)), "Hopper then loses 98 items.", "polarity"),
    ("sequential_state_update", ("INCREMENT", ("C0", 98)), "Hopper gains 89 items.", "number"),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 53)), "Hopper gains 53 items.", "predicate"),
    ("sequential_state_update", ("DECREMENT", ("C0", 9)), "Silo loses 9 items.", "symbols"),
    ("equality", ("EQUAL", ("l", "k")), "l != k", "polarity"),
    ("equality", ("NOT_EQUAL", ("l", "k")), "l and k are the same.", "polarity"),
]


@pytest.mark.parametrize("family,fact,text,kind", FLIPS, ids=[f[2] for f in FLIPS])
def test_each_flip_is_misread_with_its_kind(family, fact, text, kind):
    v = verdict(family, text, fact, {**NAMES, **VARS})
    assert v.kind == "misread" and kind in v.detail, v


# What SmolLM2 wrote on the default grid for these facts (BENCHMARKS.md, DESIGN.md): every one caught.
SMOLLM2 = [
    ("sequential_state_update", ("INCREMENT", ("C0", 98)), {"C0": "Hopper"}, "Hopper then loses 98 items."),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 53)), {"C0": "Bunker"}, "Bunker loses 53 items."),
    ("sequential_state_update", ("DECREMENT", ("C0", 9)), {"C0": "Bunker"}, "Bunker gains 9 items."),
    ("sequential_state_update", ("INCREMENT", ("C0", 12)), {"C0": "Kiln"}, "Kiln ends with 12 items."),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 40)), {"C0": "Kiln"}, "Kiln ends with 40 items."),
    ("equality", ("NOT_EQUAL", ("l", "k")), {}, "l equals dj and ej is not k."),
    ("equality", ("EQUAL", ("a", "p")), {}, "a does not equal ajbjhjhjhjhj jjhjhjhjhjjh p."),
    ("equality", ("EQUAL", ("b", "h")), {}, "b is ajt with ujt with tjjjjjjjjjjj h."),
    ("equality", ("EQUAL", ("f", "h")), {}, "f ee ee ee ee ee ee h hh hh hh hhhhhhhhhhhh."),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), {"E0": "Bruno", "S0": "Navigators"},
     "Bruno is not one of the Navigators."),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), {"S0": "Navigators", "S1": "Bakers"},
     "Navigators are all dorf of thefablone geslakjenjen Bakers."),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), {"S0": "Knitters", "S1": "Cellists"},
     "Knitters are all of thebowlers and Cellists is one of thebowlers."),
]


@pytest.mark.parametrize("family,fact,names,text", SMOLLM2, ids=[s[3] for s in SMOLLM2])
def test_what_smollm2_wrote_for_another_fact_is_caught(family, fact, names, text):
    symbols = {a for a in fact[1] if isinstance(a, str)}
    names = names or {s: s for s in symbols | set("abfhklp")}
    types = {s: TYPES.get(s, "Variable") for s in names}
    assert verdict(family, text, fact, names, types).kind in ("misread", "unread")


def _payload_and_template(family: str, index: int, complexity: int):
    """A skeleton's redacted payload and its template render (whose names the sentences use)."""
    payload = make(family, index, complexity).redact()
    return payload, template_structure(payload)


def _sentence(family: str, fact: dict, names: dict, rng: random.Random, predicate: str | None = None,
              args: list | None = None) -> str:
    wording = FAMILIES[family].wording
    pred = predicate or fact["predicate"]
    spelled = [names[a] if isinstance(a, str) else str(a) for a in (args or fact["arguments"])]
    return say(rng.choice(wording.facts[pred]), spelled, rng)


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 10), seed=st.integers(0, 2 ** 32))
def test_renders_of_random_grammar_choices_always_read_back(family, index, complexity, seed):
    rng = random.Random(seed)
    payload, render = _payload_and_template(family, index, complexity)
    names = render["names"]
    for i, fact in enumerate(payload["facts"]):
        render["premises"][i]["text"] = _sentence(family, fact, names, rng)
    assert check(from_object(render), payload) == []


def _corrupt(family: str, fact: dict, names: dict, rng: random.Random) -> str | None:
    """One premise saying another fact: reversed, negated, another predicate or another number."""
    w, pred, args = FAMILIES[family].wording, fact["predicate"], list(fact["arguments"])
    options = []
    sig = FAMILIES[family].predicates[pred]
    if pred not in w.symmetric and len(set(sig)) == 1 and all(isinstance(a, str) for a in args):
        options.append((pred, args[::-1]))
    if pred in w.opposites:
        options.append((w.opposites[pred], args))
    for other, sig in FAMILIES[family].predicates.items():
        if other != pred and other != w.opposites.get(pred) and sig == FAMILIES[family].predicates[pred]:
            options.append((other, args))
    if isinstance(args[-1], int):
        options.append((pred, args[:-1] + [args[-1] + rng.randint(1, 9)]))
    if not options:
        return None
    new_pred, new_args = rng.choice(options)
    return _sentence(family, fact, names, rng, new_pred, new_args)


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 10), seed=st.integers(0, 2 ** 32))
def test_any_single_premise_corruption_is_never_ok(family, index, complexity, seed):
    rng = random.Random(seed)
    payload, render = _payload_and_template(family, index, complexity)
    names = render["names"]
    i = rng.randrange(len(payload["facts"]))
    text = _corrupt(family, payload["facts"][i], names, rng)
    if text is None:
        return
    render["premises"][i]["text"] = text
    reasons = check(from_object(render), payload)
    assert [reason_code(r) for r in reasons] == ["misread"], reasons


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_the_grammar_is_unambiguous_a_sentence_of_one_fact_reads_as_no_other(family):
    rng = random.Random(5)
    r = reader(family)
    for index in range(30):
        payload, render = _payload_and_template(family, index, 4)
        names = render["names"]
        marked = Marked(names)
        for fact in payload["facts"]:
            for phrasing in FAMILIES[family].wording.facts[fact["predicate"]]:
                spelled = [names[a] if isinstance(a, str) else str(a) for a in fact["arguments"]]
                line = " " + " ".join(normalize(marked.words(say(phrasing, spelled, rng))))
                parses = {r.norm(p) for p in r._parses(r.facts, line, marked, payload["entities"])}
                assert parses == {r.norm((fact["predicate"], tuple(fact["arguments"])))}, (phrasing, parses)


def _renamed(names: dict, keep: set, text: str, moves: list, rng: random.Random) -> dict:
    """Other names for the symbols not in `keep`: as before, a word of `text`, a kept symbol's name, a name of
    two words, or another pool's word (what could make a sentence read before read otherwise)."""
    out, words = dict(names), [w.capitalize() for w in text.replace(".", " ").replace("?", " ").split()]
    others = [s for s in names if s not in keep]
    for s, move in zip(others, moves):
        if move == "word" and words:
            out[s] = rng.choice(words)
        elif move == "kept" and keep:
            out[s] = names[rng.choice(sorted(keep))]
        elif move == "two":
            out[s] = f"{names[s]} Ash"
        elif move == "pool":
            out[s] = rng.choice(["Left", "Right", "Not", "All", "Items", "Hopper", "Bakers", "Equal", "Less"])
    return out


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 10), seed=st.integers(0, 2 ** 32),
       corrupt=st.booleans(), moves=st.lists(st.sampled_from(["same", "word", "kept", "two", "pool"]), max_size=40))
def test_a_sentence_read_before_reads_as_a_fresh_reader_reads_it_whatever_the_other_names(
        family, index, complexity, seed, corrupt, moves):
    # A text that read once is not marked again where its arguments keep their names (families/reading.py):
    # with any other names around it, the remembered reading must be the one a reader that never saw it makes.
    rng = random.Random(seed)
    payload, render = _payload_and_template(family, index, complexity)
    names, types = render["names"], payload["entities"]
    warm = Reader(FAMILIES[family])
    i = rng.randrange(len(payload["facts"]))
    fact = payload["facts"][i]
    text = (_corrupt(family, fact, names, rng) if corrupt else None) or _sentence(family, fact, names, rng)
    as_fact = (fact["predicate"], tuple(fact["arguments"]))
    query = (payload["query"]["predicate"], tuple(payload["query"]["arguments"]))
    warm.read_fact(text, as_fact, Marked(names), types)
    warm.read_question(render["question"], query, Marked(names), types)
    for keep in ({a for a in fact["arguments"] if isinstance(a, str)}, set(query[1])):
        other = _renamed(names, keep, text, moves, rng)
        assert warm.read_fact(text, as_fact, Marked(other), types) == \
            Reader(FAMILIES[family]).read_fact(text, as_fact, Marked(other), types), other
        assert warm.read_question(render["question"], query, Marked(other), types) == \
            Reader(FAMILIES[family]).read_question(render["question"], query, Marked(other), types), other
    # and through the check's own reader, warmed by every test before this one
    render["premises"][i]["text"] = text
    fresh = Reader(FAMILIES[family])
    parsed = from_object(render)
    want = [(j, p["text"], fresh.read_fact(p["text"], (f["predicate"], tuple(f["arguments"])), Marked(names), types).kind)
            for j, (p, f) in enumerate(zip(render["premises"], payload["facts"]))]
    assert [(v.index, v.text, v.kind) for v in premise_verdicts(parsed, payload, names) if v.index >= 0] == want


QUESTIONS = [
    ("transitive_order", ("RELATION", ("E0", "E1")), "Where does Ben stand relative to Nico?", "misread"),
    ("transitive_order", ("RELATION", ("E0", "E1")), "Where does Nico stand relative to Ben?", "read"),
    # not the query, yet no phrasing of another: unread (a misread is only ever what the grammar is sure of)
    ("transitive_order", ("RELATION", ("E0", "E1")), "Is Ben to the right of Nico, or what?", "unread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), "Is Nico not one of the Bakers?", "misread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), "Does Nico belong to the Bakers or not?", "read"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), "How many items does Hopper start with?", "misread"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), "How many items does Silo hold at the end?", "misread"),
    ("equality", ("ENTAILED", ()), "Which of the statements does not follow?", "misread"),
]


@pytest.mark.parametrize("family,query,text,kind", QUESTIONS, ids=[q[2] for q in QUESTIONS])
def test_a_question_asked_the_other_way_round_or_negated_is_misread(family, query, text, kind):
    v = reader(family).read_question(text, query, Marked(NAMES), TYPES)
    assert v.kind == kind, v


def test_a_family_without_a_wording_for_each_predicate_is_refused():
    fam = FAMILIES["transitive_order"]
    broken = Family(**{**{f: getattr(fam, f) for f in ("name", "prefix", "types", "predicates", "queries", "rules",
                                                       "order_matters", "labels", "generate")},
                       "name": "broken", "prefix": "broken", "wording": Wording(facts={}, questions={})})
    with pytest.raises(ValueError, match="LEFT_OF has no phrasing"):
        register(broken)
    assert "broken" not in FAMILIES


_PHRASINGS = sorted({ph for fam in FAMILIES.values() for table in (fam.wording.facts, fam.wording.questions)
                     for phs in table.values() for ph in phs}
                    | {ph for fam in FAMILIES.values() for ph in fam.wording.definitions.values()})


@settings(max_examples=200, deadline=None)
@given(phrasing=st.sampled_from(_PHRASINGS), end=st.sampled_from([".", "?", ""]), capital=st.booleans(),
       names=st.lists(st.text(alphabet="abcXYZ 7", min_size=1, max_size=6), min_size=4, max_size=4))
def test_the_canonical_sentence_made_once_per_phrasing_is_the_one_its_parts_say(phrasing, end, capital, names):
    """`say` without a random draw makes each phrasing's canonical sentence from a form built once: it is the
    sentence of its first choices, no optional part, one space apart, the first letter capital where the
    phrasing does not begin with a name, whatever names are spelled in."""
    from families.wording import parse_phrasing
    parts = parse_phrasing(phrasing)
    words = [names[p.slot] if p.slot is not None else p.options[0] for p in parts if p.slot is not None or not p.optional]
    text = " ".join(words)
    if capital and (parts[0].slot is None or parts[0].optional):
        text = text[:1].upper() + text[1:]
    assert say(phrasing, names, end=end, capital=capital) == text + end
