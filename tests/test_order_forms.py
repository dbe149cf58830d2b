"""transitive_order's free forms (families/order_forms.py): a thing named by a participle of naming ("the jar labelled
Oriel", "the painting titled Blue Ferry") and a placing verb of coupling or hitching ("is coupled somewhere to the left
of"), composed; the faithful sentence reads, and reversed or with adjacency it is misread."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {"E0": "Oriel", "E1": "Corvin", "E2": "Tansy"}
TYPES = {s: "Entity" for s in NAMES}
NAMING = ["labelled", "labeled", "named", "called", "titled", "marked"]
NOUNS = ["jar", "wagon", "painting", "boat"]
VERBS = ["is", "is coupled", "is hitched", "is attached", "sits", "is parked"]


def _kind(text: str) -> str:
    return reader("transitive_order").read_fact(text, ("LEFT_OF", ("E0", "E1")), Marked(NAMES, TYPES), TYPES).kind


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMING), st.sampled_from(NOUNS), st.sampled_from(VERBS), st.sampled_from(["", "noun", "one"]),
       st.booleans())
def test_a_thing_named_by_a_participle_reads_and_its_poisons_do_not(naming, noun, verb, both, somewhere) -> None:
    """"The tree labeled Yew is to the left of the one labeled Walnut" (blind23), "the jar labelled Oriel"."""
    def say(a: str, b: str, side: str, near: str = "") -> str:
        where = "somewhere " if somewhere and not near else near
        second = f"the {noun if both == 'noun' else 'one'} {naming} {b}" if both else b
        return f"The {noun} {naming} {a} {verb} {where}to the {side} of {second}."
    assert _kind(say("Oriel", "Corvin", "left")) == "read", say("Oriel", "Corvin", "left")
    assert _kind(say("Oriel", "Corvin", "right")) == "misread"                 # the direction reversed
    assert _kind(say("Corvin", "Oriel", "right")) == "read"                    # the converse
    assert _kind(say("Oriel", "Tansy", "left")) == "misread"                   # another name
    for near in ("immediately ", "directly ", "just "):
        assert _kind(say("Oriel", "Corvin", "left", near)) == "misread", say("Oriel", "Corvin", "left", near)


PLACING = ["is threaded", "is curled up", "is sleeping", "is stabled", "is tucked", "naps", "is nestled", "dozes",
           "sets up", "lines up", "sits down"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PLACING), st.booleans())
def test_a_placing_or_resting_verb_reads_and_its_poisons_do_not(verb: str, statue: bool) -> None:
    """ "The navy bead is threaded to the left of ...", "Marble is curled up to the left of ...", "Hazel is stabled
    ...", "The statue of Ferelith stands ..." (blind23, 26, 28): a verb of where a thing rests, composed as the
    others; a likeness named by whom it shows."""
    def say(a: str, b: str, side: str, near: str = "") -> str:
        subject = f"The statue of {a}" if statue else a
        return f"{subject} {verb} {near}to the {side} of {b}."
    assert _kind(say("Oriel", "Corvin", "left")) == "read", say("Oriel", "Corvin", "left")
    assert _kind(say("Corvin", "Oriel", "right")) == "read", say("Corvin", "Oriel", "right")
    assert _kind(say("Oriel", "Corvin", "right")) == "misread"
    assert _kind(say("Oriel", "Tansy", "left")) == "misread"
    assert _kind(say("Oriel", "Corvin", "left", "immediately ")) == "misread"
    assert _kind(say("Oriel", "Corvin", "left", "probably ")) != "read"
    # a person's relation or a thing owned is another one than the name: never read as the name
    assert _kind(f"The brother of Oriel {verb} to the left of Corvin.") != "read"
    assert _kind(f"The house of Oriel {verb} to the left of Corvin.") != "read"


def _asked(text: str) -> str:
    return reader("transitive_order").read_question(text, ("RELATION", ("E0", "E1")), Marked(NAMES, TYPES), TYPES,
                                                    ("LEFT_OF", "RIGHT_OF", "UNKNOWN")).kind


@pytest.mark.parametrize("verb", ["is Oriel sleeping", "does Oriel sleep", "is Oriel curled up", "is Oriel parked",
                                  "is Oriel moored"])
def test_where_a_thing_rests_asked_with_its_verb_reads_and_the_other_way_round_is_misread(verb: str) -> None:
    """ "Where is Marble sleeping relative to Clover?", "Relative to Clover, where is Marble sleeping?" (blind23)."""
    assert _asked(f"Where {verb} relative to Corvin?") == "read"
    assert _asked(f"Relative to Corvin, where {verb}?") == "read"
    assert _asked(f"Where {verb.replace('Oriel', 'Corvin')} relative to Oriel?") == "misread"
    assert _asked("Where is Oriel looking relative to Corvin?") == "unread"   # looking places nothing
    assert _asked("How is Oriel placed relative to Corvin?") == "read"


def test_a_unicode_hyphen_inside_a_word_joins_it_and_a_minus_never_does():
    """ "Mossgate is on the right‑hand side of Tamberly." (blind35, a non-breaking hyphen)."""
    for hyphen in ("-", "\u2010", "\u2011"):
        assert _kind(f"Corvin is on the right{hyphen}hand side of Oriel.") == "read", hyphen
        assert _kind(f"Oriel is on the right{hyphen}hand side of Corvin.") == "misread", hyphen
    assert _kind("Corvin is on the right\u2212hand side of Oriel.") != "read"   # a minus sign: a symbol, never a hyphen



FAMILIES = [("Oakley", "Kingsley"), ("Bellamy", "Jessop"), ("Calloway", "Ellery"), ("Ross", "Fox")]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FAMILIES), st.sampled_from(["live", "stand", "sit", "are", "camp"]),
       st.sampled_from(["to the {s} of", "{s} of", "somewhere to the {s} of"]), st.booleans())
def test_names_said_as_their_families_read_and_their_twins_do_not(pair: tuple[str, str], verb: str, side: str,
                                                                  converse: bool) -> None:
    """"The Oakleys live to the left of the Kingsleys": a one-word name said as its family's is that name; the other
    way round, "immediately", or another family's name is not the fact."""
    a, b = pair
    plural = {n: n + ("es" if n.endswith(("s", "x")) else "s") for n in pair}
    names = {"E0": a, "E1": b, "E2": "Marlow"}
    types = {k: "Entity" for k in names}
    marked, r = Marked(names, types), reader("transitive_order")
    first, second, way = (b, a, "right") if converse else (a, b, "left")

    def said(where: str, other: str = "") -> str:
        return f"The {plural[first]} {verb} {where.format(s=way)} the {other or plural[second]}."

    fact = ("LEFT_OF", ("E0", "E1"))
    assert r.read_fact(said(side), fact, marked, types).kind == "read", said(side)
    assert r.read_fact(said(side), ("LEFT_OF", ("E1", "E0")), marked, types).kind == "misread", said(side)
    assert r.read_fact(said(side, "Marlows"), fact, marked, types).kind != "read", said(side, "Marlows")
    adjacent = said("immediately " + side.replace("somewhere ", ""))
    assert r.read_fact(adjacent, fact, marked, types).kind != "read", adjacent
