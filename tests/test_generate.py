"""`bench generate` and `bench validate`: determinism, prefixes, formats, atomic output, bad input."""
from __future__ import annotations

import subprocess
import sys

import orjson
import pytest

from families.validation import skeleton_from_json
from runner.source.generate import GenerationPlan, complexity_cycle, make_plan
from tests.conftest import HANG_S, bench
from tests.reference_solver import solve


def test_same_arguments_byte_identical(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        bench("generate", "-n", "400", "-c", "short", "-c", "9", "-s", "5", "-o", str(out), "-q", check=True)
    assert a.read_bytes() == b.read_bytes()
    assert len(a.read_bytes().splitlines()) == 400


def test_short_run_is_prefix_of_long_run(tmp_path):
    short, long = tmp_path / "s.jsonl", tmp_path / "l.jsonl"
    bench("generate", "-n", "300", "-c", "2", "-c", "7", "-s", "42", "-o", str(short), "-q", check=True)
    bench("generate", "-n", "3000", "-c", "2", "-c", "7", "-s", "42", "-o", str(long), "-q", check=True)
    assert long.read_bytes().splitlines()[:300] == short.read_bytes().splitlines()


def test_item_made_alone_equals_item_in_run():
    plan = make_plan(42, ["short", "long"])
    run = list(plan.items(40))
    assert plan.item(37) == run[37]
    assert next(plan.items(1, start=25)) == run[25]


def test_round_robin_over_families_and_complexities():
    plan = make_plan(1, ["1", "3"])
    got = [(sk.family, sk.complexity) for sk in plan.items(8)]
    assert got == [("transitive_order", 1), ("membership_inheritance", 1), ("sequential_state_update", 1),
                   ("equality", 1), ("transitive_order", 3), ("membership_inheritance", 3),
                   ("sequential_state_update", 3), ("equality", 3)]
    only = make_plan(1, ["2"], ["equality", "transitive_order"])
    assert [sk.family for sk in only.items(4)] == ["equality", "transitive_order"] * 2


def test_hop_distribution_is_exact_per_cycle_and_close_on_prefixes():
    from fractions import Fraction
    cycle = complexity_cycle({1: Fraction(1, 10), 2: Fraction(4, 10), 3: Fraction(1, 4),
                              4: Fraction(3, 20), 5: Fraction(1, 10)})
    assert len(cycle) == 20 and sorted(cycle) == [1, 1] + [2] * 8 + [3] * 5 + [4] * 3 + [5, 5]
    plan = GenerationPlan(0, ("equality",), cycle)
    hops = [sk.complexity for sk in plan.items(1000)]
    assert hops.count(2) == 400 and hops.count(1) == 100 and hops.count(4) == 150
    for n in (7, 33, 101):   # any prefix within one item of the target per bucket
        assert abs(hops[:n].count(2) - 0.4 * n) <= 1


def test_logicmark_format_matches_card(tmp_path):
    out = tmp_path / "lm.jsonl"
    bench("generate", "--format", "logicmark", "-n", "1000", "-s", "42", "-o", str(out), "-q", check=True)
    rows = [orjson.loads(l) for l in out.read_bytes().splitlines()]
    assert list(rows[42]) == ["id", "domain", "context", "options", "answer_index", "answer", "hop_depth"]
    assert rows[42]["id"] == "symbolic_00042" and rows[42]["domain"] == "Symbolic"
    hops = [r["hop_depth"] for r in rows]
    assert [hops.count(h) for h in (1, 2, 3, 4, 5)] == [100, 400, 250, 150, 100]   # the card's targets
    for r in rows:
        ctx = r["context"]
        assert ctx.startswith("If:\n") and ctx.endswith("\n\nThen")
        for premise in ctx[4:-6].split("\n"):
            u, op, v = premise.split(" ")
            assert op in ("=", "!=") and u and v
        assert len(r["options"]) == 4 and r["options"][r["answer_index"]] == r["answer"]


def test_generated_file_validates_and_solves(tmp_path):
    out = tmp_path / "s.jsonl"
    bench("generate", "-n", "200", "-c", "long", "-o", str(out), "-q", check=True)
    proc = bench("validate", str(out), check=True)
    assert "200 skeletons valid" in proc.stdout
    for line in out.read_bytes().splitlines():
        sk = skeleton_from_json(line)
        assert solve(sk)[0] == sk.gold_answer


@pytest.mark.parametrize("args, needle", [
    (["-c", "21"], "complexity 21"),
    (["-c", "hard"], "complexity 'hard'"),
    (["-f", "sudoku"], "unknown family 'sudoku'"),
    (["-n", "lots"], "--count"),
    (["-n", "0"], "--count"),
    (["--format", "csv"], "--format 'csv'"),
    (["--format", "logicmark", "-f", "transitive_order"], "logicmark"),
    (["--target-hop-dist", "2=0.5"], "--target-hop-dist"),
    (["--target-hop-dist", "1:1e400"], "expected a fraction from 0 to 1"),   # would have made a cycle of 1e400 steps
    (["--target-hop-dist", "1:1e-999999999"], "expected a fraction such as"),   # Fraction() would work out 10**999999999
    (["--target-hop-dist", "1:1e999999999"], "expected a fraction such as"),
    (["--target-hop-dist", "1:1e-999,2:0.5"], "give 0 or at least 0.001"),   # not silently no weight
    (["--target-hop-dist", "1:1/0"], "cannot divide by 0"),
    (["--target-hop-dist", "1:-0.5"], "expected a fraction such as"),
    (["--target-hop-dist", ""], "should be COMPLEXITY:FRACTION"),   # given empty: said, not the default taken
    (["--target-hop-dist", "1:0.0011,2:0.0013,3:0.0017,4:0.0019"], "repeat only every"),
    (["-s", str(2**64)], "--seed"),
    (["-n", str(2**64)], "--count"),
])
def test_bad_generate_flags_one_line_exit_2_no_file(tmp_path, args, needle):
    out = tmp_path / "x.jsonl"
    proc = bench("generate", "-o", str(out), *args)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in proc.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_interrupted_generate_leaves_old_file_untouched(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    out = tmp_path / "s.jsonl"
    out.write_text("precious\n")
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "generate",
                             "-n", "5000000", "-o", str(out), "-q"])
    # killed mid-write: once the temporary file beside the output holds some skeletons (waited on, not timed)
    deadline = time.monotonic() + HANG_S
    while not any(p.name.endswith(".tmp") and p.stat().st_size > 0 for p in tmp_path.iterdir()):
        assert proc.poll() is None and time.monotonic() < deadline, "generate wrote no temporary file"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert out.read_text() == "precious\n"


def test_validate_reports_each_bad_line(tmp_path):
    good = tmp_path / "g.jsonl"
    bench("generate", "-n", "3", "-o", str(good), "-q", check=True)
    lines = good.read_bytes().splitlines()
    obj = orjson.loads(lines[1])
    obj["gold_answer"] = "MAYBE"
    bad = tmp_path / "b.jsonl"
    bad.write_bytes(b"\n".join([lines[0], orjson.dumps(obj), b"{oops", lines[0]]) + b"\n")
    proc = bench("validate", str(bad))
    assert proc.returncode == 2
    err = proc.stderr
    assert f"{bad}:2: gold_answer" in err and f"{bad}:3: line: not valid JSON" in err
    assert f"{bad}:4: id: 'order-0000' appears twice" in err and ":1:" not in err
    assert bench("validate", str(tmp_path / "missing.jsonl")).returncode == 2


def test_output_dash_is_standard_output_byte_for_byte_the_file(tmp_path):
    # `-o -` is the usual name of standard output: the same bytes as the file, and no file named `-`
    assert bench("generate", "-n", "50", "-s", "3", "-o", str(tmp_path / "s.jsonl"), "-q").returncode == 0
    proc = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", "generate", "-n", "50",
                           "-s", "3", "-o", "-"], cwd=tmp_path, capture_output=True)
    assert proc.returncode == 0 and proc.stdout == (tmp_path / "s.jsonl").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]


@pytest.mark.parametrize("count", [100, 2000, 5_000_000])
def test_a_reader_that_stops_early_ends_generate_as_sigpipe_would_without_a_traceback(tmp_path, count):
    # `bench generate -o - | head -c 100`: the reader closes its end; generate stops at once, exit 141. Up to one
    # batch (2048 skeletons, more than a pipe holds), the pipe took part of the batch and the rest was lost: exit 0
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "generate", "-n",
                             str(count), "-o", "-", "-q"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert len(proc.stdout.read(100)) == 100
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=HANG_S) == 141 and err == "", err
