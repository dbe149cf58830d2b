"""The answer options a question lists, found by the options themselves: every option's occurrence with only
separators between them ("A, B, or C", "(A) x (B) y", "x / y | z", "[x, y]", "1) x 2) y") is the list when
each option is there exactly once; the list and the instruction that opens it ("Options:", "Answer with exactly
one of:") are read away, and the rest of the question must say the query. Read by families/questions.py."""
from __future__ import annotations

import re
from typing import NamedTuple, Sequence

from families.counted import MEASURES, plain_modifier
from families.label_lists import INSTRUCTION

# What may stand between two options of a list: spaces, a comma or semicolon, "or", one slash, pipe or bullet,
# and the letter or number of a lettered list ("(A)", "B.", "c)", "2:"); never two marks ("|/" is no list).
_MARK = r"(?:\([A-Ha-h1-9]\)|\b[A-Ha-h1-9][.):])(?=\s)"
_SEP = re.compile(rf"\s*(?:[,;]\s*)?(?:(?:or|and|OR)\s+)?(?:{_MARK}\s*)?|\s*[/|•·]\s*(?:{_MARK}\s*)?")
_LEAD_MARK = re.compile(rf"(?:{_MARK}|[•∈])\s*$")
_LEAD_WORD = re.compile(r"([A-Za-z]+|[:∈\[{(])\s*$")
# Words of the instruction that opens a list ("Possible answers:", "The allowed answers are", "Choose from")
_LEADS = INSTRUCTION | frozenset("possible are is use using these labels valid allowed choices choice following "
                                 "answers response must be can from among permitted permissible acceptable accepted "
                                 "admissible legal candidates candidate".split())


# "how many jars are in ...", "how many sacks of grain are in ..." (a verb of being somewhere: "how many books sit on
# the shelf"): the counted noun is the skeleton's "items", whatever
# a model calls the things counted (a lowercase word only, so a name is never taken for it; never a measure: "how many
# kg of flour" counts no items)
_COUNTED = re.compile(r"\b([Hh]ow many|number of|count of)\s+((?:[a-z]+\s+)??)"
                      r"(?!items\b|things\b|units\b|aboard\b|inside\b|within\b|on\b|onboard\b)([a-z]+)"   # a place: no noun
                      r"((?:\s+of\s+[a-z]+)?)\b"
                      r"(?=\s+(?:are|is|does|do|will|remain|end|in|at|the|has|have|left|sit|sits|stand|stands|lie|lies|rest|rests|"
                      r"aboard|inside|within|on|onboard|"
                      r"stay|stays|wait|waits|"
                      # and each in the past, as a story told in the past asks it ("how many tokens were in ...")
                      r"were|was|did|remained|ended|had|sat|stood|lay|rested|stayed|waited)\b)")


def _as_items(m: re.Match[str]) -> str:
    kind, noun, thing = m.group(2).strip(), m.group(3), m.group(4).split()[-1:]
    if noun in MEASURES or (thing and (thing[0] in MEASURES or not noun.endswith("s"))):
        return m.group(0)
    if kind and (not plain_modifier(kind) or thing):   # "how many gold coins": one plain word of their kind only
        return m.group(0)
    return f"{m.group(1)} items"


def counted_as_items(text: str) -> str:
    """The question with the noun it counts said as "items"."""
    return _COUNTED.sub(_as_items, text)


# A plural count noun that closes a list of numbers and the sentence ("... or 197 zells?")
_NOUN_AFTER = re.compile(r"([a-z]+s)(?=[\s?.!]*$)")


# After a list, the list naming itself ("... are the options", "... are the possible answers"): read away with it
_LIST_NAMED = re.compile(r"^(?:are|were|being)\s+(?:the\s+)?(?:only\s+)?(?:possible\s+|available\s+|allowed\s+|valid\s+|"
                         r"candidate\s+)?(?:options|choices|answers|answer options|answer choices|candidates|values|"
                         r"labels)\b", re.IGNORECASE)


class Options(NamedTuple):
    """A question with its option list read away: the words before and after it."""

    before: str
    after: str


_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "«": "»"}


def occurrences(text: str, labels: Sequence[str]) -> list[tuple[int, int, str]]:
    """Each option's occurrences as a whole (not "2" in "12", not "a = n" in "aa = n"), in order."""
    found = []
    for label in labels:
        pattern = rf"(?<![\w!=<>]){re.escape(label)}(?![\w=])"
        for m in re.finditer(pattern, text):   # a quoted option ("a = e", 'b = d') is the option, quotes and all
            a, b = m.start(), m.end()
            quoted = 0 < a and b < len(text) and _QUOTES.get(text[a - 1]) == text[b]
            found.append((a - quoted, b + quoted, label))
    found.sort()
    kept: list[tuple[int, int, str]] = []
    for occ in found:   # the longer of two overlapping options
        if kept and occ[0] < kept[-1][1]:
            if occ[1] - occ[0] > kept[-1][1] - kept[-1][0]:
                kept[-1] = occ
            continue
        kept.append(occ)
    return kept


def runs(text: str, occs: list[tuple[int, int, str]]) -> list[list[tuple[int, int, str]]]:
    """The occurrences grouped into runs with only separators between them."""
    runs: list[list[tuple[int, int, str]]] = []
    for occ in occs:
        if runs and _SEP.fullmatch(text[runs[-1][-1][1]:occ[0]]):
            runs[-1].append(occ)
        else:
            runs.append([occ])
    return runs


def _lead_removed(before: str) -> str:
    """The words before a list without the instruction that opens it."""
    before = _LEAD_MARK.sub("", before)
    while True:
        m = _LEAD_WORD.search(before)
        if m is None or m.group(1).lower() not in _LEADS | {":", "∈", "[", "{", "("}:
            return before
        before = before[:m.start()]


def listed_before_explained(text: str, labels: Sequence[str]) -> str | None:
    """The question without a list of every option that closes a sentence where each option is explained after it
    ("Answer 46, 48 or 50: 46 means the green cart ends with 46 books, 48 means ..."): the list says only which options
    there are, and each explanation is read as it is read without the list; None where there is no such list."""
    occs = occurrences(text, labels)
    for run in runs(text, occs):
        if len(run) != len(labels) or {label for _, _, label in run} != set(labels):
            continue
        closed = re.match(r"\s*[.:;]\s+", text[run[-1][1]:])
        later = {label for a, _, label in occs if a >= run[-1][1]}
        if closed is None or later != set(labels):
            return None
        return (_lead_removed(text[:run[0][0]]).rstrip() + " " + text[run[-1][1] + closed.end():]).strip()
    return None


def repeated(text: str, labels: Sequence[str]) -> str | None:
    """An option a list says twice ("LEFT_OF, LEFT_OF, RIGHT_OF"), or None: a list is of each option once."""
    for run in runs(text, occurrences(text, labels)):
        said = [label for _, _, label in run]
        twice = next((label for k, label in enumerate(said) if label in said[:k]), None)
        if twice is not None:
            return twice
    return None


def option_list(text: str, labels: Sequence[str]) -> Options | None:
    """The question around its list of every option, each exactly once and nothing else, or None where there
    is no such list, or where an option is said again outside it (a hint, an answer given away)."""
    if len(labels) < 2 or len(set(labels)) != len(labels):
        return None
    occs = occurrences(text, labels)
    whole = [run for run in runs(text, occs)
             if len(run) == len(labels) and {label for _, _, label in run} == set(labels)]
    if len(whole) != 1 or len(occs) != len(labels):
        return None
    run = whole[0]
    after = text[run[-1][1]:]
    after = re.sub(r"^[\s)\]}]*", "", after)
    after = _LIST_NAMED.sub("", after)   # "54, 56 and 58 are the options; ...": the list says what it is
    if all(label.isdigit() for label in labels):   # "193, 195, or 197 zells?": the list's count noun, never a measure
        noun = _NOUN_AFTER.match(after)
        if noun is not None and noun.group(1) not in MEASURES:
            after = after[noun.end(1):]
    before, after = _gloss_first(text[:run[0][0]], after)
    return Options(_lead_removed(before).rstrip(), after)


# A gloss said before the list, as what to answer with ("Answer with Lena's final score: 252, 254, or 256"): read as
# the gloss after it ("Answer 252, 254, or 256, each being Lena's final score"), which must ask the query
_GLOSS_FIRST = re.compile(r"\b([Aa]nswer|[Rr]espond|[Rr]eply)\s+(?:with|as|by giving|by stating)\s+((?:the|[A-Z][\w-]*(?:'s|’s|s'|s’))"
                          r"\s[^.?!:;]+?)\s*:\s*$")


def _gloss_first(before: str, after: str) -> tuple[str, str]:
    """The words before the list and after it, a gloss before the list moved after it."""
    m = _GLOSS_FIRST.search(before)
    if m is None:
        return before, after
    return before[:m.start()] + m.group(1), f", each being {m.group(2)}{after if after[:1] in '.?!' else ' ' + after}"
