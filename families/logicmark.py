"""The LogicMark card's dataset format, both ways: an equality skeleton as a card record, and a card record
(ours or the card's published file) read back as an equality skeleton with its shortest derivation."""
from __future__ import annotations

import re
from collections import deque
from typing import Any, TypeVar

import orjson

from families.equality import NAME, RULES
from families.ir import MAX_COMPLEXITY, Skeleton, SkeletonError, atom

_OPS = {"EQUAL": "=", "NOT_EQUAL": "!="}
_PREMISE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(!=|=)\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_INDEX = re.compile(r"(\d+)$")
T = TypeVar("T")


def logicmark_record(sk: Skeleton, index: int) -> bytes:
    """One line of the card's format for an equality skeleton: id, domain, context, options, answer, hop depth."""
    if sk.family != NAME:
        raise ValueError(f"--format logicmark writes only the equality family, not {sk.family}")
    return orjson.dumps({
        "id": f"symbolic_{index:05d}", "domain": "Symbolic", "context": logicmark_context(sk),
        "options": list(sk.answer_options), "answer_index": sk.answer_options.index(sk.gold_answer),
        "answer": sk.gold_answer, "hop_depth": sk.complexity})


def logicmark_context(sk: Skeleton) -> str:
    """`If:\\na = b\\nb != c\\n\\nThen`: the card's context for the premises of an equality skeleton."""
    lines = [f"{f.arguments[0]} {_OPS[f.predicate]} {f.arguments[1]}" for f in sk.facts]
    return "If:\n" + "\n".join(lines) + "\n\nThen"


def _field(obj: dict[str, Any], name: str, kind: type[T], what: str) -> T:
    value = obj.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SkeletonError(f"{name}: expected {what}, got {_show(value)}")
    return value


def _show(value: Any) -> str:
    text = "missing" if value is None else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _premises(context: str) -> list[tuple[str, str, str]]:
    """(u, op, v) for each premise line between `If:` and `Then`."""
    body = context.strip()
    if not body.startswith("If:") or not body.endswith("Then"):
        raise SkeletonError("context: expected 'If:', one premise per line, and 'Then' at the end")
    out = []
    for line in body[3:-4].splitlines():
        if not line.strip():
            continue
        m = _PREMISE.fullmatch(line)
        if m is None:
            raise SkeletonError(f"context: premise {line.strip()!r} is not 'x = y' or 'x != y'")
        out.append((m[1], m[2], m[3]))
    if not out:
        raise SkeletonError("context: no premises between 'If:' and 'Then'")
    return out


def _statement(text: str, where: str) -> tuple[str, str, str]:
    m = _PREMISE.fullmatch(text)
    if m is None:
        raise SkeletonError(f"{where}: {text!r} is not 'x = y' or 'x != y'")
    return m[1], m[2], m[3]


def _path(adj: dict[str, list[tuple[str, int]]], src: str) -> dict[str, tuple[int, list[int]]]:
    """Shortest `=` paths from src: node -> (length, premise indices in order), ties broken by premise order."""
    best: dict[str, tuple[int, list[int]]] = {src: (0, [])}
    queue = deque([src])
    while queue:
        x = queue.popleft()
        for y, i in adj.get(x, ()):
            if y not in best:
                best[y] = (best[x][0] + 1, best[x][1] + [i])
                queue.append(y)
    return best


def derivation(premises: list[tuple[str, str, str]], u: str, op: str, v: str) -> list[int] | None:
    """The premises (indices, in order) of a shortest derivation of `u op v`; None if it does not follow."""
    adj: dict[str, list[tuple[str, int]]] = {}
    for i, (a, o, b) in enumerate(premises):
        if o == "=":
            adj.setdefault(a, []).append((b, i))
            adj.setdefault(b, []).append((a, i))
    from_u, from_v = _path(adj, u), _path(adj, v)
    if op == "=":
        return from_u[v][1] if v in from_u else None
    best = None
    for i, (a, o, b) in enumerate(premises):
        if o != "!=":
            continue
        for p, q in ((a, b), (b, a)):
            if p in from_u and q in from_v:
                steps = from_u[p][1] + [i] + from_v[q][1][::-1]
                if best is None or len(steps) < len(best):
                    best = steps
    return best


def skeleton_from_logicmark(line: bytes | str, lineno: int) -> Skeleton:
    """One record of the card's format as an equality skeleton; SkeletonError names the field at fault.

    The proof is the shortest derivation of the answer, found here: it must take `hop_depth` premises,
    and no other option may follow (the card's promise of exactly one entailed option).
    """
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise SkeletonError(f"line: not valid JSON ({exc.args[0] if exc.args else exc})") from None
    if not isinstance(obj, dict):
        raise SkeletonError("line: expected a JSON object with context, options, answer_index, hop_depth")
    context = _field(obj, "context", str, "the premises as text ('If:' ... 'Then')")
    options = _field(obj, "options", list, "a list of option statements")
    if not options or not all(isinstance(o, str) for o in options):
        raise SkeletonError(f"options: expected a list of statements like 'a = b', got {_show(options)}")
    index = _field(obj, "answer_index", int, "an integer")
    if not 0 <= index < len(options):
        raise SkeletonError(f"answer_index: {index} is out of range for {len(options)} options")
    if "answer" in obj and obj["answer"] != options[index]:   # the card's records carry both: they must agree
        raise SkeletonError(f"answer: {_show(obj['answer'])} is not options[{index}] ({_show(options[index])}), "
                            "the option answer_index names")
    hop = _field(obj, "hop_depth", int, f"an integer 1..{MAX_COMPLEXITY}")
    if not 1 <= hop <= MAX_COMPLEXITY:
        raise SkeletonError(f"hop_depth: {hop} is outside 1..{MAX_COMPLEXITY}")
    premises = _premises(context)
    parsed = [_statement(o, f"options[{i}]") for i, o in enumerate(options)]
    steps = derivation(premises, *parsed[index])
    if steps is None:
        raise SkeletonError(f"answer_index: option {options[index]!r} does not follow from the context")
    if len(steps) != hop:
        raise SkeletonError(f"hop_depth: {hop}, but the shortest derivation of {options[index]!r} takes "
                            f"{len(steps)} premise(s)")
    also = [options[i] for i, st in enumerate(parsed) if i != index and derivation(premises, *st) is not None]
    if also:
        raise SkeletonError(f"options: {also[0]!r} follows too; exactly one option may follow")
    facts = [atom("EQUAL" if o == "=" else "NOT_EQUAL", (a, b)) for a, o, b in premises]
    names = sorted({a for a, _, b in premises} | {b for a, _, b in premises}
                   | {x for u, _, v in parsed for x in (u, v)})
    raw_id = obj.get("id")
    m = _INDEX.search(raw_id) if isinstance(raw_id, str) else None
    number = int(m.group(1)) if m else lineno - 1
    return Skeleton(
        id=f"equality-{number:04d}", family=NAME, complexity=hop, entities=dict.fromkeys(names, "Variable"),
        facts=tuple(facts), rules=RULES, query=atom("ENTAILED", ()),
        answer_options=tuple(f"{u} {o} {v}" for u, o, v in parsed), gold_answer=f"{parsed[index][0]} "
        f"{parsed[index][1]} {parsed[index][2]}", proof=tuple(str(facts[i]) for i in steps))
