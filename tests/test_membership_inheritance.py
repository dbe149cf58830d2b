"""What membership_inheritance's docstring says it equalizes across labels, measured."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import by_label, independence_p, make

FAMILY = "membership_inheritance"


def roles(sk, symbol) -> Counter:
    return Counter((f.predicate, f.arguments.index(symbol)) for f in sk.facts if symbol in f.arguments)


@pytest.mark.parametrize("complexity", [2, 3, 7, 20])
def test_queried_symbols_look_alike_in_every_label(complexity):
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        x, target = sk.query.arguments
        assert roles(sk, x) == Counter({("MEMBER_OF", 0): 1, ("NOT_MEMBER_OF", 0): 1}), (sk.id, sk.gold_answer)
        assert roles(sk, target) == Counter({("SUBSET_OF", 0): 1, ("SUBSET_OF", 1): 1}), (sk.id, sk.gold_answer)


@pytest.mark.parametrize("complexity", [2, 5, 12])
def test_shape_is_independent_of_the_label(complexity):
    def counts(sk):
        return len(sk.entities), tuple(sorted(Counter(f.predicate for f in sk.facts).items()))
    assert independence_p(by_label(FAMILY, complexity, counts)) > 0.01


@pytest.mark.parametrize("complexity", [4, 9, 20])
def test_sets_next_to_the_queried_symbols_are_inner_from_4(complexity):
    # x's two sets and the queried set's neighbours each have a subset and a superset, in every label.
    for i in range(1000):
        sk = make(FAMILY, i, complexity)
        x, target = sk.query.arguments
        near = [f.arguments[1] for f in sk.facts if f.arguments[0] == x]
        near += [a for f in sk.facts if f.predicate == "SUBSET_OF" and target in f.arguments
                 for a in f.arguments if a != target]
        for s in near:
            assert roles(sk, s)[("SUBSET_OF", 0)] == 1 and roles(sk, s)[("SUBSET_OF", 1)] == 1, (sk.id, s)


@pytest.mark.parametrize("complexity", [2, 5, 13])
def test_entity_and_set_are_complexity_premises_apart_in_every_label(complexity):
    from tests.test_transitive_order import undirected_distance
    for i in range(300):
        sk = make(FAMILY, i, complexity)
        assert undirected_distance(sk, *sk.query.arguments) == complexity, (sk.id, sk.gold_answer)


# The reader on the categories' free-English forms (issue 42): a category named through its members or as a set, in any
# phrasing, reads as its fact; the same sentence with a hedge or negation inserted, or reversed, never reads as it.
NAMES = {"E0": "Nico", "S0": "Bakers", "S1": "Divers"}
TYPES = {"E0": "Entity", "S0": "Set", "S1": "Set"}
GROUPS = ["the", "the members of the", "the roster of the", "the set of", "the group of", "the ranks of the"]
MEMBER = ["Among {g} Bakers is Nico.", "Nico is among {g} Bakers.", "{G} Bakers include Nico.",
          "Nico appears on the roster of the Bakers.", "Nico sits within {g} Bakers.", "Nico is classed as a Baker.",
          "Nico ∈ Bakers.", "Nico: member of {g} Bakers.", "Nico is a knight of {g} Bakers."]
NOT_MEMBER = ["Nico is not listed among {g} Bakers.", "None of {g} Bakers is Nico.", "{G} Bakers do not include Nico.",
              "Nico does not fall within {g} Bakers.", "{G} Bakers have no member named Nico.", "Nico ∉ Bakers.",
              "Nico cannot be found anywhere among {g} Bakers."]
SUBSET = ["{G} Divers include everyone who is in {g} Bakers.", "{G} Bakers lie entirely inside {g} Divers.",
          "Everyone in {g} Bakers is also counted in {g} Divers.", "No Baker fails to be a Diver.",
          "None of {g} Bakers is outside {g} Divers.", "Only Divers can be Bakers.", "Bakers ⊆ Divers."]


def _verdict(text: str, fact):
    from families.reading import Marked, reader
    return reader(FAMILY).read_fact(text, fact, Marked(NAMES, TYPES), TYPES)


def _said(form: str, group: str) -> str:
    return form.format(g=group, G=group[:1].upper() + group[1:])


@settings(max_examples=150, deadline=None)
@given(pred=st.sampled_from(["MEMBER_OF", "NOT_MEMBER_OF", "SUBSET_OF"]), k=st.integers(0, 7),
       group=st.sampled_from(GROUPS))
def test_a_category_named_through_its_members_or_as_a_set_reads_and_its_opposite_is_misread(pred, k, group):
    forms = {"MEMBER_OF": MEMBER, "NOT_MEMBER_OF": NOT_MEMBER, "SUBSET_OF": SUBSET}[pred]
    text = _said(forms[k % len(forms)], group)
    fact = (pred, ("S0", "S1")) if pred == "SUBSET_OF" else (pred, ("E0", "S0"))
    assert _verdict(text, fact).kind == "read", text
    other = {"MEMBER_OF": ("NOT_MEMBER_OF", ("E0", "S0")), "NOT_MEMBER_OF": ("MEMBER_OF", ("E0", "S0")),
             "SUBSET_OF": ("SUBSET_OF", ("S1", "S0"))}[pred]
    assert _verdict(text, other).kind == "misread", text


@settings(max_examples=150, deadline=None)
@given(pred=st.sampled_from(["MEMBER_OF", "NOT_MEMBER_OF", "SUBSET_OF"]), k=st.integers(0, 7),
       group=st.sampled_from(GROUPS), word=st.sampled_from(["probably", "maybe", "not", "never", "usually", "some",
                                                             "formerly", "~", "<"]), where=st.floats(0, 1))
def test_a_hedge_negation_or_symbol_in_a_category_form_is_never_read(pred, k, group, word, where):
    forms = {"MEMBER_OF": MEMBER, "NOT_MEMBER_OF": NOT_MEMBER, "SUBSET_OF": SUBSET}[pred]
    words = _said(forms[k % len(forms)], group).split(" ")
    at = min(int(where * len(words)), len(words) - 1) + 1
    text = " ".join(words[:at] + [word] + words[at:])
    fact = (pred, ("S0", "S1")) if pred == "SUBSET_OF" else (pred, ("E0", "S0"))
    assert _verdict(text, fact).kind != "read", text


# A category's name as a noun's modifier (blind model renders: "Every Birch Society member belongs to the Garnet Union",
# "All Orl Guild members are Nask Guild members", "The Cobalt Order's members all belong to the Dune Club"), its elements,
# and "on" a team: each reads, the reverse is misread, a hedge or negation inserted never reads.
CLUB = {"E0": "Nico", "S0": "Chess Club", "S1": "Dune Guild"}
CLUB_TYPES = {"E0": "Entity", "S0": "Set", "S1": "Set"}
COMPOUNDS = ["Every {a} member belongs to the {b}.", "All {a} members are {b} members.",
             "The {a}'s members all belong to the {b}.", "Every {a} member is a member of the {b}.",
             "The {a}'s membership is entirely contained within the {b}.", "Every element of {a} is also an element of {b}.",
             "All elements of {a} are in {b}.", "Everyone on the {a} is in the {b}.", "The {a} is wholly part of the {b}."]


def _club(text: str, fact):
    from families.reading import Marked, reader
    return reader(FAMILY).read_fact(text, fact, Marked(CLUB, CLUB_TYPES), CLUB_TYPES)


@settings(max_examples=60, deadline=None)
@given(form=st.sampled_from(COMPOUNDS), word=st.sampled_from(["probably", "not", "never", "usually", "some", "formerly"]),
       where=st.floats(0, 1))
def test_a_category_as_a_modifier_reads_reversed_is_misread_and_hedged_never_reads(form, word, where):
    text = form.format(a="Chess Club", b="Dune Guild")
    assert _club(text, ("SUBSET_OF", ("S0", "S1"))).kind == "read", text
    assert _club(text, ("SUBSET_OF", ("S1", "S0"))).kind == "misread", text
    words = text.split(" ")
    at = min(int(where * len(words)), len(words) - 1) + 1
    hedged = " ".join(words[:at] + [word] + words[at:])
    assert _club(hedged, ("SUBSET_OF", ("S0", "S1"))).kind != "read", hedged


def test_on_a_team_is_in_it():
    assert _club("Nico is on the Chess Club.", ("MEMBER_OF", ("E0", "S0"))).kind == "read"
    assert _club("Nico is not on the Chess Club.", ("NOT_MEMBER_OF", ("E0", "S0"))).kind == "read"
    assert _club("Nico is not on the Chess Club.", ("MEMBER_OF", ("E0", "S0"))).kind == "misread"


# A category holding another whole, the holding of a token said passively or as a gerund, and "all who" with a plural
# verb (blind25, 28, 29): composed from their parts; reversed they are misread, with a part or a negation never read.
CONTAINS = ["{G} Divers {adv}contains {g} Bakers.", "Inside {g} Divers is {g} Bakers.",
            "{G} Divers includes all items of {g} Bakers.", "{G} Divers contains everything in {g} Bakers.",
            "{G} Divers is held by everyone who has {g} Bakers.", "{G} Divers is held by every holder of {g} Bakers.",
            "Holding {g} Bakers means also holding {g} Divers.", "All who belong to {g} Bakers also belong to {g} Divers.",
            "All who are in {g} Bakers are also in {g} Divers.", "All {g} Bakers are also classified as {g} Divers."]


@settings(max_examples=80, deadline=None)
@given(form=st.sampled_from(CONTAINS), g=st.sampled_from(["the", ""]),
       adv=st.sampled_from(["", "entirely ", "fully ", "wholly "]),
       poison=st.sampled_from(["partly", "not", "probably", "some of", "most of", "never"]))
def test_a_category_holding_another_whole_reads_and_its_poisons_do_not(form, g, adv, poison):
    text = " ".join(form.format(g=g, G=g.title(), adv=adv).split())
    assert _verdict(text, ("SUBSET_OF", ("S0", "S1"))).kind == "read", text
    assert _verdict(text, ("SUBSET_OF", ("S1", "S0"))).kind == "misread", text
    words = text.rstrip(".").split()
    k = next(i for i, w in enumerate(words) if w.lower() in ("contains", "is", "includes", "means", "belong", "are"))
    poisoned = " ".join(words[:k + 1] + [poison] + words[k + 1:]) + "."
    assert _verdict(poisoned, ("SUBSET_OF", ("S0", "S1"))).kind != "read", poisoned


def test_only_a_family_whose_facts_hold_a_number_counts_items():
    """Membership's phrasings say "items" ("all items of the Kestrel collection"), yet its labels are never counts:
    a question's "UNKNOWN if ..." stays a clause of not being settled, never a final value."""
    from families.reading import reader
    assert reader("sequential_state_update").counts
    assert not reader(FAMILY).counts and not reader("transitive_order").counts and not reader("equality").counts
