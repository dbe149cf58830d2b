"""Two of equality's labels explained by one clause about their pair (issue 42), composed (a lead, the pair's word,
the meaning): each label is judged by its own clause, so the faithful group reads and a group whose clause says the
other meaning, hedges or is about no pair never reads."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.label_pairs import each_explained
from families.reading import Marked, reader

LETTERS = "abcdefghijklmnopqrstuvwxyz"
TYPES = {s: "Variable" for s in LETTERS}
MARKED = Marked({s: s for s in LETTERS}, TYPES)
LABELS = ("u != l", "t = b", "t != b", "u = l")
ASK = "Which statement is necessarily true?"
LEADS = ["Answer", "Reply with", "Respond with", "Give", "Choose"]
PAIRS = ["that pair", "those two variables", "the two", "both", "they", "the pair", "these two letters"]
# the clause's meaning in the words a label's own clause reads in (families/label_clauses.py)
EQUAL = ["must be equal", "have the same value", "are equal", "must be the same", "are the same"]
UNEQUAL = ["must be unequal", "are not equal", "must not be equal", "have different values", "are different", "differ"]


def _read(text: str) -> str:
    return reader("equality").read_question(text, ("ENTAILED", ()), MARKED, TYPES, LABELS).kind


@st.composite
def grouped(draw: st.DrawFn, equal: list[str] = EQUAL, unequal: list[str] = UNEQUAL) -> str:
    lead, pair = draw(st.sampled_from(LEADS)), draw(st.sampled_from(PAIRS))
    eq = list(draw(st.permutations(["t = b", "u = l"])))
    ne = list(draw(st.permutations(["t != b", "u != l"])))
    first = f"{eq[0]} or {eq[1]} if {pair} {draw(st.sampled_from(equal))}"
    second = f"{ne[0]} or {ne[1]} if {pair} {draw(st.sampled_from(unequal))}"
    if draw(st.booleans()):
        first, second = second, first
    return f"{ASK} {lead} {first}, or {second}."


@settings(max_examples=80, deadline=None)
@given(grouped())
def test_two_labels_explained_by_their_pair_read(text):
    assert _read(text) == "read", text


@settings(max_examples=60, deadline=None)
@given(grouped(equal=UNEQUAL, unequal=EQUAL))
def test_a_pair_clause_with_the_other_meaning_is_misread(text):
    assert _read(text) == "misread", text


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["might be equal", "are probably equal", "are roughly equal", "could be equal"]))
def test_a_hedged_pair_clause_never_reads(data, hedged):
    text = data.draw(grouped(equal=[hedged]))
    assert _read(text) != "read", text


def test_each_label_gets_its_own_pair_and_other_text_is_as_written():
    text = "Answer t = b or u = l if that pair must be equal."
    assert each_explained(text, LABELS) == "Answer t = b if t and b must be equal, or u = l if u and l must be equal."
    for text in ["Answer t = b or u = l if the premises say so.", "Which holds: t = b or u = l?"]:
        assert each_explained(text, LABELS) == text
    assert each_explained("Answer YES or NO if they must.", ("YES", "NO", "UNKNOWN")) == "Answer YES or NO if they must."
    assert each_explained("t != b states that they differ.", LABELS) == "t != b states that t and b differ."


JOINS = ["states that", "says that", "claims that", "means that", "if", "when"]


@st.composite
def own_clauses(draw: st.DrawFn, swap: bool = False) -> str:
    """Each label joined to its own clause, its pair said by a pronoun ("m != c states that they are not equal")."""
    join, pair = draw(st.sampled_from(JOINS)), draw(st.sampled_from(["they", "the two", "both"]))
    modal = "must " if join in ("if", "when") else ""
    said = []
    for label in draw(st.permutations(LABELS)):
        equal = ("!=" not in label) != swap
        meaning = f"{modal}be equal" if equal else f"{modal}not be equal" if modal else "are not equal"
        meaning = "are equal" if equal and not modal else meaning
        said.append(f"{label} {join} {pair} {meaning}")
    lead = draw(st.sampled_from(["Answer ", "The option ", ""]))
    return f"{ASK} {lead}{', '.join(said[:-1])}, and {said[-1]}."


@settings(max_examples=80, deadline=None)
@given(own_clauses())
def test_a_labels_own_clause_naming_its_pair_by_a_pronoun_reads(text):
    assert _read(text) == "read", text


@settings(max_examples=60, deadline=None)
@given(own_clauses(swap=True))
def test_a_labels_own_clause_with_the_other_meaning_is_misread(text):
    assert _read(text) == "misread", text


def test_a_negation_in_a_sentence_of_labels_is_no_negated_ask_but_a_negated_ask_is_misread():
    # the "not" of "u != l states that they are not ..." (said in words the reader leaves unread) is a label's own
    unknown = f"{ASK} u != l stands in for the case where they are not alike, t = b for the case where they are alike."
    assert _read(unknown) == "unread", unknown
    for asked in ["Which statement does not hold? Answer u != l, t = b, t != b or u = l.",
                  "Which statement cannot be concluded with certainty? Answer u != l, t = b, t != b or u = l."]:
        assert _read(asked) == "misread", asked


# A case's pair carried to the next case by "they" ("If t and b must be equal, the answer is t = b; if they must
# differ, it is t != b"): read where the next case's label names the same pair, never where it names another.
IF_SAYS = ["the answer is", "answer", "it is", "pick", "reply with"]
IF_EQUAL = ["must be equal", "must have the same value", "are equal"]
IF_UNEQUAL = ["must differ", "must have different values", "are not equal"]


@st.composite
def carried(draw: st.DrawFn, swap: bool = False, other: bool = False) -> str:
    e, u = draw(st.sampled_from(IF_EQUAL)), draw(st.sampled_from(IF_UNEQUAL))
    if swap:   # the carried case only: "if they must be equal, it is t != b"
        u = draw(st.sampled_from(IF_EQUAL))
    s1, s2 = draw(st.sampled_from(IF_SAYS)), draw(st.sampled_from(IF_SAYS))
    who = draw(st.sampled_from(["they", "both", "the two"]))
    sep = draw(st.sampled_from(["; ", "; and ", ". "]))
    second = "u != l" if other else "t != b"
    nxt = "If" if sep == ". " else "if"
    return f"{ASK} If t and b {e}, {s1} t = b{sep}{nxt} {who} {u}, {s2} {second}; if u and l {IF_EQUAL[0]}, it is " \
           f"u = l; and if they {IF_UNEQUAL[0]}, it is {'t != b' if other else 'u != l'}."


@settings(max_examples=60, deadline=None)
@given(carried())
def test_a_pair_carried_to_the_next_case_by_a_pronoun_reads(text: str) -> None:
    assert _read(text) == "read", text


@settings(max_examples=40, deadline=None)
@given(carried(swap=True))
def test_a_carried_pair_with_the_meanings_swapped_is_misread(text: str) -> None:
    assert _read(text) == "misread", text


@settings(max_examples=40, deadline=None)
@given(carried(other=True))
def test_a_pronoun_before_a_label_of_another_pair_never_reads(text: str) -> None:
    assert _read(text) != "read", text
