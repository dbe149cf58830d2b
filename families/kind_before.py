"""A render's kind nouns before its names ("register n", "registers i and m") and its measure nouns ("the same
colour as"), read away where the render itself shows what they are.

A model that names its symbols by single letters writes a noun before each: "Register n holds the same value as
register e", "Registers i and m hold different values", "The variable e is equal to j". The noun says what kind
of thing the letter is, nothing of the fact. A word is a kind noun of a render only where the render sets it
before at least two different names, in a noun's place (not right after a name, where a verb stands), and it is no word of the family's grammar (no relation, negation, hedge, cue
or number word), no adverb, and no verb's third person ("exceeds"). Its plural is one too before two names
joined by "and". Only then, and only for a sentence that does not read otherwise, is it read away ("the
register @0" as "the @0", "registers @0 and @1" as "@0 and @1").

A family that compares one hidden measure (`MEASURED`) also reads the render's own measure noun as the
grammar's: a plain noun the render sets after "same", "equal", "different" ... in two sentences or more ("the
same colour as", "different colours") is read as "value", "as many beads as" as "the same value as" and
"the same quantity of beads" as "the same value". A noun that names a property short of the value (sign,
parity) is never one.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from families.free_forms import s_form
from families.kind_nouns import NAMED_KINDS, KindMarked, grammar_words
from families.reading import Marked, reader
from families.wording import HEDGES, NEGATIONS, NUMBER_WORDS

# A family's own nouns for what a symbol is: grammar words all the same read away before a name
# ("variables e and o" where the grammar reads "the variables e and o").
_REFERENCES = frozenset({"variable", "quantity", "unknown"})
# Families whose facts compare one hidden measure, and the noun their grammar reads it by.
MEASURED = {"equality": ("value", "values")}
# Words after which a noun is the measure compared ("the same colour", "different colours").
_COMPARED = frozenset({"same", "equal", "different", "unequal", "distinct", "identical", "common"})
# Nouns of a property short of the value: equal signs or parities are no equal values.
_SHORT = frozenset({"sign", "parity", "magnitude", "remainder", "digit", "digits", "type", "kind", "form", "shape",
                    "direction", "order", "size_order", "length"})
# Words never a measure noun: comparisons of degree and closeness, and the words that follow "different" or
# "distinct" where no noun does ("different from", "distinct ones").
_DEGREE = frozenset("more less fewer greater higher lower bigger smaller larger than similar close almost nearly "
                    "roughly approximately about same equal different from with and each other one ones thing things "
                    "but for the its their what".split())


def _singular(word: str) -> str | None:
    """The singular of a plural noun, or None: registers -> register, tallies -> tally."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("xes", "ches", "shes", "sses")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else None


def _noun(word: str, known: frozenset[str], member: frozenset[str] = frozenset()) -> bool:
    """A word that may be a noun of the story: plain letters, no grammar word (but a family's own nouns of what a
    symbol is: "variable", and a category's "Team Cascade"), no adverb."""
    return word.isascii() and word.isalpha() and len(word) > 2 and not word.endswith("ly") \
        and (word not in known or word in _REFERENCES or word in member)


def _in_place(w: list[str], i: int) -> bool:
    """Whether the word at `i` may stand where a noun stands: first, or after any word but a name (a word
    after a name is its verb: "x beat y")."""
    return i == 0 or not w[i - 1].startswith("@")


def _named(marked: Marked, types: Mapping[str, str]) -> frozenset[str]:
    return frozenset(f"@{k}" for k, s in enumerate(marked.symbols) if types.get(s) in NAMED_KINDS)


# Words before one name that may change who is meant or what is said of them ("the former Osei", "the other Nico"):
# never a kind noun, whatever the intro says
_NOT_KINDS = frozenset("former late ex old new young elder other another fake false alleged real true future next "
                       "previous first last same only very".split())


def kinds_before(texts: Iterable[str], marked: Marked, types: Mapping[str, str], family: str,
                 intro: str = "") -> frozenset[str]:
    """The words `texts` set, in a noun's place, before two or more different names; with their plurals. And a word
    set after "the" before one name only ("Is the crystal Tovin a glassite?") where the intro names it as the story's
    thing, itself or in the plural ("A collector of imaginary crystals ..."): the story says what kind its names are."""
    known = grammar_words(family)
    member = reader(family).wording.member_nouns
    named = _named(marked, types)
    story = {x for x in Marked({}).words(intro) if x.isalpha()}
    story |= {x[:-2] for x in story if x.endswith("ses")}   # "canvases": no "canvase"
    story |= {one for x in story if (one := _singular(x)) is not None}
    before: dict[str, set[str]] = {}
    pairs: dict[str, set[str]] = {}
    for text in texts:
        w = marked.words(text)
        for i, t in enumerate(w[1:], 1):
            word = w[i - 1]
            if t not in named or not _in_place(w, i - 1) or not _noun(word, known, member):
                continue
            if word in story and w[i - 2:i - 1] == ["the"] and word not in _NOT_KINDS and not word.endswith("ed"):
                before.setdefault(word, set()).update(("", t))   # the story's own kind: one name is enough
            if i + 2 < len(w) and w[i + 1] == "and" and w[i + 2] in named and (one := _singular(word)) is not None:
                pairs.setdefault(one, set()).update((t, w[i + 2]))   # "registers i and m"
            elif not word.endswith("s") or word.endswith("ss"):        # "exceeds c": a verb, not a noun
                before.setdefault(word, set()).add(t)
    singles = {word for word, marks in before.items() if len(marks) > 1}
    singles |= {one for one, marks in pairs.items() if len(marks) > 1 and _noun(one, known, member)}
    return frozenset(singles | {s_form(s) for s in singles} | {p for p in map(s_form, pairs) if _singular(p) in singles})


def measure_nouns(texts: Iterable[str], family: str) -> frozenset[str]:
    """The nouns the render sets after "same", "equal", "different" ... in two sentences or more (singular and
    plural), where the family compares one hidden measure: what its story calls the value."""
    if family not in MEASURED:
        return frozenset()
    wording = reader(family).wording
    cues = {x for table in wording.cues.values() for _, ws in table for x in ws}
    cues |= {x for _, ws in wording.question_cues for x in ws}
    never = _DEGREE | _SHORT | {s_form(s) for s in _SHORT} | NEGATIONS | HEDGES | NUMBER_WORDS | cues
    seen: dict[str, int] = {}
    for text in texts:
        w = Marked({}).words(text)
        found = {w[i + 1] for i, t in enumerate(w[:-1]) if t in _COMPARED}
        for word in found:
            one = _singular(word) or word
            if word.isascii() and word.isalpha() and len(word) > 2 and not word.endswith("ly") \
                    and not {word, one} & never:
                seen[one] = seen.get(one, 0) + 1
    return frozenset(x for one, n in seen.items() if n > 1 for x in (one, s_form(one)))


class BeforeMarked(KindMarked):
    """A render's names as marks, its kind nouns read away after (`KindMarked`) and before its names, and its
    measure nouns read as the grammar's. Its nouns are the class's (`before_marked` makes one per render), so a
    reader that marks fewer names (`narrowed`) keeps them."""

    after: frozenset[str] = frozenset()
    before: frozenset[str] = frozenset()
    measures: frozenset[str] = frozenset()
    family: str = ""

    def __init__(self, names: Mapping[str, str], types: Mapping[str, str]):
        super().__init__(names, types, self.after)
        self.value = MEASURED.get(self.family)
        self._marks_named = _named(self, types)

    def narrowed(self, names: Mapping[str, str]) -> BeforeMarked:
        """These names only, every noun of the render still read as it was."""
        return type(self)(names, self.types or {})

    def words(self, text: str) -> list[str]:
        """The words of `text`, kind nouns before and after names read away, measure nouns as the grammar's."""
        raw = super().words(text)
        out: list[str] = []
        for i, t in enumerate(raw):
            nxt = raw[i + 1] if i + 1 < len(raw) else ""
            if t in self.before and nxt in self._marks_named and _in_place(raw, i):
                continue       # "register @0" as "@0", "registers @0 and @1" as "@0 and @1"
            out.append(t)
        return self._measured(out, self.value) if self.value is not None else out

    def _measured(self, w: list[str], value: tuple[str, str]) -> list[str]:
        """The render's measure nouns as the grammar's ("the same colour" as "the same value"), "as many beads
        as" as "the same value as", a measure's "of beads" read away."""
        out: list[str] = []
        i = 0
        while i < len(w):
            t = w[i]
            if t == "as" and i + 3 < len(w) and w[i + 1] == "many" and w[i + 3] == "as" and w[i + 2].isalpha():
                out += ["the", "same", value[0], "as"]   # "as many beads as": the same count
                i += 4
                continue
            mate = t[:-5] if t.endswith("mates") else t[:-4] if t.endswith("mate") else ""
            if mate and mate in self.measures and _singular(mate) is None:
                out.append(value[0] + t[len(mate):])   # "teammates" where the measure is "team": "valuemates"
                i += 1
                continue
            if t in self.measures:
                out.append(value[1] if _singular(t) in self.measures else value[0])
                i += 1
                if i + 1 < len(w) and w[i] == "of" and w[i + 1].isalpha() and w[i + 1] not in self._marks_named:
                    i += 2     # "the same quantity of beads": what is counted, no more
                continue
            out.append(t)
            i += 1
        return out


def before_marked(names: Mapping[str, str], types: Mapping[str, str], after: frozenset[str], before: frozenset[str],
                  measures: frozenset[str], family: str) -> BeforeMarked:
    """A render's `BeforeMarked`: its kind nouns after and before its names, its measure nouns."""
    own: type[BeforeMarked] = type("RenderMarked", (BeforeMarked,), {"after": after, "before": before,
                                                                     "measures": measures, "family": family})
    return own(names, types)
