"""`bench run` and `bench status` on what goes wrong: damaged logs, foreign records, dead servers, exit codes."""
from __future__ import annotations

import socket

import orjson
import pytest

from tests.conftest import bench
from tests.fake_server import FakeServer
from tests.test_pipeline import records, run_bench, terminal_counts, write_grid


@pytest.fixture
def server():
    with FakeServer() as srv:
        yield srv


def closed_port_url() -> str:
    """The URL of a port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_damaged_render_line_mid_file_is_redone_not_fatal(server, tmp_path):
    """A render line with an unescaped quote in its text, still starting and ending as ours, in the middle
    of the log: the next run skips it, says so once, renders that unit again and finishes every unit."""
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=6)
    run_bench(grid, out)
    lines = (out / "renders.jsonl").read_bytes().splitlines(keepends=True)
    victim = next(i for i, line in enumerate(lines[:-1]) if b'"renderer":"fake"' in line)
    key = orjson.loads(lines[victim])["key"]
    lines[victim] = lines[victim].replace(b'"text":"', b'"text":"a "quoted" word ', 1)
    (out / "renders.jsonl").write_bytes(b"".join(lines))
    (out / "solves.jsonl").unlink()   # the solves must be redone, so the renders' texts are read back
    proc = run_bench(grid, out, check=False)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "skipped 1 unreadable line(s) in" in proc.stderr and "a unit only they held is redone, not read from them" in proc.stderr
    after = (out / "renders.jsonl").read_bytes()
    assert after.startswith(b"".join(lines))   # nothing the log held is changed: the redone unit is appended
    renders = [orjson.loads(l) for l in after.splitlines() if b'"a "quoted' not in l]
    assert [r["key"] for r in renders].count(key) == 1 and len(renders) == len(lines)
    again = run_bench(grid, out, check=False)   # the redone record now stands for the unit: nothing is redone
    assert again.returncode == 0 and (out / "renders.jsonl").read_bytes() == after
    solves = records(out, "solves.jsonl")
    assert len(terminal_counts(solves)) == 24 and set(terminal_counts(solves).values()) == {1}
    status = bench("status", str(out), check=True)
    assert "left 0" in status.stdout and "skipped 1 unreadable line(s)" in status.stderr
    # the skipped line stays in the log, its unit done: no advice to rerun, nor "redone" beside "nothing to do"
    left = "a unit only they held counts as left until `bench run` redoes it"
    for proc, says in ((again, "a unit only they held is redone, not read from them"), (status, left),
                       (bench("report", str(out), "--no-pictures", check=True), left)):
        [note] = [line for line in proc.stderr.splitlines() if "unreadable line" in line]
        assert note.endswith(says) and "rerun" not in note, note


def test_first_rerun_says_how_many_lines_it_skipped(server, tmp_path):
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=3)
    run_bench(grid, out)
    with open(out / "renders.jsonl", "ab") as fh:
        fh.write(b'{"schema":1,"key":"' + b"z" * 32 + b'","status":"ok","text":"no end"\n')
    proc = run_bench(grid, out, check=False)
    assert proc.returncode == 0
    assert proc.stderr.count("skipped 1 unreadable line(s) in") == 1 and "renders.jsonl" in proc.stderr


def test_report_and_status_tolerate_foreign_and_partial_records(server, tmp_path):
    out = tmp_path / "run"
    run_bench(write_grid(tmp_path, server.url, count=3), out)
    before = bench("report", str(out), check=True).stdout
    some = records(out, "solves.jsonl")[0]
    with open(out / "solves.jsonl", "ab") as fh:
        fh.write(orjson.dumps({"key": some["key"], "status": "ok"}) + b"\n")
        fh.write(orjson.dumps({**some, "complexity": "deep"}) + b"\n")
        fh.write(b"[]\n")
    with open(out / "renders.jsonl", "ab") as fh:
        fh.write(orjson.dumps({"key": "k", "status": "ok", "renderer": ["x"]}) + b"\n")
    report = bench("report", str(out))
    assert report.returncode == 0 and "Traceback" not in report.stderr, report.stderr
    assert report.stdout == before   # the figures are those of the whole records
    assert "skipped 3 unreadable line(s)" in report.stderr
    status = bench("status", str(out))
    assert status.returncode == 0 and "Traceback" not in status.stderr, status.stderr


def test_every_unit_errored_exits_1_naming_endpoint_and_cause(tmp_path):
    url = closed_port_url()
    out = tmp_path / "run"
    proc = run_bench(write_grid(tmp_path, url, count=2, retries=1), out, check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"every render unit of fake failed (2): connection 2; most often: connection refused to {url}" in proc.stderr
    reasons = {r["reason"] for r in records(out, "renders.jsonl") if r["status"] == "error"}
    assert reasons == {f"connection refused to {url}"}
    assert f"every solve unit of fake failed (2): connection 2; most often: connection refused to {url}" in proc.stderr   # on the template's renders
    # run and status count the same; the fake renderer's solves are left (its renders errored), not failed
    run_line = proc.stdout.strip().splitlines()[-1]
    status = bench("status", str(out), check=True).stdout
    assert "error 2" in run_line and "render_failed 0" in run_line
    assert "errored 2" in status and "render_failed 0" in status and "left 4" in status


def test_some_errors_say_how_many_and_how_to_retry(server, tmp_path):
    out = tmp_path / "run"
    server.script.extend(["404"] * 2)   # not retried: the first two requests (renders) fail for good
    proc = run_bench(write_grid(tmp_path, server.url, count=6), out, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "2 of 6 render units of fake failed: http 2; most often: http 404" in proc.stderr
    assert "rerun the same command to retry them" in proc.stderr
    again = run_bench(write_grid(tmp_path, server.url, count=6), out, check=False)
    assert again.returncode == 0 and "failed" not in again.stderr


def test_damaged_grid_json_is_one_line(server, tmp_path):
    out = tmp_path / "run"
    run_bench(write_grid(tmp_path, server.url, count=2), out)
    (out / "grid.json").write_text('{"name": "t", "source": 5}')
    for cmd in ("status", "report"):
        proc = bench(cmd, str(out))
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert proc.stderr.startswith(f"bench: error: {out / 'grid.json'}: not a grid this version of bench saved")


# ---- a write that fails: disk full, a read-only folder -----------------------------------------------------

QUICK = """
name: full
skeletons:
  generate: {count: 300, complexities: [short, medium], seed: 4}
providers:
  template: {kind: template}
  random: {kind: random, seed: 0}
  prior: {kind: prior}
renderers: [template]
solvers: [random, prior]
"""


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs of our own (the test's machine runs it as root, as CI does), unmounted at the end."""
    import os
    import subprocess
    mount = tmp_path / "disk"
    mount.mkdir()
    got = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True)
    if got.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot mount a tmpfs for the disk-full test: {got.stderr.decode().strip()}")
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk, leave: int) -> None:
    """Take all but `leave` bytes of the disk."""
    import os
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    (disk / "filler").write_bytes(b"\0" * max(0, free - leave))


def test_a_full_disk_stops_the_run_with_one_line_and_the_rerun_loses_nothing(tmp_path, small_disk):
    grid = tmp_path / "grid.yaml"
    grid.write_text(QUICK)
    out = small_disk / "run"
    _fill(small_disk, 96 * 1024)   # room for the grid and part of the logs
    proc = bench("run", "--grid", str(grid), "--out", str(out), "-q")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "Exception in callback" not in proc.stderr
    [line] = [l for l in proc.stderr.splitlines() if l.startswith("bench: error:")]
    assert "cannot write (No space left on device)" in line and ".jsonl" in line and "rerun the same command" in line
    assert "solves: ok" not in proc.stdout   # no summary counts a record that is not on disk
    before = records_tolerant(out / "solves.jsonl")
    (small_disk / "filler").unlink()   # space is back
    again = bench("run", "--grid", str(grid), "--out", str(out), "-q", check=True)
    solves = records_tolerant(out / "solves.jsonl")
    assert all(rec in solves for rec in before)   # nothing that was whole was lost or rewritten
    done = terminal_counts(solves)
    assert len(done) == 300 * 2 and set(done.values()) == {1}   # every unit once
    summary = next(l for l in again.stdout.splitlines() if l.startswith("renders:"))
    assert "solves: ok 600," in summary


def test_a_read_only_folder_stops_the_run_with_one_line(tmp_path, small_disk):
    import subprocess
    grid = tmp_path / "grid.yaml"
    grid.write_text(QUICK.replace("count: 300", "count: 20"))
    out = small_disk / "run"
    bench("run", "--grid", str(grid), "--out", str(out), "-q", check=True)
    logs = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    grid.write_text(QUICK.replace("count: 300", "count: 40"))   # more units to write
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    # every command that writes there says so in one line and exits 3 (docs/running.md: a write failed,
    # read-only): the run at its lock, the report and generate before any work, at their first output
    for args, named in ((("run", "--grid", str(grid), "--out", str(out), "-q"), out),
                        (("report", str(out)), out / "report.csv"),
                        (("generate", "-n", "3", "-o", str(out / "sk.jsonl"), "-q"), out / "sk.jsonl")):
        proc = bench(*args)
        assert proc.returncode == 3 and "Traceback" not in proc.stderr, (args, proc.stderr)
        [line] = [l for l in proc.stderr.splitlines() if l.startswith("bench: error:")]
        assert "cannot write (Read-only file system)" in line and str(named) in line, line
        assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == logs   # nothing touched


def records_tolerant(path) -> list[dict]:
    """The whole records of a log (a torn line left by the failed write is skipped, as readers do)."""
    out = []
    for line in path.read_bytes().splitlines():
        try:
            out.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            pass
    return out


@pytest.mark.parametrize("log", ["renders.jsonl", "solves.jsonl", "calibration.jsonl"])
@pytest.mark.parametrize("kind", ["folder", "symlink loop"])
def test_a_log_that_is_a_folder_or_a_symlink_loop_gets_one_line_everywhere(tmp_path, log, kind):
    grid = tmp_path / "grid.yaml"
    grid.write_text(QUICK.replace("count: 300", "count: 4"))
    out = tmp_path / "run"
    bench("run", "--grid", str(grid), "--out", str(out), "-q", check=True)
    (out / log).unlink(missing_ok=True)
    if kind == "folder":
        (out / log).mkdir()
    else:
        (out / "a").symlink_to(out / "b")
        (out / "b").symlink_to(out / "a")
        (out / log).symlink_to(out / "a")
    for args in (["run", "--grid", str(grid), "--out", str(out), "-q"], ["run", "--grid", str(grid), "--out", str(out),
                 "--dry-run"], ["status", str(out)], ["report", str(out)]):
        proc = bench(*args)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, (args, proc.stderr)
        assert proc.stderr.strip() == f"bench: error: {out / log}: is {'a folder' if kind == 'folder' else 'a symlink'}" \
                                      f", where a run keeps its log; move it out of {out}", proc.stderr


def test_off_a_terminal_a_long_run_says_where_it_is_at_a_steady_pace(tmp_path):
    # 80 skeletons, 8 at a time at 0.15 s each: some five seconds of lines, so that an estimate falls between
    # the first solve's answer and the last units (a shorter run, on a busy machine, could say only "unknown")
    with FakeServer(latency_s=0.15) as server:
        grid = write_grid(tmp_path, server.url, count=80)
        proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run"), env={"LSB_PROGRESS_EVERY": "0.5"},
                     check=True)
    lines = [l for l in proc.stderr.splitlines() if l.startswith("bench: render ")]
    assert len(lines) >= 2, proc.stderr
    import re
    done = [int(re.search(r"solve (\d+)/320", l).group(1)) for l in lines]
    assert done == sorted(done) and all(" units/s; " in l for l in lines)
    assert any(re.search(r"about \d+s left|about \d+m\d\ds left", l) for l in lines), lines
    quiet = bench("run", "--grid", str(grid), "--out", str(tmp_path / "run2"), "-q", env={"LSB_PROGRESS_EVERY": "0.5"})
    assert "bench: render " not in quiet.stderr   # -q: no progress at all
