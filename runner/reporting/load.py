"""Reading run folders for a report: one pass over each log, records checked against their grid, merged by key."""
from __future__ import annotations

import gc
from collections import defaultdict
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Iterable, NamedTuple

from runner.children import die_with_parent
from runner.config.grid import Grid
from runner.errors import UserError
from runner.fidelity.calibration import CALIBRATION, Trust, trust
from runner.fidelity.judge import PROCEED
from runner.plan.calibration import planned
from runner.plan.units import UnitPlan, skeletons
from runner.reporting.forked import Forked
from runner.store.logs import (
    CALIBRATION_FIELDS,
    RENDER_FIELDS,
    TERMINAL,
    best_records,
    check_log_files,
    log_values,
    newer,
    usable,
)
from runner.store.records import SCHEMA, unit_keys
from runner.store.sinks import RENDERS, SOLVES


class Outcome(NamedTuple):
    """One solve unit's best record, as much of it as a report needs (a tuple: a million fit in a few hundred MB)."""

    run: str                  # the grid's name
    renderer: str
    solver: str
    family: str
    complexity: int
    skeleton: str             # the skeleton's identity: pairs units across solvers and renderers
    render_sample: int
    sample: int
    status: str               # ok | invalid | error
    correct: bool | None
    render_status: str        # ok (faithful) | unchecked | unfaithful (sent anyway)
    latency_s: float | None
    prompt_tokens: int | None
    completion_tokens: int | None
    finished_at: float = 0.0  # which record of a unit is the newest, across folders
    thinking: int | None = None   # a thinking solver's thought, in tokens (None: no thought, or not counted)
    cut: bool = False             # max_tokens cut the thought before any answer (the unit is invalid)
    thinking_from: str | None = None   # who counted the thought (usage, tokenize, completion, estimate, empty)
    reason: str | None = None          # why the unit is not ok (its record's reason)


@dataclass(frozen=True, slots=True)
class Blocked:
    """A render that kept its solves from being sent: one per (render unit, solver, solve sample)."""

    run: str
    renderer: str
    solver: str
    family: str
    complexity: int
    status: str               # unfaithful | invalid


@dataclass
class Loaded:
    """What `bench report` reads from one or several run folders."""

    outcomes: list[Outcome] = field(default_factory=list)
    blocked: list[Blocked] = field(default_factory=list)
    # the best render record of each unit, with `run` and `first` (its first try's status) added
    renders: list[dict] = field(default_factory=list)
    chance: dict[str, float] = field(default_factory=dict)       # family -> 1 / number of options (mean)
    grids: dict[str, Grid] = field(default_factory=dict)         # run name -> its grid
    skipped: dict[Path, int] = field(default_factory=lambda: defaultdict(int))   # unreadable lines per log
    auditors: list[tuple[str, Trust]] = field(default_factory=list)   # (run, an auditor's calibration in a family)


def _source_facts(grid: Grid) -> tuple[set[str], dict[str, float]]:
    """The identities of a grid's skeletons, and each family's chance level (`chance_levels`)."""
    made = [(sk.identity, sk.family, len(sk.answer_options)) for sk in skeletons(grid)]
    return {identity for identity, _, _ in made}, chance_levels(made)


def chance_levels(skeletons: Iterable[tuple[str, str, int]]) -> dict[str, float]:
    """Each family's chance level, the mean of 1 / number of options over its skeletons ((identity, family, number
    of options), in source order: the sum's order is the report's)."""
    options: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for _, family, answers in skeletons:
        acc = options[family]
        acc[0] += 1 / answers
        acc[1] += 1
    return {fam: total / n for fam, (total, n) in options.items()}


def _render_logs(folders: list[Path], grids: list[Grid]) -> tuple[dict, dict, dict]:
    """In the helper: every folder's render records, as `_Reader.renders` keeps them (each best one with the
    index of its folder), each unit's first try, and the unreadable lines per log."""
    loaded, best, first, place = Loaded(), {}, {}, {}
    for i, (folder, grid) in enumerate(zip(folders, grids)):
        reader = _Reader(grid, loaded)
        place[id(reader)] = i   # the readers stay here: the run's own stand for them by their place
        reader.renders(folder / RENDERS, best, first)
    return {key: (place[id(reader)], rec) for key, (reader, rec) in best.items()}, first, dict(loaded.skipped)


class _Reader:
    """One folder's logs, read against its grid as it is now: a record counts if its key is the one this
    grid's settings give (a changed model, prompt or sampling makes other keys) and, once the source is
    known, if its skeleton is in the grid's source."""

    def __init__(self, grid: Grid, loaded: Loaded):
        plan = UnitPlan(grid)
        self.run, self.loaded = grid.name, loaded
        self.render_fp, self.solve_fp = key_parts(plan.render_parts), key_parts(plan.solve_parts)
        self._render_of: dict[str, tuple | None] = {}   # render key -> the renderer part that makes it (None: none)
        self._names: dict[str, str] = {}          # one string object per distinct label and skeleton

    def renders(self, path: Path, best: dict[str, tuple["_Reader", dict]], first: dict[str, tuple[str, float]]) -> None:
        """The render records of this grid into `best` (key -> the newest terminal one), compacted, and into
        `first` the status of each unit's first try (its newest terminal round-0 record)."""
        render_fp, get_best = self.render_fp, best.get
        for rec in log_values(path):
            if not usable(rec, RENDER_FIELDS):
                self.loaded.skipped[path] += 1
                continue
            if rec.get("schema") != SCHEMA:
                refuse_schema(rec.get("schema"), path)
            key, sample, skeleton = rec["key"], rec.get("sample"), rec.get("skeleton")
            if type(sample) is not int or type(skeleton) is not str:
                continue
            part = stage_part(render_fp, rec["renderer"], skeleton, sample, key)
            if part is None:
                continue
            key, old = renderer_key(get_best, key, part[2])
            done_at = rec.get("finished_at") if type(rec.get("finished_at")) in (int, float) else 0.0
            if old is None or newer(old[1]["status"], old[1]["finished_at"], rec["status"], done_at):
                # named as the grid names its renderer now: a renamed provider's records are its own
                best[key] = (self, {**{k: rec.get(k) for k in RENDER_KEEP}, "renderer": part[2], "finished_at": done_at})
            if rec["status"] in TERMINAL and not rec.get("round") and (key not in first or done_at >= first[key][1]):
                first[key] = (rec["status"], done_at)   # round 0 (records before repair have none)

    def solves(self, path: Path, best: dict[str, Outcome]) -> None:
        """The solve records of this grid into `best` (key -> the newest terminal one), as Outcomes."""
        skipped, render_fp, solve_fp, render_of = 0, self.render_fp, self.solve_fp, self._render_of
        name, run, get_best = self._names.setdefault, self.run, best.get
        fields = _SOLVE_GET
        for rec in log_values(path):
            # the checks of SOLVE_FIELDS, inlined: this loop runs once per record of a million-record log,
            # and one itemgetter call reads what a dozen .get calls would
            try:
                (key, status, renderer, solver, family, complexity, correct, skeleton, rkey, rs, sample,
                 lat, pt, ct, done_at) = fields(rec)
            except (KeyError, TypeError, IndexError):   # a field missing, or not a record at all: field by field
                if type(rec) is not dict:
                    skipped += 1
                    continue
                g = rec.get
                (key, status, renderer, solver, family, complexity, correct, skeleton, rkey, rs, sample, lat, pt,
                 ct, done_at) = (g("key"), g("status"), g("renderer"), g("solver"), g("family"), g("complexity"),
                                 g("correct", 0), g("skeleton"), g("render_key"), g("render_sample"), g("sample"),
                                 g("latency_s"), g("prompt_tokens"), g("completion_tokens"), g("finished_at"))
            if not (type(key) is str and type(status) is str and type(renderer) is str and type(solver) is str
                    and type(family) is str and type(complexity) is int and (correct is None or type(correct) is bool)):
                skipped += 1
                continue
            if rec.get("schema") != SCHEMA:
                refuse_schema(rec.get("schema"), path)
            if type(skeleton) is not str or type(rkey) is not str or type(rs) is not int or type(sample) is not int:
                continue
            # joined by key, not by the names in the record: a provider renamed since (or two names swapped)
            # keeps its records, under the name the grid gives it now
            rpart = render_of.get(rkey, False)
            if rpart is False:
                rpart = render_of[rkey] = stage_part(render_fp, renderer, skeleton, rs, rkey)
            spart = solve_fp.get(solver)
            if spart is None or spart[0](rkey, sample) != key:
                spart = stage_part(solve_fp, solver, rkey, sample, key)
            if rpart is None or spart is None:
                continue
            done_at = done_at if type(done_at) in (int, float) else 0.0
            old = get_best(key)
            if old is not None and (old.solver != spart[2] or old.renderer != rpart[2]):
                # two cells with one key (a grid from before bench kept their keys apart, or two runs naming
                # one setup twice): kept apart by their names, never one dropped for the other
                key = f"{key}\0{rpart[2]}\0{spart[2]}"
                old = get_best(key)
            if old is not None and not newer(old.status, old.finished_at, status, done_at):
                continue
            rstatus = rec.get("render_status", "ok")
            thought = rec.get("thinking")
            tokens, cut, source = (_thought(thought) if type(thought) is dict else (None, False, None))
            # labels, families and statuses are few: one string object each (a million records share them)
            best[key] = new_outcome(Outcome, (   # tuple.__new__: a NamedTuple's own __new__ is Python, per record
                run, rpart[2], spart[2], name(family, family), complexity, name(skeleton, skeleton), rs, sample,
                name(status, status), correct, name(rstatus, rstatus) if type(rstatus) is str else "ok",
                lat if type(lat) in (int, float) else None, pt if type(pt) is int else None,
                ct if type(ct) is int else None, done_at, tokens, cut, source and name(source, source),
                name(why, why) if type(why := rec.get("reason")) is str else None))
        self.loaded.skipped[path] += skipped


def refuse_schema(schema: object, path: Path) -> None:
    """One line, for a log whose records are of another schema than this bench reads (an int schema; any other
    value is a foreign field, and the record's own checks decide it)."""
    if type(schema) is int and schema > SCHEMA:
        raise UserError(f"{path}: records of schema {schema}; this bench reads schema {SCHEMA}: "
                        "upgrade logic-skeleton-bench to report this run")
    if type(schema) is int and schema < SCHEMA:
        raise UserError(f"{path}: records of schema {schema}, from an older bench; this bench reads schema "
                        f"{SCHEMA}: report them with the version that wrote them, or rerun the grid")


def renderer_key(get_best: Any, key: str, renderer: str) -> tuple[str, Any]:
    """A render record's key among those kept, and the record kept under it: two renderers with one key are kept
    apart (the second under the key and its renderer's name)."""
    old = get_best(key)
    if old is not None and old[1]["renderer"] != renderer:
        key = f"{key}\0{renderer}"
        old = get_best(key)
    return key, old


def key_parts(parts: Iterable[tuple[Any, Any]]) -> dict[str, tuple]:
    """A grid's stage parts as a log's keys are told apart: label -> (its unit keys, stage, label)."""
    return {st.label: (unit_keys(fp), st, st.label) for st, fp in parts}


def stage_part(parts: dict, label: str, of: str, sample: int, key: str) -> tuple | None:
    """The stage part whose key function makes `key` from (of, sample): the one the record names first (the
    common case, one hash), else any other of the grid (the record's name is a label, not the unit's identity)."""
    named = parts.get(label)
    if named is not None and named[0](of, sample) == key:
        return named
    return next((p for p in parts.values() if p is not named and p[0](of, sample) == key), None)


def _thought(thought: dict) -> tuple[int | None, bool, str]:
    """(tokens, cut, who counted them) of a solve record's `thinking`; a value of the wrong type counts as absent
    (and its source as `uncounted`)."""
    tokens = thought.get("tokens")
    tokens = tokens if type(tokens) is int and tokens >= 0 else None
    source = thought.get("tokens_from")
    return tokens, thought.get("cut") is True, source if tokens is not None and type(source) is str else "uncounted"


new_outcome = tuple.__new__
_SOLVE_GET = itemgetter("key", "status", "renderer", "solver", "family", "complexity", "correct", "skeleton",
                        "render_key", "render_sample", "sample", "latency_s", "prompt_tokens", "completion_tokens",
                        "finished_at")
RENDER_KEEP = ("key", "status", "renderer", "family", "complexity", "skeleton", "checks", "reason", "audit", "round")


def opened(folders: list[Path]) -> tuple[Loaded, list[Grid]]:
    """What reading run folders starts from: each folder's grid (a folder without logs refused in one line), every
    grid's name in an empty `Loaded`."""
    loaded = Loaded()
    grids = [Grid.saved(folder) for folder in folders]
    for folder in folders:
        check_log_files(folder)
    for grid in grids:
        loaded.grids.setdefault(grid.name, grid)
    return loaded, grids


def load_runs(folders: list[Path]) -> Loaded:
    """Read run folders: records of each folder's grid, the best of each unit key (its newest terminal
    record by `finished_at`, whatever order the folders are given in; else its newest error).

    Each grid's skeletons (to know which belong to its source) are made in a helper process while this
    one reads the logs: on a big run both take seconds, and a machine has more than one core.
    """
    loaded, grids = opened(folders)
    best_solves: dict[str, Outcome] = {}
    best_renders: dict[str, tuple[_Reader, dict]] = {}
    first_try: dict[str, tuple[str, float]] = {}
    readers = []
    paused = gc.isenabled()
    gc.disable()   # a million tuples held: the cyclic GC would rescan them again and again (they hold no cycles)
    try:
        _read(folders, grids, loaded, best_solves, best_renders, first_try, readers)
    finally:
        if paused:
            gc.enable()
    return loaded


def _read(folders, grids, loaded, best_solves, best_renders, first_try, readers) -> None:
    """The body of load_runs."""
    # The helper (forked: a Pool's exit can wait for ever on a queue's lock its killed worker held) makes the
    # skeletons, then reads the render logs; this process reads the solve logs meanwhile. A failure or Ctrl-C here
    # stops it: none waits for a big source to be made.
    helper = Forked(lambda: _helper(folders, grids), what="reading")
    try:
        for folder, grid in zip(folders, grids):
            reader = _Reader(grid, loaded)
            readers.append(reader)
            reader.solves(folder / SOLVES, best_solves)
        facts, (best, first, skipped) = helper.result()
    finally:
        helper.stop()
    best_renders.update((key, (readers[i], rec)) for key, (i, rec) in best.items())
    first_try.update(first)
    for path, n in skipped.items():
        loaded.skipped[path] += n
    sources: dict[str, set[str]] = {}
    for grid, (identities, chance) in zip(grids, facts):
        sources[grid.name] = sources.get(grid.name, set()) | identities
        for fam, level in chance.items():
            loaded.chance.setdefault(fam, level)
    loaded.outcomes = [o for o in best_solves.values() if o.skeleton in sources[o.run]]
    finish(loaded, folders, grids, readers, best_renders, first_try, sources)


def _helper(folders: list[Path], grids: list[Grid]) -> tuple[list, tuple[dict, dict, dict]]:
    """In the helper: each grid's source facts, then the render logs."""
    die_with_parent()
    return [_source_facts(grid) for grid in grids], _render_logs(folders, grids)


def finish(loaded: Loaded, folders: list[Path], grids: list[Grid], readers: list[_Reader],
           best_renders: dict[str, tuple[_Reader, dict]], first_try: dict[str, tuple[str, float]],
           sources: dict[str, set[str]]) -> None:
    """The loader's last step: the auditors' calibration, the best render of each unit of a grid's source (with
    `run` and `first`), and the solves its render kept from being sent (`blocked`)."""
    calibrations(loaded, folders, grids)
    for key, (reader, rec) in best_renders.items():
        if rec["skeleton"] not in sources[reader.run]:
            continue
        rec["run"], rec["first"] = reader.run, first_try.get(key, (rec["status"],))[0]
        loaded.renders.append(rec)
        status = rec["status"]
        if blocks(status, reader.render_fp[rec["renderer"]][1]):
            fam, comp = rec.get("family"), rec.get("complexity")
            if isinstance(fam, str) and isinstance(comp, int):
                for label, (_, sst, _) in reader.solve_fp.items():
                    loaded.blocked.extend([Blocked(reader.run, rec["renderer"], label, fam, comp, status)] * sst.samples)


def calibrations(loaded: Loaded, folders: list[Path], grids: list[Grid]) -> None:
    """The auditors' calibration of each folder, as the run judged it, into `loaded` (its unreadable lines too)."""
    for folder, grid in zip(folders, grids):
        if grid.auditors():
            units = planned(grid)
            got = best_records(folder / CALIBRATION, set(units), CALIBRATION_FIELDS)
            loaded.skipped[folder / CALIBRATION] += got.skipped
            loaded.auditors += [(grid.name, t) for t in trust(got, grid.auditors()).values()]


def blocks(status: str, stage: Any) -> bool:
    """Whether a unit's best render, of this status and by this render stage, kept its solves from being sent."""
    return status in TERMINAL and status not in PROCEED and not (status == "unfaithful" and stage.send_unfaithful)
