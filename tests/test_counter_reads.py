"""Counter premises of the seventh session's classes (families/counter_reads.py, families/sequential_state_update.py):
a start said "at the same time" as the start before it, and a change closed by its reason ("as a penalty"). Each reads
as its fact; a hedge, a final value, the other direction or a percentage never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.reading import Marked, reader

NAMES = {"C0": "Otters", "C1": "Gallery Hall"}
TYPES = {s: "Counter" for s in NAMES}


def _kind(text: str, fact: tuple[str, tuple[str, int]]) -> str:
    return reader("sequential_state_update").read_fact(text, fact, Marked(NAMES, TYPES), TYPES).kind


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["At the same time", "At the same moment", "At that same time"]),
       st.sampled_from(["there are {n} visitors in Gallery Hall", "{n} visitors are in Gallery Hall",
                        "Gallery Hall holds {n} visitors"]), st.integers(2, 99))
def test_a_start_at_the_same_time_reads_and_its_poisons_do_not(opener: str, said: str, n: int) -> None:
    text = f"{opener}, {said.format(n=n)}."
    assert _kind(text, ("INITIAL_VALUE", ("C1", n))) == "read", text
    for bad in (f"{opener}, {said.format(n=f'about {n}')}.", f"{opener}, {said.format(n=n)} at the end.",
                f"{opener}, {said.format(n=n + 1)}."):
        assert _kind(bad, ("INITIAL_VALUE", ("C1", n))) != "read", bad
    assert _kind(text, ("INCREMENT", ("C1", n))) != "read", text


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["penalty", "fine", "fee"]), st.sampled_from(["bonus", "reward", "prize"]), st.integers(2, 99))
def test_a_change_closed_by_its_reason_reads_and_the_reason_never_turns_it(loss: str, gain: str, n: int) -> None:
    lose, win = f"Finally, the Otters lose {n} points as a {loss}.", f"Then the Otters gain {n} points as a {gain}."
    assert _kind(lose, ("DECREMENT", ("C0", n))) == "read", lose
    assert _kind(win, ("INCREMENT", ("C0", n))) == "read", win
    for bad, fact in ((lose, ("INCREMENT", ("C0", n))), (win, ("DECREMENT", ("C0", n))),
                      (f"Finally, the Otters lose {n} percent of their points as a {loss}.", ("DECREMENT", ("C0", n))),
                      (f"Finally, the Otters lose about {n} points as a {loss}.", ("DECREMENT", ("C0", n)))):
        assert _kind(bad, fact) != "read", bad
