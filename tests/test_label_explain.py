"""Label explanations (families/label_explain.py) whose labels a noun of options opens ("Option g != d says g is not
equal to d, option f = k says f equals k, ..."): read clause by clause, and a clause that says another label's meaning
is misread whatever noun opens it."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {s: s for s in "dfgk"}
TYPES = {s: "Variable" for s in NAMES}
LABELS = ("g != d", "f = k", "g = d", "f != k")
MEANING = {"g != d": "g is not equal to d", "f = k": "f equals k", "g = d": "g equals d", "f != k": "f is not equal to k"}
NOUNS = ["option", "the option", "answer", "choice", "label", "statement"]
VERBS = ["says", "means", "indicates"]


def _kind(text: str) -> str:
    return reader("equality").read_question(text, ("ENTAILED", ()), Marked(NAMES, TYPES), TYPES, LABELS).kind


def _said(noun: str, verb: str, meaning: dict[str, str]) -> str:
    parts = [f"{noun} {label} {verb} {meaning[label]}" for label in LABELS]
    body = ", ".join(parts[:-1]) + ", and " + parts[-1]
    return "Which statement must hold? " + body[:1].upper() + body[1:] + "."


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(NOUNS), st.sampled_from(VERBS), st.integers(0, 3))
def test_labels_opened_by_a_noun_of_options_read_and_a_swapped_meaning_is_misread(noun: str, verb: str, k: int) -> None:
    assert _kind(_said(noun, verb, MEANING)) == "read", _said(noun, verb, MEANING)
    flipped = dict(MEANING)
    label = LABELS[k]
    flipped[label] = MEANING[LABELS[(k + 2) % 4]]   # the label said as its opposite
    assert _kind(_said(noun, verb, flipped)) == "misread", _said(noun, verb, flipped)
