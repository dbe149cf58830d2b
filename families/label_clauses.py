"""A label's clause made plain before it is read, composed from parts: a frame of entailment ("the facts show (that)",
"it follows that") read away, modal words ("must be", "cannot be", "definitely") as the plain verb with their polarity
kept, and a clause that speaks of the query itself ("YES if she must be", "NO if it cannot be [a member]") as the query or
its opposite. Never a hedge ("might", "can be", "possibly"), never "not necessarily" (the third way)."""
from __future__ import annotations

import re
from functools import cache

_SOURCE_NOUNS = "statements|premises|facts|information|clues|rules|conditions|details|description|story|data|evidence|" \
                "constraints|relations|sentences|descriptions|givens|catalogue rules|records|notes|line up|lineup|" \
                "arrangement|positions|order|ordering|row|list|lists|rosters|roster|above|conditions above"
_DET = "the |these |those |this |that |all the |all these |the given |our |your |all of the "
_WHERE = "given|above|here|provided|stated|listed|so far|given here|given above|we have|we are given|we know"
_SHOW = "show|shows|prove|proves|establish|establishes|imply|implies|entail|entails|guarantee|guarantees|make clear|" \
        "makes clear|make it clear|makes it clear|tell us|tells us|say|says|state|states|confirm|confirms|mean|means|" \
        "force|forces|demonstrate|demonstrates|require|requires|dictate|dictates"


def _alt(choices: str) -> str:
    return "(?:" + "|".join(re.escape(c) for c in sorted(set(choices.split("|")), key=len, reverse=True)) + ")"


@cache
def source() -> str:
    """A pattern of the noun phrase the answer comes from: a determiner and up to four plain words ("the facts", "the
    given clues above", "the catalogue entries", "the seating facts", "the registry"), or "they", "we"."""
    noun = r"(?!(?:not|no|never|is|are|do|does|can|cannot|could|must|may|might|will|would|leave|leaves|show|shows)\b)" \
           r"(?:[a-z][a-z'-]*|'s(?= ))"   # an owner's "'s" among them ("the marshal's notes")
    return rf"(?:(?:{_alt(_DET)}{noun}(?: {noun}){{0,3}}|{_alt(_SOURCE_NOUNS)})(?: {_alt(_WHERE)})?|they|we|you|one|it|" \
           rf"this|that)"


@cache
def _frames() -> re.Pattern[str]:
    """What may open a clause and say only that the rest follows: read away, the rest is the clause."""
    follows = "follows|necessarily follows|follows necessarily|must be true|must be the case|is certain|is certainly " \
              "true|is necessarily true|is necessarily the case|can be shown|can be proven|can be proved|can be " \
              "concluded|can be deduced|can be inferred|is clear|is known|is established|is proven|is provable"
    by = "according to|based on|given|from|going by|judging by|by|under|per"
    return re.compile(rf"^(?:(?:it|this) {_alt(follows)} (?:that )?|{source()} (?:can |could )?{_alt(_SHOW)} (?:that )?|"
                      rf"(?:we|you|one) (?:can|could|must) {_alt('conclude|deduce|infer|prove|show|tell|say|be sure')}"
                      rf" (?:that )?|{_alt(by)} {source()} (?:, )?)+")


_SUBJECT_OF = {"him": "he", "her": "she", "it": "it", "them": "they"}
_COMPEL = "force|forces|require|requires|compel|compels|oblige|obliges"


@cache
def _compelled() -> re.Pattern[str]:
    """A source that compels its object to a state ("the facts force him (not) to be a member"), or the clause's
    statement said to follow from a source ("this follows from the facts")."""
    return re.compile(rf"^{source()} (?:{_COMPEL}) (?P<obj>him|her|it|them|@\w+) (?P<neg>not )?to (?P<rest>.+)$")


@cache
def _from_source() -> re.Pattern[str]:
    return re.compile(rf"^(?P<said>.+?) (?:from|given|by|according to|based on) (?:{source()}|them)$")   # "from them":
    # the facts named before ("YES if her membership follows from the facts, NO if ... follows from them")


def framed_away(words: list[str]) -> list[str]:
    """A clause without the frames of entailment before its statement ("the facts show she must be" -> "she must be",
    "the facts force him not to be" -> "he must not be", "this follows from the facts" -> "this follows")."""
    forced = _compelled().match(" ".join(words))   # before the frames: "force" is one of their verbs too
    if forced is not None:
        subject = _SUBJECT_OF.get(forced.group("obj"), forced.group("obj"))
        return [subject, "must"] + (["not"] if forced.group("neg") else []) + forced.group("rest").split()
    line = " ".join(words) + " "
    m = _frames().match(line)
    if m is not None and m.end() < len(line):
        words = line[m.end():].split()
    line = " ".join(words)
    sourced = _from_source().match(line)
    if sourced is not None and sourced.group("said").split()[-1] in ("follows", "holds", "is", "does"):
        return sourced.group("said").split()
    return words


_CERTAIN = frozenset({"necessarily", "definitely", "certainly", "surely", "clearly", "indeed", "undoubtedly", "then",
                      "absolutely", "really", "truly", "always"})
_TWO_CERTAIN = frozenset({("for", "sure"), ("for", "certain"), ("with", "certainty"), ("without", "doubt"),
                          ("beyond", "doubt")})
_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}


def third(verb: str) -> str:
    """A verb's present for one subject ("belong" -> "belongs", "lie" -> "lies", "reach" -> "reaches")."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def plain(words: list[str]) -> list[str] | None:
    """A clause with its words of certainty away and its modal verbs plain, polarity kept ("must be" -> "is", "cannot
    belong" -> "does not belong", "is definitely not" -> "is not"); None where certainty is denied ("not necessarily",
    "not for sure": the third way, no statement)."""
    out: list[str] = []
    k = 0
    while k < len(words):
        w, nxt = words[k], words[k + 1] if k + 1 < len(words) else ""
        pair = (w, nxt)
        if w in _CERTAIN or pair in _TWO_CERTAIN:
            if out and out[-1] == "not":
                return None
            k += 2 if pair in _TWO_CERTAIN else 1
            continue
        if w == "cannot" or w == "must" or pair in _MODALS:
            neg = w == "cannot" or pair in _MODALS and _MODALS[pair]
            k += 2 if pair in _MODALS else 1   # "must not", "can not", "has to": both words
            k = _certainty_skipped(words, k)
            if words[k:k + 1] == ["not"] and not neg:   # "must not be"
                neg, k = True, _certainty_skipped(words, k + 1)
            verb = words[k] if k < len(words) else ""
            many = "and" in out or out[:1] in (["they"], ["we"], ["you"])   # "A and B must share": "A and B share"
            be, do = ("are", "do") if many else ("is", "does")
            if not verb:   # "YES if he must", "NO if she cannot": the verb left out
                out += [do, "not"] if neg else [do]
            else:
                out += ([be, "not"] if neg else [be]) if verb == "be" else \
                    ([do, "not", verb] if neg else [verb if many else third(verb)])
                k += 1
            continue
        out.append(w)
        k += 1
    return out


# Modal pairs and whether they deny: "can not be" is "is not"; "has to be" is "is"
_MODALS = {("can", "not"): True, ("must", "not"): True, ("could", "not"): True, ("has", "to"): False,
           ("have", "to"): False}


def _certainty_skipped(words: list[str], k: int) -> int:
    """Where the words after k resume past words of certainty ("must definitely be")."""
    while k < len(words) and (words[k] in _CERTAIN or tuple(words[k:k + 2]) in _TWO_CERTAIN):
        k += 2 if tuple(words[k:k + 2]) in _TWO_CERTAIN else 1
    return k


_NEGATIONS = frozenset({"not", "no", "never", "false", "impossible", "excluded", "refuted", "contradicted", "untrue",
                        "wrong", "incorrect"})
_RULED = (("ruled", "out"), ("rules", "out"))
_HEDGES = frozenset({"might", "may", "could", "can", "possibly", "probably", "likely", "perhaps", "maybe", "about",
                     "roughly", "nearly", "almost", "seems", "appears", "unlikely", "possible"})
_SUBJECTS = frozenset({"it", "he", "she", "they", "that", "this", "so", "yes"})
_HEADS = (("the", "answer"), ("the", "statement"), ("the", "claim"), ("the", "query"), ("the", "question"))
# Words an echo of the query may say beside the core's own: its verbs of holding, and nothing of any other fact
_ECHO = frozenset({"is", "are", "does", "do", "be", "holds", "hold", "follows", "follow", "true", "so", "the", "case",
                   "correct", "certain", "entailed", "yes", "it", "there", "1", "one", "in", "on", "a", "an", "of"})


def affirmed(clause: list[str], first: str | None, core: frozenset[str]) -> bool | None:
    """Whether a label's clause says the query holds (True) or is ruled out (False), speaking of the query itself (its
    subject a pronoun or the query's first symbol, its words the core question's own or of holding, one negation or
    none); None where it is no such clause. A clause of the core's words ("YES if she is a member", the core asking
    "Is Orla a member of the Ashen Order?") leaves the rest of its complement to the question."""
    words = plain(framed_away(clause))
    if words is None or not words or set(words) & _HEDGES:
        return None
    lone = len(words) < len(clause) or tuple(clause) in (("so",), ("yes",))   # "YES if necessarily", "YES if so"
    words = _membership_said(words, first)
    if words[0] in _SUBJECTS or (first is not None and words[0] == first):
        words = words[1:]
    elif tuple(words[:2]) in _HEADS:
        words = words[2:]
    negations = sum(w in _NEGATIONS for w in words) + sum(tuple(words[k:k + 2]) in _RULED for k in range(len(words)))
    rest = [w for w in words if w not in _NEGATIONS and w not in ("ruled", "rules", "out")]
    marks = [w for w in rest if w[:1] == "@"]
    if negations > 1 or first in marks or any(w not in core for w in marks):   # another symbol, or the args swapped
        return None
    if not all(w in _ECHO or w in core for w in rest) or not (words or lone):
        return None
    return negations == 0


_OWNERS = frozenset({"her", "his", "its", "their"})


def _membership_said(words: list[str], first: str | None) -> list[str]:
    """The query named as the subject's membership ("her membership follows", "Esme's non-membership is certain")
    said as "it" (the query) and "non" as its negation; the words as they are otherwise."""
    k = 1 if words[:1] and words[0] in _OWNERS else 2 if first is not None and words[:2] == [first, "'s"] else 0
    if not k:
        return words
    for noun, neg in ((["membership"], False), (["non", "membership"], True), (["nonmembership"], True)):
        if words[k:k + len(noun)] == noun:
            return ["it"] + (["not"] if neg else []) + words[k + len(noun):]
    return words


@cache
def settle_rows() -> re.Pattern[str]:
    """What says "the statements do not settle it", composed: a source, a negated verb of settling, what it leaves
    (a pronoun, a noun of the question, or a clause of which/whether/where), from where; or the passive."""
    settle = "settle|determine|decide|say|tell|show|fix|establish|resolve|pin down|answer|specify|make clear|reveal|" \
             "work out|figure out|clarify|give|guarantee|indicate|confirm|let us know|let us tell|tell us|allow us to " \
             "tell|allow us to say|allow us to decide|allow us to determine|let us decide|let us determine|let us say|" \
             "make it clear|make this clear|make that clear|make it certain|make this certain"   # (its object inside)
    # a conclusion allowed, composed: "do not allow a conclusion", "do not support a firm answer"
    settle += "|" + "|".join(f"{v} {a}{d}{n}" for v in ("allow", "permit", "support", "give", "yield", "lead to",
                                                         "justify", "warrant") for a in ("a ", "an ", "any ")
                             for d in ("", "firm ", "definite ", "certain ", "clear ")
                             for n in ("conclusion", "answer", "decision", "verdict"))
    settle = settle.replace("|an firm ", "|a firm ").replace("|a answer", "|an answer")
    negated = "do not|does not|cannot|can not|could not|fail to|fails to|will not|would not|are not enough to|" \
              "is not enough to|are insufficient to|is insufficient to|do not suffice to|does not suffice to|" \
              "are not sufficient to|is not sufficient to|do not allow us to|does not allow us to|never"
    thing = "it|this|that|the question|the matter|the answer|the point|the issue|the case|the side|its side|his side|" \
            "her side|their side|their order|its position|his position|her position|the order|the position|the " \
            "relation|the relationship|this one|that one|her status|his status|its status|either|membership|her " \
            "membership|his membership|its membership|the outcome|the result|things|anything"
    # the pair's order said of the pair, never of names ("the order of the two cannot be worked out")
    pair = r"(?:the|their) (?:relative )?(?:order|positions|arrangement|placement)(?: of (?:the two|these two|" \
           r"the pair|this pair|both|them|the 2|these 2)(?: (?:items|things|ones|names|people|animals|plants|objects))?)?"
    thing = rf"(?:{_alt(thing)}|{pair}|(?:its|his|her|their|the) (?:position|place|side|location|spot|order|seat)(?: " \
            r"(?:relative to|with respect to|compared with|compared to|in relation to) @\w+)?|between (?:these|them|" \
            r"the two|these two|the options|these options|the answers|these answers|the possibilities|these " \
            r"possibilities))"   # "cannot decide between these"
    tail = "either way|one way or the other|for sure|for certain|with certainty|definitively|conclusively|for us|" \
           "clearly|at all|completely|fully|uniquely"
    settled = "determined|decided|settled|established|worked out|figured out|pinned down|deduced|inferred|concluded|" \
              "told|known|resolved|answered|said|fixed|shown|proven|proved|ascertained"
    whs = r"(?:which|whether|where|how|what|if|who)(?: [^ ]+){0,10}?"
    src = source()
    frm = rf"(?: (?:from|by|with|given|based on|using) {src})?"
    obj = rf"(?: (?:{thing}|{whs}))?(?: {_alt(tail)})?"
    rows = [rf"{src} {_alt(negated)} {_alt(settle)}{obj}{frm}",
            rf"(?:(?:it|this|that|the answer|which|which one|{thing}) )?(?:cannot|can not|could not) be "
            rf"{_alt(settled)}(?: {_alt(tail)})?{frm}(?: {_alt(tail)})?",
            rf"{src} (?:leave|leaves|keep|keeps) {thing} (?:open|undecided|unsettled|undetermined|unclear|"
            rf"uncertain|unresolved|ambiguous|an open question|unanswered)",
            rf"{src} (?:is|are) (?:not enough|insufficient|not sufficient|incomplete|silent|inconclusive)(?: on it| on this"
            rf"| about it)?(?: to (?:{_alt(settle)}){obj})?",
            rf"(?:it|this|that|the answer|{thing}) (?:is|remains|stays) (?:not (?:{_alt(settled)})|undetermined|"
            rf"undecided|unsettled|open|uncertain|unknown|unclear|unresolved|ambiguous|an open question|left open)"
            rf"(?: {_alt(tail)})?{frm}",
            rf"{src} (?:allow|allows|permit|permits|fit|fits|are consistent with|is consistent with|leave room for|leaves "
            rf"room for|admit|admits) (?:either|both|each)(?: (?:possibility|possibilities|answer|answers|way|ways|case|"
            rf"cases|outcome|outcomes|option|options))?",
            rf"{src} (?:prove|proves|show|shows|establish|establishes|imply|implies|entail|entails|force|forces|settle|"
            rf"settles|guarantee|guarantees|decide|decides|determine|determines|resolve|resolves|confirm|confirms|"
            rf"fix|fixes) neither(?: 1| of them| of these| answer| possibility| way| case| option| outcome)?",
            r"(?:neither|none) (?:follows|holds|applies|is forced|of them follows|of these follows)",
            rf"(?:neither|none) (?:is|can be) (?:{_alt(settled)}|certain|forced|guaranteed)(?: {_alt(tail)})?{frm}",
            rf"there is (?:not enough|insufficient|no) (?:information|evidence|way to tell|way to know)(?: to (?:"
            rf"{_alt(settle)}){obj})?{frm}"]
    return re.compile("(?:" + "|".join(rows) + ")")


def unsettled(words: list[str]) -> bool:
    """Whether a clause says the statements do not settle the question (its words as read, lower case)."""
    if set(words) & (_HEDGES - {"can", "could"}):
        return False
    return settle_rows().fullmatch(" ".join(words)) is not None
