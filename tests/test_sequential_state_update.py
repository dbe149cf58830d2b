"""What sequential_state_update's docstring says about its options, measured."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader
from tests.conftest import make, put_into

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


# The forms a strong model writes for a counter (issue 42), each a class built from parts, not a listed sentence:
# code and assignment, orders, "set", a container of a thing ("sacks of grain"), "no crates" as 0, partitives of the
# counter's own things, day and step openers, "than it did before". Each reads as its fact; with a sign, a hedge, a
# percent, a negation or a final-value word put in anywhere, none reads.
_MARKED = Marked({"Silo": "Silo", "Depot": "Depot"}, {"Silo": "Counter", "Depot": "Counter"})
_TYPES = {"Silo": "Counter", "Depot": "Counter"}
FORMS = {
    "INITIAL_VALUE": ["Silo := {n}.", "Initially, Silo = {n}.", "Silo = {n} at the start.",
                      "The Silo is set to {n} at the outset.", "Set the Silo to {n}.", "Let the Silo start at {n}.",
                      "We begin with {n} crates in the Silo.", "There are initially {n} units in the Silo.",
                      "The Silo initially reads {n}.", "Start: the Silo contains {n} sacks of grain.",
                      "On Monday morning, the Silo has {n} parcels.", "Our Silo starts out holding {n} jars.",
                      "The count in the Silo is {n} at the beginning.", "The Silo is stocked with {n} bags of rice at first.",
                      "The Silo has an initial stock of {n} crates.", "At the beginning, {n} crates sit in the Silo.",
                      "Silo: {n} crates at the start.", "The Silo was initially stocked with {n} crates.",
                      "We start with the Silo holding {n} crates.", "The Silo is initially set to {n}."],
    "INCREMENT": ["Silo += {n}.", "Silo = Silo + {n}.", "Increase the Silo by {n}.", "Silo is incremented by {n}.",
                  "Later that day, {n} sacks of grain are added to the Silo.", "Step: add {n} crates to the Silo.",
                  "Shortly afterwards, the Silo is restocked with {n} more parcels.",
                  "The number of fish in the Silo rises by {n}.",
                  "{n} canoes are stored in the Silo on top of what is already there.",
                  "Someone donates {n} novels, and they all go into the Silo.",
                  "After this, the Silo contains {n} more cars than it did before.", "Then {n} extra units are added to the Silo.",
                  "Then, the Silo receives a delivery of {n} crates.", "{n} crates are added to the Silo's stock.",
                  "Then the Silo is increased by {n} once more.", "The Silo gains {n} crates again.",
                  "Then another {n} cars park in the Silo.", "First, {n} cars pull into the Silo.",
                  "First, the Silo's reading rises by {n}.", "Then the Silo saves {n} more coins.",
                  "Next, {n} points are awarded to the Silo."],
    "DECREMENT": ["Silo -= {n}.", "Silo = Silo - {n}.", "Decrease the Silo by {n}.", "The Silo is debited {n} loaves.",
                  "Next, {n} of the crates in the Silo are sold off.", "Later, the Silo hands over {n} of its books.",
                  "After this, the Silo contains {n} fewer cars than it did before.",
                  "The number of gold bars in the Silo falls by {n}.", "In the afternoon, the Silo's count drops by {n}.",
                  "Silo is decremented by {n}.", "Step 4: remove {n} dogs from the Silo.",
                  "The Silo loses {n} crates once again.", "Finally, {n} cars drive out of the Silo.",
                  "Then the Silo's level falls by {n}."]}
_CASES = [(pred, form) for pred, forms in FORMS.items() for form in forms]
# What makes a faithful form say another thing: a sign, a hedge or bound on its number, a percent, a multiplier, a
# negation, a final value.
INSERTS = ["-", "+", "−", "±", "~", "≈", "%", "about", "roughly", "approximately", "nearly", "almost", "at least",
           "at most", "over", "under", "up to", "probably", "maybe", "not", "never", "ends", "final", "in total",
           "a dozen", "dozen", "<=", ">=", "<", ">"]


def _read(text: str, pred: str, n: int) -> str:
    return reader(FAMILY).read_fact(text, (pred, ("Silo", n)), _MARKED, _TYPES)[0]


@pytest.mark.parametrize("pred,form", _CASES)
def test_each_counter_form_reads_as_its_fact_and_not_as_another(pred, form):
    n = 14
    assert _read(form.format(n=n), pred, n) == "read", form
    assert _read(form.format(n=n), pred, n + 1) == "misread", form   # another number: misread
    other = {"INITIAL_VALUE": "INCREMENT", "INCREMENT": "DECREMENT", "DECREMENT": "INCREMENT"}[pred]
    assert _read(form.format(n=n), other, n) != "read", form


@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(_CASES), n=st.integers(2, 99), word=st.sampled_from(INSERTS), where=st.floats(0, 1))
def test_a_sign_hedge_percent_negation_or_end_put_into_a_counter_form_never_reads(case, n, word, where):
    pred, form = case
    text = put_into(form.format(n=n), word, where, bullets=("-", "−"))
    assert _read(text, pred, n) != "read", text


@settings(max_examples=100, deadline=None)
@given(case=st.sampled_from(_CASES), n=st.integers(2, 99), sign=st.sampled_from(["-", "+", "~", "−"]),
       after=st.sampled_from(["", "%"]))
def test_a_counter_forms_number_with_a_sign_or_percent_never_reads(case, n, sign, after):
    pred, form = case
    text = form.format(n=f"{sign}{n}{after}")
    assert _read(text, pred, n) != "read", text


def test_a_bare_assignment_is_no_start_and_a_measure_no_count():
    assert _read("Silo = 14.", "INITIAL_VALUE", 14) != "read"   # may as well be an end
    assert _read("Finally, the Silo reads 14.", "INITIAL_VALUE", 14) != "read"
    assert _read("Next, 14 of the 40 crates in the Silo are sold off.", "DECREMENT", 14) != "read"
    assert _read("Silo starts with 14 tons of wheat.", "INITIAL_VALUE", 14) != "read"
    assert _read("Then the Silo rises to 14 units.", "INCREMENT", 14) != "read"
    assert _read("Then the Silo now holds 14 jars in total.", "INCREMENT", 14) != "read"


QUESTIONS = ["After the last update, what value does the Silo have?", "What value does the Silo have after the last update?",
             "When everything is done, what does the Silo contain?", "Final value of Silo?", "Final count in the Silo:",
             "Query: FINAL_VALUE(Silo).", "By the end, what number of horses is in the Silo?",
             "What's the final count for the Silo?", "Work out how many books the Silo holds after everything above has happened.",
             "So how many fish are in the Silo now that everything has happened?",
             "After all of these steps, how many sacks of grain are in the Silo?",
             "How many guests are staying at the Silo after all of these changes?",
             "How many barrels does the Silo carry after all of these steps?"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_final_value_asked_in_free_english_reads_and_asked_of_the_start_or_both_does_not(question):
    def asked(text: str) -> str:
        return reader(FAMILY).read_question(text, ("FINAL_VALUE", ("Silo",)), _MARKED, _TYPES, ("12", "14", "16"))[0]
    assert asked(question) == "read", question
    assert asked(question + " Respond with 12, 14, or 16.") == "read", question
    assert asked(question.rstrip("?.:") + " at the start?") != "read", question
    assert asked(question.rstrip("?.:") + " and the Depot together?") != "read", question
    assert asked(question.replace("Silo", "Depot")) != "read", question


@pytest.mark.parametrize("opener", ["At the end", "At the very end", "Right at the end", "Near the end", "Toward the end"])
@pytest.mark.parametrize("pred,verb", [("INCREMENT", "gains"), ("DECREMENT", "loses")])
def test_a_change_said_at_the_end_is_the_last_change_and_a_value_there_is_none(opener, pred, verb):
    # blind24's false misread: "At the end, Nora gains 94 coins" is a change applied last, not a final value
    n = 14
    assert _read(f"{opener}, the Silo {verb} {n} crates.", pred, n) == "read"
    assert _read(f"{opener}, the Silo {verb} {n + 2} crates.", pred, n) == "misread"
    other = "DECREMENT" if pred == "INCREMENT" else "INCREMENT"
    assert _read(f"{opener}, the Silo {verb} {n} crates.", other, n) == "misread"
    for twin in (f"{opener}, the Silo does not {verb[:-1]} {n} crates.", f"{opener}, the Silo {verb} about {n} crates.",
                 f"{opener}, the Silo has {n} crates.", f"{opener}, the Silo ends with {n} crates."):
        assert _read(twin, pred, n) != "read", twin
    assert _read(f"{opener}, the Silo has {n} crates.", "INITIAL_VALUE", n) != "read"
    # "in the end" may sum every change: never read as one, and no misread either (its "end" is no word the grammar
    # is sure of); another cue beside it still is one
    assert _read(f"In the end, the Silo {verb} {n} crates.", pred, n) == "unread"
    assert _read(f"In the end, the Silo {verb} {n} crates.", other, n) == "misread"
    assert _read(f"In the end, the Silo ends up gaining {n} crates.", pred, n) == "misread"
    assert _read(f"In the end, the Silo probably {verb} {n} crates.", pred, n) == "misread"
