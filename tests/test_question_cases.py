"""Label explanations beside an equality question (families/question_cases.py), composed from their parts: a pair's
clause with a modal before any verb ("if those two variables must have the same value"), the instruction said again
between clauses ("..., and pick c != g or r != s if ..."), "If C, the answer is L", and a bracketed gloss of the
signs after the list of options. The faithful one reads; the meanings swapped are misread; a hedge never reads."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {s: s for s in "cdgjnrs"}
TYPES = {s: "Variable" for s in NAMES}
LABELS = ("c != g", "r != s", "r = s", "c = g")
ASK = "Which one of the following necessarily follows: c != g, r != s, r = s, or c = g?"

SAME = ["must have the same value", "must be equal", "have the same value", "must hold the same value",
        "must share a value", "are certainly equal"]
DIFFERENT = ["must have different values", "must be unequal", "have different values", "must differ",
             "must hold different values", "cannot be equal"]
VERBS = ["Pick", "Choose", "Answer", "Reply with", "Select"]
AGAIN = ["", "pick ", "choose ", "with ", "answer "]
WHO = ["those two variables", "they", "the two", "both"]


def _kind(text: str, labels: tuple[str, ...] = LABELS) -> str:
    return reader("equality").read_question(text, ("ENTAILED", ()), Marked(NAMES, TYPES), TYPES, labels).kind


@st.composite
def paired(draw: st.DrawFn, same: str | None = None, different: str | None = None) -> str:
    """The ask, then both pairs of labels explained, each pair by one clause about "those two"."""
    s = same if same is not None else draw(st.sampled_from(SAME))
    d = different if different is not None else draw(st.sampled_from(DIFFERENT))
    verb, again = draw(st.sampled_from(VERBS)), draw(st.sampled_from(AGAIN))
    who, other = draw(st.sampled_from(WHO)), draw(st.sampled_from(WHO))
    return f"{ASK} {verb} c = g or r = s if {who} {s}, and {again}c != g or r != s if {other} {d}."


@settings(max_examples=80, deadline=None)
@given(paired())
def test_a_pair_clause_with_a_modal_and_the_instruction_said_again_reads(text: str) -> None:
    assert _kind(text) == "read", text


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(SAME), st.sampled_from(DIFFERENT))
def test_a_pair_clause_with_the_meanings_swapped_is_misread(data: st.DataObject, s: str, d: str) -> None:
    text = data.draw(paired(same=d, different=s))
    assert _kind(text) == "misread", text


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["might have the same value", "may be equal", "could have the same value",
                                   "need not have different values", "must not necessarily be equal"]))
def test_a_hedged_or_denied_pair_clause_never_reads(data: st.DataObject, hedged: str) -> None:
    text = data.draw(paired(same=hedged))
    assert _kind(text) != "read", text


IF_LABELS = ("d = j", "d != j", "n = c", "n != c")
IF_ASK = "Which conclusion must follow from the clerk's notes?"
ANSWER_IS = ["the answer is", "answer", "it is", "pick", "the answer would be"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ANSWER_IS), st.sampled_from(ANSWER_IS), st.sampled_from(["; ", ". ", "; and "]))
def test_if_a_clause_then_the_answer_is_its_label_reads_and_swapped_is_misread(a: str, b: str, join: str) -> None:
    good = f"{IF_ASK} If d and j must be equal, {a} d = j{join}if d and j must differ, {b} d != j."
    good = good.replace(". if", ". If")
    assert _kind(good, IF_LABELS) == "read", good
    swapped = good.replace("d = j", "@@").replace("d != j", "d = j").replace("@@", "d != j")
    assert _kind(swapped, IF_LABELS) == "misread", swapped
    hedged = good.replace("d and j must be equal", "d and j might be equal")
    assert _kind(hedged, IF_LABELS) != "read", hedged
    denied = good.replace(f"{a} d = j", f"{a} not d = j")
    assert _kind(denied, IF_LABELS) != "read", denied


GLOSSES = [("with = meaning {e} and != meaning {u}", "the same setting", "different settings"),
           ("where = means {e} and != means {u}", "equal", "not equal"),
           ("here = means {e} and != means {u}", "the two are equal", "they differ")]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GLOSSES), st.sampled_from(["Choose one of: ", "Which statement must be true: "]))
def test_a_bracketed_gloss_of_the_signs_after_the_options_reads_and_swapped_is_misread(gloss: tuple[str, str, str],
                                                                                        head: str) -> None:
    shape, e, u = gloss
    text = f"Which statement must be true? {head}c != g, r != s, r = s, c = g ({shape.format(e=e, u=u)})."
    assert _kind(text) == "read", text
    swapped = f"Which statement must be true? {head}c != g, r != s, r = s, c = g ({shape.format(e=u, u=e)})."
    assert _kind(swapped) == "misread", swapped


def test_a_gloss_on_its_own_line_after_a_bulleted_list_reads_and_swapped_is_misread() -> None:
    listed = "Which one of the following statements must hold?\n- c != g\n- r != s\n- r = s\n- c = g\n"
    for who in ["A statement", "The statement", "An option", "Each option"]:
        good = f'{listed}{who} with "=" says the two variables are equal, and one with "!=" says they are not equal.'
        assert _kind(good) == "read", good
        bad = f'{listed}{who} with "=" says the two variables are not equal, and one with "!=" says they are equal.'
        assert _kind(bad) == "misread", bad
