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


# The pair's order said of the pair ("UNKNOWN if the order of the two cannot be worked out", blind24): unsettled; the
# same said settled, hedged, or of other names never is.
_ROW = {"E0": "tulip", "E1": "fern", "E2": "iris"}
_ROW_TYPES = {k: "Entity" for k in _ROW}
_LEFT_RIGHT = ("Is the tulip to the left or to the right of the fern? Answer LEFT_OF if the tulip is on the fern's left, "
               "RIGHT_OF if the tulip is on the fern's right, or UNKNOWN if ")


def _row_kind(text: str) -> str:
    return reader("transitive_order").read_question(text, ("RELATION", ("E0", "E1")), Marked(_ROW, _ROW_TYPES),
                                                    _ROW_TYPES, ("LEFT_OF", "RIGHT_OF", "UNKNOWN")).kind


@settings(max_examples=40, deadline=None)
@given(thing=st.sampled_from(["the order of the two", "their relative order", "the order of these two",
                              "the relative positions of the two", "the arrangement of the pair"]),
       said=st.sampled_from(["cannot be worked out", "cannot be determined", "is not known", "cannot be told"]))
def test_the_pairs_order_unsettled_reads_and_settled_or_hedged_does_not(thing, said):
    assert _row_kind(_LEFT_RIGHT + f"{thing} {said}.") == "read"
    settled = said.replace("cannot", "can").replace("is not", "is")
    assert _row_kind(_LEFT_RIGHT + f"{thing} {settled}.") != "read"
    assert _row_kind(_LEFT_RIGHT + f"{thing} probably {said}.") != "read"
    assert _row_kind(_LEFT_RIGHT + f"{thing.replace('the two', 'the tulip and the iris')} {said}.") != "read" or \
        "the two" not in thing
