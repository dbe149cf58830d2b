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


def _read_given(family: str, text: str, fact: tuple, facts: list, names: dict[str, str], types: dict[str, str]) -> str:
    return reader(family).read_fact(text, fact, Marked(names, types), types, None, facts).kind


@settings(max_examples=100, deadline=None)
@given(three=st.permutations(PEOPLE).map(lambda p: p[:3]), joint=_JOINT)
def test_a_second_clause_may_restate_another_given_fact_never_one_only_entailed_nor_a_step(three, joint):
    a, b, c = three
    names, types = {"E0": a, "E1": b, "E2": c}, {"E0": "Entity", "E1": "Entity", "E2": "Entity"}
    ab, ca = ("LEFT_OF", ("E0", "E1")), ("LEFT_OF", ("E2", "E0"))
    facts = [ab, ca]
    said = f"{a} is to the left of {b}{joint}{c} is to the left of {a}."
    assert _read_given("transitive_order", said, ab, facts, names, types) == "read", said
    for wrong in (f"{a} is to the left of {b}{joint}{c} is to the left of {b}.",      # entailed only: may tell the answer
                  f"{a} is to the left of {b}{joint}{a} is to the left of {c}.",      # the given fact reversed
                  f"{c} is to the left of {a}{joint}{a} is to the left of {b}.".replace(f"{a} is to the left of {b}",
                                                                                     f"{b} is to the right of {c}"),
                  f"{c} is to the left of {a}; {b} is to the right of {a}.".replace(f"{b} is to the right of {a}",
                                                                                  f"{c} is left of {a}"),
                  f"{a} is to the left of {b}, or {c} is to the left of {a}."):
        assert _read_given("transitive_order", wrong, ab, facts, names, types) != "read", wrong


@settings(max_examples=60, deadline=None)
@given(joint=st.sampled_from([", and ", "; ", ", and then "]), n=st.integers(2, 40), m=st.integers(2, 40))
def test_in_a_family_of_steps_a_second_step_is_never_read_even_when_it_is_a_given_fact(joint, n, m):
    names, types = {"C0": "Silo", "C1": "Depot"}, {"C0": "Counter", "C1": "Counter"}
    first, second = ("INCREMENT", ("C0", n)), ("INCREMENT", ("C0", m))
    said = f"Silo gains {n} items{joint}it gains {m} items."
    assert _read_given("sequential_state_update", said, first, [first, second], names, types) != "read", said


@settings(max_examples=60, deadline=None)
@given(pair=_pair(("Sorrel", "Andrea", "Thuskin", "Hencely", "Sonja", "Androv")), joint=_JOINT)
def test_a_name_that_opens_with_a_connective_is_never_read_away(pair, joint):
    a, b = pair   # "so" of "Sorrel", "and" of "Andrea": a connective is a whole word
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    equal = ("EQUAL", ("V0", "V1"))
    said = f"{a} equals {b}{joint}{b} equals {a}."
    assert _read("equality", said, equal, names, types) == "read", said
    wrong = f"{a} equals {b}{joint}{b} does not equal {a}."
    assert _read("equality", wrong, equal, names, types) == "misread", wrong
