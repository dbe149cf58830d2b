"""The reader on the forms a strong model writes that the held-out corpus showed (issue 42): each form applies to
every phrasing (past tense, scene openers, bullets and markdown, fronted order sentences, label lists, instructions,
a label named per case), reads where faithful, and a hedge, symbol or look-alike name put into it is never ok."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader
from families.registry import FAMILIES
from providers.builtin import template_structure
from rendering.render import StructuredRender
from rendering.structure import check, from_object, reason_code
from tests.conftest import make

NAMES = {"E0": "Nico", "E1": "Ben", "S0": "Bakers", "S1": "Divers", "C0": "Hopper", "C1": "Silo", "q": "q", "j": "j"}
TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set", "C0": "Counter", "C1": "Counter",
         "q": "Variable", "j": "Variable"}
FAMILY_NAMES = sorted(FAMILIES)

READS = [
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), [
        "Nico was standing somewhere to the left of Ben.", "Somewhere to the right of Nico stood Ben.",
        "To the left of Ben sits Nico.", "Somewhere to the left of Ben, you will find Nico.",
        "Further along to the right of Nico is Ben.", "Relative to Ben, Nico is on the left.",
        "Reading the row from left to right, Nico comes before Ben.", "Nico occupies a place to the left of Ben.",
        "Nico's spot in the row lies to the left of Ben's spot.", "Going leftward from Ben, one eventually reaches Nico.",
        "Nico is to Ben's left, though not necessarily beside Ben.", "Nico had found a spot further left than Ben.",
        "Ben ended up somewhere to the right of Nico.", "1. Nico is to the left of Ben.", "- **Nico** is left of Ben.",
        "First, note that Nico is to the left of Ben.", "Nico is to the left of Ben, with possibly others in between.",
        "Nico comes before Ben from left to right."]),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), [
        "Nico, for one, is a Baker.", "Everyone agrees that Nico belongs to the Bakers.", "Nico is one of those Bakers.",
        "The group known as the Bakers has Nico in it.", "Nico has been one of the Bakers for years.",
        "Nico proudly counts among the Bakers.", "Nico was a Baker.", "Nico is a member of the Bakers group."]),
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0")), [
        "Nico falls outside the Bakers.", "The Bakers do not count Nico among their number.",
        "Nico does not appear among the Bakers.", "Nobody among the Bakers is Nico.",
        "The Bakers do not have Nico in their ranks.", "Nico has never been one of the Bakers.",
        "Nico did not belong to the Bakers.", "Nico is not counted among the Bakers."]),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), [
        "A Baker is always a Diver.", "All Bakers, without exception, are also Divers.",
        "Every single Baker is also counted as a Diver.", "By old custom, every Baker is also a Diver.",
        "In this town, all Bakers are Divers as well.", "No Baker is not a Diver."]),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 5)), [
        "Before anything changes, the Hopper has 5 items.", "5 items are in the Hopper at the outset.",
        "First, note that the Hopper starts with 5 items.", "Starting inventory of the Hopper: 5 items.",
        "Originally, the Hopper had 5 items.", "Right at the start there are 5 items inside the Hopper.",
        "When the doors open in the morning, the Hopper holds 5 items."]),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 0)), ["At the start, the Hopper is completely empty."]),
    ("sequential_state_update", ("INCREMENT", ("C0", 17)), [
        "A shipment of 17 items is added to the Hopper.", "First, a neighbor brings 17 items to the Hopper.",
        "The Hopper gained 17 items.", "The Hopper received 17 more items.", "A worker added 17 items to the Hopper.",
        "Then 17 items went into the Hopper.", "The Hopper's stock rose by 17.", "The Hopper has 17 items added to it."]),
    ("sequential_state_update", ("DECREMENT", ("C0", 23)), [
        "23 items are carted away from the Hopper.", "Later on, a withdrawal of 23 items is made from the Hopper.",
        "Then, subtract 23 items from the Hopper.", "23 items are then cleared out of the Hopper.",
        "Next, 23 items are loaded onto a cart and taken out of the Hopper.",
        "Finally, the owner sends 23 items away from the Hopper."]),
    ("equality", ("EQUAL", ("q", "j")), ["There is no difference between q and j.", "One can assume q = j.",
                                          "q and j turn out to be equal."]),
    ("equality", ("NOT_EQUAL", ("q", "j")), ["The values of q and j are unequal.", "Variable q is unequal to variable j.",
                                              "q cannot be equal to j.", "The value of q is not the value of j."]),
]


@pytest.mark.parametrize("family,fact,texts", READS, ids=[f"{r[1][0]}-{i}" for i, r in enumerate(READS)])
def test_the_forms_of_free_english_read_as_their_fact(family, fact, texts):
    marked = Marked(NAMES, TYPES)
    for text in texts:
        assert reader(family).read_fact(text, fact, marked, TYPES) == ("read", ""), text


NOT_READ = [   # each says more or less than its fact: never read (unread or misread)
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0")), "Nico is no longer one of the Bakers."),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), "Nico used to be one of the Bakers."),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), "Nico hopes to join the Bakers."),
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0")), "Nico is not one of the Bakers yet."),
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0")), "Nico is not known to be a Baker."),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), "A Baker is usually a Diver."),
    ("membership_inheritance", ("SUBSET_OF", ("S0", "S1")), "Every Baker was once a Diver."),
    ("equality", ("NOT_EQUAL", ("q", "j")), "q may not be equal to j."),
    ("equality", ("EQUAL", ("q", "j")), "There is some difference between q and j."),
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Somewhere to the right of Ben stood Nico."),
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Going leftward from Nico, one eventually reaches Ben."),
    ("transitive_order", ("LEFT_OF", ("E0", "E1")), "Nico was standing immediately to the left of Ben."),
    ("sequential_state_update", ("INITIAL_VALUE", ("C0", 5)), "Before anything changes, the Hopper has about 5 items."),
    ("sequential_state_update", ("INCREMENT", ("C0", 17)), "A shipment of 17 items is taken from the Hopper."),
    ("sequential_state_update", ("INCREMENT", ("C0", 17)), "The Hopper lost 17 items."),
    ("sequential_state_update", ("INCREMENT", ("C0", 17)), "The Hopper started with 17 items."),
    ("membership_inheritance", ("NOT_MEMBER_OF", ("E0", "S0")), "Nico did not use to be a Baker."),
]


@pytest.mark.parametrize("family,fact,text", NOT_READ, ids=[w[2] for w in NOT_READ])
def test_what_says_more_or_less_is_never_read(family, fact, text):
    assert reader(family).read_fact(text, fact, Marked(NAMES, TYPES), TYPES).kind != "read", text


LABELS3 = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
YES3 = ("YES", "NO", "UNKNOWN")
QUESTIONS = [
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Where, relative to Ben, is Nico positioned? "
     "(LEFT_OF / RIGHT_OF / UNKNOWN)", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Which label describes where Nico is compared with Ben: "
     "LEFT_OF, RIGHT_OF, or UNKNOWN?", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Looking at the row, is Nico somewhere left of Ben "
     "(LEFT_OF), somewhere right of Ben (RIGHT_OF), or can it not be determined (UNKNOWN)?", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Looking at the row, is Nico somewhere left of Ben "
     "(RIGHT_OF), somewhere right of Ben (LEFT_OF), or can it not be determined (UNKNOWN)?", "misread"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Where does Nico stand with respect to Ben: to his left "
     "(LEFT_OF), to his right (RIGHT_OF), or cannot be determined (UNKNOWN)?", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Using the labels LEFT_OF, RIGHT_OF and UNKNOWN, state "
     "where Nico is relative to Ben.", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Is Nico left of Ben or right of Ben? If the information "
     "is insufficient, answer UNKNOWN; otherwise answer LEFT_OF or RIGHT_OF.", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Where is Ben relative to Nico? (LEFT_OF / RIGHT_OF / "
     "UNKNOWN)", "misread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Is Nico a Baker? (YES / NO / UNKNOWN)", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Is Nico to the left of Ben, to the right of Ben, or "
     "can't it be determined from the statements?", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Determine whether Nico is a Baker. Use YES, NO, or "
     "UNKNOWN.", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Determine whether Nico is not a Baker. Use YES, NO, or "
     "UNKNOWN.", "misread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Question: can we conclude that Nico is among the "
     "Bakers? Choose YES if Nico must be one of the Bakers, NO if Nico cannot be, and UNKNOWN if it cannot be "
     "determined.", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Question: can we conclude that Nico is among the "
     "Bakers? Choose YES if Nico cannot be one of the Bakers, NO if Nico must be, and UNKNOWN if it cannot be "
     "determined.", "misread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Would Nico be considered a Baker? Answer YES, NO, "
     "or UNKNOWN.", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Could Nico possibly be a Baker? Answer YES, NO, "
     "or UNKNOWN.", "unread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "**Question:** Is Nico a Baker? Options: YES, NO, "
     "UNKNOWN.", "read"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("10", "11", "12"), "How many items does the Hopper end up "
     "with? Possible answers: 10, 12 or 11.", "read"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("10", "11", "12"), "Determine the number of items in the "
     "Hopper after the last change. Answer with one of 11, 10 or 12.", "read"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("10", "11", "12"), "Compute the final contents of the Hopper "
     "in items. Answer 10, 11 or 12.", "read"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("10", "11", "12"), "How many items does the Hopper end up "
     "with? Options are 10, 12 or 13.", "misread"),
    # the order's and sets' question forms (issue 42): restated, glossed labels, terse, notation, clause after an opener
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Which relation holds between Nico and Ben (that is, where "
     "is Nico compared to Ben)? Answer LEFT_OF / RIGHT_OF / UNKNOWN.", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Which relation holds between Nico and Ben (that is, where "
     "is Ben compared to Nico)? Answer LEFT_OF / RIGHT_OF / UNKNOWN.", "misread"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "What can be concluded about where Nico is relative to "
     "Ben? Permitted answers: \"LEFT_OF\", \"RIGHT_OF\", \"UNKNOWN\".", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Determine the relation RELATION(Nico, Ben): is Nico left "
     "of Ben, right of Ben, or unknown? Answer with LEFT_OF, RIGHT_OF or UNKNOWN.", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Query: RELATION(Ben, Nico) ∈ {LEFT_OF, RIGHT_OF, "
     "UNKNOWN}.", "misread"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Nico vs. Ben: LEFT_OF, RIGHT_OF, or UNKNOWN?", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Using only the information above, decide how Nico is "
     "placed relative to Ben. Answer with one of LEFT_OF, RIGHT_OF, UNKNOWN.", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Complete the statement 'Nico is ___ Ben' with LEFT_OF, "
     "RIGHT_OF, or UNKNOWN (if it cannot be determined).", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Complete the statement 'Nico is ___ Ben' with LEFT_OF "
     "(to the right), RIGHT_OF (to the left), or UNKNOWN.", "misread"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Determine whether Nico is to the left of Ben (LEFT_OF), "
     "to the right of Ben (RIGHT_OF), or whether this cannot be determined (UNKNOWN).", "read"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Determine whether Nico is to the left of Ben (RIGHT_OF), "
     "to the right of Ben (LEFT_OF), or whether this cannot be determined (UNKNOWN).", "misread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Can Nico be placed among the Bakers? Answer YES (a "
     "member), NO (not a member), or UNKNOWN.", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Can Nico be placed among the Bakers? Answer YES (not a "
     "member), NO (a member), or UNKNOWN.", "misread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Query: MEMBER_OF(Nico, Bakers). Answer YES, NO, or "
     "UNKNOWN.", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Does the group of Bakers include Nico? [YES, NO, "
     "UNKNOWN]", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Is Nico a Baker? Respond with yes, no, unknown.",
     "unread"),
    ("transitive_order", ("RELATION", ("E0", "E1")), LABELS3, "Where is Nico relative to Ben? Answer left_of, RIGHT_OF "
     "or UNKNOWN.", "unread"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Is Nico a Baker? Answer Yes, No, or Unknown.", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Is Nico among the Bakers? Reply YES if it follows, "
     "NO if it is ruled out, or UNKNOWN if the statements don't settle it.", "read"),
    ("membership_inheritance", ("MEMBER_OF", ("E0", "S0")), YES3, "Is Nico among the Bakers? Reply YES if it is ruled "
     "out, NO if it follows, or UNKNOWN if the statements don't settle it.", "misread"),
    ("equality", ("ENTAILED", ()), ("q = j", "q != j"), "Which option must hold given all of the above? (A) q = j "
     "(B) q != j", "read"),
    ("equality", ("ENTAILED", ()), ("q = j", "q != j"), "Select the statement that must follow from the relations "
     "above:\nA. q = j\nB. q != j", "read"),
    # an option altered ("j = q" for "j != q"): never read. It was misread only as a question holding a negation,
    # the label's own "!=" (the false misread of blind17-20's faithful questions); the list is not sure of more
    ("equality", ("ENTAILED", ()), ("q != j", "j != q"), "Which of the following statements necessarily follows?\n"
     "A. q != j\nB. j = q", "unread"),
    ("equality", ("ENTAILED", ()), ("q = j", "q != j"), "Given the relations above, which conclusion is valid?\n"
     "A. q = j\nB. q != j", "read"),
    ("equality", ("ENTAILED", ()), ("q = j", "q != j"), "Which statement is definitely true?\n1. q = j\n2. q != j",
     "read"),
    ("equality", ("ENTAILED", ()), ("q = j", "q != j"), "Which statement is definitely true?\n1. q = j\n2. q = j",
     "misread"),
    ("sequential_state_update", ("FINAL_VALUE", ("C0",)), ("10", "11", "12"), "How many items does the Hopper end up "
     "with? Options: 10, 11 or 9.", "unread"),
    ("equality", ("ENTAILED", ()), ("q = j", "q != j"), "Which of the following necessarily follows? (The answer is A.)"
     "\nA. q = j\nB. q != j", "unread"),
]


@pytest.mark.parametrize("family,query,labels,text,kind", QUESTIONS, ids=[q[3][:70] for q in QUESTIONS])
def test_label_lists_instructions_and_labels_named_per_case_read_only_as_the_query(family, query, labels, text, kind):
    v = reader(family).read_question(text, query, Marked(NAMES, TYPES), TYPES, labels)
    assert v.kind == kind, v


def _intro_reasons(intro: str) -> list[str]:
    payload = make("equality", 3, 3).redact()
    render = from_object(template_structure(payload))
    return check(StructuredRender(render.names, render.premises, render.question, intro), payload)


def test_an_intro_may_set_one_row_and_say_a_but_never_count_or_hint():
    assert _intro_reasons("People stand in one long row, one per line.") == []
    assert _intro_reasons("A puzzle book presents a few relationships between mystery values.") == []
    assert _intro_reasons("In the town, almost everyone belongs to at least one of the guilds.") == []
    assert any("number" in r for r in _intro_reasons("One storeroom ends the day with forty-six items."))
    assert any("speaks of the answer" in r for r in _intro_reasons("Hint: the correct option is an equality."))
    assert any("number" in r for r in _intro_reasons("Two of the values are equal."))


# Each form, applied to every premise of a template render, keeps it faithful; the property tests below put a hedge,
# a symbol or a look-alike letter into a premise so formed, and the render is then never ok.
FORMS = {
    "past": lambda t: re.sub(r"\b(is|are|gains)\b", lambda m: {"is": "was", "are": "were", "gains": "gained"}[m.group(1)],
                             t, count=1),
    "opener": lambda t: "Note that " + t[:1].lower() + t[1:] if not t[:1].islower() else "Note that " + t,
    "bullet": lambda t: "- " + t,
    "markdown": lambda t: "**" + t.rstrip(".") + "**.",
}
INSERTS = ["about", "roughly", "probably", "maybe", "at least", "immediately", "directly", "next to", "~", "-", "+",
           "%", "<", "|", "≈", "used to be"]


def _formed(family: str, index: int, complexity: int, form: str):
    payload = make(family, index, complexity).redact()
    render = template_structure(payload)
    for p in render["premises"]:
        p["text"] = FORMS[form](p["text"])
    return payload, render


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_applied_to_every_premise_of_a_template_render_reads(family, form):
    for index in range(12):
        payload, render = _formed(family, index, 1 + index % 8, form)
        assert check(from_object(render), payload) == [], [p["text"] for p in render["premises"]]


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(max_examples=50, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 8), form=st.sampled_from(sorted(FORMS)),
       which=st.floats(0, 1), gap=st.floats(0, 1), word=st.sampled_from(INSERTS))
def test_a_hedge_sign_or_adjacency_word_in_a_formed_premise_is_never_ok(family, index, complexity, form, which, gap,
                                                                      word):
    payload, render = _formed(family, index, complexity, form)
    k = min(int(which * len(render["premises"])), len(render["premises"]) - 1)
    words = render["premises"][k]["text"].split(" ")
    at = min(int(gap * (len(words) + 1)), len(words))
    if at == 0 and word == "-":   # "- " opening a sentence is a list's bullet, read away
        at = 1
    render["premises"][k]["text"] = " ".join(words[:at] + [word] + words[at:])
    reasons = check(from_object(render), payload)
    assert reasons != [], render["premises"][k]["text"]
    assert all(reason_code(r) in ("misread", "unread") for r in reasons), reasons


LOOKALIKE = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і", "x": "х", "y": "у", "A": "А", "B": "В",
             "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т"}


@pytest.mark.parametrize("family", ["transitive_order", "membership_inheritance", "sequential_state_update"])
@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 8), form=st.sampled_from(sorted(FORMS)),
       which=st.floats(0, 1), spot=st.floats(0, 1))
def test_a_look_alike_letter_in_a_formed_premise_is_never_read(family, index, complexity, form, which, spot):
    payload, render = _formed(family, index, complexity, form)
    k = min(int(which * len(render["premises"])), len(render["premises"]) - 1)
    text = render["premises"][k]["text"]
    spots = [i for i, c in enumerate(text) if c in LOOKALIKE]
    if not spots:
        return
    i = spots[min(int(spot * len(spots)), len(spots) - 1)]
    render["premises"][k]["text"] = text[:i] + LOOKALIKE[text[i]] + text[i + 1:]
    assert check(from_object(render), payload) != []


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 200), complexity=st.integers(1, 8), where=st.floats(0, 1),
       symbol=st.sampled_from(list("~≈<>|+%^#@$&*\\") + ["-", "−", "±"]))   # "/" separates the labels
def test_a_symbol_in_a_question_with_a_label_list_is_never_ok(family, index, complexity, where, symbol):
    payload = make(family, index, complexity).redact()
    render = template_structure(payload)
    labels = [str(o) for o in payload["answer_options"]]
    if family == "equality":   # its options are lettered after the question
        return
    render["question"] = render["question"].rstrip() + " (" + " / ".join(labels) + ")"
    assert check(from_object(render), payload) == [], render["question"]
    text = render["question"]
    at = min(int(where * (len(text) + 1)), len(text))
    render["question"] = text[:at] + symbol + text[at:]
    assert check(from_object(render), payload) != [], render["question"]
