"""The `bench` command line on bad output paths and Ctrl-C: one line, the right exit code, nothing replaced."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.config.grid import load_grid
from tests.conftest import HANG_S, bench


def spawn(*args: str) -> subprocess.Popen:
    """`bench ARGS` in a child that takes Ctrl-C as a terminal would deliver it (SIGINT not ignored)."""
    return subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for(cond, timeout: float = HANG_S) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


@pytest.mark.parametrize("kind", ["folder", "fifo", "symlink", "missing-folder"])
def test_generate_refuses_bad_output_before_any_work(tmp_path, kind):
    target = tmp_path / "out.jsonl"
    mine = tmp_path / "mine.txt"
    mine.write_text("my own file\n")
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        target.symlink_to(mine)
    else:
        target = tmp_path / "nowhere" / "out.jsonl"
    before = sorted(p.name for p in tmp_path.iterdir())
    started = time.monotonic()
    proc = bench("generate", "-n", "3000000", "-o", str(target))   # refused at once, not after generating
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and str(target) in proc.stderr
    assert time.monotonic() - started < 60
    assert sorted(p.name for p in tmp_path.iterdir()) == before and mine.read_text() == "my own file\n"
    if kind == "symlink":
        assert target.is_symlink()
    if kind == "fifo":
        assert target.is_fifo()


def small_run(tmp_path: Path) -> Path:
    """A finished run of 4 skeletons (template renderer, random solver); its folder."""
    out = tmp_path / "run"
    grid = tmp_path / "grid.yaml"
    grid.write_text("name: g\nskeletons: {generate: {count: 4}}\nproviders: {t: {kind: template}, r: {kind: random}}\n"
                    "renderers: [t]\nsolvers: [r]\n")
    bench("run", "--grid", str(grid), "--out", str(out), "-q", check=True)
    return out


def test_report_csv_into_missing_folder_fails_before_printing(tmp_path):
    out = small_run(tmp_path)
    for flag in ("--csv", "--plot"):
        proc = bench("report", str(out), flag, str(tmp_path / "nowhere" / "r.out"))
        assert proc.returncode == 2 and proc.stdout == "", proc.stdout
        assert proc.stderr.strip() == f"bench: error: {flag} {tmp_path / 'nowhere' / 'r.out'}: folder {tmp_path / 'nowhere'} does not exist"


def in_main(proc: subprocess.Popen) -> bool:
    """Whether `bench` has entered its main (its SIGTERM handler is set: runner/exits.py): from then on a signal
    ends it in one line. Before, Python is still importing, and how long that takes is the machine's load."""
    try:
        status = Path(f"/proc/{proc.pid}/status").read_text()
    except FileNotFoundError:
        return True   # it ended: the test's assertions say how
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught >> (signal.SIGTERM - 1) & 1)


def _interrupt(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 130, err
    return err


@pytest.mark.parametrize("sig, line, code", [(signal.SIGINT, "bench: interrupted", 130),
                                              (signal.SIGTERM, "bench: stopped by SIGTERM", 143),
                                              (signal.SIGHUP, "bench: stopped by SIGHUP", 129)])
def test_a_signal_stops_generate_in_one_line_and_leaves_nothing_half_written(tmp_path, sig, line, code):
    out = tmp_path / "s.jsonl"
    proc = spawn("generate", "-n", "100000000", "-o", str(out))
    wait_for(lambda: any(p.name.startswith(".s.jsonl") for p in tmp_path.iterdir()))   # it is generating
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=HANG_S)
    assert proc.returncode == code and err.strip().splitlines()[-1].startswith(line) and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []   # neither the output nor its hidden temporary


@pytest.mark.parametrize("command", ["status", "report"])
def test_ctrl_c_says_interrupted_in_status_and_report(tmp_path, command):
    grid_file = tmp_path / "grid.yaml"
    grid_file.write_text("name: big\nskeletons: {generate: {count: 50000000}}\n"
                         "providers: {t: {kind: template}, r: {kind: random}}\nrenderers: [t]\nsolvers: [r]\n")
    out = tmp_path / "run"
    out.mkdir()
    (out / "grid.json").write_bytes(load_grid(grid_file).to_json())   # a run folder whose plan takes long to walk
    proc = spawn(command, str(out))
    wait_for(lambda: in_main(proc))
    assert proc.poll() is None
    err = _interrupt(proc)
    assert err.strip() == "bench: interrupted"


# A Ctrl-C that lands while orjson's first import imports one of its modules: the import fails, and orjson's init
# reads the NULL module unchecked (ijl/orjson#310). Made certain here by an import hook that raises it there.
ORJSON_INTERRUPTED = """
import sys, importlib.abc
import runner   # what every bench process imports first
class CtrlC(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == sys.argv[1]:
            raise KeyboardInterrupt
sys.meta_path.insert(0, CtrlC())
import orjson
print(orjson.loads(b'{"imported": true}'))
"""


@pytest.mark.parametrize("module", ["json", "uuid", "datetime", "dataclasses", "enum"])
def test_a_ctrl_c_inside_orjsons_first_import_is_no_crash(module):
    """bench imports the modules orjson's init imports before anything imports orjson: a Ctrl-C there (a command's
    first `import orjson` runs once its handlers are set) said SIGSEGV, 1 to 3 times in 100, not "interrupted"."""
    proc = subprocess.run([sys.executable, "-c", ORJSON_INTERRUPTED, module], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "{'imported': True}\n"), proc.stderr


# A signal whose handler runs inside a finalizer: its exception is one Python ignores ("Exception ignored in"), and
# the command went on. Made certain here: an object's __del__ raises the signal and runs on, so the handler runs
# there; then the command sleeps for up to 30 s and says "finished" (what the code before did, exit 0).
LOST_IN_A_FINALIZER = """
import signal, sys, time
from runner.exits import run_command
class Dropped:
    def __del__(self):
        signal.raise_signal(int(sys.argv[1]))
        for _ in range(3):   # the handler runs here, between bytecodes after the call
            pass
def app(args, standalone_mode):
    Dropped()
    for _ in range(3000):
        time.sleep(0.01)
    print("finished")
    return 0
run_command(app, [])
"""


# A signal that lands while DuckDB runs a query (the report's and status's reading): the engine takes in the
# KeyboardInterrupt (or our SIGTERM's) its check raises and raises "Query interrupted" instead. The signal is sent once
# the query runs (its progress is known), from a thread of the command itself.
ENGINE_INTERRUPTED = """
import os, signal, sys, threading, time
import duckdb
from runner.exits import run_command
con = duckdb.connect()
con.execute("SET enable_progress_bar = true")
con.execute("SET enable_progress_bar_print = false")
def fire():
    while con.query_progress() < 0:   # not running yet
        time.sleep(0.01)
    os.kill(os.getpid(), int(sys.argv[1]))
def app(args, standalone_mode):
    threading.Thread(target=fire, daemon=True).start()
    con.execute("SELECT count(*) FROM range(10000000000) a(i) WHERE hash(i) % 7 = 1").fetchall()
    print("finished")
    return 0
run_command(app, [])
"""


@pytest.mark.parametrize("harness", ["finalizer", "engine"])
@pytest.mark.parametrize("sig, line, code", [(signal.SIGINT, "bench: interrupted", 130),
                                              (signal.SIGTERM, "bench: stopped by SIGTERM; nothing half-written was kept",
                                               143)])
def test_a_signal_that_something_takes_in_still_stops_the_command_in_one_line(harness, sig, line, code):
    """A handler's exception that Python ignores (in a finalizer), or that DuckDB turns into `RuntimeError: Query
    interrupted` (`bench report` stopped during its reading ended so, exit 1, about half the time; found by a fuzz):
    the command still stops, in the signal's one line and code."""
    script = {"finalizer": LOST_IN_A_FINALIZER, "engine": ENGINE_INTERRUPTED}[harness]
    proc = subprocess.run([sys.executable, "-c", script, str(int(sig))], capture_output=True, text=True,
                          timeout=HANG_S, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stdout, proc.stderr.strip()) == (code, "", line)


def test_report_refuses_same_names_and_unmakeable_folders(tmp_path):
    out = small_run(tmp_path)
    same = bench("report", str(out), "--compare", "r", "r")
    assert same.returncode == 2 and same.stderr.strip() == "bench: error: --compare r r: give two different names"
    (tmp_path / "file").write_text("x")
    for target in (tmp_path / "file" / "rep", tmp_path / "file"):
        proc = bench("report", str(out), "--out", str(target))
        assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr


def test_report_out_never_writes_over_someone_elses_files_nor_through_a_link(tmp_path):
    out = small_run(tmp_path)
    theirs = tmp_path / "paper"
    theirs.mkdir()
    (theirs / "summary.csv").write_text("my own table\n")
    (theirs / "report.md").write_text("# my notes\n")
    link = tmp_path / "link"
    link.symlink_to(theirs)
    for target, says in ((theirs, "holds files that no report wrote (report.md, summary.csv)"), (link, "is a symlink")):
        proc = bench("report", str(out), "--out", str(target))
        assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert (theirs / "summary.csv").read_text() == "my own table\n" and sorted(p.name for p in theirs.iterdir()) == \
        ["report.md", "summary.csv"]
    fresh = tmp_path / "fresh"
    bench("report", str(out), "--out", str(fresh), check=True)
    bench("report", str(out), "--out", str(fresh), check=True)   # its own folder: written again
    assert (fresh / "summary.csv").read_text() != "my own table\n"


def test_help_gives_whole_summaries_and_names_a_person_reads():
    top = bench("--help", env={"COLUMNS": "100"}, check=True).stdout
    commands = top.split("Commands:")[1]
    assert "..." not in commands and "…" not in commands
    for name in ("generate", "validate", "run", "status", "serve", "report", "audit", "models"):
        assert f"  {name} " in commands
    report = bench("report", "--help", env={"COLUMNS": "100"}, check=True).stdout
    assert "RUN_DIR" in report and "<list[" not in report and "<path>" not in report and "<str" not in report
    run = bench("run", "--help", env={"COLUMNS": "100"}, check=True).stdout
    assert "--grid FILE" in run and "--shard I/N" in run


def test_tied_reasons_are_ordered_by_count_then_name_everywhere():
    from runner.reporting.summary import render_table
    from runner.store.tally import render_stats
    records = [{"key": str(i), "status": "unfaithful", "renderer": "r", "checks": [c]}
               for i, c in enumerate(["question: x", "intro: y", "missing_fact: z", "intro: w", "question: v"])]
    for order in (records, records[::-1]):   # whatever order the log holds them in
        text = render_table(render_stats(order))
        assert "r unfaithful because (renders): intro 2, question 2, missing_fact 1" in text


def test_ray_without_the_extra_is_one_line_and_writes_nothing(tmp_path):
    grid = tmp_path / "grid.yaml"
    grid.write_text("name: g\nskeletons: {generate: {count: 2}}\nproviders: {t: {kind: template}, r: {kind: random}}\n"
                    "renderers: [t]\nsolvers: [r]\n")
    # Ray hidden from this process as if it were not installed
    proc = subprocess.run([sys.executable, "-c", "import sys; sys.modules['ray'] = None; from runner.cli import main; main()",
                           "run", "--grid", str(grid), "--out", str(tmp_path / "out"), "--ray"],
                          capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2 and proc.stderr.strip() == "bench: error: --ray needs Ray: pip install -e '.[ray]'"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, expected", [
    (["run", "--ray"], ["run", "--ray", "auto"]),
    (["run", "--ray", "--dry-run"], ["run", "--ray", "auto", "--dry-run"]),
    (["run", "--ray", "10.0.0.1:6379", "-q"], ["run", "--ray", "10.0.0.1:6379", "-q"]),
    (["run", "--ray", "local"], ["run", "--ray", "local"]),
])
def test_ray_alone_means_auto(argv, expected):
    from runner.cli import optional_values
    assert optional_values(argv) == expected


def _commands() -> list[list[str]]:
    import typer.main

    from runner.cli import app
    group = typer.main.get_command(app)
    out = [[]]
    for name, cmd in group.commands.items():
        out.append([name])
        for sub in getattr(cmd, "commands", {}):
            out.append([name, sub])
    return out


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c) or "bench")
def test_every_help_reads_as_english(command):
    """Metavars a person reads (no `<int range>`, `<list[str]>`, `{FILE}`), no 64-bit ranges, defaults as numbers
    (not `[default: (20)]`, which a string show_default prints), exit 0."""
    proc = bench(*command, "--help")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    for bad in ("<int", "<str", "<list", "<float", "<path", "{", "9223372036854775807", "<=x<=", "default: ("):
        assert bad not in text, (command, bad, text)


def test_version():
    proc = bench("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("bench (logic-skeleton-bench) ")


@pytest.mark.parametrize("command", ["run", "status", "report", "view", "generate"])
def test_a_path_too_long_for_the_file_system_is_one_line(tmp_path, command):
    """A folder or file name past the file system's limit (255 bytes a name on Linux) is one line naming it, exit 2,
    nothing made: `run --out` and `status`, `report`, `view` of such a folder ended in an ENAMETOOLONG traceback
    (found by a fuzz)."""
    long = tmp_path / ("a" * 300)
    args = {"run": ["run", "--grid", str(Path(__file__).parent.parent / "configs" / "grid-quick.yaml"), "--out",
                    str(long), "-q"], "generate": ["generate", "-n", "2", "-o", str(long / "s.jsonl")]}
    proc = bench(*args.get(command, [command, str(long)]))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bench") and "Traceback" not in proc.stderr, proc.stderr
    assert "aaaa" in lines[0] and list(tmp_path.iterdir()) == []
