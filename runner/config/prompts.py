"""Default prompt templates, and filling them: `{payload}` for render, `{problem}` and `{labels}` for solve."""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

import orjson

from families.registry import FAMILIES
from families.wording import say
from rendering.structure import names_fixed

RENDER_DEFAULT = """You turn a formal logic problem into a self-contained natural-language puzzle.

Rules:
- State every fact, in natural language, with invented names for the symbols; add no fact, drop no fact.
- Keep the direction of every relation. If the rules say the order of facts matters, keep that order.
- Do not use real-world knowledge, and do not hint at which answer is right.
- End with the question, and list the permitted answers exactly as written, verbatim: {labels}

The problem, as JSON:
{payload}

Write only the puzzle."""

RENDER_STRUCTURED_DEFAULT = """You turn a formal logic problem into a natural-language puzzle, given as one JSON object:
- "names": an invented name for every symbol of "entities": a word or two, each name different, not
  an answer label, and no name part of another.
- "intro": one sentence that sets the scene; it names no symbol and gives no number (or "").
- "premises": one entry per fact: {"fact": the fact's index in "facts" (from 0), "text": one
  sentence that states exactly that fact with your names for its symbols and every number it holds}.
  State every fact exactly once, keep the direction of every relation, add nothing. If the rules say
  that the order of facts matters, keep their order.
- "question": the question of "query", with your names, saying what each answer means: {labels}
Use no real-world knowledge and give no hint of the answer.

The problem, as JSON:
{payload}"""

# `names: assigned`: the names are ours and the schema fixes them. Each fact is given in plain words with
# those names (the family's reading of its predicate), so a small model restates sentences rather than
# decoding predicates: with predicates alone, SmolLM2-135M filled the patterns' gaps with nonsense
# ("Coffer is iz iz iz 25."). No payload JSON: its prefill was most of a CPU render's time.
RENDER_ASSIGNED_DEFAULT = """You turn a logic problem into a short puzzle in plain English, given as one JSON object.

The names to use, exactly as written: {names}
The facts, in this order:
{facts}
The question: {asks}? The answer is one of: {labels}

Write "premises": for each fact, one sentence that says exactly that fact, with its names and numbers,
in the words above or in other words that mean the same; "question": the question, with the names."""

SOLVE_DEFAULT = """{problem}

Answer with exactly one of: {labels}"""

# A loglik solver scores each option as the continuation of this text: the problem, raw (no chat template).
# A loglik prompt may use {card} instead: an equality item's context exactly as the LogicMark card writes
# it (`If:`, one premise per line, `Then`), whatever the renderer wrote; other families get the render.
LOGLIK_DEFAULT = "{problem}"

# Where the answer labels spell the symbols (equality's "c != h"), a render that renames them makes the labels
# name nothing, and the check refuses it; a model told only to "invent names" does so every time (40 of 40
# equality renders written to the plain prompt, benchmarks/model_renders.py), so the prompt says it.
_SYMBOLS_AS_NAMES = ("\n\nThe answers are written with the symbols themselves, so do not rename them: every symbol's name"
                     " is the symbol as written ({symbols}), in \"names\" and in every sentence.")
# The default templates' own words ask for invented names; where the labels spell the symbols, those words go,
# since a note at the end that contradicts them is not enough: four of five blind writers (blind8 to blind12,
# benchmarks/model_renders.py) followed the first instruction and renamed every equality symbol.
_INVENTED = {
    '- "names": an invented name for every symbol of "entities": a word or two, each name different, not\n'
    '  an answer label, and no name part of another.':
    '- "names": every symbol of "entities" named as itself ("a": "a"): the answers are written with the\n'
    '  symbols, so no symbol is renamed.',
    "with invented names for the symbols": "with each symbol named as itself (the answers are written with them)",
}

PLACEHOLDERS = {"render": ("{payload}",), "solve": ("{problem}", "{labels}"), "loglik": ("{problem}",)}
# A render prompt gives the problem as {payload}, or (with assigned names) as {facts}.
RENDER_PROBLEM = ("{payload}", "{facts}")


def fill_render(template: str, payload: Mapping[str, Any], compact: bool = False, names: Mapping[str, str] | None = None) -> str:
    """The render prompt for one redacted payload (never gold or proof: the payload has neither).

    `compact` (structured renders) writes the payload's JSON without indentation: on a CPU server the
    prompt's prefill is most of a render's time, and indentation is a third of its tokens. `names`
    (assigned names) fill {names}, {facts} (each fact in plain words, numbered) and {asks}; a template without {names} gets them
    appended, so a renderer is always told the names its schema fixes.
    """
    labels = ", ".join(payload["answer_options"])
    out = template.replace("{labels}", labels)
    if "{payload}" in out:
        out = out.replace("{payload}", orjson.dumps(payload, option=0 if compact else orjson.OPT_INDENT_2).decode())
    family = FAMILIES.get(payload["family"])
    if names is None:   # a renderer that words everything itself (assigned names come with each fact in words)
        if family is not None and family.wording.prompt_note:
            out += "\n\n" + family.wording.prompt_note
        if not names_fixed(payload):
            return out
        for invented, kept in _INVENTED.items():
            out = out.replace(invented, kept)
        return out + _SYMBOLS_AS_NAMES.format(symbols=", ".join(payload["entities"]))
    given: Mapping[str, str] = names   # the narrowed type, for the closures below

    def spell(args: Iterable[object]) -> list[str]:   # a symbol by its name, a number as written
        return [given[a] if isinstance(a, str) else str(a) for a in args]

    def said(fact: Mapping[str, Any]) -> str:   # the family's canonical sentence of the fact, else the fact as written
        args = spell(fact["arguments"])
        if family is None:
            return f"{fact['predicate']}({', '.join(args)})"
        return say(family.wording.facts[fact["predicate"]][0], args)
    facts = "\n".join(f"{i}. {said(f)}" for i, f in enumerate(payload["facts"]))
    query = payload["query"]
    asks = family.asks(spell(query["arguments"])) if family else \
        f"{query['predicate']}({', '.join(spell(query['arguments']))})"
    if "{names}" not in out:
        out += "\n\nThe names to use, exactly as written: {names}"
    return out.replace("{names}", ", ".join(names[s] for s in payload["entities"])).replace(
        "{facts}", facts).replace("{asks}", asks)


def fill_solve(template: str, problem: str, labels: tuple[str, ...]) -> str:
    """The solve prompt for one rendered problem."""
    return template.replace("{labels}", ", ".join(labels)).replace("{problem}", problem)


def fill_repair(prompt: str, reasons: Iterable[str], names: Mapping[str, str] | None = None) -> str:
    """The prompt of a repair round: the original prompt, then why the last render was not faithful, in
    plain words (symbols spelled with the names the renderer was given, where it was given them)."""
    lines = []
    for reason in reasons:
        detail = reason.split(": ", 1)[-1]
        if names:
            detail = re.sub(r"\b\w+\b", lambda m: names.get(m.group(0), m.group(0)), detail)
        lines.append(f"- {detail}")
    return (prompt + "\n\nYour last answer was not faithful to the problem:\n" + "\n".join(lines)
            + "\nWrite the whole answer again, and fix these.")
