"""A subset said as a kind within the other ("The vinefolk are a subkind of the marshfolk"; the family's grammar) or
of whoever holds a category's token ("Everyone holding the Quartz Tier also holds the Nectar Tier"; families/
membership_forms.py): any pronoun of all, any verb of holding as its -ing form before and any after, any noun of a kind.
Each reads; the reverse, a negation, a hedge, "some" or "most", a past or a wish, "sort of", "a variety of", another
owner's thing never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {"S0": "Quartz Tier", "S1": "Nectar Tier"}
TYPES = {"S0": "Set", "S1": "Set"}
WHO = ["Everyone", "Anyone", "Everybody", "Anybody", "Whoever"]
ING = ["holding", "having", "wearing", "carrying", "owning", "earning"]
THEN = ["holds", "has", "also holds", "also has", "carries", "holds {y} too", "has {y} as well"]


def _kind(text: str, first: str = "S0", second: str = "S1") -> str:
    return reader("membership_inheritance").read_fact(text, ("SUBSET_OF", (first, second)), Marked(NAMES, TYPES),
                                                       TYPES).kind


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(WHO), st.sampled_from(ING), st.sampled_from(THEN))
def test_whoever_holds_one_token_holds_the_other_reads_and_its_poisons_do_not(who, ing, then):
    verb = (then if "{y}" in then else then + " {y}").format(y="the Nectar Tier")
    text = f"{who} {ing} the Quartz Tier {verb}."
    assert _kind(text) == "read", text
    assert _kind(text, "S1", "S0") != "read", text   # the reverse
    for bad in [text.replace(who, "Someone"), text.replace(who, "Most people"), text.replace(who, "Nobody"),
                text.replace(" the Nectar Tier", " the Nectar Tier's key"),
                text.replace(" the Quartz Tier", " the Quartz Tier's holder"),
                text.replace(ing + " the Quartz Tier ", ing + " the Quartz Tier probably "),
                text.replace(ing + " the Quartz Tier ", ing + " the Quartz Tier does not ").replace("holds", "hold")
                .replace("has", "have").replace("carries", "carry"),
                text.replace(ing + " the Quartz Tier ", ing + " the Quartz Tier once ").replace("holds", "held")
                .replace("has", "had").replace("carries", "carried"),
                f"{who} {ing} the Quartz Tier wants the Nectar Tier."]:
        assert _kind(bad) != "read", bad


KINDS = ["subkind", "subtype", "subcategory", "subspecies", "kind", "type", "species", "breed", "branch"]
PAIRS = [("vinefolk", "marshfolk"), ("Quartz Tier", "Nectar Tier")]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(KINDS), st.sampled_from(PAIRS), st.sampled_from(["are", "is"]))
def test_a_kind_within_another_is_a_subset_and_its_poisons_are_not(kind, pair, be):
    names, types = {"S0": pair[0], "S1": pair[1]}, {"S0": "Set", "S1": "Set"}

    def verdict(text: str, first: str = "S0", second: str = "S1") -> str:
        return reader("membership_inheritance").read_fact(text, ("SUBSET_OF", (first, second)), Marked(names, types),
                                                           types).kind
    text = f"The {pair[0]} {be} a {kind} of the {pair[1]}."
    assert verdict(text) == "read", text
    assert verdict(text, "S1", "S0") != "read", text
    for bad in [text.replace(f"{be} a", f"{be} not a"), text.replace(f"{be} a", f"{be} probably a"),
                text.replace(f"{be} a", f"{be} partly a"), text.replace(f"a {kind} of", "sort of"),
                text.replace(f"a {kind} of", "a variety of"), text.replace(f"a {kind} of", f"a rival {kind} of"),
                text.replace(f"a {kind} of", "a supertype of"), text.replace(f"{be} a", "were once a"),
                text.replace(f"the {pair[1]}.", f"the {pair[1]}'s pets."), text.replace("The ", "Some ")]:
        assert verdict(bad) != "read", bad
