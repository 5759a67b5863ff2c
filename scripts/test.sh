#!/usr/bin/env bash
# Install the project and its test tools into .venv (compiling the hot core), then run lint, type checks and the
# test suite twice: against the compiled build and against the plain Python sources (HIVE_PURE=1).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m slow` for the deep checks.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest, $(.venv/bin/hive --version)"
.venv/bin/pytest "$@"
echo "== pytest, $(HIVE_PURE=1 .venv/bin/hive --version)"
HIVE_PURE=1 .venv/bin/pytest "$@"
