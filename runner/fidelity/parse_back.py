"""The parse-back audit: a second model reads the assembled problem back into facts; we compare them.

This is PrOntoQA's parse-back, done by a model: it shows what names alone cannot, a reversed relation
or a changed meaning. The auditor sees only the problem text and the names, and answers through the
same structured-output machinery; the comparison with the skeleton is ours and exact (as a set of
facts, or in order for a procedural family).
"""
from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any, Mapping, get_args

import orjson

from families.registry import FAMILIES
from providers.base import RenderRequest
from runner.store.records import AuditVerdict

PROMPT = """Read the puzzle below and list every fact it states, each as a predicate over the names.

Predicates (arguments in this order):
{predicates}

Names used in the puzzle: {names}

Write each fact with these predicates and names only (numbers as numbers), in the order the puzzle
states them. List nothing that the puzzle does not state, and leave out the question.

The puzzle:
{problem}
"""
AUDIT_VERDICTS: tuple[AuditVerdict, ...] = get_args(AuditVerdict)


def sampled(render_key: str, rate: float) -> bool:
    """Whether this render unit is audited: a stable draw from its key (the same on every rerun)."""
    draw = int.from_bytes(hashlib.blake2b(render_key.encode(), digest_size=8).digest(), "big") / 2 ** 64
    return draw < rate


def _signatures(family: str) -> Mapping[str, tuple[str, ...]]:
    return FAMILIES[family].predicates


def audit_prompt(payload: Mapping[str, Any], names: Mapping[str, str], problem: str) -> str:
    """The auditor's prompt: the predicates with their argument types, the names, the problem."""
    preds = "\n".join(f"- {p}({', '.join(sig)})" for p, sig in _signatures(payload["family"]).items())
    return PROMPT.replace("{predicates}", preds).replace(
        "{names}", ", ".join(names[s] for s in payload["entities"] if names.get(s))).replace("{problem}", problem)


def audit_request(payload: Mapping[str, Any], names: Mapping[str, str], problem: str,
                  max_tokens: int) -> RenderRequest:
    """What an auditor is asked: read `problem` back into facts (structured, greedy)."""
    return RenderRequest(prompt=audit_prompt(payload, names, problem), schema=audit_schema(payload, names),
                         temperature=0.0, max_tokens=max_tokens)


def audit_schema(payload: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """`{"facts": [{"predicate": ..., "arguments": [...]}]}`, predicates and names as enums."""
    sigs = _signatures(payload["family"])
    arity = max(len(sig) for sig in sigs.values())
    name_list = sorted({n for n in names.values() if n})
    argument = {"anyOf": [{"type": "string", "enum": name_list}, {"type": "integer"}]}
    return {"type": "object", "properties": {"facts": {"type": "array", "items": {
        "type": "object", "properties": {"predicate": {"type": "string", "enum": sorted(sigs)},
                                         "arguments": {"type": "array", "items": argument,
                                                       "minItems": 1, "maxItems": arity}},
        "required": ["predicate", "arguments"], "additionalProperties": False}}},
        "required": ["facts"], "additionalProperties": False}


def compare(text: str, payload: Mapping[str, Any], names: Mapping[str, str]) -> tuple[AuditVerdict, str | None]:
    """("agrees" | "disagrees" | "failed", what differs or why it failed) for the auditor's answer."""
    try:
        obj = orjson.loads(text)
        read = obj["facts"]
        if not isinstance(read, list):
            raise TypeError
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return "failed", "the auditor's answer is not {\"facts\": [...]}"
    symbol_of = {n.lower(): s for s, n in names.items() if n}
    got = []
    for fact in read:
        if not isinstance(fact, dict) or not isinstance(fact.get("arguments"), list):
            return "failed", "a fact of the auditor's answer is not {predicate, arguments}"
        args = tuple(symbol_of.get(a.lower(), f"?{a}") if isinstance(a, str) else a for a in fact["arguments"])
        got.append(f"{fact.get('predicate')}({','.join(map(str, args))})")
    want = [f"{f['predicate']}({','.join(map(str, f['arguments']))})" for f in payload["facts"]]
    if FAMILIES[payload["family"]].order_matters:
        if got == want:
            return "agrees", None
        first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
        return "disagrees", f"in order, fact {first} reads {got[first] if first < len(got) else 'nothing'}" \
                            f" where the skeleton has {want[first] if first < len(want) else 'nothing'}"
    missing = Counter(want) - Counter(got)
    extra = Counter(got) - Counter(want)
    if not missing and not extra:
        return "agrees", None
    parts = []
    if missing:
        parts.append("not read: " + ", ".join(sorted(missing.elements())))
    if extra:
        parts.append("read but not in the skeleton: " + ", ".join(sorted(extra.elements())))
    return "disagrees", "; ".join(parts)
