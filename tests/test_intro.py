"""The intro's number rule (rendering/intro.py), for the seventh session's classes: "one" of the one place a row stands
in ("along one very long wall"), "one of them" set against another, and a partitive count of the named things ("two of
its warehouses"). Each passes; a count of anything else, a number where the answers are numbers, a "one" that counts
("only one of them") is refused."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rendering.intro import intro_flaws

LABELS = ("LEFT_OF", "RIGHT_OF", "UNKNOWN")
COUNTS = ("10", "12", "14")
KINDS = ((2, frozenset({"warehouse"})),)
NUMBER = "intro: the intro holds a number"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["wall", "fence", "street", "shelf", "lane"]), st.sampled_from(["", "very long ", "wooden "]),
       st.sampled_from(["A row of paintings hangs along one {a}{s}.", "The students sit on one {a}{s} in the yard."]))
def test_one_place_of_the_row_passes_where_the_answers_are_no_numbers(setting: str, adj: str, frame: str) -> None:
    intro = frame.format(a=adj, s=setting)
    assert intro_flaws(intro, LABELS) == (), intro
    assert NUMBER in intro_flaws(intro, COUNTS), intro   # where the answers are counts, any "one" may hint
    assert NUMBER in intro_flaws(intro.replace("one", "two"), LABELS), intro
    assert NUMBER in intro_flaws(intro.replace("one", "one 5"), LABELS), intro


def test_one_of_them_against_another_passes_and_a_counting_one_does_not() -> None:
    assert intro_flaws("Belonging to one of them often guarantees a place in another.", LABELS) == ()
    for bad in ("Only one of them is a baker.", "One of them holds a secret.", "Exactly one of these guilds is old."):
        assert NUMBER in intro_flaws(bad, LABELS), bad


def test_a_partitive_of_the_named_things_passes_and_of_anything_else_does_not() -> None:
    assert intro_flaws("A company keeps crates in two of its warehouses.", COUNTS, KINDS) == ()
    for bad in ("A company keeps crates in three of its warehouses.", "A company keeps two of its crates in the "
                "warehouses.", "Two of its workers move crates between the warehouses."):
        assert NUMBER in intro_flaws(bad, COUNTS, KINDS), bad


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["children", "people", "men", "women", "players", "friends"]),
       st.sampled_from(["{n} {k} are saving stickers in albums.", "{n} {k} keep running scores during a game."]))
def test_a_count_of_the_named_owners_passes_in_an_irregular_plural_too(kind: str, frame: str) -> None:
    # blind23: "Two children are saving stickers" where the two counters are Oskar and Nadia (no shared noun)
    owners = ((2, frozenset({"*"})),)
    assert intro_flaws(frame.format(n="Two", k=kind), COUNTS, owners) == ()
    assert NUMBER in intro_flaws(frame.format(n="Three", k=kind), COUNTS, owners)   # not their count
    assert NUMBER in intro_flaws(frame.format(n="Two", k=kind) + " One of them ends with 12.", COUNTS, owners)


EQ_PAYLOAD = {"family": "equality", "entities": {s: "Variable" for s in "gnqx"}}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["turn out to be linked through {c}", "are connected via {c}", "are tied together through {c}",
                        "share a value with {c}", "are chained through {c}", "coincide through {c}"]))
def test_an_intro_that_relates_named_symbols_is_a_hint(relation: str) -> None:
    """"A quick puzzle in which q and g turn out to be linked through n" (blind41's intro defect) hints at the answer;
    the same scene without the relation, or with the names alone, says nothing of it."""
    from rendering.intro import intro_hint
    names = {s: s for s in "gnqx"}
    said = "A quick puzzle in which q and g " + relation.format(c="n") + ", among other comparisons."
    assert intro_hint(said, EQ_PAYLOAD, names) is not None, said
    assert intro_hint("A quick puzzle with q, g and n, among other letters.", EQ_PAYLOAD, names) is None
