"""transitive_order's free forms, by construction: any placement verb phrase as "is", a scene phrase ("along the
pier", "on the shelf") read away, a scan's scene ("Reading the shelf from left to right") and a name's noun ("the
cottage called Ivers") read away, so that the family's phrasings read what is left. Verbs that place nothing
("points", "looks", "moves", "wants to be") are no placement verb: such a sentence stays unread."""
from __future__ import annotations

from families.free_forms import apposed, plain, progressive, s_form, third_person
from families.wording import _SIMPLE_PAST

# Verbs whose passive places a thing where it is ("is moored", "has been tied up", "is strung"): regular ones
# composed (-ed), irregular ones as said. Never "left" (of "leave"): "is left of" is the fact itself.
_REGULAR = ("moor dock shelve park place position locate situate store mount pin display plant seat berth station "
            "post stack install arrange line queue slot pitch erect anchor hook nail fasten fix affix tape clip lash "
            "chain tether secure lodge house stow file rack perch prop pile crowd wedge squeeze stand rest settle "
            "plot paint draw print sketch carve engrave stamp tie rope moor couple hitch attach thread stable pen coop "
            "kennel pot glue tuck nestle curl sprawl string").split()
_IRREGULAR = frozenset("set put hung found kept built strung laid held stuck spread shown seen drawn sewn hidden "
                       "dug sunk grown".split())
PARTICIPLES = frozenset(v + ("d" if v.endswith("e") else "ed") for v in _REGULAR) | _IRREGULAR
# A participle with no auxiliary before it reads as its present ("Ivo, kept on the shelf, is ..." as "keeps"):
# those presents, for a participle said after a name.
_AS_PRESENT = frozenset(present for past, present in _SIMPLE_PAST.items() if past in PARTICIPLES)
# Verbs of being somewhere ("sits", "hangs", "flies" of a flag, "works" of a worker at a station): no motion, no
# looking or pointing, no wish.
_POSTURE = ("sit stand lie rest hang float wait live stay perch lean fly work operate dwell reside remain grow "
            "nestle huddle lodge camp sleep squat crouch kneel lounge hover bob sway dangle tower loom bloom "
            "sprout perch roost nest park dock moor berth anchor sit nap doze snooze curl sprawl graze bask").split()
POSTURE = third_person(_POSTURE)
# Phrasal verbs of taking a place, said with their particle ("The spicer sets up to the left of the baker", "lines up")
_SETTING_UP = frozenset({("sets", "up"), ("set", "up"), ("lines", "up"), ("line", "up"), ("settles", "in"),
                         ("pulls", "up"), ("pull", "up")})
_POSTURE_ING = progressive(_POSTURE)
_PARTICLES = frozenset("up out down away".split())
# Nouns of a likeness, which stands in a row for whom it shows ("the statue of Ferelith", "the portrait of Ivo"); never
# a person's relation ("the brother of", "the friend of") nor a thing owned ("the house of"), which is another thing
_LIKENESSES = frozenset("statue statuette bust portrait painting sculpture effigy likeness carving figurine image "
                        "poster photo photograph picture drawing sketch".split())
_BASES = frozenset(_POSTURE)   # "Where does Hazel stand relative to ...": a question's base form
_AUX = (("is",), ("are",), ("can", "be"), ("will", "be"), ("is", "to", "be"), ("is", "being"))
_SCENE_PREPS = frozenset("along on in at across down up inside within by upon through".split())
_DETS = frozenset("the this that our its their".split())
_SCANS = frozenset("reading going counting looking scanning walking moving heading travelling traveling read "
                   "counted viewed seen ordered listed numbered taken".split())
# (and what a thing is labelled or titled by: "the jar labelled Oriel", "the painting titled Blue Ferry")
_NAMING = (("called",), ("named",), ("known", "as"), ("by", "the", "name", "of"), ("labelled",), ("labeled",),
           ("titled",), ("entitled",), ("marked",))


def _verb(words: list[str], i: int) -> int:
    """The length of a placement verb phrase at `i` ("is tied up", "sits", "is sitting"), or 0."""
    w = words[i]
    if tuple(words[i:i + 2]) in _SETTING_UP:
        return 2
    if w in POSTURE:
        return 1 + (i + 1 < len(words) and words[i + 1] in _PARTICLES and words[i + 1] != "out")
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
            if after != "of" and after != "'s":
                return 2 + n
    return 0


def rewrite(words: list[str]) -> list[str]:
    """The words with each placement verb phrase as "is" and each scene phrase read away."""
    words = apposed(words)
    if len(words) > 2 and words[0][:1] == "@" and words[1] == "are":
        words = [words[0], "is", *words[2:]]   # "The lentils are to the left of the capers": a plural name
    elif len(words) > 2 and words[0][:1] == "@" and words[1] in _BASES:
        words = [words[0], s_form(words[1]), *words[2:]]   # "The Oakleys live to the left of ...": a family's verb
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        n = _verb(words, i)
        if n:
            out.append("is")
            i += n
            continue
        if (n := _scene(words, i)):   # "along the pier", "On the shelf, ..."
            i += n
            continue
        if w in _SCANS and i + 2 < len(words) and words[i + 1] in _DETS and plain(words[i + 2]):
            out.append(w)   # "Reading the shelf from left to right": the scan, its scene read away
            i += 3
            continue
        if w == "the" and i + 2 < len(words) and (plain(words[i + 1]) or words[i + 1] in ("1", "one")):
            k = next((len(m) for m in _NAMING if tuple(words[i + 2:i + 2 + len(m)]) == m), 0)
            if k and i + 2 + k < len(words) and words[i + 2 + k][:1] == "@":
                i += 2 + k   # "the cottage called Ivers" (or "the one labeled Walnut") as Ivers
                continue
        if len(out) > 2 and out[-1][:1] == "@" and out[-2] in ("is", "does") and out[-3] == "where" and \
                (w in (PARTICIPLES | _POSTURE_ING) if out[-2] == "is" else w in _BASES):
            out[-2] = "is"   # a question's verb after its name ("Where is Marble sleeping ...", "Where does Hazel stand")
            i += 1 + (words[i + 1:i + 2] != [] and words[i + 1] in _PARTICLES)
            continue
        if w == "the" and i + 3 < len(words) and words[i + 1] in _LIKENESSES and words[i + 2] == "of" and \
                words[i + 3][:1] == "@":
            i += 3   # "The statue of Ferelith stands ...": a row of likenesses, each named by whom it shows
            continue
        if (w in PARTICIPLES or w in _AS_PRESENT) and out and out[-1][:1] == "@" and (len(out) == 1 or out[-2] == "has"):
            i += 1 + (words[i + 1:i + 2] != [] and words[i + 1] in _PARTICLES)
            continue   # "Sea Thistle, moored at the pier, is ...", "Driftmoth has Sea Thistle moored to its left"
        out.append(w)
        i += 1
    return _fronted(out)


def _fronted(words: list[str]) -> list[str]:
    """"To the left of Driftmoth, Sea Thistle is tied up" as "Sea Thistle is to the left of Driftmoth"."""
    if len(words) > 4 and words[-1] == "is" and words[-2][:1] == "@" and words[-3][:1] == "@" and \
            not any(w[:1] == "@" for w in words[:-3]):
        return [words[-2], "is", *words[:-3], words[-3]]
    return words
