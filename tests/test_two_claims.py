"""A premise that states its fact twice (families/two_claims.py), composed: a phrasing of the fact, a joint, and the
fact again (its converse, a pronoun for a name) reads; the same with the second claim reversed, negated or hedged, a
joint of disjunction, condition or contrast, or a second claim of nothing, never reads as the fact."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

PEOPLE = ("Saltpenny", "Periwinkle", "Driftmoth", "Kelpie Blue", "Brindlecap", "Quillon")
_JOINT = st.sampled_from([": ", "; ", ", so ", ", and ", "; that is, ", ", i.e. ", " — ", ", which means that ",
                          ", in other words, ", ": in other words, "])
_NOT_A_JOINT = st.sampled_from([", or ", ", unless ", ", but ", ", although ", " if ", ", because "])
_POISON = st.sampled_from(["probably ", "maybe ", "not ", "immediately ", "directly ", "roughly "])


def _read(family: str, text: str, fact: tuple, names: dict[str, str], types: dict[str, str]) -> str:
    return reader(family).read_fact(text, fact, Marked(names, types), types).kind


def _pair(pool: tuple[str, ...]) -> st.SearchStrategy[tuple[str, str]]:
    return st.tuples(st.sampled_from(pool), st.sampled_from(pool)).filter(lambda p: p[0] != p[1])


@settings(max_examples=150, deadline=None)
@given(pair=_pair(PEOPLE), joint=_JOINT, other=_NOT_A_JOINT, poison=_POISON)
def test_an_order_said_twice_reads_and_a_second_claim_otherwise_never(pair, joint, other, poison):
    a, b = pair
    names, types = {"E0": a, "E1": b}, {"E0": "Entity", "E1": "Entity"}
    left = ("LEFT_OF", ("E0", "E1"))
    first = f"{a} is to the left of {b}"
    for again in (f"{b} is to the right of {a}", f"{b} is to the right of it", f"it is somewhere left of {b}"):
        said = f"{first}{joint}{again}."
        assert _read("transitive_order", said, left, names, types) == "read", said
    for wrong in (f"{b} is to the left of {a}", f"{a} is to the right of {b}", f"{b} is to the left of it",
                  f"{b} is {poison}to the right of {a}", "it is the tallest in the row", f"{b} sits beside {a}"):
        said = f"{first}{joint}{wrong}."
        assert _read("transitive_order", said, left, names, types) != "read", said
    for said in (f"{first}{other}{b} is to the right of {a}.", f"{b} is to the left of {a}{joint}{first}."):
        assert _read("transitive_order", said, left, names, types) != "read", said


@settings(max_examples=100, deadline=None)
@given(pair=_pair(("Cedar Circle", "Ash Circle", "Moth Club", "Quill Society", "Dawn Circle")), joint=_JOINT,
       some=st.sampled_from(["some of", "most of", "none of", "not all of"]))
def test_a_subset_restated_through_its_members_reads_and_reversed_or_weakened_never(pair, joint, some):
    a, b = pair
    names, types = {"S0": a, "S1": b}, {"S0": "Set", "S1": "Set"}
    subset = ("SUBSET_OF", ("S0", "S1"))
    first = f"The {a} is entirely contained in the {b}"
    for again in (f"all of its members belong to the {b}", f"each of its members is also in the {b}",
                  f"every member of the {a} is a member of the {b}"):
        said = f"{first}{joint}{again}."
        assert _read("membership_inheritance", said, subset, names, types) == "read", said
    for wrong in (f"{some} its members belong to the {b}", f"every member of the {b} is a member of the {a}",
                  "all of its members belong to it", f"the {b} is contained in it"):
        said = f"{first}{joint}{wrong}."
        assert _read("membership_inheritance", said, subset, names, types) != "read", said
