"""Unit keys: the stage-fixed maker a report checks a million keys with gives exactly `unit_key`."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from runner.store.records import unit_key, unit_keys


@given(fp=st.text(max_size=40), parent=st.text(max_size=80), sample=st.integers(0, 10**12))
def test_unit_keys_is_unit_key(fp, parent, sample):
    assert unit_keys(fp)(parent, sample) == unit_key(fp, parent, sample)


def test_a_maker_is_reusable_and_keys_differ_by_every_part():
    make = unit_keys("fp")
    keys = {make("a", 0), make("a", 1), make("b", 0), unit_keys("fq")("a", 0)}
    assert len(keys) == 4 and make("a", 0) == make("a", 0) == unit_key("fp", "a", 0)
