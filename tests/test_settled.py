"""A rerun of a finished run: nothing sent, nothing made, the same closing lines; any change takes the full path."""
from __future__ import annotations

import asyncio
import copy
import re
import signal
import time

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from runner.engine.feed import Feed
from runner.engine.items import LocalRender
from runner.engine.settled import path_for
from runner.engine.skip import set_bit
from runner.plan.manifest import read
from runner.plan.units import is_set
from runner.store.logs import TORN
from tests.conftest import bench
from tests.fake_server import FakeServer
from tests.test_feed import grid_and_json
from tests.test_fidelity import drop_fact
from tests.test_pipeline import _spawn, _wait_for_records, records, run_bench, terminal_counts, write_grid

NOTHING = "every unit is settled in the logs, unchanged since the run that finished them: nothing to do"


@pytest.fixture
def server():
    with FakeServer() as srv:
        yield srv


def rerun(grid, out, *extra: str):
    """The same command again, with its tables (no -q)."""
    return bench("run", "--grid", str(grid), "--out", str(out), *extra, check=True)


def whole_records(path) -> list[dict]:
    """The log's whole records (a line torn by the kill is not one)."""
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.endswith(b"}")]


def test_a_rerun_of_a_finished_run_sends_nothing_and_prints_what_the_full_path_prints(server, tmp_path):
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=8)
    first = rerun(grid, out)
    assert NOTHING not in first.stderr and (out / ".settled").is_file()
    logs = {name: (out / name).read_bytes() for name in ("renders.jsonl", "solves.jsonl")}
    sent = server.requests
    fast = rerun(grid, out)
    assert server.requests == sent   # no request, not even a server's health check
    assert NOTHING in fast.stderr
    assert {name: (out / name).read_bytes() for name in logs} == logs   # nothing written to the logs
    (out / ".settled").unlink()   # the same rerun the long way: it reads the logs and makes every skeleton
    full = rerun(grid, out)
    assert NOTHING not in full.stderr and server.requests == sent
    assert full.stdout == fast.stdout and fast.stdout.count("\n") > 8   # both tables and the closing line
    assert (out / ".settled").is_file()   # the long way found everything settled: it keeps the counts too
    assert NOTHING in rerun(grid, out).stderr


def test_kept_counts_holding_a_status_outside_its_type_take_the_full_path(server, tmp_path):
    """A render status no run writes, edited into the kept counts, is never printed: the file is read as none."""
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=4)
    first = rerun(grid, out)
    body = orjson.loads((out / ".settled").read_bytes())
    (out / ".settled").write_bytes(orjson.dumps({**body, "renders": {**body["renders"], "bogus": 3}}))
    proc = rerun(grid, out)
    assert NOTHING not in proc.stderr and "bogus" not in proc.stdout + proc.stderr
    assert proc.stdout == first.stdout


def _damaged(body: dict, where: str, value) -> dict:
    """The kept counts with one count replaced by `value`, at `where`."""
    body = orjson.loads(orjson.dumps(body))
    if where == "cell":
        body["cells"][0][2]["ok"] = value
    elif where == "renders":
        body["renders"] = {status: value for status in body["renders"]}
    elif where == "render_stats":
        stats = next(iter(body["render_stats"].values()))["statuses"]
        stats.update({status: value for status in stats})
    else:
        body[where] = value
    return body


@pytest.mark.parametrize("where", ["cell", "renders", "render_stats", "skeletons"])
@pytest.mark.parametrize("value", ["many", -5, 1.5, True])
def test_kept_counts_with_a_count_no_run_writes_take_the_full_path(server, tmp_path, where, value):
    """A count edited into the kept counts that no run writes (a word, a negative, a fraction, a bool) is never
    added or printed: the file is read as none ("many" stopped a rerun with a TypeError; found by a fuzz)."""
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=4)
    first = rerun(grid, out)
    (out / ".settled").write_bytes(orjson.dumps(_damaged(orjson.loads((out / ".settled").read_bytes()), where, value)))
    proc = rerun(grid, out)
    assert NOTHING not in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == first.stdout


def test_a_record_appended_after_the_run_takes_the_full_path(server, tmp_path):
    """Another process's record (here: a newer terminal one of a unit, with another status) changes the counts:
    the rerun reads the logs again and its table says what the logs now hold."""
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=4)
    run_bench(grid, out)
    solve = next(r for r in records(out, "solves.jsonl") if r["status"] == "ok" and r["solver"] == "fake")
    with open(out / "solves.jsonl", "ab") as fh:
        fh.write(orjson.dumps({**solve, "status": "invalid", "answer": None, "correct": None,
                               "finished_at": solve["finished_at"] + 1}) + b"\n")
    proc = rerun(grid, out)
    assert NOTHING not in proc.stderr
    assert "invalid 1" in proc.stdout.splitlines()[-1]
    assert NOTHING in rerun(grid, out).stderr   # and that rerun, finding all settled, kept its counts


def test_a_log_edited_in_place_with_the_same_size_takes_the_full_path(server, tmp_path):
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=4)
    run_bench(grid, out)
    lines = (out / "solves.jsonl").read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if b'"solver":"fake"' in line and b'"status":"ok"' in line)
    lines[at] = lines[at].replace(b'"status":"ok"', b'"status":"!!"')   # a unit of the server's, not terminal
    (out / "solves.jsonl").write_bytes(b"".join(lines))
    sent = server.requests
    proc = rerun(grid, out)
    assert NOTHING not in proc.stderr and server.requests > sent   # that unit is solved again


def test_a_changed_grid_or_skeleton_file_takes_the_full_path(server, tmp_path):
    out = tmp_path / "run"
    skeletons = tmp_path / "skeletons.jsonl"
    bench("generate", "--count", "6", "--seed", "1", "--output", str(skeletons), check=True)
    grid = tmp_path / "grid.yaml"
    text = (f'name: t\nskeletons: {{path: "{skeletons}"}}\nproviders:\n  fake: {{kind: vllm, model: fake-model, '
            f'base_url: "{server.url}"}}\n  random: {{kind: random}}\nrenderers: [fake]\nsolvers: [random]\n')
    grid.write_text(text)
    rerun(grid, out)
    assert NOTHING in rerun(grid, out).stderr
    lines = skeletons.read_bytes().splitlines(keepends=True)
    skeletons.write_bytes(b"".join(lines[:5]))   # one skeleton fewer: the counts change
    proc = rerun(grid, out)
    assert NOTHING not in proc.stderr and "renders: ok 5" in proc.stdout
    grid.write_text(text.replace("solvers: [random]", "solvers: [random, fake]"))   # a new solver: new units
    sent = server.requests
    proc = rerun(grid, out)
    assert NOTHING not in proc.stderr and server.requests == sent + 5


def test_a_quiet_run_keeps_no_render_table_so_a_rerun_with_tables_takes_the_full_path(server, tmp_path):
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=3)
    run_bench(grid, out)
    assert NOTHING in run_bench(grid, out).stderr   # -q again: no table needed
    with_tables = rerun(grid, out)
    assert NOTHING not in with_tables.stderr and "renderer" in with_tables.stdout
    assert NOTHING in rerun(grid, out).stderr


def test_a_run_with_errors_keeps_no_counts_and_its_rerun_retries_them(server, tmp_path):
    out = tmp_path / "run"
    server.default = "404"   # every request fails at once (a 4xx is not retried)
    grid = write_grid(tmp_path, server.url, count=3, retries=1)
    run_bench(grid, out, check=False)
    assert not (out / ".settled").exists()
    server.default = "ok"
    proc = rerun(grid, out)
    assert NOTHING not in proc.stderr and "error 0" in proc.stdout.splitlines()[-1]
    assert (out / ".settled").is_file()


@pytest.mark.parametrize("retired", [False, True])
def test_a_killed_run_keeps_no_counts_and_its_resume_does_exactly_what_is_left(server, tmp_path, retired):
    """`retired`: the resume finds no manifest of its code (removed here, as a change of the code retires it): it
    makes the skeletons again to know their keys, and still does exactly what is left."""
    out = tmp_path / "run"
    server.latency_s = 0.2
    grid = write_grid(tmp_path, server.url, count=40)
    proc = _spawn(grid, out)
    _wait_for_records(out, 1, proc)
    while (out / "solves.jsonl").read_bytes().count(b'"solver":"fake"') < 64:   # 64 of the server's 80 solves
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (out / ".settled").exists()
    server.latency_s = 0.0
    renders_before, solves_before = whole_records(out / "renders.jsonl"), whole_records(out / "solves.jsonl")
    left = (40 - sum(r["renderer"] == "fake" for r in renders_before)
            + 80 - sum(r["solver"] == "fake" for r in solves_before))   # the server's units not yet done
    sent = server.requests
    if retired:
        for manifest in out.glob(".skeletons-*"):
            manifest.unlink()
    resumed = rerun(grid, out)
    assert NOTHING not in resumed.stderr
    assert ("making every skeleton again" in resumed.stderr) == retired
    made_before = int(re.search(r"(\d+) skeleton\(s\) have every unit settled", resumed.stderr).group(1))
    assert 0 < made_before < 40
    assert server.requests - sent == left   # exactly the units left, each once
    solves = whole_records(out / "solves.jsonl")
    assert len(solves) == 160   # every unit once: those the killed run finished were not redone
    assert set(terminal_counts(solves).values()) == {1} and len(terminal_counts(solves)) == 160
    assert NOTHING in rerun(grid, out).stderr


def test_each_shard_keeps_its_own_counts(server, tmp_path):
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=8)
    rerun(grid, out, "--shard", "0/2")
    assert path_for(out, (0, 2)).is_file() and not path_for(out, (1, 2)).exists()
    rerun(grid, out, "--shard", "1/2")   # appends to the logs: shard 0's stamp is no longer theirs
    assert NOTHING not in rerun(grid, out, "--shard", "0/2").stderr
    assert NOTHING in rerun(grid, out, "--shard", "0/2").stderr
    assert NOTHING in rerun(grid, out, "--shard", "1/2").stderr   # shard 0's rerun appended nothing
    assert NOTHING not in rerun(grid, out).stderr   # the whole grid has kept no counts of its own yet


def test_a_resume_makes_no_skeleton_whose_units_are_all_settled(server, tmp_path):
    """Without the kept counts (here removed), the rerun reads the logs' index: every skeleton the manifest knows
    and the logs hold as settled is counted, not made, rendered or checked; the tables are the same."""
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=8)
    first = rerun(grid, out)
    (out / ".settled").unlink()
    sent = server.requests
    again = rerun(grid, out)
    assert "8 skeleton(s) have every unit settled in the logs" in again.stderr and server.requests == sent
    assert again.stdout == first.stdout


def _finished_uncounted(server, tmp_path):
    """A finished run of 8 skeletons, its kept counts removed: its folder, grid, first output and manifest."""
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=8)
    first = rerun(grid, out)
    (out / ".settled").unlink()
    (manifest,) = out.glob(".skeletons-*")
    return out, grid, first, manifest


def test_a_resume_without_its_manifest_makes_the_skeletons_again_and_prepares_none_that_is_settled(server, tmp_path):
    """A change of the code (or of the skeleton file) retires the manifest (here it is removed): the resume makes
    every skeleton again to know its units' keys, notes each as the run did, and counts the settled ones without
    preparing them; its tables are the run's, and the resume after it reads the new manifest."""
    out, grid, first, manifest = _finished_uncounted(server, tmp_path)
    noted = manifest.read_bytes()
    manifest.unlink()
    sent = server.requests
    again = rerun(grid, out)
    assert "making every skeleton again" in again.stderr
    assert "8 skeleton(s) have every unit settled in the logs" in again.stderr and server.requests == sent
    assert again.stdout == first.stdout
    assert sorted(manifest.read_bytes().splitlines()) == sorted(noted.splitlines())   # what the run noted, once
    (out / ".settled").unlink()
    third = rerun(grid, out)
    assert "making every skeleton again" not in third.stderr
    assert "8 skeleton(s) have every unit settled in the logs" in third.stderr and server.requests == sent


def test_a_resume_that_finds_everything_settled_closes_a_torn_tail_and_prints_the_run_s_lines(tmp_path):
    """A resume whose walk settles every skeleton (the kept counts removed, as a crash at the very end leaves them)
    sends nothing (here the run's server is gone) and prints what the run printed; a torn last line the crash left
    is closed off, as a run that writes would close it, and said once."""
    out = tmp_path / "run"
    with FakeServer() as srv:
        grid = write_grid(tmp_path, srv.url, count=8)
        first = rerun(grid, out)
    (out / ".settled").unlink()
    with (out / "solves.jsonl").open("ab") as fh:
        fh.write(b'{"schema":1,"key":"torn')   # a crash mid-line, after every unit was settled
    again = rerun(grid, out)   # check=True: exit 0, though nothing listens at the server's address
    assert "8 skeleton(s) have every unit settled in the logs" in again.stderr
    assert again.stdout == first.stdout
    assert (out / "solves.jsonl").read_bytes().endswith(b'"key":"torn' + TORN)   # closed off: one bad line
    assert f"skipped 1 unreadable line(s) in {out / 'solves.jsonl'}" in again.stderr   # said once


def test_a_manifest_line_torn_by_a_crash_costs_that_skeleton_only(server, tmp_path):
    out, grid, first, manifest = _finished_uncounted(server, tmp_path)
    data = manifest.read_bytes()
    manifest.write_bytes(data[:-5])   # the last line cut short, as a crash would leave it
    sent = server.requests
    again = rerun(grid, out)
    assert "7 skeleton(s) have every unit settled in the logs" in again.stderr
    assert server.requests == sent and again.stdout == first.stdout   # the eighth made again, its units found done
    lines = manifest.read_bytes().splitlines()
    assert lines[-2] == data[:-5].splitlines()[-1] and lines[-1] == data.splitlines()[-1]   # closed off, not glued
    (out / ".settled").unlink()
    assert "8 skeleton(s) have every unit settled" in rerun(grid, out).stderr


def _items(feed: Feed) -> list:
    async def collect() -> list:
        return [item async for batch in feed.batches() for item in batch]
    try:
        return asyncio.run(collect())
    finally:
        feed.close()


@pytest.mark.parametrize("workers", [0, 2])
def test_the_feed_makes_only_the_skeletons_not_settled(tmp_path, workers):
    """In the run's process and on helpers: a settled index is neither generated nor prepared, the others are
    prepared as before, each noted once in the manifest (those it knew already are not noted again)."""
    grid, saved = grid_and_json(tmp_path, count=150)
    settled = bytearray()
    for index in (0, 5, 64, 65, 130, 149):
        set_bit(settled, index)
    known = bytearray()
    set_bit(known, 7)
    notes = tmp_path / "manifest"
    items = _items(Feed(grid, None, saved if workers else None, max(workers, 1), bytes(settled), notes, known))
    assert [it.source_index for it in items] == [i for i in range(150) if not is_set(bytes(settled), i)]
    everything = {it.source_index: it for it in _items(Feed(grid, None))}
    def same(item) -> tuple:   # all but the local renders' timestamps
        return item._replace(renders=tuple(j._replace(work=j.work[:2] if isinstance(j.work, LocalRender) else j.work)
                                           for j in item.renders))
    assert all(same(it) == same(everything[it.source_index]) for it in items)   # as a run that skips nothing makes them
    noted = list(read(notes))
    assert [n.source_index for n in noted] == [it.source_index for it in items if it.source_index != 7]
    assert all((n.identity, n.family, n.options) == (everything[n.source_index].identity, everything[n.source_index].family,
                                                     len(everything[n.source_index].answer_options)) for n in noted)


@given(st.sets(st.integers(0, 5000), max_size=200))
def test_a_bitmap_holds_exactly_the_bits_set(indices):
    bits = bytearray()
    for i in indices:
        set_bit(bits, i)
    assert {i for i in range(5100) if is_set(bytes(bits), i)} == indices


def test_a_resume_counts_unfaithful_renders_in_its_table_as_the_run_did(server, tmp_path):
    """The walk counts a settled skeleton's renders in the closing table from the index, reading back only the
    records whose row needs more than their status (an unfaithful render's reasons); the skeletons it does not
    know (their manifest lines lost) are made again and their renders read from the log: one table, the run's."""
    out = tmp_path / "run"
    grid = write_grid(tmp_path, server.url, count=8)
    server.render_hook = lambda r, p: drop_fact(copy.deepcopy(r), p) if int(p["id"].split("-")[1]) % 3 else r
    first = rerun(grid, out)
    assert "fake unfaithful because (renders):" in first.stdout
    (out / ".settled").unlink()
    sent = server.requests
    walked = rerun(grid, out)
    assert "8 skeleton(s) have every unit settled in the logs" in walked.stderr
    assert walked.stdout == first.stdout and server.requests == sent
    (out / ".settled").unlink()
    (manifest,) = out.glob(".skeletons-*")
    manifest.write_bytes(b"".join(manifest.read_bytes().splitlines(keepends=True)[:5]))   # 3 skeletons unknown
    mixed = rerun(grid, out)
    assert "5 skeleton(s) have every unit settled in the logs" in mixed.stderr
    assert mixed.stdout == first.stdout and server.requests == sent
