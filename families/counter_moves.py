"""A counter's sentence told as a movement or a holding, composed from its parts and said back in the family's
plainest words: "9 passengers get off the blue bus" as "@1 loses 9 items", "the merchant puts 52 coins into the
silk purse" as "@0 gains 52 items", "the yellow bus has 64 passengers on board at the start" as "@0 starts with 64
items". The way of a movement comes from its verb and its particle (into, onto, aboard: an increase of the counter
after it; out of, off, from: a decrease), never from a verb alone that can go both ways ("get", "drop")."""
from __future__ import annotations

from families.counter_words import (
    AGENT_HEADS,
    AGENT_VERBS,
    AGREEMENT,
    CARRIER_VERBS,
    CARRIER_WAYS,
    FORBIDDEN,
    HOLD_VERBS,
    IN_ONLY,
    IN_WAYS,
    INTO_VERBS,
    OUT_ONLY,
    OUT_VERBS,
    OUT_WAYS,
    OWN_PLACES,
    PARTICIPLES,
    SELF_VERBS,
    START_TIMES,
    START_VERBS,
    THERE_PLACES,
    TOGETHER,
    plain,
)

Words = list[str]
_BE = frozenset("is are get gets was were".split())
_MORE = frozenset("more additional extra further new fresh".split())
_STEP = frozenset("then next later also now again".split())
_DETS = frozenset("the a an his her its their this that some one".split())
_PLACE_PREPS = frozenset("at on in inside during for near by from within across along aboard".split())
_OWN = frozenset("his her its their".split())


def _mark(w: str) -> bool:
    return w[:1] == "@" and w[1:].isdigit()


def _way(words: Words, i: int, ways: tuple[tuple[str, ...], ...]) -> int:
    """The end of the longest way (`IN_WAYS` or `OUT_WAYS`) at `i`, or -1."""
    for way in ways:
        if tuple(words[i:i + len(way)]) == way:
            return i + len(way)
    return -1


def _direction(words: Words, i: int) -> tuple[int, int]:
    """(+1 or -1, end) of the way at `i`, or (0, -1)."""
    end = _way(words, i, IN_WAYS)
    if end >= 0:
        return 1, end
    end = _way(words, i, OUT_WAYS)
    return (-1, end) if end >= 0 else (0, -1)


def _amount(words: Words, i: int, need_items: bool) -> tuple[str, int] | None:
    """(the number, the end) of "N [more] items" at `i` (items optional unless `need_items`)."""
    if i >= len(words) or not words[i].isdigit():
        return None
    j = i + 1 + (i + 1 < len(words) and words[i + 1] in _MORE)
    if j < len(words) and words[j] in ("items", "item"):
        return words[i], j + 1
    return None if need_items or j > i + 1 else (words[i], i + 1)


def place_tail(words: Words, i: int, given: bool = False) -> bool:
    """Whether words[i:] is a place that says nothing of a count ("at the prize counter", "in his album", "on
    board", "on it"): a preposition, a determiner or none, and one to three plain words."""
    rest = words[i:]
    if not rest or tuple(rest) in OWN_PLACES:
        return bool(rest)
    if rest[0] not in _PLACE_PREPS and rest[0] not in ("to", "into", "onto"):
        return False
    if rest[0] in ("to", "into", "onto") and not given and (len(rest) < 2 or rest[1] not in _OWN):
        return False   # "adds 5 coins to the box" moves them elsewhere: only the counter's own place ("to his album")
    body = rest[1:]
    if body[:1] and body[0] in _DETS:
        body = body[1:]
    return 1 <= len(body) <= 3 and all(plain(w) for w in body)


def _start_time(words: Words) -> tuple[Words, bool]:
    """The words without a phrase of the start ("at the start", "to begin with", "when the doors open"), wherever
    it stands after the first word, and whether one stood there."""
    for n in range(len(words) - 1, 0, -1):
        for phrase in START_TIMES:
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


def _holding(words: Words, timed: bool) -> Words | None:
    """A start said as a holding: "@0 has 64 items on board", "there are 5 items in @0", "5 items sit in @0"."""
    if len(words) >= 3 and _mark(words[0]):
        for verb in HOLD_VERBS + START_VERBS:
            if tuple(words[1:1 + len(verb)]) == verb:
                got = _amount(words, 1 + len(verb), need_items=False)
                if got is None or not (got[1] == len(words) or place_tail(words, got[1])):
                    return None
                if verb in HOLD_VERBS and not timed:
                    return None   # "@0 has 40 items": a start only with a word of the start (the grammar's own reads)
                return [words[0], "starts", "with", got[0], "items"]
        return None
    k = 2 if words[:1] == ["there"] and len(words) > 1 and words[1] in ("is", "are", "was", "were") else 0
    got = _amount(words, k, need_items=True)
    if got is None or not timed:
        return None
    j = got[1] + (k == 0 and got[1] < len(words) and words[got[1]] in ("is", "are", "sit", "sits", "wait", "waits"))
    j += j < len(words) and words[j] == "already"   # "64 visitors are already inside @0 when the doors open"
    for place in THERE_PLACES:
        if tuple(words[j:j + len(place)]) == place and j + len(place) == len(words) - 1 and _mark(words[-1]):
            return [words[-1], "starts", "with", got[0], "items"]
    return None


def _said(mark: str, sign: int, number: str) -> Words:
    return [mark, "gains" if sign > 0 else "loses", number, "items"]


def _things_move(words: Words) -> Words | None:
    """Things as the subject: "9 items get off @1", "31 items board @0", "48 items are taken out of @0"."""
    got = _amount(words, 0, need_items=False)
    if got is None:
        return None
    bare = got[1] == 1   # "96 is added to @0": a bare number only with a verb of adding or taking away
    if bare and not (len(words) > 3 and words[1] in ("is", "was") and words[2] in IN_ONLY | OUT_ONLY):
        return None
    i = got[1] + (got[1] < len(words) and words[got[1]] in _STEP)
    passive = i < len(words) and words[i] in _BE
    k = i + 1 + (passive and i + 1 < len(words) and words[i + 1] in _STEP)
    if passive and k + 4 == len(words) and words[k] in CARRIER_VERBS and words[k + 2] == "by" and \
            _mark(words[-1]) and words[k + 1] in CARRIER_WAYS:   # "are picked up by @0", "are dropped off by @0"
        return _said(words[-1], CARRIER_WAYS[words[k + 1]], got[0])
    if passive and k < len(words) and words[k] in PARTICIPLES:   # "are taken out of", "are added to"
        verb, i = words[k], k + 1
        i += i < len(words) and words[i] == "back"
        sign, end = _direction(words, i)
        if sign == 0 or (verb in IN_ONLY and sign < 0) or (verb in OUT_ONLY and sign > 0):
            return None
        return _closed(words, end, sign, got[0])
    if i < len(words) and words[i] in INTO_VERBS | OUT_VERBS:   # "board @0", "leave @0", "join the crowd in @0"
        sign = 1 if words[i] in INTO_VERBS else -1
        j = i + 1
        if sign > 0 and j + 2 < len(words) and words[j] == "the" and plain(words[j + 1]) and \
                words[j + 2] in ("in", "at", "on", "inside", "aboard"):
            j += 3   # "join the crowd in @0"
        if j < len(words) and words[j] in ("from",) and sign < 0:
            j += 1   # "depart from @0"
        return _closed(words, j, sign, got[0])
    if i < len(words) and words[i] in SELF_VERBS:   # "get off @1", "come back into @0", "climb aboard @0"
        j = i + 1 + (i + 1 < len(words) and words[i + 1] == "back")
        sign, end = _direction(words, j)
        return None if sign == 0 else _closed(words, end, sign, got[0])
    return None


def _closed(words: Words, i: int, sign: int, number: str) -> Words | None:
    """The movement's counter at `i`, and then nothing or a place."""
    if i >= len(words) or not _mark(words[i]):
        return None
    if i + 1 < len(words) and not place_tail(words, i + 1):
        return None
    return _said(words[i], sign, number)


def _agent_moves(words: Words) -> Words | None:
    """Someone moving things: "the merchant puts 52 items into @0", "the next batch adds 77 items to @0", "the first
    batch gives @0 46 more items"."""
    v = _agent_end(words)
    if v is None:
        return None
    verb, i = words[v], v + 1
    if verb in TOGETHER and i < len(words) and _mark(words[i]):   # "gives @0 46 items"
        got = _amount(words, i + 1, need_items=False)
        if got is None or not (got[1] == len(words) or place_tail(words, got[1])):
            return None
        return _said(words[i], 1, got[0])
    i += i < len(words) and words[i] in ("back", "in", "out", "away", "off")
    particle = words[i - 1] if words[i - 1] in ("out", "away", "off", "in") else ""
    got = _amount(words, i, need_items=False)
    if got is None:
        return None
    j = got[1] + (got[1] < len(words) and words[got[1]] == "back")
    sign, end = _direction(words, j)
    if sign == 0 or (verb in IN_ONLY and sign < 0) or (verb in OUT_ONLY and sign > 0) or \
            (particle in ("out", "away", "off") and sign > 0) or (particle == "in" and sign < 0):
        return None
    return _closed(words, end, sign, got[0])


_AGENT_ORDINALS = frozenset("first last next".split())   # "the first batch gives @0 46 items": a step's agent
_AGENT_DETS = frozenset("the a an his her their one some each".split())


def _agent(words: Words) -> bool:
    """Who moves things: a pronoun alone ("she"), a determiner and one to three plain words ("the next batch"), or
    one plain word of a name ("Mira"): never an opener's words ("at the next stop Mira")."""
    if len(words) == 1 and words[0] in AGENT_HEADS:
        return True
    body = words[1:] if words[0] in _AGENT_DETS else words
    if not 1 <= len(body) <= (3 if body is not words else 1):
        return False
    return all((plain(w) or w in _AGENT_ORDINALS) and w not in AGENT_HEADS and w not in _DETS for w in body)


def _agent_end(words: Words) -> int | None:
    """Where the verb of an agent's sentence stands: after an agent (`_agent`) and an optional "then"."""
    for v in range(1, min(6, len(words))):
        if words[v] in AGENT_VERBS:   # "a truck delivers": "truck" is a verb too, the agent's noun here
            agent = words[:v]
            if agent[-1] in _STEP and len(agent) > 1:
                agent = agent[:-1]
            if _agent(agent):
                return v
    return None


def _given(words: Words) -> Words | None:
    """The counter given things, and by whom or from where: "@0 is given 15 items by the dealer"."""
    got = _amount(words, 3, need_items=False)
    if got is None or got[1] >= len(words) or words[got[1]] not in ("by", "from"):
        return None
    return words[:got[1]] if place_tail(["at"] + words[got[1] + 1:], 0) else None


def _carrier(words: Words) -> Words | None:
    """A carrier's change by its phrasal verb: "@0 drops off 9 items", "@0 lets 9 items off", "@0 takes on 31"."""
    k = 1 + (words[1] in _STEP)
    if k + 2 >= len(words) or words[k] not in CARRIER_VERBS:
        return None
    if words[k + 1] in CARRIER_WAYS:   # "drops off 9 items"
        got = _amount(words, k + 2, need_items=False)
        way = words[k + 1]
    else:   # "lets 9 items off"
        got = _amount(words, k + 1, need_items=True)
        way = words[got[1]] if got is not None and got[1] < len(words) else ""
        got = (got[0], got[1] + 1) if got is not None and way in CARRIER_WAYS else None
    if got is None or not (got[1] == len(words) or place_tail(words, got[1])):
        return None
    return _said(words[0], CARRIER_WAYS[way], got[0])


# Verbs of being or holding: a place after one may be what the sentence claims ("is set to 2 at the outset")
_BEING = frozenset("is are was were has have holds contains keeps stores carries starts begins opens".split())


def _subject_tail(words: Words) -> Words | None:
    """A counter's own change with a place after it ("@0 spends 94 items at the prize counter", "@0 then adds 77
    items to his album"): the place read away."""
    if len(words) > 3 and _mark(words[0]) and words[1] in ("is", "gets") and words[2] in TOGETHER:
        return _given(words)   # "@0 is given 15 items by the dealer"
    if not words or not _mark(words[0]) or len(words) < 2 or words[1] in _BEING:
        return None
    carried = _carrier(words)
    if carried is not None:
        return carried
    for k in range(2, len(words) - 1):
        if words[k].isdigit():
            end = k + 1 + (k + 1 < len(words) and words[k + 1] in _MORE)
            end += end < len(words) and words[end] in ("items", "item")
            if end < len(words) and place_tail(words, end, given=words[1] not in IN_ONLY and words[2:3] != ["in"]):
                return words[:end]   # "sells 12 items to a family": given away; "adds 5 items to the box": not its own
            return None
    return None


def _plural_agreement(words: Words) -> Words:
    """A counter named in the plural ("the Badgers gain 7 points", "the Otters open with 54"): its verb said as
    of one."""
    if not words or not _mark(words[0]):
        return words
    k = 1 + (len(words) > 2 and words[1] in _STEP)
    if k < len(words):
        third = AGREEMENT.get(words[k])
        if third is not None:
            return words[:k] + [third] + words[k + 1:]
    return words


def movement(words: Words, timed: bool = False) -> Words | None:
    """The sentence's core in the family's plainest words, or None where it is no movement or holding this reads
    (a word that hedges or negates, a sign, two counters, a verb without its way). `timed`: an opener before it
    said the start."""
    if any(w in FORBIDDEN or not (w.isalnum() or _mark(w)) for w in words):
        return None
    if sum(_mark(w) for w in words) != 1:
        return None   # two counters: a transfer is no one change of one counter
    words = _started(_amounts(_plural_agreement(words)))
    cut, inside = _start_time(words)
    held = _holding(cut, timed or inside)
    if held is not None or inside:
        return held
    return _things_move(words) or _agent_moves(words) or _subject_tail(words)


# An amount named as a noun ("a score of 12", "a deposit of 45 credits", "another batch of 9"): the number itself
_AMOUNT_NOUNS = frozenset("score count total tally balance stock supply sum deposit delivery shipment batch load "
                          "payment donation gift transfer haul boost bonus credit consignment lot crowd group "
                          "influx wave".split())
_AMOUNT_ADJ = frozenset("initial starting opening new fresh further single".split())


def _amounts(words: Words) -> Words:
    """The words with "a [new] NOUN of N" as "N" (`_AMOUNT_NOUNS`)."""
    for k, w in enumerate(words):
        if w in ("a", "an", "one"):
            j = k + 1 + (k + 1 < len(words) and words[k + 1] in _AMOUNT_ADJ)
            if j + 2 < len(words) and words[j] in _AMOUNT_NOUNS and words[j + 1] == "of" and words[j + 2].isdigit():
                return words[:k] + words[j + 2:]
    return words


_PERIOD_STARTS = frozenset("starts begins opens enters".split())


def _started(words: Words) -> Words:
    """"@0 starts the count with 21" as "@0 starts with 21": a start of any one-word period or tally."""
    if len(words) > 4 and _mark(words[0]) and words[1] in _PERIOD_STARTS and words[2] in ("the", "its", "their") \
            and plain(words[3]) and words[4] == "with":
        return [words[0], "starts"] + words[4:]
    return words


_TIME_NOUNS = frozenset("morning afternoon evening night day week noon midnight dawn dusk sunset sunrise hour "
                        "minute moment time month year season turn round stage step phase meantime while".split())
_ORDINAL_STEPS = frozenset("next following second third fourth fifth sixth seventh eighth ninth tenth subsequent "
                           "later".split())
_OPENER_PREPS = frozenset("at on in during after with by".split())


def _opened(prefix: Words) -> Words:
    """An opener of a step by its time ("at the next stop", "on the final turn"): said as "then", "first" or
    "finally"; a place it ends in read away ("then, at the station,"); any other prefix as it stands."""
    for n in (3, 4):   # never a time ("in the evening" may be after the updates: a start's opener must say so)
        if len(prefix) > n and prefix[-n] in ("at", "in", "on", "inside", "outside") and \
                place_tail(prefix, len(prefix) - n) and prefix[-1] not in _TIME_NOUNS:
            return _opened(prefix[:-n])
    if len(prefix) == 4 and prefix[0] in _OPENER_PREPS and prefix[1] == "the" and plain(prefix[3]):
        which = prefix[2]
        if which in _ORDINAL_STEPS:
            return ["then"]
        if which == "first":
            return ["first"]
        if which in ("last", "final"):
            return ["finally"]
    return prefix


def canonical(words: Words) -> Words:
    """The words with their core (after any opener) as a movement or start in the family's plainest words, or
    as they were. Where an opener of a step by its time stands before the core, its end is the core's start ("at
    the next stop, the driver ...": never an agent "stop the driver")."""
    found = None
    for k in range(min(len(words), 8)):
        raw = words[:k]
        untimed = _untimed(raw) if k else None
        timed = untimed is not None
        prefix = _opened(raw)
        core = movement(words[k:], timed)
        if core is not None and timed and found is None and core[1:3] == ["starts", "with"]:   # said by "starts"
            return (untimed or []) + core
        if core is not None and (prefix != words[:k] or found is None):
            found = prefix + core
            if prefix != words[:k]:
                break
    return found if found is not None else _light(words)


def _untimed(prefix: Words) -> Words | None:
    """The prefix without the start's time it ends in or holds ("early in the morning", "to begin with"), or None
    where it says none."""
    for t in START_TIMES:   # longest first: "early in the morning" whole
        if len(t) <= len(prefix) and tuple(prefix[-len(t):]) == t:
            return _more_untimed(prefix[:-len(t)])   # "when the doors open in the morning"
    cut, timed = _start_time(["", *prefix])
    return _more_untimed(cut[1:]) if timed else None


def _more_untimed(prefix: Words) -> Words:
    rest = _untimed(prefix) if prefix else None
    return prefix if rest is None else rest


def _light(words: Words) -> Words:
    """The words with what only says the same thing plainer: the opener of a step by its time, a plural counter's
    verb as of one, an amount named as a noun, a period started."""
    m = next((k for k, w in enumerate(words) if _mark(w)), None)
    if m is None:
        return _amounts(words)
    core = words[m:] if m and words[m - 1] in _BASE_BEFORE else _started(_plural_agreement(words[m:]))
    return _amounts(_opened(words[:m]) + core)


# After these the counter's verb is in its base form whatever its number ("let @0 start at 6")
_BASE_BEFORE = frozenset("let lets make makes will would shall should can could must to did does do".split())
