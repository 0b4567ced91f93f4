#!/usr/bin/env bash
# The test command: sets itself up, then runs ruff and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check wmbench tests benchmarks examples
# -rP shows what passing tests print: the must-show numbers (calibration, caught rates, latencies, ...)
.venv/bin/python -m pytest -q -rP "$@"
