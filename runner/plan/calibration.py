"""Calibration units of a grid (each auditor's reads of the control's renders) and their keys: what the engine
runs and the report counts, computed in one place."""
from __future__ import annotations

from typing import Iterator

from families.ir import Skeleton
from families.registry import FAMILIES
from rendering.schema import SCHEMA_VERSION
from runner.config.grid import Grid
from runner.fidelity.calibration import CONTROL, AuditorSettings, control_sample
from runner.fidelity.parse_back import PROMPT
from runner.plan.units import skeletons
from runner.store.records import fingerprint, text_hash, unit_key


def calibration_fingerprint(grid: Grid, auditor: str, settings: AuditorSettings) -> str:
    """What a calibration unit's key holds besides its skeleton: everything that changes the read-back."""
    return fingerprint({"auditor": grid.providers[auditor].identity(), "prompt": text_hash(PROMPT),
                        "max_tokens": settings.max_tokens, "control": CONTROL, "schema_version": SCHEMA_VERSION})


def units(grid: Grid) -> Iterator[tuple[str, AuditorSettings, str, Skeleton]]:
    """Every calibration unit of the grid: (auditor, its settings, the unit's key, the control skeleton)."""
    for auditor, settings in grid.auditors().items():
        if settings.calibrate:
            fp = calibration_fingerprint(grid, auditor, settings)
            for sk in control_sample(skeletons(grid), settings.calibrate, len(FAMILIES)):
                yield auditor, settings, unit_key(fp, sk.identity, 0), sk


def planned(grid: Grid) -> dict[str, str]:
    """Every calibration unit's key -> its auditor (for the report)."""
    return {key: auditor for auditor, _, key, _ in units(grid)}
