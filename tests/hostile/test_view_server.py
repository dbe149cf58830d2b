"""`bench view` as a server a hostile page or a busy machine meets (no browser needed): the Host header is
checked (DNS rebinding), a bind beyond this machine says so, a taken port is one line at once, malformed
requests print no traceback, a unit page joins by its key only and still resolves after the grid changes."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import orjson
import pytest

from tests.conftest import HANG_S, ROOT, bench
from tests.view_mixed import build, get, served


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("view-server"), count=6)


def test_a_request_for_another_host_is_refused(run):
    with served(run) as (url, _):
        port = urlparse(url).port
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            status, _ = get(url, host)
            assert status == 200, host
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", f"127.0.0.1.nip.io:{port}",
                     "127.0.0.1:\u00b2", f"127.0.0.1:{'9' * 5000}"):
            status, text = get(url, host)
            assert status == 421 and "Renderer x solver" not in text, host
        with socket.create_connection(("127.0.0.1", port), timeout=HANG_S) as s:   # HTTP/1.0, no Host at all
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
            assert s.recv(64).split()[1] == b"421"


def test_a_whole_url_as_the_target_is_for_the_host_it_names(run):
    """`GET http://evil.example/` names its host in the target, which RFC 9112 puts before the Host header: it was
    served whenever the Host header was ours (found by a fuzz)."""
    with served(run) as (url, _):
        port = urlparse(url).port
        for target, code in ((f"http://127.0.0.1:{port}/", b"200"), (f"http://evil.example:{port}/", b"421"),
                             ("http://evil.example/", b"421"), (f"http://127.0.0.1:{port}@evil.example/", b"421"),
                             (f"http://127.0.0.1:{port + 1}/", b"421"), ("http://[::1/", b"4")):
            with socket.create_connection(("127.0.0.1", port), timeout=HANG_S) as s:
                s.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                answer = b""
                while chunk := s.recv(65536):
                    answer += chunk
            status = answer.split(b" ", 2)[1]
            assert status.startswith(code) and (code == b"200") == (b"Renderer x solver" in answer), (target, answer[:200])


def test_listening_beyond_this_machine_says_so_in_one_line(run):
    for host in ("0.0.0.0", ""):
        with served(run, args=("--host", host)) as (url, proc):
            assert get(url)[0] == 200
        said = proc.head + proc.stderr.read()
        assert "bench view: listening on 0.0.0.0, not only this machine" in said, said
        assert "Traceback" not in said


def test_a_taken_port_is_one_plain_line_at_once(run):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        started = time.monotonic()
        proc = bench("view", str(run), "--port", str(port))
        assert time.monotonic() - started < 30   # never hangs on exit
    assert proc.returncode == 2
    line = proc.stderr.strip()
    assert line.count("\n") == 0 and "Address already in use" in line and f"--port {port}" in line
    assert "('" not in line and "Traceback" not in line


def test_malformed_requests_get_no_traceback_and_the_server_stays(run):
    with served(run) as (url, proc):
        port = urlparse(url).port
        for junk in (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(40), b"GET / HTTP/9.9\r\n\r\n",
                     b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"\r\n\r\n\r\n", b"GET / HTTP/1.1\r\n" +
                     b"X: " + b"b" * 20000 + b"\r\n\r\n", b"POST /units HTTP/1.1\r\nContent-Length: -1\r\n\r\n"):
            # a request the server may leave unanswered (it waits for the rest): 10 s of silence ends the wait, an
            # answer or a close comes sooner; either is fine, what is checked is that nothing breaks
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(junk)
                try:
                    s.recv(4096)
                except OSError:
                    pass
        for q in ("units?run=mixed&renderer=template&page=-1", "units?run=mixed&renderer=%ff%fe",
                  "unit?run=mixed&key=%00", "unit?run=nope&renderer=x&skeleton=y&rs=zz", "compare?kind=x&a=&b=",
                  "units?run=mixed&renderer=template&complexity=x&verdict=%3Cscript%3E", "run?run=%3Cb%3E",
                  # numbers str.isdigit takes and int() refuses ('²', '³'), and one of 5,000 digits (int()'s limit)
                  "units?run=mixed&renderer=template&page=%C2%B2", f"units?run=mixed&renderer=template&page={'9' * 5000}",
                  "cell?run=mixed&renderer=template&solver=random&page=%C2%B3",
                  "unit?run=mixed&renderer=template&skeleton=x&rs=%C2%B2", f"unit?run=mixed&renderer=t&skeleton=x&rs={'9' * 5000}"):
            status, text = get(url + q)
            assert status in (200, 404), (q, status, text)
            assert "<script>" not in text.split("<body>", 1)[-1].replace("&lt;script&gt;", "")
        assert get(url)[0] == 200
    said = proc.stderr.read()
    assert "Traceback" not in said, said


def _unit_links(url: str) -> list[str]:
    out = []
    for renderer in ("template", "scripted", "hostile%3Atext", "dead"):
        _, text = get(url + f"units?run=mixed&renderer={renderer}")
        out += re.findall(r'href="(unit\?[^"]+)"', text)
    return sorted({link.replace("&amp;", "&") for link in out})


def test_unit_pages_still_resolve_after_the_grid_changes(run, tmp_path):
    with served(run) as (url, _):
        links = _unit_links(url)
        before = {link: get(url + link) for link in links}
    assert links and all(status == 200 for status, _ in before.values())
    # the same folder, rerun with more skeletons, a solver fewer and a renderer's settings changed (its old
    # renders are no longer this grid's): each old unit page still shows its unit
    grid = (run.parent / "grid.yaml").read_text().replace("count: 6", "count: 8").replace(", gone]", "]")
    grid = grid.replace("{provider: scripted, repair: 1}", "{provider: scripted}")
    assert "repair" not in grid
    (tmp_path / "grid.yaml").write_text(grid)
    size = (run / "renders.jsonl").stat().st_size
    subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", "run", "--grid",
                    str(tmp_path / "grid.yaml"), "--out", str(run), "-q"], cwd=ROOT, capture_output=True, timeout=HANG_S, check=False)
    assert (run / "renders.jsonl").stat().st_size > size   # it ran (its servers are gone: new units fail)
    with served(run) as (url, _):
        for link, (_, text) in before.items():
            status, now = get(url + link)
            assert status == 200, link
            title = re.search(r"<h1>(.*?)<", text).group(1)
            assert re.search(r"<h1>(.*?)<", now).group(1) == title


def test_a_unit_page_shows_only_its_own_keys_answers(tmp_path, run):
    """Two folders of one run name, a log with spaces after the colons: each unit shows its own answers."""
    other = tmp_path / "other"
    other.mkdir()
    for name in ("grid.json", "grid.yaml"):
        (other / name).write_bytes((run / name).read_bytes())
    if (run / "grids").is_dir():
        (other / "grids").mkdir()
        for p in (run / "grids").iterdir():
            (other / "grids" / p.name).write_bytes(p.read_bytes())
    solves = [orjson.loads(line) for line in (run / "solves.jsonl").read_bytes().splitlines()]
    spaced = [orjson.dumps(r).decode().replace('":', '": ').replace('","', '", "') for r in solves]
    (other / "solves.jsonl").write_text("\n".join(spaced) + "\n")
    (other / "renders.jsonl").write_bytes((run / "renders.jsonl").read_bytes())
    with served(run, other) as (url, _):
        by_key: dict[str, set] = {}
        for r in solves:
            by_key.setdefault(r["render_key"], set()).add((r["solver"], r["answer"] or ""))
        for key, answers in by_key.items():
            _, text = get(url + f"unit?run=mixed&key={key}")
            table = text.split('<table class="answers">', 1)[1].split("</table>", 1)[0]
            rows = re.findall(r'<td class="solver">([^<]*)</td>.*?<td class="answer">([^<]*)</td>', table, re.DOTALL)
            assert {(s, a) for s, a in rows} == answers, key
            assert len(rows) == len({s for s, _ in answers})   # one row per solver's sample, never another unit's



def test_several_runs_in_one_view_with_a_run_picker(run, tmp_path):
    other = build(tmp_path / "b", count=4, name="second")
    with served(run, other) as (url, _):
        _, text = get(url)
        assert '<table class="heatmap" data-run="mixed">' in text and '<table class="heatmap" data-run="second">' in text
        picker = re.findall(r'<a href="(/\?run=[^"]+)">', text)
        assert sorted(picker) == ["/?run=mixed", "/?run=second"]
        _, one = get(url.rstrip("/") + "/?run=second")
        assert 'data-run="second"' in one and 'data-run="mixed"' not in one
        status, _ = get(url + "?run=nope")
        assert status == 404


def test_a_log_rewritten_while_viewed_never_shows_another_units_answers(run, tmp_path):
    live = tmp_path / "live"
    import shutil
    shutil.copytree(run, live)
    solves = (live / "solves.jsonl").read_bytes().splitlines(keepends=True)
    owner = {orjson.loads(line)["render_key"]: set() for line in solves}
    for line in solves:
        rec = orjson.loads(line)
        owner[rec["render_key"]].add((rec["solver"], rec["answer"] or ""))
    with served(live) as (url, _):
        (live / "solves.jsonl").write_bytes(b"".join(reversed(solves)))   # same size, every offset moved
        for key, answers in owner.items():
            _, text = get(url + f"unit?run=mixed&key={key}")
            if '<table class="answers">' not in text:
                continue
            table = text.split('<table class="answers">', 1)[1].split("</table>", 1)[0]
            rows = re.findall(r'<td class="solver">([^<]*)</td>.*?<td class="answer">([^<]*)</td>', table, re.DOTALL)
            assert set(rows) <= answers, key


def test_records_damaged_by_hand_show_as_pages_and_bundle_never_a_500(run, tmp_path):
    """A render's text that is a JSON object and a time past any calendar (1e300), edited into a run's logs, are
    shown as they are: every unit page and the run page answer 200, and --bundle writes its pages (they were a
    500 and a traceback; found by a fuzz)."""
    import shutil
    damaged = tmp_path / "run"
    shutil.copytree(run, damaged)
    for name in ("renders.jsonl", "solves.jsonl"):
        recs = [orjson.loads(line) for line in (damaged / name).read_bytes().splitlines()]
        recs[0]["finished_at"] = 1e300
        structured = [r for r in recs if r.get("format") == "structured" and r.get("raw")]
        for r in structured[:2]:
            r["raw"] = {"a": 1}
        (damaged / name).write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in recs))
    with served(damaged) as (url, proc):
        links = _unit_links(url)
        assert links
        for link in [*links, "run?run=mixed"]:
            status, text = get(url + link)
            assert status == 200, (link, text[:300])
    assert "Traceback" not in proc.stderr.read()
    out = bench("view", str(damaged), "--bundle", str(tmp_path / "b"))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
