#!/usr/bin/env bash
# Idempotent: creates .venv with irisrl and everything its tests and local launches need.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
if ! .venv/bin/python -c "import irisrl, iris, ray, s3fs, moto, hydra, huggingface_hub, daytona" 2>/dev/null \
   || [ pyproject.toml -nt .venv/.irisrl-installed ] || [ constraints.txt -nt .venv/.irisrl-installed ]; then
  # This machine's pip config lists local indexes that may be absent: drop those warnings.
  # constraints.txt pins the tested versions (pyproject.toml has ranges): reproducible installs.
  .venv/bin/pip install -q --disable-pip-version-check -c constraints.txt -e ".[iris,runtime,observe,test]" 2>&1 \
    | grep -v "^WARNING: Location 'file://" || true
  .venv/bin/python -c "import irisrl, iris, ray, s3fs, moto, hydra, huggingface_hub, daytona" || { echo "install incomplete" >&2; exit 1; }
  touch .venv/.irisrl-installed
fi
# This machine sets PYTHONDONTWRITEBYTECODE=1; precompile so cold CLI starts stay fast.
.venv/bin/python -m compileall -q -j 2 src >/dev/null || true
