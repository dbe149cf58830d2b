"""The grid reference (docs/grid.md), made from the checker's own key tables: a key the checker takes and this
page does not say (or the other way round) fails tests/test_reference.py, so the page cannot drift.

    python -m runner.config.reference > docs/grid.md
"""
from __future__ import annotations

from providers.config import _LAUNCH_KEYS, ALLOWED, KINDS
from runner.config import cluster, reasoning
from runner.config.grid import AUDIT_KEYS, GENERATE_KEYS, RENDERER_KEYS, SOLVER_KEYS, SOURCE_KEYS, TOP_KEYS

# key path -> (default, what it sets). NAME stands for a provider's name; [] for an entry of a list.
KEYS: dict[str, tuple[str, str]] = {
    "name": ("required", "the run's name; its folder is outputs/NAME unless `--out` says otherwise"),
    "skeletons": ("required", "where skeletons come from: `path` (a file) or `generate` (a block), one of them"),
    "skeletons.path": ("-", "a JSONL file of skeletons (relative to the grid file)"),
    "skeletons.format": ("jsonl", "jsonl (bench's skeletons) or logicmark (the LogicMark dataset's records)"),
    "skeletons.generate": ("-", "skeletons made as `bench generate` makes them"),
    "skeletons.generate.count": ("required", "how many skeletons"),
    "skeletons.generate.complexities": ("[medium]", "proof depths: short (2), medium (4), long (6) or 1..20, cycled"),
    "skeletons.generate.seed": ("0", "same seed, same skeletons"),
    "skeletons.generate.families": ("all", "only these families, round-robin"),
    "skeletons.generate.target_hop_dist": ("-", "complexity weights instead of `complexities`, e.g. `1:0.1,2:0.4`"),
    "skeletons.generate.distractors": ("ours", "equality's options: ours (two complementary pairs) or card"),
    "providers": ("required", "a mapping of provider names to their settings"),
    "providers.NAME.kind": ("required", f"one of {', '.join(KINDS)}"),
    "providers.NAME.model": ("required (model kinds)", "the model name requests carry (template: its version name)"),
    "providers.NAME.base_url": ("Anthropic's API for anthropic", "an http(s) URL or a list of replica URLs"),
    "providers.NAME.api_key_env": ("ANTHROPIC_API_KEY for anthropic", "the environment variable holding the API key"),
    "providers.NAME.max_concurrency": ("64 (anthropic: 8)", "requests in flight per server"),
    "providers.NAME.rate_per_s": ("no limit", "request starts per second (on Ray: the whole cluster's)"),
    "providers.NAME.connect_timeout_s": ("10", "seconds to connect"),
    "providers.NAME.read_timeout_s": ("600 (thinking solvers: 1800)", "the longest one attempt may take"),
    "providers.NAME.attempts": ("5", "tries in all of a unit's request, the first included"),
    "providers.NAME.retries": ("-", "the old name of `attempts`, read as it with a note"),
    "providers.NAME.extra_body": ("-", "fields added to every request body as they are (part of unit keys)"),
    "providers.NAME.constraint": ("auto", "how answers are constrained: what the server's dialect honours"),
    "providers.NAME.http_client": ("auto", "auto: a lean client for plain-http servers, aiohttp for https; aiohttp: aiohttp for all"),
    "providers.NAME.variant": ("-", "how this server differs from another serving the same model (part of unit keys)"),
    "providers.NAME.server": ("auto", "the dialect: auto (asks /v1/models), vllm, sglang, llamacpp, tgi, openai"),
    "providers.NAME.seed": ("0", "the random solver's seed"),
    "providers.NAME.launch": ("-", "a vLLM server bench starts and stops (kind vllm)"),
    "providers.NAME.launch.model": ("required", "a model path, hub name or local model (smollm2-135m)"),
    "providers.NAME.launch.args": ("-", "vLLM arguments; all but placement ones are part of unit keys"),
    "providers.NAME.launch.env": ("-", "environment variables of the server"),
    "providers.NAME.launch.port": ("a free one", "the first replica's port; replicas use port+i"),
    "providers.NAME.launch.replicas": ("1 (or one per GPU group)", "servers started"),
    "providers.NAME.launch.gpus": ("-", "GPU indices, split among replicas"),
    "providers.NAME.launch.gpus_per_replica": ("1", "GPUs per replica (tensor parallel)"),
    "providers.NAME.launch.python": ("this interpreter", "the Python that runs vLLM"),
    "providers.NAME.launch.startup_timeout_s": ("900", "seconds a server may take to answer its health check"),
    "renderers": ("required", "renderer entries: provider names or mappings"),
    "renderers[].provider": ("required", "a provider of kind openai, vllm, anthropic or template"),
    "renderers[].prompt": ("built in", "a prompt template file"),
    "renderers[].temperature": ("0", "sampling temperature (part of unit keys): 0..2, Anthropic 0..1; none for "
                                "OpenAI's reasoning models (o1, o3, o4, gpt-5), which take only their default"),
    "renderers[].max_tokens": ("1024 (OpenAI reasoning model: 8192)", "the render's token limit (an OpenAI "
                               "reasoning model's max_completion_tokens, its thought included)"),
    "renderers[].samples": ("1", "renders per skeleton"),
    "renderers[].format": ("structured", "structured (checked against the skeleton) or text (unchecked)"),
    "renderers[].send_unfaithful": ("false", "send unfaithful renders to the solvers anyway (counted apart)"),
    "renderers[].audit": ("-", "a parse-back auditor for renders the check cannot read"),
    "renderers[].audit.provider": ("required", "the auditor: a model provider"),
    "renderers[].audit.rate": ("1.0", "the share of renders audited"),
    "renderers[].audit.calibrate": ("80", "control renders per family the auditor reads first"),
    "renderers[].audit.max_false_alarm": ("0.05", "the auditor is trusted below this false-alarm rate (95% bound)"),
    "renderers[].names": ("model", "who names the symbols: model (the renderer) or assigned (bench)"),
    "renderers[].repair": ("0", "times an unfaithful render is asked again with its reasons"),
    "solvers": ("required", "solver entries: provider names or mappings"),
    "solvers[].provider": ("required", "a provider of kind openai, vllm, anthropic, random or prior"),
    "solvers[].prompt": ("built in", "a prompt template file"),
    "solvers[].temperature": ("0", "sampling temperature (part of unit keys): 0..2, Anthropic 0..1; none for "
                              "OpenAI's reasoning models or a thinking Claude"),
    "solvers[].max_tokens": ("16 (thinking or an OpenAI reasoning model: 8192; Anthropic's forced tool: 128)",
                             "the answer's token limit (Anthropic's forced tool: at least 64, room for its "
                             "tool_use block)"),
    "solvers[].samples": ("1", "answers per render"),
    "solvers[].constraint": ("auto", "auto, choice, json_schema, grammar, tool or none (as the server honours)"),
    "solvers[].mode": ("generate", "generate (a label) or loglik (each option's log-likelihood)"),
    "solvers[].delimiter": ("' '", "loglik: between the problem and each option"),
    "solvers[].score": ("mean_token", "loglik: mean_token, mean_char or sum picks the answer"),
    "solvers[].reasoning": ("-", "the solver thinks before it answers"),
    "solvers[].reasoning.enabled": ("true", "false turns a model's thinking off"),
    "solvers[].reasoning.effort": ("-", "minimal, low, medium or high"),
    "solvers[].reasoning.budget_tokens": ("- (anthropic: required)", "the thought's token budget"),
    "solvers[].reasoning.keep_reasoning": ("false", "keep the thought's text in the record"),
    "solvers[].reasoning.opened_by_template": ("false", "the chat template opens <think> in the prompt"),
    "max_in_flight": ("256", "skeletons in flight at once (per agent on Ray)"),
    "prepare_workers": ("auto", "helper processes preparing skeletons: 0 (the run itself), 1..64, or auto (one per core, 1..8)"),
    "ray": ("-", "how `bench run --ray` places the work"),
    "ray.agents": ("every node", "nodes that get agents"),
    "ray.agents_per_node": ("1", "agents on each node, each with its own GPUs, servers and event loop"),
    "ray.gpus_per_agent": ("what the launch blocks use", "GPUs each agent holds"),
    "ray.cpus_per_agent": ("1", "CPUs each agent holds"),
    "ray.resources": ("-", "custom resources each agent needs"),
    "ray.batch": ("32", "skeletons the driver sends an agent at a time"),
}


def accepted() -> set[str]:
    """Every key path the grid checker takes, from its own tables."""
    out = set(TOP_KEYS)
    out |= {f"skeletons.{k}" for k in SOURCE_KEYS} | {f"skeletons.generate.{k}" for k in GENERATE_KEYS}
    out |= {f"providers.NAME.{k}" for k in set().union(*ALLOWED.values()) | {"kind"}}
    out |= {f"providers.NAME.launch.{k}" for k in _LAUNCH_KEYS}
    out |= {f"renderers[].{k}" for k in RENDERER_KEYS} | {f"renderers[].audit.{k}" for k in AUDIT_KEYS}
    out |= {f"solvers[].{k}" for k in SOLVER_KEYS} | {f"solvers[].reasoning.{k}" for k in reasoning.KEYS}
    out |= {f"ray.{k}" for k in cluster.KEYS}
    return out


def _kinds(path: str) -> str:
    """Which provider kinds take a provider key (from the checker's ALLOWED table)."""
    if not path.startswith("providers.NAME.") or path.count(".") > 2:
        return ""
    key = path.rsplit(".", 1)[1]
    return "all" if key == "kind" else ", ".join(k for k in KINDS if key in ALLOWED[k])


def markdown() -> str:
    """docs/grid.md."""
    lines = ["# Grid reference", "",
             "Every key a grid file may hold, its default and what it sets. Made from the grid checker's own",
             "tables by `python -m runner.config.reference > docs/grid.md`; a test fails when they differ.",
             "`NAME` is a provider's name; `[]` an entry of the `renderers` or `solvers` list.", "",
             "| key | default | kinds | what it sets |", "|---|---|---|---|"]
    for path, (default, what) in KEYS.items():
        lines.append(f"| `{path}` | {default} | {_kinds(path)} | {what} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
