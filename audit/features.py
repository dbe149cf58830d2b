"""Shallow features of a skeleton: counts and positions that never follow a chain of premises.

What a heuristic could read off a problem without reasoning: for each queried symbol (or each
symbol of an option), how often it stands at each argument position of each predicate, where it is
first and last mentioned in the premise list, the integer literals beside it; how many premises of
each predicate and how many symbols of each type there are; whether two symbols share a premise.
No feature follows a premise from one symbol to the next: that would be the reasoning itself.

Families with a fixed label set get one feature row per item (the label is the class). Families
whose options vary per item (statements, numbers) get one row per option, scored as "is this the
gold option", and the highest-scoring option is the item's answer.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from families.ir import Skeleton

Row = dict[str, float]


def symbol_features(sk: Skeleton, symbol: str, prefix: str, out: Row) -> None:
    """Into `out`: mentions of `symbol` per predicate and argument position, first/last position, literals."""
    n = len(sk.facts)
    first = last = -1
    mentions = 0
    literals: list[int] = []
    for i, fact in enumerate(sk.facts):
        hit = False
        for pos, arg in enumerate(fact.arguments):
            if arg == symbol:
                key = f"{prefix}{fact.predicate}@{pos}"
                out[key] = out.get(key, 0.0) + 1.0
                hit = True
        if hit:
            mentions += 1
            first = i if first < 0 else first
            last = i
            literals += [a for a in fact.arguments if isinstance(a, int)]
    out[f"{prefix}mentions"] = float(mentions)
    # Positions as fractions of the list, and from its end: "mentioned last" reads the same at any length.
    out[f"{prefix}first"] = first / max(n - 1, 1) if first >= 0 else -1.0
    out[f"{prefix}last"] = last / max(n - 1, 1) if last >= 0 else -1.0
    out[f"{prefix}first_index"] = float(first)
    out[f"{prefix}last_from_end"] = float(n - 1 - last) if last >= 0 else -1.0
    if literals:
        out[f"{prefix}literal_first"] = float(literals[0])
        out[f"{prefix}literal_last"] = float(literals[-1])
        # The parity of the numbers' plain sum: blind to which updates add and which subtract, and
        # yet the parity of a signed sum. A sum itself would be the family's arithmetic, not a shortcut.
        out[f"{prefix}literal_sum_parity"] = float(sum(literals) % 2)


def shared_premises(sk: Skeleton, symbols: Sequence[str], prefix: str, out: Row) -> None:
    """Into `out`: how many premises (in all, and per predicate) mention every one of `symbols`."""
    wanted = set(symbols)
    total = 0
    for fact in sk.facts:
        if wanted <= set(fact.arguments):
            total += 1
            key = f"{prefix}shared:{fact.predicate}"
            out[key] = out.get(key, 0.0) + 1.0
    out[f"{prefix}shared"] = float(total)


def item_features(sk: Skeleton) -> Row:
    """Whole-item counts plus the queried symbols' own features; the same for every option."""
    out: Row = {"facts": float(len(sk.facts)), "entities": float(len(sk.entities))}
    for typ in sk.entities.values():
        out[f"type:{typ}"] = out.get(f"type:{typ}", 0.0) + 1.0
    for fact in sk.facts:
        out[f"n:{fact.predicate}"] = out.get(f"n:{fact.predicate}", 0.0) + 1.0
    mentioned = {a for f in sk.facts for a in f.arguments if isinstance(a, str)}
    out["mentioned"] = float(len(mentioned))
    queried = [a for a in sk.query.arguments if isinstance(a, str) and a in sk.entities]
    for j, sym in enumerate(queried):
        symbol_features(sk, sym, f"q{j}.", out)
    if len(queried) >= 2:
        shared_premises(sk, queried, "q.", out)
    return out


def _option_symbol_features(sk: Skeleton, symbols: list[str], out: Row) -> None:
    """Per-option symbol features, folded into min, max and sum so that `a = b` and `b = a` read alike."""
    rows = []
    for sym in symbols:
        row: Row = {}
        symbol_features(sk, sym, "", row)
        rows.append(row)
    keys = set().union(*rows) if rows else set()
    for key in keys:
        values = [r.get(key, 0.0) for r in rows]
        out[f"o.min:{key}"] = min(values)
        out[f"o.max:{key}"] = max(values)
        out[f"o.sum:{key}"] = sum(values)
    out["o.symbols"] = float(len(symbols))
    if len(symbols) >= 2:
        shared_premises(sk, symbols, "o.", out)


def option_rows(sk: Skeleton) -> list[Row]:
    """One row per option: the item's features and the option's own (position, symbols, operator, value)."""
    base = item_features(sk)
    parsed = []
    for option in sk.answer_options:
        tokens = option.split()
        symbols = [t for t in tokens if t in sk.entities]
        numbers = [int(t) for t in tokens if _is_int(t)]
        others = [t for t in tokens if t not in sk.entities and not _is_int(t)]
        parsed.append((symbols, numbers, others))
    values = sorted(n[0] for _, n, _ in parsed if n)
    symbol_sets = [frozenset(s) for s, _, _ in parsed]
    anchor = base.get("q0.literal_first")
    rows = []
    for k, (symbols, numbers, others) in enumerate(parsed):
        row = dict(base)
        row["o.position"] = float(k)
        for tok in others:
            row[f"o.token:{tok}"] = row.get(f"o.token:{tok}", 0.0) + 1.0
        if numbers:
            value = numbers[0]
            row["o.value"] = float(value)
            row["o.value_rank"] = float(values.index(value))
            row["o.value_parity"] = float(value % 2)
            if anchor is not None:
                row["o.value_minus_first_literal"] = value - anchor
                row["o.value_minus_last_literal"] = value - base["q0.literal_last"]
        # The LogicMark card's leak: an option whose negation is also listed.
        row["o.same_symbols_listed"] = float(sum(1 for s in symbol_sets if s == symbol_sets[k]) - 1)
        _option_symbol_features(sk, symbols, row)
        rows.append(row)
    return rows


def _is_int(token: str) -> bool:
    return token.lstrip("-").isdigit()


def matrix(rows: Iterable[Row]) -> tuple[list[str], list[list[float]]]:
    """Rows of named features as a dense matrix: the union of names, sorted; a missing feature is 0."""
    rows = list(rows)
    names = sorted(set().union(*rows)) if rows else []
    return names, [[row.get(name, 0.0) for name in names] for row in rows]
