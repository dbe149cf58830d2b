"""The JSON schema a structured render is asked for: one slot per fact, names fixed where we give them,
and (for grammar backends that honour it) a pattern per sentence that spells its fact's names and numbers.

What the schema can make impossible, it does, so that a small model only writes words:
- `premises` is a tuple (`prefixItems`): slot i has `fact` const i, so a fact cannot be missing,
  stated twice or out of range; slot i is the skeleton's fact i (for a declarative family the
  skeleton's order is already a uniform shuffle, so nothing leaks);
- with names given (`names: assigned`, or a family whose labels spell its symbols), every name is a
  `const`;
- with names given, each premise's text has a bounded `pattern`: the fact's names and numbers in
  argument order, a few lower-case words between and after them, a full stop; the
  question's names the queried symbols; the intro's holds no name and no number. A pattern and a
  `maxLength` are never in one node (xgrammar refuses the pair); `for_server` keeps the one a server takes.
The checker (`rendering.structure.check`) checks all of it again: another server may not enforce it.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from rendering.structure import names_fixed

SCHEMA_VERSION = 2   # part of every structured render unit's key: changing the schema makes new units
# Every string is bounded, so a constrained render always closes its JSON: a small model otherwise
# repeats a premise's text until max_tokens. A render's length is then at most about
# symbols x NAME + facts x (TEXT + 20) + INTRO + QUESTION characters.
NAME_CHARS, TEXT_CHARS, INTRO_CHARS, QUESTION_CHARS = 24, 120, 120, 300

# Bounded everywhere: an unbounded class let SmolLM2 loop ("Iris urn urn urn ...") until max_tokens.
_ASK = "(Where|Is|Does|Do|How|What|Which|Who|At|In)"
_SCENE = "(The|In|At|On|Some|These|Here|This|Our|Picture|Imagine|Consider)"


def render_schema(payload: Mapping[str, Any], names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The schema of one skeleton's render; `names` are the names the renderer must use (None: its own)."""
    symbols = list(payload["entities"])
    # Sentence patterns only for names given by us: the prompt of assigned names then says each fact in
    # plain words, which the patterns follow. Names the labels spell are fixed either way.
    pats = _Patterns(payload, names) if names else None
    if names_fixed(payload):
        names = {s: s for s in symbols}
    n = len(payload["facts"])
    name = (lambda s: {"const": names[s]}) if names else (lambda s: {"type": "string", "maxLength": NAME_CHARS})
    slot = lambda i: {  # noqa: E731
        "type": "object",
        "properties": {"fact": {"const": i}, "text": _text(TEXT_CHARS, pats and pats.premise(i))},
        "required": ["fact", "text"], "additionalProperties": False}
    return {
        "type": "object",
        "properties": {
            "names": {"type": "object", "properties": {s: name(s) for s in symbols}, "required": symbols,
                      "additionalProperties": False},
            "intro": _text(INTRO_CHARS, pats and pats.intro()),
            "premises": {"type": "array", "prefixItems": [slot(i) for i in range(n)], "items": False,
                         "minItems": n, "maxItems": n},
            "question": _text(QUESTION_CHARS, pats and pats.question()),
        },
        "required": ["names", "intro", "premises", "question"],
        "additionalProperties": False,
    }


def _text(limit: int, pattern: str | None) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string", "maxLength": limit}
    if pattern:
        node["pattern"] = pattern
    return node


class _Patterns:
    """The bounded patterns of one skeleton's sentences, given its names."""

    def __init__(self, payload: Mapping[str, Any], names: Mapping[str, str]):
        self.payload, self.names = payload, names
        # Filler words are lower case; a one-letter filler could be a one-letter name (equality's `a`).
        shortest = 2 if any(len(v) == 1 for v in names.values()) else 1
        self.word = f"[a-z]{{{shortest},12}}"

    def _spell(self, args: Any) -> list[str]:
        return [re.escape(self.names[a]) if isinstance(a, str) else str(a) for a in args]

    def premise(self, i: int) -> str:
        w, tokens = self.word, self._spell(self.payload["facts"][i]["arguments"])
        # The sentence opens with its first name: an opening word let SmolLM2 start every premise with
        # "The answer is" and fill the gaps with nonsense ("Later is to the Rosa to the left of ...").
        gap = f"( {w}){{1,6}} "
        return gap.join(tokens) + f"( {w}){{0,{4 if len(tokens) > 1 else 8}}}\\."

    def question(self) -> str | None:
        tokens = self._spell(a for a in self.payload["query"]["arguments"] if isinstance(a, str))
        if not tokens:   # nothing queried by name (equality asks which option follows)
            return None
        w = self.word
        return f"{_ASK}( {w}){{0,6}} " + f"( {w}){{1,8}} ".join(tokens) + f"( {w}){{0,8}}\\?"

    def intro(self) -> str:
        w = self.word
        return f"({_SCENE}( {w}){{0,14}}\\.)?"


def for_server(schema: Mapping[str, Any], patterns: bool) -> Any:
    """The schema as one server takes it: its patterns (and not the maxLength beside them, which
    xgrammar refuses with a pattern), or its maxLengths alone where patterns are not honoured."""
    if isinstance(schema, Mapping):
        if schema.get("type") == "string" and "pattern" in schema:
            drop = "maxLength" if patterns else "pattern"
            return {k: v for k, v in schema.items() if k != drop}
        return {k: for_server(v, patterns) for k, v in schema.items()}
    if isinstance(schema, list):
        return [for_server(v, patterns) for v in schema]
    return schema
