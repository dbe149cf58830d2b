"""A counter's start as a holding or a start's verb with its time anywhere ("the yellow bus has 64 passengers on
board at the start"), the openers of a step by its time ("at the next stop"), and the rewrites that only say the same
thing plainer (a plural counter's verb as of one, "a score of 12" as 12): parts of families/counter_moves.py."""
from __future__ import annotations

from families.counter_words import (
    AGREEMENT,
    HOLD_VERBS,
    HOLDERS,
    OWN,
    POSED,
    START_TIMES,
    START_VERBS,
    STEP,
    THERE_PLACES,
    Words,
    amount,
    is_mark,
    place_tail,
    plain,
)


def _by_word(at: int) -> dict[str, tuple[tuple[str, ...], ...]]:
    """START_TIMES by their word at `at` (0: the first, -1: the last), each word's phrases in START_TIMES's order."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in START_TIMES:
        out.setdefault(phrase[at], []).append(phrase)
    return {word: tuple(phrases) for word, phrases in out.items()}


# A phrase can stand at a place only where its first word does, and end only where its last word does: a sentence's
# words are looked up, not compared with each of the 194 phrases at each place (the most time of a step's reading)
_STARTING, _ENDING = _by_word(0), _by_word(-1)


def start_time(words: Words) -> tuple[Words, bool]:
    """The words without a phrase of the start ("at the start", "to begin with", "when the doors open"), wherever
    it stands after the first word, and whether one stood there."""
    for n in range(len(words) - 1, 0, -1):
        for phrase in _STARTING.get(words[n], ()):
            if tuple(words[n:n + len(phrase)]) == phrase:
                return words[:n] + words[n + len(phrase):], True
        end = _when_begun(words, n)
        if end:
            return words[:n] + words[end:], True
    return words, False


_BEGUN = frozenset("begins begin starts start opens open".split())


def _when_begun(words: Words, n: int) -> int:
    """The end of "when the day begins", "when the doors open" (any one or two plain words) at `n`, or 0."""
    if words[n:n + 2] != ["when", "the"]:
        return 0
    for end in (n + 4, n + 5):
        if end <= len(words) and words[end - 1] in _BEGUN and all(plain(w) for w in words[n + 2:end - 1]):
            return end
    return 0


def holding(words: Words, timed: bool) -> Words | None:
    """A start said as a holding: "@0 has 64 items on board", "there are 5 items in @0", "5 items sit in @0"."""
    if len(words) >= 3 and is_mark(words[0]):
        for verb in HOLD_VERBS + START_VERBS:
            if tuple(words[1:1 + len(verb)]) == verb:
                got = amount(words, 1 + len(verb), need_items=False)
                if got is not None and got[1] < len(words) and words[got[1]] in POSED and \
                        words[got[1] - 1] in ("items", "item"):
                    got = (got[0], got[1] + 1)   # "begins with 85 items waiting (on board)": where they are
                if got is None or not (got[1] == len(words) or place_tail(words, got[1])):
                    return None
                if verb in HOLD_VERBS and not timed:
                    return None   # "@0 has 40 items": a start only with a word of the start (the grammar's own reads)
                return [words[0], "starts", "with", got[0], "items"]
        return None
    k = 2 if words[:1] == ["there"] and len(words) > 1 and words[1] in ("is", "are", "was", "were") else 0
    got = amount(words, k, need_items=True)
    if got is None or not timed:
        return None
    j = got[1] + (k == 0 and got[1] < len(words) and words[got[1]] in ("is", "are", "sit", "sits", "wait", "waits"))
    j += j < len(words) and words[j] == "already"   # "64 visitors are already inside @0 when the doors open"
    for place in THERE_PLACES:
        if tuple(words[j:j + len(place)]) == place and j + len(place) == len(words) - 1 and is_mark(words[-1]):
            return [words[-1], "starts", "with", got[0], "items"]
    return None


def agreed(words: Words) -> Words:
    """A counter named in the plural ("the Badgers gain 7 points", "the Otters open with 54"): its verb said as
    of one."""
    if not words or not is_mark(words[0]):
        return words
    k = 1 + (len(words) > 2 and words[1] in STEP)
    if k < len(words):
        third = AGREEMENT.get(words[k])
        if third is not None:
            return words[:k] + [third] + words[k + 1:]
    return words


# An amount named as a noun ("a score of 12", "a deposit of 45 credits", "another batch of 9"): the number itself
_AMOUNT_NOUNS = frozenset("score count total tally balance stock supply sum deposit delivery shipment batch load "
                          "payment donation gift transfer haul boost bonus credit consignment lot crowd group "
                          "influx wave".split())
_AMOUNT_ADJ = frozenset("initial starting opening new fresh further single".split())


def amounts_named(words: Words) -> Words:
    """The words with "a [new] NOUN of N" as "N" (`_AMOUNT_NOUNS`)."""
    for k, w in enumerate(words):
        if w in ("a", "an", "one"):
            j = k + 1 + (k + 1 < len(words) and words[k + 1] in _AMOUNT_ADJ)
            if j + 2 < len(words) and words[j] in _AMOUNT_NOUNS and words[j + 1] == "of" and words[j + 2].isdigit():
                return words[:k] + words[j + 2:]
    return words


_PERIOD_STARTS = frozenset("starts begins opens enters".split())


def started(words: Words) -> Words:
    """"@0 starts the count with 21" as "@0 starts with 21": a start of any one-word period or tally, or a
    setting out from any place ("@0 leaves the depot with 64", "@0 pulls out of the yard with 64")."""
    if len(words) < 5 or not is_mark(words[0]):
        return words
    k = 2
    if words[1] not in _PERIOD_STARTS:
        k = next((1 + len(d) for d in _DEPARTS if tuple(words[1:1 + len(d)]) == d), 0)
    if k and k + 2 < len(words) and words[k] in ("the", "its", "their") and plain(words[k + 1]) and \
            words[k + 2] == "with":
        return [words[0], "starts"] + words[k + 2:]
    return words


# Setting out from a place ("leaves the depot with 64 passengers"): a start, as the place is no later time
_DEPARTS = tuple(tuple(w.split()) for w in ("sets out from", "sets off from", "pulls out of", "departs from",
                                              "rolls out of", "leaves", "departs"))


_TIME_NOUNS = frozenset("morning afternoon evening night day week noon midnight dawn dusk sunset sunrise hour "
                        "minute moment time month year season turn round stage step phase meantime while".split())
_ORDINAL_STEPS = frozenset("next following second third fourth fifth sixth seventh eighth ninth tenth subsequent "
                           "later".split())
_OPENER_PREPS = frozenset("at on in during after with by".split())


def opened(prefix: Words) -> Words:
    """An opener of a step by its time ("at the next stop", "on the final turn"): said as "then", "first" or
    "finally"; a place it ends in read away ("then, at the station,"); any other prefix as it stands."""
    for n in (3, 4):   # never a time ("in the evening" may be after the updates: a start's opener must say so)
        if len(prefix) > n and prefix[-n] in ("at", "in", "on", "inside", "outside") and \
                place_tail(prefix, len(prefix) - n) and prefix[-1] not in _TIME_NOUNS:
            return opened(prefix[:-n])
    if len(prefix) == 4 and prefix[0] in _OPENER_PREPS and prefix[1] == "the" and plain(prefix[3]):
        which = prefix[2]
        if which in _ORDINAL_STEPS:
            return ["then"]
        if which == "first":
            return ["first"]
        if which in ("last", "final"):
            return ["finally"]
    return prefix


def untimed(prefix: Words) -> Words | None:
    """The prefix without the start's time it ends in ("early in the morning", "to begin with", "when the doors
    open"), or None where it ends in none ("at opening time" is no "at opening" and a word more)."""
    for t in _ENDING.get(prefix[-1], ()) if prefix else ():   # longest first: "early in the morning" whole
        if len(t) <= len(prefix) and tuple(prefix[-len(t):]) == t:
            return _more_untimed(prefix[:-len(t)])   # "when the doors open in the morning"
    for n in range(len(prefix) - 3):
        if _when_begun(prefix, n) == len(prefix):
            return _more_untimed(prefix[:n])
    return None


def _more_untimed(prefix: Words) -> Words:
    """The prefix without every start's time it ends in, one after another."""
    rest = untimed(prefix) if prefix else None
    return prefix if rest is None else rest


def plainer(words: Words) -> Words:
    """The words with what only says the same thing plainer: the opener of a step by its time, a plural counter's
    verb as of one, an amount named as a noun, a period started."""
    m = next((k for k, w in enumerate(words) if is_mark(w)), None)
    if m is None:
        return amounts_named(words)
    core = words[m:] if m and words[m - 1] in _BASE_BEFORE else started(agreed(words[m:]))
    return amounts_named(opened(words[:m]) + core)


# What a counter's own tally is called: "the yellow bus's account", "Mira's total" are the counter itself
_TALLIES = frozenset("account count total tally value stock supply inventory contents balance holdings reserves score "
                     "collection pile fund funds hoard store kitty pot savings headcount "
                     # its gauge, by which its count is set and read ("the violet lamp's dial is turned up by 8")
                     "dial gauge meter readout display".split())


def untallied(words: Words) -> Words:
    """The words with a counter's own tally ("@0 's account") as the counter, and a change said into its own tally at
    the end read away ("@0 then adds 84 items to its total": the count itself)."""
    out: Words = []
    i = 0
    while i < len(words):
        if i + 3 == len(words) and i and words[i] in ("to", "into", "onto", "from") and words[i + 1] in OWN and \
                words[i + 2] in _TALLIES and (words[i - 1] in ("items", "item") or words[i - 1].isdigit()):
            break
        if is_mark(words[i]) and words[i + 1:i + 2] == ["'s"] and i + 2 < len(words) and \
                words[i + 2] in _TALLIES | HOLDERS:   # "@0 's card": what it keeps its things in
            out.append(words[i])
            i += 3
            continue
        out.append(words[i])
        i += 1
    return out


# After these the counter's verb is in its base form whatever its number ("let @0 start at 6")
_BASE_BEFORE = frozenset("let lets make makes will would shall should can could must to did does do".split())
