"""The label explanations a question may give beside its ask, each case of its own shape: bracketed glosses ("YES (a
member)"), a bracketed restatement, labels tagged after their cases, "If C, answer L", "L if C, ...": each clause must
mean its label."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping

from families.ask_forms import asked_unsettled
from families.label_clauses import affirmed, framed_away, plain, unsettled
from families.label_lists import CONNECTORS, INSTRUCTION, Spelled, asked_first, within
from families.question_asks import Asking
from families.question_words import READ, QVerdict, embedders, openers, resolved, said, tails, unsettled_words
from families.sign_gloss import sign_gloss
from families.wording import normalize

if TYPE_CHECKING:
    from families.reading import Fact, Marked

_BRACKETED = re.compile(r"\(\s*([^()]+?)\s*\)")
# A bracketed restatement of the question: "(that is, where is A compared to B)", "(i.e. ...)", "(in other words ...)"
_RESTATED = re.compile(r"\(\s*(?:that is|i\.e\.|ie|in other words|namely|put differently|said differently|or rather)"
                       r"\s*,?\s*([^()]+?)\s*\)", re.IGNORECASE)
# "If C, the answer is L", "if C, it is L": the words before the label that only say it is the answer
_ANSWER_IS = (("the", "answer", "is"), ("it", "is"), ("the", "answer", "would", "be"), ("it", "would", "be"))
# What may close a clause before the next label: a join, and the instruction said again after it ("..., and pick
# c != g if ...", "..., with RIGHT_OF if ..., or with UNKNOWN if")
_TRAILING = frozenset({"or", "and", "otherwise", "else", "pick", "choose", "select", "answer", "reply", "respond",
                       "give", "with"})


class LabelCases(Asking):
    """The label explanations of the shapes a question may give them in."""

    def _glossed(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                 labels: tuple[str, ...]) -> str | QVerdict:
        """The question without each label's bracketed gloss ("Answer YES (a member), NO (not a member), or UNKNOWN",
        "... or UNKNOWN (if it cannot be determined)"): each gloss must mean its label, said of the query's first
        symbol where it names none ("a member" as "she is a member of the Bakers"); one that means another thing is
        `misread`, one that reads as nothing makes the question `unread`."""
        if "(" not in text:
            return text
        for label in sorted(labels, key=len, reverse=True):
            for m in re.finditer(rf"(?<![\w!=<>]){re.escape(label)}(?P<q>[\"'”’]?)\s*\(\s*(?P<g>[^()]+?)\s*\)", text):
                words = normalize(marked.words(m.group("g")))
                if len(m.group("g")) < 3 or not words or any(within(words, marked.words(other)) for other in labels) \
                        or sign_gloss(words, True, frozenset(w for x in labels for w in marked.words(x))) is not None:
                    continue   # "(B)" letters the next option; a bracket of labels is a list; one of the signs
                    # glosses the signs of every label ("f != p (with = meaning ...)"), read as a sign gloss
                while words and words[0] in ("if", "when", "whenever", "meaning", "i", "e", "ie", "that", "is"):
                    words = words[1:]
                readings = [words] + resolved(words, query, marked) + resolved(["it", "is"] + words, query, marked)
                got = self._meaning(readings, marked, types)
                want = self._label_meaning(label, query, marked, types)
                if got is None or want is None:
                    return QVerdict("unread")
                if got != want:
                    return QVerdict("misread", f"says {label} means {said(got)}, where it means {said(want)}")
                text = text.replace(m.group(0), label + m.group("q"), 1)   # its quotes kept: '"a = b", ...'
        return text

    def _restated(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str]) -> str | QVerdict:
        """The question without a bracketed restatement of it ("Which relation holds between A and B (that is, where
        is A compared to B)?"), which must ask the query too: a restatement that asks another thing is `misread`,
        one that reads as nothing leaves the question as it was (and so unread)."""
        if "(" not in text:
            return text
        for m in _RESTATED.finditer(text):
            got = self._asks(normalize(marked.words(m.group(1))), query, marked, types)
            if got is not None and got.kind == "misread":
                return got
            if got is not None:
                text = text.replace(m.group(0), " ", 1)
        return text

    def _inline(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                spelled: Spelled) -> QVerdict | None:
        """A question that names each label in brackets after its case ("is Priya left of Dalia (LEFT_OF), right of
        Dalia (RIGHT_OF), or can it not be determined (UNKNOWN)?"): each case must mean its label (None: not of
        this form)."""
        labels = [label for label, _ in spelled]
        tagged = [m for m in _BRACKETED.finditer(text) if m.group(1) in labels]
        if len(tagged) < 2 or {m.group(1) for m in tagged} != set(labels) or len(tagged) != len(labels):
            return None
        if text[tagged[-1].end():].strip(" ?.!"):
            return None
        # a sentence before the cases that asks the query itself ("Let's determine the relative position of A and B.
        # Is A to the left of B (LEFT_OF), ...?"): read, and the cases after it read as they stand alone
        # (a sentence's end only: a colon opens the cases of the question before it, "Where does X stand: to his left")
        cut = max((m.end() for m in re.finditer(r"[.?!]\s+", text[:tagged[0].start()])), default=0)
        if cut:
            lead = self._asks(normalize(marked.words(text[:cut])), query, marked, types)
            if lead is not None and lead.kind == "misread":
                return lead
            if lead is not None:   # (a lead that asks nothing, "Here is the question.", is an opener or unread below)
                text, tagged = text[cut:], [m for m in _BRACKETED.finditer(text[cut:]) if m.group(1) in labels]
        subject, pos = None, 0
        for m in tagged:
            words = normalize(marked.words(text[pos:m.start()]))
            pos = m.end()
            while words and words[0] in ("or", "and", "whether", "if"):
                words = words[1:]
            if subject is None:   # "Determine whether X is to the left of Y (LEFT_OF), ...": the statement is the case
                n = next((n for n in embedders()[1] if n < len(words) and tuple(words[:n]) in embedders()[0]), 0)
                if n and len(words) > n + 1 and words[n][:1] == "@" and words[n + 1] in ("is", "are", "stands", "sits"):
                    words = words[n:]
                    subject = words[0]
            if subject is None:   # the first case is the question: "[opener] is X ...", said as "X is ..."
                at = next((i for i in range(len(words) - 1) if words[i] in ("is", "are") and words[i + 1][:1] == "@"),
                          None)
                if at is None or (at and tuple(words[:at]) not in openers()[0]):
                    asked = asked_first(text[:m.start()])   # "Where does X stand relative to Y: to her left (..."
                    if asked is None or self._asks(normalize(marked.words(asked[0])), query, marked, types) != READ:
                        return QVerdict("unread")
                    first = marked.mark(query[1][0]) if query[1] and isinstance(query[1][0], str) else None
                    if first is None:
                        return QVerdict("unread")
                    subject, words = first, [first, "is"] + normalize(marked.words(asked[1]))
                else:
                    subject, words = words[at + 1], [words[at + 1], words[at]] + words[at + 2:]
            elif tuple(["or"] + words) in tails()[0] or tuple(words) in unsettled_words() or \
                    any(unsettled(w) for w in asked_unsettled(words)):   # "or can its position ... not be determined"
                words = ["otherwise"]   # a third way: "not settled"
            elif words[:1] != [subject]:
                words = [subject, "is"] + words
            got = self._meaning(resolved(words, query, marked) if words != ["otherwise"] else [words], marked, types)
            want = self._label_meaning(m.group(1), query, marked, types)
            if got is None or want is None:
                return QVerdict("unread")
            if got != want:
                return QVerdict("misread", f"says {m.group(1)} means {said(got)}, where it means {said(want)}")
        return QVerdict("read")

    def _if_then(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str],
                 spelled: Spelled, core: frozenset[str]) -> QVerdict | None:
        """"If CLAUSE, answer LABEL": the clause must mean what the label does (None: not of this form)."""
        if words[:1] in (["and"], ["or"]):   # "...; and if they must differ, it is n != c": the last of several
            words = words[1:]
        if words[:1] != ["if"]:
            return None
        for label, lw in spelled:
            n = len(lw)
            if n and words[-n:] == lw:
                clause = words[1:-n]
                cut = next((len(a) for a in _ANSWER_IS if tuple(clause[-len(a):]) == a), 0)
                clause = clause[:len(clause) - cut]
                while clause and clause[-1] in INSTRUCTION | {"then"}:
                    clause = clause[:-1]
                clause = framed_away(clause)
                got = self._affirmed(clause, query, marked, core) or \
                    self._said(clause, query, marked, types)
                want = self._label_meaning(label, query, marked, types)
                if got is None or want is None:
                    return QVerdict("unread")
                if got != want:
                    return QVerdict("misread", f"says {label} means {said(got)}, where it means {said(want)}")
                return QVerdict("read")
        return None

    def _explains(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str],
                  spelled: Spelled, core: frozenset[str]) -> QVerdict | None:
        """Label explanations, each "LABEL if CLAUSE": `read` when every clause means its label, `misread` when
        one means another thing, None when one reads as nothing."""
        starts = []
        for k in range(len(words)):
            for label, lw in spelled:
                n = len(lw)
                if lw and words[k:k + n] == lw and k + n < len(words) and words[k + n] in CONNECTORS:
                    starts.append((k, k + n + 1, label))
        if not starts:
            return None
        for j, (_, begin, label) in enumerate(starts):
            end = starts[j + 1][0] if j + 1 < len(starts) else len(words)
            clause = words[begin:end]
            while clause and clause[-1] in _TRAILING:
                clause = clause[:-1]
            if words[begin - 1] == "otherwise":   # "UNKNOWN otherwise": in every other case
                clause = ["otherwise"]
            if clause[:1] == ["that"]:
                clause = clause[1:]
            clause = framed_away(clause)
            got = self._affirmed(clause, query, marked, core) or self._said(clause, query, marked, types)
            want = self._label_meaning(label, query, marked, types)
            if got is None or want is None:
                return None
            if got != want:
                return QVerdict("misread", f"says {label} means {said(got)}, where it means {said(want)}")
        return QVerdict("read")

    def _said(self, clause: list[str], query: Fact, marked: Marked, types: Mapping[str, str]) -> object:
        """What a label's clause says as a fact: as written, or with its modal plain ("c and g must have the same
        value" as "c and g have the same value"; polarity kept, certainty denied reads as nothing)."""
        got = self._meaning(resolved(clause, query, marked), marked, types)
        bare = plain(clause) if got is None else None
        return got if bare is None or bare == clause else self._meaning(resolved(bare, query, marked), marked, types)

    def _affirmed(self, clause: list[str], query: Fact, marked: Marked, core: frozenset[str] = frozenset()
                  ) -> frozenset[Fact] | None:
        """What a clause that speaks of the query itself says ("YES if it follows", "NO if she cannot be"): the
        query's fact, or its opposite; None where the query is no fact with an opposite, or the clause is not so."""
        r = self.r
        opposite = r.wording.opposites.get(query[0])
        if opposite is None or query[0] not in r.facts:
            return None
        first = marked.mark(query[1][0]) if query[1] and isinstance(query[1][0], str) else None
        holds = affirmed(clause, first, core)
        return None if holds is None else frozenset({r.norm(query if holds else (opposite, query[1]))})
