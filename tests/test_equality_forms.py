"""A noun of what a variable's name is before it ("The letter a equals l", "Symbols i and q are equal"), composed
with equality's frames (families/equality_forms.py `lettered`): the faithful sentence reads as its fact; flipped,
hedged, about another variable or with a noun that may change who is meant, it never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {s: s for s in "alie"}
TYPES = {s: "Variable" for s in NAMES}
NOUNS = ["letter", "variable", "symbol", "unknown"]
# (EQUAL, NOT_EQUAL) frames: {n} the noun before the first name, {m} before the second ("" or a noun)
FRAMES = [("{n}{0} equals {m}{1}", "{n}{0} does not equal {m}{1}"),
          ("{n}{0} has the same value as {m}{1}", "{n}{0} does not have the same value as {m}{1}"),
          ("{n}{0} is equal to {m}{1}", "{n}{0} differs from {m}{1}")]
PLURAL = ("{ns}{0} and {1} are equal", "{ns}{0} and {1} are not equal")


def _kind(text: str, fact: tuple) -> str:
    return reader("equality").read_fact(text, fact, Marked(NAMES, TYPES), TYPES).kind


def _say(frame: str, noun: str, article: bool, second: bool, args: tuple[str, str]) -> str:
    lead = ("the " if article else "") + noun + " "
    text = frame.format(*args, n=lead, m=lead if second else "", ns=lead.replace(noun, noun + "s"))
    return text[:1].upper() + text[1:] + "."


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(FRAMES + [PLURAL]), st.sampled_from(NOUNS), st.booleans(), st.booleans(), st.booleans())
def test_a_name_noun_before_a_variable_reads_and_its_poisons_do_not(frame, noun, article, second, negative) -> None:
    pred = "NOT_EQUAL" if negative else "EQUAL"
    text = _say(frame[negative], noun, article, second, ("a", "l"))
    assert _kind(text, (pred, ("a", "l"))) == "read", text
    assert _kind(_say(frame[not negative], noun, article, second, ("a", "l")), (pred, ("a", "l"))) == "misread"
    assert _kind(_say(frame[negative], noun, article, second, ("a", "i")), (pred, ("a", "l"))) == "misread"
    hedged = text.replace(" and ", " and nearly ") if frame is PLURAL else \
        text.replace("a ", "a nearly ", 1) if text.startswith("A ") else text.replace(" a ", " a nearly ", 1)
    assert _kind(hedged, (pred, ("a", "l"))) != "read", hedged
    for other in ("digit", "other", "former", "box"):   # a property, another one, or a noun of no name
        bad = _say(frame[negative], other, article, False, ("a", "l"))
        assert _kind(bad, (pred, ("a", "l"))) != "read", bad


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FRAMES), st.sampled_from(["on the scale", "on the scales", "on the balance", "when weighed",
                                                 "on the kitchen scale"]), st.booleans())
def test_the_instrument_a_measure_is_read_on_closes_a_fact_and_says_nothing_more(frame, tail, negative) -> None:
    """"Crate h matches crate u on the scale": the instrument closes the fact; flipped, hedged or about another
    variable it is misread, a comparison of degree stays unread."""
    pred = "NOT_EQUAL" if negative else "EQUAL"
    def said(args: tuple[str, str]) -> str:
        return frame[negative].format(*args, n="", m="")[:1].upper() + frame[negative].format(*args, n="", m="")[1:] \
            + f" {tail}."
    text = said(("a", "l"))
    assert _kind(text, (pred, ("a", "l"))) == "read", text
    assert _kind(text, ("NOT_EQUAL" if not negative else "EQUAL", ("a", "l"))) == "misread", text
    assert _kind(said(("a", "i")), (pred, ("a", "l"))) == "misread", said(("a", "i"))
    assert _kind(f"A is heavier than l {tail}.", (pred, ("a", "l"))) != "read"
    assert _kind(f"A is probably equal to l {tail}.", (pred, ("a", "l"))) != "read"


# A puzzle's letters that hide, store or keep a value ("a and n hide the same number", "p and l hide different
# numbers"): read as the fact; the other polarity misread; a hedge, a repeat or no measure never read.
HIDE = ["hide", "keep", "store", "conceal", "represent"]
MEASURE = ["number", "value"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(HIDE), st.sampled_from(MEASURE))
def test_letters_that_hide_a_value_read_and_the_other_polarity_does_not(verb: str, measure: str) -> None:
    same, different = f"A and l {verb} the same {measure}.", f"A and l {verb} different {measure}s."
    assert _kind(same, ("EQUAL", ("a", "l"))) == "read", same
    assert _kind(different, ("NOT_EQUAL", ("a", "l"))) == "read", different
    assert _kind(different, ("EQUAL", ("a", "l"))) == "misread", different
    assert _kind(same, ("NOT_EQUAL", ("a", "l"))) == "misread", same
    for wrong in [f"A and l {verb} similar {measure}s.", f"A and l {verb} the same {measure} twice.",
                  f"A and l {verb} {measure}s.", f"A and i {verb} the same {measure}."]:
        assert _kind(wrong, ("EQUAL", ("a", "l"))) != "read", wrong


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["identical", "equal", "the same", "equivalent"]), st.booleans())
def test_two_said_alike_in_value_read_and_their_twins_do_not(alike: str, negative: bool) -> None:
    """"i and e are identical in value" (blind40) is EQUAL, "... are not identical in value" NOT_EQUAL; the other
    polarity is misread, a hedge or another variable never reads."""
    said = f"i and e are {'not ' if negative else ''}{alike} in value."
    fact = ("NOT_EQUAL" if negative else "EQUAL", ("i", "e"))
    other = ("EQUAL" if negative else "NOT_EQUAL", ("i", "e"))
    assert _kind(said, fact) == "read", said
    assert _kind(said, other) == "misread", said
    assert _kind(said.replace(" are ", " are nearly "), fact) != "read"
    assert _kind(said.replace("i and", "a and"), fact) != "read"
