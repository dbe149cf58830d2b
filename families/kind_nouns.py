"""A render's kind nouns ("the Sunward clan", "Quarles's stall"): words it sets after its names, read away.

A model that names a symbol "Sunward" writes "the Sunward clan", "Brisby" as "the Brisby cottage", and a
reading as "Calcite's score differs from Halite's". The noun says what kind of thing the name is, nothing of
the fact. A word is a kind noun of a render only where the render itself shows it is one: it follows at least
two different names as a noun follows ("the NAME W" or "NAME's W"; after a category's name also "every NAME W",
"a NAME W": "every Fir House student", "a sludgejazz song"), it is no word of the family's grammar
(no relation, negation, hedge, cue or number word) and no adverb. Only then, and only for a sentence that
does not read otherwise, is it read away after a name ("the @0 clan" as "the @0"), with a possessive that
owns it ("@0 's score" as "@0", "... from @1 's" as "... from @1"), and its plural after two names joined by
"and" ("the Oystercove and Islemark lighthouses" as "the @0 and @1"). A counter's name is left alone: what
follows "the Granary" may be its verb ("The Granary spent 5 coins"), and a verb read away changes the fact.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

from families.counted import vocabulary
from families.free_forms import s_form
from families.reading import Marked, reader
from families.wording import FILLERS, HEDGES, NEGATIONS, NUMBER_AFTER, NUMBER_BEFORE, NUMBER_WORDS

# The symbol types whose names a kind noun may follow: people, categories, variables (never a counter).
NAMED_KINDS = frozenset({"Entity", "Set", "Variable"})


@lru_cache(maxsize=None)
def grammar_words(family: str) -> frozenset[str]:
    """Every word the family's grammar reads or weighs: never a kind noun."""
    w = reader(family).wording
    said = [ph for table in (w.facts, w.reads, w.questions, w.question_reads, w.read_openers) for phs in table.values()
            for ph in phs]
    said += [*w.openers, *w.fact_tails]
    cues = {x for table in w.cues.values() for _, ws in table for x in ws}
    cues |= {x for _, ws in w.question_cues for x in ws} | w.intro_hints | w.context_words
    cues |= {x for pair in w.directions.values() for side in pair for x in side}
    fillers = {x for f in FILLERS for x in f}
    return vocabulary(said) | cues | fillers | w.negations | NEGATIONS | HEDGES | NUMBER_WORDS | NUMBER_BEFORE | NUMBER_AFTER


# Words before a category's name that make the word after it a noun ("every Fir House student", "all thornvine gems",
# "is a sludgejazz song")
_QUANTIFIERS = frozenset({"every", "each", "all", "any", "no", "a", "an"})
# Nouns of a category the grammar also reads ("the group of Bakers"), a kind noun all the same after a category's
# name ("the Umber group", "the Sage set"): a category is a group, whatever its name.
_CATEGORY_NOUNS = frozenset({"group", "set", "class", "category"})
_OF = frozenset({"in", "of", "from", "among", "within", "inside"})   # "each student in Elm House"


def _named_marks(marked: Marked, types: Mapping[str, str]) -> frozenset[str]:
    """The marks of the names a kind noun may follow (`NAMED_KINDS`)."""
    return frozenset(f"@{k}" for k, s in enumerate(marked.symbols) if types.get(s) in NAMED_KINDS)


def _noun_like(word: str, known: frozenset[str], category: bool = False, member: frozenset[str] = frozenset()) -> bool:
    if category and word in _CATEGORY_NOUNS or word in member:
        return True
    return word.isascii() and word.isalpha() and len(word) > 2 and not word.endswith("ly") and word not in known


class KindMarked(Marked):
    """A render's names as marks, with its kind nouns read away after the names they follow. Its readings are
    never remembered across renders (`name_words` None): whether a word is a kind noun depends on the render."""

    def __init__(self, names: Mapping[str, str], types: Mapping[str, str], kinds: frozenset[str]):
        super().__init__(names, types)
        self.kinds = kinds
        self._named = _named_marks(self, types)
        # a kind noun's plural after two names joined by "and" says the kind of both ("the kumquat and elderberry
        # crates"); only a kind noun of the render's own, in its plural by English spelling
        self._plurals = frozenset(s_form(k) for k in kinds) - kinds
        self.name_words = None

    def narrowed(self, names: Mapping[str, str]) -> KindMarked:
        """These names only, their kind nouns still read away."""
        return KindMarked(names, self.types or {}, self.kinds)

    def words(self, text: str) -> list[str]:
        """The words of `text`, names as marks, each kind noun after a name (and its possessive) read away."""
        out: list[str] = []
        raw, i = super().words(text), 0
        while i < len(raw):
            t = raw[i]
            if t in self.kinds and out and out[-1] in _QUANTIFIERS and i + 2 < len(raw) and raw[i + 1] in _OF \
                    and raw[i + 2] in self._named:
                i += 2      # "each student in Elm House" as "each Elm House": the category's members
                continue
            out.append(t)
            i += 1
            if t not in self._named or i >= len(raw):
                continue
            if raw[i] == "and" and i + 2 < len(raw) and raw[i + 1] in self._named and raw[i + 2] in self._plurals:
                out += ["and", raw[i + 1]]
                i += 3      # "the Oystercove and Islemark lighthouses" as "the Oystercove and Islemark"
            elif raw[i] == "'s" and i + 1 < len(raw) and raw[i + 1] in self.kinds:
                i += 2      # "Quarles's stall" as "Quarles"
            elif raw[i] in self.kinds:
                i += 1      # "the Sunward clan" as "the Sunward"
            elif raw[i] == "'s" and i + 1 == len(raw):
                i += 1      # "... left of Aldric's": the noun said once, before
        return out


def kind_nouns(texts: Iterable[str], marked: Marked, types: Mapping[str, str], family: str) -> frozenset[str]:
    """The words that follow two or more different names of `texts` as a noun follows a name."""
    known = grammar_words(family)
    member_nouns = reader(family).wording.member_nouns
    named = _named_marks(marked, types)
    after: dict[str, set[str]] = {}
    for text in texts:
        w = marked.words(text)
        for i, t in enumerate(w[:-1]):
            if t not in named:
                continue
            category = types.get(marked.symbols[int(t[1:])]) == "Set"
            if w[i + 1] == "'s" and i + 2 < len(w):
                word = w[i + 2]
            elif i > 0 and (w[i - 1] == "the" or w[i - 1] in _QUANTIFIERS | {"are"} and category):
                # "the Sunward clan"; a category's "every Fir House student", "a sludgejazz song", "are Cloudmoss plants"
                word = w[i + 1]
            else:
                continue
            if _noun_like(word, known, category, member_nouns):
                after.setdefault(word, set()).add(t)
    return frozenset(word for word, marks in after.items() if len(marks) > 1)
