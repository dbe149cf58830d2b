"""A stand-in for vLLM's interpreter in `launch.python`: it runs the fake server on the port and model asked,
records each replica's GPUs and pid, fails like a bad model folder for `--model /broken`, and loads until
its folder holds `go`, saying what it does, for `--model /slow`."""
from __future__ import annotations

import sys
from pathlib import Path

from tests.conftest import ROOT

SHIM = """#!/bin/sh
# Stands in for `python -m vllm.entrypoints.openai.api_server --model M --served-model-name N --port P ...`.
while [ $# -gt 0 ]; do
  case "$1" in
    --served-model-name) name=$2; shift;;
    --port) port=$2; shift;;
    --model) model=$2; shift;;
  esac
  shift
done
echo "gpus=$CUDA_VISIBLE_DEVICES model=$model" > "{record}/replica-$port"
if [ "$model" = "/broken" ]; then echo "OSError: /broken is not a model folder" >&2; exit 3; fi
# /slow: loads until the test has seen bench say so (the file `go`), however slow the machine; 60 s at most
if [ "$model" = "/slow" ]; then echo "INFO Loading weights took 0.1 s"; echo "INFO Capturing graphs: 40%"
  n=0; while [ ! -e "{record}/go" ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done; fi
echo $$ > "{record}/server-$port.pid"
cd "{root}" && exec "{python}" -m tests.fake_server --port "$port" --model "$name" --latency {latency}
"""


def write_shim(folder: Path, latency: float = 0.0) -> Path:
    """The shim as an executable `folder/fakepython`; its records go to `folder` (replica-PORT, server-PORT.pid)."""
    path = folder / "fakepython"
    path.write_text(SHIM.format(record=folder, root=ROOT, python=sys.executable, latency=latency))
    path.chmod(0o755)
    return path
