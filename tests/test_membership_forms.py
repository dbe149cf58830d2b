"""A place's noun before its name read away wherever it stands (families/membership_forms.py): "Is the town of
Pellham located in Glenholt?" asks of Pellham; another town, a negation or another relation never reads as the query."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from families.membership_forms import rewrite
from families.reading import Marked, reader

NAMES = {"E0": "Pellham", "E1": "Quillon", "S0": "Glenholt", "S1": "Hartwold"}
TYPES = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set"}
PLACES = ["town", "village", "city", "hamlet"]
ASKS = ["Is the {p} of Pellham located in Glenholt?", "Is the {p} of Pellham in Glenholt?",
        "Does the {p} of Pellham lie within Glenholt?", "Is the {p} of Pellham part of Glenholt?"]
TAIL = " Answer YES if it must be, NO if it cannot be, and UNKNOWN if the facts are not sufficient to decide."


def _kind(text: str) -> str:
    return reader("membership_inheritance").read_question(text, ("MEMBER_OF", ("E0", "S0")), Marked(NAMES, TYPES),
                                                          TYPES, ("YES", "NO", "UNKNOWN")).kind


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLACES), st.sampled_from(ASKS), st.booleans())
def test_a_place_noun_before_the_name_in_a_question_reads_and_its_corruptions_do_not(place: str, ask: str,
                                                                                     tail: bool) -> None:
    text = ask.format(p=place) + (TAIL if tail else "")
    assert _kind(text) == "read", text
    assert _kind(text.replace("Pellham", "Quillon", 1)) == "misread", text
    negated = text.replace("of Pellham ", "of Pellham not ", 1)
    assert _kind(negated) != "read", negated
    assert _kind(text.replace("Glenholt", "Glenholt's neighbour")) != "read"


def test_only_a_place_noun_of_a_name_is_read_away() -> None:
    assert rewrite(["is", "the", "town", "of", "@0", "in", "@2"]) == ["is", "@0", "in", "@2"]
    assert rewrite(["is", "the", "mayor", "of", "@0", "in", "@2"]) == ["is", "the", "mayor", "of", "@0", "in", "@2"]
    assert rewrite(["is", "the", "town", "of", "glass", "in", "@2"])[:4] == ["is", "the", "town", "of"]


NOUNED = ["The stone called {n}", "A stone called {n}", "The gem named {n}", "The creature known as {n}", "{n}"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(NOUNED), st.booleans())
def test_a_noun_that_only_names_the_member_reads_and_another_name_or_polarity_does_not(nouned: str, negative: bool
                                                                                     ) -> None:
    names = {"E0": "Glimmer", "E1": "Pallow", "S0": "quartzel", "S1": "kyrite"}
    types = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set"}
    marked, r = Marked(names, types), reader("membership_inheritance")
    fact = ("NOT_MEMBER_OF" if negative else "MEMBER_OF", ("E0", "S0"))
    said = f"{nouned.format(n='Glimmer')} is {'not ' if negative else ''}a quartzel."
    assert r.read_fact(said, fact, marked, types).kind == "read", said
    flipped = said.replace(" is not a", " is a") if negative else said.replace(" is a", " is not a")
    assert r.read_fact(flipped, fact, marked, types).kind == "misread", flipped
    other = said.replace("Glimmer", "Pallow")
    assert r.read_fact(other, fact, marked, types).kind != "read", other
    assert r.read_fact(said.replace(" called", " beside").replace(" named", " beside").replace(" known as", " beside"),
                       fact, marked, types).kind != "read" or nouned == "{n}"



# (a verb of taking part, said of one member; the same said of members, plural)
TAKING_PART = [("attends {c}", "attend {c}"), ("dances with {c}", "dance with {c}"), ("dances in {c}", "dance in {c}"),
               ("rides with {c}", "ride with {c}"), ("sails with {c}", "sail with {c}"),
               ("marches with {c}", "march with {c}"), ("trains with {c}", "train with {c}"),
               ("competes in {c}", "compete in {c}"), ("performs with {c}", "perform with {c}"),
               ("studies at {c}", "study at {c}"), ("is cleared at {c}", "are cleared at {c}")]
SUBSETS = ["Every student in the {a} also {one}.", "Anyone in the {a} also {one}.",
           "All students who {many_a} also {many}.", "Each {a} member also {one}."]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TAKING_PART), st.sampled_from(TAKING_PART), st.sampled_from(SUBSETS))
def test_a_verb_of_taking_part_says_membership_and_its_twins_do_not(member: tuple[str, str], other: tuple[str, str],
                                                                   subset: str) -> None:
    """"Ysolde attends the Atlas Forum", "Everyone in Solstice also dances with Halcyon": a closed set of verbs of taking
    part says membership; the other member or category, the subset's sides swapped, "some", a negation or a hedge
    never read as the fact."""
    names = {"E0": "Ysolde", "E1": "Zerin", "S0": "Atlas Forum", "S1": "Comet Seminar"}
    types = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set"}
    marked, r = Marked(names, types), reader("membership_inheritance")

    def kind(text: str, fact: tuple) -> str:
        return r.read_fact(text, fact, marked, types).kind

    fact = ("MEMBER_OF", ("E0", "S0"))
    said = "Ysolde " + member[0].format(c="the Atlas Forum") + "."
    assert kind(said, fact) == "read", said
    assert kind(said.replace("Ysolde", "Zerin"), fact) == "misread"
    assert kind(said.replace("Atlas Forum", "Comet Seminar"), fact) == "misread"
    negated = "Ysolde does not " + member[1].format(c="the Atlas Forum") + "." if not member[0].startswith("is") \
        else said.replace(" is ", " is not ")
    assert kind(negated, fact) == "misread", negated
    for twin in (said.replace("Ysolde ", "Ysolde rarely "), said.replace("Ysolde ", "Ysolde no longer "),
                 said.replace(" the Atlas Forum", " against the Atlas Forum")):
        assert kind(twin, fact) != "read", twin
    rule = subset.format(a="Comet Seminar", one=other[0].format(c="the Atlas Forum"),
                         many_a=member[1].format(c="the Comet Seminar"), many=other[1].format(c="the Atlas Forum"))
    rfact = ("SUBSET_OF", ("S1", "S0"))
    assert kind(rule, rfact) == "read", rule
    swapped = rule.replace("Atlas Forum", "@@").replace("Comet Seminar", "Atlas Forum").replace("@@", "Comet Seminar")
    assert kind(swapped, rfact) == "misread", swapped
    some = "Some " + rule.split(" ", 1)[1] if rule.startswith(("Every", "Each", "All")) else "Some of them: " + rule
    assert kind(some, rfact) != "read", some


RANKED = [("Every {a} is classed as a {b}.", True), ("Anything catalogued as a {a} is a {b}.", True),
          ("Anything filed as a {a} is also a {b}.", True), ("All {a}s hold the rank of {b}.", True),
          ("Each {a} holds the title of {b}.", True), ("Membership in {a} always comes with membership in {b}.", True),
          ("Every {a} is also registered as a {b}.", True), ("Pim holds the rank of {b}.", False),
          ("Anything that counts as a {a} also counts as a {b}.", True)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RANKED))
def test_a_class_a_rank_or_a_title_says_the_subset_and_its_twins_do_not(said: tuple[str, bool]) -> None:
    """"Every dapplewort is classed as a lanternet", "All netticks hold the rank of mossel", "Membership in Umberglen
    always comes with membership in Wickhaven" (blind40): the subset (or for a member, membership); the sides
    swapped, "some", "sometimes" or a negation never read as the fact."""
    names = {"E0": "Pim", "E1": "Tov", "S0": "dapplewort", "S1": "lanternet"}
    types = {"E0": "Entity", "E1": "Entity", "S0": "Set", "S1": "Set"}
    marked, r = Marked(names, types), reader("membership_inheritance")
    template, subset = said
    fact = ("SUBSET_OF", ("S0", "S1")) if subset else ("MEMBER_OF", ("E0", "S1"))
    text = template.format(a="dapplewort", b="lanternet")
    assert r.read_fact(text, fact, marked, types).kind == "read", text
    if subset:
        swapped = template.format(a="lanternet", b="dapplewort")
        assert r.read_fact(swapped, fact, marked, types).kind == "misread", swapped
        some = "Some " + text.split(" ", 1)[1] if text.startswith(("Every", "Each", "All")) else \
            text.replace("always", "sometimes").replace("Anything", "Something")
        assert r.read_fact(some, fact, marked, types).kind != "read", some
    negated = text.replace(" is ", " is not ", 1).replace(" hold ", " do not hold ", 1).replace(" holds ", " does not hold ")
    if negated != text:
        assert r.read_fact(negated, fact, marked, types).kind != "read", negated


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["rival", "friend", "founder", "sponsor", "ally", "neighbour", "enemy", "former"]),
       st.sampled_from(["Every {r} of the {a} is in the {b}.", "Each {r} of the {a} is also in the {b}.",
                        "Any creature that is a {r} of the {a} is also a member of the {b}."]))
def test_a_relation_to_a_category_from_outside_is_never_its_members(relation: str, said: str) -> None:
    """"Every rival of the Nova Squadron is in the Orion Wing" says nothing of the Squadron's members (it had read as
    the subset); "every ship of", "every member of", "any creature that is a member of" do (blind44)."""
    names = {"E0": "Pim", "S0": "Nova Squadron", "S1": "Orion Wing"}
    types = {"E0": "Entity", "S0": "Set", "S1": "Set"}
    marked, r = Marked(names, types), reader("membership_inheritance")
    fact = ("SUBSET_OF", ("S0", "S1"))
    text = said.format(r=relation, a="Nova Squadron", b="Orion Wing")
    assert r.read_fact(text, fact, marked, types).kind != "read", text
    member = said.format(r="member", a="Nova Squadron", b="Orion Wing").replace("Every member of", "Every ship of")
    assert r.read_fact(member, fact, marked, types).kind == "read", member


@pytest.mark.parametrize("said,fact,kind", [
    ("Briarwood encloses all of Riven Coast.", ("SUBSET_OF", ("S0", "S1")), "read"),
    ("Riven Coast encloses all of Briarwood.", ("SUBSET_OF", ("S0", "S1")), "misread"),
    ("Briarwood encloses some of Riven Coast.", ("SUBSET_OF", ("S0", "S1")), "unread"),
    ("Millbrook is situated in Briarwood.", ("MEMBER_OF", ("E0", "S1")), "read"),
    ("Millbrook is not situated in Briarwood.", ("MEMBER_OF", ("E0", "S1")), "misread"),
    ("Millbrook is situated near Briarwood.", ("MEMBER_OF", ("E0", "S1")), "unread"),
])
def test_enclosing_all_of_and_being_situated_in(said: str, fact: tuple, kind: str) -> None:
    """"Briarwood encloses all of Riven Coast", "Millbrook is situated in Wyrmgate" (blind44)."""
    names = {"E0": "Millbrook", "S0": "Riven Coast", "S1": "Briarwood"}
    types = {"E0": "Entity", "S0": "Set", "S1": "Set"}
    got = reader("membership_inheritance").read_fact(said, fact, Marked(names, types), types).kind
    assert got == kind if kind != "unread" else got != "read", (said, got)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["contains", "includes", "holds", "lists"]), st.sampled_from(["every", "each", "all"]),
       st.sampled_from(["ship", "spirit", "creature", "member"]), st.sampled_from(["of", "in"]))
def test_a_category_holding_every_one_of_anothers_by_the_storys_noun(verb: str, every: str, noun: str, prep: str):
    """"The Orion Wing contains every ship of the Nova Squadron", "The Petal Guard includes every spirit of the Willow
    Chorus" (blind44): the subset; the other way round misread; "some" or a relation from outside never read."""
    names = {"E0": "Pim", "S0": "Nova Squadron", "S1": "Orion Wing"}
    types = {"E0": "Entity", "S0": "Set", "S1": "Set"}
    marked, r = Marked(names, types), reader("membership_inheritance")
    fact = ("SUBSET_OF", ("S0", "S1"))
    said = f"The Orion Wing {verb} {every} {noun}{'s' if every == 'all' else ''} {prep} the Nova Squadron."
    assert r.read_fact(said, fact, marked, types).kind == "read", said
    swapped = said.replace("Orion Wing", "@").replace("Nova Squadron", "Orion Wing").replace("@", "Nova Squadron")
    assert r.read_fact(swapped, fact, marked, types).kind == "misread", swapped
    some = said.replace(f" {every} ", " some ")
    assert r.read_fact(some, fact, marked, types).kind != "read", some
    rival = said.replace(f" {noun}", " rival", 1)
    assert r.read_fact(rival, fact, marked, types).kind != "read", rival
