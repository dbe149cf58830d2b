"""Structured renders: parsing, the exact fidelity check, and the problem text (the schema: rendering/schema.py).

A renderer returns `{"names": {symbol: name}, "intro": ..., "premises": [{"fact": i, "text": ...}],
"question": ...}`. The check is exact and needs no model: every symbol has one distinct name (the one
it was given, where names are given; not an answer label; no name part of another, as whole words:
`Ann` and `Anna` are distinct, `Lake` and `Lake Road` are not); every fact is stated exactly once; each
premise is read back by its family's wording (families/reading.py) and must read as exactly its fact
(`misread`: it says another fact, or holds a word that contradicts it; `unread`: it reads as nothing);
a procedural family keeps the fact order; the question names the queried symbols and must not read as
another query (it asks the other way round, or negated); the intro names no symbol and holds no number
and no answer label. The text a solver sees is assembled here: what each label means, and the answer
instruction with the labels verbatim, are ours.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Mapping, NamedTuple, Sequence, get_args

import orjson

from families.reading import Marked, number_variant, reader, spell
from families.registry import FAMILIES
from families.wording import HEDGES, NEGATIONS, NUMBER_WORDS, normalize, tokens
from rendering.lookalike import hidden, looks


@dataclass(frozen=True)
class StructuredRender:
    """A parsed structured render (shape checked, fidelity not yet)."""

    names: Mapping[str, str]
    premises: tuple[tuple[int, str], ...]
    question: str
    intro: str = ""


def names_fixed(payload: Mapping[str, Any]) -> bool:
    """Whether the answer labels spell symbols (equality's `c = h`): then every symbol keeps its own name."""
    symbols = payload["entities"]
    return any(tok in symbols for label in payload["answer_options"] for tok in label.split())


def parse(text: str) -> StructuredRender | str:
    """The render in `text`, or why it is malformed (one reason)."""
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return f"malformed: not valid JSON ({exc.args[0] if exc.args else exc})"
    return from_object(obj)


def from_object(obj: Any) -> StructuredRender | str:
    """The render in a parsed JSON value, or why it is malformed (one reason)."""
    if not isinstance(obj, dict):
        return "malformed: not a JSON object"
    names, premises, question, intro = obj.get("names"), obj.get("premises"), obj.get("question"), obj.get("intro", "")
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        return "malformed: `names` is not an object of strings"
    if not isinstance(premises, list):
        return _BAD_PREMISES
    stated = []
    for p in premises:   # a fact number is an integer, never a bool
        if not isinstance(p, dict) or not isinstance(fact := p.get("fact"), int) or isinstance(fact, bool) \
                or not isinstance(text := p.get("text"), str):
            return _BAD_PREMISES
        stated.append((fact, text.strip()))
    if not isinstance(question, str) or not isinstance(intro, str):
        return "malformed: `question` or `intro` is not a string"
    return StructuredRender({str(k): v.strip() for k, v in names.items()}, tuple(stated), question.strip(), intro.strip())


_BAD_PREMISES = "malformed: `premises` is not a list of {fact: integer, text: string}"


_WORD = re.compile(r"\w+")


@lru_cache(maxsize=1 << 14)   # names, labels and intros repeat from render to render
def words(text: str) -> tuple[str, ...]:
    """The words of a text, lower-cased: names are found as whole words, ignoring case and punctuation."""
    return tuple(_WORD.findall(text.lower()))


def mentions(name: str, text: str) -> bool:
    """Whether `name` occurs in `text` as a whole word (or words in a row), ignoring case."""
    return _contains(words(text), words(name))


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    n = len(needle)
    return n > 0 and any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


class _Finder:
    """Which of the render's names a text mentions: each text's word n-grams against the names' words,
    one set lookup per name (a regex per name and text cost a millisecond per render)."""

    def __init__(self, name_words: dict[str, tuple[str, ...]]):
        self.names = {s: w for s, w in name_words.items() if w}
        self.lengths = sorted({len(w) for w in self.names.values()})

    def found(self, text: str) -> set[str]:
        ws = words(text)
        grams = {ws[i:i + n] for n in self.lengths for i in range(len(ws) - n + 1)}
        return {s for s, w in self.names.items() if w in grams}


def _fact_text(fact: Mapping[str, Any]) -> str:
    return f"{fact['predicate']}({','.join(map(str, fact['arguments']))})"


def check(render: StructuredRender, payload: Mapping[str, Any], given: Mapping[str, str] | None = None) -> list[str]:
    """Every way `render` departs from the skeleton, each `reason: detail`; empty when faithful.

    `given`: the names the renderer was told to use (`names: assigned`); a family whose labels spell its
    symbols (`names_fixed`) must name every symbol as itself whatever was given.
    """
    entities = payload["entities"]
    labels = {label.lower() for label in payload["answer_options"]}
    reasons: list[str] = []
    names = {s: render.names.get(s, "") for s in entities}
    fixed = names_fixed(payload)
    if fixed:   # the options name the symbols themselves: a renamed symbol is one the text never mentions
        given = {s: s for s in entities}
    if not render.names.keys() <= entities.keys():
        reasons += [f"unknown_symbol: `names` has {s}, not a symbol of the problem" for s in render.names
                    if s not in entities]
    values = list(names.values())
    lows = [n.lower() for n in values]
    if "" not in values and (given is None or all(given.get(s, n) == n for s, n in names.items())) \
            and (fixed or labels.isdisjoint(lows)) and len(set(lows)) == len(lows) and _apart(tuple(values)):
        distinct = {s: words(n) for s, n in names.items()}   # the common case: no name rule to report
    else:
        distinct = _named_apart(names, given, labels, fixed, reasons)
    # A name inside another: only a name of several words can hold another, so look up every shorter
    # run of words of those (one set lookup per name, not a comparison per pair of names).
    inner: dict[tuple[str, ...], str] = {}
    if max(map(len, distinct.values()), default=0) > 1:
        for t, w in distinct.items():
            for size in range(1, len(w)):
                for i in range(len(w) - size + 1):
                    inner.setdefault(w[i:i + size], t)
    if inner:
        for s, w in distinct.items():
            t = inner.get(w)
            if t is not None and t != s:
                reasons.append(f"name_inside_name: {s}'s name {names[s]!r} is part of {t}'s name {names[t]!r}")
    facts = payload["facts"]
    if sorted([i for i, _ in render.premises]) != list(range(len(facts))):   # not every fact stated once
        reasons += _stated(render, facts)
    family = FAMILIES.get(payload["family"])
    if family is not None:
        reasons += _read_back(render, payload, {s: names[s] for s in distinct})
    if family is not None and family.order_matters:
        order = [i for i, _ in render.premises if 0 <= i < len(facts)]
        if order != sorted(order):
            reasons.append(f"order: the facts must keep their order; the premises give {order}")
    for s in (a for a in payload["query"]["arguments"] if isinstance(a, str)):
        if names.get(s) and not mentions(names[s], render.question) and not (
                entities.get(s) == "Set" and (v := number_variant(words(names[s]))) and mentions(v[0], render.question)):
            reasons.append(f"question: the question does not name {s} ({names[s]!r})")
    scene = _unarticled(render.intro) if _ARTICLE_NAMES.intersection(w[0] for w in distinct.values() if w) \
        else render.intro
    intro_words = words(scene)
    if family is not None and not {w[0] for w in distinct.values() if w}.isdisjoint(intro_words):
        named = sorted(_Finder(distinct).found(scene))   # a name's first word: look closer
        hint = _intro_hint(render.intro, payload, {s: names[s] for s in distinct}) if named else None
        if hint:
            reasons.append(f"intro: the intro names {', '.join(named)} and {hint}")
    return reasons + list(_intro_flaws(render.intro, tuple(payload["answer_options"])))


# Words that, beside a name in the intro, say or hint something about it (besides each family's cue words,
# negations and hedges): an intro may set a scene with the names, never say where they stand or what they hold.
_HINTS = frozenset("answer answers question result solution ends end ending final finally last first left right "
                   "leftmost rightmost between next beside before after member members belongs belong includes "
                   "include equal equals different differ differs relates related turns gains gain loses lose "
                   "more most fewer fewest less least start starts started begins initially empty full "
                   "none subset".split())


def _intro_hint(intro: str, payload: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """Why an intro that names symbols says too much (a sentence of it reads as a fact, or holds a word of a
    hint), or None."""
    family = FAMILIES[payload["family"]]
    read, types = reader(payload["family"]), payload["entities"]
    marked = Marked(names, types)
    for sentence in re.split(r"(?<=[.;:!?])\s+|,\s+", intro):
        line = " " + " ".join(normalize(marked.words(sentence)))
        if read._parses(read.facts, line, marked, types):
            return "states a fact"
    cues = {w for table in family.wording.cues.values() for _, ws in table for w in ws}
    hit = sorted(set(tokens(intro)) & (_HINTS | family.wording.intro_hints | cues | NEGATIONS | HEDGES))
    return f"holds a word of a hint ({hit[0]!r})" if hit else None


@lru_cache(maxsize=1 << 12)   # a renderer's names repeat (the template's per skeleton)
def _apart(values: tuple[str, ...]) -> bool:
    """Whether no name hides a character and no two names look alike (the common case)."""
    if "".join(values).isascii() and all(v.isprintable() for v in values):
        seen: set[str] = set()
        for v in values:
            keys = looks(v)
            if not seen.isdisjoint(keys):
                return False
            seen |= keys
        return True
    return False


def _named_apart(names: dict[str, str], given: Mapping[str, str] | None, labels: set[str], fixed: bool,
                 reasons: list[str]) -> dict[str, tuple[str, ...]]:
    """The name rules one symbol at a time (some name breaks one): each break appended to `reasons`; the
    words of every name that is its symbol's alone (shared, alike or hidden-charactered ones are left out)."""
    by_name: dict[str, list[str]] = {}   # each name, lower-cased, and the symbols that have it
    unclear: set[str] = set()
    for s, name in names.items():
        if not name:
            reasons.append(f"missing_name: {s} has no name")
            continue
        low = name.lower()
        if given is not None and s in given and name != given[s]:
            reasons.append(f"wrong_name: {s} is named {name!r}; the name it was given is {given[s]!r}")
        elif low in labels and not fixed:
            reasons.append(f"name_is_label: {s} is named {name!r}, an answer label")
        bad = hidden(name)
        if bad:
            reasons.append(f"hidden_character: {s}'s name {name!r} holds a control or format character ({bad})")
            unclear.add(s)
        by_name.setdefault(low, []).append(s)
    named = len(names) - list(names.values()).count("")
    if len(by_name) < named:
        reasons += [f"duplicate_name: {' and '.join(owners)} share the name {name!r}"
                    for name, owners in by_name.items() if len(owners) > 1]
    # Distinct names that look alike (TR39 skeletons, NFKC, case): to a reader they are one name.
    by_look: dict[str, list[str]] = {}
    for owners in by_name.values():
        for key in looks(names[owners[0]]):
            by_look.setdefault(key, []).append(owners[0])
    for alike in {tuple(sorted(set(o))) for o in by_look.values() if len(set(o)) > 1}:
        reasons.append("lookalike_names: " + " and ".join(f"{s} ({names[s]!r})" for s in alike)
                       + " have names that look alike: one name to a reader")
        unclear.update(s for o in alike for s in by_name[names[o].lower()])
    # Symbols that share a name are reported above; in premises they are left out (ambiguous), so one
    # shared name does not make every premise wrong about every one of them.
    return {s: words(n) for s, n in names.items() if n and s not in unclear
            and (len(by_name) == named or len(by_name[n.lower()]) == 1)}


def _stated(render: StructuredRender, facts: list) -> list[str]:
    """What is wrong with which facts the premises state: a fact not stated, stated twice, or not a fact."""
    reasons = []
    stated = Counter(i for i, _ in render.premises)
    for i, fact in enumerate(facts):
        if stated[i] == 0:
            reasons.append(f"missing_fact: fact {i} {_fact_text(fact)} is not stated")
        elif stated[i] > 1:
            reasons.append(f"duplicate_fact: fact {i} {_fact_text(fact)} is stated {stated[i]} times")
    for i in sorted(i for i in stated if not 0 <= i < len(facts)):
        reasons.append(f"unknown_fact: a premise states fact {i}; the facts are 0..{len(facts) - 1}")
    return reasons


# A variable named "a" is the article too ("A student is handed a worksheet"): before a word that says nothing
# of a variable, the intro's "a" is read as the article.
_ARTICLE_NAMES = frozenset({"a", "an"})
_ARTICLE = re.compile(r"\b[Aa]n?\s+(?!(?:is|equals|and|does|has|differs|matches|was|were|are|or|not|to|plus|minus)\b)"
                      r"(?=[A-Za-z]{2,})")


def _unarticled(intro: str) -> str:
    return _ARTICLE.sub("", intro)


# "One" that counts no item: the setting's "one row", "a single line", "one per line", "one another".
_ONE_OK = frozenset("row rows line lines queue lineup long straight file per another bench table photo picture "
                    "group list".split())
# Words that speak of the answer: an intro with one hints at it ("Hint: the correct option is an equality").
_ANSWER_TALK = frozenset("hint hints hinted correct incorrect solution solutions".split())


# "One" of an order or a choice, no count: "one after another", "one by one", "one at a time", "each one", "no one".
_ONE_BEFORE = frozenset("each every any no which this that".split())
_ONE_AFTER = (("after", "another"), ("after", "the", "other"), ("by", "1"), ("by", "one"), ("at", "a", "time"))


def _one_of_order(intro_words: Sequence[str], k: int) -> bool:
    """Whether the "one" at `k` orders or picks ("one after another", "each one"), counting nothing."""
    before = tuple(intro_words[max(0, k - 2):k])
    return bool(before) and before[-1] in _ONE_BEFORE or before[-2:] in (("1", "by"), ("one", "by")) or any(
        tuple(intro_words[k + 1:k + 1 + len(a)]) == a for a in _ONE_AFTER)


def _counts(intro_words: Sequence[str]) -> bool:
    """Whether the intro's words hold a number: a digit or number word, but "one" of the setting (`_ONE_OK`)."""
    for k, w in enumerate(intro_words):
        if w in ("1", "one") and (k + 1 < len(intro_words) and intro_words[k + 1] in _ONE_OK
                         or tuple(intro_words[max(0, k - 2):k]) == ("at", "least") or _one_of_order(intro_words, k)):
            continue
        if w.isdigit() or w in NUMBER_WORDS:
            return True
    return False


@lru_cache(maxsize=1 << 12)   # a renderer's intros repeat (the template's always), and so do a family's labels
def _intro_flaws(intro: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """What the intro must not hold besides names: a number, an answer label (it says or hints an answer)."""
    # digits, or number words ("forty-six", "one"): tokens() spells every number word as digits
    intro_words = words(intro)
    reasons = ["intro: the intro holds a number"] if re.search(r"\d", intro) or _counts(intro_words) else []
    talk = sorted(_ANSWER_TALK.intersection(intro_words))
    if talk:
        reasons.append(f"intro: the intro speaks of the answer ({talk[0]!r})")
    for label in sorted({label for label in options if _contains(intro_words, words(label))}):
        reasons.append(f"intro: the intro holds the answer label {label!r}")
    return tuple(reasons)


class PremiseVerdict(NamedTuple):
    """One premise read back against its fact: `read`, `misread` (with what it says instead) or `unread`."""

    index: int   # type: ignore[assignment]  # shadows tuple.index; the fact's index is what callers read
    text: str
    fact: str          # the fact as the check spells it, e.g. LEFT_OF(a, b)
    kind: str
    detail: str


def premise_verdicts(render: StructuredRender, payload: Mapping[str, Any],
                     names: Mapping[str, str], wrong_only: bool = False) -> list[PremiseVerdict]:
    """Every premise of a render read back by its family's wording, in the render's order (the question last,
    index -1); premises that name no fact of the skeleton are left out (the shape checks name them).
    `wrong_only`: only those that do not read (what the check reports)."""
    read = reader(payload["family"])
    types = payload["entities"]
    marked = Marked(names, types)
    facts = [(f["predicate"], tuple(f["arguments"])) for f in payload["facts"]]
    known, out = read.known(render.premises, facts, marked, types), []
    prev = -1   # the fact of the premise before, where it read: its one symbol is what "it" may stand for
    for j, (i, text) in enumerate(render.premises):
        if not 0 <= i < len(facts):
            prev = -1
            continue
        if j in known:   # read before, in another render: the common case, and most of the check's time
            if not wrong_only:
                out.append(PremiseVerdict(i, text, spell(facts[i]), "read", ""))
            prev = i
            continue
        own = [a for a in facts[prev][1] if isinstance(a, str)] if prev >= 0 else []
        verdict = read.read_fact(text, facts[i], marked, types, own[0] if len(own) == 1 else None)
        prev = i if verdict.kind == "read" else -1
        if not (wrong_only and verdict.kind == "read"):
            out.append(PremiseVerdict(i, text, spell(facts[i]), verdict.kind, verdict.detail))
    query = (payload["query"]["predicate"], tuple(payload["query"]["arguments"]))
    asked = read.read_question(render.question, query, marked, types, tuple(payload["answer_options"]))
    if not (wrong_only and asked.kind == "read"):
        out.append(PremiseVerdict(-1, render.question, spell(query), asked.kind, asked.detail))
    return out


def _read_back(render: StructuredRender, payload: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Every premise and the question read back by the family's wording: `misread` and `unread` reasons."""
    out = []
    for v in premise_verdicts(render, payload, names, wrong_only=True):
        if v.index < 0:
            if v.kind == "misread":
                out.append(f"misread: the question {v.detail}, where the query is {v.fact}")
            else:   # a question must ask the query: one that reads as nothing goes to an auditor, if any
                out.append(f"unread: the question does not read as the query {v.fact}")
        elif v.kind == "misread":
            out.append(f"misread: the premise of fact {v.index} {v.fact} {v.detail}")
        elif v.kind == "unread":
            out.append(f"unread: the premise of fact {v.index} {v.fact} does not read as any fact")
    return out


def answer_line(payload: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """Ours, after the question: what each label means (spelled from the query), and the labels verbatim."""
    labels = list(payload["answer_options"])
    family = FAMILIES.get(payload["family"])
    spelled = [names.get(a, a) if isinstance(a, str) else str(a) for a in payload["query"]["arguments"]]
    meaning = family.wording.answer_line(spelled, labels) if family is not None else ""
    return (meaning + "\n" if meaning else "") + "Answer with exactly one of: " + ", ".join(labels) + "."


def assemble(render: StructuredRender, payload: Mapping[str, Any]) -> str:
    """The problem a solver sees: intro, premises in the renderer's order, question, and our answer line."""
    lines = ([render.intro] if render.intro else []) + [text for _, text in render.premises]
    return "\n".join(lines) + "\n\n" + render.question + "\n" + answer_line(payload, render.names)


# Why a structured render is unfaithful: each of the check's reasons opens with one of these codes and a
# colon (`missing_fact: fact 3 ...`); the report, the tally and the view count and filter by the code alone.
CheckCode = Literal["malformed", "unknown_symbol", "name_inside_name", "order", "question", "intro", "missing_name",
                    "wrong_name", "name_is_label", "hidden_character", "duplicate_name", "lookalike_names",
                    "missing_fact", "duplicate_fact", "unknown_fact", "misread", "unread"]
CHECK_CODES: tuple[CheckCode, ...] = get_args(CheckCode)


def reason_code(reason: object) -> str:
    """`missing_fact` of `missing_fact: fact 3 ...`: how reasons are counted (the one reader of a reason's code:
    the check writes only CHECK_CODES; a log written by hand or another version is counted as it says)."""
    return str(reason).split(":", 1)[0]
