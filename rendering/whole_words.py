"""Whole words of a text, as the check finds names, labels and numbers in it: ignoring case and punctuation,
`Ann` and `Anna` distinct, `Lake` inside `Lake Road`."""
from __future__ import annotations

import re
from functools import lru_cache

# A word, or an English clitic after an apostrophe as a word of its own with its apostrophe ("Let's", "it's", "don't",
# "Mira's purse"): never the name of a variable s or t
_WORD = re.compile(r"(?<=\w)['’](?:s|t|re|ll|d|ve|m)\b|\w+")


@lru_cache(maxsize=1 << 14)   # names, labels and intros repeat from render to render
def words(text: str) -> tuple[str, ...]:
    """The words of a text, lower-cased: names are found as whole words, ignoring case, punctuation and clitics."""
    return tuple(w.replace("’", "'") for w in _WORD.findall(text.lower()))


def mentions(name: str, text: str) -> bool:
    """Whether `name` occurs in `text` as a whole word (or words in a row), ignoring case."""
    return contains(words(text), words(name))


def contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    """Whether `needle`'s words occur in `haystack`'s, in a row."""
    n = len(needle)
    return n > 0 and any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


class Finder:
    """Which of the render's names a text mentions: each text's word n-grams against the names' words,
    one set lookup per name (a regex per name and text cost a millisecond per render)."""

    def __init__(self, name_words: dict[str, tuple[str, ...]]):
        self.names = {s: w for s, w in name_words.items() if w}
        self.lengths = sorted({len(w) for w in self.names.values()})

    def found(self, text: str) -> set[str]:
        ws = words(text)
        grams = {ws[i:i + n] for n in self.lengths for i in range(len(ws) - n + 1)}
        return {s for s, w in self.names.items() if w in grams}
