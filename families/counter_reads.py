"""sequential_state_update's free-English forms, composed (read, never written): things moved into or out of a
counter by any verb of moving (the preposition says which way), things that walk or pour in or out, a start of a
named period ("begins the morning with"), and the words a counter's own sentences may wrap it in ("the count at
the north gate", "is then increased") read away."""
from __future__ import annotations

from families.phrases import expand

# Verbs of moving things, as participles ("80 pails are poured into"): the preposition after one says the way, into
# the counter (an increase) or out of it (a decrease). A verb that says its own way is only read that way.
_MOVED = ("poured pumped tossed thrown dropped put placed stocked loaded moved carried brought sent shipped delivered "
          "transferred led herded driven wheeled rolled packed stacked piled tipped dumped emptied drained scooped "
          "fished pulled lifted hauled carted trucked ferried flown slid pushed spooned shoveled shovelled ladled "
          "siphoned released walked guided ushered paid posted sold fed returned collected gathered picked cleared "
          "unloaded offloaded tapped bailed raked swept wheeled marched steered poured filed passed tipped").split()
_INTO_ONLY = "added credited deposited admitted".split()
_OUT_ONLY = "removed debited withdrawn taken deducted subtracted".split()
_INTO = "(into|in to|onto|on to|to|in|inside|over to|up to|down into|back into|back to|in at)"
_OUT = "(from|out of|out from|off|off of|away from|from inside|back out of|out)"
# Verbs of things that move themselves ("16 visitors walk into", "76 visitors pass through the north gate")
# Verbs of things that move themselves ("16 visitors walk into", "76 visitors pass through the north gate"), plural
# only: their third person forms are count nouns too ("71 scoops", "8 files"), which a phrasing's word never is
_GO = ("walk pass come go march stream pour flow file crowd wander step move roll run hurry troop drift trickle climb "
       "fly swim squeeze pile check stroll").split()
_GO_IN = "(into|in to|onto|inside|through|in through|in at|in|aboard)"
_GO_OUT = "(out of|out from|away from|off|out through|from)"
_BE = "(is|are|get|gets|were|was|have been|has been)"
# A period a counter starts ("The slate bin begins the morning with 71 scoops", "Team Heron begins the game with 28")
PERIODS = "|".join(expand("starts|begins|opens|starts out|kicks off|enters|starts off", "the|its",
                          "day|morning|week|game|match|season|year|month|evening|night|shift|session|round|quarter|"
                          "journey|trip|voyage|race|contest|tournament|term|semester|period|afternoon"))
# Before a start only: the start of a period ("In the morning, the west shelf holds 46 books", "At opening, ...");
# never a later time ("In the evening, X has 40" may be after the updates)
START_OPENERS = expand("in the|early in the|at the start of the|at the beginning of the|at the outset of the",
                       "morning|day|week|game|match|season|year|month|shift|session|journey|trip|voyage") + \
    ("at opening", "at the opening", "on opening", "at daybreak", "at first light", "at sunrise", "at the opening bell") + \
    expand("at the same|at that same|at this same", "time|moment")   # a start said with the start before it
# Ordinals past "fifth" ("Sixth, Ledger Beta gains 73 coins"); with "and last" they open the last step
ORDINALS = tuple("sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth "
                 "seventeenth eighteenth nineteenth twentieth".split())
LAST_ORDINALS = expand("first|second|third|fourth|fifth|" + "|".join(ORDINALS), "and last|and finally|and final")


def moved_reads(items: str, who: str) -> dict[str, tuple[str, ...]]:
    """INCREMENT and DECREMENT read by a verb of moving and the way its preposition says, passive ("44 books are
    stocked onto the east shelf"), active ("a clerk tosses 5 coins into the jar") or of things moving themselves."""
    into = "(" + "|".join(_MOVED + _INTO_ONLY) + ")"
    out = "(" + "|".join(_MOVED + _OUT_ONLY) + ")"
    acts = "(" + "|".join(_ACTIVE) + ")"
    go = "(" + "|".join(_GO) + ")"
    return {
        "INCREMENT": (f"{{1}} {items} {_BE} [then] {into} {_INTO} {{0}}",
                      f"{who} {acts} {{1}} {items} {_INTO} {{0}}",
                      f"{{1}} {items} [then] {go} {_GO_IN} {{0}}"),
        "DECREMENT": (f"{{1}} {items} {_BE} [then] {out} {_OUT} {{0}}",
                      f"{who} {acts} {{1}} {items} {_OUT} {{0}}",
                      f"{{1}} {items} [then] {go} {_GO_OUT} {{0}}")}


# The same verbs as an agent says them ("a clerk tosses 5 coins into the jar"): only those that are no count noun too
# (a word of a phrasing is never read as the noun counted: "71 scoops", "3 loads" must stay counts)
_ACTIVE = ("pours tosses throws puts moves carries brings sends ships delivers leads herds drives empties drains "
           "pulls hauls ferries pushes siphons releases guides ushers sells collects gathers clears unloads offloads "
           "marches steers fishes").split()


# Words that wrap a counter and say nothing more: "the count at the north gate" is the north gate's number, and
# "is then increased" is "is increased" (an update's place in the list, as its opener says it)
_WRAPS = frozenset("count total tally value stock supply inventory amount contents balance holdings reserves score "
                   "reading figure level headcount".split())
_WRAP_OF = frozenset("of at in for on".split())
_STEP_WORDS = frozenset("then next later subsequently again now afterwards".split())
_AFTER_STEP = frozenset("is are was were gets get".split())
UPDATES = frozenset({"INCREMENT", "DECREMENT"})


def unwrapped(predicate: str, words: list[str]) -> list[str]:
    """A counter's sentence (or its question) with "the count of X" as X and, in an update, "then" after X or an
    auxiliary read away ("Counter P is then decremented by 22")."""
    out: list[str] = []
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        if w == "the" and i + 3 < n and words[i + 1] in _WRAPS and words[i + 2] in _WRAP_OF and words[i + 3][:1] == "@":
            i += 3   # "the count at @0" -> "@0"
            continue
        if predicate in UPDATES and w in _STEP_WORDS and out and (out[-1][:1] == "@" or out[-1] in _AFTER_STEP):
            i += 1
            continue
        out.append(w)
        i += 1
    return out


# Verbs that set a dial or a level by a particle that says the way ("the violet lamp is turned up by 8", "turn the
# tally down by 3"): up an increase, down a decrease, always "by" the step. "Turned up to 40" sets a value (no step: never
# read); a verb that says a way of its own ("raised", "cut") is the grammar's, never here with the other particle.
_TURNED = "(turned|dialled|dialed|cranked|pushed|bumped|ramped|stepped|notched|ratcheted|nudged|ticked|jacked|" \
          "wound|moved|shifted|adjusted|marked|scaled|pulled|brought|kicked)"
# said by someone in its base or past form only: a third person form is a count noun too ("4 turns", "8 notches"), which
# a phrasing's word never is
_TURN = "(turn|dial|crank|push|bump|ramp|nudge|jack|wind|adjust|turned|dialled|dialed|cranked|pushed|bumped|ramped|" \
        "nudged|jacked|wound|adjusted)"
# What moves itself up or down ("the tally ticks up by 4", "the level edges down by 2")
_GOES = "(edges|creeps|climbs|dips|sinks|edged|crept|inched|ticked|moved|stepped|shifted|jumped|dropped|slid|" \
        "slipped|climbed|dipped|sank)"
_SETTERS = "[someone|somebody|we|you|they|he|she|the keeper|the operator|a worker|the clerk|an operator]"


def turned_reads(items: str) -> dict[str, tuple[str, ...]]:
    """INCREMENT and DECREMENT read by a verb of setting and its particle ("is turned up by 8", "someone dials the
    lamp down by 3", "turn up the lamp by 8", "the tally edges up by 4")."""
    def said(way: str) -> tuple[str, ...]:
        return (f"{{0}} (is|gets|was|got) [then] {_TURNED} {way} by {{1}} {items}",
                f"{_SETTERS} [then] {_TURN} {{0}} {way} by {{1}} {items}",
                f"{_SETTERS} [then] {_TURN} {way} {{0}} by {{1}} {items}",
                f"{{0}} [then] {_GOES} {way} by {{1}} {items}")
    return {"INCREMENT": said("up"), "DECREMENT": said("down")}


# Verbs of making things where they are counted ("Bakery B bakes another 44 loaves", "the hive makes 12 more"): what
# a counter makes it holds, an increase; a verb of using things up or selling them is the grammar's decrease, never here
# (only verbs whose third person is no count noun too: "prints", "catches", "builds" may be what is counted)
MAKES = "(bakes|bakes up|knits|sews|produces|manufactures|assembles|makes|grows|whips up)"


def made_reads(items: str, then: str) -> tuple[str, ...]:
    """INCREMENT read by a verb of making, with "another" or "more" or neither ("bakes another 44 loaves")."""
    return (f"{{0}} {then} {MAKES} [another|a further|an extra|an additional] {{1}} {items}",)

