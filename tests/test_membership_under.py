"""A bare "under" on both sides of a subset (families/membership_under.py): "Every item under label D is also under
label P" reads as the subset (blind23); its twins (reversed, negated, some, hedged, another label, one "under" only)
never read as it."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {"S0": "label D", "S1": "label P", "S2": "label E", "E0": "the brass coin"}
TYPES = {"S0": "Set", "S1": "Set", "S2": "Set", "E0": "Entity"}
FACT = ("SUBSET_OF", ("S0", "S1"))
SUBJECTS = ["Every item", "Everything", "Anything", "All items", "Each item", "Every object", "All the items"]


def _kind(text: str, fact=FACT) -> str:
    return reader("membership_inheritance").read_fact(text, fact, Marked(NAMES, TYPES), TYPES)[0]


@settings(max_examples=60, deadline=None)
@given(subject=st.sampled_from(SUBJECTS), also=st.booleans())
def test_a_parallel_under_reads_as_the_subset_and_its_twins_do_not(subject, also):
    be = "are" if subject.startswith("All") else "is"
    text = f"{subject} under label D {be} {'also ' if also else ''}under label P."
    assert _kind(text) == "read", text
    assert _kind(text.replace("label D", "label Q").replace("label P", "label D").replace("label Q", "label P")) \
        == "misread", text   # the converse
    assert _kind(text.replace("label P", "label E")) == "misread", text
    for twin in (text.replace(f"{be} ", f"{be} not ", 1), text.replace(subject, "Some items", 1),
                 text.replace(f"{be} ", f"{be} probably ", 1), text.replace("under label P", "near label P"),
                 text.replace("under label D", "beside label D")):
        assert _kind(twin) != "read", twin


def test_a_single_bare_under_says_another_thing():
    assert _kind("Label D is under label P.") != "read"
    assert _kind("The brass coin is under label P.", ("MEMBER_OF", ("E0", "S1"))) != "read"
