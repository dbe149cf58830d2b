"""A question's words asked against the query by the family's grammar, and what a label or a clause means: the part
of the question reader every other part stands on."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from families.ask_counts import gauge_read, holder_away, ordered_away, period_ended
from families.ask_forms import (
    agent_as_verb,
    certainty_plain,
    changes_nothing,
    coordinated,
    possessive_of,
    so_as_true,
    sourced_away,
    statement,
    timed_away,
)
from families.question_forms import symbols_marked
from families.question_words import READ, QVerdict, bare, commanded, embedders, openers, pronouns_named, unsettled_words
from families.wording import NEGATIONS, normalize, say

if TYPE_CHECKING:
    from families.reading import Fact, Marked, Reader


class Asking:
    """One family's reader, asked whether words are its query, and what a label's clause means."""

    def __init__(self, reader: Reader):
        self.r = reader

    def _asks(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str]) -> QVerdict | None:
        """`read` where the words are the query (opener and third way aside), `misread` where another query; a query
        that is no fact (a relation, an entailment) asked again in the free forms the family reads its facts in ("How
        is the Cactus float placed relative to the Unicorn float?")."""
        got = self._asks_once(words, query, marked, types)
        r = self.r
        if got is not None or r.wording.rewrite is None or query[0] in r.facts:
            return got
        tried = [words]
        for pred in r.facts:
            again = r.wording.rewrite(pred, words)
            if not changes_nothing(words, again):   # "At the start, is A ...": a premise's scene, a question's time
                continue
            if again not in tried:
                tried.append(again)
                got = self._asks_once(again, query, marked, types)
                if got is not None:
                    return got
        return None

    def _asks_once(self, words: list[str], query: Fact, marked: Marked, types: Mapping[str, str]) -> QVerdict | None:
        r, other = self.r, None
        if r.wording.rewrite is not None:
            words = r.wording.rewrite(query[0], words)
        words = coordinated(words)
        lines = []
        timed = timed_away(words)   # "... once every turn above has been played": the end, said as a time
        owned = possessive_of(timed or words)   # "what is the Badgers' final score": the score of the Badgers
        for plain in (timed, owned):
            if plain is not None:
                lines += bare(plain, r.wording.context_words, r.wording.context_starts)
        opens, lengths = openers()
        heads = [words] + [words[n:] for n in lengths if n < len(words) and tuple(words[:n]) in opens]
        words = ordered_away(words) or words   # "in the order shown": said of every step, it claims nothing
        sourced = sourced_away(words)   # "... according to the survey": where the answer comes from, read away
        sourced += [t for t in [so_as_true(w) for w in [words] + sourced] if t is not None]   # "must be so"
        sourced += [t for t in [certainty_plain(w) for w in [words] + sourced] if t is not None]   # "is certainly true"
        sourced += [t for t in [period_ended(w) for w in [words] + sourced] if t is not None]   # "end of the week"
        sourced += [t for t in [holder_away(w) for w in [words] + sourced] if t is not None]   # "on Milo's card"
        sourced += [t for t in [gauge_read(w) for w in [words] + sourced] if t is not None]   # "what does X read"
        heads += sourced
        for said in [words] + sourced + [c for head in heads for c in commanded(head)]:   # "Using only ..., decide how ..."
            lines += bare(said, r.wording.context_words, r.wording.context_starts)
            named = pronouns_named(said)
            if named is not None:
                lines += bare(named, r.wording.context_words, r.wording.context_starts)
        for line in lines:
            parses = r._parses(r.questions, line, marked, types)
            if tuple(query[1]) in [tuple(a) for p, a in parses if p == query[0]]:
                return READ
            other = other or (parses[0] if parses else None)
        if other is None and query[0] in r.facts:   # "Determine whether Priya is a Weaver": the statement's fact
            want = r.norm(query)
            for line in lines:
                ws = line.split()
                for n in embedders()[1]:
                    if n < len(ws) and tuple(ws[:n]) in embedders()[0]:
                        parses = r._parses(r.facts, " " + " ".join(ws[n:]), marked, types)
                        if any(r.norm(p) == want for p in parses):
                            return READ
                        other = other or (parses[0] if parses else None)
            for line in lines if other is None else ():   # "Is X filed under Y?": the statement it inverts
                stated = statement(line.split())
                parses = []
                for said in ([stated] + agent_as_verb(stated)) if stated else []:   # "a subscriber to": "subscribes to"
                    if r.wording.rewrite is not None:   # the statement in the family's free forms too
                        again = r.rewritten(query[0], said, marked, types)
                        said = again if changes_nothing(said, again) else said
                    parses += r._parses(r.facts, " " + " ".join(said), marked, types)
                if any(r.norm(p) == want for p in parses):
                    return READ
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

    def _meaning(self, readings: list[list[str]], marked: Marked, types: Mapping[str, str]) -> object:
        """What the first of a clause's readings that says anything says: the facts it reads as (a frozenset),
        "not settled", or None."""
        r = self.r
        for words in readings:
            if tuple(words) in unsettled_words():
                return "not settled"
            parses = r._parses(r.facts, " " + " ".join(words), marked, types)
            if not parses and r.wording.rewrite is not None:   # the clause in the family's free forms, as a premise
                again = [r.rewritten(pred, words, marked, types) for pred in r.facts]
                parses = [p for a in again if changes_nothing(words, a) for p in r._parses(
                    r.facts, " " + " ".join(a), marked, types)]
            if parses:
                return frozenset(r.norm(p) for p in parses)
        return None

    def _label_meaning(self, label: str, query: Fact, marked: Marked, types: Mapping[str, str]) -> object:
        """What a label means for this query: its definition in the family's wording, read like a clause; a label that
        is a statement, what the statement reads as."""
        definition = self.r.wording.definitions.get(label)
        if definition is None:   # a statement as its label (equality's "c != h"): what it reads as, its letters
            return self._meaning([normalize(symbols_marked(marked, types).words(label))], marked, types)   # symbols
        spelled = [marked.names.get(a, str(a)) if isinstance(a, str) else str(a) for a in query[1]]
        words = normalize(marked.words(say(definition, spelled, end="", capital=False)))
        return self._meaning([words], marked, types)
