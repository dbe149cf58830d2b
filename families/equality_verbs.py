"""equality's story verbs, by construction: a verb of having, showing or reaching a measure in any of its forms
("drew", "flashes", "opens with", "is tuned to") said with the same, an identical or a different measure, or with the
other thing's own measure ("i transmits on g's frequency", "Vera drew exactly the number Dario drew", "Gideon's number
differs from the one Silas drew"), said back as "has the same value as" / "does not have the same value as".

The verbs come from closed classes (having, holding, emitting, drawing, opening, being set to a measure), never a verb of
wanting, knowing, guessing or writing a thing down ("X guessed Y's number", "X records Y's number", "X wants the same
colour as Y" stay unread): those say nothing of X's own value. A comparison of degree ("X does not last as long as Y":
shorter, a stronger claim than NOT_EQUAL) is no form here."""
from __future__ import annotations

import re

from families.equality_forms import HEADS
from families.free_forms import s_form

# Verbs whose object is the thing's own measure: what it has, holds, gives off, draws or opens with.
_OWN_BASE = ("have share carry hold contain bear wear use run transmit broadcast ring play sound flash blink pulse "
             "glow shine chime hum sing buzz vibrate oscillate spin tick beep flicker draw pick roll pull open unlock "
             "operate weigh cost measure last burn emit produce yield keep store").split()
# their pasts and participles, where they are not the base with -ed
_IRREGULAR = {"have": ("had",), "hold": ("held",), "bear": ("bore", "borne"), "wear": ("wore", "worn"),
              "run": ("ran",), "ring": ("rang", "rung"), "shine": ("shone",), "sing": ("sang", "sung"),
              "spin": ("spun",), "draw": ("drew", "drawn"), "cost": (), "keep": ("kept",),
              "burn": ("burnt",), "broadcast": (), "share": ("shared",), "transmit": ("transmitted",),
              "hum": ("hummed",), "emit": ("emitted",)}
# Verbs of having been set or made to a measure: said with "is" ("is tuned to", "is painted", "is cut to").
PARTICIPLES = frozenset(("tuned set painted coloured colored dyed cut priced rated valued pitched keyed coded numbered "
                         "tagged labelled labeled marked assigned given fixed locked loaded filled made built").split())


def _past(verb: str) -> tuple[str, ...]:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return (verb + "d",)
    if verb.endswith("y") and verb[-2:-1] not in tuple("aeiou"):
        return (verb[:-1] + "ied",)
    return (verb + "ed",)


OWN = frozenset(_OWN_BASE) | frozenset(s_form(v) if v != "have" else "has" for v in _OWN_BASE) | frozenset(p for v in _OWN_BASE for p in _past(v))
_V = "(?:" + "|".join(sorted(OWN, key=len, reverse=True)) + ")"
_PART = "(?:" + "|".join(sorted(PARTICIPLES)) + ")"
_M1 = "(?:" + "|".join(sorted((h for h in HEADS | {"value", "values"}), key=len, reverse=True)) + ")"
_PREP = "(?:on|at|in|to|with|into)"
_SURE = "(?:exactly|precisely|just)"
_A = _B = r"@\d+"   # the two names: the first and the second mark of the sentence
# what a thing does with a measure: a verb of its own ("drew", "transmits on"), or "is" and a participle ("is tuned to")
_DOES = (rf"(?:(?P<neg>(?:does|do|did) not) {_V}|{_V}|(?:is|are|was) (?P<isneg>not )?(?:{_PART} {_PREP}|{_PART}|{_PREP}))"
         rf"(?: {_PREP})?")
# Verbs that may also act on a thing ("Ivel measures Sorrel's length", "weighs the crate Sorrel weighed", "picked
# Sorrel's number", "keeps Sorrel's code" safe): with the other's measure as their object, never a verb of having
ACTING = frozenset(f for v in "measure weigh pick pull roll keep store open unlock draw".split()
                    for f in (v, s_form(v), *_past(v)))
_LEMMA = {f: v for v in _OWN_BASE for f in (v, "has" if v == "have" else s_form(v), *_past(v))}
_V_HAS = "(?:" + "|".join(sorted((f for f, v in _LEMMA.items() if v not in ("measure", "weigh")), key=len,
                                 reverse=True)) + ")"
_V_OBJ = "(?:" + "|".join(sorted(OWN - ACTING, key=len, reverse=True)) + ")"
_DOES_OBJ = (rf"(?:(?P<neg>(?:does|do|did) not) {_V_OBJ}|{_V_OBJ}|(?:is|are|was) (?P<isneg>not )?(?:{_PART} {_PREP}|"
             rf"{_PART}|{_PREP}))(?: {_PREP})?")
# the other thing's own measure, said of it in any way: "g 's frequency", "the number on k", "the password found in j",
# "the value held by j", "the number Dario drew", "what d weighs", "that of c"
# (a past read as the present where no auxiliary comes before it: "the value held by j" arrives as "holds by j")
_HELD = ("(?:held|kept|stored|found|shown|used|drawn|carried|worn|borne|contained|holds|keeps|stores|finds|shows|uses|"
         "draws|carries|wears|bears|contains)")   # never "recorded", "written", "guessed": no value of its own
_OF_B = (rf"(?:{_B} 's {_M1}|{_B} 's|the {_M1} (?:of|on|in|inside|at|for|within) {_B}|the {_M1} {_HELD} "
         rf"(?:by|in|on|inside|at) {_B}|(?:the {_M1}|the 1|what) (?:that |which )?{_B} (?:{_V}|does|is))")
_OWNED = rf"(?:{_A} 's {_M1}|the {_M1} (?:of|on|in|inside|at|within) {_A})"   # a thing's own measure, as subject
_NAMING = frozenset("label tag id mark key note name serial code title word".split())
_M_PLAIN = "(?:" + "|".join(sorted((h for h in HEADS if h not in _NAMING and h.rstrip("s") not in _NAMING),
                                   key=len, reverse=True)) + ")"
_OWNED_PLAIN = rf"(?:{_A} 's {_M_PLAIN}|the {_M_PLAIN} (?:of|on|in|inside|at|within) {_A})"
_IS_SAME = "(?:is|are|equals|equal|matches|match|is the same as|are the same as|is identical to|are identical to)"
_IS_DIFF = ("(?:is not|are not|differs from|differ from|is different from|are different from|does not match|do not match|"
            "does not equal|do not equal|is not the same as|are not the same as)")
_BE = "(?:is|was|stands|stood|sits|sat|ranks|ranked|runs|ran|burns|shines|sounds|rings)"
# adjectives of a measure's degree ("as heavy as", "equally long"), never of distance or likelihood ("as far", "as likely")
_ADJ = ("(?:tall|short|heavy|light|high|low|old|young|long|large|big|small|loud|quiet|fast|slow|expensive|costly|cheap|"
        "deep|shallow|wide|narrow|warm|cold|hot|cool|bright|dim|valuable|strong|weak|potent|dense|thick|thin|sweet|"
        "sour|bitter|rich|soft|hard|hard|dark|pale|steep|fine|coarse|old)")
_SAME = "(?:the same|1 and the same|exactly the same|the very same|an identical|an equal|identical|equal)"
_OTHER = "(?:different|distinct|unequal)"

_FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), out) for p, out in (
    # "i transmits on g 's frequency", "Brack is not tuned to the frequency Thorne uses", "Vera drew exactly the
    # number Dario drew", "n does not weigh what d weighs"
    (rf"{_A} {_DOES_OBJ} (?:{_SURE} )?{_OF_B}", "one"),
    # a verb that may act on a thing, said of both ("Vera drew exactly the number Dario drew", "n does not weigh what
    # d weighs"): the same verb on both sides, each of its own
    (rf"{_A} (?:(?P<neg>(?:does|do|did) not) )?(?P<v1>{_V})(?: {_PREP})? (?:{_SURE} )?what {_B} (?P<v2>{_V})", "one"),
    # (never a verb of assessing with its object: "Ivel measured the length Sorrel measured" is one length measured)
    (rf"{_A} (?:(?P<neg>(?:does|do|did) not) )?(?P<v1>{_V_HAS})(?: {_PREP})? (?:{_SURE} )?the {_M1} (?:that |which )?"
     rf"{_B} (?P<v2>{_V_HAS})", "one"),
    # "Tilde drew the same number as Vera", "Lantry flashes in the same rhythm as Fairhead"
    (rf"{_A} {_DOES} (?:{_SURE} )?{_SAME} {_M1} (?:as|to) {_B}", "one"),
    # "Gideon 's number differs from the 1 Silas drew", "j 's frequency is not e 's", "the contents of h match the
    # contents of p", "the number inside e is the same as the 1 inside c" (a possessive reads as its "of" form)
    (rf"{_OWNED} (?:(?P<same>{_IS_SAME})|(?P<diff>{_IS_DIFF})) (?:{_SURE} )?(?:{_OF_B}|(?:the 1|that) "
     rf"(?:of|on|in|inside|at|within) {_B})", "owned"),
    # ... and the other's measure left to the first ("j 's frequency is not e 's", its last "'s" read away before
    # this): never a measure that may name a thing ("Ivel 's label is Sorrel" may say the label reads "Sorrel")
    (rf"{_OWNED_PLAIN} (?:(?P<same>{_IS_SAME})|(?P<diff>{_IS_DIFF})) (?:{_SURE} )?{_B}", "owned"),
    # "Kilby and Yarrow transmit on 1 and the same frequency", "Rosalind and Joren drew identical numbers", "Rosewood
    # and Jet open with different combinations", "Nico and Quincy do not draw the same number", "i and m share their
    # password"
    (rf"{_A} and {_B} (?:(?P<neg>do not|does not|did not) )?{_V}(?: {_PREP})? (?:(?P<same>{_SAME})|(?P<diff>{_OTHER})) "
     rf"{_M1}", "pair"),
    (rf"{_A} and {_B} (?:(?P<neg>do not|does not|did not) )?(?:share|shared) their {_M1}", "pair"),   # never "measure their"
    # the measures said in a relative clause: "r and n hold passwords that differ", "... numbers which match"
    (rf"{_A} and {_B} (?:(?P<neg>do not|does not|did not) )?{_V}(?: {_PREP})? {_M1} (?:that|which) (?:(?P<diff>differ|"
     rf"are different|are not the same|do not match|are not equal)|(?P<same>match|are the same|are identical|are equal))",
     "pair"),
    (rf"{_A} and {_B} (?:are|were) (?P<isneg>not )?(?:{_PART}(?: {_PREP})? |of )?(?:(?P<same>{_SAME})|"
     rf"(?P<diff>{_OTHER})) {_M1}", "pair"),
    # worth and degree said as sameness: "An Orrick is worth the same as a Nobble", "A Fabble is worth exactly as much
    # as an Ipsel", "Kelp is exactly as strong as Frost", "Ravenhold stands exactly as tall as Copperhorn"; never with
    # a negation ("X is not as heavy as Y" says lighter: more than NOT_EQUAL)
    (rf"{_A} (?:{_BE}|is worth|was worth) (?:{_SURE} )?(?:as {_ADJ}|as much) as {_B}", "one"),
    (rf"{_A} (?:is|was) (?P<isneg>not )?worth (?:{_SURE} )?the same(?: amount)? as {_B}", "one"),
    (rf"{_A} and {_B} (?:are|were) (?P<isneg>not )?(?:worth (?:(?P<same>{_SAME}(?: amount)?)|(?P<diff>{_OTHER} "
     rf"amounts))|(?:{_SURE} )?(?P<sure>equally|just as|exactly as) {_ADJ})", "pair"),
    # a compound of the render's measure and "mate" (families/kind_before.py: "teammates" where the measure is the
    # team, as "valuemates"): "Camper p and camper l are teammates", "Camper k is teammates with camper p", "r is not
    # a teammate of l"
    (rf"{_A} and {_B} (?:are|were) (?P<isneg>not )?valuemates", "pair"),
    (rf"{_A} (?:is|was) (?P<isneg>not )?(?:valuemates with|a valuemate of|the valuemate of) {_B}", "one"),
    # "Esker is tuned exactly like Wyck", "the Oystercove lighthouse flashes just like the Kittlerock lighthouse"
    (rf"{_A} {_DOES} {_SURE} like {_B}", "one"),
    # "Fairhead and Stormness flash identically"
    (rf"{_A} and {_B} (?:(?P<neg>do not|does not|did not) )?(?:{_V}|(?:are|were) (?P<isneg>not )?{_PART}) (?:identically|"
     rf"exactly alike|alike)", "pair"),
))


def said_plainly(words: list[str]) -> list[str] | None:
    """The sentence as equality's plainest (in)equality, where it is one of the forms above; else None."""
    line = " ".join(words)
    for rx, shape in _FORMS:
        m = rx.fullmatch(line)
        if m is None:
            continue
        g = m.groupdict()
        if g.get("v1") and _LEMMA.get(g["v1"]) != _LEMMA.get(g["v2"] or ""):
            continue   # "what Y V": the same verb on both sides ("drew the number Sorrel wrote" says two things)
        negated = bool(g.get("neg") or g.get("isneg"))
        if g.get("diff"):
            negated = not negated
        marks = [w for w in words if w[:1] == "@"]
        if len(marks) != 2 or marks[0] == marks[1]:
            return None
        a, b = marks
        if shape == "pair":
            return [a, "and", b, "do", "not", "have", "the", "same", "value"] if negated else \
                [a, "and", b, "have", "the", "same", "value"]
        return [a, "does", "not", "have", "the", "same", "value", "as", b] if negated else \
            [a, "has", "the", "same", "value", "as", b]
    return None
