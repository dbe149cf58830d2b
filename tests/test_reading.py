"""Premises read back to their facts by each family's wording: paraphrases read, flips are misread, the
sentences SmolLM2 wrote for the wrong facts are caught, and any single corruption of a faithful render
is never `ok`."""
from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from families.family import Family
from families.reading import READ, Marked, Reader, reader
from families.registry import FAMILIES, register
from families.wording import Wording, normalize, say, tokens
from providers.builtin import template_structure
from rendering.read_back import premise_verdicts
from rendering.structure import check, from_object, reason_code
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


# --- Free English (issue 42): nothing unaccounted for, names as they look, forms built not listed ---------------

import unicodedata

from families.wording import _DROPPED
from rendering.lookalike import looks


def _plain(c: str) -> bool:
    """A character the reader may drop or read as a word: plain punctuation, a letter, a digit, a space
    (after NFKC, as the reader sees it)."""
    n = unicodedata.normalize("NFKC", c)
    return not n or n.isspace() or all(x in _DROPPED or x.isalnum() for x in n)


SYMBOLS = st.characters(blacklist_categories=("Cs",)).filter(lambda c: not _plain(c))
HEDGES_AND_CLAIMS = ["about", "around", "roughly", "nearly", "approximately", "almost", "probably", "maybe",
                     "perhaps", "possibly", "at least", "at most", "over", "under", "more than", "fewer than",
                     "immediately", "directly", "just", "right next to", "next to", "beside", "adjacent to", "~",
                     "≈", "-", "+", "%", "−", "±", "<", ">", "<=", ">=", "|"]


def _faithful(family: str, index: int, complexity: int):
    payload, render = _payload_and_template(family, index, complexity)
    return payload, render


_QUESTION_MARKS = frozenset("[]–—")


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 8), where=st.floats(0, 1), which=st.floats(0, 1),
       symbol=SYMBOLS)
def test_any_symbol_or_sign_inserted_anywhere_makes_a_faithful_render_not_ok(family, index, complexity, where,
                                                                            which, symbol):
    payload, render = _faithful(family, index, complexity)
    texts = [p["text"] for p in render["premises"]] + [render["question"]]
    k = min(int(which * len(texts)), len(texts) - 1)
    text = texts[k]
    at = min(int(where * (len(text) + 1)), len(text))
    # Not a symbol the reader does not account for: in a question, square brackets read as parentheses (a label's
    # gloss) and a dash as a break between clauses ("[Where does A stand?" asks what it asked); an equals sign
    # beside another or a "!" makes another spelling of the same relation ("b !== d", "b == d": equality's forms)
    assume(k < len(render["premises"]) or symbol not in _QUESTION_MARKS)
    beside = text[max(at - 1, 0):at + 1]
    assume(not (family == "equality" and symbol == "=" and ("=" in beside or "!" in beside)))
    new = text[:at] + symbol + text[at:]
    if k < len(render["premises"]):
        render["premises"][k]["text"] = new
    else:
        render["question"] = new
    assert check(from_object(render), payload) != [], (new, symbol)


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 8), which=st.floats(0, 1), gap=st.floats(0, 1),
       word=st.sampled_from(HEDGES_AND_CLAIMS))
def test_any_hedge_or_stronger_claim_inserted_between_words_is_never_ok(family, index, complexity, which, gap, word):
    payload, render = _faithful(family, index, complexity)
    k = min(int(which * len(render["premises"])), len(render["premises"]) - 1)
    words = render["premises"][k]["text"].split(" ")
    at = min(int(gap * (len(words) + 1)), len(words))
    if at == 0 and word == "-":   # "- " opening a sentence is a list's bullet, read away (issue 42's layout)
        at = 1
    render["premises"][k]["text"] = " ".join(words[:at] + [word] + words[at:])
    reasons = check(from_object(render), payload)
    assert reasons != [], render["premises"][k]["text"]
    # a hedge or a stronger claim is never read; where it is misread, the grammar was sure of the word
    assert all(reason_code(r) in ("misread", "unread") for r in reasons), reasons


# Letters and their look-alikes in other scripts (Cyrillic, Greek, full-width), and hidden characters.
LOOKALIKE = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і", "x": "х", "y": "у", "A": "А", "B": "В",
             "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т", "N": "Ν", "Z": "Ζ", "I": "Ι"}
HIDDEN = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u202d", "\u200f", "\u2066"]


@pytest.mark.parametrize("family", ["transitive_order", "membership_inheritance", "sequential_state_update"])
@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 8), pick=st.floats(0, 1), spot=st.floats(0, 1),
       how=st.sampled_from(["script", "hidden", "fullwidth", "nfd"]))
def test_a_look_alike_name_is_one_name_and_a_name_with_hidden_characters_is_refused(family, index, complexity,
                                                                                   pick, spot, how):
    payload, render = _faithful(family, index, complexity)
    names = render["names"]
    symbols = sorted(names)
    victim = symbols[min(int(pick * len(symbols)), len(symbols) - 1)]
    other = next(s for s in symbols if s != victim)
    base = names[other]
    if how == "script":
        spots = [i for i, c in enumerate(base) if c in LOOKALIKE]
        if not spots:
            return
        i = spots[min(int(spot * len(spots)), len(spots) - 1)]
        alike = base[:i] + LOOKALIKE[base[i]] + base[i + 1:]
    elif how == "hidden":
        i = 1 + min(int(spot * (len(base) - 1)), len(base) - 2)
        alike = base[:i] + HIDDEN[int(spot * 100) % len(HIDDEN)] + base[i:]
    elif how == "fullwidth":
        alike = "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalpha() else c for c in base)
    else:
        alike = unicodedata.normalize("NFD", base.replace("e", "é"))
        if alike == base:
            return
    assert looks(alike) & looks(base) or how == "nfd" and looks(alike) & looks(base.replace("e", "é"))
    # the victim renamed to a look-alike of another symbol's name: one name to a reader, refused
    renamed = {**names, victim: alike if how != "nfd" else unicodedata.normalize("NFC", alike)}
    if how == "nfd":
        renamed[other] = alike
    obj = {**render, "names": renamed}
    codes = {reason_code(r) for r in check(from_object(obj), payload)}
    assert codes & {"lookalike_names", "duplicate_name", "hidden_character"}, (alike, codes)


@pytest.mark.parametrize("family", ["transitive_order", "membership_inheritance", "sequential_state_update"])
@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 8), which=st.floats(0, 1), spot=st.floats(0, 1))
def test_a_premise_that_spells_its_name_with_a_look_alike_letter_is_never_read(family, index, complexity, which,
                                                                             spot):
    payload, render = _faithful(family, index, complexity)
    k = min(int(which * len(render["premises"])), len(render["premises"]) - 1)
    text = render["premises"][k]["text"]
    spots = [i for i, c in enumerate(text) if c in LOOKALIKE]
    if not spots:
        return
    i = spots[min(int(spot * len(spots)), len(spots) - 1)]
    render["premises"][k]["text"] = text[:i] + LOOKALIKE[text[i]] + text[i + 1:]
    assert check(from_object(render), payload) != []


# The forms a strong model writes that the grammar builds from its parts (issue 42's list), each read.
NATURAL = [
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), ["Ben is to Nico's right.", "Nico is to Ben's left.",
     "Ben has Nico somewhere on their left.", "The Nico is left of Ben.", "Somewhere to the left of Ben stands Nico.",
     "Nico stands somewhere on Ben's left-hand side.", "First, Nico is to the left of Ben.",
     "Finally, Ben is to the right of Nico.", "Next, Nico sits left of Ben."]),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), ["Every Baker is also a Diver.",
     "Every member of the Bakers is a member of the Divers.", "Anyone who is a Baker is also a Diver.",
     "The Divers include every Baker.", "Each Baker is a Diver, too."]),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), ["Nico is a Baker.", "Nico is, in fact, a Baker."]),
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0")), ["Nico is not a Baker.",
     "It is not the case that Nico is a Baker."]),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 18)), ["Hopper starts at 18.", "The Hopper starts with 18 items.",
     "Hopper's initial count is 18.", "First, Hopper holds 18 items.", "Hopper starts with exactly 18 items."]),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 0)), ["Hopper starts with no items.", "Hopper starts empty."]),
    ("sequential_state_update", ("INCREMENT", ("C0", 40)), ["Finally, Hopper gains 40 items.",
     "The hopper receives 40 more items.", "Then, Hopper receives another 40 items.", "Hopper's stock grows by 40.",
     "Later, 40 items are delivered to the Hopper."]),
]


@pytest.mark.parametrize("family,fact,texts", NATURAL, ids=[f"{n[1][0]}-{i}" for i, n in enumerate(NATURAL)])
def test_articles_possessives_singulars_openers_and_no_items_are_read(family, fact, texts):
    marked = Marked(NAMES, TYPES)
    for text in texts:
        assert reader(family).read_fact(text, fact, marked, TYPES) == ("read", ""), text


WRONG = [   # each holds a word the grammar is sure of: misread, never read, never left to an auditor
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Nico is immediately to the left of Ben."),
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Nico is probably to the left of Ben."),
    ("sequential_state_update", ("INCREMENT", ("C0", 40)), "Hopper gains -40 items."),
    ("sequential_state_update", ("INCREMENT", ("C0", 40)), "Hopper increases by 40%."),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 40)), "Hopper starts with ~40 items."),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 40)), "Hopper starts with at least 40 items."),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 40)), "Hopper starts with about 40 items."),
    ("sequential_state_update", ("INCREMENT", ("C0", 40)), "After that, Hopper ends with 40 items."),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), "Most Bakers are Divers."),
]


@pytest.mark.parametrize("family,fact,text", WRONG, ids=[w[2] for w in WRONG])
def test_hedges_signs_and_stronger_claims_are_misread(family, fact, text):
    assert reader(family).read_fact(text, fact, Marked(NAMES, TYPES), TYPES).kind == "misread", text


LABELS3 = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
QUESTIONS42 = [
    ("Is Nico to the left or right of Ben, or can this not be determined?", LABELS3, "read"),
    ("Where does Nico stand relative to Ben? Answer LEFT_OF if Nico is to the left of Ben, RIGHT_OF if Nico is to "
     "the right of Ben, or UNKNOWN if the premises do not settle it.", LABELS3, "read"),
    ("Where does Nico stand relative to Ben? Answer LEFT_OF if Nico is to the right of Ben, RIGHT_OF if Nico is to "
     "the left of Ben, or UNKNOWN if the premises do not settle it.", LABELS3, "misread"),
    ("Where does Nico stand relative to Ben? Answer LEFT_OF, RIGHT_OF, or NEXT_TO.", LABELS3, "misread"),
    ("Where does Nico stand relative to Ben? Answer LEFT_OF or RIGHT_OF.", LABELS3, "misread"),
    ("Where does Nico stand relative to Ben? If it cannot be determined, answer UNKNOWN.", LABELS3, "read"),
    ("Which of the following statements is false?", LABELS3, "unread"),
]


@pytest.mark.parametrize("text,labels,kind", QUESTIONS42, ids=[q[0][:60] for q in QUESTIONS42])
def test_a_question_and_its_label_explanations_must_mean_the_query(text, labels, kind):
    v = reader("transitive_order").read_question(text, ("RELATION", ("E0", "E1")), Marked(NAMES, TYPES), TYPES, labels)
    assert v.kind == kind, v


def test_an_unread_question_makes_the_render_unread_and_an_intro_with_a_number_word_is_refused():
    payload, render = _payload_and_template("sequential_state_update", 3, 3)
    counter = render["names"][payload["query"]["arguments"][0]]
    render["question"] = f"How many items do {counter} and its neighbour hold in all?"
    assert [reason_code(r) for r in check(from_object(render), payload)] == ["unread"]
    payload, render = _payload_and_template("sequential_state_update", 3, 3)
    render["intro"] = "One storeroom ends the day with forty-six items."
    assert any("intro holds a number" in r for r in check(from_object(render), payload))


def test_every_premise_smollm2_wrote_on_the_default_grid_still_reads():
    """The 326 premises of the default grid's SmolLM2 renders (held to the patterns; BENCHMARKS.md lists each
    beside its fact, issue 29) read as their facts with the reader of free English too."""
    import re
    from pathlib import Path

    from families.ir import INTEGER
    prefix = {"order": "transitive_order", "member": "membership_inheritance", "state": "sequential_state_update",
              "equality": "equality"}
    rows = [line for line in (Path(__file__).parent.parent / "BENCHMARKS.md").read_text().splitlines()
            if re.match(r"\| (order|member|state|equality)-\d+ \| ok \|", line)]
    assert len(rows) == 326
    for line in rows:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        family = prefix[cells[0].split("-")[0]]
        m = re.match(r"(\w+)\(([^)]*)\) = \w+\(([^)]*)\)", cells[2])
        pred, symbols, names = m.group(1), m.group(2).split(","), m.group(3).split(",")
        args, named, types = [], {}, {}
        for s, n, t in zip(symbols, names, FAMILIES[family].predicates[pred]):
            if t == INTEGER:
                args.append(int(s))
            else:
                args.append(s)
                named[s], types[s] = n, t
        text = "|".join(cells[4:])
        assert reader(family).read_fact(text, (pred, tuple(args)), Marked(named, types), types) == READ, text


@settings(max_examples=80, deadline=None)
@given(stems=st.tuples(st.sampled_from(["wump", "tump", "yump", "rom", "lemp", "shump", "felp", "dralp", "hap"]),
                       st.sampled_from(["zorp", "numb", "kalp", "jelp", "vex", "sterp", "gorp", "tiff", "quor"])),
       form=st.sampled_from(["All {a}es are {b}es.", "Every {a} is a {b}.", "Each {a} is a {b}.",
                             "All {a}es are also {b}es.", "Every single {a} is a {b}."]))
def test_a_category_named_in_us_reads_in_its_plural_in_es(stems, form):
    """A model's made-up kinds in -us ("wumpus") take -es in the plural ("All wumpuses are tumpuses"): read as the
    subset in its direction, and the other direction misread."""
    a, b = stems[0] + "us", stems[1] + "us"
    names, types = {"S0": a, "S1": b}, {"S0": "Set", "S1": "Set"}
    marked = Marked(names, types)
    text = form.format(a=a, b=b)
    r = reader("membership_inheritance")
    assert r.read_fact(text, ("SUBSET_OF", ("S0", "S1")), marked, types).kind == "read", text
    assert r.read_fact(text, ("SUBSET_OF", ("S1", "S0")), marked, types).kind == "misread", text


# A plural's possessive ("the Otters' score") reads as its "'s" form: the same fact, the same twins misread; a
# single quote that closes a quotation ("called 'the Otters'") is no possessive.
_TEAMS = ["the Otters", "the Hawks", "the Badgers", "the Lions"]


@settings(max_examples=60, deadline=None)
@given(team=st.sampled_from(_TEAMS), n=st.integers(2, 99), noun=st.sampled_from(["score", "total", "count", "tally"]),
       change=st.sampled_from([("INITIAL_VALUE", "starts at {n}"), ("INITIAL_VALUE", "begins at {n}"),
                               ("INCREMENT", "rises by {n}"), ("DECREMENT", "drops by {n}")]))
def test_a_plurals_possessive_reads_as_its_s_form_and_its_twins_do_not(team, n, noun, change):
    pred, verb = change
    other = next(t for t in _TEAMS if t != team)
    types = {t: "Counter" for t in _TEAMS}
    marked = Marked({t: t for t in _TEAMS}, types)
    r = reader("sequential_state_update")

    def verdict(text: str, fact: tuple) -> str:
        return r.read_fact(text, fact, marked, types)[0]
    owner = team[0].upper() + team[1:]
    fact = (pred, (team, n))
    plural, s_form = f"{owner}' {noun} {verb.format(n=n)}.", f"{owner}'s {noun} {verb.format(n=n)}."
    assert verdict(plural, fact) == verdict(s_form, fact) == "read", plural
    assert verdict(plural, (pred, (other, n))) == "misread", plural
    assert verdict(plural, (pred, (team, n + 1))) == "misread", plural
    assert verdict(f"{owner}' {noun} {verb.format(n=f'about {n}')}.", fact) != "read"
    assert verdict(f"{owner}' {noun} never {verb.format(n=n)}.", fact) != "read"


def test_a_closing_quote_is_no_possessive():
    assert tokens("The team called 'the Otters' scores 5") == tokens("The team called the Otters scores 5")
    assert tokens("The Otters' score") == tokens("The Otters's score")


def test_a_plurals_possessive_before_a_capital_or_a_noun_not_owned_is_one_name():
    # blind10: "Everyone in the Potters' Guild also belongs to the Masons' Guild" names the Potters and the Masons
    assert tokens("the Potters' Guild") == tokens("the Potters Guild")
    # blind12: "Alaric is a member of the Potters' guild": a possessive of no owned noun is dropped as before
    assert tokens("the Potters' guild") == tokens("the Potters guild")
    assert tokens("the Otters’ score") == tokens("the Otters's score")
