"""The JSON schema a structured render is asked for: one slot per fact, names fixed where we give them,
and (for grammar backends that honour it) a pattern per sentence that spells its fact's names and numbers.

What the schema can make impossible, it does, so that a small model only writes words:
- `premises` is a tuple (`prefixItems`): slot i has `fact` const i, so a fact cannot be missing,
  stated twice or out of range; slot i is the skeleton's fact i (for a declarative family the
  skeleton's order is already a uniform shuffle, so nothing leaks);
- with names given (`names: assigned`, or a family whose labels spell its symbols), every name is a
  `const`;
- with names given, each premise's text has a `pattern` that is its fact's own reading grammar (the
  family's phrasings of that predicate, names and numbers fixed: families/wording.py), so a server that
  honours patterns can only write a premise that reads back as its fact; the question's pattern is the
  query's phrasings; the intro is left out (`""`): SmolLM2's free intro restated a fact or held digits
  in 19 of 21 renders. A pattern and a `maxLength` are never in one node (xgrammar refuses the pair);
  `for_server` keeps the one a server takes.
The checker (`rendering.structure.check`) checks all of it again: another server may not enforce it.
"""
from __future__ import annotations

from typing import Any, Mapping

from families.registry import FAMILIES
from families.wording import writer_pattern
from rendering.structure import names_fixed

# Part of every structured render unit's key: a change of the schema, or of the check that judges what
# comes back (3: premises read back by the families' wordings; 4: no adjacency words in the order
# patterns, every character of a premise read; 5: "is no longer" out of the NOT_MEMBER_OF patterns, as it says the
# entity was a member, and the free-English reader of issue 42's held-out corpus), makes new units.
SCHEMA_VERSION = 5
# Every string is bounded, so a constrained render always closes its JSON: a small model otherwise
# repeats a premise's text until max_tokens. A render's length is then at most about
# symbols x NAME + facts x (TEXT + 20) + INTRO + QUESTION characters.
NAME_CHARS, TEXT_CHARS, INTRO_CHARS, QUESTION_CHARS = 24, 120, 120, 300



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
        "properties": {"fact": {"const": i}, "text": _text(TEXT_CHARS, pats.premise(i) if pats else None)},
        "required": ["fact", "text"], "additionalProperties": False}
    return {
        "type": "object",
        "properties": {
            "names": {"type": "object", "properties": {s: name(s) for s in symbols}, "required": symbols,
                      "additionalProperties": False},
            "intro": {"const": ""} if pats else _text(INTRO_CHARS, None),
            "premises": {"type": "array", "prefixItems": [slot(i) for i in range(n)], "items": False,
                         "minItems": n, "maxItems": n},
            "question": _text(QUESTION_CHARS, pats.question() if pats else None),
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
    """One skeleton's sentence patterns, given its names: each its family's reading grammar, spelled."""

    def __init__(self, payload: Mapping[str, Any], names: Mapping[str, str]):
        self.payload, self.names = payload, names
        self.wording = FAMILIES[payload["family"]].wording

    def _spell(self, args: Any) -> list[str]:
        return [self.names[a] if isinstance(a, str) else str(a) for a in args]

    def premise(self, i: int) -> str:
        fact = self.payload["facts"][i]
        return writer_pattern(self.wording.facts[fact["predicate"]], self._spell(fact["arguments"]),
                              self.wording.openers)

    def question(self) -> str:
        query = self.payload["query"]
        return writer_pattern(self.wording.questions[query["predicate"]], self._spell(query["arguments"]), end="?")


_SCALARS = frozenset({str, int, float, bool, type(None)})


def for_server(schema: Mapping[str, Any], patterns: bool) -> Any:
    """The schema as one server takes it: its patterns (and not the maxLength beside them, which
    xgrammar refuses with a pattern), or its maxLengths alone where patterns are not honoured."""
    # JSON's own types first: typing.Mapping's isinstance is an ABC lookup, and this runs per node of every
    # render request's schema on the event loop (a fifth of its time in a model renderer's run)
    kind = type(schema)
    if kind in _SCALARS:
        return schema
    if kind is dict or (kind is not list and isinstance(schema, Mapping)):
        if schema.get("type") == "string" and "pattern" in schema:
            drop = "maxLength" if patterns else "pattern"
            return {k: v for k, v in schema.items() if k != drop}
        return {k: for_server(v, patterns) for k, v in schema.items()}
    if isinstance(schema, list):
        return [for_server(v, patterns) for v in schema]
    return schema
