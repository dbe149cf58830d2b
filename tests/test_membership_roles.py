"""membership by taking part (families/membership_forms.py), composed from its parts: a participant noun or a verb of
taking part with its preposition, any subject of a category's members, an adverb of wholeness anywhere, reads as its
fact; the same with a relation from outside ("a rival of"), a former member, a verb without its preposition, a hedge,
"some" or "most", or the categories swapped never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.membership_forms import PARTICIPANTS
from families.reading import Marked, reader

PEOPLE = ("Pax", "Saoirse", "Matthias", "Brindlecap", "Umber Reach")
GROUPS = ("Quiz Team", "Night Patrol", "Book Drive", "Soup Kitchen", "Fenner League", "Moon Menu")
_NOUN = st.sampled_from(sorted(PARTICIPANTS))
_PREP = st.sampled_from(["in", "on", "at", "with"])
_VERB = st.sampled_from(["volunteers", "participates", "helps", "serves", "works", "plays", "enlists"])
_WHOLLY = st.sampled_from(["", "wholly ", "entirely ", "completely ", "fully "])
_OUTSIDE = st.sampled_from(["a rival of", "a friend of", "a former member of", "a visitor to", "a sponsor of",
                            "a critic of", "an enemy of", "a former volunteer at"])
_POISON = st.sampled_from(["probably ", "maybe ", "once ", "rarely ", "might ", "used to "])


def _read(text: str, fact: tuple) -> str:
    names = {"E0": fact[2], "S0": fact[3], "S1": fact[4]}
    types = {"E0": "Entity", "S0": "Set", "S1": "Set"}
    return reader("membership_inheritance").read_fact(text, fact[:2], Marked(names, types), types).kind


def _names() -> st.SearchStrategy[tuple[str, str, str]]:
    return st.tuples(st.sampled_from(PEOPLE), st.sampled_from(GROUPS), st.sampled_from(GROUPS)).filter(
        lambda t: t[1] != t[2])


@settings(max_examples=150, deadline=None)
@given(names=_names(), noun=_NOUN, prep=_PREP, verb=_VERB, outside=_OUTSIDE, poison=_POISON)
def test_a_participant_reads_as_a_member_and_a_relation_from_outside_never(names, noun, prep, verb, outside, poison):
    who, group, _ = names
    member = ("MEMBER_OF", ("E0", "S0"), who, group, "Spare")
    for said in (f"{who} is a {noun} {prep} the {group}.", f"{who} {verb} {prep} the {group}."):
        assert _read(said, member) == "read", said
    for said in (f"{who} is not a {noun} {prep} the {group}.", f"{who} does not {verb[:-1]} {prep} the {group}."):
        assert _read(said, ("NOT_MEMBER_OF", ("E0", "S0"), who, group, "Spare")) == "read", said
        assert _read(said, member) != "read", said
    for said in (f"{who} is {outside} the {group}.", f"{who} {verb} the {group}.",   # no preposition: no membership
                 f"{who} {poison}{verb} {prep} the {group}.", f"{who}'s brother {verb} {prep} the {group}.",
                 f"{who} {verb} against the {group}.", f"{who} is a {noun} near the {group}."):
        assert _read(said, member) != "read", said


@settings(max_examples=150, deadline=None)
@given(names=_names(), noun=_NOUN, prep=_PREP, verb=_VERB, wholly=_WHOLLY, outside=_OUTSIDE,
       some=st.sampled_from(["Some", "Most", "Not every", "No", "Few"]))
def test_members_taking_part_in_both_read_as_a_subset_and_swapped_or_weakened_never(names, noun, prep, verb, wholly,
                                                                                   outside, some):
    _, a, b = names
    subset = ("SUBSET_OF", ("S0", "S1"), "Spare", a, b)
    for said in (f"Every {noun} {prep} the {a} is also a {noun} {prep} the {b}.",
                 f"Anyone who {verb} {prep} the {a} also {verb} {prep} the {b}.",
                 f"Whoever {verb} {prep} the {a} also {verb} {prep} the {b}.",
                 f"The {a} is contained {wholly}in the {b}.", f"The whole of the {a} lies {wholly}inside the {b}."):
        assert _read(said, subset) == "read", said
        swapped = said.replace(a, "\0").replace(b, a).replace("\0", b)
        assert _read(swapped, subset) != "read", swapped
    for said in (f"{some} {noun}s {prep} the {a} also {verb[:-1]} {prep} the {b}.",
                 f"Every {noun} {prep} the {a} is {outside} the {b}.",
                 f"The {a} is contained partly in the {b}.", f"The {a} lies mostly inside the {b}."):
        assert _read(said, subset) != "read", said


@settings(max_examples=100, deadline=None)
@given(names=_names(), verb=st.sampled_from(["lists", "includes", "contains", "holds", "features", "admits", "serves"]),
       other=st.sampled_from(["wants", "rejects", "bans", "lists", "admits"]), head=st.sampled_from(
           ["Whatever", "Anything that", "Everyone", "Whoever"]), tail=st.sampled_from([" too", " as well", ""]),
       poison=st.sampled_from(["probably ", "never ", "once ", "rarely "]))
def test_whatever_one_category_holds_the_other_holds_reads_as_a_subset(names, verb, other, head, tail, poison):
    _, a, b = names
    subset = ("SUBSET_OF", ("S0", "S1"), "Spare", a, b)
    said = f"{head} the {a} {verb}, the {b} {verb}{tail}."
    assert _read(said, subset) == "read", said
    swapped = f"{head} the {b} {verb}, the {a} {verb}{tail}."
    assert _read(swapped, subset) != "read", swapped
    wrong = [f"{head} the {a} {verb}, the {b} {poison}{verb}{tail}.", f"{head} the {a} {verb}, the {b} does not "
             f"{verb[:-1]}."]
    if other != verb:
        wrong.append(f"{head} the {a} {verb}, the {b} {other}{tail}.")   # another verb says another thing
    for said in wrong:
        assert _read(said, subset) != "read", said
