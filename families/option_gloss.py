"""A sentence that says what the listed options are ("Each option is a possible final number of marbles in the blue
jar", "Each is a possible final crate count for the north warehouse", "Each number is a candidate for the east tank's
final amount"): read as the question it glosses ("what is the final number of marbles in the blue jar"), which must
ask the query like the question itself. Read by families/questions.py."""
from __future__ import annotations

import re

# "each [option] is a [possible] ..." and "each [number] is a candidate for ...": the head read away, its rest asked
_HEAD = re.compile(r"^(?:each|every one|every|any|all)(?: one)?(?: of (?:these|them|those|the (?:options|numbers|choices|"
                   r"answers|values)))?(?: (?:option|answer|choice|number|value|figure|listed option|listed number|"
                   r"of these))? (?:is|are|gives|names|represents|stands for) (?:a|an|one)?\s*(?:possible|candidate|"
                   r"proposed|potential|plausible)?\s*(?:candidate |value |answer )?(?:for |as |of )?")
# Words that wrap a count and name what is counted ("the final crate count", "the final visitor total"): the
# plain noun before the count is read away, as a count of the counter's things is its number of items
_COUNTS = frozenset("count total number tally".split())
_PLAIN = re.compile(r"[a-z]+")
_ENDS = frozenset("final ending closing end last resulting eventual remaining".split())


def glossed(words: list[str]) -> list[str] | None:
    """The question a gloss of the options asks, as words ("what is the final count of items in @0"), or None where
    the words are no gloss of the options."""
    line = " ".join(words)
    m = _HEAD.match(line)
    if m is None or m.end() == 0 or m.end() >= len(line):
        return None
    rest = line[m.end():].split()
    if rest[:1] != ["the"]:
        rest = ["the"] + rest
    out: list[str] = []
    for k, w in enumerate(rest):
        nxt = rest[k + 1] if k + 1 < len(rest) else ""
        if out and out[-1] in _ENDS and nxt in _COUNTS and _PLAIN.fullmatch(w):
            continue   # "final crate count" -> "final count"
        if w == "'s" and out and out[-1][:1] == "@" and _PLAIN.fullmatch(nxt) and nxt.endswith("s") and k + 2 == len(rest):
            out[-1:] = ["items", "in", out[-1]]   # "the final count of Jonah's coins": the items in Jonah
            break
        out.append(w)
    return ["what", "is"] + out
