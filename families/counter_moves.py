"""A counter's sentence told as a movement or a holding, composed from its parts and said back in the family's
plainest words: "9 passengers get off the blue bus" as "@1 loses 9 items", "the merchant puts 52 coins into the
silk purse" as "@0 gains 52 items", "the yellow bus has 64 passengers on board at the start" as "@0 starts with 64
items". The way of a movement comes from its verb and its particle (into, onto, aboard: an increase of the counter
after it; out of, off, from: a decrease), never from a verb alone that can go both ways ("get", "drop")."""
from __future__ import annotations

from families.counter_starts import (
    agreed,
    amounts_named,
    holding,
    opened,
    plainer,
    start_time,
    started,
    untallied,
    untimed,
)
from families.counter_words import (
    AGENT_HEADS,
    AGENT_VERBS,
    CARRIER_VERBS,
    CARRIER_WAYS,
    DETS,
    FORBIDDEN,
    HOLDERS,
    IN_ONLY,
    IN_WAYS,
    INTO_VERBS,
    MORE,
    OUT_ONLY,
    OUT_VERBS,
    OUT_WAYS,
    OWN,
    PARTICIPLES,
    SELF_VERBS,
    STEP,
    TOGETHER,
    Words,
    amount,
    is_mark,
    place_tail,
    plain,
)

_BE = frozenset("is are get gets was were".split())



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



def _said(mark: str, sign: int, number: str) -> Words:
    return [mark, "gains" if sign > 0 else "loses", number, "items"]


def _things_move(words: Words) -> Words | None:
    """Things as the subject: "9 items get off @1", "31 items board @0", "48 items are taken out of @0"."""
    got = amount(words, 0, need_items=False)
    if got is None:
        return None
    bare = got[1] == 1   # "96 is added to @0": a bare number only with a verb of adding or taking away
    if bare and not (len(words) > 3 and words[1] in ("is", "was") and words[2] in IN_ONLY | OUT_ONLY):
        return None
    i = got[1] + (got[1] < len(words) and words[got[1]] in STEP)
    i += i + 1 < len(words) and words[i] in _HAVE and words[i + 1] != "been"   # "have boarded": a perfect
    passive = i < len(words) and words[i] in _BE
    k = i + 1 + (passive and i + 1 < len(words) and words[i + 1] in STEP)
    if passive and k + 4 == len(words) and words[k] in CARRIER_VERBS and words[k + 2] == "by" and \
            is_mark(words[-1]) and words[k + 1] in CARRIER_WAYS:   # "are picked up by @0", "are dropped off by @0"
        return _said(words[-1], CARRIER_WAYS[words[k + 1]], got[0])
    if passive and k + 3 == len(words) and words[k] in _TALLIED and words[k + 1] in ("for", "towards", "toward") \
            and is_mark(words[-1]):   # "15 votes are counted for @0"
        return _said(words[-1], 1, got[0])
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
        if sign > 0 and words[j:j + 1] == ["and"]:   # "board and take seats on @0": the verb's way, a place after
            seat = next((m for m in range(j + 2, min(j + 5, len(words))) if words[m] in _SEATED), None)
            if seat is not None and all(plain(w) for w in words[j + 1:seat]) and words[j + 1] in _SETTLING:
                j = seat + 1
        return _closed(words, j, sign, got[0])
    if i < len(words) and words[i] in SELF_VERBS:   # "get off @1", "come back into @0", "climb aboard @0"
        j = i + 1 + (i + 1 < len(words) and words[i + 1] == "back")
        sign, end = _direction(words, j)
        return None if sign == 0 else _closed(words, end, sign, got[0])
    return None


_HAVE = frozenset("have has had".split())
# After a verb of coming in, "and" a verb of settling where the things then are ("board and take seats on @0",
# "enter and settle in @0"): the place is the counter boarded; never a verb of leaving or moving on
_SETTLING = frozenset("take takes find finds settle settles sit sits stay stays wait waits".split())
_SEATED = frozenset("on in inside aboard at".split())
_TALLIED = frozenset("counted cast tallied recorded logged registered scored".split())


def _closed(words: Words, i: int, sign: int, number: str) -> Words | None:
    """The movement's counter at `i`, and then nothing, a place, or the movement's other end ("and onto the
    hillside"); or the other end first, then the counter ("from the field into @0": the second way says it)."""
    if i < len(words) and not is_mark(words[i]):
        j = i + (words[i] == "the")
        while j < min(i + 4, len(words)) and plain(words[j]) and not _direction(words, j)[0]:
            j += 1
        second, end = _direction(words, j)
        # the two ends of one movement go opposite ways ("from the field into @0"); two ways alike ("added to up to
        # @0") are no movement's ends
        return _closed(words, end, second, number) if second == -sign and j > i and end < len(words) and \
            is_mark(words[end]) else None
    if i >= len(words):
        return None
    rest = words[i + 1:]
    if rest[:1] == ["and"] and _direction(rest, 1)[0] == -sign:   # "out of @0 and onto the hillside"
        rest = ["at"] + rest[_direction(rest, 1)[1]:]
    if rest and not place_tail(rest, 0):
        return None
    return _said(words[i], sign, number)


def _agent_moves(words: Words) -> Words | None:
    """Someone moving things: "the merchant puts 52 items into @0", "the next batch adds 77 items to @0", "the first
    batch gives @0 46 more items"."""
    v = _agent_end(words)
    if v is None:
        return None
    verb, i = words[v], v + 1
    if verb in TOGETHER and i < len(words) and is_mark(words[i]):   # "gives @0 46 items"
        got = amount(words, i + 1, need_items=False)
        if got is None or not (got[1] == len(words) or place_tail(words, got[1])):
            return None
        return _said(words[i], 1, got[0])
    i += i < len(words) and words[i] in ("back", "in", "out", "away", "off")
    particle = words[i - 1] if words[i - 1] in ("out", "away", "off", "in") else ""
    got = amount(words, i, need_items=False)
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
    return all((plain(w) or w in _AGENT_ORDINALS) and w not in AGENT_HEADS and w not in DETS for w in body)


def _agent_end(words: Words) -> int | None:
    """Where the verb of an agent's sentence stands: after an agent (`_agent`) and an optional "then"."""
    for v in range(1, min(6, len(words))):
        if words[v] in AGENT_VERBS:   # "a truck delivers": "truck" is a verb too, the agent's noun here
            agent = words[:v]
            if agent[-1] in STEP and len(agent) > 1:
                agent = agent[:-1]
            if _agent(agent):
                return v
    return None


def _given(words: Words) -> Words | None:
    """The counter given things, and by whom or from where: "@0 is given 15 items by the dealer"; or entered or
    left by them: "@0 is boarded by 31 items"."""
    if words[2] in INTO_VERBS | OUT_VERBS and words[3] == "by":
        got = amount(words, 4, need_items=True)
        if got is None or not (got[1] == len(words) or place_tail(words, got[1])):
            return None
        return _said(words[0], 1 if words[2] in INTO_VERBS else -1, got[0])
    got = amount(words, 3, need_items=False)
    if got is None or got[1] >= len(words) or words[got[1]] not in ("by", "from"):
        return None
    return words[:got[1]] if place_tail(["at"] + words[got[1] + 1:], 0) else None


def _carrier(words: Words) -> Words | None:
    """A carrier's change by its phrasal verb: "@0 drops off 9 items", "@0 lets 9 items off", "@0 takes on 31"."""
    k = 1 + (words[1] in STEP)
    if k + 2 >= len(words) or words[k] not in CARRIER_VERBS:
        return None
    if words[k + 1] in CARRIER_WAYS:   # "drops off 9 items"
        got = amount(words, k + 2, need_items=False)
        way = words[k + 1]
    else:   # "lets 9 items off"
        got = amount(words, k + 1, need_items=True)
        way = words[got[1]] if got is not None and got[1] < len(words) else ""
        got = (got[0], got[1] + 1) if got is not None and way in CARRIER_WAYS else None
    if got is None or not (got[1] == len(words) or place_tail(words, got[1])):
        return None
    return _said(words[0], CARRIER_WAYS[way], got[0])


# Verbs of being or holding: a place after one may be what the sentence claims ("is set to 2 at the outset")
_BEING = frozenset("is are was were has have holds contains keeps stores carries starts begins opens".split())


def _own_holder(words: Words) -> Words | None:
    """The counter moving things into or out of what it keeps them in ("@1 loads 73 items onto his card", "@0 takes 5
    items out of her purse"): the way the preposition's; never a verb that says the other way, never another's holder."""
    k = 1 + (words[1] in STEP)
    if k >= len(words) or words[k] not in AGENT_VERBS:
        return None
    got = amount(words, k + 1, need_items=True)
    if got is None:
        return None
    sign, end = _direction(words, got[1])
    verb = words[k]
    if sign == 0 or (verb in IN_ONLY and sign < 0) or (verb in OUT_ONLY and sign > 0) or end + 2 != len(words) or \
            words[end] not in OWN or words[end + 1] not in HOLDERS:
        return None
    return _said(words[0], sign, got[0])



def _subject_tail(words: Words) -> Words | None:
    """A counter's own change with a place after it ("@0 spends 94 items at the prize counter", "@0 then adds 77
    items to his album"): the place read away."""
    if len(words) > 3 and is_mark(words[0]) and words[1] in ("is", "gets") and \
            words[2] in TOGETHER | INTO_VERBS | OUT_VERBS:
        return _given(words)   # "@0 is given 15 items by the dealer"
    if not words or not is_mark(words[0]) or len(words) < 2 or words[1] in _BEING:
        return None
    carried = _carrier(words) or _own_holder(words)
    if carried is not None:
        return carried
    for k in range(2, len(words) - 1):
        if words[k].isdigit():
            end = k + 1 + (k + 1 < len(words) and words[k + 1] in MORE)
            end += end < len(words) and words[end] in ("items", "item")
            if end < len(words) and place_tail(words, end, given=words[1] not in IN_ONLY and words[2:3] != ["in"]):
                return words[:end]   # "sells 12 items to a family": given away; "adds 5 items to the box": not its own
            return None
    return None



def movement(words: Words, timed: bool = False) -> Words | None:
    """The sentence's core in the family's plainest words, or None where it is no movement or holding this reads
    (a word that hedges or negates, a sign, two counters, a verb without its way). `timed`: an opener before it
    said the start."""
    if any(w in FORBIDDEN or not (w.isalnum() or is_mark(w)) for w in words):
        return None
    if sum(is_mark(w) for w in words) != 1:
        return None   # two counters: a transfer is no one change of one counter
    words = started(amounts_named(agreed(words)))
    cut, inside = start_time(words)
    held = holding(cut, timed or inside)
    if held is not None or inside:
        return held
    return _things_move(words) or _agent_moves(words) or _subject_tail(words)



def canonical(words: Words) -> Words:
    """The words with their core (after any opener) as a movement or start in the family's plainest words, or
    as they were. Where an opener of a step by its time stands before the core, its end is the core's start ("at
    the next stop, the driver ...": never an agent "stop the driver")."""
    found, words = None, untallied(words)
    for k in range(min(len(words), 8)):
        raw = words[:k]
        before = untimed(raw) if k else None   # the opener without the start's time it says
        timed = before is not None
        prefix = opened(raw)
        core = movement(words[k:], timed)
        if core is not None and timed and found is None and core[1:3] == ["starts", "with"]:   # said by "starts"
            return (before or []) + core
        if core is not None and (prefix != words[:k] or found is None):
            found = prefix + core
            if prefix != words[:k]:
                break
    return found if found is not None else plainer(words)


