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


# The whole explanation in one bracket after the ask ("Is Saffi a tumbit? (YES = ...; NO = ...; UNKNOWN = ...)")
M_NAMES = {"E0": "Saffi", "E1": "Nib", "S0": "tumbit", "S1": "brindle"}
M_TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set"}
YES = ["Saffi is definitely a tumbit", "Saffi must be a tumbit", "she is certainly a tumbit", "it follows that Saffi is a tumbit"]
NO = ["Saffi is definitely not a tumbit", "Saffi cannot be a tumbit", "she is certainly not a tumbit"]
UNKNOWN = ["the information given does not allow us to decide", "it cannot be determined", "the facts leave it open"]


def _member(text: str) -> str:
    return reader("membership_inheritance").read_question(text, ("MEMBER_OF", ("E0", "S0")), Marked(M_NAMES, M_TYPES),
                                                          M_TYPES, ("YES", "NO", "UNKNOWN")).kind


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(YES), st.sampled_from(NO), st.sampled_from(UNKNOWN), st.sampled_from([" = ", ": ", " means "]),
       st.sampled_from(["Is Saffi a tumbit?", "Question: Is Saffi a tumbit?"]))
def test_an_explanation_in_one_bracket_reads_and_swapped_or_hedged_does_not(yes: str, no: str, unknown: str, join: str,
                                                                            ask: str) -> None:
    def said(y: str, n: str) -> str:
        return f"{ask} (YES{join}{y}; NO{join}{n}; UNKNOWN{join}{unknown}.)"
    assert _member(said(yes, no)) == "read", said(yes, no)
    assert _member(said(no, yes)) == "misread", said(no, yes)
    hedged = said(yes.replace("Saffi", "Saffi probably", 1) if yes.startswith("Saffi") else "Saffi might be a tumbit", no)
    assert _member(hedged) != "read", hedged
