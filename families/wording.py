"""How a family's facts and questions are worded: one grammar per predicate, from which come the
sentence the template writes and the prompt says, the pattern a grammar-constrained renderer is held
to, and the reading the fidelity check gives each premise back.

A phrasing is words, argument slots `{0}` `{1}`, choices `(a|b c)` and optional choices `[a|b]` (no
nesting). Reading is on words: lower case, punctuation
dropped except `=` `!=` `≠` `<>`, number words as digits, every name of the render as one mark. So a
sentence reads as a fact when the whole of it is one phrasing of that fact, after an optional opener.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, NamedTuple, Sequence

_TOKEN = re.compile(r"\w+|!=|==|≠|<>|=")
_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_NUMBER_WORDS = frozenset(_UNITS) | frozenset(_TENS)
# Words that negate what a sentence says (n't reads as `not`); where one stands in a sentence of a
# positive fact that does not read whole, the sentence says something else.
NEGATIONS = frozenset("not no never neither nor none nobody nothing cannot unequal differs differ different distinct "
                      "outside != ≠ <>".split())
# Openers any sentence may start with and still say its fact (read, never written).
READ_OPENERS = ("also", "note that", "we know that", "it is known that", "it is true that", "in addition",
                "furthermore", "moreover")


def tokens(text: str) -> list[str]:
    """The words of a text as they are read: lower case, punctuation dropped but for the equality
    signs, number words up to ninety-nine as digits."""
    # n't is `not` (a one-letter name `t` must not stand for it); a possessive 's is dropped
    low = text.lower()
    if "'" in low or "’" in low:
        low = low.replace("’", "'").replace("n't", " not").replace("'s", "")
    raw = _TOKEN.findall(low)
    if _NUMBER_WORDS.isdisjoint(raw):   # most sentences hold no number word: nothing to join or convert
        return raw
    out: list[str] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        if t in _TENS:
            n = _TENS[t]
            if i + 1 < len(raw) and 0 < _UNITS.get(raw[i + 1], 0) < 10:
                n += _UNITS[raw[i + 1]]
                i += 1
            out.append(str(n))
        else:
            out.append(str(_UNITS[t]) if t in _UNITS else t)
        i += 1
    return out


class _Part(NamedTuple):
    slot: int | None                 # an argument slot, or None
    options: tuple[str, ...]         # the words (one option), or the choices
    optional: bool


_PART = re.compile(r"\{(\d)\}|\(([^()\[\]]*)\)|\[([^()\[\]]*)\]|([^\s(){}\[\]]+)")


@lru_cache(maxsize=4096)   # a family's phrasings are few and said once per premise: parse each once
def parse_phrasing(phrasing: str) -> tuple[_Part, ...]:
    """The parts of a phrasing; a malformed one (an optional opening, text outside any part) is an error."""
    parts, pos = [], 0
    for m in _PART.finditer(phrasing):
        if phrasing[pos:m.start()].strip():
            raise ValueError(f"phrasing {phrasing!r}: cannot read {phrasing[pos:m.start()]!r}")
        pos = m.end()
        slot, choice, optional, word = m.groups()
        if slot is not None:
            parts.append(_Part(int(slot), (), False))
        elif word is not None:
            parts.append(_Part(None, (word,), False))
        else:
            options = tuple(o.strip() for o in (choice if choice is not None else optional).split("|"))
            if not all(options):
                raise ValueError(f"phrasing {phrasing!r}: an empty choice")
            parts.append(_Part(None, options, optional is not None))
    if phrasing[pos:].strip() or not parts or (parts[0].optional and len(parts) == 1):
        raise ValueError(f"phrasing {phrasing!r}: empty, or only an optional part")
    return tuple(parts)


def _alternation(options: Sequence[str]) -> str:
    return "|".join(" ".join(map(re.escape, tokens(o))) for o in options)


def reader_regex(phrasing: str, kinds: Sequence[str], openers: Sequence[str] = ()) -> re.Pattern:
    """The regex over `" " + " ".join(marked tokens)` that reads this phrasing: a name slot matches a
    name mark `@k`, an integer slot digits; group `sI` holds slot I."""
    out = f"(?: (?:{_alternation(openers)}))?" if openers else ""
    for p in parse_phrasing(phrasing):
        if p.slot is not None:
            out += f" @(?P<s{p.slot}>\\d+)" if kinds[p.slot] == "name" else f" (?P<s{p.slot}>\\d+)"
        else:
            body = _alternation(p.options)
            out += f"(?: (?:{body}))?" if p.optional else f" (?:{body})"
    return re.compile(out)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def writer_pattern(phrasings: Sequence[str], spelled: Sequence[str], openers: Sequence[str] = (),
                   end: str = ".") -> str:
    """A bounded pattern (JSON schema `pattern`) that admits exactly the sentences of these phrasings
    with the arguments spelled as given: an optional opener, one phrasing, the end mark."""
    bodies = []
    for phrasing in phrasings:
        out, sep = "", ""   # sep: what stands before the next part (an optional opening carries its space)
        for i, p in enumerate(parse_phrasing(phrasing)):
            if p.slot is not None:
                out += sep + re.escape(spelled[p.slot])
            else:
                options = [re.escape(_cap(o) if i == 0 else o) for o in p.options]
                if i == 0 and p.optional:
                    out += "(" + "|".join(o + " " for o in options) + ")?"
                    continue   # the next part needs no space before it
                elif p.optional:
                    out += "(" + "|".join(" " + o for o in options) + ")?"
                else:
                    out += sep + "(" + "|".join(options) + ")"
            sep = " "
        bodies.append(out)
    opener = "((" + "|".join(re.escape(_cap(o)) for o in openers) + "), )?" if openers else ""
    return f"{opener}({'|'.join(bodies)}){re.escape(end)}"


def say(phrasing: str, spelled: Sequence[str], rng: random.Random | None = None, end: str = ".",
        capital: bool = True) -> str:
    """A sentence of this phrasing: its first choices and no optional part (the canonical one), or,
    with `rng`, random choices (how tests make paraphrases)."""
    if rng is None:
        form, cap = _canonical(phrasing, end, capital)
        text = form.format(*spelled)
        return _cap(text) if cap else text
    words, parts = [], parse_phrasing(phrasing)
    for p in parts:
        if p.slot is not None:
            words.append(spelled[p.slot])
        elif rng is None:
            if not p.optional:
                words.append(p.options[0])
        elif not p.optional or rng.random() < 0.5:
            words.append(rng.choice(p.options))
    text = " ".join(words)
    # a name stays as given (equality's variables are lower case)
    return (_cap(text) if capital and (parts[0].slot is None or parts[0].optional) else text) + end


@lru_cache(maxsize=4096)
def _canonical(phrasing: str, end: str, capital: bool) -> tuple[str, bool]:
    """The canonical sentence of a phrasing as a format string of its words and slots, e.g. "The {0} is left
    of {1}.", made once per phrasing (the template says one per premise), and whether the spelled sentence's
    first letter is still to capitalize (it starts with a slot)."""
    every = parse_phrasing(phrasing)
    parts = [p for p in every if p.slot is not None or not p.optional]
    pieces = [f"{{{p.slot}}}" if p.slot is not None else p.options[0].replace("{", "{{").replace("}", "}}")
              for p in parts]
    cap = capital and (every[0].slot is None or every[0].optional)
    if cap and parts[0].slot is None:   # the sentence begins with a word: capitalized here, once
        pieces[0], cap = _cap(pieces[0]), False
    return " ".join(pieces) + end.replace("{", "{{").replace("}", "}}"), cap


@dataclass(frozen=True)
class Wording:
    """What a family's sentences may say, per predicate; the first phrasing of each is the canonical
    one (the template's and the prompt's, unless `template` names another)."""

    facts: Mapping[str, tuple[str, ...]]          # fact predicate -> its phrasings
    questions: Mapping[str, tuple[str, ...]]      # query predicate -> its phrasings
    negative: frozenset[str] = frozenset()        # predicates that negate (a sentence of one holds a negation)
    opposites: Mapping[str, str] = field(default_factory=dict)   # polarity pairs, both ways
    symmetric: frozenset[str] = frozenset()       # predicates whose arguments may come in either order
    openers: tuple[str, ...] = ()                 # openers a premise may start with (written and read)
    # predicate -> ((what it would say, words that say it), ...): where one of the words stands in a
    # sentence that does not read whole, the sentence says that instead (a decrease in an increment).
    cues: Mapping[str, tuple[tuple[str, frozenset[str]], ...]] = field(default_factory=dict)
    # predicate -> (its direction words, its converse's): with the fact's arguments in the fact's order,
    # a converse word (and no direction word) reverses it; in the other order, a direction word does.
    directions: Mapping[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    ordered_question: bool = False                # the question's symbols must come in the query's order
    intro: str = ""                               # the template's opening line
    template: Mapping[str, str] = field(default_factory=dict)      # predicate -> the template's phrasing
    template_question: str = ""                   # the template's question, verbatim, when not the canonical one
    template_end: str = "."                       # how the template ends a premise
    # label -> what it means, over the query's arguments: the line after the question is ours.
    definitions: Mapping[str, str] = field(default_factory=dict)
    lettered: bool = False                        # the options are listed after the question, lettered A, B, ...

    def canonical_template(self, predicate: str) -> str:
        """The phrasing the template writes for a fact predicate (the canonical one, unless `template` says)."""
        return self.template.get(predicate) or self.facts[predicate][0]

    def question(self, predicate: str, spelled: Sequence[str]) -> str:
        """The canonical question of a query, arguments spelled."""
        return say(self.questions[predicate][0], spelled, end="?")

    def answer_line(self, spelled: Sequence[str], labels: Sequence[str]) -> str:
        """What each label means, spelled from the query, or the options lettered (empty where labels
        say it themselves)."""
        if self.lettered:
            return "\n".join(f"{chr(65 + i)}. {label}" for i, label in enumerate(labels))
        if not self.definitions:
            return ""
        said = [f"{label} if {say(self.definitions[label], spelled, end='', capital=False)}" for label in labels]
        return "Answer " + ", ".join(said[:-1]) + ", or " + said[-1] + "."
