"""Hostile inputs left open by the last round: each one line (or the right result), never a traceback, and
nothing half-written left behind by a signal."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import HANG_S, ROOT
from tests.fake_server import FakeServer
from tests.hostile.test_hostile import GRID, bench, refused, snapshot


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished run folder of the hostile grid (`run/`), beside its grid file."""
    tmp = tmp_path_factory.mktemp("left")
    (tmp / "grid.yaml").write_text(GRID)
    assert bench("run", "-g", "grid.yaml", "--out", "run", "-q", cwd=tmp).returncode == 0
    return tmp


@pytest.fixture
def work(finished, tmp_path) -> Path:
    shutil.copytree(finished, tmp_path / "w", symlinks=True)
    return tmp_path / "w"


@pytest.mark.parametrize("name", ["A=B", ""])
def test_a_launch_env_name_the_os_refuses_is_a_grid_error(tmp_path, name):
    (tmp_path / "g.yaml").write_text(f"""name: e
skeletons: {{generate: {{count: 2, complexities: [short]}}}}
providers:
  t: {{kind: template}}
  v: {{kind: vllm, model: m, launch: {{model: /nowhere, env: {{"{name}": "1"}}}}}}
renderers: [t]
solvers: [v]
""")
    proc = bench("run", "-g", "g.yaml", "--out", "run", cwd=tmp_path)
    refused(proc, 2, "g.yaml", "providers.v.launch.env", "environment variable name")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", ["report", "audit"])
def test_a_negative_seed_is_one_line(work, command):
    if command == "report":
        args = ("report", "run", "--seed", "-1", "--compare", "r", "r2")
    else:
        assert bench("generate", "-n", "8", "-o", "sk.jsonl", "-q", cwd=work).returncode == 0
        args = ("audit", "sk.jsonl", "--seed", "-1")
    before = snapshot(work)
    refused(bench(*args, cwd=work), 2, "--seed -1", "0..4294967295")
    assert snapshot(work) == before


def test_max_units_without_a_bundle_is_one_line_not_ignored(work):
    # the served view shows every unit: --max-units there would be silently nothing; with --bundle it is taken
    refused(bench("view", "run", "--max-units", "3", "--port", "0", cwd=work), 2, "--max-units 3", "only with --bundle")
    made = bench("view", "run", "--bundle", "pages", "--max-units", "0", cwd=work)
    assert made.returncode == 0 and (work / "pages" / "index.html").is_file(), made.stderr


def test_status_with_another_runs_grid_says_so(work):
    other = work / "other.yaml"
    other.write_text(GRID.replace("name: h", "name: other"))
    refused(bench("status", "run", "--grid", "other.yaml", cwd=work), 2, "holds the run of grid 'h', not 'other'")
    changed = work / "changed.yaml"   # the same run's grid, one solver more: counted, and said
    changed.write_text(GRID.replace("r: {kind: random}", "r: {kind: random}, p: {kind: prior}")
                       .replace("solvers: [r]", "solvers: [r, p]"))
    proc = bench("status", "run", "--grid", "changed.yaml", cwd=work)
    assert proc.returncode == 0 and "was last run with grid" in proc.stderr, proc.stderr
    assert "left 6" in proc.stdout   # the new solver's units, none of the old ones
    same = bench("status", "run", "--grid", "grid.yaml", cwd=work)
    assert same.returncode == 0 and same.stderr == "" and "left 0" in same.stdout


def test_an_audit_at_rate_zero_that_still_calibrates_says_so(tmp_path):
    with FakeServer() as srv:
        (tmp_path / "g.yaml").write_text(f"""name: a
skeletons: {{generate: {{count: 2, complexities: [short]}}}}
providers:
  f: {{kind: openai, base_url: "{srv.url}", model: fake-model}}
  r: {{kind: random}}
renderers: [{{provider: f, audit: {{provider: f, rate: 0}}}}]
solvers: [r]
""")
        proc = bench("run", "-g", "g.yaml", "--out", "run", "--dry-run", cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    line = next(line for line in proc.stderr.splitlines() if "audit rate 0" in line)
    assert "renderer f" in line and "80 control renders per family" in line and "calibrate: 0" in line
    quiet = (tmp_path / "g.yaml").read_text().replace("rate: 0}", "rate: 0, calibrate: 0}")
    (tmp_path / "g.yaml").write_text(quiet)
    assert "audit rate 0" not in bench("run", "-g", "g.yaml", "--out", "run", "--dry-run", cwd=tmp_path).stderr


def _unprivileged(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`bench` without the power to read what its mode forbids (root's DAC override dropped when we are root)."""
    cmd = [sys.executable, "-c", "from runner.cli import main; main()", *args]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root without setpriv: a file's mode does not stop this process reading it")
        drop = "-dac_override,-dac_read_search"
        cmd = ["setpriv", f"--bounding-set={drop}", f"--inh-caps={drop}", *cmd]
    return subprocess.run(cmd, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=HANG_S)


@pytest.mark.parametrize("log", ["solves.jsonl", "renders.jsonl"])
def test_report_on_an_unreadable_log_is_one_line(work, log):
    (work / "run" / log).chmod(0)
    try:
        proc = _unprivileged("report", "run", cwd=work)
    finally:
        (work / "run" / log).chmod(0o644)
    refused(proc, 2, f"run/{log}", "cannot read it", "Permission denied")


def test_report_stopped_by_a_signal_leaves_no_temporary(work):
    """SIGTERM while the drawing child holds `.heatmap.png.<pid>.tmp`: the report stops in one line and the
    temporary goes with it (the child is killed; the parent removes what it had open), and so does the report's
    folder if it made it and wrote nothing else there."""
    report = work / "run" / "report"
    shutil.rmtree(report, ignore_errors=True)
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "report", "run"],
                            cwd=work, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        tmp = None
        while tmp is None and proc.poll() is None:   # waits on what it wrote: the picture's temporary
            tmp = next((p for p in report.glob(".heatmap.png.*.tmp")), None) if report.is_dir() else None
            time.sleep(0.001)
        if tmp is None:
            pytest.fail(f"the report ended before drawing (exit {proc.returncode}): {proc.stderr.read()}")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=HANG_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM and "stopped by SIGTERM" in err, err
    # no temporary stays; the folder this report made goes with it where it holds nothing but its marker
    left = sorted(p.name for p in report.iterdir()) if report.exists() else []
    assert not [n for n in left if n.endswith(".tmp")] and left != [".bench-report"], left
    # the drawing child's own fork (it draws the heatmap) goes too: told by the child's death, not waited for
    deadline = time.monotonic() + HANG_S
    while (left := _reports_in(work)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert left == []


def _reports_in(folder: Path) -> list[int]:
    """The processes of a `report` command running in `folder` (forks included: they keep its command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and b"report" in (entry / "cmdline").read_bytes().split(b"\0") \
                    and (entry / "cwd").resolve() == folder.resolve():
                found.append(int(entry.name))
        except OSError:   # gone meanwhile, or not ours to read
            continue
    return found


def test_a_report_on_a_folder_with_no_run_leaves_no_report_folder(work):
    """A report refused on a folder that holds no run leaves no `report/` in it: an empty one left there made the
    next `bench run --out` on that folder refuse it (files no run wrote)."""
    (work / "empty").mkdir()
    before = snapshot(work)
    refused(bench("report", "empty", cwd=work), 2, "no grid.json here")
    assert snapshot(work) == before   # folders included
    ran = bench("run", "-g", "grid.yaml", "--out", "empty", "-q", cwd=work)
    assert ran.returncode == 0, ran.stderr


@pytest.mark.parametrize("args, marker", [(("report", "run", "--out", "new"), ".bench-report"),
                                          (("view", "run", "--bundle", "new"), ".bench-view"),
                                          (("run", "-g", "grid.yaml", "--out", "new", "-q"), ".bench-run")])
def test_a_command_whose_first_write_fails_leaves_no_folder_it_made(work, args, marker):
    # a full disk at the folder's marker: one line, exit 3, and the folder the command made is gone again
    before = snapshot(work)
    refused(bench(*args, cwd=work, limit_bytes=16), 3, "cannot write", f"new/{marker}")
    assert snapshot(work) == before


@pytest.mark.parametrize("args, flag", [(("run", "-g", "grid.yaml", "--out", "afile/sub/run", "-q"), "--out"),
                                        (("report", "run", "--out", "afile/report"), "--out"),
                                        (("report", "run", "--csv", "afile/x.csv"), "--csv"),
                                        (("report", "run", "--plot", "afile/x.png"), "--plot"),
                                        (("view", "run", "--bundle", "afile/pages"), "--bundle"),
                                        (("generate", "-n", "2", "-o", "afile/sk.jsonl", "-q"), "--output")])
def test_an_output_under_a_file_is_a_bad_flag_not_a_failed_write(work, args, flag):
    # a path that can never be made is bad input (exit 2, the flag named), not "cannot write ... free space"
    (work / "afile").write_text("a file of mine\n")
    before = snapshot(work)
    refused(bench(*args, cwd=work), 2, f"{flag} afile/")
    assert snapshot(work) == before
