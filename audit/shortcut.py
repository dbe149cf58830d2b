"""The shortcut baseline: a gradient-boosted classifier on shallow features, k-fold cross-validated.

If it answers a group of items (one family, one complexity) clearly above chance, those items can be
answered without reasoning, and a model's score on them says less than it seems to.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from audit.features import item_features, matrix, option_rows
from families.ir import Skeleton

MIN_ITEMS_PER_FOLD = 10
TOP_FEATURES = 3


class AuditUnavailable(RuntimeError):
    """scikit-learn (the `[audit]` extra) is not installed."""


@dataclass(frozen=True)
class GroupResult:
    """The baseline's cross-validated score on one group: accuracy, chance, and the margin between them."""

    family: str
    complexity: int
    mode: str                    # "label": one class per item; "option": the best-scoring option wins
    items: int
    accuracy: float | None       # None when the group is too small to cross-validate
    chance: float
    margin_pp: float | None      # (accuracy - chance) in percentage points
    margin_low_pp: float | None  # 95% interval of the margin (normal approximation, n items)
    margin_high_pp: float | None
    features: tuple[tuple[str, float], ...]   # (feature, accuracy lost when it is permuted, in points)
    note: str = ""

    def to_dict(self) -> dict:
        """A JSON-ready object, the features as {name: points}."""
        d = dict(self.__dict__)
        d["features"] = dict(self.features)
        return d


def _sklearn():
    try:
        import numpy as np
        from sklearn.ensemble import HistGradientBoostingClassifier
        from sklearn.model_selection import GroupKFold, StratifiedKFold
        from threadpoolctl import threadpool_limits  # scikit-learn's own dependency
    except ImportError:
        raise AuditUnavailable("bench audit needs scikit-learn: pip install 'logic-skeleton-bench[audit]'") from None
    return np, HistGradientBoostingClassifier, GroupKFold, StratifiedKFold, threadpool_limits


def _interval(acc: float, chance: float, n: int) -> tuple[float, float, float]:
    half = 1.96 * math.sqrt(max(acc * (1 - acc), 0.0) / n)
    return 100 * (acc - chance), 100 * (acc - chance - half), 100 * (acc - chance + half)


def audit_group(family: str, complexity: int, items: Sequence[Skeleton], folds: int = 5,
                seed: int = 0) -> GroupResult:
    """Cross-validate the shortcut classifier on one group of items of one family and complexity."""
    # One OpenMP thread: the scores are thousands of small predictions, each a parallel region whose threads wait
    # for one another; beside another busy process on the same cores each wait costs a time slice (two audits side
    # by side on 2 cores: over 240 s each, against 13 s with one thread each; alone: 12.4 to 12.8 s against 11.3 to
    # 14.1 s, for a third less CPU; the same results: BENCHMARKS.md)
    *_, threadpool_limits = _sklearn()
    with threadpool_limits(limits=1, user_api="openmp"):
        return _audit_group(family, complexity, items, folds, seed)


def _audit_group(family: str, complexity: int, items: Sequence[Skeleton], folds: int, seed: int) -> GroupResult:
    """The body of audit_group, within its thread limit."""
    np, Model, GroupKFold, StratifiedKFold, _ = _sklearn()
    labels_fixed = len({sk.answer_options for sk in items}) == 1
    mode = "label" if labels_fixed else "option"
    n = len(items)
    if mode == "label":
        counts = Counter(sk.gold_answer for sk in items)
        chance = max(counts.values()) / n
    else:
        chance = sum(1 / len(sk.answer_options) for sk in items) / n
    need = folds * MIN_ITEMS_PER_FOLD
    if n < need:
        return GroupResult(family, complexity, mode, n, None, chance, None, None, None, (),
                           f"too few items ({n}) for {folds}-fold cross-validation: need at least {need}")
    if mode == "label" and len(counts) == 1:
        return GroupResult(family, complexity, mode, n, 1.0, 1.0, 0.0, 0.0, 0.0, (),
                           "every item has the same label")

    if mode == "label":
        names, rows = matrix(item_features(sk) for sk in items)
        X = np.asarray(rows, dtype=float)
        y = np.asarray([sk.gold_answer for sk in items])
        least = min(counts.values())
        splitter = StratifiedKFold(n_splits=min(folds, least), shuffle=True, random_state=seed)
        splits = list(splitter.split(X, y))
    else:
        all_rows, owner, target = [], [], []
        for i, sk in enumerate(items):
            for row, option in zip(option_rows(sk), sk.answer_options):
                all_rows.append(row)
                owner.append(i)
                target.append(option == sk.gold_answer)
        names, rows = matrix(all_rows)
        X = np.asarray(rows, dtype=float)
        y = np.asarray(target)
        owner_arr = np.asarray(owner)
        # Items are shuffled into folds by a seeded permutation; all options of an item stay together.
        perm = np.random.default_rng(seed).permutation(n)
        splits = list(GroupKFold(n_splits=folds).split(X, y, perm[owner_arr]))

    rng = np.random.default_rng(seed)
    correct = 0
    lost = np.zeros(len(names))
    for train, test in splits:
        model = Model(max_iter=100, random_state=seed).fit(X[train], y[train])
        # the fold's model and rows bound as defaults: each lambda is used within its own iteration only
        score = (lambda Xt, m=model, t=test: _item_accuracy(np, m, Xt, y[t])) if mode == "label" else \
            (lambda Xt, m=model, t=test: _option_accuracy(np, m, Xt, y[t], owner_arr[t]))
        base_hits = score(X[test])
        correct += base_hits
        for j in range(len(names)):
            shuffled = X[test].copy()
            shuffled[:, j] = rng.permutation(shuffled[:, j])
            lost[j] += base_hits - score(shuffled)
    accuracy = correct / n
    margin, low, high = _interval(accuracy, chance, n)
    order = np.argsort(-lost)
    top = tuple((names[j], round(100 * lost[j] / n, 2)) for j in order[:TOP_FEATURES] if lost[j] > 0)
    return GroupResult(family, complexity, mode, n, accuracy, chance, margin, low, high, top)


def _item_accuracy(np, model, X, y) -> int:
    """How many items the model labels right."""
    return int((model.predict(X) == y).sum())


def _option_accuracy(np, model, X, is_gold, owner) -> int:
    """How many items whose highest-scoring option is the gold one (ties: the first listed)."""
    proba = model.predict_proba(X)[:, list(model.classes_).index(True)] if True in model.classes_ \
        else np.zeros(len(X))
    hits = 0
    start = 0
    while start < len(owner):
        stop = start
        while stop < len(owner) and owner[stop] == owner[start]:
            stop += 1
        hits += bool(is_gold[start + int(np.argmax(proba[start:stop]))])
        start = stop
    return hits


def audit(skeletons: Sequence[Skeleton], folds: int = 5, seed: int = 0) -> list[GroupResult]:
    """Audit every (family, complexity) group of a skeleton set, in family then complexity order."""
    groups: dict[tuple[str, int], list[Skeleton]] = {}
    for sk in skeletons:
        groups.setdefault((sk.family, sk.complexity), []).append(sk)
    return [audit_group(fam, c, groups[(fam, c)], folds, seed) for fam, c in sorted(groups)]
