"""A run's unit keys held as 64-bit digests answer `in` as a set of the keys would, whatever was added,
in whatever order, merged from whatever parts (a Ray agent's result into the driver's)."""
from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from runner.store.keyset import KeySet

_KEYS = st.one_of(st.text(alphabet="0123456789abcdef", min_size=32, max_size=32), st.text(max_size=40))


@given(parts=st.lists(st.lists(_KEYS, max_size=30), min_size=1, max_size=4), asked=st.lists(_KEYS, max_size=30))
def test_a_keyset_answers_as_a_set_of_its_keys(parts, asked):
    keys = KeySet()
    for part in parts:
        other = KeySet()
        for key in part:
            other.add(key)
        keys |= other
        assert all(key in keys for key in part)   # asked between additions, too (it sorts itself again)
    added = {key for part in parts for key in part}
    for key in asked + [k for part in parts for k in part]:
        assert (key in keys) == (key in added)
    assert len(keys) == len(added)


def test_a_keyset_crosses_a_pickle_as_eight_bytes_a_key():
    """What a Ray agent sends the driver: 100,000 keys in well under a megabyte, the same keys back."""
    keys = KeySet(f"{i:032x}" for i in range(100_000))
    data = pickle.dumps(keys, protocol=pickle.HIGHEST_PROTOCOL)
    assert len(data) < 100_000 * 8 + 1_000
    back = pickle.loads(data)
    assert f"{99_999:032x}" in back and f"{100_000:032x}" not in back and None not in back
