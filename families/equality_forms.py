"""equality's free forms, by construction: a story's measure ("the same frequency", "different day lengths", "a
scale colour", "the number on Oak", "Sarn's day length") as "value", any verb of having or showing a measure ("run",
"broadcast on", "earned", "finished at", "are on") as "have", so that the family's phrasings read what is left.

A measure is any modifier and a head noun from a closed, composed set of measures: a noun that names a property of
a value and not the value ("the same sign", "the same parity", "the same first digit") is no head here, and a
modifier of approximation ("a similar score", "an approximate time") is none either: such a sentence stays unread."""
from __future__ import annotations

from families.free_forms import apposed, plain, s_form, third_person

_HEADS_ONE = (
    "weight number value code rating height price pitch elevation time score age length size level reading amount "
    "count grade rank depth width cost temperature speed volume mass total figure tally frequency colour color "
    "version shade hue tint tone setting channel wavelength key note mark id serial sum balance fee charge rate "
    "salary wage income budget load capacity altitude breadth span distance radius diameter area dimension heat "
    "pressure pace velocity tempo voltage current power strength brightness intensity loudness vintage year date "
    "birthday day hour minute moment duration result tag label digit rhythm combination password contents worth").split()
_PROPERTIES = frozenset("sign parity digit parities signs digits".split())   # of a value, never the value
HEADS = frozenset(h for h in _HEADS_ONE if h not in _PROPERTIES) | frozenset(
    s_form(h) for h in _HEADS_ONE if h not in _PROPERTIES)
_APPROX = frozenset("approximate rough similar close comparable relative average mean typical minimum maximum min max "
                    "partial ballpark estimated nominal expected predicted guessed target desired ideal".split())
_SAME = frozenset("same equal identical matching".split())
_DIFF = frozenset("different distinct unequal".split())
_ONE = frozenset("a an one 1".split())
# Verbs of having, showing or being at a measure ("run the same version", "broadcast on", "earned", "finished at").
_HAVE_BASE = ("have use run write pick choose broadcast transmit show display give get earn receive score reach read carry bear "
              "hold wear record register sport post log clock finish end rise sit operate ring tune play sound "
              "weigh cost measure last hide conceal store contain keep represent").split()   # "a and n hide the
# same number": a puzzle's letters that stand for hidden values
_HAVE_PAST = frozenset("had used ran wrote picked chose broadcasted transmitted showed displayed gave got earned received scored "
                       "reached carried bore held wore recorded registered sported posted logged clocked finished "
                       "ended rose sat operated rang tuned played sounded weighed cost measured lasted hid concealed stored "
                       "contained kept represented".split())
_HAVE = frozenset(_HAVE_BASE) | third_person(_HAVE_BASE) | _HAVE_PAST | frozenset({"has"})
_HAVE_PREPS = frozenset("on at in to with".split())


def _measure(words: list[str], i: int) -> int:
    """The length of a measure at `i` ("frequency", "day length", "firmware version"), or 0."""
    for n in (2, 1):
        body = words[i:i + n]
        if len(body) == n and body[-1] in HEADS and all(plain(w) and w not in _APPROX and w not in _PROPERTIES
                                                         for w in body[:-1]):
            return n
    return 0


def _measures(words: list[str]) -> list[str]:
    """Each measure after a sameness word as "value(s)"."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if (w in _SAME or w in _DIFF or w in _ONE) and (n := _measure(words, i + 1)):
            plural = words[i + n].endswith("s") and not words[i + n].endswith("ss")
            the = int(out[-1:] == ["the"])
            both = any(out[j][:1] == "@" and out[j + 1] == "and" and out[j + 2][:1] == "@" for j in range(len(out) - 2))
            if both and len(out) > 2 + the and out[-1 - the] == "of" and plain(out[-2 - the]):
                # "k and e have scales of the same colour": like compared with like, read as the pair's value. Only
                # so: "k has twins of the same age as e" compares k's twins with e itself, and stays unread.
                del out[-2 - the:len(out) - the]
            elif out[-1:] == ["the"] and w in _DIFF:
                out.pop()
            out += (["the", "same"] if w == "matching" and out[-1:] != ["the"] else ["same"] if w == "matching" else [w])
            out.append("values" if plural else "value")
            i += 1 + n
            if words[i:i + 1] == ["of"] and i + 1 < len(words) and plain(words[i + 1]) and words[i + 2:i + 3] == ["as"]:
                i += 2   # "the same colour of scales as"
            continue
        if w == "in" and out and (n := _measure(words, i + 1)):
            out += ["in", "value"]   # "differ in day length", "matches Kindling in length"
            i += 1 + n
            continue
        if w == "the" and (n := _measure(words, i + 1)) and words[i + 1 + n:i + 2 + n] in (["on"], ["in"], ["of"],
                                                                                           ["at"], ["for"]) \
                and words[i + 2 + n:i + 3 + n][:1] and words[i + 2 + n][:1] == "@" and \
                words[i + 3 + n:i + 4 + n] == ["and"]:
            out += ["the", "values", "of"]   # "the numbers in o and j": the values of o and j
            i += 2 + n
            continue
        if w == "the" and (n := _measure(words, i + 1)) and words[i + 1 + n:i + 2 + n] in (["on"], ["in"], ["of"],
                                                                                           ["at"], ["for"]) \
                and words[i + 2 + n:i + 3 + n][:1] and words[i + 2 + n][:1] == "@":
            out += ["the", "value", "of"]   # "the number on Oak": the value of Oak
            i += 2 + n
            continue
        if w[:1] == "@" and words[i + 1:i + 2] == ["'s"] and (n := _measure(words, i + 2)):
            out.append(w)   # "Sarn's day length differs from ...": Sarn
            i += 2 + n
            continue
        out.append(w)
        i += 1
    return out


# Never any owned noun read away as its owner ("Yrsa's scales match ..." as "Yrsa matches ..."): the noun may be what
# is compared instead of the owner's value ("k's double equals e", "k's brother is the same age as e" say no EQUAL).


_GIVEN = frozenset("given assigned set tagged labelled labeled marked priced rated tuned numbered coded".split())
_PARTICLES = frozenset("down up out".split())


def _verbs(words: list[str]) -> list[str]:
    """Each verb of having a measure, before a sameness word, as "have"/"has" ("do not" kept)."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("is", "are") and words[i + 1:i + 2] == ["not"] and words[i + 2:i + 3] != [] and words[i + 2] in _GIVEN:
            out += ["do" if "and" in out else "does", "not"]   # "is not set to the same temperature as"
            w, i = "has", i + 2
        aux = w in ("is", "are") and words[i + 1:i + 2] != [] and words[i + 1] in _GIVEN
        if w in _HAVE or aux or (w in ("is", "are") and words[i + 1:i + 2] and words[i + 1] in _HAVE_PREPS):
            k = i + 1 + aux
            k += words[k:k + 1] != [] and (words[k] in _HAVE_PREPS or words[k] in _PARTICLES)
            if words[k:k + 1] in (["exactly"], ["precisely"]):
                k += 1
            nxt = words[k:k + 1]
            if nxt and (nxt[0] in _SAME or nxt[0] in _DIFF or nxt[0] in _ONE or nxt[0] == "the") and \
                    not {"value", "values"}.isdisjoint(words[k:k + 3]):
                plural = "and" in out
                negated = out[-2:] in (["does", "not"], ["do", "not"], ["did", "not"])
                out.append("have" if plural or negated else "has")
                i = k
                continue
        out.append(w)
        i += 1
    return out


def rewrite(words: list[str]) -> list[str]:
    """The words with each measure as "value" and each verb of having one as "have"; "X scored exactly what Y
    scored" as "X has the same value as Y"; "did not" as "does not"."""
    from families.equality_verbs import said_plainly  # it composes this module's measures: imported when read
    words = lettered(words)
    plainly = said_plainly(words) or said_plainly(apposed(words))
    if plainly is not None:
        return plainly   # a story verb of the measure (families/equality_verbs.py)
    words = apposed(words)
    if len(words) > 4 and words[1] == "and" and words[3] == "both":
        words = words[:3] + words[4:]   # "Ivel and Sorrel both weigh the same"
    words = [("do" if "and" in words[:k] else "does") if w in ("did", "does", "do") and words[k + 1:k + 2] == ["not"]
             else w for k, w in enumerate(words)]
    if len(words) == 5 and words[1] == "and" and words[3:5] == ["do", "not"] or \
            len(words) == 6 and words[1] == "and" and words[3:5] == ["do", "not"] and words[5] in _AGREE:
        return [*words[:3], "differ"] if len(words) == 6 else words   # "Boden and Lomond do not match"
    if len(words) == 4 and words[2] == "with" and words[1] in ("agrees", "agree") and words[3][:1] == "@":
        return [words[0], "matches", words[3]]   # "Garnet agrees with Jasper"
    if len(words) >= 6 and words[0][:1] == "@" and words[1] in _HAVE and words[2] == "as" and words[4] == "as" \
            or len(words) >= 7 and words[1] in _HAVE and words[2:4] == ["exactly", "as"] and words[5] == "as":
        return [words[0], "is", *words[2:]]   # "Daybreak lasts exactly as long as Tumbleweed"
    if len(words) == 5 and words[0][:1] == "@" and words[1] in _HAVE and words[2] == "what" and \
            words[3][:1] == "@" and words[4] in _HAVE:
        return [words[0], "has", "the", "same", "value", "as", words[3]]
    if len(words) == 6 and words[0][:1] == "@" and words[1] in _HAVE and words[2:4] == ["exactly", "what"] and \
            words[4][:1] == "@" and words[5] in _HAVE:
        return [words[0], "has", "the", "same", "value", "as", words[4]]
    words = _verbs(_measures(words))
    words = _copula(words)
    if len(words) >= 5 and words[0][:1] == "@" and words[1] in _HAVE and words[2:5] == ["the", "same", "as"]:
        return [words[0], "is", *words[2:]]   # "Kalinda scored the same as Lucien"; "X and Y scored the same"
    if len(words) == 6 and words[1] == "and" and words[3] in _HAVE and words[4:6] == ["the", "same"]:
        return [*words[:3], "are", "the", "same"]
    return words


_AGREE = frozenset("match agree coincide".split())
# Nouns that say what a variable's name is, and nothing of its value: "The letter a equals l" (a writer's way to keep
# a variable named "a" from reading as the article), "Symbols i and q are equal". A closed set: a word that may change
# who is meant ("the other a", "the former a") or say a property ("the digit a") is none.
_NAME_NOUNS = frozenset("letter variable symbol unknown".split())


def lettered(words: list[str]) -> list[str]:
    """The words without a noun of what a name is before it, once or before two names joined by "and" ("the letter
    @0" as "@0", "the letters @0 and @1" as "@0 and @1")."""
    out: list[str] = []
    k = 0
    while k < len(words):
        w, nxt = words[k], words[k + 1:k + 2]
        one = w in _NAME_NOUNS and nxt[:1] and nxt[0][:1] == "@"
        two = w[:-1] in _NAME_NOUNS and w.endswith("s") and nxt[:1] and nxt[0][:1] == "@" and \
            words[k + 2:k + 3] == ["and"] and words[k + 3:k + 4] and words[k + 3][:1] == "@"
        if one or two:
            if out[-1:] == ["the"]:
                out.pop()
            k += 1
            continue
        out.append(w)
        k += 1
    return out


def _copula(words: list[str]) -> list[str]:
    """"is the same value as" as "has the same value as", "is a different value from" as "has a different value
    from", "is not the same value as" as "does not have the same value as"."""
    for k in range(1, len(words) - 3):
        if words[k] == "is" and words[k + 1:k + 4] == ["not", "the", "same"] and words[k + 4:k + 5] == ["value"]:
            return words[:k] + ["does", "not", "have"] + words[k + 2:]
        if words[k] == "is" and words[k + 1:k + 4] in (["the", "same", "value"], ["a", "different", "value"]):
            return words[:k] + ["has"] + words[k + 1:]
    return words
