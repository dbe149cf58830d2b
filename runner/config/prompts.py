"""Default prompt templates, and filling them: `{payload}` for render, `{problem}` and `{labels}` for solve."""
from __future__ import annotations

import orjson

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

SOLVE_DEFAULT = """{problem}

Answer with exactly one of: {labels}"""

# A loglik solver scores each option as the continuation of this text: the problem, raw (no chat template).
# A loglik prompt may use {card} instead: an equality item's context exactly as the LogicMark card writes
# it (`If:`, one premise per line, `Then`), whatever the renderer wrote; other families get the render.
LOGLIK_DEFAULT = "{problem}"

PLACEHOLDERS = {"render": ("{payload}",), "solve": ("{problem}", "{labels}"), "loglik": ("{problem}",)}


def fill_render(template: str, payload: dict, compact: bool = False) -> str:
    """The render prompt for one redacted payload (never gold or proof: the payload has neither).

    `compact` (structured renders) writes the payload's JSON without indentation: on a CPU server the
    prompt's prefill is most of a render's time, and indentation is a third of its tokens.
    """
    labels = ", ".join(payload["answer_options"])
    return template.replace("{labels}", labels).replace(
        "{payload}", orjson.dumps(payload, option=0 if compact else orjson.OPT_INDENT_2).decode())


def fill_solve(template: str, problem: str, labels: tuple[str, ...]) -> str:
    """The solve prompt for one rendered problem."""
    return template.replace("{labels}", ", ".join(labels)).replace("{problem}", problem)
