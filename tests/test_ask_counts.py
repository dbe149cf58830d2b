"""A count's ask with the end of a period the story runs over ("at the end of the week") and a kind word before the
counted noun ("how many gold coins"), composed with the forms a count is asked in (families/ask_counts.py,
families/option_lists.py, families/counted.py): each reads; a start or middle of the period, a time word before the noun,
another counter or a hedge never does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.ask_counts import period_ended
from families.counted import plain_modifier
from families.option_lists import counted_as_items
from families.reading import Marked, reader

NAMES = {"C0": "Lena", "C1": "Owen"}
TYPES = {"C0": "Counter", "C1": "Counter"}
ASKS = ["How many {kind}stickers does {x} have {time}?", "How many {kind}stickers are in {x}'s album {time}?",
        "After all of these changes, how many {kind}stickers does {x} hold {time}?"]
PERIODS = ["day", "week", "morning", "season", "trip", "shift"]
KINDS = ["", "gold ", "shiny ", "red "]


def _kind(text: str) -> str:
    return reader("sequential_state_update").read_question(text, ("FINAL_VALUE", ("C0",)), Marked(NAMES, TYPES),
                                                           TYPES, ("142", "144", "146")).kind


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ASKS), st.sampled_from(PERIODS), st.sampled_from(KINDS), st.sampled_from(["at", "by"]))
def test_the_end_of_a_period_and_a_kind_word_read_and_their_poisons_do_not(
        ask: str, period: str, kind: str, at: str) -> None:
    if "album" in ask and kind:
        kind = ""   # a holder's ask keeps its own noun
    text = ask.format(kind=kind, x="Lena", time=f"{at} the end of the {period}") + " Choose 142, 144, or 146."
    assert _kind(text) == "read", text
    for bad in (ask.format(kind=kind, x="Lena", time=f"at the start of the {period}"),
                ask.format(kind=kind, x="Lena", time=f"in the middle of the {period}"),
                ask.format(kind=kind, x="Owen", time=f"{at} the end of the {period}"),
                ask.format(kind="original ", x="Lena", time=f"{at} the end of the {period}"),
                ask.format(kind="about ", x="Lena", time=f"{at} the end of the {period}"),
                ask.format(kind="more ", x="Lena", time=f"{at} the end of the {period}")):
        assert _kind(bad + " Choose 142, 144, or 146.") != "read", bad


def test_a_period_end_is_only_of_a_period_and_a_kind_word_is_never_a_claim() -> None:
    assert period_ended("how many items does @0 have at the end of the week".split()) == \
        "how many items does @0 have at the end".split()
    assert period_ended("how many items does @0 have at the start of the week".split()) is None
    assert period_ended("how many items does @0 have at the end of the list".split()) is None
    assert [plain_modifier(w) for w in ("gold", "final", "initial", "original", "about", "dozen", "coins")] == \
        [True, False, False, False, False, False, False]
    assert counted_as_items("How many gold coins does M have?") == "How many items does M have?"
    assert counted_as_items("How many starting coins does M have?") == "How many starting coins does M have?"
