"""Checking a skeleton against its family's registered signatures: the spec's invariants, field by field."""
from __future__ import annotations

from typing import Mapping

from families.ir import INTEGER, MAX_COMPLEXITY, MIN_COMPLEXITY, Atom, Skeleton, SkeletonError, parse_skeleton_json
from families.registry import FAMILIES


def skeleton_from_json(line: bytes | str) -> Skeleton:
    """Parse and validate one JSONL line; SkeletonError names the field at fault."""
    sk = parse_skeleton_json(line)
    validate(sk)
    return sk


def _check_atom(atom: Atom, signatures: Mapping[str, tuple[str, ...]], sk: Skeleton, path: str,
                family: str) -> None:
    sig = signatures.get(atom.predicate)
    if sig is None:
        raise SkeletonError(f"{path}.predicate: {atom.predicate!r} is not a predicate of family "
                            f"{family} (expected one of {', '.join(sorted(signatures))})")
    if len(atom.arguments) != len(sig):
        raise SkeletonError(f"{path}.arguments: {atom.predicate} takes {len(sig)} arguments, "
                            f"got {len(atom.arguments)}")
    for i, (arg, typ) in enumerate(zip(atom.arguments, sig)):
        where = f"{path}.arguments[{i}]"
        if typ == INTEGER:
            if isinstance(arg, bool) or not isinstance(arg, int):
                raise SkeletonError(f"{where}: {atom.predicate} expects an integer here, got {arg!r}")
            if arg < 0:   # a count: the spec's values start non-negative and an update moves by an amount
                raise SkeletonError(f"{where}: {atom.predicate} expects a non-negative integer here, got {arg}")
            continue
        if not isinstance(arg, str):
            raise SkeletonError(f"{where}: {atom.predicate} expects a {typ} symbol here, got {arg!r}")
        declared = sk.entities.get(arg)
        if declared is None:
            raise SkeletonError(f"{where}: symbol {arg!r} is not declared in entities")
        if declared != typ:
            raise SkeletonError(f"{where}: {atom.predicate} expects a {typ}, {arg!r} is a {declared}")


def validate(sk: Skeleton) -> None:
    """Enforce every invariant of the spec; raise SkeletonError naming the field at fault."""
    fam = FAMILIES.get(sk.family)
    if fam is None:
        raise SkeletonError(f"family: unknown family {sk.family!r} (expected one of "
                            f"{', '.join(sorted(FAMILIES))})")
    prefix = f"{fam.prefix}-"
    if not sk.id.startswith(prefix) or not sk.id[len(prefix):].isdigit():
        raise SkeletonError(f"id: {sk.id!r} should be {prefix}<index>")
    if not MIN_COMPLEXITY <= sk.complexity <= MAX_COMPLEXITY:
        raise SkeletonError(f"complexity: {sk.complexity} is outside {MIN_COMPLEXITY}..{MAX_COMPLEXITY}")
    for sym, typ in sk.entities.items():
        if typ not in fam.types:
            raise SkeletonError(f"entities.{sym}: type {typ!r} is not a type of family {fam.name} "
                                f"(expected one of {', '.join(sorted(fam.types))})")
    if not sk.facts:
        raise SkeletonError("facts: at least one fact is required")
    for i, fact in enumerate(sk.facts):
        _check_atom(fact, fam.predicates, sk, f"facts[{i}]", fam.name)
    _check_atom(sk.query, fam.queries, sk, "query", fam.name)
    if not sk.answer_options:
        raise SkeletonError("answer_options: at least one label is required")
    if len(set(sk.answer_options)) != len(sk.answer_options):
        raise SkeletonError("answer_options: labels must be distinct")
    known = fam.labels   # a fixed set, which its wording explains (None: options vary per item)
    if known is not None:
        for label in sk.answer_options:
            if label not in known:
                raise SkeletonError(f"answer_options: {label!r} is not a label of family {fam.name} "
                                    f"(expected some of {', '.join(known)})")
    if sk.gold_answer not in sk.answer_options:
        raise SkeletonError(f"gold_answer: {sk.gold_answer!r} is not one of answer_options")
    if len(sk.proof) != sk.complexity:
        raise SkeletonError(f"proof: has {len(sk.proof)} steps, complexity is {sk.complexity}")
