"""Reading a render's question back: it must ask the skeleton's query, and whatever it says each answer label
means must be what the label means.

A question is read sentence by sentence (and, inside one, up to the first "LABEL if ..."): exactly the
query, after an optional opener ("Based on the statements, ...") and before an optional third way ("..., or
can this not be determined?"), is `read`; another query (the other way round, another symbol) is
`misread`. A label explanation ("Answer LEFT_OF if Nico is to the left of Ben, ..., or UNKNOWN if the
premises do not settle it") is read clause by clause with the family's fact grammar (or the words that say
"not settled"); a clause that reads as another meaning than its label's is `misread`, one that reads as
nothing leaves the question `unread`. Bare instructions ("Answer with one of the labels.") say nothing.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping, NamedTuple, Sequence

from families.wording import NEGATIONS, QUESTION_OPENERS, QUESTION_TAILS, UNDETERMINED, normalize, say, tokens

if TYPE_CHECKING:
    from families.reading import Fact, Marked, Reader

_SENTENCES = re.compile(r"(?<=[.?!;])\s+")
_CONNECTORS = frozenset({"if", "when", "means", "meaning", "=", "should", "whenever", "for"})
_INSTRUCTION = frozenset("answer answers respond reply say write choose pick select output give return with one of "
                         "the following options option labels label exactly either or and only a single word "
                         "from these your as please otherwise".split())
_TRAILING = frozenset({"or", "and", "otherwise", "else"})


class QVerdict(NamedTuple):
    """How a question reads: `read`, `misread` (with what it asks or says instead) or `unread`."""

    kind: str
    detail: str = ""


def _table(sentences: Sequence[str]) -> tuple[frozenset[tuple[str, ...]], list[int]]:
    rows = frozenset(tuple(tokens(s)) for s in sentences)
    return rows, sorted({len(r) for r in rows}, reverse=True)


_OPENERS, _OPENER_LENGTHS = _table(QUESTION_OPENERS)
_TAILS, _TAIL_LENGTHS = _table(QUESTION_TAILS)
_UNSETTLED = frozenset(tuple(tokens(s)) for s in UNDETERMINED)


class QuestionReader:
    """One family's questions: the reader's query grammar, with openers, third ways and label explanations."""

    def __init__(self, reader: Reader):
        self.r = reader
        self._meanings: dict[tuple, object] = {}

    def read(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
             labels: tuple[str, ...]) -> QVerdict:
        """The question's verdict against the query (see the module's docstring)."""
        whole = self._asks(normalize(marked.words(text)), query, marked, types)
        if whole is not None:
            return whole
        asked, unread, cue = 0, False, None
        for sentence in _SENTENCES.split(text.strip()):
            words = normalize(marked.words(sentence))
            start = self._first_label(words, labels)
            head, tail = (words, []) if start is None else (words[:start], words[start:])
            while head and head[-1] in _INSTRUCTION:   # "..., answer" before the labels
                head = head[:-1]
            if head:
                got = self._asks(head, query, marked, types)
                if got is not None and got.kind == "misread":
                    return got
                if got is not None:
                    asked += 1
                elif not set(head) <= _INSTRUCTION | self._label_words(labels):
                    unread = True
                    cue = cue or self._cue(head, query[0])
            if tail:
                said = self._explains(tail, query, marked, types, labels)
                if said is not None and said.kind == "misread":
                    return said
                unread |= said is None
        if cue:
            return QVerdict("misread", cue)
        return QVerdict("read") if asked and not unread else QVerdict("unread")

    def _asks(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str]) -> QVerdict | None:
        """`read` where the words are the query (opener and third way aside), `misread` where another query."""
        r, other = self.r, None
        for line in _bare(words):
            parses = r._parses(r.questions, line, marked, types)
            if tuple(query[1]) in [tuple(a) for p, a in parses if p == query[0]]:
                return QVerdict("read")
            other = other or (parses[0] if parses else None)
        if other is not None:
            from families.reading import spell
            return QVerdict("misread", f"asks {spell(other)} ({r.difference(other, query)})")
        return None

    def _cue(self, words: list[str], pred: str) -> str | None:
        """A word that makes a question ask another thing: a negation (where no third way follows it: "or can
        this not be determined" negates nothing), a start in a question of the end, another question's word."""
        present = set(words)
        hit = sorted(present & NEGATIONS)
        if hit and "or" not in present:
            return f"holds a negation ({hit[0]!r})"
        for what, cue_words in self.r.wording.question_cues:
            found = sorted(present & cue_words)
            if found:
                return f"asks {what} ({found[0]!r})"
        return self.r._word_cues(words, pred)

    @staticmethod
    def _label_words(labels: Sequence[str]) -> set[str]:
        return {w for label in labels for w in tokens(label)}

    @staticmethod
    def _first_label(words: list[str], labels: Sequence[str]) -> int | None:
        """Where the first "LABEL if ..." starts, or None."""
        spelled = [tokens(label) for label in labels]
        for k in range(len(words)):
            for lw in spelled:
                n = len(lw)
                if lw and words[k:k + n] == lw and k + n < len(words) and words[k + n] in _CONNECTORS:
                    return k
        return None

    def _explains(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str],
                  labels: Sequence[str]) -> QVerdict | None:
        """Label explanations, each "LABEL if CLAUSE": `read` when every clause means its label, `misread` when
        one means another thing, None when one reads as nothing."""
        spelled = [(label, tokens(label)) for label in labels]
        starts = []
        for k in range(len(words)):
            for label, lw in spelled:
                n = len(lw)
                if lw and words[k:k + n] == lw and k + n < len(words) and words[k + n] in _CONNECTORS:
                    starts.append((k, k + n + 1, label))
        if not starts:
            return None
        for j, (_, begin, label) in enumerate(starts):
            end = starts[j + 1][0] if j + 1 < len(starts) else len(words)
            clause = words[begin:end]
            while clause and clause[-1] in _TRAILING:
                clause = clause[:-1]
            if clause[:1] == ["that"]:
                clause = clause[1:]
            got, want = self._meaning(clause, marked, types), self._label_meaning(label, query, marked, types)
            if got is None or want is None:
                return None
            if got != want:
                return QVerdict("misread", f"says {label} means {_said(got)}, where it means {_said(want)}")
        return QVerdict("read")

    def _meaning(self, clause: Sequence[str], marked: Marked, types: Mapping[str, str]) -> object:
        """What a clause says: the facts it reads as (a frozenset), "not settled", or None."""
        if tuple(clause) in _UNSETTLED:
            return "not settled"
        r = self.r
        parses = r._parses(r.facts, " " + " ".join(clause), marked, types)
        return frozenset(r.norm(p) for p in parses) or None

    def _label_meaning(self, label: str, query: Fact, marked: Marked, types: Mapping[str, str]) -> object:
        """What a label means for this query: its definition in the family's wording, read like a clause."""
        definition = self.r.wording.definitions.get(label)
        if definition is None:
            return None
        spelled = [marked.names.get(a, str(a)) if isinstance(a, str) else str(a) for a in query[1]]
        words = normalize(marked.words(say(definition, spelled, end="", capital=False)))
        return self._meaning(words, marked, types)


def _bare(words: list[str]) -> list[str]:
    """The question's line as it is, and without an opener before it and a third way after it."""
    heads = [words] + [words[n:] for n in _OPENER_LENGTHS if tuple(words[:n]) in _OPENERS]
    out = []
    for head in heads:
        out.append(" " + " ".join(head))
        out += [" " + " ".join(head[:-n]) for n in _TAIL_LENGTHS if n < len(head) and tuple(head[-n:]) in _TAILS]
    return out


def _said(meaning: object) -> str:
    if isinstance(meaning, frozenset):
        from families.reading import spell
        return " and ".join(sorted(spell(f) for f in meaning))
    return str(meaning)
