"""Loglik solvers against the fake completions server: exact scores and normalisations, the token boundary
(from /tokenize, or from the echoed tokens where the server has none), a server without prompt
log-probabilities refused before the run, malformed answers as unit errors."""
from __future__ import annotations

import asyncio
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers.base import ProviderFailure, SolveRequest
from providers.build import build_provider
from providers.config import parse_provider
from providers.loglik import boundary, echo_scores, option_score, prompt_logprobs, split_pair
from tests.conftest import bench
from tests.fake_server import FakeServer, fake_logprob, fake_pieces, fake_tokenize
from tests.test_pipeline import records

GRID = """name: ll
skeletons: {{generate: {{count: {count}, complexities: [1, 3], seed: 2}}}}
providers:
  fake: {{kind: vllm, model: fake-model, base_url: "{url}", attempts: 2}}
  template: {{kind: template}}
renderers: [template]
solvers:
  - {{provider: fake, mode: loglik{extra}}}
"""


def write(tmp, url, count=12, extra=""):
    path = tmp / "grid.yaml"
    path.write_text(GRID.format(url=url, count=count, extra=extra))
    return path


def expected(text: str, option: str, delimiter: str = " ") -> tuple[float, int]:
    """The score of `option` after `text`, computed here from the fake model's own numbers."""
    ctx, cont = split_pair(text, delimiter + option)
    ctx_ids, whole = fake_tokenize(ctx), fake_tokenize(ctx + cont)
    start = boundary(ctx_ids, whole)
    return float(sum(fake_logprob(whole[i - 1], whole[i]) for i in range(start, len(whole)))), len(whole) - start


@pytest.mark.parametrize("score", ["mean_token", "mean_char", "sum"])
def test_scores_and_choice_are_exact(tmp_path, score):
    out = tmp_path / "run"
    with FakeServer() as server:
        bench("run", "--grid", str(write(tmp_path, server.url, extra=f", score: {score}")), "--out", str(out), "-q",
              check=True)
        bodies = [b for b in server.bodies if "echo" in b]
    texts = {r["key"]: r["text"] for r in records(out, "renders.jsonl")}
    solves = records(out, "solves.jsonl")
    assert len(solves) == 12 and all(s["status"] == "ok" for s in solves)
    for s in solves:
        text = texts[s["render_key"]]
        for got in s["scores"]:
            want, tokens = expected(text, got["option"])
            assert (got["logprob"], got["tokens"], got["chars"]) == (want, tokens, len(got["option"]))
            assert got["mean_token"] == want / tokens and got["mean_char"] == want / len(got["option"])
        by = {"mean_token": "mean_token", "mean_char": "mean_char", "sum": "logprob"}[score]
        best = max(s["scores"], key=lambda o: o[by])["option"]
        assert s["answer"] == best and s["correct"] == (best == s["gold"])
        assert s["gold"] in [o["option"] for o in s["scores"]] and s["raw"] == best
    # one completions request per item scores all its options, as token ids; nothing is generated to keep
    assert len(bodies) == 12 + 1   # and the probe before the run
    assert all(b["echo"] is True and b["max_tokens"] == 1 and isinstance(b["prompt"][0], list) for b in bodies)
    assert {len(b["prompt"]) for b in bodies[1:]} >= {3}


def test_boundary_when_the_option_merges_with_the_context():
    """`Answer: x=` + `y`: the whole text's last token ` x=y` spans the boundary. The option's tokens start
    after the common prefix, so the merged token is scored (lm-eval would score no token at all)."""
    ctx, cont = split_pair("Answer: x=", "y")
    ctx_ids, whole = fake_tokenize(ctx), fake_tokenize(ctx + cont)
    assert len(ctx_ids) == len(whole) == 2 and ctx_ids[1] != whole[1]
    assert boundary(ctx_ids, whole) == 1
    assert split_pair("Then ", "a = b") == ("Then", " a = b")   # trailing space moves to the option
    assert boundary([5, 6, 7], [5, 6, 7, 8, 9]) == 3 and boundary([], [4, 5]) == 1
    values = [None, -0.5, -1.0, -2.0]
    s = option_score("a = b", values, 2, 4)
    assert (s.logprob, s.tokens, s.chars, s.mean_token, s.mean_char) == (-3.0, 2, 5, -1.5, -0.6)


def test_a_server_without_prompt_logprobs_is_refused_before_the_run(tmp_path):
    out = tmp_path / "run"
    with FakeServer() as server:
        server.no_prompt_logprobs = True
        proc = bench("run", "--grid", str(write(tmp_path, server.url)), "--out", str(out))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "fake: cannot score log-likelihoods at" in proc.stderr and "no prompt log-probabilities" in proc.stderr
    assert not (out / "solves.jsonl").exists() or (out / "solves.jsonl").read_bytes() == b""


@pytest.mark.parametrize("solver, needle", [
    ("{provider: fake, mode: loglik, score: best}", "solvers[0].score: expected one of mean_token, mean_char, sum"),
    ("{provider: fake, mode: loglik, delimiter: '" + "x" * 20 + "'}", "solvers[0].delimiter: expected a string of at most 16"),
    ("{provider: fake, mode: guess}", "solvers[0].mode: expected generate or loglik"),
    ("{provider: fake, score: sum}", "solvers[0].mode: score and delimiter are settings of mode: loglik"),
    ("{provider: random, mode: loglik}", "loglik scores through a completions server (kind openai or vllm)"),
])
def test_bad_loglik_settings(tmp_path, solver, needle):
    text = GRID.format(url="http://127.0.0.1:9/v1", count=2, extra="").replace(
        "  - {provider: fake, mode: loglik}", f"  - {solver}").replace("  template: {kind: template}",
                                                                     "  template: {kind: template}\n  random: {kind: random}")
    grid = tmp_path / "grid.yaml"
    grid.write_text(text)
    proc = bench("run", "--grid", str(grid), "--out", str(tmp_path / "o"))
    assert proc.returncode == 2 and needle in proc.stderr, proc.stderr
    assert not (tmp_path / "o").exists()


def test_loglik_cells_in_the_report(tmp_path):
    out = tmp_path / "run"
    with FakeServer() as server:
        bench("run", "--grid", str(write(tmp_path, server.url, count=8)), "--out", str(out), "-q", check=True)
    report = bench("report", str(out), check=True).stdout
    assert "fake:loglik" in report


_values = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)


@settings(max_examples=300, deadline=None)
@given(data=st.recursive(_values, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["choices", "index", "logprobs", "token_logprobs", "usage"]), inner, max_size=4), max_leaves=15),
       n=st.integers(1, 3))
def test_any_completions_answer_gives_scores_or_a_classified_failure(data, n):
    try:
        values = prompt_logprobs(data, n)
        for v in values:
            option_score("a", v, 1, 2)
    except ProviderFailure as exc:
        assert exc.reason.startswith(("malformed response", "no prompt log-probabilities"))


def test_the_cards_own_context_with_a_card_prompt(tmp_path):
    """A loglik prompt of `{card}`: each equality item is scored on the card's context exactly (`If:` ...
    `Then`, then one space and the option), whatever the renderer wrote."""
    from families.logicmark import logicmark_context
    from runner.config.grid import load_grid
    from runner.plan.units import skeletons
    (tmp_path / "card.txt").write_text("{card}")
    out = tmp_path / "run"
    with FakeServer() as server:
        grid = write(tmp_path, server.url, count=6, extra=", prompt: card.txt")
        grid.write_text(grid.read_text().replace("complexities: [1, 3]", "complexities: [1, 3], families: [equality]"))
        bench("run", "--grid", str(grid), "--out", str(out), "-q", check=True)
    contexts = {sk.identity: logicmark_context(sk) for sk in skeletons(load_grid(grid))}
    solves = records(out, "solves.jsonl")
    assert len(solves) == 6
    for s in solves:
        for got in s["scores"]:
            assert (got["logprob"], got["tokens"]) == expected(contexts[s["skeleton"]], got["option"])


def test_a_failing_tokenize_is_classified_like_any_request(tmp_path):
    """/tokenize answers go through the same retry policy: a 503 is retried, and the run completes."""
    with FakeServer() as server:
        server.fault_tokenize = True
        server.script.extend(["503", "503"])
        bench("run", "--grid", str(write(tmp_path, server.url, count=2)), "--out", str(tmp_path / "a"), "-q",
              check=True)
        assert server.faults_served["503"] == 2


def test_a_server_without_tokenize_scores_the_same_from_echoed_tokens(tmp_path):
    """Most completions servers have no /tokenize. The context goes as one more text prompt of the item's
    request, and its echoed tokens mark the boundary: every option's numbers equal the /tokenize way's."""
    with FakeServer() as server:
        bench("run", "--grid", str(write(tmp_path, server.url)), "--out", str(tmp_path / "tok"), "-q", check=True)
        server.no_tokenize = True
        server.bodies.clear()
        proc = bench("run", "--grid", str(write(tmp_path, server.url)), "--out", str(tmp_path / "echo"), "-q",
                     check=True)
        bodies = [b for b in server.bodies if "echo" in b]
    assert "fake: the server at" in proc.stderr and "has no /tokenize" in proc.stderr
    by_tokenize, by_echo = ({s["key"]: s for s in records(tmp_path / name, "solves.jsonl")} for name in ("tok", "echo"))
    assert len(by_echo) == 12 and by_echo.keys() == by_tokenize.keys()
    for key, s in by_echo.items():
        assert s["status"] == "ok" and s["scores"] == by_tokenize[key]["scores"]
        assert s["answer"] == by_tokenize[key]["answer"]
    # one request per item (and the probe): the context, then each whole text, as text
    assert len(bodies) == 12 + 1
    for b in bodies:
        assert all(isinstance(p, str) for p in b["prompt"]) and b["echo"] is True and b["max_tokens"] == 1
        assert all(p.startswith(b["prompt"][0]) for p in b["prompt"][1:])


def test_echoed_boundary_when_the_option_merges_with_the_context():
    """From echoed tokens too, a token that spans the boundary (` x=` + `y` -> ` x=y`) is the option's first."""
    ctx, whole = "Answer: x=", "Answer: x=y"
    lps = [[None] + [-1.0] * len(fake_pieces(t)) for t in (ctx, whole)]   # prompt tokens + the generated one
    data = {"choices": [{"index": i, "logprobs": {"tokens": fake_pieces(t) + ["."], "token_logprobs": lp}}
                        for i, (t, lp) in enumerate(zip((ctx, whole), lps))]}
    (score,) = echo_scores(("y",), data)
    assert (score.logprob, score.tokens) == (-1.0, 1)   # ` x=y`, not nothing


def test_without_tokenize_or_prompt_logprobs_a_server_is_refused(tmp_path):
    out = tmp_path / "run"
    with FakeServer() as server:
        server.no_tokenize = server.no_prompt_logprobs = True
        proc = bench("run", "--grid", str(write(tmp_path, server.url)), "--out", str(out))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "fake: cannot score log-likelihoods at" in proc.stderr and "no prompt log-probabilities" in proc.stderr


def test_the_boundary_method_is_fixed_by_the_first_answer():
    """Once /tokenize has answered, a later 404 there is the unit's error, not a switch of method mid-run."""
    async def go(server):
        provider = build_provider(parse_provider("fake", {"kind": "vllm", "model": "fake-model",
                                                          "base_url": server.url, "retries": 1}, env={}), env={})
        request = SolveRequest(prompt="If: a = b\n\nThen", labels=("a = b", "a != b"), mode="loglik")
        try:
            first = await provider.score(request)
            server.fault_tokenize = True
            server.script.extend(["404"] * 3)
            second = await provider.score(request)
        finally:
            await provider.close()
        return provider.boundary_from, first, second
    with FakeServer() as server:
        method, first, second = asyncio.run(go(server))
    assert method == "tokenize" and first.status == "ok"
    assert second.status == "error" and second.reason.startswith("http 404")


@settings(max_examples=300, deadline=None)
@given(data=st.recursive(_values, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["choices", "index", "logprobs", "token_logprobs", "tokens"]), inner, max_size=4),
    max_leaves=15), n=st.integers(1, 3))
def test_any_echoed_text_answer_gives_scores_or_a_classified_failure(data, n):
    try:
        scores = echo_scores(("a",) * n, data)
        assert len(scores) == n and all(s.tokens >= 0 for s in scores)
    except ProviderFailure as exc:
        assert exc.reason.startswith(("malformed response", "no prompt log-probabilities"))


_number = st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10, 10) | st.none()


@settings(max_examples=400, deadline=None)
@given(n=st.integers(1, 3), data=st.data())
def test_any_numbers_in_a_well_shaped_answer_score_only_when_they_can_be_probabilities(n, data):
    """Echoed answers of the right shape with any numbers: a score only from finite values at most 0 over at
    least one token of the option's own; anything else (above 0, NaN, no token) is a classified failure."""
    lengths = [data.draw(st.integers(2, 6)) for _ in range(n + 1)]
    answer = {"choices": [{"index": i, "logprobs": {
        "tokens": data.draw(st.lists(st.sampled_from(["a", "b", " c"]), min_size=k, max_size=k)),
        "token_logprobs": data.draw(st.lists(_number, min_size=k, max_size=k))}} for i, k in enumerate(lengths)]}
    try:
        scores = echo_scores(("x",) * n, answer)
    except ProviderFailure as exc:
        assert exc.reason.startswith(("malformed response", "no prompt log-probabilities")), exc.reason
        return
    for s in scores:
        assert s.tokens >= 1 and math.isfinite(s.logprob) and s.logprob <= 0 and s.mean_token <= 0


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.none(), st.lists(st.integers(-3, 10 ** 6) | st.booleans() | st.floats(), max_size=5),
                      st.dictionaries(st.just("tokens"), st.lists(st.integers(-3, 10 ** 6), max_size=5) | st.none())))
def test_any_tokenize_answer_gives_token_ids_or_a_classified_failure(data):
    from providers.loglik import token_ids
    try:
        ids = token_ids(data)
    except ProviderFailure as exc:
        assert exc.reason.startswith("malformed response")
        return
    assert ids and all(type(t) is int and t >= 0 for t in ids)


@pytest.mark.parametrize("fault", ["tokenize []", "logprob above 0", "nan logprob"])
@pytest.mark.parametrize("when", ["probe", "run"])
def test_impossible_server_values_are_malformed_errors_naming_the_server_never_scores(tmp_path, fault, when):
    """Caught by the probe before the run (exit 2, one line), or, where they begin later, each unit an
    error naming the server (retried first), never an `ok` record with a meaningless pick."""
    calls = {"tokenize": 0, "completions": 0}
    skip = {"tokenize": 3 if when == "run" else 0, "completions": 2 if when == "run" else 0}   # the probe's prompts

    def later(kind, bad):
        def hook(values):
            calls[kind] += 1
            return bad(values) if calls[kind] > skip[kind] else values
        return hook
    with FakeServer() as server:
        if fault == "tokenize []":
            server.tokenize_hook = later("tokenize", lambda ids: [])
        else:
            value = 0.5 if fault == "logprob above 0" else float("nan")
            server.logprob_hook = later("completions", lambda lps: [None] + [value for _ in lps[1:]])
        out = tmp_path / "run"
        proc = bench("run", "--grid", str(write(tmp_path, server.url, count=4)), "--out", str(out), "-q")
    assert "Traceback" not in proc.stderr, proc.stderr
    if when == "probe":
        assert proc.returncode == 2 and f"cannot score log-likelihoods at {server.url}: malformed response" in proc.stderr
        assert not (out / "solves.jsonl").exists()
        return
    assert proc.returncode == 1, proc.stderr   # every unit of the stage failed
    solves = records(out, "solves.jsonl")
    assert len(solves) == 4 and all(s["status"] == "error" and s["attempts"] > 1 for s in solves)   # retried
    assert all(s["reason"].startswith("malformed response") and f"(from {server.url})" in s["reason"] for s in solves)


def test_dry_run_describes_a_loglik_solver_as_it_will_run(tmp_path):
    proc = bench("run", "--grid", str(write(tmp_path, "http://127.0.0.1:9/v1", count=2, extra=", score: sum")),
                 "--out", str(tmp_path / "o"), "--dry-run", check=True)
    line = next(l for l in proc.stdout.splitlines() if l.startswith("solver"))
    assert "loglik: scores each option's log-likelihood (by sum), generates nothing, no constraint" in line
    assert "constraint auto" not in proc.stdout and not (tmp_path / "o").exists()


@pytest.mark.parametrize("value, status", [(0.0, "invalid"), (-1e308, None)])
def test_options_that_tie_at_the_top_are_no_answer(tmp_path, value, status):
    """A server that scores every option alike (0.0 a token, or -1e308 that sums to -inf) gives no answer:
    ties are `invalid` with a reason, a sum of -inf is malformed; never the first option recorded `ok`."""
    calls = {"n": 0}

    def hook(values):
        calls["n"] += 1
        return values if calls["n"] <= 2 else [None] + [value for _ in values[1:]]   # after the probe
    with FakeServer() as server:
        server.logprob_hook = hook
        out = tmp_path / "run"
        proc = bench("run", "--grid", str(write(tmp_path, server.url, count=4)), "--out", str(out), "-q")
    assert "Traceback" not in proc.stderr, proc.stderr
    solves = records(out, "solves.jsonl")
    assert len(solves) == 4 and not any(s["status"] == "ok" for s in solves)
    for s in solves:
        if status == "invalid":
            assert s["status"] == "invalid" and s["reason"].startswith("options tie at the top") and s["correct"] is None
        else:   # every option's tokens sum to -inf (or a single token's -1e308 ties): never an answer
            assert s["status"] in ("invalid", "error")
