"""Assigned names: the same unit always gets the same names; they are distinct, none inside another (as
whole words), never an answer label; the check accepts them, and refuses a render that renames a symbol."""
from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers.builtin import template_structure
from rendering.names import ASSIGNED_POOLS, assigned_names
from rendering.structure import check, parse, reason_code
from rendering.whole_words import words
from tests.conftest import make


def _well_formed(names: dict[str, str], labels) -> None:
    values = list(names.values())
    assert len(set(v.lower() for v in values)) == len(values), values
    ws = {v: words(v) for v in values}
    for a in values:   # no name is a run of whole words of another
        for b in values:
            if a != b:
                n = len(ws[a])
                assert not any(ws[b][i:i + n] == ws[a] for i in range(len(ws[b]) - n + 1)), (a, b)
    assert not {v.lower() for v in values} & {lab.lower() for lab in labels}


@pytest.mark.parametrize("complexity", [1, 2, 6, 20])
def test_assigned_names_are_fixed_by_the_unit_key_and_well_formed(family, complexity):
    for i in range(30):
        payload = make(family, i, complexity).redact()
        names = assigned_names(payload, f"key-{i}")
        assert names == assigned_names(payload, f"key-{i}")    # a rerun asks with the same names
        assert list(names) == list(payload["entities"])
        _well_formed(names, payload["answer_options"])


def test_other_units_get_other_names():
    payload = make("transitive_order", 0, 6).redact()
    draws = {tuple(assigned_names(payload, f"unit-{k}").values()) for k in range(20)}
    assert len(draws) == 20


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(ASSIGNED_POOLS) + ["Other"]), st.integers(1, 80), min_size=1),
       st.text(max_size=20))
def test_any_mix_of_types_and_counts_gets_distinct_names(counts, key):
    entities = {f"{t[0]}{i}": t for t, n in counts.items() for i in range(n)}
    names = assigned_names({"entities": entities}, key)
    assert set(names) == set(entities)
    _well_formed(names, ["YES", "NO", "UNKNOWN", "LEFT_OF", "RIGHT_OF"])


def test_the_check_wants_the_assigned_names(family):
    payload = make(family, 3, 4).redact()
    render = template_structure(payload)
    given_names = {s: s for s in payload["entities"]} if family == "equality" else render["names"]
    assert check(parse(orjson.dumps(render).decode()), payload, given_names) == []
    if family == "equality":
        return
    other = dict(given_names)
    first = next(iter(other))
    other[first] = "Somebody"
    reasons = check(parse(orjson.dumps(render).decode()), payload, other)
    assert [r for r in reasons if reason_code(r) == "wrong_name" and first in r], reasons


def test_equality_names_must_be_the_symbols_themselves():
    # The options spell symbols (`c != h`): a render that renames them passed with no reason before,
    # although its options then name symbols its text never mentions.
    payload = make("equality", 1, 3).redact()
    render = template_structure(payload)
    renamed = {s: f"{s}{s}x" for s in render["names"]}
    render = {**render, "names": renamed}
    reasons = check(parse(orjson.dumps(render).decode()), payload)
    assert {reason_code(r) for r in reasons} >= {"wrong_name"}
    assert sum(reason_code(r) == "wrong_name" for r in reasons) == len(renamed)


@pytest.mark.parametrize("clitic", ["Let's", "It's", "That's", "Don't", "We'll", "They've", "I'm", "We'd", "Let’s"])
def test_a_clitic_never_names_a_one_letter_symbol_and_the_letter_itself_still_does(clitic):
    """ "Let's consider a system of letter variables related by the premises." (blind23): the "s" of "Let's" is no
    variable s; "the variable s is related to t" names s and t."""
    from rendering.whole_words import Finder
    letters = {x: (x,) for x in "stdmv"}
    assert Finder(letters).found(f"{clitic} consider letters related by premises.") == set()
    assert Finder(letters).found(f"{clitic} say the variable s is related to t's value.") == {"s", "t"}
    assert words("Mira's purse") == ("mira", "'s", "purse")   # an owner's noun: its clitic a word of its own
