"""Statement labels whose clauses name their pair by a pronoun: two explained by one clause about "that pair" ("Answer t = v or c = u if that pair must be equal",
"Pick c = g or r = s if those two variables must have the same value"): said again as each label's own clause, its
pair named ("t = v if t and v must be equal, or c = u if c and u must be equal"), for the question's reader to judge
each as it judges a label's clause; one label's own clause that opens with its pair as a pronoun ("m != c states that they
are not equal") likewise. Read by families/questions.py, for labels that are statements about two symbols."""
from __future__ import annotations

import re
from typing import Sequence

# What stands for the label's two symbols in the shared clause
_PAIR = re.compile(r"\b(?:that|this|the|each|its|their) pair\b|\b(?:those|these|the|its|their) two(?: variables| letters"
                   r"| symbols| values)?\b|\b(?:both|they|them)\b", re.IGNORECASE)
_SPLIT = re.compile(r"^(?P<x>\w+)\s*(?:!=|=)\s*(?P<y>\w+)$")


def _pair(label: str) -> tuple[str, str] | None:
    """A statement label's two symbols ("t != v": t, v), or None for any other label."""
    m = _SPLIT.match(label.strip())
    return None if m is None else (m.group("x"), m.group("y"))


def _alternatives(labels: Sequence[str]) -> str:
    """The labels as one pattern's alternatives, the longest first ("t != v" before "t = v" can match inside it)."""
    return "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))


def _group(labels: Sequence[str]) -> re.Pattern[str]:
    one = _alternatives(labels)
    quote = r"[\"'“”‘’]?"
    return re.compile(rf"{quote}(?P<a>{one}){quote}\s+or\s+{quote}(?P<b>{one}){quote}\s+(?P<if>if|when|in case)\s+"
                      r"(?P<c>[^,;.?!]*)")


def each_explained(text: str, labels: Sequence[str]) -> str:
    """The text with every two labels that share one clause about their pair said as each label with its own clause;
    the text as it is where no such pair of labels is."""
    pairs = {label: _pair(label) for label in labels}
    if not labels or any(p is None for p in pairs.values()):
        return text

    def again(m: re.Match[str]) -> str:
        if m.group("a") == m.group("b") or not _PAIR.search(m.group("c")):
            return m.group(0)   # a label said twice, or a clause not about the pair: as written
        said = []
        for label in (m.group("a"), m.group("b")):
            x, y = pairs[label] or ("", "")
            said.append(f"{label} {m.group('if')} {_PAIR.sub(f'{x} and {y}', m.group('c'), count=1)}")
        return f"{said[0]}, or {said[1]}"

    text = _group(labels).sub(again, text)

    def own(m: re.Match[str]) -> str:   # "m != c states that they are not equal": "... that m and c are ..."
        x, y = pairs[m.group("a")] or ("", "")
        return f"{m.group('a')}{m.group('join')}{x} and {y}"

    return _carried(_own(labels).sub(own, text), labels, pairs)


def _carried(text: str, labels: Sequence[str], pairs: dict[str, tuple[str, str] | None]) -> str:
    """The text with "they" of a case said as the pair the case before named, where both cases answer with a label of
    that pair ("If d and j must be equal, the answer is d = j; if they must differ, it is d != j": "if d and j must
    differ"); as it is where the label after "they" names another pair (then "they" may stand for either)."""
    one = _alternatives(labels)
    case = re.compile(rf"\b[Ii]f (?P<x>\w+) and (?P<y>\w+) (?P<c>[^;.,]*), (?P<lead>[^;.]*?)(?P<a>{one})(?P<sep>\s*[;.]\s*"
                      rf"(?:and |but )?)(?P<if>[Ii]f) (?:they|both|the two) (?P<d>[^;.,]*), (?P<lead2>[^;.]*?)(?P<b>{one})")

    def again(m: re.Match[str]) -> str:
        pair = {m.group("x"), m.group("y")}
        if not (pairs[m.group("a")] and set(pairs[m.group("a")] or ()) == pair == set(pairs[m.group("b")] or ())):
            return m.group(0)
        cut = m.end("if") - m.start()
        said = m.group(0)
        return said[:cut] + re.sub(r"^ (?:they|both|the two)", f" {m.group('x')} and {m.group('y')}", said[cut:])
    return case.sub(again, text)


def _own(labels: Sequence[str]) -> re.Pattern[str]:
    """A label joined to its own clause, which opens with its pair said as a pronoun ("L states that they ...")."""
    one = _alternatives(labels)
    return re.compile(rf"(?P<a>{one})(?P<join>[\"'”’]?\s+(?:states|says|claims|asserts|means)(?: that)?\s+|"
                      rf"[\"'”’]?\s+(?:if|when)\s+)(?:{_PAIR.pattern})", re.IGNORECASE)
