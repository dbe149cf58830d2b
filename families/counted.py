"""Count nouns a model names ("17 canoes", "1 horse", "18 sacks of grain", "no crates") read as the phrasings' items
word; measures never do."""
from __future__ import annotations

import re
from collections.abc import Iterable

from families.wording import HEDGES, NEGATIONS, NUMBER_AFTER, NUMBER_BEFORE

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
_BETWEEN = frozenset("more additional extra new further fresh fewer less".split())
_WORD = re.compile(r"[a-z]+")


def vocabulary(phrasings: Iterable[str]) -> frozenset[str]:
    """The words a family's phrasings hold: a word among them is never a noun the model named."""
    return frozenset(w for ph in phrasings for w in _WORD.findall(ph.lower()))


# Words of the phrasings that never name a thing, whatever follows a number: particles, pronouns, determiners
_NEVER_THINGS = frozenset("a an the one up down off out away back inside aboard through toward there here it he she "
                          "they we you that these those their our which what when while now very well true same right "
                          "early late long little old already else".split())


def _noun(word: str, one: bool, known: frozenset[str]) -> bool:
    if not (word.isascii() and word.isalpha()) or word in MEASURES or word in _CLAIMS:
        return False
    if word in known and not (one and _thing_after_one(word)):
        return False
    plural = word.endswith("s") or word in _IRREGULAR
    return True if one else plural   # after 1 a plural is a slip ("1 jars"), the count the same; never a singular after 5


# Words that say something of the count itself, never what is counted: a hedge, a bound, a negation, an end or a
# whole ("2 about parcels", "5 final crates", "7 total jars" are no count of parcels, crates or jars).
_CLAIMS = HEDGES | NEGATIONS | NUMBER_BEFORE | NUMBER_AFTER | frozenset(
    "final total remaining ending ended last left initial starting only whole entire odd roughly together both each "
    "every all twice thrice once again apiece altogether combined overall exactly precisely then too also so and or "
    "but nor in at on to from by of with for as into onto".split())


def _thing_after_one(word: str) -> bool:
    """A phrasing's word that names a thing after "1" ("1 crate is delivered", "gains 1 point", "1 visitor leaves": the
    phrasings say "a crate of", "at some point", "a visitor adds"): a singular noun's place, which no particle,
    pronoun or participle takes."""
    return word not in _NEVER_THINGS and not word.endswith(("ed", "ing", "s"))


def plain_modifier(word: str) -> bool:
    """A word that may stand before a count noun and say only what kind of thing it is ("gold coins"): no measure, no
    claim of the count (a hedge, a bound, an end or a start), no plural."""
    return _modifier(word, frozenset()) and word not in _TIMED


# Words of a time that a modifier may say of the things ("the original coins", "the first crates"): never plain
_TIMED = frozenset("start starting initial original first opening beginning previous earlier prior old middle current "
                   "later latest new newest early late".split())


def _modifier(word: str, known: frozenset[str]) -> bool:
    return word.isascii() and word.isalpha() and word not in known and word not in MEASURES \
        and word not in _CLAIMS and not word.endswith("s")


# Words that say "items" themselves: after a number they read as "items" whatever the phrasings hold.
_COUNT_WORDS = {"units": "items", "unit": "item", "items": "items", "item": "item"}
# Nouns that count what a counter holds ("the number of fish in the Aquarium" is its number of items).
_TALLIES = frozenset("number count total amount".split())
# What may come before "nothing" that then counts none ("holds nothing", "starts with nothing"); never a change's
# verb ("gains nothing" is no amount).
_HOLDING = frozenset("has holds contains keeps stores with".split())
# Before a partitive's noun ("33 of the crates", "9 of its books"): the counter's own things.
_OWNERS = frozenset("the its their her his".split())   # "83 of her coins": the owner's own


def _thing(word: str, known: frozenset[str]) -> bool:
    """A word that may name what a container holds ("sacks of grain", "crates of apples"): a plain word of no
    phrasing and no measure."""
    return word.isascii() and word.isalpha() and word not in known and word not in MEASURES and word not in _CLAIMS


def _counted(words: list[str], i: int, one: bool, known: frozenset[str]) -> int | None:
    """Where the count noun after a number at `i` ends (a noun, a modifier and a noun, or a container of a
    thing: "sacks of grain"), or None where no count noun follows."""
    n = len(words)
    if i < n and words[i] in _COUNT_WORDS and (words[i] in ("unit", "item")) == one:
        return i + 1
    # after 1 a modifier's noun is singular: "1 passenger boards" is a noun and its verb, never "passenger boards"
    if i + 1 < n and _modifier(words[i], known) and _noun(words[i + 1], one, known) and not (
            one and words[i + 1].endswith("s")):
        end = i + 2
    elif i < n and _noun(words[i], one, known):
        end = i + 1
    else:
        return None
    if end < n and words[end] == "of":   # a container: of a thing it holds, never of a number or a name
        return end + 2 if end + 1 < n and _thing(words[end + 1], known) else None
    return end


def as_items(words: list[str], known: frozenset[str]) -> list[str]:
    """The words with each count noun after a number (one word, a modifier and a noun: "gold bars", or a
    container of a thing: "sacks of grain") as "items" ("item" after 1); a partitive of the counter's own
    things ("33 of the crates", "9 of its books") as the number of items, "no crates" as 0 items and "the
    number of fish" as "the number of items". A noun followed by "of" and a number or name stays."""
    out: list[str] = []
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        if w == "no" and (end := _counted(words, i + 1, False, known)) is not None:
            out += ["0", "items"]   # "starts with no crates": a count of none ("no more", a measure: stays)
            i = end + 2 * (words[end:end + 2] == ["at", "all"])
            continue
        if w in ("nothing", "none") and out and out[-1] in _HOLDING:   # "holds nothing at first": a count of none
            out += ["0", "items"]
            i += 1
            continue
        out.append(w)
        i += 1
        if w in _TALLIES and i + 1 < n and words[i] == "of":   # "the number of (gold) fish in the Aquarium"
            end = i + 2 if _noun(words[i + 1], False, known) else \
                i + 3 if i + 2 < n and _modifier(words[i + 1], known) and _noun(words[i + 2], False, known) else 0
            if end:
                out += ["of", "items"]
                i = end
                continue
        if not w.isdigit():
            continue
        one = w == "1"
        if i + 2 < n and words[i] == "of" and words[i + 1] in _OWNERS and _noun(words[i + 2], one, known):
            out.append("item" if one else "items")   # "33 of the crates": of its own, the count of items
            i += 3
            continue
        j = i + (i < n and words[i] in _BETWEEN)
        end = _counted(words, j, one, known)
        if end is None:
            continue
        out += words[i:j] + ["item" if one else "items"]
        i = end
    return out
