"""A grid's settings, resolved: the skeleton source, the renderer and solver stages, the grid itself (saved beside
a run's logs and read back), and the keys each block of a grid file may hold."""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, Mapping, get_args

import orjson

from providers.base import Constraint, Score
from providers.config import ProviderConfig, short
from runner.config.cluster import RaySettings
from runner.errors import UserError
from runner.fidelity.calibration import AuditorSettings
from runner.fidelity.judge import RenderFormat
from runner.store.guard import read_whole

CALIBRATE = AuditorSettings.calibrate   # control renders per family an auditor reads first, by default

# Every key a grid may hold, block by block: the checker's own tables (docs/grid.md is made from them).
TOP_KEYS = {"name", "skeletons", "providers", "renderers", "solvers", "max_in_flight", "prepare_workers", "ray"}
MAX_PREPARE_WORKERS = 64
SOURCE_KEYS = {"path", "generate", "format"}
GENERATE_KEYS = {"count", "complexities", "seed", "families", "target_hop_dist", "distractors"}
_STAGE_KEYS = {"provider", "prompt", "temperature", "max_tokens", "samples"}
RENDERER_KEYS = _STAGE_KEYS | {"format", "send_unfaithful", "audit", "names", "repair"}
SOLVER_KEYS = _STAGE_KEYS | {"constraint", "mode", "delimiter", "score", "reasoning"}
AUDIT_KEYS = {"provider", "rate", "calibrate", "max_false_alarm"}
RENDER_KINDS = {"openai", "vllm", "anthropic", "template"}
Role = Literal["render", "solve"]              # a stage's: a renderer's entry, or a solver's
SourceFormat = Literal["jsonl", "logicmark"]   # a skeleton file's: our skeletons, or the LogicMark card's records
SOURCE_FORMATS: tuple[SourceFormat, ...] = get_args(SourceFormat)
Distractors = Literal["ours", "card"]          # equality's wrong options: ours, or the card's
DISTRACTORS: tuple[Distractors, ...] = get_args(Distractors)
Naming = Literal["model", "assigned"]          # who names a structured render's symbols: the renderer, or we do
NAMES: tuple[Naming, ...] = get_args(Naming)
SolveMode = Literal["generate", "loglik"]      # answer with a label, or score each option's log-likelihood
SOLVE_MODES: tuple[SolveMode, ...] = get_args(SolveMode)
MAX_REPAIR = 10
MAX_IN_FLIGHT = 100_000   # each skeleton in flight holds a worker and its units (~1 kB): beyond this, memory, not speed
MODEL_KINDS = {"openai", "vllm", "anthropic"}
SOLVE_KINDS = {"openai", "vllm", "anthropic", "random", "prior"}


@dataclass(frozen=True)
class Source:
    """Where skeletons come from: a JSONL file, or a generate block."""

    path: str | None = None
    format: SourceFormat = "jsonl"   # of the file: our skeletons, or the LogicMark card's records
    count: int = 0
    complexities: tuple[str, ...] = ("medium",)
    seed: int = 0
    families: tuple[str, ...] = ()
    target_hop_dist: str | None = None
    distractors: Distractors = "ours"   # equality's options: ours or the card's


@dataclass(frozen=True)
class Stage:
    """A renderer or solver entry: a provider and its settings for this stage."""

    provider: str
    prompt: str
    temperature: float = 0.0
    max_tokens: int = 1024
    samples: int = 1
    constraint: Constraint = "auto"
    # Renderers only: structured (checked against the skeleton) or text (unchecked, as before);
    # whether unfaithful renders still go to the solvers; the parse-back auditor and its sample rate.
    format: RenderFormat = "structured"
    send_unfaithful: bool = False
    audit_provider: str | None = None
    audit_rate: float = 0.0
    audit_calibrate: int = CALIBRATE            # control renders per family the auditor reads first (0: none)
    audit_max_false_alarm: float = 0.05  # above this false-alarm rate on them, it rejects no render
    # Structured model renderers only: who names the symbols (model: the renderer; assigned: we do,
    # drawn per unit, fixed by the schema) and how many times an unfaithful render is asked again.
    names: Naming = "model"
    repair: int = 0
    # Solvers only: generate (answer with a label) or loglik (score each option's log-likelihood as the
    # continuation of the problem, no generation); the delimiter between them; the score that picks.
    mode: SolveMode = "generate"
    delimiter: str = " "
    score: Score = "mean_token"
    # Solvers only: thinking settings (runner/config/reasoning.py), None for a solver that does not think.
    reasoning: Mapping[str, Any] | None = None

    @property
    def thinks(self) -> bool:
        """Whether this solver is asked to think before it answers."""
        return self.reasoning is not None and self.reasoning.get("enabled", True)

    @property
    def label(self) -> str:
        """How the stage is named in tables: the provider, with its sampling when it is not the default,
        and `:text` for a free-text renderer."""
        name = self.provider if self.temperature == 0 else f"{self.provider}@T{self.temperature:g}"
        if self.mode == "loglik":
            return f"{name}:loglik" if self.score == "mean_token" else f"{name}:loglik-{self.score}"
        if self.reasoning is not None:
            return f"{name}:think" if self.thinks else f"{name}:nothink"
        return f"{name}:text" if self.format == "text" else name


def save_again(folder: Path) -> str:
    """How a run folder's damaged or unreadable grid.json is made again: the command, in a message's words."""
    return f"remove it and run the grid the folder ran: `bench run --grid {folder}/grid.yaml --out {folder}`"


@dataclass(frozen=True)
class Grid:
    """A whole grid, resolved: prompt texts inlined, paths absolute."""

    name: str
    source: Source
    providers: Mapping[str, ProviderConfig]
    renderers: tuple[Stage, ...]
    solvers: tuple[Stage, ...]
    max_in_flight: int = 256      # skeletons in flight at once: the backpressure window (per node agent on Ray)
    file: str = ""
    ray: RaySettings = field(default_factory=RaySettings)   # used by `bench run --ray` only
    prepare_workers: int | None = None   # helper processes preparing skeletons; None: from the cores (`auto`)

    def to_json(self) -> bytes:
        """The resolved grid, as saved beside the logs."""
        obj = asdict(self)
        obj["providers"] = {n: {"kind": p.kind, **p.settings} for n, p in self.providers.items()}
        for st in obj["renderers"] + obj["solvers"]:
            if st["reasoning"] is None:   # a solver without `reasoning:` saves (and hashes) as it always did
                del st["reasoning"]
        if self.prepare_workers is None:   # `auto`, the default: saved (and hashed) as before the key
            del obj["prepare_workers"]
        if self.ray == RaySettings():   # a grid without a `ray:` block saves (and hashes) as it always did
            del obj["ray"]
        else:
            obj["ray"] = self.ray.to_obj()
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)

    @classmethod
    def from_json(cls, data: bytes) -> "Grid":
        """The grid saved beside a run's logs (no API key needed: nothing will be sent)."""
        obj = orjson.loads(data)
        src = obj["source"]
        return cls(name=obj["name"], file=obj.get("file", ""), max_in_flight=obj["max_in_flight"],
                   source=Source(**{**src, "complexities": tuple(src["complexities"]),
                                    "families": tuple(src["families"])}),
                   providers={n: ProviderConfig(n, p.pop("kind"), p) for n, p in obj["providers"].items()},
                   renderers=tuple(Stage(**st) for st in obj["renderers"]),
                   solvers=tuple(Stage(**st) for st in obj["solvers"]), ray=RaySettings(**obj.get("ray", {})),
                   prepare_workers=obj.get("prepare_workers"))

    @classmethod
    def saved(cls, folder: Path) -> "Grid":
        """The grid saved in a run folder; a one-line error if there is none or it is not one we wrote."""
        path = folder / "grid.json"
        if not path.is_file():
            raise UserError(f"{folder}: no grid.json here; is it a run folder?")
        try:
            return cls.from_json(read_whole(path, "saved grid"))
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError, ValueError) as exc:
            raise UserError(f"{path}: not a grid this version of bench saved ({type(exc).__name__}: "
                            f"{short(str(exc))}); to save it again, {save_again(folder)} (what was done is not done "
                            "again)") from None

    def auditors(self) -> dict[str, AuditorSettings]:
        """Every parse-back auditor of the grid and how it is calibrated."""
        out: dict[str, AuditorSettings] = {}
        for st in self.renderers:
            if st.audit_provider:
                tokens = max(st.max_tokens, out[st.audit_provider].max_tokens if st.audit_provider in out else 0)
                out[st.audit_provider] = AuditorSettings(st.audit_calibrate, st.audit_max_false_alarm, tokens)
        return out

    def used_providers(self) -> list[str]:
        """Every provider a run sends to: renderers, solvers and parse-back auditors."""
        return sorted({st.provider for st in self.renderers + self.solvers}
                      | {st.audit_provider for st in self.renderers if st.audit_provider})

    def hash(self) -> str:
        """A short hash of the resolved grid (without its file name)."""
        obj = orjson.loads(self.to_json())
        obj.pop("file", None)
        return hashlib.blake2b(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS), digest_size=8).hexdigest()
