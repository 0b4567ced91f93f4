#!/usr/bin/env bash
# Idempotent set-up of .venv for one of two jobs:
#   bash scripts/setup.sh        "run":  wmbench + the report extra (matplotlib): what scripts/run_suite.sh needs.
#                                        No torch, no transformers (~0.5 GB of .venv instead of ~3 GB).
#   bash scripts/setup.sh test   "test": every extra + dev tools (`.[all,dev]`), for scripts/test.sh / CI.
#                                        torch is installed CPU-only on purpose (plain `torch` from PyPI is
#                                        the CUDA build, several GB): first whatever local wheel the pip
#                                        configuration offers (offline, fast), else PyTorch's CPU index (short
#                                        time-out), else the pin from the configured index as a last resort.
# PYTHON=python3.11 picks the interpreter (3.10 or 3.11 recommended: see README, "Supported platforms").
# A first set-up checks the free disk space before it starts (1 GB for "run", 4.5 GB for "test", whose .venv is
# ~3 GB): too little is one line naming what is needed and what is free, instead of pip's "No space left on
# device" minutes later.
# WMBENCH_SETUP_SKIP_SPACE_CHECK=1 skips that check.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${1:-run}
TORCH_PIN="torch==2.13.0"
TORCH_CPU_INDEX=${WMBENCH_TORCH_CPU_INDEX:-https://download.pytorch.org/whl/cpu}
case "$PROFILE" in
  run) EXTRAS="report"; NEEDS_MB=1024 ;;
  test) EXTRAS="all,dev"; NEEDS_MB=4608 ;;
  *) echo "scripts/setup.sh: unknown profile '$PROFILE'; expected 'run' (default) or 'test'" >&2; exit 2 ;;
esac
PY=${PYTHON:-python3}
# The interpreter first (issue 24 item 16): a wrong one must fail in a second with one line, not after a minute
# of pip, and a .venv made by a wrong one (or by another PYTHON than the one asked for) is made again.
py_version() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null; }
py_supported() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; }
if ! command -v "$PY" >/dev/null 2>&1; then
  echo "scripts/setup.sh: expected a Python 3.10 or newer interpreter, got PYTHON='$PY', which is not on PATH" \
       "(e.g. PYTHON=python3.11)" >&2
  exit 2
fi
if ! py_supported "$PY"; then
  echo "scripts/setup.sh: expected Python 3.10 or newer (3.10/3.11 recommended), got $PY = Python" \
       "$(py_version "$PY" || echo '?'); pick another with PYTHON=python3.11" >&2
  exit 2
fi
stamp=.venv/.wmbench-installed-$PROFILE
if [ ! -f "$stamp" ] && [ "${WMBENCH_SETUP_SKIP_SPACE_CHECK:-0}" != 1 ]; then
  read -r free_kb mount_point < <(df -Pk . 2>/dev/null | awk 'NR==2 {print $4, $6}') || true
  # a df that cannot tell (no number): no check
  if [[ "${free_kb:-}" =~ ^[0-9]+$ ]] && (( free_kb / 1024 < NEEDS_MB )); then
    echo "scripts/setup.sh: expected at least $NEEDS_MB MB free for the '$PROFILE' set-up of .venv, found" \
         "$(( free_kb / 1024 )) MB free on $mount_point; free some space and run again" \
         "(or WMBENCH_SETUP_SKIP_SPACE_CHECK=1)" >&2
    exit 2
  fi
fi
if [ -e .venv ]; then
  venv_version=$( [ -x .venv/bin/python ] && py_version .venv/bin/python || echo "broken")
  wanted_version=$(py_version "$PY")
  if ! [ -x .venv/bin/python ] || ! py_supported .venv/bin/python \
      || { [ -n "${PYTHON:-}" ] && [ "$venv_version" != "$wanted_version" ]; }; then
    echo "scripts/setup.sh: .venv is Python $venv_version, expected $wanted_version ($PY): making .venv again" >&2
    rm -rf .venv
  fi
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
pip_install() { .venv/bin/python -m pip install --quiet "$@"; }

install_cpu_torch() {
  if .venv/bin/python -c "import importlib.metadata as m, sys; sys.exit(m.version('torch') != '${TORCH_PIN#torch==}')" \
      2>/dev/null; then
    return 0  # already there
  fi
  if pip_install --no-index --no-deps "$TORCH_PIN" 2>/dev/null; then
    pip_install "$TORCH_PIN"  # a local wheel (find-links; here the CPU build) is in: now its dependencies
    return 0
  fi
  if pip_install --timeout 15 --retries 1 --index-url "$TORCH_CPU_INDEX" "$TORCH_PIN"; then
    return 0
  fi
  echo "scripts/setup.sh: PyTorch's CPU index ($TORCH_CPU_INDEX) was not reachable; installing $TORCH_PIN" \
       "from the configured index (on Linux x86-64 PyPI's torch is the larger CUDA build)" >&2
  pip_install "$TORCH_PIN"
}

if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  if [ ! -f "$stamp" ]; then
    echo "setting up .venv (first run only)" >&2
  else
    echo "updating .venv (pyproject.toml changed)" >&2
  fi
  pip_install --upgrade pip
  if [ "$PROFILE" = test ]; then
    install_cpu_torch
  fi
  pip_install -e ".[$EXTRAS]"
  touch "$stamp"
  if [ "$PROFILE" = test ]; then
    touch .venv/.wmbench-installed-run  # every extra includes the run profile's
  fi
fi
# wmbench's own bytecode, written here once: an editable install leaves the package uncompiled, and where
# PYTHONDONTWRITEBYTECODE is set (as on this project's CI machines) Python never writes it, so every process a
# run or the test suite starts (pool workers, `wmbench` subprocesses) would compile ~300 modules again (~0.5 s of
# CPU each). Only files whose source changed are compiled again; a stale .pyc is never used (Python checks it).
.venv/bin/python -m compileall -q -j 0 wmbench
