"""Question forms a strong model writes that the grammar of one question sentence does not hold: labels that
are statements read by their symbols, and the rewrites families/questions.py tries before it gives up."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Mapping

from families.phrases import announcements, expand
from families.wording import normalize, tokens

if TYPE_CHECKING:
    from families.reading import Marked


def symbols_marked(marked: Marked, types: Mapping[str, str]) -> Marked:
    """The render's marks with each symbol named by itself: a label that is a statement ("c != h") speaks of the
    symbols c and h whatever names the render gave them (a render that renamed them is refused by its names)."""
    if all(marked.names.get(s) == s for s in marked.symbols):
        return marked
    from families.reading import Marked
    return Marked({s: s for s in marked.symbols}, types)


# A question asked in two ("Exactly one of the following must hold. Which is it?", "... holds: A, B, C or D. Which
# one?", "... guaranteed. Is it A, B, C or D?"): the second part asks only which option, and says nothing unless
# another sentence of the question asked the query (a question of these words alone stays unread).
@cache
def follow_ups() -> frozenset[tuple[str, ...]]:
    """The follow-ups that ask only which option, as words; built when first asked."""
    return frozenset(tuple(tokens(s)) for s in expand(
    "which|which one|which of them|which of these|which of those|which option|which statement|which answer|"
    "which conclusion|which of the options|which of the statements|so which|so which one|then which|then which one|"
    "and which|and which one|is it|so is it|which is it then|which one is it then", "~|is it|is that|is this|"
    "would it be|could it be") + expand("name|identify|give|state|pick|select|choose", "it|that one|the one|which")
        # "give the one that is correct": an instruction to pick, after a sentence that asked
        + expand("~|and|then|please|so", "give|pick|choose|select|state|name|write|say|report", "the one|the option|"
                 "the number|the answer|the value|the right one|the correct one|the right option|the correct option|"
                 "the label|the matching one|the matching option|the matching label|" +
                 "|".join(expand("the", "single|only|one", "correct|right|true", "one|option|statement|answer")) +
                 "|the correct statement|the true statement|the correct answer|the right answer",
                 "~|that is correct|that is right|that applies|that is true|that holds|that fits|that is the answer|"
                 # the option that is the number asked ("pick the label equal to that number", "the one that matches")
                 "that matches|that matches it|that matches that number|equal to it|equal to that number|"
                 "that equals it|that equals that number|that is equal to it|that is equal to that number")
        + expand("~|and|then|please|so", "give|pick|choose|select", "the matching one|the matching option|"
                 "the matching label|the matching answer|the matching number")
        + tuple(" ".join(normalize(tokens(s))) for s in _verbatim()) + announcements())


def _verbatim() -> tuple[str, ...]:
    """An instruction to answer with one option as it is written ("answer with the option exactly as written",
    "reply with one option exactly as written", "give one option exactly as it is written"), and a word that the
    answer is one of the options ("Each answer is one of these exact statements"): nothing of what is asked."""
    ones = "|".join(("one|exactly one|just one|only one|the one|a single one|one option|exactly one option|"
                     "a single option|the option|one statement|the statement").split("|")
                    + list(expand("one|exactly one|just one|only one", "of", "them|these|those|the options|"
                                  "these options|the statements|these statements|the choices")))
    return (expand("~|and|then|please|so", "answer with|reply with|respond with|give|pick|choose|select|write|state",
                   ones, "~|exactly as written|exactly as it is written|as written|as it is written|verbatim|"
                   "word for word|exactly as it appears|as it appears|exactly as shown|as shown|exactly as given")
            + expand("each|every|your|the", "answer|option|response|reply", "is|must be|should be",
                     "one of|exactly one of", "these|the|those|the listed|the given|the following",
                     "~|exact", "statements|options|answers|choices"))


# What says "the statements do not settle it" beyond phrases.undetermined(), built from its parts: what the
# answer would come from (the statements, or the scene's own word for them: "the line-up", "the catalogue rules
# given here"), a verb of settling said not to, and what it leaves.
_SOURCES = "statements|premises|facts|information|clues|rules|conditions|above|details|description|story|line up|lineup|" \
           "order|ordering|row|arrangement|positions|catalogue rules|data|evidence|constraints|relations|" \
           "information given|facts given|statements given|statements above|facts above|premises above|given facts|" \
           "given information|given statements|facts provided|information provided"
_WHERE = "~|given|given here|here|above|provided|stated|listed|so far"
_SETTLE = "settle|determine|decide|say|tell|show|fix|establish|resolve|pin down|answer|specify|make clear|reveal|" \
          "tell us|say which|establish which|determine which|decide which|make certain|make it certain|" \
          "make this certain|make that certain|make it clear|make this clear|make sure of|pin this down|pin it down|" \
          "pin that down|make that determinable|make it determinable|make this determinable|say enough to tell|" \
          "say enough to decide|give enough to tell|give enough to decide|contain enough to tell"
_LEFT = "undetermined|open|unsettled|undecided|unclear|uncertain|unresolved|ambiguous|an open question|unknown|" \
        "unanswered|to chance"
_SETTLED = "determined|decided|settled|established|worked out|figured out|pinned down|deduced|inferred|concluded|" \
           "told|known|resolved|answered|said|fixed|decided either way|determined either way"
_FROM = "~|from the above|from the facts|from the statements|from the premises|from the information|from the clues|" \
        "from what is given|from the information given|from the facts given|from these facts|from these statements|" \
        "from the rules|from the line up|for sure|for certain|with certainty|either way"


# How the query's two stand, as a clause's subject ("or UNKNOWN if their relative position cannot be determined")
_THEIR = "|".join(expand("the|their|its", "~|relative", "position|positions|order|relation|relationship|ordering|placement"))


def _row(*choices: str) -> str:
    """A row of choices (`a|b` each, `~` for none) as a pattern of words: what `phrases.expand` would list."""
    parts = []
    for c in choices:
        alts = sorted({" ".join(tokens(w)) for w in c.split("|") if w != "~"}, key=len, reverse=True)
        group = "(?:" + "|".join(re.escape(a) + " " for a in alts) + ")"
        parts.append(group + "?" if "~" in c.split("|") else group)
    return "".join(parts)


@cache
def _unsettled_rows() -> re.Pattern[str]:
    """The rows below as one pattern, compiled when first asked."""
    return re.compile("|".join([
    _row("~|the|these|this|that|all the|the given", _SOURCES, _WHERE, "do not|does not|cannot|can not|fail to|"
         "will not|would not|are not enough to|is not enough to|are insufficient to|is insufficient to|"
         "do not suffice to|does not suffice to", "~|make it possible to|allow you to|allow one to|allow us to|let you|"
         "let one|let us|enable you to|enable one to", _SETTLE, "~|it|this|that|the answer|the question|either way|"
         "one way or the other|for sure|for certain|" + _THEIR),
    # "if the premises do not allow this to be determined"
    _row("~|the|these|this|that|all the|the given", _SOURCES, _WHERE, "do not|does not|cannot|can not|will not",
         "allow|permit|let", "it|this|that|the answer|the question|" + _THEIR, "~|to", "be", _SETTLED, _FROM),
    _row("~|the|these|this|all the", _SOURCES, _WHERE, "leave|leaves", "it|this|that|the question|the answer|"
         "the matter", _LEFT),
    _row("~|the|these|this", _SOURCES, _WHERE, "are not enough|is not enough|are insufficient|is insufficient|"
         "do not suffice|does not suffice", "~|to tell|to decide|to determine|to say|to settle it|to know"),
    _row("~|it|this|that|the answer|which|which one|" + _THEIR, "cannot|can not|could not", "be", _SETTLED, _FROM),
    _row("it|this|that|the answer", "is not|is still not|is not yet", _SETTLED.replace("|told|", "|"), _FROM),
    _row("~|it is|this is|that is|it remains|this remains|that remains|" +
         "|".join(expand(_THEIR, "is|remains")), "undetermined|undecided|unsettled|open|uncertain|unknown|unclear", _FROM)]))


class Unsettled(frozenset[tuple[str, ...]]):
    """The words that say "not settled": phrases.undetermined()'s, and those of the rows above (a pattern, not a
    list: the rows hold millions of sentences)."""

    def __contains__(self, words: object) -> bool:
        if super().__contains__(words):
            return True
        return isinstance(words, tuple) and _unsettled_rows().fullmatch(" ".join(words) + " ") is not None


# "it" after these stands for a symbol already named, never for the statement ("to the right of it", "in it"):
# the query's other symbol in a label's clause, the name before it in a question.
AFTER_IT = frozenset({"of", "in", "into", "to", "from", "on", "under", "within", "inside", "than", "among"})


def ones_dropped(words: list[str]) -> list[str]:
    """A clause without "one" after a name ("to the right of the scarlet one": of the scarlet pennant, where the
    render named it "scarlet")."""
    return [w for k, w in enumerate(words) if not (w in ("one", "1") and k and words[k - 1][:1] == "@")]
