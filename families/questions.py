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
from typing import TYPE_CHECKING, Mapping

from families.ask_forms import scene_opened
from families.label_brackets import bracketed
from families.label_explain import explained
from families.label_lists import (
    INSTRUCTION,
    first_label,
    labels_named,
    listed,
    unlisted,
    within,
)
from families.label_pairs import each_explained
from families.option_gloss import glossed
from families.option_lists import counted_as_items, listed_before_explained, option_list, repeated
from families.option_respective import respective
from families.question_explained import Explaining
from families.question_forms import follow_ups
from families.question_words import READ, QVerdict, colons_as_means, core_words, lowered, openers
from families.sign_gloss import SIGNS, sign_gloss
from families.wording import WORD_NAMES, normalize

if TYPE_CHECKING:
    from families.reading import Fact, Marked

__all__ = ["QVerdict", "QuestionReader"]

_BRACKETED = re.compile(r"\(\s*([^()]+?)\s*\)")

# "A. a != c  B. d = c", "(A) a != c", "A: a != c": the letters of a list
_LETTERED = re.compile(r"(?:(?<=\s)|^)(?:\([A-H]\)|[A-H][.):])(?=\s)|(?m:^\s*(?:[1-9][.)]|[-*•])(?=\s))")
# (a list's numbers and bullets only at a line's start: "Options: 10, 11 or 9." keeps its 9)
_SPLIT = re.compile(r"(?<=[.?!;:])(?<!\bvs\.)(?<!\bv\.)(?<!\bi\.e\.)(?<!\be\.g\.)\s+|(?<=[.?!;:]\))\s+|\s+[—–-]\s+|"
                    r"\s*[—–]\s*")   # "A vs. B" is one sentence


class QuestionReader(Explaining):
    """One family's questions: the reader's query grammar, with openers, third ways and label explanations."""

    def read(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
             labels: tuple[str, ...]) -> QVerdict:
        """The question's verdict against the query (see the module's docstring), and where it reads as nothing,
        again with each name that is also a word of the clause and no symbol of the query read as that word
        ("Which statement is a valid consequence?" with a variable named a)."""
        if "[" in text and not any("[" in label for label in labels):   # "f != k [f is not equal to k]": a bracket
            text = text.replace("[", "(").replace("]", ")")
        verdict = self._read_listed(text, query, marked, types, labels)
        if verdict.kind != "unread":
            return verdict
        ask = scene_opened(text, marked)   # "Along this lane, is A to the left ...": the scene read away
        if ask is not None and (again := self._read_listed(ask, query, marked, types, labels)).kind != "unread":
            return again
        asked = {a for a in query[1] if isinstance(a, str)}
        kept = {s: n for s, n in marked.names.items() if s in asked or n.lower() not in WORD_NAMES}
        if len(kept) == len(marked.names):
            return verdict
        return self._read_listed(text, query, marked.narrowed(kept), types, labels)

    def _read_listed(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                     labels: tuple[str, ...]) -> QVerdict:
        """The question's verdict against the query; a list of every option, each once, is read away first and
        the rest must ask the query."""
        twice = repeated(text, labels)
        if twice is not None:
            return QVerdict("misread", f"repeats the answer {twice!r}")
        if any(lowered(label, text) for label in labels) and \
                explained(text.lower(), tuple(label.lower() for label in labels)) is not None:
            return QVerdict("unread")   # "Answer yes if ..., no if ...": the labels not as they are answered
        text = listed_before_explained(text, labels) or text   # "Answer 46, 48 or 50: 46 means ..., 48 means ..."
        text = colons_as_means(text, labels)   # "- YES: Kiri must be ...": its list's marks read away
        said = self._explained(text, query, marked, types, labels,   # "Is X ...? Answer YES if C, NO if C, ..."
                               lambda core: self._read(core, query, marked, types, labels))
        if said is not None:
            return said
        text = respective(text, labels) or text   # "..., meaning X ends with 104, 106 or 108 pebbles respectively"
        glossed = self._glossed(text, query, marked, types, labels)
        if isinstance(glossed, QVerdict):
            return glossed
        text = glossed
        options = option_list(text, labels)
        if options is None and any(lowered(label, text) for label in labels) and \
                option_list(text.lower(), tuple(label.lower() for label in labels)) is not None:
            return QVerdict("unread")   # "Respond with yes, no, unknown": the labels not as they are answered
        if options is not None:
            rest = f"{options.before} {options.after}".strip() if options.after.strip(" .?!") else \
                options.before + (options.after.strip() or "")
            verdict = self._read(counted_as_items(rest), query, marked, types, labels)
            if verdict.kind == "read" or self._read(text, query, marked, types, labels).kind != "read":
                return verdict
            return READ
        verdict = self._read(text, query, marked, types, labels)
        if verdict.kind != "unread" or not self.r.counts or counted_as_items(text) == text:
            return verdict
        return self._read(counted_as_items(text), query, marked, types, labels)   # "how many canoes are in X"

    def _prepared(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
                  labels: tuple[str, ...]) -> QVerdict | tuple[str, list[tuple[str, list[str]]]]:
        """The question ready to be read sentence by sentence, with each label's words; or the verdict it already
        has, read whole or with its labels inline."""
        text = each_explained(text, labels)   # "t = v or c = u if that pair must be equal": each with its own clause
        text = bracketed(text, labels) or text   # "LEFT_OF (X is to the left of Y), ...": each label's "if" clause
        spelled = [(label, marked.words(label)) for label in labels]
        if "(" in text:   # a bracketed list of every label ("Is Ann a Baker (YES/NO/UNKNOWN)?") says nothing more
            text = _BRACKETED.sub(lambda m: " " if listed(normalize(marked.words(m.group(1))), spelled) == "" and
                                  any(within(marked.words(m.group(1)), lw) for _, lw in spelled) else m.group(0), text)
        restated = self._restated(text, query, marked, types)
        if isinstance(restated, QVerdict):
            return restated
        whole = self._asks(normalize(marked.words(restated)), query, marked, types)
        if whole is not None:
            return whole
        inline = self._inline(restated, query, marked, types, spelled)
        return inline if inline is not None else (restated, spelled)

    def _read(self, text: str, query: Fact, marked: Marked, types: Mapping[str, str],
              labels: tuple[str, ...]) -> QVerdict:
        ready = self._prepared(text, query, marked, types, labels)
        if isinstance(ready, QVerdict):
            return ready
        text, spelled = ready
        core = core_words(text, [lw for _, lw in spelled], marked)
        asked, unread, cue = 0, False, None
        explained: set[str] = set()   # labels whose meaning a sentence said (a later list may leave them out)
        signed = any(w in SIGNS for _, lw in spelled for w in lw)
        owners = {w for w in normalize(marked.words(text)) if w[:1] == "@"}
        owner = next(iter(owners)) if len(owners) == 1 else None   # the one counter a gloss without a name is of
        for sentence in _SPLIT.split(_LETTERED.sub(" ", text.strip())):
            words = unlisted(sentence, marked, spelled)
            if not words or tuple(words) in openers()[0]:   # "Here's the puzzle:" alone opens and says nothing
                continue
            signs = sign_gloss(words, signed, frozenset(w for _, lw in spelled for w in lw))
            if signs is not None:   # "Here = means equal and != means not equal": what the labels' signs mean
                if signs[0] == "misread":
                    return QVerdict("misread", "says a label's sign means the other sign's meaning")
                unread |= signs[0] == "unread"
                words = words[:signs[1]]   # "Answer with the one that follows, where = means ...": the rest as alone
                if not words:
                    continue
            gloss = glossed(words, spelled, owner) if self.r.counts else None
            if gloss is not None:   # "Each option is a possible final number of marbles in the blue jar"
                got = self._asks(self.r.counted(gloss), query, marked, types)
                if got is not None and got.kind == "misread":
                    return got
                unread |= got is None
                continue
            which = _which_as_what(words, spelled) if self.r.counts else None
            if which is not None and (got := self._asks(self.r.counted(which), query, marked, types)) is not None:
                if got.kind == "misread":   # "Which of 149, 151 or 153 is the final number of beads in X?"
                    return got
                asked += 1
                continue
            start = first_label(words, spelled)
            as_list = listed(words, spelled, explained) if start is None else None
            if as_list is not None:
                if as_list:
                    return QVerdict("misread", as_list)
                continue
            said = self._if_then(words, query, marked, types, spelled, core)
            if said is not None:
                if said.kind == "misread":
                    return said
                unread |= said.kind != "read"
                explained |= {label for label, lw in spelled if said.kind == "read" and within(words, lw)}
                continue
            head, tail = (words, []) if start is None else (words[:start], words[start:])
            head = [] if tuple(head) in follow_ups() else head   # "Which is it?" after the query: nothing more
            whole_head = head
            while head and head[-1] in INSTRUCTION:   # "..., answer" before the labels
                head = head[:-1]
            if head and listed(head, spelled) != "" and not set(head) <= INSTRUCTION | {w for _, lw in spelled
                                                                                         for w in lw}:
                # the head as said first ("... end up with?" ends in a word an instruction holds too)
                got = self._asks(whole_head, query, marked, types) if whole_head != head else None
                got = got or self._asks(head, query, marked, types)
                named = labels_named(head, spelled)   # "Which of LEFT_OF, RIGHT_OF or UNKNOWN describes ..."
                got = got or (self._asks(named, query, marked, types) if named is not None else None)
                if got is not None and got.kind == "misread":
                    return got
                if got is not None:
                    asked += 1
                else:
                    unread = True
                    if not any(within(head, lw) for _, lw in spelled):   # a sentence that holds a label says
                        cue = cue or self._cue(head, query[0])   # what labels mean: its "not" is of a label, unread
            if tail:
                said = self._explains(tail, query, marked, types, spelled, core)
                if said is not None and said.kind == "misread":
                    return said
                unread |= said is None
                explained |= {label for label, lw in spelled if said is not None and within(tail, lw)}
        if cue:
            return QVerdict("misread", cue)
        return QVerdict("read") if asked and not unread else QVerdict("unread")


def _which_as_what(words: list[str], spelled: list[tuple[str, list[str]]]) -> list[str] | None:
    """A count's ask by which option it is ("which of 149, 151 or 153 is the final number of beads in @1", "which is
    the final count of @0") as "what is ..."; None where the words are no such ask."""
    named = labels_named(words, spelled) or words
    for lead in (["which", "of", "the", "labels"], ["which", "1", "of", "the", "labels"], ["which"]):
        if named[:len(lead)] == lead and named[len(lead):len(lead) + 1] in (["is"], ["equals"], ["gives"]):
            rest = named[len(lead) + 1:]
            return ["what", "is", *rest] if rest and (rest[0] == "the" or rest[0][:1] == "@") else None
    return None
