"""transitive_order's free forms (families/order_forms.py): a thing named by a participle of naming ("the jar labelled
Oriel", "the painting titled Blue Ferry") and a placing verb of coupling or hitching ("is coupled somewhere to the left
of"), composed; the faithful sentence reads, and reversed or with adjacency it is misread."""
from __future__ import annotations

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
@given(st.sampled_from(NAMING), st.sampled_from(NOUNS), st.sampled_from(VERBS), st.booleans(), st.booleans())
def test_a_thing_named_by_a_participle_reads_and_its_poisons_do_not(naming, noun, verb, both, somewhere) -> None:
    def say(a: str, b: str, side: str, near: str = "") -> str:
        where = "somewhere " if somewhere and not near else near
        second = f"the {noun} {naming} {b}" if both else b
        return f"The {noun} {naming} {a} {verb} {where}to the {side} of {second}."
    assert _kind(say("Oriel", "Corvin", "left")) == "read", say("Oriel", "Corvin", "left")
    assert _kind(say("Oriel", "Corvin", "right")) == "misread"                 # the direction reversed
    assert _kind(say("Corvin", "Oriel", "right")) == "read"                    # the converse
    assert _kind(say("Oriel", "Tansy", "left")) == "misread"                   # another name
    for near in ("immediately ", "directly ", "just "):
        assert _kind(say("Oriel", "Corvin", "left", near)) == "misread", say("Oriel", "Corvin", "left", near)
