"""equality's story verbs (families/equality_verbs.py), composed from their parts: a verb of the measure in any form,
a sameness or a difference, a measure, or the other thing's own measure said in any way, reads as its fact; the
same composed with a verb of wanting or knowing, an owned noun, a hedge, a bound, a degree or a negation inside never
reads as the fact."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.equality_forms import HEADS
from families.equality_verbs import ACTING, OWN, PARTICIPLES
from families.free_forms import s_form
from families.reading import Marked, reader

VARS = ("Ivel", "Sorrel", "Tavi", "Arvos", "Fyra", "Rhune", "Quillon", "Brindle")
# ("current" is also an adjective: "Sorrel's current" may be "Sorrel is current", read so before any measure)
_MEASURES = st.sampled_from(sorted(h for h in HEADS if not h.endswith("s") and h != "current"))
_VERBS = st.sampled_from(sorted(v for v in OWN if not v.endswith("s") or v.endswith("ss")))
# verbs of having only: one that may act on a thing ("measures Sorrel's length") never takes the other's measure
_HAVING = st.sampled_from(sorted(v for v in OWN - ACTING if not v.endswith("s") or v.endswith("ss")))
_PREPS = st.sampled_from(["", " on", " at", " in", " with"])
# a word of another claim: wanting, knowing, guessing, writing down (never a thing's own value)
_OTHER_VERBS = st.sampled_from(["wants", "guessed", "knows", "records", "predicted", "remembers", "wrote down", "hates",
                                "expects", "needs", "lacks", "missed"])
_POISONS = st.sampled_from(["probably", "maybe", "roughly", "about", "almost", "nearly", "at least", "twice", "once",
                            "never", "not", "-", "~", "<", "+", "%"])


def _read(text: str, fact: str, a: str, b: str) -> str:
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    return reader("equality").read_fact(text, (fact, ("V0", "V1")), Marked(names, types), types).kind


def _pair() -> st.SearchStrategy[tuple[str, str]]:
    return st.tuples(st.sampled_from(VARS), st.sampled_from(VARS)).filter(lambda p: p[0] != p[1])


@settings(max_examples=200, deadline=None)
@given(pair=_pair(), verb=_VERBS, prep=_PREPS, measure=_MEASURES, same=st.sampled_from(
    ["the same", "exactly the same", "one and the same", "an identical"]))
def test_a_verb_of_the_measure_with_the_same_measure_reads_and_the_other_way_is_never_read(pair, verb, prep, measure,
                                                                                         same):
    a, b = pair
    said = f"{a} {verb}{prep} {same} {measure} as {b}."
    assert _read(said, "EQUAL", a, b) == "read", said
    assert _read(said, "NOT_EQUAL", a, b) != "read", said
    pair_said = f"{a} and {b} {verb}{prep} different {s_form(measure)}."
    assert _read(pair_said, "NOT_EQUAL", a, b) == "read", pair_said
    assert _read(pair_said, "EQUAL", a, b) != "read", pair_said


@settings(max_examples=200, deadline=None)
@given(pair=_pair(), verb=_HAVING, prep=_PREPS, measure=_MEASURES, form=st.sampled_from(
    ["{b}'s {m}", "the {m} of {b}", "the {m} held by {b}", "the {m} found in {b}", "exactly the {m} {b} {v}",
     "the {m} that {b} {v}"]))
def test_the_other_things_own_measure_reads_as_equal_and_negated_as_not_equal(pair, verb, prep, measure, form):
    a, b = pair
    other = form.format(b=b, m=measure, v=verb)
    said = f"{a} {verb}{prep} {other}."
    assert _read(said, "EQUAL", a, b) == "read", said
    negated = f"{a} does not {'have' if verb in ('had', 'has') else verb}{prep} {other}."
    assert _read(negated, "EQUAL", a, b) != "read", negated


@settings(max_examples=200, deadline=None)
@given(pair=_pair(), verb=_VERBS, prep=_PREPS, measure=_MEASURES, other=_OTHER_VERBS, poison=_POISONS,
       where=st.integers(0, 3), owned=st.sampled_from(["brother", "twin", "neighbour", "double"]))
def test_poisoned_compositions_never_read_as_the_fact(pair, verb, prep, measure, other, poison, where, owned):
    a, b = pair
    wrong = [
        # a verb of wanting or knowing ("records the same time as" is a sport's own having, read before this class)
        *([f"{a} {other} the same {measure} as {b}."] if other not in ("records", "wrote down") else []),
        f"{a} {other} {b}'s {measure}.",
        f"{a}'s {owned} {verb}{prep} the same {measure} as {b}.",   # an owned noun said for its owner
        f"{a} {verb}{prep} the same {measure} as {b}'s {owned}.",
        f"{a} {verb}{prep} {b}'s {owned}'s {measure}.",
        f"{a} {verb}{prep} the {measure} {b} {other}.",      # the other's measure by a verb of another claim
        f"{a} is not as heavy as {b}.",                      # a degree: lighter, more than NOT_EQUAL
        f"{a} beat {b}'s {measure}.", f"{a} measures {b}'s {measure}.", f"{a} picked {b}'s {measure}.",   # acting on
        f"{a} measured the {measure} {b} measured.", f"{a} drew the {measure} {b} {other}.",
        f"{a} and {b} measure their {measure}.", f"{a} and {b} {other} their {measure}.",   # "their" only with share
        f"{a} is worth more than {b}.",
    ]
    words = f"{a} {verb}{prep} the same {measure} as {b}".split()
    words.insert(1 + where, poison)                          # a hedge, a bound, a negation, a sign inside
    wrong.append(" ".join(words) + ".")
    for said in wrong:
        assert _read(said, "EQUAL", a, b) != "read", said


@settings(max_examples=150, deadline=None)
@given(pair=_pair(), adj=st.sampled_from(["heavy", "strong", "tall", "long", "bright", "old", "valuable"]),
       verb=st.sampled_from(["is", "stands", "sits", "ranks"]), sure=st.sampled_from(["", "exactly ", "just "]),
       part=st.sampled_from(sorted(PARTICIPLES)))
def test_worth_degree_and_manner_read_as_sameness_and_their_negations_as_difference(pair, adj, verb, sure, part):
    a, b = pair
    for said in (f"{a} {verb} {sure}as {adj} as {b}.", f"{a} is worth {sure}as much as {b}.",
                 f"{a} is worth the same as {b}.", f"{a} and {b} are equally {adj}.", f"{a} and {b} are of equal worth.",
                 f"{a} is {part} exactly like {b}."):
        assert _read(said, "EQUAL", a, b) == "read", said
        assert _read(said, "NOT_EQUAL", a, b) != "read", said
    for said in (f"{a} and {b} are not equally {adj}.", f"{a} is not worth the same as {b}.",
                 f"{a} and {b} are worth different amounts.", f"{a} and {b} are of unequal strength."):
        assert _read(said, "NOT_EQUAL", a, b) == "read", said
        assert _read(said, "EQUAL", a, b) != "read", said
    for said in (f"{a} is not as {adj} as {b}.", f"{a} {verb} twice as {adj} as {b}.", f"{a} {verb} almost as {adj} as {b}."):
        assert _read(said, "EQUAL", a, b) != "read", said
        assert _read(said, "NOT_EQUAL", a, b) != "read", said


@settings(max_examples=150, deadline=None)
@given(pair=_pair(), measure=st.sampled_from(["team", "class", "house", "cabin", "room", "band"]),
       other=st.sampled_from(["team", "class", "house", "cabin", "room", "band", "play", "soul", "check"]),
       poison=st.sampled_from(["once", "former", "almost", "probably", "nearly", "future"]))
def test_a_compound_of_the_renders_measure_and_mate_reads_as_sharing_it_and_no_other_compound_does(pair, measure, other,
                                                                                                  poison):
    from families.kind_before import before_marked
    a, b = pair
    names, types = {"V0": a, "V1": b}, {"V0": "Variable", "V1": "Variable"}
    marked = before_marked(names, types, frozenset(), frozenset(), frozenset({measure, s_form(measure)}), "equality")

    def read(text: str, fact: str) -> str:
        return reader("equality").read_fact(text, (fact, ("V0", "V1")), marked, types).kind
    for said, fact in ((f"{a} and {b} are {measure}mates.", "EQUAL"), (f"{a} is {measure}mates with {b}.", "EQUAL"),
                       (f"{a} is a {measure}mate of {b}.", "EQUAL"), (f"{a} and {b} are not {measure}mates.", "NOT_EQUAL"),
                       (f"{a} is not {measure}mates with {b}.", "NOT_EQUAL")):
        assert read(said, fact) == "read", said
        assert read(said, "NOT_EQUAL" if fact == "EQUAL" else "EQUAL") != "read", said
    wrong = [f"{a} and {b} are {poison} {measure}mates.", f"{a}'s brother is {measure}mates with {b}."]
    if other != measure:
        wrong.append(f"{a} and {b} are {other}mates.")   # a compound of another noun: shares no measure of the render's
    for said in wrong:
        assert read(said, "EQUAL") != "read", said


@settings(max_examples=100, deadline=None)
@given(pair=_pair(), verb=_VERBS, measure=_MEASURES, other=_OTHER_VERBS,
       clause=st.sampled_from([("differ", "NOT_EQUAL"), ("are different", "NOT_EQUAL"), ("match", "EQUAL"),
                               ("are the same", "EQUAL")]), poison=st.sampled_from(["probably ", "slightly ", "once "]))
def test_measures_in_a_relative_clause_read_by_the_clause_and_poisoned_never(pair, verb, measure, other, clause, poison):
    a, b = pair
    words, fact = clause
    opposite = "EQUAL" if fact == "NOT_EQUAL" else "NOT_EQUAL"
    said = f"{a} and {b} {verb} {s_form(measure)} that {words}."
    assert _read(said, fact, a, b) == "read", said
    assert _read(said, opposite, a, b) != "read", said
    for wrong in (f"{a} and {b} {verb} {s_form(measure)} that {poison}{words}.",
                  f"{a} and {b} {other} {s_form(measure)} that {words}."):
        assert _read(wrong, fact, a, b) != "read", wrong


@settings(max_examples=60, deadline=None)
@given(pair=_pair(), naming=st.sampled_from(["label", "tag", "code", "name", "key", "serial", "title"]),
       measure=_MEASURES.filter(lambda m: m not in ("label", "tag", "code", "key", "serial", "note", "mark", "id")))
def test_a_measure_that_may_name_a_thing_is_never_read_as_the_others_measure_left_unsaid(pair, naming, measure):
    a, b = pair
    said = f"{a}'s {naming} is {b}."   # the label may read "Sorrel": no value of Sorrel's
    assert _read(said, "EQUAL", a, b) != "read", said
    if naming in HEADS:   # said of both, a measure all the same
        assert _read(f"{a}'s {naming} is {b}'s {naming}.", "EQUAL", a, b) == "read"
    assert _read(f"{a}'s {measure} is not {b}'s.", "NOT_EQUAL", a, b) == "read"
