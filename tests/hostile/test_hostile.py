"""Hostile inputs, one case per class bench guards against: each ends in one line naming what to fix, the
exit code the README gives (2: bad input, 3: a write failed), no traceback, no hang, and every file that
existed before byte-identical after. A new feature adds its cases here."""
from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tests.conftest import HANG_S, ROOT

GRID = """name: h
skeletons: {generate: {count: 6, complexities: [short]}}
providers: {t: {kind: template}, r: {kind: random}}
renderers: [t]
solvers: [r]
"""


def bench(*args: str, cwd: Path, env: dict | None = None, limit_bytes: int | None = None,
          timeout: float = HANG_S) -> subprocess.CompletedProcess:
    """`bench` in a subprocess (a hang fails the test by its timeout); `limit_bytes` caps the size of any file
    it writes (RLIMIT_FSIZE: a full disk, as the process sees it)."""
    def limit() -> None:
        if limit_bytes is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past the cap fails (EFBIG), not the process
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    return subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", *args], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limit)


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every node under `folder`: a file's bytes, a link's target, a FIFO as such (never opened), a folder as such
    (an empty one left behind is something written)."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            out[key] = "-> " + os.readlink(path)
        elif path.is_fifo():
            out[key] = "fifo"
        elif path.is_file():
            out[key] = path.read_bytes()
        elif path.is_dir():
            out[key] = "folder"
    return out


def refused(proc: subprocess.CompletedProcess, code: int, *needles: str) -> None:
    """One line on stderr, `bench...: error: ...` holding every needle, the exit code, no traceback."""
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == code, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("bench") and "error" in lines[0], proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished run folder, with its report."""
    tmp = tmp_path_factory.mktemp("run")
    (tmp / "grid.yaml").write_text(GRID)
    assert bench("run", "-g", "grid.yaml", "--out", "run", "-q", cwd=tmp).returncode == 0
    assert bench("report", "run", cwd=tmp).returncode == 0
    return tmp


@pytest.fixture
def work(finished, tmp_path) -> Path:
    """A copy of the finished run's folder to be hostile to (the copy is a folder bench did not make)."""
    shutil.copytree(finished, tmp_path / "w", symlinks=True)
    return tmp_path / "w"


# ---- 1. writing only what bench owns -----------------------------------------------------------------
@pytest.mark.parametrize("args, needle", [
    (("--csv", "run/solves.jsonl"), "is run's solves.jsonl"),
    (("--csv", "run/grid.json"), "is run's grid.json"),
    (("--plot", "run/renders.jsonl"), "is run's renders.jsonl"),
    (("--csv", "x.csv", "--plot", "x.csv"), "--plot x.csv: is --csv"),
    (("--csv", "run/report/summary.csv"), "the report's summary.csv"),
])
def test_an_output_onto_an_input_a_log_or_another_output_is_refused(work, args, needle):
    before = snapshot(work)
    proc = bench("report", "run", *args, cwd=work)
    refused(proc, 2, needle)
    assert snapshot(work) == before


@pytest.mark.parametrize("args", [
    ("generate", "-n", "2", "-o", "run/solves.jsonl"), ("generate", "-n", "2", "-o", "run/renders.jsonl"),
    ("generate", "-n", "2", "-o", "run/grid.json"), ("generate", "-n", "2", "-o", "run/.settled"),
    ("report", "other", "--csv", "run/solves.jsonl"), ("report", "other", "--plot", "run/.bench-run"),
    ("report", "other", "--csv", "run/grid.yaml"), ("generate", "-n", "2", "-o", "run/grid.yaml"),
    ("report", "other", "--csv", "run/grids/new.json"), ("report", "other", "--csv", "run/GRID"),
    ("report", "other", "--csv", "run/PLAN/facts.json"), ("generate", "-n", "2", "-o", "run/PLAN/new.json"),
    ("report", "other", "--csv", "run/report/.bench-report"), ("report", "run", "--plot", "run/report/.bench-report"),
])
def test_no_output_replaces_a_file_of_a_run_folder(work, args):
    """`bench generate -o RUN/solves.jsonl` emptied a run's log (found by a fuzz): any command's output onto a file
    bench keeps is refused, its own inputs or not: a run folder's (a copied one too) log, grid, hidden file, or
    anything under its grids/ or a report's plan; the marker of a report's folder (a later fuzz: once replaced, no
    report could write there again)."""
    shutil.copytree(work / "run", work / "other", symlinks=True)
    names = {"GRID": next((work / "run" / "grids").glob("*.json")).relative_to(work / "run"),
             "PLAN": next((work / "run").glob(".report-plan-*")).name}
    args = tuple(a.replace("GRID", str(names["GRID"])).replace("PLAN", names["PLAN"]) for a in args)
    before = snapshot(work)
    refused(bench(*args, cwd=work), 2, "is a file bench keeps in run")
    assert snapshot(work) == before


@pytest.mark.parametrize("command", ["status", "report", "run"])
def test_a_damaged_grid_json_says_a_command_that_mends_it(tmp_path, command):
    """status and report said "rerun `bench run --grid FILE` to save it again", which bench run then refused (found by
    a fuzz): the command each names, run as written, saves it again and redoes nothing."""
    (tmp_path / "grid.yaml").write_text(GRID)
    assert bench("run", "-g", "grid.yaml", "--out", "run", "-q", cwd=tmp_path).returncode == 0
    logs = {name: (tmp_path / "run" / name).read_bytes() for name in ("renders.jsonl", "solves.jsonl")}
    (tmp_path / "run" / "grid.json").write_text("{broken")
    args = ("run", "-g", "grid.yaml", "--out", "run", "-q") if command == "run" else (command, "run")
    proc = bench(*args, cwd=tmp_path)
    refused(proc, 2, "remove it and run the grid the folder ran")
    said = re.search(r"`bench (run --grid \S+ --out \S+)`", proc.stderr).group(1).split()
    (tmp_path / "run" / "grid.json").unlink()
    assert bench(*said, "-q", cwd=tmp_path).returncode == 0
    assert {name: (tmp_path / "run" / name).read_bytes() for name in logs} == logs   # nothing sent again
    assert "left 0" in bench("status", "run", cwd=tmp_path).stdout.splitlines()[-1]


def test_a_lock_that_is_a_symlink_never_empties_what_it_points_to(work):
    precious = work / "precious.txt"
    precious.write_text("my notes\n")
    (work / "run" / ".lock").unlink(missing_ok=True)
    (work / "run" / ".lock").symlink_to(precious)
    before = snapshot(work)
    refused(bench("run", "-g", "grid.yaml", "--out", "run", "-q", cwd=work), 2, ".lock", "symlink")
    assert snapshot(work) == before


@pytest.mark.parametrize("how", ["copied", "hand-made", "symlink"])
def test_a_marker_bench_did_not_write_for_this_folder_makes_nothing_ours(work, how):
    mine = work / "mine"
    mine.mkdir()
    (mine / "summary.csv").write_text("my,table\n")
    (mine / "grid.yaml").write_text("my grid\n")
    for name, src in ((".bench-report", work / "run" / "report" / ".bench-report"), (".bench-run", work / "run" / ".bench-run")):
        if how == "copied":
            shutil.copy(src, mine / name)
        elif how == "hand-made":
            (mine / name).write_text("")
        else:
            (mine / name).symlink_to(src)
    before = snapshot(work)
    refused(bench("report", "run", "--out", "mine", cwd=work), 2, "holds files that no report wrote")
    refused(bench("run", "-g", "grid.yaml", "--out", "mine", "-q", cwd=work), 2, "holds files that no run wrote")
    assert snapshot(work) == before


def test_a_full_disk_during_a_report_is_one_line_exit_3_and_the_old_report_stays(work):
    assert bench("report", "run", cwd=work).returncode == 0   # the copy's report folder, now marked as its own
    before = snapshot(work)
    proc = bench("report", "run", cwd=work, limit_bytes=4096)   # the CSVs fit; the pictures do not
    refused(proc, 3, "cannot write", "rerun the same command")
    assert snapshot(work) == before


# ---- 2. reading only what can be read ----------------------------------------------------------------
@pytest.mark.parametrize("command", [("run", "-g", "{x}", "--dry-run"), ("validate", "{x}"), ("status", "-g", "{x}"),
                                     ("audit", "{x}")])
@pytest.mark.parametrize("node", ["fifo", "dev-zero", "folder"])
def test_a_fifo_a_device_or_a_folder_as_an_input_is_refused_at_once(work, command, node):
    path = work / "input"
    if node == "fifo":
        os.mkfifo(path)
    elif node == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    before = snapshot(work)
    proc = bench(*(a.format(x="input") for a in command), cwd=work)
    refused(proc, 2, "input")
    assert snapshot(work) == before


@pytest.mark.parametrize("command, named", [(("validate", "input.yaml"), "grid input.yaml"),
                                            (("run", "-g", "input.yaml", "--dry-run"), "--grid input.yaml")])
def test_a_fifo_grid_is_named_as_the_command_took_it(work, command, named):
    # validate takes its grid as an argument, not as --grid: its message says so
    os.mkfifo(work / "input.yaml")
    proc = bench(*command, cwd=work)
    refused(proc, 2, named, "is a FIFO")
    assert ("--grid" in proc.stderr) == named.startswith("--grid"), proc.stderr


def test_a_grid_of_nested_yaml_aliases_is_refused_before_it_expands(work):
    bomb = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 9):
        bomb.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 9) + "]")
    (work / "bomb.yaml").write_text("\n".join(bomb) + "\n" + GRID)
    before = snapshot(work)
    refused(bench("run", "-g", "bomb.yaml", "--dry-run", cwd=work), 2, "aliases", "not supported")
    assert snapshot(work) == before


# ---- 3. one reading of a record ----------------------------------------------------------------------
@pytest.mark.parametrize("damage", ["glued", "complexity as text"])
def test_a_record_the_report_cannot_read_is_left_by_status_and_redone_by_the_run(work, damage):
    log = work / "run" / "solves.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    first = orjson.loads(lines[0])
    if damage == "glued":   # as `cat` of a log without its last newline makes
        lines[0:2] = [lines[0][:-1] + lines[1]]
        lost = 2
    else:
        lines[0] = orjson.dumps({**first, "complexity": str(first["complexity"])}) + b"\n"
        lost = 1
    log.write_bytes(b"".join(lines))
    status = bench("status", "run", cwd=work)
    assert status.returncode == 0 and f"left {lost}" in status.stdout.splitlines()[-1], status.stdout
    assert bench("report", "run", cwd=work).returncode == 0
    n = sum(int(row.split(",")[5]) for row in (work / "run" / "report" / "summary.csv").read_text().splitlines()[1:])
    assert n == 6 - lost   # the report counts what status counts done
    assert bench("run", "-g", "grid.yaml", "--out", "run", "-q", cwd=work).returncode == 0
    redone = bench("status", "run", cwd=work)
    assert "left 0" in redone.stdout.splitlines()[-1]


# ---- 5. every value checked, environment included ----------------------------------------------------
@pytest.mark.parametrize("variable, value", [("LSB_PROGRESS_EVERY", "1e-9"), ("LSB_PROGRESS_EVERY", "abc"),
                                             ("LSB_PROGRESS_EVERY", "nan"), ("LSB_PROGRESS_EVERY", "-5"),
                                             ("LSB_PREPARE_ASIDE_MIN", "abc"), ("LSB_PREPARE_ASIDE_MIN", "-1"),
                                             # found by a later fuzz: each ended in a traceback, or ran
                                             ("LSB_PREPARE_ASIDE_MIN", "1" + "0" * 309), ("LSB_PROGRESS_EVERY", "١٥"),
                                             ("LSB_PREPARE_ASIDE_MIN", "١٥"), ("LSB_CACHE_DIR", "grid.yaml"),
                                             ("LSB_CACHE_DIR", "grid.yaml/models"), ("LSB_CACHE_DIR", "/dev/null")])
@pytest.mark.parametrize("command", ["run", "models"])
def test_a_bad_environment_value_is_one_line_naming_it(work, variable, value, command):
    before = snapshot(work)
    args = {"run": ("run", "-g", "grid.yaml", "--out", "run", "-q"), "models": ("models", "prepare")}[command]
    refused(bench(*args, cwd=work, env={variable: value}), 2, variable)
    assert snapshot(work) == before


@pytest.mark.parametrize("args, needle", [
    (("--ray=",), "--ray ''"), (("--ray", "a b"), "--ray 'a b'"), (("--ray", "h\x1b[31m:1"), "\\x1b"),
    (("--ray", "h:99999"), "HEAD:PORT")])
def test_a_bad_ray_address_is_refused_even_in_a_dry_run(work, args, needle):
    refused(bench("run", "-g", "grid.yaml", "--dry-run", *args, cwd=work), 2, needle)


@pytest.mark.parametrize("text, needle", [
    (GRID.replace("r: {kind: random}", "r: {kind: vllm, model: m, base_url: 'http://127.0.0.1:9/v1'}").replace(
        "solvers: [r]", "solvers: [{provider: r, reasoning: {enabled: false, budget_tokens: 500}}]"),
     "solvers[0].reasoning.budget_tokens: a solver with enabled: false does not think"),
    (GRID.replace("complexities: [short]", "target_hop_dist: '1:0.5,1:0.5'"), "complexity 1 is given twice"),
])
def test_settings_that_contradict_each_other_are_refused(work, text, needle):
    (work / "bad.yaml").write_text(text)
    refused(bench("run", "-g", "bad.yaml", "--dry-run", cwd=work), 2, needle)


def test_a_logicmark_record_whose_answer_is_not_its_answer_index_is_invalid(work):
    record = {"context": "If: a = b, b = c. Then", "options": ["a = c", "a != c", "b = d", "b != d"],
              "answer_index": 0, "answer": "a != c", "hop_depth": 2}
    (work / "card.jsonl").write_bytes(orjson.dumps(record) + b"\n")
    proc = bench("validate", "card.jsonl", "--format", "logicmark", cwd=work)
    assert proc.returncode == 2 and "answer: 'a != c' is not options[0]" in proc.stderr, proc.stderr


# ---- 6. text from outside is shown as text -----------------------------------------------------------
def test_a_model_name_with_escape_codes_is_printed_escaped(work):
    (work / "esc.yaml").write_text(GRID.replace("r: {kind: random}", 'r: {kind: openai, model: "m\\e[2J\\nx", '
                                                "base_url: 'http://127.0.0.1:9/v1'}"))
    proc = bench("run", "-g", "esc.yaml", "--dry-run", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "m\\x1b[2J\\nx" in proc.stdout
