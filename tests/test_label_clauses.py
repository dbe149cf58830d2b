"""A label's clause that names the query as the subject's membership (families/label_clauses.py): "YES if her
membership follows from the facts, NO if her non-membership follows from them" reads as the query and its opposite;
the two swapped are misread; a hedge or a double negation never reads."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.label_clauses import affirmed
from families.reading import Marked, reader
from families.wording import normalize, tokens

NAMES = {"E0": "Esme", "S0": "Silver Key"}
TYPES = {"E0": "Entity", "S0": "Set"}
ASKS = ["Does Esme belong to the Silver Key?", "Is Esme a member of the Silver Key?"]
OWNERS = ["her", "Esme's"]
NOUNS = [("membership", "non-membership"), ("membership", "nonmembership")]
SAID = ["follows from the facts", "follows from them", "is certain", "follows", "is the case"]


def _kind(text: str) -> str:
    return reader("membership_inheritance").read_question(text, ("MEMBER_OF", ("E0", "S0")), Marked(NAMES, TYPES),
                                                          TYPES, ("YES", "NO", "UNKNOWN")).kind


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ASKS), st.sampled_from(OWNERS), st.sampled_from(NOUNS), st.sampled_from(SAID),
       st.sampled_from(SAID))
def test_membership_as_a_noun_reads_and_swapped_is_misread(ask: str, owner: str, nouns: tuple[str, str], a: str,
                                                           b: str) -> None:
    yes, no = nouns

    def said(y: str, n: str) -> str:
        return f"{ask} Answer YES, NO, or UNKNOWN: YES if {owner} {y} {a}, NO if {owner} {n} {b}, and UNKNOWN if " \
               "neither can be concluded."
    assert _kind(said(yes, no)) == "read", said(yes, no)
    assert _kind(said(no, yes)) == "misread", said(no, yes)


def test_a_hedged_or_doubly_denied_membership_never_affirms() -> None:
    for clause in ["her membership might follow", "her membership is possible", "her non-membership is ruled out",
                   "his membership probably follows", "her membership is not certain"]:
        words = normalize(tokens(clause))
        assert affirmed(words, "@0", frozenset({"@0", "@1"})) is None or clause.endswith("not certain"), clause
    assert affirmed(normalize(tokens("her membership is not certain")), "@0", frozenset()) is not True
