"""families/opened.py: a phrasing read with its openers apart reads every line as the regex compiled with them."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.ir import INTEGER
from families.opened import Opened, Openers, reader_pattern
from families.reading import reader
from families.registry import FAMILIES
from families.wording import READ_OPENERS, parse_phrasing, plain_parts, reader_regex, tokens

# every phrasing a reader reads with openers, and its openers: (phrasing, kinds, openers)
READINGS = sorted({(ph, tuple(kinds), tuple(r.openers[p]) if table is r.facts else None)
                   for name in FAMILIES for r in (reader(name),)
                   for table, sigs in ((r.facts, r.family.predicates), (r.questions, r.family.queries))
                   for p in table
                   for kinds in (["int" if t == INTEGER else "name" for t in sigs[p]],)
                   for ph in (r.wording.facts.get(p, ()) + r.wording.reads.get(p, ()) if table is r.facts else
                              r.wording.questions.get(p, ()) + r.wording.question_reads.get(p, ()))},
                  key=str)


def _openers(openers: tuple[str, ...] | None) -> tuple[str, ...]:
    """A fact's openers, or those of every question (None)."""
    return READ_OPENERS if openers is None else openers


@st.composite
def lines(draw: st.DrawFn) -> tuple[str, tuple[str, ...], tuple[str, ...], str]:
    """A phrasing and a line for it: up to two of its openers (or words that begin one), its parts said one way or
    another (a slot as a mark or a number, an option or none), and now and then a word put in or left out."""
    phrasing, kinds, openers = draw(st.sampled_from(READINGS))
    openers = _openers(openers)
    words: list[str] = []
    for _ in range(draw(st.integers(0, 2))):
        opener = tokens(draw(st.sampled_from(openers)))
        words += opener[:draw(st.integers(1, len(opener)))] if draw(st.booleans()) else opener
    for part in plain_parts(parse_phrasing(phrasing), kinds):
        if part.slot is not None:
            k = draw(st.integers(0, 3))
            words.append(f"@{k}" if draw(st.integers(0, 9)) else str(k))
            if kinds[part.slot] == "int" and draw(st.booleans()):
                words[-1] = str(k)
        elif not (part.optional and draw(st.booleans())):
            words += tokens(draw(st.sampled_from(part.options)))
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(words)))
        if draw(st.booleans()) and words:
            del words[min(at, len(words) - 1)]
        else:
            words.insert(at, draw(st.sampled_from(tokens(draw(st.sampled_from(openers))) + ["@1", "2", "the"])))
    return phrasing, kinds, openers, " " + " ".join(words)


def _same(phrasing: str, kinds: tuple[str, ...], openers: tuple[str, ...], line: str) -> None:
    want = reader_regex(phrasing, kinds, openers).fullmatch(line)
    got = reader_pattern(phrasing, kinds, openers).fullmatch(line)
    assert (got is None) == (want is None), line
    if want is not None and got is not None:
        assert got.groupdict() == want.groupdict(), line


@settings(max_examples=3000, deadline=None)
@given(lines())
def test_reads_as_the_compiled_regex(case: tuple[str, tuple[str, ...], tuple[str, ...], str]) -> None:
    _same(*case)


def test_every_phrasing_of_every_family_is_read_apart() -> None:
    """The readers' openers all have words: no phrasing falls back to the compiled regex with its openers."""
    assert READINGS
    for phrasing, kinds, openers in READINGS:
        assert isinstance(reader_pattern(phrasing, kinds, _openers(openers)), Opened), phrasing


# Openers that share words: "note" and "note that" (the regex tries them in the alternation's order, and a second one
# after each), and a phrasing that may begin with an opener's word itself.
@pytest.mark.parametrize("line", [
    " note that @0 is left of @1", " note @0 is left of @1", " note that note @0 is left of @1",
    " that @0 is left of @1", " note that that @0 is left of @1", " @0 is left of @1", " note that",
    " note that note that note @0 is left of @1", " first note @0 is left of @1", "", " ", "  @0 is left of @1"])
@pytest.mark.parametrize("openers", [("note", "note that", "first"), ("note that", "note", "that", "first")])
def test_openers_that_share_words(line: str, openers: tuple[str, ...]) -> None:
    _same("[that] {0} is left of {1}", ("name", "name"), openers, line)


def test_places_in_the_regex_order() -> None:
    """After a first opener each second one, in order, then that first one alone; the line's start last."""
    # "a" (no second one after it: none begins with "b"), then "a b" and "c" after it, then "a b" alone, then none
    assert Openers(("a", "a b", "c")).places(" a b c x") == (2, 6, 4, 0)
    assert Openers(("a", "a b", "c")).places(" x a") == (0,)
