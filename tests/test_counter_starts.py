"""families/counter_starts.py: a start's time found by looking its words up reads as a scan of every phrase does."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from families.counter_starts import _more_untimed, _when_begun, start_time, untimed
from families.counter_words import START_TIMES


def scanned_start_time(words: list[str]) -> tuple[list[str], bool]:
    """start_time by its definition: every phrase tried at every place after the first word, the last place first."""
    for n in range(len(words) - 1, 0, -1):
        for phrase in START_TIMES:
            if tuple(words[n:n + len(phrase)]) == phrase:
                return words[:n] + words[n + len(phrase):], True
        end = _when_begun(words, n)
        if end:
            return words[:n] + words[end:], True
    return words, False


def scanned_untimed(prefix: list[str]) -> list[str] | None:
    """untimed by its definition: every phrase, in START_TIMES's order, tried at the prefix's end."""
    for t in START_TIMES:
        if len(t) <= len(prefix) and tuple(prefix[-len(t):]) == t:
            return _more_untimed(prefix[:-len(t)])
    for n in range(len(prefix) - 3):
        if _when_begun(prefix, n) == len(prefix):
            return _more_untimed(prefix[:n])
    return None


# words of the phrases, pieces of them and whole ones, and words of no phrase
_WORDS = sorted({w for phrase in START_TIMES for w in phrase}) + ["@0", "gains", "5", "items", "doors", "begins"]
words = st.lists(st.one_of(st.sampled_from(_WORDS).map(lambda w: [w]),
                           st.sampled_from(START_TIMES).map(list),
                           st.sampled_from(START_TIMES).map(lambda p: list(p[:-1]))),
                 max_size=6).map(lambda parts: [w for part in parts for w in part])


@settings(max_examples=2000, deadline=None)
@given(words)
def test_start_time_reads_as_the_scan(ws: list[str]) -> None:
    assert start_time(list(ws)) == scanned_start_time(list(ws))


@settings(max_examples=2000, deadline=None)
@given(words)
def test_untimed_reads_as_the_scan(ws: list[str]) -> None:
    assert untimed(list(ws)) == scanned_untimed(list(ws))


def test_the_longest_phrase_first() -> None:
    """"early in the morning" is read whole, not as "in the morning" with "early" left over."""
    assert untimed(["early", "in", "the", "morning"]) == scanned_untimed(["early", "in", "the", "morning"])
    assert untimed(["@0", "gains"]) is None
    assert start_time(["@0", "has", "5", "items", "at", "the", "start"]) == (["@0", "has", "5", "items"], True)
