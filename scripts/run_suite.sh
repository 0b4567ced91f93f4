#!/usr/bin/env bash
# The main job: the full scenario suite on the embedded default brain (reference) and body (smpl).
# No API key needed. Ends by printing the path of report.html.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh  # the "run" profile: wmbench + the report extra, no torch
.venv/bin/wmbench run --brain reference --body smpl --scenarios all --out "${1:-runs/default}"
