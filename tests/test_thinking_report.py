"""A grid with one thinking solver per dialect, run against the fake server, then `bench report`: its thinking
figures are the JSONL's, recounted here; thoughts grow with depth; cut thoughts are counted apart."""
from __future__ import annotations

import contextlib
from collections import defaultdict

import orjson

from runner.reporting.stats import percentile
from tests.conftest import bench
from tests.fake_server import FakeServer

GRID = """name: thinking
skeletons: {{generate: {{count: 36, complexities: [2, 4, 8], seed: 1}}}}
providers:
  template: {{kind: template}}
  qwen: {{kind: vllm, model: Qwen3-8B, base_url: "{parser}"}}
  r1: {{kind: vllm, model: DeepSeek-R1-Distill-Qwen-7B, base_url: "{no_parser}"}}
  o4: {{kind: openai, model: o4-mini, base_url: "{openai}", server: openai}}
  claude: {{kind: anthropic, model: claude-x, base_url: "{anthropic}", api_key_env: LSB_TEST_KEY}}
  plain: {{kind: vllm, model: fake-model, base_url: "{plain}"}}
  qwq: {{kind: vllm, model: QwQ-32B, base_url: "{template}"}}
  o3: {{kind: openai, model: o3-mini, base_url: "{nodetail}", server: openai}}
renderers: [template]
solvers:
  - {{provider: qwen, reasoning: {{enabled: true, keep_reasoning: true}}, max_tokens: 120}}
  - {{provider: r1, reasoning: {{enabled: true}}, max_tokens: 120}}
  - {{provider: o4, reasoning: {{effort: low}}, max_tokens: 120}}
  - {{provider: claude, reasoning: {{budget_tokens: 1024}}, max_tokens: 2048}}
  - plain
  - {{provider: qwq, reasoning: {{enabled: true}}, max_tokens: 120}}
  - {{provider: o3, reasoning: {{effort: low}}, max_tokens: 120}}
"""


def test_a_thinking_grid_reports_thought_tokens_by_depth_as_the_jsonl_has_them(tmp_path):
    modes = {"parser": ("parser", "Qwen3-8B"), "no_parser": ("no_parser", "DeepSeek-R1-Distill-Qwen-7B"),
             "openai": ("openai", "o4-mini"), "anthropic": (None, "claude-x"), "plain": (None, "fake-model"),
             # R1's, QwQ's templates open <think> in the prompt; a server that sends no reasoning_tokens detail
             "template": ("template", "QwQ-32B"), "nodetail": ("openai", "o3-mini")}
    with contextlib.ExitStack() as stack:
        urls = {}
        for name, (mode, model) in modes.items():
            server = stack.enter_context(FakeServer(model=model))
            server.thinking = mode
            server.reasoning_tokens = "absent" if name == "nodetail" else "count"
            urls[name] = server.url[: -len("/v1")] if name == "anthropic" else server.url
        grid = tmp_path / "grid.yaml"
        grid.write_text(GRID.format(**urls))
        out = tmp_path / "out"
        env = {"LSB_TEST_KEY": "k"}
        run = bench("run", "--grid", str(grid), "--out", str(out), "-q", env=env, check=True)
        assert "r1: the server at" in run.stderr and "no --reasoning-parser" in run.stderr   # the probe's one line
        rep = bench("report", str(out), env=env, check=True)

    records = [orjson.loads(line) for line in (out / "solves.jsonl").read_bytes().splitlines()]
    plain = [r for r in records if r["solver"] == "plain"]
    assert plain and all("thinking" not in r for r in plain)   # a solver that does not think: records as before
    expected: dict[tuple, dict] = defaultdict(lambda: {"tokens": [], "cut": 0})
    for r in records:
        if "thinking" in r:
            e = expected[(r["solver"], r["family"], r["complexity"])]
            if r["thinking"]["cut"]:
                assert r["status"] == "invalid" and r["reason"] == "thinking cut at max_tokens" and r["correct"] is None
                e["cut"] += 1
            else:
                e["tokens"].append(r["thinking"]["tokens"])
    assert {s for s, _, _ in expected} == {"qwen:think", "r1:think", "o4:think", "claude:think", "qwq:think", "o3:think"}
    sources = {r["solver"]: r["thinking"]["tokens_from"] for r in records if "thinking" in r and not r["thinking"]["cut"]}
    assert sources == {"qwen:think": "tokenize", "r1:think": "tokenize", "o4:think": "usage", "claude:think": "completion",
                       "qwq:think": "tokenize", "o3:think": "completion"}
    # a cut thought of a template that opened it holds no tag, and names labels: never read for one
    qwq_cut = [r for r in records if r["solver"] == "qwq:think" and r["thinking"]["cut"]]
    assert qwq_cut and all("</think>" not in r["raw"] and r["answer"] is None for r in qwq_cut)
    assert sum(e["cut"] for e in expected.values()) > 0   # the deep problems outgrow 120 tokens

    rows = orjson.loads((out / "report" / "summary.json").read_bytes())["rows"]
    seen = 0
    for row in rows:
        e = expected.get((row["solver"], row["family"], row["complexity"]))
        if e is None:
            assert row["thinking_n"] == 0 and row["thinking_median"] is None
            continue
        tokens = sorted(e["tokens"])
        assert row["thinking_n"] == len(tokens) and row["thinking_cut"] == e["cut"]
        median, p90 = percentile(tokens, 0.5), percentile(tokens, 0.9)
        assert row["thinking_median"] == (None if median is None else round(median, 1))
        assert row["thinking_p90"] == (None if p90 is None else round(p90, 1))
        seen += 1
    assert seen == len(expected)

    claude = {c: percentile(sorted(e["tokens"]), 0.5) for (s, f, c), e in expected.items()
              if s == "claude:think" and f == "transitive_order" and e["tokens"]}
    assert claude[2] < claude[4] < claude[8]   # deeper problems, longer thoughts (no cut at 2048)
    assert (out / "report" / "thinking_by_complexity.png").stat().st_size > 10_000
    md = (out / "report" / "report.md").read_text()
    assert "## Thinking" in md and "### template / claude:think" in md and "thinking_by_complexity.png" in md
    assert "thinking: template / o4:think" in rep.stdout and "accuracy by thought length" in rep.stdout
    # every thinking solver has its table, saying who counted its thought tokens
    for solver, words in (("o4", "the server's usage"), ("o3", "completion tokens less the answer's"),
                          ("qwq", "the server's /tokenize")):
        assert f"### template / {solver}:think" in md
        assert any(line.startswith(f"thinking: template / {solver}:think; tokens from {words}")
                   for line in rep.stdout.splitlines()), rep.stdout
    bins = orjson.loads((out / "report" / "summary.json").read_bytes())["thinking_bins"]
    ok_with_thought = sum(1 for r in records if "thinking" in r and r["status"] == "ok")
    assert sum(b["n"] for b in bins) == ok_with_thought
