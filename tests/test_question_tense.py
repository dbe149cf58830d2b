"""A count's question in the past tense asks what the present asks (its words read in the present, as every sentence's:
families/wording.py); its twins (another counter, a start, a negation, a hedge) do not read as the query."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

_NAMES = ["the gold bin", "the silver bin"]
_TYPES = {n: "Counter" for n in _NAMES}
_MARKED = Marked({n: n for n in _NAMES}, _TYPES)
_LABELS = ("263", "265", "267")
# each a present ask and its past, the counted noun left to the draw
_ASKS = ["How many {noun} (are|were) in {x} at the end?", "How many {noun} (does|did) {x} hold at the end?",
         "How many {noun} (are|were) left in {x} at the end?", "How many {noun} (remain|remained) in {x} at the end?",
         "What (is|was) the final count of {x}?", "How many {noun} (are|were) in {x} after all of these changes?"]
_NOUNS = ["tokens", "coins", "crates", "items", "marbles", "books"]


def _asked(text: str, x: str = "the gold bin") -> str:
    return reader("sequential_state_update").read_question(text, ("FINAL_VALUE", (x,)), _MARKED, _TYPES, _LABELS)[0]


def _tensed(ask: str, tense: int, noun: str, x: str) -> str:
    head, rest = ask.split("(", 1)
    verbs, tail = rest.split(")", 1)
    return (head + verbs.split("|")[tense] + tail).format(noun=noun, x=x)


@settings(max_examples=60, deadline=None)
@given(ask=st.sampled_from(_ASKS), noun=st.sampled_from(_NOUNS), tense=st.integers(0, 1))
def test_a_count_asked_in_either_tense_reads_and_its_twins_do_not(ask, noun, tense):
    text = _tensed(ask, tense, noun, "the gold bin")
    assert _asked(text) == "read", text
    assert _asked(text, "the silver bin") != "read", text   # another counter
    body = text.rstrip("?")
    for twin in (body.replace("at the end", "") + " at the start?", body + " and the silver bin together?"):
        assert _asked(twin) != "read", twin
    for word in ("not", "roughly"):
        words = text.split()
        twin = " ".join(words[:3] + [word] + words[3:])
        assert _asked(twin) != "read", twin


def test_a_measure_asked_in_the_past_counts_no_items():
    assert _asked("How many kilograms were in the gold bin at the end?") != "read"
