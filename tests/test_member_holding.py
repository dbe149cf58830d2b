"""A subset said of whoever holds a category's token ("Everyone holding the Quartz Tier also holds the Nectar Tier",
"Anyone wearing the Opal Tier holds the Flint Tier too"; families/membership_forms.py): any pronoun of all, any verb
of holding as its -ing form before and any after. It reads; the reverse, a negation, a hedge, "some" or "most", a
past or a wish, another owner's thing never does."""
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
