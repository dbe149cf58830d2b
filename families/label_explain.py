"""A question split by its labels into the core it asks and each label's clause ("Answer L if C", "L means C", "L = C",
"L (C)", "'L': C", "L — C"), found by where the labels stand, never by the words around them."""
from __future__ import annotations

import re
from typing import NamedTuple, Sequence

from families.label_lists import INSTRUCTION
from families.option_lists import occurrences, runs
from families.question_forms import follow_ups

# What joins a label to its clause: a mark ("=", ":", "(", a dash, a comma) and/or a word ("if", "means", ...).
# A label followed by neither (a list "LEFT_OF, RIGHT_OF") has no clause here.
_JOIN = re.compile(r"^\s*[\"'”’]?\s*(?P<mark>[=:(—–,]|-(?=\s)|->|→)?\s*(?P<word>(?:if and only if|iff|if|when|whenever|"
                   r"means|meaning|indicates|denotes|signals|signifies|states that|says that|claims that|asserts that|states|claims|says|stands for|is for|for|to mean|is the answer if|"
                   r"is correct if|is right if|should be (?:given|chosen|used|picked) (?:if|when)|applies if|"
                   r"applies when|where|in case|otherwise|else|in any other case|in all other cases)\b)?[\s,:]*", re.IGNORECASE)
# What may close a clause before the next label: separators, "or"/"and", an opening quote or bracket
# and the noun that names the next label as an option, after a separator ("..., option f = k says ...", "and the option
# h != t means"), never a clause's own last word ("YES if it must carry that label")
_CLOSE = re.compile(r"[\s,;.)\]\"'“‘(*•-]*(?:\b(?:or|and|otherwise|else|while|whereas)\b[\s,;\"'“‘(]*)?$|"
                    r"(?:\s*[,;.]\s*(?:(?:or|and)\s+)?|\s+(?:or|and)\s+)(?:the\s+)?(?:option|answer|choice|label|statement)"
                    r"\b[\s,;:\"'“‘(]*$", re.IGNORECASE)
# The end of the core ask: the last sentence mark before the first label
_CORE_END = re.compile(r"[?.!;:](?=[\s\"'“‘]|$)")
# Words that may lead the explanation before its first label ("Answer", "The answer is", "Reply with")
_LEADS = INSTRUCTION | frozenset("is the it give reply respond say output answer should be are choices answers possible "
                                 "candidates choice statement".split())   # "The options are ...", "Choice g != d says"
# A list's bullet or letter before a label ("- L: C", "(A) L: C") on a line of its own
_BULLET = re.compile(r"(?m)^\s*(?:[-*•]|\(?[A-Ha-h1-9][.)])\s*")
_OTHERWISE = frozenset({"otherwise", "else", "in any other case", "in all other cases"})
_WORD = re.compile(r"[A-Za-z_']+")


class Explained(NamedTuple):
    """A question's core ask, and each label with the clause that explains it, in the order written."""

    core: str
    clauses: tuple[tuple[str, str], ...]


def _lead_ok(lead: str) -> bool:
    """Whether the words between the core and the first label only instruct ("Answer", "The answer is")."""
    lead = _BULLET.sub(" ", lead)
    words = [w.lower() for w in _WORD.findall(lead)]
    # an opening bracket may hold the whole explanation ("Is X a Y? (YES = ...; NO = ...; UNKNOWN = ...)")
    return not re.sub(r"[A-Za-z_'\s,:\"“”‘’]", "", lead).replace("(", "", 1) and all(w in _LEADS for w in words)


def _tail(clause: str) -> tuple[str, str]:
    """The last clause, and what follows its sentence (an instruction, or nothing)."""
    m = re.search(r"[.?!](?=\s|$)", clause)
    if m is None:
        return clause, ""
    return clause[:m.start()], clause[m.end():]


def _anchors(text: str, labels: Sequence[str]) -> list[tuple[int, int, str, re.Match[str]]] | None:
    """Each label where its clause starts: its first occurrence joined to a clause ("147 if", "YES =", "LEFT_OF ("),
    in order; None where a label has none, or is said inside another label's clause."""
    occs = occurrences(text, labels)
    anchors: list[tuple[int, int, str, re.Match[str]]] = []
    for a, b, label in occs:
        if any(label == x[2] for x in anchors):
            continue
        join = _JOIN.match(text[b:])
        if join is not None and (join.group("word") or join.group("mark") not in (None, ",")):
            anchors.append((a, b, label, join))
    if {x[2] for x in anchors} != set(labels) or len(anchors) != len(labels):
        return None
    anchors.sort()
    for a, _, label in occs:   # a label said again only in its own clause ("147 if it ends with 147 crates")
        owner = max((x for x in anchors if x[0] <= a), default=None)
        if owner is None or owner[2] != label:
            return None
    return anchors


def explained(text: str, labels: Sequence[str]) -> Explained | None:
    """The question as its core ask and its labels' clauses, where each label is joined to a clause after the core's
    last sentence, as it is answered; None where the question is not of that shape."""
    if len(labels) < 2:
        return None
    anchors = _anchors(text, labels)
    if anchors is None or any(len(run) > 1 for run in runs(text, [x[:3] for x in anchors])):
        return None   # a list of the labels, not an explanation
    before = text[:anchors[0][0]]
    ends = list(_CORE_END.finditer(before))
    if not ends:
        return None
    core, lead = before[:ends[-1].end()], before[ends[-1].end():]
    if not _lead_ok(lead) or not core.strip(" .?!;:"):
        return None
    clauses = []
    for k, (_, end, label, join) in enumerate(anchors):
        last = k + 1 == len(anchors)
        clause = text[end + join.end():anchors[k + 1][0] if not last else len(text)]
        if last:
            clause, after = _tail(clause)
            said = tuple(w.lower() for w in _WORD.findall(after))
            if said and not all(w in INSTRUCTION for w in said) and said not in follow_ups():
                return None   # an instruction, or a follow-up that asks only which ("... Which is it?"), may close it
            if said and said in follow_ups() and not all(w in INSTRUCTION for w in said):
                core = f"{core} {after.strip()}"   # the core asked in two: "Exactly one must hold. ... Which is it?"
        clause = _CLOSE.sub("", clause).strip()
        if (join.group("word") or "").lower() in _OTHERWISE:   # "UNKNOWN otherwise": in every other case
            clause = "otherwise " + clause if clause else "otherwise"
        if join.group("mark") == "(":
            clause = clause.rstrip(")").strip()
        if not clause:
            return None
        clauses.append((label, clause))
    return Explained(core, tuple(clauses))
