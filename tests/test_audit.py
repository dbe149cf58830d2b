"""`bench audit`: it finds a planted shortcut, finds nothing in shuffled labels, and passes our families."""
from __future__ import annotations

import os
import random
from pathlib import Path

import orjson
import pytest

from families.ir import Atom, Skeleton
from tests.conftest import FAMILY_NAMES, bench, make

try:
    import sklearn  # noqa: F401
except ImportError:
    if os.environ.get("CI") == "true":   # CI installs the extra: there a missing one is a failure
        pytest.fail("the [audit] extra (scikit-learn) is required in CI", pytrace=False)
    pytest.skip("the [audit] extra (scikit-learn) is not installed: pip install -e '.[test,audit]'",
                allow_module_level=True)


def write(path: Path, items) -> Path:
    path.write_bytes(b"".join(sk.to_json() + b"\n" for sk in items))
    return path


def leaky(index: int) -> Skeleton:
    """A transitive_order item that leaks LEFT_OF: the first queried entity gets one more premise."""
    sk = make("transitive_order", index, 4, seed=21)
    if sk.gold_answer != "LEFT_OF":
        return sk
    fresh = f"E{len(sk.entities)}"
    return Skeleton(**{**sk.__dict__, "entities": {**sk.entities, fresh: "Entity"},
                       "facts": sk.facts + (Atom("LEFT_OF", (fresh, sk.query.arguments[0])),)})


# A cross-validated classifier over thousands of items is CPU work that always ends: on a busy two-core
# machine it took past 300 s. These waits have no limit of seconds; an audit that stopped making progress
# is a bug its own tests (the small inputs below, with the default limit) would show.
WORKING = None


def test_finds_a_planted_degree_shortcut(tmp_path):
    path = write(tmp_path / "leaky.jsonl", [leaky(i) for i in range(1500)])
    proc = bench("audit", str(path), "--json", "--max-margin", "5", timeout=WORKING)
    assert proc.returncode == 1, proc.stderr
    [row] = orjson.loads(proc.stdout)
    # LEFT_OF is a third of the items and now recognisable: the baseline gains about a third.
    assert row["margin_pp"] > 25 and row["margin_low_pp"] > 20
    assert any(name.startswith("q0.LEFT_OF@1") or name.startswith("q0.mentions") for name in row["features"])
    assert "transitive_order/4" in proc.stderr


def test_finds_nothing_in_labels_shuffled_at_random(tmp_path):
    # The old transitive_order leaked badly; with its labels shuffled, nothing may be found.
    rng = random.Random(5)
    items = []
    for i in range(1500):
        sk = leaky(i)
        items.append(Skeleton(**{**sk.__dict__, "gold_answer": rng.choice(sk.answer_options)}))
    proc = bench("audit", str(write(tmp_path / "shuffled.jsonl", items)), "--json", timeout=WORKING)
    assert proc.returncode == 0, proc.stderr
    [row] = orjson.loads(proc.stdout)
    assert row["margin_pp"] < 3 and row["margin_low_pp"] < 0


def test_our_families_have_no_shortcut_at_2_4_8(tmp_path):
    # What CI asks of every change: 2,000 items per family at complexities 2, 4 and 8, margin <= 5.
    path = tmp_path / "ours.jsonl"
    bench("generate", "-n", str(2000 * 3 * len(FAMILY_NAMES)), "-c", "2", "-c", "4", "-c", "8", "-s", "7",
          "-o", str(path), "-q", check=True, timeout=WORKING)
    proc = bench("audit", str(path), "--max-margin", "5", timeout=WORKING)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()[2:]]
    assert len(rows) == 3 * len(FAMILY_NAMES) and all(r[2] == "2000" for r in rows)


@pytest.mark.parametrize("complexity", [3, 5, 13, 20])
def test_our_families_stay_within_3_points_up_to_20(tmp_path, complexity):
    items = [make(f, i, complexity, seed=3) for f in FAMILY_NAMES for i in range(2000)]
    proc = bench("audit", str(write(tmp_path / "s.jsonl", items)), "--json", "--max-margin", "3",
                 timeout=WORKING)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(orjson.loads(proc.stdout)) == len(FAMILY_NAMES)


def test_bad_line_is_named_with_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(make("equality", 0, 2).to_json() + b"\n" + b'{"id": "x"}\n')
    proc = bench("audit", str(path))
    assert proc.returncode == 2 and f"{path}:2:" in proc.stderr and "Traceback" not in proc.stderr


def test_too_few_items_for_a_fold_is_said(tmp_path):
    path = write(tmp_path / "few.jsonl", [make("equality", i, 2) for i in range(12)])
    proc = bench("audit", str(path), "--folds", "5")
    assert proc.returncode == 2
    assert "too few items (12) for 5-fold cross-validation: need at least 50" in proc.stdout
    assert "no group has enough items" in proc.stderr


def test_without_the_extra_one_line_says_what_to_install(tmp_path):
    blocker = tmp_path / "block" / "sklearn"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('blocked for this test')\n")
    path = write(tmp_path / "s.jsonl", [make("equality", i, 2) for i in range(60)])
    proc = bench("audit", str(path), env={"PYTHONPATH": str(blocker.parent)})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "pip install 'logic-skeleton-bench[audit]'" in proc.stderr


@pytest.mark.parametrize("given", ["-1", "nan", "1e400", "-inf"])
def test_a_margin_that_is_no_finite_number_of_points_is_refused_in_one_line(tmp_path, given):
    # 1e400 is read as inf: the line says what is expected, finite, so the echoed "inf" explains itself
    path = write(tmp_path / "s.jsonl", [make("transitive_order", i, 2, seed=3) for i in range(4)])
    proc = bench("audit", str(path), "--max-margin", given)
    assert proc.returncode == 2, proc.stderr
    line, = proc.stderr.strip().splitlines()
    assert "--max-margin" in line and "expected a finite number of points, 0 or more" in line, line
