"""The grid file (YAML): skeleton source, providers, renderers, solvers; checked whole before any request.

The settings it resolves to are runner/config/settings.py's, its stages are checked by runner/config/stages.py;
both are importable from here, as they were before the split."""
from __future__ import annotations

import os
import stat
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

import yaml

from providers.config import INT64, ConfigError, parse_provider, short
from runner.config.checks import Checker, UniqueKeyLoader, one_line
from runner.config.cluster import parse_ray
from runner.config.identity import render_format, stage_identity
from runner.config.reasoning import THINKING_READ_TIMEOUT_S
from runner.config.settings import (
    AUDIT_KEYS,
    DISTRACTORS,
    GENERATE_KEYS,
    MAX_IN_FLIGHT,
    MAX_PREPARE_WORKERS,
    RENDER_KINDS,
    RENDERER_KEYS,
    SOLVE_KINDS,
    SOLVER_KEYS,
    SOURCE_FORMATS,
    SOURCE_KEYS,
    TOP_KEYS,
    Grid,
    Source,
    Stage,
)
from runner.config.stages import parse_stages
from runner.errors import UserError
from runner.store.guard import kind_of, read_whole

__all__ = ["AUDIT_KEYS", "GENERATE_KEYS", "RENDERER_KEYS", "SOLVER_KEYS", "SOURCE_KEYS", "TOP_KEYS", "Grid", "Source",
           "Stage", "load_grid", "parse_grid", "render_format", "stage_identity"]


def load_grid(path: Path, env: Mapping[str, str] | None = None, require_keys: bool = True,
              given_as: str = "--grid") -> Grid:
    """Read and check a grid file; UserError names the file (as `given_as`, how the command took it), the key path
    and what is expected."""
    try:
        text = read_whole(path, given_as).decode("utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot read grid ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.object[exc.start:exc.start + 1]!r})") from None
    try:
        raw = yaml.load(text, Loader=UniqueKeyLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise UserError(f"{path}{where}: not valid YAML ({problem})") from None
    except RecursionError:   # the reader recurses once a level: a few hundred brackets deep is no grid
        raise UserError(f"{path}: nested too deeply to be a grid (lists or mappings hundreds of levels deep)") from None
    return parse_grid(raw, path, env, require_keys)


def parse_grid(raw: Any, path: Path, env: Mapping[str, str] | None = None, require_keys: bool = True) -> Grid:
    """Check a parsed grid; relative paths are taken from the grid file's folder."""
    c = Checker(str(path))
    base = path.resolve().parent
    top = c.mapping(raw, "", TOP_KEYS, {"name", "skeletons", "providers", "renderers", "solvers"})
    name = c.name(top["name"], "name", 100)
    source = _source(c, top["skeletons"], base)
    if not isinstance(top["providers"], dict) or not top["providers"]:
        raise c.fail("providers", "expected a mapping of provider names to settings")
    providers = {}
    for pname, praw in top["providers"].items():
        c.name(pname, f"providers.{short(pname)}", 64)
        try:
            providers[str(pname)] = parse_provider(str(pname), praw, env, require_keys)
        except ConfigError as exc:
            raise UserError(one_line(f"{path}: {exc}")) from None
    renderers = parse_stages(c, top["renderers"], "renderers", providers, RENDER_KINDS, base)
    solvers = parse_stages(c, top["solvers"], "solvers", providers, SOLVE_KINDS, base)
    window = c.number(top.get("max_in_flight", 256), "max_in_flight", 1, MAX_IN_FLIGHT, integer=True)
    workers = top.get("prepare_workers", "auto")
    if workers != "auto":
        if isinstance(workers, str):
            raise c.fail("prepare_workers", f"expected auto or a number of processes 0..{MAX_PREPARE_WORKERS}, "
                         f"got {short(workers)}")
        c.number(workers, "prepare_workers", 0, MAX_PREPARE_WORKERS, integer=True)
    for st in solvers:   # a thought takes minutes: a thinking solver's provider waits longer unless told
        cfg = providers[st.provider]
        if st.thinks and "read_timeout_s" not in cfg.settings:
            providers[st.provider] = replace(cfg, settings={**cfg.settings, "read_timeout_s": THINKING_READ_TIMEOUT_S})
    return Grid(name=name, source=source, providers=providers, renderers=renderers, solvers=solvers,
                max_in_flight=window, file=str(path.resolve()), ray=parse_ray(c, top.get("ray")),
                prepare_workers=None if workers == "auto" else workers)


def _source(c: Checker, raw: Any, base: Path) -> Source:
    from runner.source.generate import make_plan
    s = c.mapping(raw, "skeletons", SOURCE_KEYS)
    if ("path" in s) == ("generate" in s):
        raise c.fail("skeletons", "expected exactly one of `path` (a JSONL file) or `generate` (a block)")
    if "path" in s:
        if not isinstance(s["path"], str):
            raise c.fail("skeletons.path", "expected a file path")
        p = (base / s["path"]).resolve()
        try:
            mode = os.stat(p).st_mode
        except OSError:
            raise c.fail("skeletons.path", f"file {p} does not exist") from None
        if not stat.S_ISREG(mode):
            raise c.fail("skeletons.path", f"{p} is {kind_of(mode)}, not a regular file")
        fmt = s.get("format", "jsonl")
        if fmt not in SOURCE_FORMATS:
            raise c.fail("skeletons.format", f"expected jsonl (skeletons) or logicmark (the card's records), got {short(fmt)}")
        return Source(path=str(p), format=fmt)
    if "format" in s:
        raise c.fail("skeletons.format", "a format is read from a file: give it with `path`")
    g = c.mapping(s["generate"], "skeletons.generate", GENERATE_KEYS, {"count"})
    count = c.number(g["count"], "skeletons.generate.count", 1, integer=True)
    seed = c.number(g.get("seed", 0), "skeletons.generate.seed", INT64[0], integer=True)
    comps = g.get("complexities", ["medium"])
    comps = [comps] if isinstance(comps, (str, int)) else comps
    fams = g.get("families", [])
    if not isinstance(comps, list) or not comps:
        raise c.fail("skeletons.generate.complexities", "expected a list of short, medium, long or 1..20")
    if not isinstance(fams, list):
        raise c.fail("skeletons.generate.families", "expected a list of family names")
    hop = g.get("target_hop_dist")
    if hop is not None and "complexities" in g:   # either one chooses the complexities: both would leave one unread
        raise c.fail("skeletons.generate.target_hop_dist", "give complexities or target_hop_dist, not both")
    if hop is not None and not isinstance(hop, (str, dict)):
        raise c.fail("skeletons.generate.target_hop_dist", f"expected hop:weight pairs (`1:0.1,2:0.4` or a mapping), "
                     f"got {short(hop)}")
    if isinstance(hop, dict):
        hop = ",".join(f"{k}:{v}" for k, v in hop.items())
    distractors = g.get("distractors", "ours")
    if distractors not in DISTRACTORS:
        raise c.fail("skeletons.generate.distractors", f"expected ours or card, got {short(distractors)}")
    try:
        make_plan(seed, [str(x) for x in comps], [str(f) for f in fams], hop)
    except UserError as exc:
        key = "families" if "family" in str(exc) else ("target_hop_dist" if hop is not None else "complexities")
        raise c.fail(f"skeletons.generate.{key}", str(exc)) from None
    return Source(count=count, complexities=tuple(str(x) for x in comps), seed=seed,
                  families=tuple(str(f) for f in fams), target_hop_dist=hop, distractors=distractors)
