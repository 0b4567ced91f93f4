#!/usr/bin/env bash
# Idempotent set-up: a virtual environment in .venv with wmbench and every extra installed.
# torch is pinned (torch==2.13.0, a CPU wheel on this machine); an unpinned torch pulls CUDA packages.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.wmbench-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet "torch==2.13.0"
  .venv/bin/python -m pip install --quiet -e ".[all,dev]"
  touch "$stamp"
fi
