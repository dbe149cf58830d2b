"""The skeleton intermediate language: typed frozen records, JSONL (de)serialization, validation, redaction."""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any, Mapping, Union

import orjson

from families.frozen import set_at_once

Argument = Union[str, int]
# Named presets of the spec; explicit integers 1..20 are accepted too.
COMPLEXITY_PRESETS = {"short": 2, "medium": 4, "long": 6}
MIN_COMPLEXITY, MAX_COMPLEXITY = 1, 20
# The type name a family uses in a signature for an integer literal argument.
INTEGER = "Integer"
SKELETON_FIELDS = ("id", "family", "complexity", "entities", "facts", "rules", "query",
                   "answer_options", "gold_answer", "proof")
REDACTED_FIELDS = ("gold_answer", "proof")


_set = object.__setattr__   # frozen records set their fields once, in __init__


class SkeletonError(ValueError):
    """A skeleton breaks an invariant of the spec; the message starts with the field path."""


@dataclass(frozen=True, slots=True)
class Atom:
    """A fact or a query: a predicate applied to positional arguments (symbols or integer literals)."""

    predicate: str
    arguments: tuple[Argument, ...]

    def __init__(self, predicate: str, arguments: tuple[Argument, ...]) -> None:
        # Hand-written because the generated frozen __init__ looks up object.__setattr__ per field:
        # 1.5x slower, and a skeleton makes a dozen atoms.
        _set(self, "predicate", predicate)
        _set(self, "arguments", arguments)

    def __str__(self) -> str:
        """The spec's atom syntax, `PRED(a,b)`, as proofs spell their steps."""
        args = self.arguments
        if len(args) == 2:   # most atoms, a few per skeleton in its proof: a third of the join's cost
            return f"{self.predicate}({args[0]},{args[1]})"
        return f"{self.predicate}({','.join(map(str, args))})"


# Atoms are immutable and the families draw them from a few thousand at most, so generators share
# them through this cache: a lookup is a third of the cost of building one, a dozen times per item.
atom = functools.lru_cache(maxsize=1 << 16)(Atom)


@set_at_once   # one write of the whole __dict__: half the generated __init__'s cost, a tenth of a small skeleton's
@dataclass(frozen=True)
class Skeleton:
    """One answer-bearing problem: the spec's grammar, field for field, in the spec's order."""

    id: str
    family: str
    complexity: int
    entities: Mapping[str, str]
    facts: tuple[Atom, ...]
    rules: tuple[str, ...]
    query: Atom
    answer_options: tuple[str, ...]
    gold_answer: str
    proof: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The spec's JSON object (facts and query as objects, tuples kept: they serialize as arrays)."""
        return {"id": self.id, "family": self.family, "complexity": self.complexity, "entities": self.entities,
                "facts": [{"predicate": f.predicate, "arguments": f.arguments} for f in self.facts],
                "rules": self.rules, "query": {"predicate": self.query.predicate, "arguments": self.query.arguments},
                "answer_options": self.answer_options, "gold_answer": self.gold_answer, "proof": self.proof}

    def to_json(self) -> bytes:
        """One JSONL line (without newline); tuples become arrays, field order as in the spec."""
        # A plain dict serializes twice as fast as orjson's dataclass path, byte for byte the same.
        return orjson.dumps(self.to_dict())

    def canonical_json(self) -> bytes:
        """The basis of the content hash: the spec's field order, entities sorted by symbol.

        Every other field is a sequence whose order is part of the instance, and the record fixes
        the order of the keys, so sorting the entities is all a canonical form needs (and costs far
        less than sorting the keys of every fact).
        """
        d = self.to_dict()
        d["entities"] = dict(sorted(self.entities.items()))
        return orjson.dumps(d)

    def content_hash(self) -> str:
        """A short hash of the canonical JSON; with the id it is the skeleton's identity."""
        return hashlib.blake2b(self.canonical_json(), digest_size=6).hexdigest()

    @functools.cached_property
    def identity(self) -> str:
        """`id` plus the content hash, e.g. `order-0000#3fa1c2d4e5b6`; computed once per skeleton."""
        return f"{self.id}#{self.content_hash()}"

    def redact(self) -> dict[str, Any]:
        """The renderer payload: every field but gold_answer and proof."""
        payload = self.to_dict()
        for name in REDACTED_FIELDS:
            del payload[name]
        return payload


def parse_complexity(text: str | int) -> int:
    """A preset name (short, medium, long) or an integer 1..20; ValueError naming what is expected."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and text.strip().lower() in COMPLEXITY_PRESETS:
        return COMPLEXITY_PRESETS[text.strip().lower()]
    else:
        digits = str(text).strip()
        if not (digits.isascii() and digits.isdigit()):   # int() takes '٣' and '1_0' too; no other number of ours
            raise ValueError(f"complexity {text!r}: expected short, medium, long or an integer "
                             f"{MIN_COMPLEXITY}..{MAX_COMPLEXITY}")
        value = int(digits)
    if not MIN_COMPLEXITY <= value <= MAX_COMPLEXITY:
        raise ValueError(f"complexity {value}: expected {MIN_COMPLEXITY}..{MAX_COMPLEXITY} "
                         "(or short, medium, long)")
    return value


def _atom_from(obj: Any, path: str) -> Atom:
    if not isinstance(obj, dict) or set(obj) != {"predicate", "arguments"}:
        raise SkeletonError(f"{path}: expected an object with exactly 'predicate' and 'arguments'")
    pred, args = obj["predicate"], obj["arguments"]
    if not isinstance(pred, str) or not pred:
        raise SkeletonError(f"{path}.predicate: expected a non-empty string")
    if not isinstance(args, list):
        raise SkeletonError(f"{path}.arguments: expected an array")
    for i, arg in enumerate(args):
        if isinstance(arg, bool) or not isinstance(arg, (str, int)):
            raise SkeletonError(f"{path}.arguments[{i}]: expected a symbol or an integer, got {arg!r}")
    return Atom(pred, tuple(args))


def _strings(obj: Any, path: str) -> tuple[str, ...]:
    if not isinstance(obj, list) or not all(isinstance(s, str) for s in obj):
        raise SkeletonError(f"{path}: expected an array of strings")
    return tuple(obj)


def skeleton_from_dict(obj: Any) -> Skeleton:
    """Build a Skeleton from parsed JSON, checking the shape of every field (not the family rules)."""
    if not isinstance(obj, dict):
        raise SkeletonError("line: expected a JSON object")
    missing = [f for f in SKELETON_FIELDS if f not in obj]
    if missing:
        raise SkeletonError(f"{missing[0]}: missing field")
    extra = sorted(set(obj) - set(SKELETON_FIELDS))
    if extra:
        raise SkeletonError(f"{extra[0]}: unknown field")
    for name in ("id", "family", "gold_answer"):
        if not isinstance(obj[name], str):
            raise SkeletonError(f"{name}: expected a string")
    if isinstance(obj["complexity"], bool) or not isinstance(obj["complexity"], int):
        raise SkeletonError("complexity: expected an integer")
    ents = obj["entities"]
    if not isinstance(ents, dict) or not all(isinstance(v, str) for v in ents.values()):
        raise SkeletonError("entities: expected an object mapping symbols to type names")
    facts = obj["facts"]
    if not isinstance(facts, list):
        raise SkeletonError("facts: expected an array")
    return Skeleton(
        id=obj["id"], family=obj["family"], complexity=obj["complexity"], entities=ents,
        facts=tuple(_atom_from(f, f"facts[{i}]") for i, f in enumerate(facts)),
        rules=_strings(obj["rules"], "rules"), query=_atom_from(obj["query"], "query"),
        answer_options=_strings(obj["answer_options"], "answer_options"),
        gold_answer=obj["gold_answer"], proof=_strings(obj["proof"], "proof"))


def parse_skeleton_json(line: bytes | str) -> Skeleton:
    """Parse one JSONL line and check the shape of every field; `families.validation` checks the family rules."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise SkeletonError(f"line: not valid JSON ({exc.args[0] if exc.args else exc})") from None
    return skeleton_from_dict(obj)
