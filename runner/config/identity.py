"""What a renderer's or solver's unit keys hash of its settings: everything that changes its units' results."""
from __future__ import annotations

from typing import Any, Mapping

from providers.config import ProviderConfig
from rendering.schema import SCHEMA_VERSION
from runner.config.settings import Role, Stage
from runner.store.records import text_hash


def stage_identity(providers: Mapping[str, ProviderConfig], st: Stage, stage: Role) -> dict[str, Any]:
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
