#!/usr/bin/env bash
# The test command: sets itself up (every extra, CPU-only torch: scripts/setup.sh test), then runs ruff, the
# type checker (mypy, configured in pyproject.toml's [tool.mypy]: wmbench/, benchmarks/, examples/), builds the
# documentation site (mkdocs --strict) and runs the whole test suite. Quiet by default; extra arguments go to
# pytest, e.g. `bash scripts/test.sh -rP` also prints what passing tests print (the must-show numbers:
# calibration, caught rates, latencies, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
.venv/bin/ruff check wmbench tests benchmarks examples
.venv/bin/mypy
# the documentation site (mkdocs.yml): warnings are errors, internal links and anchors are checked, no network
site_dir=$(mktemp -d)
NO_MKDOCS_2_WARNING=1 .venv/bin/python -m mkdocs build --strict --quiet --site-dir "$site_dir"
rm -rf "$site_dir"
.venv/bin/python -m pytest -q "$@"
