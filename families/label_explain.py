"""A question split by its labels into the core it asks and each label's clause ("Answer L if C", "L means C", "L = C",
"L (C)", "'L': C", "L — C"), found by where the labels stand, never by the words around them."""
from __future__ import annotations

import re
from typing import NamedTuple, Sequence

from families.label_lists import INSTRUCTION
from families.option_lists import occurrences, runs

# What joins a label to its clause: a mark ("=", ":", "(", a dash, a comma) and/or a word ("if", "means", ...).
# A label followed by neither (a list "LEFT_OF, RIGHT_OF") has no clause here.
_JOIN = re.compile(r"^\s*[\"'”’]?\s*(?P<mark>[=:(—–,]|-(?=\s)|->|→)?\s*(?P<word>(?:if and only if|iff|if|when|whenever|"
                   r"means|meaning|indicates|denotes|signals|signifies|says|stands for|is for|is the answer if|"
                   r"is correct if|is right if|should be (?:given|chosen|used|picked) (?:if|when)|applies if|"
                   r"applies when|where|in case)\b)?[\s,:]*", re.IGNORECASE)
# What may close a clause before the next label: separators, "or"/"and", an opening quote or bracket
_CLOSE = re.compile(r"[\s,;.)\]\"'“‘(]*(?:\b(?:or|and|otherwise|else|while|whereas)\b[\s,;\"'“‘(]*)?$", re.IGNORECASE)
# The end of the core ask: the last sentence mark before the first label
_CORE_END = re.compile(r"[?.!;:](?=[\s\"'“‘]|$)")
# Words that may lead the explanation before its first label ("Answer", "The answer is", "Reply with")
_LEADS = INSTRUCTION | frozenset("is the it give reply respond say output answer should be".split())
_WORD = re.compile(r"[A-Za-z_']+")


class Explained(NamedTuple):
    """A question's core ask, and each label with the clause that explains it, in the order written."""

    core: str
    clauses: tuple[tuple[str, str], ...]


def _lead_ok(lead: str) -> bool:
    """Whether the words between the core and the first label only instruct ("Answer", "The answer is")."""
    words = [w.lower() for w in _WORD.findall(lead)]
    return not re.sub(r"[A-Za-z_'\s,:\"“”‘’]", "", lead) and all(w in _LEADS for w in words)


def _tail(clause: str) -> tuple[str, str]:
    """The last clause, and what follows its sentence (an instruction, or nothing)."""
    m = re.search(r"[.?!](?=\s|$)", clause)
    if m is None:
        return clause, ""
    return clause[:m.start()], clause[m.end():]


def explained(text: str, labels: Sequence[str]) -> Explained | None:
    """The question as its core ask and its labels' clauses, where each label is written once, as it is answered,
    after the core's last sentence, each joined to a clause; None where the question is not of that shape."""
    if len(labels) < 2:
        return None
    occs = occurrences(text, labels)
    if len(occs) != len(labels) or {label for _, _, label in occs} != set(labels):
        return None
    if any(len(run) > 1 for run in runs(text, occs)):   # a list of the labels, not an explanation
        return None
    before = text[:occs[0][0]]
    ends = list(_CORE_END.finditer(before))
    if not ends:
        return None
    core, lead = before[:ends[-1].end()], before[ends[-1].end():]
    if not _lead_ok(lead) or not core.strip(" .?!;:"):
        return None
    clauses = []
    for k, (_, end, label) in enumerate(occs):
        last = k + 1 == len(occs)
        raw = text[end:occs[k + 1][0]] if not last else text[end:]
        join = _JOIN.match(raw)
        if join is None or not (join.group("mark") or join.group("word")) or join.group("mark") == ",":
            if join is None or not join.group("word"):
                return None
        clause = raw[join.end():]
        if last:
            clause, after = _tail(clause)
            if after.strip() and not all(w.lower() in INSTRUCTION for w in _WORD.findall(after)):
                return None
        clause = _CLOSE.sub("", clause).strip()
        if join.group("mark") == "(":
            clause = clause.rstrip(")").strip()
        if not clause:
            return None
        clauses.append((label, clause))
    return Explained(core, tuple(clauses))
