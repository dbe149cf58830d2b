"""A sentence that says what the listed options are ("Each option is a possible final number of marbles in the blue
jar", "Each is a possible final crate count for the north warehouse", "Each number is a candidate for the east tank's
final amount"): read as the question it glosses ("what is the final number of marbles in the blue jar"), which must
ask the query like the question itself. Read by families/questions.py."""
from __future__ import annotations

import re
from typing import Sequence

from families.counter_words import POSED
from families.label_lists import labels_named
from families.question_forms import follow_ups

# A gloss composed of its parts: a link to the list before it ("where", "and", "with"), who is glossed (the options,
# each of them, or nothing: "..., each being ..."), a verb of standing for, an article and a word of possibility; the
# rest is the thing every option is a value of, asked as "what is the ...". Never "at least", "about": no verb takes them.
_LINK = r"(?:(?:where|and|with|so|as|since|here|whereby) )?"
_WHO = r"(?:(?:the|your) (?:(?:right|correct|matching) )?(?:number|answer|option|choice|value|label|1) (?:(?:you|we) (?:pick|choose|give|select) )?(?:(?:that|which) )?|(?:the |these |those |all )?(?:options|numbers|choices|answers|values|figures|labels|possible answers|possible " \
       r"options|listed options|listed numbers|answer options|answer choices|candidates)(?: listed| given| above)? |" \
       r"(?:they|these|those|them) )"
_EACH = r"(?:(?:each|every 1|every|any|all|each 1)(?: 1)?(?: of (?:these|them|those|which|the (?:options|numbers|choices|" \
        r"answers|values)))?(?: (?:option|answer|choice|number|value|figure|label|listed option|listed number|of these))? )"
_VERB = r"(?:is|are|being|gives|give|giving|names|name|naming|represents|represent|representing|stands for|stand for|" \
        r"standing for|is meant as|are meant as|meaning|means|mean|counts as|count as|serves as|serve as|is offered as|" \
        r"are offered as|shows|show|showing|corresponds to|correspond to|corresponding to|equals|is equal to|" \
        r"are equal to|equal to|equal|matches|match)"
# An instruction to pick that opens a gloss of the one option picked ("choosing the option that gives the number of
# books left on the cart", "pick the one that equals ..."): it says what the right option is, as "the option is" does
_PICK = r"(?:(?:choosing|choose|pick|picking|select|selecting|give|giving) )?"
# Without a subject, only a participle or "is/are" glosses ("..., each being", "59, 61 and 63 are the ..."): "give the
# one that is correct" is an instruction, no gloss
# "the right one equals the green bag's final count": the one option that is right, said equal to what is asked
_RIGHT = r"(?:the|your) (?:right|correct|matching) (?:number|answer|option|choice|value|label|1) (?:equals|matches)"
_BARE_VERB = r"(?:is|are|being|giving|naming|representing|standing for|meaning|showing|corresponding to|" \
             r"whichever (?:1 |of them |of these )?(?:is|equals|gives|matches)|" \
             r"according to|based on|matching|to match|equal to)"   # "..., whichever is the number of", "based on X's total"
_HEAD = re.compile(rf"^{_LINK}(?:(?:{_PICK}{_WHO}{_EACH}?|{_EACH}){_VERB}(?: each)?|{_RIGHT}|{_BARE_VERB}(?: each)?|(?:each|each 1|every 1)(?= (?:a|an|1) )) (?:(?:a|an|1|the|that(?! (?:many|number|exact|same|value|figure)\b)) )?(?:(?:possible|"
                   r"candidate|proposed|potential|plausible|suggested|conceivable) )?(?:(?:candidate|value|answer|option) )?(?:(?:for|as|of) )?")
# The options' thing said after them as a noun phrase, with no verb ("Answer 251, 253 or 255, the number of visitors
# in the hall at the end"): a count of something, said of every option as "the options are" says it
# ("Answer 190, 192 or 194, the candidate final counts for the coin purse", "Pick 73, 75 or 77 as the final number of
# apples in the basket"): a word of possibility before it read away, as after a gloss's verb
_APPOSED = re.compile(r"^(?:which (?:is|are) |that (?:is|are) |i e |as )?(?:the (?:possible|candidate|proposed|potential) )?"
                      r"(?=(?:the )?(?:(?:final|resulting|ending|end) )?(?:number|count|total)s? (?:of|for) )")
# Quantity nouns a gloss may name a count by ("the possible final sizes of the gold pile"): read as "count", one
_QUANTITY = {"size": "count", "sizes": "count", "amount": "count", "amounts": "count", "quantity": "count",
             "quantities": "count", "counts": "count", "totals": "total", "numbers": "number", "values": "value",
             "tallies": "tally", "headcounts": "headcount", "figures": "figure", "levels": "level", "scores": "score",
             "balances": "balance"}


# Words that wrap a count and name what is counted ("the final crate count", "the final visitor total"): the
# plain noun before the count is read away, as a count of the counter's things is its number of items
_COUNTS = frozenset("count total number tally balance reading level".split())
_PLAIN = re.compile(r"[a-z]+")
_PLACES = frozenset({"on", "inside", "within", "aboard", "onto", "into"})
_ENDS = frozenset("final ending closing end last resulting eventual remaining".split())
# Words before a count that say which count, never what is counted: kept, so the grammar weighs them
_NOT_COUNTED = frozenset("start starting initial original first opening beginning previous earlier prior old middle "
                         "intermediate current partial running".split()) | _ENDS


def glossed(words: list[str], spelled: Spelled = (), owner: str | None = None) -> list[str] | None:
    """The question a gloss of the options asks, as words ("what is the final count of items in @0"), or None where
    the words are no gloss of the options. The options may be named by their labels, every one ("The options 17, 19
    and 21 each mean ...", "Each of 20, 22 and 24 stands for ..."). `owner` is the one counter the question names: what a
    gloss says of it without its name ("whichever is her final number of stamps", "that final count") is said of it."""
    words = _list_as_options(_unpicked(words), spelled)
    line = " ".join(words)
    m = _HEAD.match(line)
    start = m.end() if m is not None and m.end() else None
    if start is None and (a := _APPOSED.match(line)) is not None:
        start = a.end()   # the noun phrase itself, after "which is" or nothing
    if start is None or start >= len(line):
        return None
    rest = _possible([_QUANTITY.get(w, w) for w in line[start:].split()])
    if any(w[:1].isdigit() for w in rest):
        return None   # "Options are 10, 12 or 13": a list, no gloss
    many = _that_many(rest) or _relative(rest)
    if many is not None:
        return many
    rest = _owned(_resolved(rest, owner))
    rest = _left_as_final(rest)
    if rest[:1] != ["the"]:
        rest = ["the"] + rest
    out: list[str] = []
    for k, w in enumerate(rest):
        nxt = rest[k + 1] if k + 1 < len(rest) else ""
        if out and (out[-1] in _ENDS or out[-1] == "the") and nxt in _COUNTS and _PLAIN.fullmatch(w) and \
                w not in _NOT_COUNTED:
            continue   # "final crate count" -> "final count", "the sheet count ... at the end" -> "the count ..."
        if w == "'s" and out and out[-1][:1] == "@" and _PLAIN.fullmatch(nxt) and nxt.endswith("s") and k + 2 == len(rest):
            out[-1:] = ["items", "in", out[-1]]   # "the final count of Jonah's coins": the items in Jonah
            break
        if w in POSED and out and (nxt in _PLACES or nxt in ("in", "at")) and rest[k + 2:k + 3][:1] and \
                rest[k + 2][:1] == "@":
            continue   # "the number of cars parked in the West Garage": where they wait, nothing of the count
        if w in _PLACES and nxt[:1] == "@":
            w = "in"   # "on the yellow bus", "inside the tall jar": the counter's place, as the grammar says it
        out.append(w)
    return ["what", "is"] + out


def _possible(rest: list[str]) -> list[str]:
    """A gloss's "could" of each option's being the end ("the number of coins Mia could end up with", "that could be
    left in the Tin Box") read as the end itself: every option is a possible end, which a gloss says of them all; only
    before a verb of ending or being left ("could have been", "could lose" stay as they are)."""
    out: list[str] = []
    k = 0
    while k < len(rest):
        if rest[k] == "could" and rest[k + 1:k + 3] == ["end", "up"]:
            out.append("ends")
            k += 2
            continue
        if rest[k] == "could" and rest[k + 1:k + 3] == ["be", "left"] and out[-1:] == ["that"]:
            out[-1:] = ["left"]   # "coins that could be left in X": the coins left in X
            k += 3
            continue
        out.append(rest[k])
        k += 1
    return out


def _unpicked(words: list[str]) -> list[str]:
    """The words without an instruction to pick that closes them ("..., so pick the label equal to that number"):
    a follow-up that asks only which option, and says nothing of what the options are."""
    for k in range(3, len(words) - 1):
        if tuple(words[k:]) in follow_ups():
            return words[:k]
    return [] if tuple(words) in follow_ups() else words   # "give the one that is correct" alone glosses nothing


Spelled = Sequence[tuple[str, list[str]]]
_OPTION_NOUNS = frozenset("options numbers choices answers values figures candidates".split())


def _list_as_options(words: list[str], spelled: Spelled) -> list[str]:
    """The words with the list of every label said as what it lists: after a noun of options ("the options 17, 19 and
    21 each mean" as "the options each mean") or after "each of" ("each of them stands for"); as they were where no
    list of every label stands there (a list of some labels only never glosses them all)."""
    named = labels_named(words, list(spelled)) if spelled else None
    if named is None:
        return words
    k = next(k for k in range(len(named) - 1) if named[k:k + 2] == ["the", "labels"] and named[:k] == words[:k])
    if k and named[k - 1] in _OPTION_NOUNS:
        return named[:k] + named[k + 2:]
    if named[max(0, k - 2):k] == ["each", "of"]:
        return named[:k] + ["them"] + named[k + 2:]
    return words


# "that many", "that number of": the option itself, in a gloss that says it as a statement ("each meaning the fund ends
# with that many credits", "each meaning that number of crates remains in the bay")
_THAT_MANY = (("that", "many"), ("this", "many"), ("that", "number", "of"), ("that", "exact", "number", "of"),
              ("that", "same", "number", "of"), ("that", "number"), ("that", "value"), ("that", "figure"))
# A verb of ending at a value ("the tally ends at that number", "finishes on that figure"): said as "ends with"; never
# a start's or a step's verb, which the grammar then weighs as it stands
_ENDING = frozenset("ends finishes settles lands closes".split())
_PLURAL = {"remains": "remain", "is": "are", "stays": "stay", "sits": "sit", "ends": "end", "was": "were"}


def _that_many(rest: list[str]) -> list[str] | None:
    """The question a gloss said as a statement of "that many" asks ("how many items @0 ends with"), or None."""
    for k in range(len(rest)):
        for phrase in _THAT_MANY:
            if tuple(rest[k:k + len(phrase)]) == phrase:
                after = rest[k + len(phrase):]
                if after[:1] and _PLAIN.fullmatch(after[0]) and after[0] not in _PLACES:
                    after = after[1:]   # the counted noun
                before = rest[:k - 1] if k and rest[k - 1] == "exactly" else rest[:k]   # "exactly that many"
                if len(before) > 1 and before[-2] in _ENDING and before[-1] in ("at", "on"):
                    before = before[:-2] + ["ends", "with"]   # "ends at that number": the option is its end value
                elif len(before) > 2 and before[-3] in _ENDING and before[-2] == "up" and \
                        before[-1] in ("holding", "having", "with"):
                    before = before[:-3] + ["ends", "with"]   # "ends up holding that many coins"
                if not before and after[:1] in (["left"], ["remaining"]):
                    after = ["are", "left"] + after[1:]   # "that number of sheep left in the pen": how many are left
                elif not before and after[:1] and (after[0] in ("in", "at", "being") or after[0] in _PLACES):
                    after = ["are"] + after[after[0] == "being":]   # "that number of sheep (being) in the north pen"
                elif not before and after[:1]:
                    after = [_PLURAL.get(after[0], after[0])] + after[1:]   # "that number of crates remains in"
                return ["how", "many", "items"] + before + after
    return None


def _left_as_final(rest: list[str]) -> list[str]:
    """ "the number of sheep left in @0" as "the final number of sheep in @0": what is left at the end is final."""
    for k in range(1, len(rest) - 1):
        if rest[k] in ("left", "remaining") and _PLAIN.fullmatch(rest[k - 1]) and rest[k + 1] in _PLACES | {"in", "at"}:
            if not _ENDS.intersection(rest[:k]):
                head = rest[:k]
                at = 1 if head[:1] == ["the"] else 0
                return head[:at] + ["final"] + head[at:] + rest[k + 1:]
            return rest[:k] + rest[k + 1:]
    return rest


_BASE = {"has": "have", "holds": "hold", "ends": "end", "finishes": "finish", "contains": "contain", "keeps": "keep"}


def _relative(rest: list[str]) -> list[str] | None:
    """The question a gloss said as a relative clause asks ("the number of points @1 have after all the updates" ->
    "how many items does @1 have after all the updates"), or None."""
    k = 1 if rest[:1] == ["the"] else 0
    while k + 1 < len(rest) and rest[k] in ("final", "total", "resulting", "ending") and rest[k + 1][:1] != "@":
        k += 1
    if len(rest) > k + 2 and rest[k] in _COUNTS | {"score", "amount", "value"} and rest[k + 1][:1] == "@" and \
            _PLAIN.fullmatch(rest[k + 2]):   # "the score Aldric has at the end": the count itself, then its owner
        return ["how", "many", "items", "does", rest[k + 1], _BASE.get(rest[k + 2], rest[k + 2])] + rest[k + 3:]
    if rest[k:k + 2] not in (["number", "of"], ["count", "of"]) or len(rest) < k + 5:
        return None
    if rest[k + 3] in ("that", "which") and len(rest) > k + 5:   # "the number of stickers that Marcus holds"
        rest = rest[:k + 3] + rest[k + 4:]
    noun, subject, verb = rest[k + 2], rest[k + 3], rest[k + 4]
    if not _PLAIN.fullmatch(noun) or subject[:1] != "@" or not _PLAIN.fullmatch(verb):
        return None
    return ["how", "many", "items", "does", subject, _BASE.get(verb, verb)] + rest[k + 5:]


# A gloss that names no counter says its count of the one the question asks of ("whichever equals that final count",
# "whichever is her final number of stamps"): a pronoun of the owner, "that" or "this" of the count the question asked
_PRONOUNS = frozenset("her his its their".split())
_THAT = frozenset("that this".split())


def _resolved(rest: list[str], owner: str | None) -> list[str]:
    """The gloss's thing with its owner named where it names none; as it was where the question names no one counter."""
    if owner is None or any(w[:1] == "@" for w in rest):
        return rest
    if len(rest) > 2 and rest[-3] in _PLACES | {"in", "at"} and rest[-2] in _THAT and _PLAIN.fullmatch(rest[-1]):
        return rest[:-2] + [owner]   # "a possible final number of marbles in that jar": the jar the question named
    if rest[0] in _PRONOUNS:
        return [owner, "'s"] + rest[1:]   # "her final number of stamps": the owner's
    head = rest[1:] if rest[0] in _THAT | {"the"} else rest
    k = next((k for k, w in enumerate(head) if w in _COUNTS or w in _QUANTITY.values()), None)
    if k is None:
        return rest
    k += 2 * (head[k + 1:k + 2] == ["of"] and len(head) > k + 2 and _PLAIN.fullmatch(head[k + 2]) is not None)
    return ["the"] + head[:k + 1] + ["of", owner] + head[k + 1:]   # "that final count" -> "the final count of @0"


def _owned(rest: list[str]) -> list[str]:
    """The owner's count said as the count of the owner, the owner right after the count it owns ("@1 's point total
    after all the updates" -> "the point total of @1 after all the updates"; "the final number of @0 of stickers", as a
    possessive is read before, -> "the final number of stickers in @0")."""
    if len(rest) > 2 and rest[0][:1] == "@" and rest[1] == "'s":
        k = next((k for k in range(2, len(rest)) if rest[k] in _COUNTS or rest[k] in _QUANTITY.values()), None)
        if k is None:
            return ["the"] + rest[2:] + ["of", rest[0]]   # "Tomas's final total" -> "the final total of Tomas"
        if rest[k + 1:k + 2] == ["of"] and len(rest) > k + 2 and _PLAIN.fullmatch(rest[k + 2]):
            return ["the"] + rest[2:k + 3] + ["in", rest[0]] + rest[k + 3:]
        return ["the"] + rest[2:k + 1] + ["of", rest[0]] + rest[k + 1:]
    for k in range(1, len(rest) - 3):
        if rest[k] in _COUNTS and rest[k + 1] == "of" and rest[k + 2][:1] == "@" and rest[k + 3] == "of" and \
                k + 4 < len(rest) and _PLAIN.fullmatch(rest[k + 4]):
            return rest[:k + 2] + [rest[k + 4], "in", rest[k + 2]] + rest[k + 5:]
    return rest
