"""Count nouns a model names ("17 canoes", "1 horse") read as the phrasings' items word; measures never do."""
from __future__ import annotations

import re
from collections.abc import Iterable

# Words that make a number a measure or a multiple, not a count of things: never the items word, and a
# sentence holding one stays unread ("5 dozen eggs" is 60, "5 tons" no count at all).
MEASURES = frozenset("""
dozen dozens score gross hundred hundreds thousand thousands million millions billion billions
percent per cent pct kg kgs kilo kilos kilogram kilograms g gram grams mg lb lbs pound pounds oz ounce ounces
ton tons tonne tonnes l liter liters litre litres ml gallon gallons quart quarts pint pints cup cups
m meter meters metre metres km cm mm foot feet inch inches yard yards mile miles
second seconds minute minutes hour hours day days week weeks month months year years
time times fold pair pairs set sets pack packs batch batches bundle bundles lot lots half halves quarter quarters
more less fewer extra additional new further fresh
""".split())
# Plurals without an "s": counted things all the same.
_IRREGULAR = frozenset("people children men women mice geese sheep fish deer oxen cattle".split())
# What may stand between the number and the noun and is part of the phrasing ("5 more canoes").
_BETWEEN = frozenset("more additional extra new further fresh".split())
_WORD = re.compile(r"[a-z]+")


def vocabulary(phrasings: Iterable[str]) -> frozenset[str]:
    """The words a family's phrasings hold: a word among them is never a noun the model named."""
    return frozenset(w for ph in phrasings for w in _WORD.findall(ph.lower()))


def _noun(word: str, one: bool, known: frozenset[str]) -> bool:
    if not (word.isascii() and word.isalpha()) or word in known or word in MEASURES:
        return False
    plural = word.endswith("s") or word in _IRREGULAR
    return not plural if one else plural


def _modifier(word: str, known: frozenset[str]) -> bool:
    return word.isascii() and word.isalpha() and word not in known and word not in MEASURES and not word.endswith("s")


def as_items(words: list[str], known: frozenset[str]) -> list[str]:
    """The words with each count noun after a number (one word, or a modifier and a noun: "gold bars") as
    "items" ("item" after 1); a noun followed by "of" is a container of a nested count and stays."""
    out: list[str] = []
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        out.append(w)
        i += 1
        if not w.isdigit():
            continue
        one = w == "1"
        j = i + (i < n and words[i] in _BETWEEN)
        if j + 1 < n and _modifier(words[j], known) and _noun(words[j + 1], one, known):
            end = j + 2
        elif j < n and _noun(words[j], one, known):
            end = j + 1
        else:
            continue
        if end < n and words[end] == "of":
            continue
        out += words[i:j] + ["item" if one else "items"]
        i = end
    return out
