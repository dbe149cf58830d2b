"""A grid's planned units for the columnar report, made in a helper process: its skeletons' identities, each
family's chance level, and every planned render and solve key written as files the engine joins the logs to."""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import orjson

from runner.config.grid import Grid, Stage
from runner.errors import UserError
from runner.plan import manifest
from runner.plan.units import UnitPlan, skeletons
from runner.reporting.load import chance_levels
from runner.store.guard import open_regular
from runner.store.records import unit_keys

CACHE = ".report-plan-"   # a run folder's cached plan: `CACHE` + the stamp of what decides it


def cache_path(run: Path, grid: Grid) -> Path:
    """Where a run folder keeps its grid's plan for reports: named by the stamp of the skeleton manifest (the
    grid's source, the skeleton file's bytes, the code) and of the stages' fingerprints and samples, so another
    source, setting or code finds no cache and makes its own."""
    plan = UnitPlan(grid)
    stages = [parts(plan.render_parts), parts(plan.solve_parts)]
    stamp = hashlib.sha256(manifest.path_for(run, grid).name.encode() + orjson.dumps(stages)).hexdigest()[:24]
    return run / f"{CACHE}{stamp}"


def cached_plan(run: Path, grid: Grid, scratch: Path) -> tuple[Path, list[str], dict[str, float]]:
    """The folder holding the grid's planned keys (plan_files' files), its skeletons' identities and chance
    levels: from the run folder's cache when it has one for this grid and code, else made in `scratch` (seconds
    on a big grid: every skeleton made, every key hashed) and kept in the run folder for the next report (a
    folder that cannot be written to is only not cached)."""
    place = cache_path(run, grid)
    try:
        with open_regular(place / "facts.json", "cached plan") as fh:   # a FIFO there is refused, never waited on
            facts = orjson.loads(fh.read())
        # whole or not at all: a file of the plan missing or cut short (a damaged folder) makes it again
        if all((place / name).stat().st_size == size for name, size in facts["files"].items()):
            return place, facts["identities"], facts["chance"]
    except (OSError, UserError, orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
        pass
    identities, chance = plan_files(grid, scratch, noted(run, grid))
    made = {p.name: p.stat().st_size for p in scratch.glob("*.parquet")}
    (scratch / "facts.json").write_bytes(orjson.dumps({"identities": identities, "chance": chance, "files": made}))
    tmp = run / f"{place.name}.{os.getpid()}.tmp"
    try:
        shutil.copytree(scratch, tmp)
        for old in run.glob(f"{CACHE}*"):   # an older grid's or code's plan is never read again
            if old != tmp and old.is_dir() and not old.is_symlink():
                shutil.rmtree(old, ignore_errors=True)
        os.rename(tmp, place)
    except OSError:   # read-only, full, or another report cached it meanwhile: this report reads its own
        shutil.rmtree(tmp, ignore_errors=True)
    return scratch, identities, chance


def noted(run: Path, grid: Grid) -> list[tuple[str, str, int]] | None:
    """(identity, family, answer options) of every skeleton of a generated source, in source order, as the run
    folder's manifest noted them while the run made them (the manifest's name stamps the source and the code: the
    skeletons generating would give); None where it does not hold every index (a run not done, a file source, a
    manifest damaged): then they are made."""
    src = grid.source
    if src.path:
        return None
    got = {index: (identity, family, options)
           for index, identity, family, options in manifest.read(manifest.path_for(run, grid)) if 0 <= index < src.count}
    return [got[i] for i in range(src.count)] if len(got) == src.count else None   # count of 0..count-1: each


def plan_files(grid: Grid, folder: Path, known: list[tuple[str, str, int]] | None = None) -> tuple[list[str], dict[str, float]]:
    """Write the grid's planned keys into `folder` as Parquet (renders.parquet: rkey, skeleton, sample, part;
    solves.parquet: key, rkey, sample, part; parts by their place in the grid; a plan of no unit makes neither)
    and return its skeletons' identities and each family's chance level (mean of 1 / number of options). Hashing
    here, once per planned unit, is what lets the logs' keys be checked by a join in the engine rather than one
    hash per record in Python. `known`: the skeletons as `noted` gives them (none is made), else they are made."""
    import duckdb  # in the helper: its own engine, started after the fork
    import numpy as np

    plan = UnitPlan(grid)
    rparts = [(i, samples, unit_keys(fp)) for i, (fp, _, samples) in enumerate(parts(plan.render_parts))]
    sparts = [(i, samples, unit_keys(fp)) for i, (fp, _, samples) in enumerate(parts(plan.solve_parts))]
    if known is None:
        known = [(sk.identity, sk.family, len(sk.answer_options)) for sk in skeletons(grid)]
    identities = [identity for identity, _, _ in known]
    # Every skeleton has the same renders (part, sample) and every render the same solves: only the keys are
    # made one by one (a hash each); the other columns repeat a pattern, made whole by numpy.
    each_r = [(part, s, key_of) for part, samples, key_of in rparts for s in range(samples)]
    each_s = [(part, t, key_of) for part, samples, key_of in sparts for t in range(samples)]
    made = [key_of(identity, s) for identity in identities for _, s, key_of in each_r]
    skeys = np.array([key_of(rkey, t) for rkey in made for _, t, key_of in each_s], dtype=object)
    rkeys = np.array(made, dtype=object)
    tables = {
        "renders": {"rkey": rkeys, "skeleton": np.repeat(np.array(identities, dtype=object), len(each_r)),
                    "sample": np.tile(np.array([s for _, s, _ in each_r], dtype=np.int64), len(identities)),
                    "part": np.tile(np.array([p for p, _, _ in each_r], dtype=np.int32), len(identities))},
        "solves": {"key": skeys, "rkey": np.repeat(rkeys, len(each_s)),
                   "sample": np.tile(np.array([t for _, t, _ in each_s], dtype=np.int64), len(rkeys)),
                   "part": np.tile(np.array([p for p, _, _ in each_s], dtype=np.int32), len(rkeys))}}
    con = duckdb.connect()
    try:
        for name, columns in tables.items():
            if len(columns["rkey"]):
                con.register("planned", columns)
                con.execute(f"COPY (SELECT * FROM planned) TO '{folder / (name + '.parquet')}' (FORMAT parquet)")
                con.unregister("planned")
    finally:
        con.close()
    return identities, chance_levels(known)


def parts(stages: list[tuple[Stage, str]]) -> list[tuple[str, list[str], int]]:
    """A grid's stages of one kind grouped by fingerprint (stages with one fingerprint make the same keys), in
    the grid's order: (fingerprint, the labels, in order, the most samples of them)."""
    out: dict[str, tuple[str, list[str], int]] = {}
    for st, fp in stages:
        _, labels, samples = out.setdefault(fp, (fp, [], 0))
        labels.append(st.label)
        out[fp] = (fp, labels, max(samples, st.samples))
    return list(out.values())
