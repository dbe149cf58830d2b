"""transitive_order's free forms, by construction: any placement verb phrase as "is", a scene phrase ("along the
pier", "on the shelf") read away, a scan's scene ("Reading the shelf from left to right") and a name's noun ("the
cottage called Ivers") read away, so that the family's phrasings read what is left. Verbs that place nothing
("points", "looks", "moves", "wants to be") are no placement verb: such a sentence stays unread."""
from __future__ import annotations

from families.free_forms import apposed, plain, progressive, third_person

# Verbs whose passive places a thing where it is ("is moored", "has been tied up", "is strung"): regular ones
# composed (-ed), irregular ones as said. Never "left" (of "leave"): "is left of" is the fact itself.
_REGULAR = ("moor dock shelve park place position locate situate store mount pin display plant seat berth station "
            "post stack install arrange line queue slot pitch erect anchor hook nail fasten fix affix tape clip lash "
            "chain tether secure lodge house stow file rack perch prop pile crowd wedge squeeze stand rest settle "
            "plot paint draw print sketch carve engrave stamp tie rope moor").split()
_IRREGULAR = frozenset("set put hung found kept built strung laid held stuck spread shown seen drawn sewn hidden "
                       "dug sunk grown stood sat".split())
PARTICIPLES = frozenset(v + ("d" if v.endswith("e") else "ed") for v in _REGULAR) | _IRREGULAR
# Verbs of being somewhere ("sits", "hangs", "flies" of a flag, "works" of a worker at a station): no motion, no
# looking or pointing, no wish.
_POSTURE = ("sit stand lie rest hang float wait live stay perch lean fly work operate dwell reside remain grow "
            "nestle huddle lodge camp sleep squat crouch kneel lounge hover bob sway dangle tower loom bloom "
            "sprout perch roost nest park dock moor berth anchor sit").split()
POSTURE = third_person(_POSTURE)
_POSTURE_ING = progressive(_POSTURE)
_PARTICLES = frozenset("up out down away".split())
_AUX = (("is",), ("are",), ("can", "be"), ("will", "be"), ("is", "to", "be"), ("is", "being"))
_SCENE_PREPS = frozenset("along on in at across down up inside within by upon over through".split())
_DETS = frozenset("the this that our its their".split())
_SCANS = frozenset("reading going counting looking scanning walking moving heading travelling traveling read "
                   "counted viewed seen ordered listed numbered taken".split())
_NAMING = (("called",), ("named",), ("known", "as"), ("by", "the", "name", "of"))


def _verb(words: list[str], i: int) -> int:
    """The length of a placement verb phrase at `i` ("is tied up", "sits", "is sitting"), or 0."""
    w = words[i]
    if w in POSTURE:
        return 1
    for aux in _AUX:
        n = len(aux)
        if tuple(words[i:i + n]) == aux and i + n < len(words):
            nxt = words[i + n]
            if nxt in PARTICIPLES or nxt in _POSTURE_ING or nxt in POSTURE:   # "is stood", read as "is stands"
                return n + 1 + (i + n + 1 < len(words) and words[i + n + 1] in _PARTICLES)
    return 0


def _scene(words: list[str], i: int) -> int:
    """The length of a scene phrase at `i` ("along the pier", "on the top shelf"), or 0: a preposition, an article
    and one or two plain words, followed by no "of" (where "on the left of" says a side)."""
    if words[i] not in _SCENE_PREPS or i + 2 >= len(words) or words[i + 1] not in _DETS:
        return 0
    for n in (2, 1):
        body = words[i + 2:i + 2 + n]
        if len(body) == n and all(plain(w) for w in body):
            after = words[i + 2 + n] if i + 2 + n < len(words) else ""
            if after != "of" and after[:1] != "@" and after != "'s":
                return 2 + n
    return 0


def rewrite(words: list[str]) -> list[str]:
    """The words with each placement verb phrase as "is" and each scene phrase read away."""
    words = apposed(words)
    if len(words) > 2 and words[0][:1] == "@" and words[1] == "are":
        words = [words[0], "is", *words[2:]]   # "The lentils are to the left of the capers": a plural name
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        n = _verb(words, i)
        if n:
            out.append("is")
            i += n
            continue
        if i and (n := _scene(words, i)):
            i += n
            continue
        if w in _SCANS and i + 2 < len(words) and words[i + 1] in _DETS and plain(words[i + 2]):
            out.append(w)   # "Reading the shelf from left to right": the scan, its scene read away
            i += 3
            continue
        if w == "the" and i + 2 < len(words) and plain(words[i + 1]):
            k = next((len(m) for m in _NAMING if tuple(words[i + 2:i + 2 + len(m)]) == m), 0)
            if k and i + 2 + k < len(words) and words[i + 2 + k][:1] == "@":
                i += 2 + k   # "the cottage called Ivers" as Ivers
                continue
        out.append(w)
        i += 1
    return out
