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

from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import Any, Literal, Mapping, get_args

import orjson

from families.reading import number_variant
from families.registry import FAMILIES
from families.wording import NUMBER_WORDS
from rendering.intro import ARTICLE_NAMES, intro_flaws, intro_hint, kinds_named, unarticled
from rendering.lookalike import hidden, looks
from rendering.read_back import read_back
from rendering.render import StructuredRender
from rendering.whole_words import Finder, mentions, words


def names_fixed(payload: Mapping[str, Any]) -> bool:
    """Whether the answer labels spell symbols (equality's `c = h`): then every symbol keeps its own name."""
    symbols = payload["entities"]
    return any(tok in symbols for label in payload["answer_options"] for tok in label.split())


def parse(text: str) -> StructuredRender | str:
    """The render in `text`, or why it is malformed (one reason). The object may stand in one Markdown code fence
    (```json ... ```), as models write JSON where no schema holds them to it, with prose around the fence ("Here is
    the puzzle:"): kept as the render's `aside`, which `check` holds to what an intro may say, and which no solver
    sees (the problem text is assembled from the object alone)."""
    body, aside = fenced(text)
    try:
        obj = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        bare = unfenced(text) if not aside else None
        if bare is None:
            return f"malformed: not valid JSON ({exc.args[0] if exc.args else exc})"
        obj, aside = bare
    render = from_object(obj)
    return replace(render, aside=aside) if aside and not isinstance(render, str) else render


def fenced(text: str) -> tuple[str, str]:
    """(what the one code fence in `text` holds, the prose around it, stripped), where `text` holds exactly one fence
    that opens a line and is tagged json or not at all; else (`text`, "")."""
    if text.count("```") != 2:
        return text, ""
    start = text.index("```")
    end = text.index("```", start + 3)
    tag, newline, inner = text[start + 3:end].partition("\n")
    if not newline or tag.strip().lower() not in ("", "json") or text[:start].strip(" \t")[-1:] not in ("", "\n"):
        return text, ""
    return inner, f"{text[:start].strip()}\n{text[end + 3:].strip()}".strip()


def unfenced(text: str) -> tuple[Any, str] | None:
    """(the JSON object, the prose around it) where `text` holds one object with no fence, from a line that opens with
    "{" to the last line that closes with "}", with prose (no brace, no backtick) before or after it ("Here is the
    puzzle:\n\n{...}"); else None."""
    lines = text.splitlines()
    first = next((k for k, line in enumerate(lines) if line.lstrip().startswith("{")), None)
    last = next((k for k in range(len(lines) - 1, -1, -1) if lines[k].rstrip().endswith("}")), None)
    if first is None or last is None or last < first:
        return None
    before, after = "\n".join(lines[:first]).strip(), "\n".join(lines[last + 1:]).strip()
    if not (before or after) or any(c in before + after for c in "{}`"):   # a brace, or a fence not read as one
        return None
    try:
        obj = orjson.loads("\n".join(lines[first:last + 1]))
    except orjson.JSONDecodeError:
        return None
    return obj, f"{before}\n{after}".strip()


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
        try:
            reasons += read_back(render, payload, {s: names[s] for s in distinct})
        except Exception as exc:   # noqa: BLE001 - a fault of our reader on one render must not end a sweep
            # The reader is a large grammar over text from outside; where it fails, the render is unread (a
            # calibrated auditor may still read it) and the record says why, so the fault is seen and fixed.
            reasons.append(f"unread: the reader failed on this render ({type(exc).__name__}: {exc})")
    if family is not None and family.order_matters:
        order = [i for i, _ in render.premises if 0 <= i < len(facts)]
        if order != sorted(order):
            reasons.append(f"order: the facts must keep their order; the premises give {order}")
    for s in (a for a in payload["query"]["arguments"] if isinstance(a, str)):
        if names.get(s) and not mentions(names[s], render.question) and not (
                entities.get(s) == "Set" and (v := number_variant(words(names[s]))) and mentions(v[0], render.question)):
            reasons.append(f"question: the question does not name {s} ({names[s]!r})")
    reasons += _scene_flaws(render.intro, payload, names, distinct, family is not None)
    if render.aside:   # prose around the JSON's fence: held to the intro's rule, said as the aside's
        reasons += [flaw.replace("the intro", "the text around the JSON")
                    for flaw in _scene_flaws(render.aside, payload, names, distinct, family is not None)]
    return reasons


def _scene_flaws(scene: str, payload: Mapping[str, Any], names: Mapping[str, str],
                 distinct: dict[str, tuple[str, ...]], known: bool) -> list[str]:
    """What an intro (or the prose around the JSON) must not hold: a name with a hint of the answer, a number (but a
    count of the named things), an answer label, talk of the answer."""
    reasons = []
    plain = unarticled(scene) if ARTICLE_NAMES.intersection(w[0] for w in distinct.values() if w) else scene
    scene_words = words(plain)
    if known and not {w[0] for w in distinct.values() if w}.isdisjoint(scene_words):
        named = sorted(Finder(distinct).found(plain))   # a name's first word: look closer
        hint = intro_hint(scene, payload, {s: names[s] for s in distinct}) if named else None
        if hint:
            reasons.append(f"intro: the intro names {', '.join(named)} and {hint}")
    # a count of the named things ("Two jars ...") is no number the intro rule bars: looked for only where one is said
    kinds = kinds_named(payload["entities"], {s: names[s] for s in distinct}) \
        if not NUMBER_WORDS.isdisjoint(scene_words) else ()
    return reasons + list(intro_flaws(scene, tuple(payload["answer_options"]), kinds))


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
