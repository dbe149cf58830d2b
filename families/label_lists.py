"""The answer labels in a question's words: a list of them ("Options: LEFT_OF, RIGHT_OF, UNKNOWN", "(YES / NO /
UNKNOWN)"), where a label's explanation starts ("YES if ..."), a list that opens a sentence before a comma, a list
of every label said as "the labels", and a question split from its first case. Read by families/questions.py."""
from __future__ import annotations

from typing import TYPE_CHECKING

from families.wording import normalize

if TYPE_CHECKING:
    from families.reading import Marked

Spelled = list[tuple[str, list[str]]]   # each answer label, and its words as marked
CONNECTORS = frozenset({"if", "when", "means", "meaning", "=", "should", "whenever", "for", "otherwise", "says",
                        "denotes", "indicates"})
INSTRUCTION = frozenset("answer answers respond reply say write choose pick select output give return with one 1 of "
                         "question query "
                         "the following options option labels label exactly either or and only a single word "
                         "from these your as please otherwise here".split())   # ("Here k = c means k equals c")
# Words a list of the answers may hold besides the labels ("Possible answers: 10, 12 or 11", "(YES / NO /
# UNKNOWN)", "Use the labels ..."): read only in a list, where they say nothing of the question.
_LIST_WORDS = frozenset("/ possible are use using respectively these labels valid allowed choices choice "
                        "following answers response responses just word words must be should either final your "
                        "available can permitted acceptable accepted admissible legal candidates candidate".split())
_LEADS = frozenset("answer respond reply say write choose pick select output give return options option choices "
                   "choice labels label use possible valid allowed your permitted acceptable accepted admissible".split())


_OPENS_LIST = _LEADS | {"using", "with"}


def first_label(words: list[str], spelled: Spelled) -> int | None:
    """Where the first "LABEL if ..." starts, or None."""
    for k in range(len(words)):
        for _, lw in spelled:
            n = len(lw)
            if lw and words[k:k + n] == lw and k + n < len(words) and words[k + n] in CONNECTORS:
                return k
    return None


def listed(words: list[str], spelled: Spelled, explained: set[str] | frozenset[str] = frozenset()) -> str | None:
    """A list of the answers ("Answer LEFT_OF, RIGHT_OF, or UNKNOWN.", "Options: 41, 42, 43."): "" where it
    lists every label and nothing else, what is wrong where it lists others or leaves one out (a list that
    an instruction opens), None where the words are no list."""
    led = words[0] in _LEADS
    rest: list[str] = []
    extra: list[str] = []
    found, k = set(), 0
    while k < len(words):
        for label, lw in spelled:
            if lw and words[k:k + len(lw)] == lw:
                found.add(label)
                k += len(lw)
                break
        else:
            if words[k] not in INSTRUCTION:
                (extra if words[k] in _LIST_WORDS else rest).append(words[k])
            k += 1
    if not found and not led:   # a list's own words only beside a label or after a lead ("Possible answers:")
        rest += extra
    if not found and not rest:
        return ""   # instructions alone ("Options:")
    if not found and not led:
        return None
    if rest:
        # a list with other words: an instruction's list, or one of only the labels' words ("g = h" for "g != h")
        other = led or set(rest) <= {w for _, lw in spelled for w in lw}
        return f"offers answers other than the labels ({' '.join(rest[:3])!r})" if other and found else None
    missing = [label for label, _ in spelled if label not in found and label not in explained]
    if missing:   # a list an instruction opens, of several labels, or of nothing but the labels' words
        only = set(words) <= {w for _, lw in spelled for w in lw} | INSTRUCTION
        return f"leaves out the answer {missing[0]!r}" if led or len(found) > 1 or only else None
    return ""


def asked_first(text: str) -> tuple[str, str] | None:
    """A question and its first case, split at the colon (or last comma) between them ("Where does Jonas stand
    relative to Mira: to her left"), or None."""
    for mark in (":", ",", "—", " - "):
        if mark in text:
            head, _, case = text.rpartition(mark)
            return head, case
    return None


def within(words: list[str], lw: list[str]) -> bool:
    n = len(lw)
    return bool(n) and any(words[k:k + n] == lw for k in range(len(words) - n + 1))


def unlisted(sentence: str, marked: Marked, spelled: Spelled) -> list[str]:
    """A sentence's words without a list of the labels that opens it before a comma ("Using the labels LEFT_OF,
    RIGHT_OF and UNKNOWN, state where ..."): the list says nothing of the question."""
    words = normalize(marked.words(sentence))
    if "," not in sentence or not spelled or not words or words[0] not in _OPENS_LIST:
        return words
    chunks = sentence.split(",")
    for k in range(len(chunks) - 1, 0, -1):
        head = normalize(marked.words(",".join(chunks[:k])))
        if head and listed(head, spelled) == "":   # a chunk of marks only ("10,") is no list
            return normalize(marked.words(",".join(chunks[k:])))
    return words


def labels_named(words: list[str], spelled: Spelled) -> list[str] | None:
    """The words with a list of every label in them said as "the labels" ("which of LEFT_OF, RIGHT_OF or UNKNOWN
    describes ..." as "which of the labels describes ..."); None where they hold no such list."""
    k = 0
    while k < len(words):
        j, found = k, set()
        while j < len(words):
            hit = next((label for label, lw in spelled if lw and words[j:j + len(lw)] == lw), None)
            if hit is not None:
                found.add(hit)
                j += len(spelled[[label for label, _ in spelled].index(hit)][1])
            elif words[j] in ("or", "and", "/") and found:
                j += 1
            else:
                break
        if spelled and len(found) == len(spelled):
            return words[:k] + ["the", "labels"] + words[j:]
        k = max(j, k + 1)
    return None
