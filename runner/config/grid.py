"""The grid file (YAML): skeleton source, providers, renderers, solvers; checked whole before any request."""
from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Mapping, get_args

import orjson
import yaml

from providers.base import CONSTRAINTS, Constraint, Score
from providers.config import INT64, ConfigError, ProviderConfig, constraints_of, parse_provider, short
from rendering.schema import SCHEMA_VERSION
from runner.config.api_rules import (
    ANTHROPIC_TOOL_MAX_TOKENS,
    check_reasoning_model,
    check_temperature,
    check_tool_tokens,
    default_max_tokens,
    uses_tool,
)
from runner.config.checks import Checker, UniqueKeyLoader, one_line
from runner.config.cluster import RaySettings, parse_ray
from runner.config.reasoning import (
    THINKING_READ_TIMEOUT_S,
    check_budget,
    check_sampling,
    parse_reasoning,
    thinking_max_tokens,
)
from runner.errors import UserError
from runner.fidelity.calibration import AuditorSettings
from runner.store.guard import kind_of, read_whole
from runner.store.records import text_hash

CALIBRATE = AuditorSettings.calibrate   # control renders per family an auditor reads first, by default
from providers.base import SCORES
from runner.config.prompts import (
    LOGLIK_DEFAULT,
    PLACEHOLDERS,
    RENDER_ASSIGNED_DEFAULT,
    RENDER_DEFAULT,
    RENDER_PROBLEM,
    RENDER_STRUCTURED_DEFAULT,
    SOLVE_DEFAULT,
)
from runner.fidelity.judge import FORMATS, RenderFormat

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
                            f"{short(str(exc))}); rerun `bench run --grid FILE` to save it again") from None

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


def load_grid(path: Path, env: Mapping[str, str] | None = None, require_keys: bool = True) -> Grid:
    """Read and check a grid file; UserError names the file, the key path and what is expected."""
    try:
        text = read_whole(path, "--grid").decode("utf-8")
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
    renderers = _stages(c, top["renderers"], "renderers", providers, RENDER_KINDS, base)
    solvers = _stages(c, top["solvers"], "solvers", providers, SOLVE_KINDS, base)
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
        key = "families" if "family" in str(exc) else ("target_hop_dist" if hop else "complexities")
        raise c.fail(f"skeletons.generate.{key}", str(exc)) from None
    return Source(count=count, complexities=tuple(str(x) for x in comps), seed=seed,
                  families=tuple(str(f) for f in fams), target_hop_dist=hop, distractors=distractors)


def _stages(c: Checker, raw: Any, key: str, providers: Mapping[str, ProviderConfig], kinds: set[str],
            base: Path) -> tuple[Stage, ...]:
    """The `renderers` or `solvers` list: each entry checked, then what must hold across entries."""
    if not isinstance(raw, list) or not raw:
        raise c.fail(key, "expected a list of provider names or mappings with `provider`")
    stage = "render" if key == "renderers" else "solve"
    out = tuple(_stage(c, entry, f"{key}[{i}]", stage, providers, kinds, base) for i, entry in enumerate(raw))
    labels = [s.label for s in out]
    if len(set(labels)) != len(labels):
        raise c.fail(key, "the same provider is listed twice with the same temperature")
    _distinct(c, key, list(out), providers)
    _one_calibration_per_auditor(c, key, out)
    return out


def _stage(c: Checker, entry: Any, path: str, stage: str, providers: Mapping[str, ProviderConfig],
           kinds: set[str], base: Path) -> Stage:
    """One renderer or solver entry (`path`, e.g. `solvers[2]`), checked key by key, as its Stage."""
    entry = {"provider": entry} if isinstance(entry, str) else entry
    e = c.mapping(entry, path, SOLVER_KEYS if stage == "solve" else RENDERER_KEYS, {"provider"})
    pname = e["provider"]
    if not isinstance(pname, str):
        raise c.fail(f"{path}.provider", f"expected a provider name, got {short(pname)}")
    if pname not in providers:
        raise c.fail(f"{path}.provider", f"unknown provider {pname!r} (defined: {', '.join(providers)})")
    pc = providers[pname]
    if pc.kind not in kinds:
        raise c.fail(f"{path}.provider", f"provider {pname!r} of kind {pc.kind} cannot {stage}")
    fmt = e.get("format", "structured")
    if fmt not in FORMATS:
        raise c.fail(f"{path}.format", f"expected structured or text, got {fmt!r}")
    mode = e.get("mode", "generate")
    if mode not in SOLVE_MODES:
        raise c.fail(f"{path}.mode", f"expected generate or loglik, got {short(mode)}")
    if mode == "loglik" and pc.kind not in ("openai", "vllm"):
        raise c.fail(f"{path}.mode", f"loglik scores through a completions server (kind openai or vllm); "
                     f"provider {pname!r} is of kind {pc.kind}")
    score = e.get("score", "mean_token")
    if score not in SCORES:
        raise c.fail(f"{path}.score", f"expected one of {', '.join(SCORES)}, got {short(score)}")
    delimiter = e.get("delimiter", " ")
    if not isinstance(delimiter, str) or len(delimiter) > 16:
        raise c.fail(f"{path}.delimiter", f"expected a string of at most 16 characters, got {short(delimiter)}")
    if mode == "generate" and ("score" in e or "delimiter" in e):
        raise c.fail(f"{path}.mode", "score and delimiter are settings of mode: loglik")
    names = e.get("names", "model")
    if names not in NAMES:
        raise c.fail(f"{path}.names", f"expected model (the renderer names the symbols) or assigned (we do), "
                     f"got {short(names)}")
    repair = c.number(e.get("repair", 0), f"{path}.repair", 0, MAX_REPAIR, integer=True)
    if (names != "model" or repair) and (fmt != "structured" or pc.kind not in MODEL_KINDS):
        raise c.fail(f"{path}.{'names' if names != 'model' else 'repair'}",
                     "names and repair are settings of a model renderer's structured renders")
    prompt = _prompt(c, e, path, stage, mode, fmt, names, base)
    reasoning = parse_reasoning(c, e["reasoning"], f"{path}.reasoning", pc, mode) if "reasoning" in e else None
    if reasoning is not None:
        check_sampling(c, e, path, pc)
    constraint = e.get("constraint", "auto")
    if constraint not in CONSTRAINTS:
        raise c.fail(f"{path}.constraint", f"expected one of {', '.join(CONSTRAINTS)}, got {short(constraint)}")
    tool = stage == "solve" and mode == "generate" and uses_tool(
        pc, constraint, reasoning is not None and reasoning.get("enabled", True) is not False)
    default_tokens = 1024 if stage == "render" else thinking_max_tokens(reasoning) if reasoning else \
        ANTHROPIC_TOOL_MAX_TOKENS if tool else 16
    default_tokens = default_max_tokens(pc, default_tokens)
    if tool:
        check_tool_tokens(c, e, path, e.get("max_tokens"))
    check_reasoning_model(c, e, path, pc)
    if pc.kind in MODEL_KINDS and constraint not in constraints_of(pc.dialect):
        d = pc.dialect
        raise c.fail(f"{path}.constraint", f"{d.name if d else 'an OpenAI-compatible'} server cannot honour "
                     f"{constraint} (it takes {', '.join(constraints_of(d))})")
    send = e.get("send_unfaithful", False)
    if not isinstance(send, bool):
        raise c.fail(f"{path}.send_unfaithful", f"expected true or false, got {send!r}")
    audit_provider, audit_rate, calibrate, max_false_alarm = _audit(c, e, path, fmt, pc, providers)
    st = Stage(
        provider=pname, prompt=prompt, format=fmt, send_unfaithful=send, audit_provider=audit_provider,
        audit_rate=audit_rate, audit_calibrate=calibrate, audit_max_false_alarm=max_false_alarm,
        names=names, repair=repair,
        temperature=check_temperature(c, e, path, pc),
        max_tokens=c.number(e.get("max_tokens", default_tokens), f"{path}.max_tokens", 1, 2**31 - 1, integer=True),
        samples=c.number(e.get("samples", 1), f"{path}.samples", 1, 1_000_000, integer=True),
        constraint=constraint, mode=mode, delimiter=delimiter, score=score, reasoning=reasoning)
    if reasoning:
        check_budget(c, st, path)
    return st


def _prompt(c: Checker, e: Mapping[str, Any], path: str, stage: str, mode: str, fmt: str, names: str,
            base: Path) -> str:
    """The entry's prompt template: its `prompt` file (read whole, UTF-8, holding its placeholders) or the default."""
    prompt = (LOGLIK_DEFAULT if mode == "loglik" else SOLVE_DEFAULT) if stage == "solve" else \
        RENDER_DEFAULT if fmt == "text" else RENDER_ASSIGNED_DEFAULT if names == "assigned" else \
        RENDER_STRUCTURED_DEFAULT
    if "prompt" not in e:
        return prompt
    if not isinstance(e["prompt"], str):
        raise c.fail(f"{path}.prompt", "expected a prompt template file path")
    pfile = (base / e["prompt"]).resolve()
    try:
        prompt = read_whole(pfile, f"{c.file}: {path}.prompt").decode("utf-8")
    except OSError:
        raise c.fail(f"{path}.prompt", f"cannot read prompt file {pfile}") from None
    except UnicodeDecodeError as exc:
        raise c.fail(f"{path}.prompt", f"{pfile} is not UTF-8 text (byte {exc.start})") from None
    needed = PLACEHOLDERS["loglik" if mode == "loglik" else stage]
    if mode == "loglik" and "{card}" in prompt:   # the card's context stands for the problem
        needed = ()
    for ph in needed:
        if ph not in prompt and not (stage == "render" and names == "assigned"):
            raise c.fail(f"{path}.prompt", f"{pfile} lacks the placeholder {ph}")
    if stage == "render" and names == "assigned" and not any(ph in prompt for ph in RENDER_PROBLEM):
        raise c.fail(f"{path}.prompt", f"{pfile} lacks the placeholder {' or '.join(RENDER_PROBLEM)}")
    return prompt


def _audit(c: Checker, e: Mapping[str, Any], path: str, fmt: str, pc: ProviderConfig,
           providers: Mapping[str, ProviderConfig]) -> tuple[str | None, float, int, float]:
    """The entry's `audit:` block as (auditor, rate, calibrate, max_false_alarm); no auditor where it has none."""
    if "audit" not in e:
        return None, 0.0, CALIBRATE, 0.05
    a = c.mapping(e["audit"], f"{path}.audit", AUDIT_KEYS, {"provider"})
    auditor = a["provider"]
    if not isinstance(auditor, str) or auditor not in providers or providers[auditor].kind not in MODEL_KINDS:
        raise c.fail(f"{path}.audit.provider", f"expected a model provider (kind {', '.join(sorted(MODEL_KINDS))}) "
                     f"defined under providers, got {auditor!r}")
    if fmt != "structured" or pc.kind not in MODEL_KINDS:
        raise c.fail(f"{path}.audit", "a parse-back audit checks structured renders of a model renderer")
    rate = float(c.number(a.get("rate", 1.0), f"{path}.audit.rate", 0.0, 1.0))
    calibrate = c.number(a.get("calibrate", CALIBRATE), f"{path}.audit.calibrate", 0, 100_000, integer=True)
    max_false_alarm = float(c.number(a.get("max_false_alarm", 0.05), f"{path}.audit.max_false_alarm", 0.0, 1.0))
    return auditor, rate, calibrate, max_false_alarm


def _one_calibration_per_auditor(c: Checker, key: str, out: tuple[Stage, ...]) -> None:
    """One auditor, one calibration: its settings must agree wherever it audits."""
    calibrations: dict[str, tuple[int, tuple[int, float]]] = {}
    for i, st in enumerate(out):
        if st.audit_provider:
            setting = (st.audit_calibrate, st.audit_max_false_alarm)
            first = calibrations.setdefault(st.audit_provider, (i, setting))
            if first[1] != setting:
                raise c.fail(f"{key}[{i}].audit", f"auditor {st.audit_provider!r} has calibrate/max_false_alarm "
                             f"{setting[0]}/{setting[1]:g} here but {first[1][0]}/{first[1][1]:g} at {key}[{first[0]}]")


def stage_identity(providers: Mapping[str, ProviderConfig], st: Stage, stage: str) -> dict[str, Any]:
    """Everything of a renderer (stage `render`) or solver entry that changes its units' results: what its
    unit keys hash, beside the skeleton or render they work on and the sample."""
    if stage == "render":
        return {"renderer": providers[st.provider].identity(),
                "settings": {"temperature": st.temperature, "max_tokens": st.max_tokens},
                "prompt": text_hash(st.prompt), **render_format(providers, st)}
    return {"solver": providers[st.provider].identity(),
            "settings": {"temperature": st.temperature, "max_tokens": st.max_tokens, "constraint": st.constraint,
                         **({"mode": st.mode, "delimiter": st.delimiter, "score": st.score} if st.mode != "generate"
                            else {}),   # a generating solver's keys stay what they were
                         # how it thinks changes its answers; whether the thought is kept does not
                         **({"reasoning": {k: v for k, v in st.reasoning.items() if k != "keep_reasoning"}}
                            if st.reasoning is not None else {})},
            "prompt": text_hash(st.prompt)}


def render_format(providers: Mapping[str, ProviderConfig], stage: Stage) -> dict[str, Any]:
    """What a render unit's key holds of its format: structured renders their schema version and audit."""
    if stage.format == "text":
        return {"format": "text"}
    out: dict[str, Any] = {"format": "structured", "schema_version": SCHEMA_VERSION}
    if stage.names != "model":
        out["names"] = stage.names
    if stage.repair:
        out["repair"] = stage.repair
    if stage.audit_provider:
        out["audit"] = {"auditor": providers[stage.audit_provider].identity(), "rate": stage.audit_rate,
                        "calibrate": stage.audit_calibrate, "max_false_alarm": stage.audit_max_false_alarm}
    return out


def _distinct(c: Checker, key: str, stages: list[Stage], providers: Mapping[str, ProviderConfig]) -> None:
    """Two entries whose units would share keys are refused: their records could not be told apart, and a
    rerun would count one's results as the other's."""
    seen: dict[bytes, int] = {}
    for j, st in enumerate(stages):
        ident = orjson.dumps(stage_identity(providers, st, "render" if key == "renderers" else "solve"),
                             option=orjson.OPT_SORT_KEYS)
        i = seen.setdefault(ident, j)
        if i == j:
            continue
        a, b = stages[i].provider, st.provider
        kind = providers[b].kind
        if kind in MODEL_KINDS:
            how = ("replicas of one server go in one provider's base_url list; servers that differ say how with "
                   "`server:` (vllm, sglang, ...) or `variant:` (e.g. awq-int4)")
        else:
            how = f"a {kind} provider with the same settings gives the same results: list it once"
        raise c.fail(f"{key}[{j}]", f"provider {b!r} would share unit keys with {key}[{i}] (provider {a!r}): the "
                     f"same model and settings, so their results could not be told apart; {how}")
