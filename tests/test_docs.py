"""What the README and the docs tell a newcomer is what the code does: every `bench` command they show exists
with the flags they give it, the README's console session prints what it shows, the defaults the pages quote
are the code's, and every link stays inside the repository and leads to a file."""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
import typer

from runner.cli import app
from tests.conftest import ROOT, bench

README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))   # docs/spec/ holds outside documents, copied as they are


def shown_commands(text: str) -> list[list[str]]:
    """Every `bench ...` command in a page's code blocks and inline code, as argument lists (no `bench`)."""
    spans = re.findall(r"```[a-z]*\n(.*?)```", text, re.S) + re.findall(r"`([^`\n]+)`", text)
    out = []
    for span in spans:
        for line in span.splitlines():
            for m in re.finditer(r"(?:^|[\s$&;(])bench((?: +[^\s#|&;)]+)*)", line):
                words = shlex.split(m.group(1).replace("...", ""))
                if words and not words[0].startswith("run/") and not words[0].endswith(":"):   # not output
                    out.append(words)
    return out


def resolve(words: list[str]) -> tuple[Any, list[str]]:
    """The command the words name (a group's subcommand included) and the flags given to it. (Typer carries
    its own copy of click: a group is known by its `get_command`, not by click's class.)"""
    cmd = typer.main.get_command(app)
    words = list(words)
    while hasattr(cmd, "get_command") and words and not words[0].startswith("-"):
        sub = cmd.get_command(cmd.context_class(cmd), words[0])
        assert sub is not None, f"bench {words[0]}: no such command"
        cmd, words = sub, words[1:]
    return cmd, [w.split("=")[0] for w in words if w.startswith("-") and w != "-"]


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.name)
def test_every_bench_command_shown_exists_with_its_flags(page: Path):
    """`bench X --flag` in README or a page: X is a command and --flag one of its options (per --help)."""
    shown = shown_commands(page.read_text())
    if page == README:
        assert len(shown) > 15, shown
    for words in shown:
        cmd, flags = resolve(words)
        known = {"--help"} | {o for p in cmd.params for o in (*p.opts, *p.secondary_opts)}
        unknown = [f for f in flags if f not in known]
        assert not unknown, f"{page.name}: bench {' '.join(words)}: {unknown} not options of bench {cmd.name}"


def test_the_resolver_refuses_what_is_not_there():
    with pytest.raises(AssertionError):
        resolve(["frobnicate"])
    cmd, flags = resolve(["run", "--grid", "g.yaml", "--shard=0/2"])
    assert cmd.name == "run" and flags == ["--grid", "--shard"]
    assert ["models", "prepare", "smollm2-135m"] in shown_commands("`bench models prepare smollm2-135m`")


def session(text: str) -> list[tuple[str, list[str]]]:
    """The README's console session: each `$ command` (its comment cut) with the lines shown below it."""
    block = re.search(r"## Commands\n\n```console\n(.*?)```", text, re.S).group(1)
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:].split("  #")[0].strip(), []))
        elif steps and line.strip() and line.strip() != "...":
            steps[-1][1].append(line)
    return steps


def test_the_readmes_console_session_prints_what_it_shows(tmp_path: Path):
    """Run each command of the README's session (but the view's server and the minute-long audit) in a fresh
    folder: it exits 0 and every line the README shows is among the lines it prints, spacing aside."""
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    steps = session(README.read_text())
    assert [c.split()[1] for c, _ in steps][:4] == ["generate", "validate", "validate", "run"], steps
    ran = 0
    for command, shown in steps:
        words = shlex.split(command)
        assert words[0] == "bench", command
        if words[1] in ("view", "audit"):
            continue
        proc = bench(*words[1:], cwd=tmp_path)
        assert proc.returncode == 0, (command, proc.stderr)
        printed = {" ".join(line.split()) for line in (proc.stdout + proc.stderr).splitlines()}
        missing = [line for line in shown if " ".join(line.split()) not in printed]
        assert not missing, (command, missing, proc.stdout, proc.stderr)
        ran += 1
    assert ran >= 6


def test_the_audit_example_has_what_the_audit_needs():
    """The README's audit reads a file the session made with enough skeletons to cross-validate (the audit's
    own minimum per family and complexity, as the README says: four families round-robin, one complexity)."""
    from audit.shortcut import MIN_ITEMS_PER_FOLD
    need = 5 * MIN_ITEMS_PER_FOLD   # bench audit's default --folds 5
    assert f"the audit wants {need} skeletons per family and complexity" in README.read_text()
    steps = dict(session(README.read_text()))
    audit = next(c for c in steps if c.startswith("bench audit"))
    target = shlex.split(audit)[2]
    made = next(c for c in steps if c.startswith("bench generate") and c.endswith(f"-o {target}"))
    count = int(shlex.split(made)[shlex.split(made).index("-n") + 1])
    assert count >= 4 * need, made


def test_validate_takes_a_grid_and_says_so_in_one_line(tmp_path: Path):
    """`bench validate configs/grid.yaml` checks it as a grid: one line, not a JSON error per YAML line."""
    proc = bench("validate", "configs/grid.yaml")
    assert proc.returncode == 0 and proc.stdout.strip() == \
        "configs/grid.yaml: a valid grid (2 renderer(s) x 3 solver(s))", proc
    bad = tmp_path / "bad.yml"
    bad.write_text("name: x\nskeletons: {generate: {count: 2}}\nproviders: {t: {kind: template}}\n"
                   "renderers: [t]\nsolvers: [nope]\n")
    proc = bench("validate", str(bad))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"bench: error: {bad}: solvers[0].provider: unknown provider 'nope' (defined: t)"], proc.stderr


def test_the_readme_says_how_long_each_quickstart_command_takes():
    quick = README.read_text().split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    assert len(re.findall(r"about \d+ minutes", quick)) >= 2 and "several minutes" in quick, quick


def test_the_defaults_the_pages_quote_are_the_codes():
    """docs/serving.md's start-up timeout, grace period and progress pace; docs/grid.md's start-up timeout,
    concurrency, thinking read timeout and max_in_flight: each read from where the code keeps it."""
    from providers.build import DEFAULT_CONCURRENCY
    from runner.config import environment
    from runner.config.grid import parse_grid
    from runner.config.reasoning import THINKING_READ_TIMEOUT_S
    from runner.serving.servers import GRACE_S, STARTUP_TIMEOUT_S
    serving = (ROOT / "docs" / "serving.md").read_text()
    assert f"`startup_timeout_s` ({STARTUP_TIMEOUT_S})" in serving
    assert f"SIGKILL after {GRACE_S:g} s" in serving
    every = environment.VARIABLES["LSB_PROGRESS_EVERY"].default
    assert f"`LSB_PROGRESS_EVERY` seconds ({every:g})" in serving
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([^`]+)` \| ([^|]*) \|", (ROOT / "docs" / "grid.md")
                                                         .read_text(), re.M)}
    assert rows["providers.NAME.launch.startup_timeout_s"].strip() == str(STARTUP_TIMEOUT_S)
    assert rows["providers.NAME.max_concurrency"].strip() == f"64 (anthropic: {DEFAULT_CONCURRENCY['anthropic']})"
    assert f"(thinking solvers: {THINKING_READ_TIMEOUT_S:g})" in rows["providers.NAME.read_timeout_s"]
    grid = parse_grid({"name": "g", "skeletons": {"generate": {"count": 1}}, "providers": {"t": {"kind": "template"},
                       "r": {"kind": "random"}}, "renderers": ["t"], "solvers": ["r"]}, ROOT / "g.yaml")
    assert rows["max_in_flight"].strip() == str(grid.max_in_flight)


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.name)
def test_every_link_stays_in_the_repository_and_leads_to_a_file(page: Path):
    """Relative links (README's and the docs') resolve to files of this repository, none outside it (the
    glossary once pointed at ../shared/spec/)."""
    text = page.read_text()
    links = [m for m in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text) if "://" not in m]
    links += re.findall(r"`(\.\./[^`]+)`", text)   # a path in code that leaves the repository
    for link in links:
        target = (page.parent / link).resolve()
        assert target.is_relative_to(ROOT), f"{page.name}: {link} is outside the repository"
        assert target.exists(), f"{page.name}: {link} leads nowhere"


def test_the_specs_are_in_the_repository():
    assert {p.name for p in (ROOT / "docs" / "spec").glob("*.md")} >= {"skeleton-language.md", "logicmark-card.md"}
