"""membership_inheritance's free forms, by construction: a category's members named by any noun of the story's own
("every dish on the Moon Menu", "all Cascade subscribers", "anyone listed on Fathom", "Burrowmites, every last one
of them,") as "every member of" the category, and any verb of being listed, filed, tagged, subscribed, held or
played in ("is filed under", "subscribes to", "holds the Acorn badge", "is tagged fogcore") as "is in", so that the
family's phrasings read what is left. Negations stay as written ("does not hold" as "is not in"); "some", "not
every" and "no" are never a quantifier here, so no such sentence reads as a subset."""
from __future__ import annotations

from families.free_forms import apposed, plain, progressive, third_person
from families.membership_under import parallel_under

_QUANT = (("every", "single", "1", "of"), ("each", "and", "every"), ("every", "1", "of"), ("each", "1", "of"),
          ("every", "single"), ("all", "of", "the"), ("all", "of"), ("all", "the"), ("every",), ("each",), ("any",),
          ("all",))
_PRONOUNS = frozenset("everyone everybody everything anything anyone anybody whatever whoever".split())
_PREPS = frozenset("in on of from within among under at inside to with for".split())
# Participles of being listed or placed in a category ("is filed under", "is tagged", "is subscribed to").
_LISTED = frozenset((
    "listed filed found served kept stored entered recorded catalogued cataloged registered enrolled included counted "
    "shelved placed assigned subscribed posted stationed located housed held classed classified tagged labelled labeled "
    "grouped sorted marked cleared certified licensed accredited admitted situated").split())
_TAGGED = frozenset("tagged labelled labeled marked classed classified".split())   # no preposition: "is tagged X"
# Verbs of being in a category ("appears on", "falls under", "plays in", "subscribes to"), any person or number.
_IN_BASE = ("appear feature lie sit serve play sing work live fall belong subscribe count dwell reside stand rank "
            "figure volunteer participate help enlist dance ride sail march train compete perform study").split()
# Verbs of taking part that name the category as their object, no preposition ("attends the Atlas Forum")
_DIRECT_BASE = ["attend"]
_DIRECT = frozenset(_DIRECT_BASE) | third_person(_DIRECT_BASE)
_DIRECT_ING = progressive(_DIRECT_BASE)
_IN_VERBS = frozenset(_IN_BASE) | third_person(_IN_BASE) | _DIRECT
# Verbs of holding a category's token ("holds the Acorn badge", "carries the bedroomjazz tag", "gets the Herald").
_HOLD_BASE = "hold have carry wear bear get receive own earn".split()
_HOLD = frozenset(_HOLD_BASE) | third_person(_HOLD_BASE) | frozenset({"has"})
HOLDING = _HOLD   # (a label's clause may say the category as "it" after one: "NO if it cannot carry it")
_HOLD_ING = progressive(_HOLD_BASE)
_ING = progressive(_IN_BASE) | _DIRECT_ING | _HOLD_ING   # "any ship serving in", "anyone holding the Rope badge"
# After a verb of being in, the prepositions of being in ("works for", "comes from", "is named for" say no membership)
_IN_PREPS = frozenset("in on among to with at within inside".split())
# Verbs of being in a category said with "for" (one volunteers for a team: is one of its volunteers); no other verb
# ("works for", "plays for" a rival, "is named for" say no membership)
_FOR_VERBS = frozenset("volunteer volunteers volunteered volunteering".split())
# Verbs of counting as one of a category, said with "as" ("anything that counts as a thaddic")
_COUNTS_AS = frozenset("count counts rank ranks".split())
# Verbs of a role, said with "as" before the category it names ("serves as a Market Steward", "acts as one of")
_AS_VERBS = frozenset("serve serves work works act acts volunteer volunteers".split())
# Nouns of one who takes part, said before the category ("a volunteer in X", "members of the X team", "a player on X"):
# a closed set, never a relation to the category from outside ("a rival of", "a friend of", "a visitor to", "a former
# member of", "a sponsor of" stay unread)
PARTICIPANTS = frozenset(("member volunteer helper participant worker player resident citizen student subscriber "
                          "contributor affiliate recruit enrollee knight squire monk soldier sailor scholar pupil "
                          "apprentice disciple fellow").split())
# Nouns of a relation to a category from outside it ("every rival of X", "each friend of X", "all founders of X"): said
# with "of", never its members
_RELATION_BASE = (
    "rival friend enemy foe neighbour neighbor founder leader sponsor visitor guest fan ally critic opponent brother "
    "sister mother father parent cousin sibling owner patron partner teacher coach captain descendant ancestor admirer "
    "supporter successor predecessor challenger competitor guardian mentor servant employer customer client "
    "creator maker builder former ex child").split()
RELATIONS = frozenset(_RELATION_BASE) | third_person(_RELATION_BASE) | {"children"}   # (an -s form: a noun's plural)
# Nouns of a category's members said after its possessive ("all the Pewter Tier's holders", "each of the Guild's
# members"): those who take part or hold its token; never another relation ("the Guild's rivals", "its founders")
_MEMBER_NOUNS = frozenset({p + "s" for p in PARTICIPANTS} | {"members", "holders", "bearers", "owners", "wearers",
                                                              "carriers", "recipients", "earners"})
# Adverbs of wholeness, which a subset claims in any place ("is contained wholly in", "lies entirely inside"): read away;
# never one of part ("partly", "mostly", "largely" stay and keep the sentence unread)
_WHOLLY = frozenset("wholly entirely completely fully totally".split())
# "under" only after a verb of filing or falling ("is filed under", "falls under"): a bare "are under" or "belongs
# under" says another thing
_UNDER_VERBS = _LISTED | frozenset("fall falls".split())
# Nouns a category's name is said with, which name the category itself ("the Evergreen list", "the Acorn badge"):
# a closed set, so a wrong noun ("waitlist", "blacklist") is never read away.
CONTAINERS = frozenset((
    "list lists roster rosters roll rolls register registry catalogue catalog ledger index menu category class group "
    "set team club guild badge tag label card circle society order collection holdings archive directory file folder "
    "records membership ranks section division unit department league crew band company list category genre "
    "family clan tribe troupe squad clearance tier type "
    "tagged").split()) - {"tagged"}
# Nouns a place is named with, "of" before its name ("the village of Lowmere"): the place itself.
_AUXILIARIES = frozenset("does has was is seems remains stays becomes joins".split())
_PLACES = frozenset("village town city hamlet county shire island kingdom realm province parish district region port "
                    "state duchy barony valley".split())

def _quantifier(words: list[str]) -> int:
    for q in _QUANT:
        if tuple(words[:len(q)]) == q:
            return len(q)
    return 0


def _category(words: list[str], i: int) -> int:
    """The length of a category's name at `i`: its mark and a container noun after it ("@3 list"), or 0."""
    if i >= len(words) or words[i][:1] != "@":
        return 0
    return 2 if i + 1 < len(words) and words[i + 1] in CONTAINERS else 1


def _subject(words: list[str]) -> tuple[int, str, str] | None:
    """A subject naming a category's members, as (its length, the category's mark, the member noun), or None."""
    q = _quantifier(words)
    if not q and words[:1] == ["the"] and len(words) > 1 and words[1].endswith("s"):
        q = 1   # "the books on the Riverbank list are all ...": a bare plural, its article
    elif not q and words[:1] and words[0][:1] == "@" and len(words) > 2 and words[1].endswith("s") and plain(words[1]) \
            and words[1] not in _IN_VERBS | _HOLD | _LISTED | CONTAINERS | _AUXILIARIES:
        return 2, words[0], words[1]   # "Herald subscribers all subscribe to ..."
    elif not q and words[:1] and words[0][:1] == "@" and words[1:2] == ["'s"] and len(words) > 3 and plain(words[2]):
        return 3, words[0], words[2]   # "The Harvest Menu's dishes all appear on ..."
    i, noun = q, ""
    if not q and words and words[0] in _PRONOUNS:
        i = 1
    elif q and i < len(words) and words[i][:1] == "@":   # "every Moss Cabinet item", "all Cascade subscribers"
        n = _category(words, i)
        k = i + n
        if words[k:k + 1] == ["'s"] and words[k + 1:k + 2] and words[k + 1] in _MEMBER_NOUNS:
            return k + 2, words[i], words[k + 1]   # "all the Pewter Tier's holders": its members, by their noun
        while k < len(words) and k < i + n + 2 and plain(words[k]) and (
                words[k] not in _IN_VERBS | _HOLD | _LISTED or words[k + 1:k + 2] in (["are"], ["is"])):
            # (a verb's -s form before "are" is a noun: "all Bus Escorts volunteers are ...")
            noun, k = words[k], k + 1
        if noun or n == 2 or k < len(words) and words[k] in _IN_VERBS | _HOLD | {"is", "are"}:   # "each frigate is ..."
            return k, words[i], noun
        return None
    elif q or (words and plain(words[0]) and words[0].endswith("s")):   # "every dish", "ships in ..."
        k = i
        while k < len(words) and k < i + 1 and plain(words[k]) and words[k] not in _PREPS:   # one noun: a second may be a verb
            noun, k = words[k], k + 1
        if not noun or noun in RELATIONS and words[k:k + 1] == ["of"]:
            return None   # "every rival of the Nova Squadron" is no member of it
        i = k
    else:
        return None
    # an optional relative or participle ("that is one of", "who subscribes to", "listed on", "with")
    if words[i:i + 1] and words[i] in ("that", "who", "which"):
        i += 1
    if words[i:i + 1] and words[i] in ("is", "are"):
        i += 1
    verb = bool(words[i:i + 1]) and (words[i] in _LISTED or words[i] in _IN_VERBS or words[i] in _ING) or \
        bool(words[i:i + 1]) and words[i] in _HOLD and words[i + 1:i + 2] != [] and words[i + 1] in _IN_PREPS
    i += verb   # "listed on", "serving in", "held in" (read as "holds in": a past with no auxiliary)
    if words[i:i + 2] in (["one", "of"], ["1", "of"], ["member", "of"], ["members", "of"]):
        i += 2
    elif words[i:i + 3] == ["a", "member", "of"]:   # "any creature that is a member of the Pleebs"
        i += 3
    elif words[i - 1:i] in (["is"], ["are"]) and not verb and words[i:i + 1] and words[i][:1] == "@":
        pass   # "anything that is a glimmerkin"
    elif words[i:i + 1] and words[i] == "for" and words[i - 1] in _FOR_VERBS:
        i += 1   # "every one of the Market Stewards volunteers for ...": a volunteer of it
    elif verb and words[i - 1] in _DIRECT | _DIRECT_ING and words[i:i + 1] and words[i][:1] == "@":
        pass   # "every student who attends the Atlas Forum"
    elif words[i:i + 1] == ["as"] and verb and words[i - 1] in _LISTED | _COUNTS_AS:
        i += 1 + (words[i + 1:i + 2] in (["a"], ["an"]))   # "anything catalogued as a pyrel", "that counts as a"
    elif words[i:i + 1] and (words[i] in (_IN_PREPS if verb else _PREPS - {"under"})
                             or verb and words[i] == "under" and words[i - 1] in _UNDER_VERBS):
        i += 1   # "kept for", "coming from", a bare "under": no membership
    elif not (i and (words[i - 1] in _TAGGED or words[i - 1] in _HOLD | _HOLD_ING)) and \
            not (words[i:i + 1] and words[i] in _HOLD):   # "anyone holding the Opal Tier": its token, held
        return None
    if words[i:i + 1] and words[i] in _HOLD:   # "anyone who holds the Rope badge"
        i += 1
    n = _category(words, i)
    return (i + n, words[i], noun) if n else None


def _predicate(words: list[str], noun: str) -> list[str]:
    """A predicate of being in a category ("is also filed under X", "holds the X badge", "is an X item") as "is in X"
    (negated: "is not in X"), or the words as they are."""
    i, out = 0, []
    if words[:1] in (["is"], ["are"], ["does"], ["do"]):
        out.append("is")
        i = 1
    if words[i:i + 2] in (["1", "of"], ["one", "of"]):   # "is also one of the reedhoppers"
        return (out or ["is"]) + words[i:] if words[i + 2:i + 3] and words[i + 2][:1] == "@" else words
    if words[i:i + 1] == ["not"]:
        out.append("not")
        i += 1
    if not out:
        out.append("is")
    if words[i:i + 1] == ["all"]:
        i += 1
    k = i + (words[i:i + 1] in (["a"], ["an"]))
    if words[k:k + 1] and (words[k] in PARTICIPANTS or words[k].endswith("s") and words[k][:-1] in PARTICIPANTS) and \
            words[k + 1:k + 2] and words[k + 1] in ("of", "in", "on", "at", "with"):
        i = k + 2   # "is a volunteer on X", "are members of the X team"
    elif words[i:i + 2] and words[i] in _AS_VERBS and words[i + 1:i + 2] == ["as"]:
        i += 2 + (words[i + 2:i + 3] in (["a"], ["an"]))   # "serves as a Market Steward"
    elif words[i:i + 1] and words[i] in _LISTED:
        i += 1
        if words[i:i + 1] and (words[i] in _IN_PREPS or words[i] == "under"):
            i += 1
        elif words[i - 1] not in _TAGGED:
            return words
    elif words[i:i + 1] and words[i] in _IN_VERBS:
        i += 1
        if words[i:i + 1] and (words[i] in _IN_PREPS or words[i] == "under" and words[i - 1] in _UNDER_VERBS
                               or words[i] == "for" and words[i - 1] in _FOR_VERBS):
            i += 1
        elif words[i - 1] not in _DIRECT:   # a verb of being in says it with its preposition: "helps the X", "plays the X" say no membership
            return words
    elif words[i:i + 1] and words[i] in _HOLD:
        i += 1
    elif words[i:i + 1] and words[i] in ("on", "in", "among", "within", "inside"):
        i += 1
    elif words[i:i + 2] in (["part", "of"], ["a", "part"]):
        i += 2 + (words[i:i + 3] == ["a", "part", "of"])
    elif not noun and words[i:i + 1] and words[i][:1] == "@" and _category(words, i) == 2:
        pass   # "is also a spirit card": the category, its container noun
    elif noun and i < len(words) and (words[i] in ("a", "an", noun) or words[i][:1] == "@"):
        k = i + (words[i] in ("a", "an"))
        if words[k:k + 2] == [noun, "of"] and _category(words, k + 2):
            return out + ["in", *words[k + 2:k + 2 + 1]] + words[k + 2 + _category(words, k + 2):]
        if _category(words, k) and words[k + 1:k + 2] in ([noun], [noun + "s"], [noun.rstrip("s")]):
            return out + ["in", words[k]] + words[k + 2:]
        return words
    else:
        return words
    n = _category(words, i)
    return out + ["in", words[i]] + words[i + n:] if n and i + n == len(words) else words


def rewrite(words: list[str]) -> list[str]:
    """The words with a members' subject as "every member of X" and a predicate of being in a category as "is in Y";
    an entity's noun before its name ("the specimen Nell", "the village of Lowmere") read away."""
    words = [w for w in apposed(words, _DIRECT) if w not in _WHOLLY]
    if words[:3] == ["the", "whole", "of"] or words[:2] == ["the", "entirety"] and words[2:3] == ["of"]:
        words = ["all", "of", *words[3:]]   # "The whole of the Fenmoor district lies inside ..."
    words = _places_away(words)
    if len(words) > 6 and words[0][:1] == "@" and words[1] in ("every", "each", "all") and \
            words[2:6] in (["last", "1", "of", "them"], ["single", "1", "of", "them"]):
        words = ["all", words[0], *words[6:]]   # "Burrowmites, every last one of them, are quillbeasts"
    elif len(words) > 4 and words[0][:1] == "@" and words[1:4] in (["every", "1", "of"], ["each", "1", "of"],
                                                               ["all", "of", "them"]):
        k = 5 if words[1:5] in (["every", "1", "of", "them"], ["each", "1", "of", "them"]) else 4
        words = ["all", words[0], *words[k:]]
    words = _whatever(words) or _holds_every(words) or _conditional(words)
    words = parallel_under(words)
    subject = _subject(words)
    if subject is not None:
        n, mark, noun = subject
        rest = words[n:]
        if rest[:1] == ["all"]:
            rest = rest[1:]
        said = _predicate(rest, noun)
        if said[:1] == ["is"] and said != rest:
            return ["every", "member", "of", mark, *said]
        return ["every", "member", "of", mark, *rest]
    if words and words[0][:1] == "@" and len(words) > 2:
        said = _predicate(words[1:], "")
        if said != words[1:]:
            return [words[0], *said]
    return words


def _places_away(words: list[str]) -> list[str]:
    """The words with each place's noun before its name read away, wherever it stands ("The town of Tamsby is in
    ...", "Is the town of Pellham located in ...?"): "the town of @0" is @0; and a noun that only says what a name is
    called ("The stone called Glimmer is a quartzel", "a gem known as Pallow"): "the stone called @0" is @0."""
    out, k = [], 0
    while k < len(words):
        n = _named_by(words, k)
        if n:
            k += n
            continue
        out.append(words[k])
        k += 1
    return out


def _named_by(words: list[str], k: int) -> int:
    """The length of the words at k that stand before a name and only name it ("the town of", "the stone called", "a
    gem known as"), or 0."""
    if words[k:k + 1] not in (["the"], ["a"], ["an"]) or len(words) < k + 4:
        return 0
    noun = words[k + 1]
    if words[k] == "the" and noun in _PLACES and words[k + 2] == "of" and words[k + 3][:1] == "@":
        return 3
    for said in (["called"], ["named"], ["known", "as"]):
        n = 2 + len(said)
        if plain(noun) and words[k + 2:k + n] == said and words[k + n:k + n + 1] and words[k + n][:1] == "@":
            return n
    return 0


# Verbs by which a category holds its members ("the Ochre Ledger lists", "the Ember Menu serves"), any person
_HOLDS_BASE = "list include contain hold carry stock feature cover serve admit accept shelve".split()
_HOLDS = frozenset(_HOLDS_BASE) | third_person(_HOLDS_BASE)
_WHATEVER = frozenset("whatever whoever anything anyone everything everyone".split())


def _whatever(words: list[str]) -> list[str] | None:
    """"Whatever the Ochre Ledger lists, the Wren Catalogue lists too" (its "too" a filler, read away before) as
    "every member of @0 is in @1": one verb of holding members, the same on both sides ("Whatever X lists, Y
    admits" says two things, and stays unread); "that" after the pronoun read away."""
    k = 1 + (words[1:2] == ["that"])
    if len(words) != k + 4 or words[0] not in _WHATEVER:
        return None
    a, verb, b, again = words[k:k + 4]
    if a[:1] == "@" and b[:1] == "@" and a != b and verb in _HOLDS and again == verb:
        return ["every", "member", "of", a, "is", "in", b]
    return None


def _holds_every(words: list[str]) -> list[str] | None:
    """"The Orion Wing contains every ship of the Nova Squadron" as "every member of @0 is in @1": a verb by which a
    category holds its members, every one of the other's by the story's noun for them (never a relation from outside:
    "every rival of"); None where the words are no such sentence."""
    if len(words) != 6 or words[0][:1] != "@" or words[5][:1] != "@" or words[0] == words[5]:
        return None
    _, verb, every, noun, prep, _ = words
    if verb in _HOLDS and every in ("every", "each", "all") and plain(noun) and noun not in RELATIONS and \
            noun not in _HOLDS and prep in ("of", "in", "from"):
        return ["every", "member", "of", words[5], "is", "in", words[0]]
    return None


def _conditional(words: list[str]) -> list[str]:
    """"If a creature is a glimmerkin, it is also a sunmoth" as "every creature that is a glimmerkin is also ..."."""
    if words[:1] != ["if"] or len(words) < 7:
        return words
    k = 1 + (words[1] in ("a", "an", "any"))
    if not (plain(words[k]) and words[k + 1:k + 2] == ["is"]):
        return words
    m = k + 2 + (words[k + 2] in _IN_PREPS) + 2 * (words[k + 2:k + 4] in (["1", "of"], ["part", "of"]))
    if not words[m:m + 1] or words[m][:1] != "@":
        return words
    rest = words[m + 1:]
    if rest[:1] == ["then"]:
        rest = rest[1:]
    if rest[:1] in (["it"], ["they"], ["he"], ["she"]) and rest[1:2] in (["is"], ["are"]):
        return ["every", words[k], "that", *words[k + 1:m + 1], "is", *rest[2:]]
    if rest[:1] in (["it"], ["they"], ["he"], ["she"]) and rest[1:2] and rest[1] in _IN_VERBS | _HOLD | _LISTED:
        return ["every", words[k], "that", *words[k + 1:m + 1], *rest[1:]]   # "..., it appears on the B list"
    return words
