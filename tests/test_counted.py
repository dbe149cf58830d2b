"""A count noun a model names reads as the items word; a measure or multiplier never reads as the fact."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.counted import MEASURES
from families.reading import Marked, reader

_R = reader("sequential_state_update")
_MARKED = Marked({"Silo": "Silo"}, {"Silo": "Counter"})
_TYPES = {"Silo": "Counter"}
_NOUNS = st.text("bcdfghjklmnpqrtvwxz", min_size=3, max_size=8).map(lambda w: w + "as")
_FORMS = [("Silo starts with {n} {w}.", "INITIAL_VALUE"), ("Silo gains {n} {w}.", "INCREMENT"),
          ("{n} {w} are removed from Silo.", "DECREMENT")]


def _verdict(text: str, pred: str, n: int) -> str:
    return _R.read_fact(text, (pred, ("Silo", n)), _MARKED, _TYPES)[0]


@settings(max_examples=60, deadline=None)
@given(_NOUNS, st.integers(2, 90), st.sampled_from(_FORMS))
def test_plural_noun_reads_as_items(noun: str, n: int, form: tuple[str, str]) -> None:
    assert _verdict(form[0].format(n=n, w=noun), form[1], n) == "read"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(MEASURES - {"more", "extra", "additional", "new", "further", "fresh"})),
       st.integers(2, 90), st.sampled_from(_FORMS))
def test_measure_never_reads(measure: str, n: int, form: tuple[str, str]) -> None:
    assert _verdict(form[0].format(n=n, w=measure), form[1], n) != "read"
    assert _verdict(form[0].format(n=n, w=measure + " of canoes"), form[1], n) != "read"


def test_singular_only_after_one() -> None:
    assert _verdict("Silo starts with 1 horse.", "INITIAL_VALUE", 1) == "read"
    assert _verdict("Silo starts with 5 horse.", "INITIAL_VALUE", 5) != "read"
    assert _verdict("Silo starts with 5 gold bars.", "INITIAL_VALUE", 5) == "read"
    assert _verdict("Silo starts with about 5 canoes.", "INITIAL_VALUE", 5) != "read"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(("visitor", "customer", "worker", "clerk", "courier")), st.sampled_from(("1", "one")))
def test_one_person_a_phrasing_names_as_an_agent_is_counted_after_a_number(person: str, one: str) -> None:
    """"1 visitor leaves Silo": a person the grammar names as the one who moves things ("a visitor adds ...") is a
    counted thing after a number; the way reversed or another number is misread, an agent moving things is no count."""
    assert _verdict(f"Finally, {one} {person} leaves Silo.", "DECREMENT", 1) == "read"
    assert _verdict(f"Then {one} {person} enters Silo.", "INCREMENT", 1) == "read"
    assert _verdict(f"Finally, {one} {person} enters Silo.", "DECREMENT", 1) == "misread"
    assert _verdict(f"Finally, 2 {person}s leave Silo.", "DECREMENT", 1) == "misread"
    assert _verdict(f"Finally, {one} {person} takes 1 item from Silo.", "DECREMENT", 1) != "read"


def test_a_partitive_of_her_or_his_own_things_reads_and_of_another_owner_does_not() -> None:
    """"Maren then spends 83 of her coins": her own coins, the count of items; another's coins, a hedge or another
    number never reads."""
    from families.reading import Marked, reader
    names, types = {"C0": "Maren", "C1": "Jago"}, {"C0": "Counter", "C1": "Counter"}

    def kind(text: str) -> str:
        return reader("sequential_state_update").read_fact(text, ("DECREMENT", ("C0", 83)), Marked(names, types),
                                                           types).kind
    for good in ("Maren then spends 83 of her coins.", "Then Maren gives away 83 of her coins."):
        assert kind(good) == "read", good
    for bad in ("Maren then spends 83 of Jago's coins.", "Maren then spends about 83 of her coins.",
                "Maren then spends 84 of her coins.", "Maren then spends 83 of her 90 coins."):
        assert kind(bad) != "read", bad


def test_a_phrasing_word_counted_after_1_is_a_count_noun_and_a_measure_never() -> None:
    """ "gains 1 point" (blind25): "point" is also a word of the openers ("at some point"), yet after a number it is a
    thing counted, as "points" is; "1 pound" stays a measure."""
    from families.reading import Marked, reader
    names, types = {"C0": "Heron tally"}, {"C0": "Counter"}
    r = reader("sequential_state_update")

    def kind(text: str, fact: tuple) -> str:
        return r.read_fact(text, fact, Marked(names, types), types).kind
    assert kind("Finally, the Heron tally gains 1 point.", ("INCREMENT", ("C0", 1))) == "read"
    assert kind("Finally, the Heron tally gains 4 points.", ("INCREMENT", ("C0", 4))) == "read"
    assert kind("Finally, the Heron tally loses 1 point.", ("INCREMENT", ("C0", 1))) == "misread"
    assert kind("Finally, the Heron tally gains 1 pound.", ("INCREMENT", ("C0", 1))) != "read"
    assert kind("Finally, the Heron tally gains 1 point.", ("INCREMENT", ("C0", 2))) == "misread"
    # a singular after 1 that the phrasings also say ("a crate of"): a thing counted; never a particle or participle
    assert kind("Then 1 crate is delivered to the Heron tally.", ("INCREMENT", ("C0", 1))) == "read"
    assert kind("Then 1 crate is taken from the Heron tally.", ("INCREMENT", ("C0", 1))) == "misread"
    assert kind("Then the Heron tally gains 1 back.", ("INCREMENT", ("C0", 1))) != "read"
    assert kind("Then the Heron tally gains 1 added.", ("INCREMENT", ("C0", 1))) != "read"
