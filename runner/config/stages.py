"""A grid's `renderers` and `solvers` lists: each entry checked key by key into its Stage, then what must hold
across entries (no two whose units would share keys, one calibration per auditor)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import orjson

from providers.base import CONSTRAINTS, SCORES
from providers.config import ProviderConfig, constraints_of, short
from runner.config.api_rules import (
    ANTHROPIC_TOOL_MAX_TOKENS,
    check_reasoning_model,
    check_temperature,
    check_tool_tokens,
    default_max_tokens,
    uses_tool,
)
from runner.config.checks import Checker
from runner.config.identity import stage_identity
from runner.config.prompts import (
    LOGLIK_DEFAULT,
    PLACEHOLDERS,
    RENDER_ASSIGNED_DEFAULT,
    RENDER_DEFAULT,
    RENDER_PROBLEM,
    RENDER_STRUCTURED_DEFAULT,
    SOLVE_DEFAULT,
)
from runner.config.reasoning import check_budget, check_sampling, parse_reasoning, thinking_max_tokens
from runner.config.settings import (
    AUDIT_KEYS,
    CALIBRATE,
    MAX_REPAIR,
    MODEL_KINDS,
    NAMES,
    RENDERER_KEYS,
    SOLVE_MODES,
    SOLVER_KEYS,
    Naming,
    Role,
    SolveMode,
    Stage,
)
from runner.fidelity.judge import FORMATS, RenderFormat
from runner.store.guard import read_whole


def parse_stages(c: Checker, raw: Any, key: str, providers: Mapping[str, ProviderConfig], kinds: set[str],
            base: Path) -> tuple[Stage, ...]:
    """The `renderers` or `solvers` list: each entry checked, then what must hold across entries."""
    if not isinstance(raw, list) or not raw:
        raise c.fail(key, "expected a list of provider names or mappings with `provider`")
    stage: Role = "render" if key == "renderers" else "solve"
    out = tuple(_stage(c, entry, f"{key}[{i}]", stage, providers, kinds, base) for i, entry in enumerate(raw))
    labels = [s.label for s in out]
    if len(set(labels)) != len(labels):
        raise c.fail(key, "the same provider is listed twice with the same temperature")
    _distinct(c, key, list(out), providers)
    _one_calibration_per_auditor(c, key, out)
    return out


def _stage(c: Checker, entry: Any, path: str, stage: Role, providers: Mapping[str, ProviderConfig],
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


def _prompt(c: Checker, e: Mapping[str, Any], path: str, stage: Role, mode: SolveMode, fmt: RenderFormat,
            names: Naming, base: Path) -> str:
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


def _distinct(c: Checker, key: str, stages: list[Stage], providers: Mapping[str, ProviderConfig]) -> None:
    """Two entries whose units would share keys are refused: their records could not be told apart, and a
    rerun would count one's results as the other's."""
    seen: dict[bytes, int] = {}
    for j, st in enumerate(stages):
        role: Role = "render" if key == "renderers" else "solve"
        ident = orjson.dumps(stage_identity(providers, st, role),
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
