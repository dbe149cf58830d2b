"""A phrasing's reading with its openers ("First, note that ...") read apart from it, not compiled into it.

`reader_regex` compiles up to two openers into every phrasing's regex: the same alternation of hundreds of openers
again in each of a family's hundreds of phrasings, three quarters of the time a reader takes to build (about 1.5 s
of a process's 1.9 s for the four families, in every skeleton helper of a run before its first item). Here each set
of openers is kept once, as word tuples, and a phrasing is its regex without them (`reader_body`).

The reading is the compiled regex's, match for match: `(?: (?:A|B|...)){0,2}` is greedy and its alternatives are
literal words, so the engine tries where the phrasing may begin in one fixed order (after a first opener, in the
alternation's order, and for each a second one, in order, then none more; at the start last) and keeps the first
place where the phrasing's own regex matches the rest whole. `Opened.fullmatch` tries the same places in the same
order (tests/test_opened.py holds it to the compiled regex on random lines)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol, Sequence

from families.wording import reader_body, reader_regex, tokens


class Reading(Protocol):
    """What a reader asks of a phrasing's reading: a compiled regex, or an `Opened` one."""

    def fullmatch(self, line: str) -> re.Match[str] | None: ...


class Openers:
    """One set of openers, as word tuples by their first word (each word's in the alternation's order), and where
    the last line read may have its phrasing begin (a reader tries every phrasing of a predicate on one line)."""

    def __init__(self, openers: tuple[str, ...]):
        self.by_first: dict[str, list[tuple[str, ...]]] = {}
        for opener in openers:
            words = tuple(tokens(opener))
            self.by_first.setdefault(words[0], []).append(words)
        # the last line and its places, one tuple: readers shared by threads each see a line with its own places
        self._last: tuple[str | None, tuple[int, ...]] = (None, (0,))

    def places(self, line: str) -> tuple[int, ...]:
        """Where a phrasing may begin in `line` (" " and its words), in the order the compiled regex tries them."""
        last = self._last
        if last[0] == line:
            return last[1]
        places = self._reckon(line)
        self._last = (line, places)
        return places

    def _reckon(self, line: str) -> tuple[int, ...]:
        cut = line.find(" ", 1)
        if not line.startswith(" ") or (line[1:] if cut < 0 else line[1:cut]) not in self.by_first:
            return (0,)   # the common case: the line's first word begins no opener
        words = line[1:].split(" ")
        out: list[int] = []
        for k, at in self._after(words, 0, 0):   # a first opener, then each second one after it, then none more
            out += [after for _, after in self._after(words, k, at)]
            out.append(at)
        out.append(0)   # no opener at all: tried last
        return tuple(out)

    def _after(self, words: list[str], k: int, at: int) -> list[tuple[int, int]]:
        """Each opener the words begin with at word k (character `at` of the line), in the alternation's order:
        the word and the character after it."""
        if k >= len(words):
            return []
        return [(k + len(o), at + len(o) + sum(map(len, o)))
                for o in self.by_first.get(words[k], ()) if tuple(words[k:k + len(o)]) == o]


class Opened:
    """A phrasing's regex without its openers, and the openers that may come before it."""

    def __init__(self, openers: Openers, body: re.Pattern[str]):
        self.openers, self.body = openers, body

    def fullmatch(self, line: str) -> re.Match[str] | None:
        """The match the compiled regex (openers and phrasing) gives `line`; its groups are the phrasing's."""
        for at in self.openers.places(line):
            m = self.body.fullmatch(line, at)
            if m is not None:
                return m
        return None


def reader_pattern(phrasing: str, kinds: Sequence[str], openers: Sequence[str] = ()) -> Reading:
    """`reader_regex(phrasing, kinds, openers)`'s reading, its openers read apart where they can be (each opener a
    word or more; else the compiled regex itself)."""
    if not openers:   # the phrasing's regex itself: one compiled pattern for both forms
        return _body(phrasing, tuple(kinds))
    kept = _openers(tuple(openers))
    if kept is None:   # an opener of no word: the regex compiled with them
        return reader_regex(phrasing, kinds, openers)
    return Opened(kept, _body(phrasing, tuple(kinds)))


@lru_cache(maxsize=64)
def _openers(openers: tuple[str, ...]) -> Openers | None:
    """The openers kept once per set (a family's predicates share them), or None where one has no word."""
    return Openers(openers) if all(tokens(o) for o in openers) else None


@lru_cache(maxsize=4096)
def _body(phrasing: str, kinds: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(reader_body(phrasing, kinds))
