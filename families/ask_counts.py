"""A count's ask made plain, each a class composed from its parts: what the counter holds its things in ("how many
tokens are on Milo's card"), steps said to be taken in order ("in the order shown"), what a gauge reads ("What does the
right dial read?", "What does the violet lamp's dial read?")."""
from __future__ import annotations

import re

from families.ask_forms import _PARTIAL, _TIME_OPENS, _TURNING

_HOLDING = frozenset({"on", "in", "inside", "into", "within", "aboard"})


def holder_away(words: list[str]) -> list[str] | None:
    """A count asked of what a counter holds its things in ("how many tokens are on @1 's card", "how many coins are in
    @0 's purse") as of the counter itself ("... on @1"): one plain noun after the counter's possessive, nothing after
    it but the ask's end; None where the ask is of no such form."""
    from families.wording import HEDGES, NEGATIONS
    if words[:2] != ["how", "many"]:
        return None
    for k in range(2, len(words) - 3):
        noun = words[k + 3]
        if words[k] in _HOLDING and words[k + 1][:1] == "@" and words[k + 2] == "'s" and noun.isalpha() and \
                noun not in _TURNING | _PARTIAL | NEGATIONS | HEDGES and (k + 4 == len(words) or words[k + 4] in
                                                                          _TIME_OPENS | {"at", "in"}):
            return words[:k + 2] + words[k + 4:]
    return None


# That the steps are taken in their order ("in the order shown", "applied in order", "taken in this order"): said of
# every step, it claims nothing, and is read away wherever it stands
_ORDERED = re.compile(r"(?:^| )(?:(?:applied|taken|made|performed|carried out|processed|done) )?in (?:the |this |that )?"
                      r"(?:order|sequence)(?: (?:shown|given|listed|above|stated|described|written|presented))?(?= |$)")


def ordered_away(words: list[str]) -> list[str] | None:
    """The ask without a phrase that says the steps are taken in order ("after all of these changes in the order shown
    how many ..."); None where it holds none."""
    line = " ".join(words)
    out = _ORDERED.sub("", line).split()
    return out if out != words and out else None


# What a gauge shows, asked by its verb ("What does the right dial read?", "What does the meter show at the end?"): the
# question of its reading
_SHOWING = frozenset({"read", "show", "display", "indicate", "register"})


def gauge_read(words: list[str]) -> list[str] | None:
    """ "what does @1 read once all steps are finished" as "what is the reading of @1 once ..."; None where the ask is
    of no such form."""
    if len(words) > 3 and words[:2] == ["what", "does"] and words[2][:1] == "@":
        verb = 3 + 2 * (words[3:4] == ["'s"] and len(words) > 5 and words[4] in _GAUGES)   # "@0 's dial read"
        if words[verb] in _SHOWING:
            return ["what", "is", "the", "reading", "of", words[2]] + words[verb + 1:]
    return None


# The counter's own gauge, by which its count is read ("the violet lamp's dial"): the counter itself; one noun, and
# only one that shows a count, never an owner or a part of another thing ("the lamp's neighbour", "the lamp's old dial")
_GAUGES = frozenset("dial dials gauge meter counter display readout screen indicator tally scale clock".split())


# The end of a period the story runs over ("at the end of the week", "by the close of the morning"): the end itself;
# a period's start or middle is never read so ("at the start of the week" stays as it is)
_PERIODS = frozenset("day week morning afternoon evening night shift trip journey month year season game match round "
                     "contest session tournament voyage race festival fair party".split())


def period_ended(words: list[str]) -> list[str] | None:
    """ "how many stickers does @0 have at the end of the week" as "... at the end"; None where no such end is said."""
    for k in range(len(words) - 5):
        if words[k] in ("at", "by") and words[k + 1] == "the" and words[k + 2] in ("end", "close") and \
                words[k + 3] == "of" and words[k + 4] in ("the", "this", "that") and words[k + 5] in _PERIODS:
            return words[:k] + ["at", "the", "end"] + words[k + 6:]
    return None
