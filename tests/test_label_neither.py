"""UNKNOWN said as a source of the facts settling neither answer ("the facts decide neither way", "the notes determine
neither case"), composed of any source, any verb of settling and any word for the answers (families/label_clauses.py):
it reads; the same clause settling something, hedged, swapped onto another label or about another set never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {"E0": "Quimby", "S0": "lamp imps", "S1": "oak nymphs"}
TYPES = {"E0": "Entity", "S0": "Set", "S1": "Set"}
ASK = "Is Quimby one of the lamp imps? YES means {y}; NO means {n}; UNKNOWN means {u}."
YES, NO = "Quimby must be one of the lamp imps", "Quimby cannot be one of them"
SOURCES = ["the facts", "the statements", "the clues", "the notes", "the premises"]
VERBS = ["decide", "determine", "settle", "resolve", "fix", "confirm", "establish", "prove"]
TAILS = ["way", "case", "option", "answer", "outcome", "of them", "of these"]


def _kind(yes: str, no: str, unknown: str) -> str:
    return reader("membership_inheritance").read_question(ASK.format(y=yes, n=no, u=unknown), (
        "MEMBER_OF", ("E0", "S0")), Marked(NAMES, TYPES), TYPES, ("YES", "NO", "UNKNOWN")).kind


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SOURCES), st.sampled_from(VERBS), st.sampled_from(TAILS))
def test_a_source_settling_neither_answer_reads_as_unknown_and_its_poisons_do_not(source, verb, tail):
    neither = f"{source} {verb} neither {tail}"
    assert _kind(YES, NO, neither) == "read", neither
    for yes, no, unknown in [(YES, NO, f"{source} {verb} it"), (YES, NO, f"{source} {verb} one {tail}"),
                             (YES, NO, f"{source} probably {verb} neither {tail}"),
                             (YES, NO, f"{source} {verb} either {tail}"),
                             (YES, NO, f"{neither} for the oak nymphs"),
                             (neither, NO, YES), (YES, neither, NO),
                             ("Quimby must be one of the oak nymphs", NO, neither),
                             (YES, "Quimby may not be one of them", neither)]:
        assert _kind(yes, no, unknown) != "read", (yes, no, unknown)
