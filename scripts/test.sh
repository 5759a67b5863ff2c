#!/usr/bin/env bash
# Install the project, its optional parts (RL, cluster, docs) and its test tools into .venv (compiling the hot core),
# then run lint, type checks and the test suite against the compiled build, and again the tests of what the two builds
# differ in against the plain Python sources (HIVE_PURE=1); the tests of the server, the page, the deployment files
# and the documentation, the arena and hive tune (marked once) run in the compiled pass only.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m slow` for the deep checks.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,rl,cluster,docs,server]'
# Debian packages the tests use: the browser tests drive Debian's Chromium through Playwright (no browser download);
# the deployment tests check the Caddyfile with Caddy itself (`caddy adapt`). Installed when missing (root with apt-get).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v caddy >/dev/null || missing+=(caddy)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing ${missing[*]} (Debian packages) for the tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "!! ${missing[*]} missing and cannot be installed here (needs root and apt-get):" >&2
    echo "!! run 'sudo apt-get install ${missing[*]}'; until then the tests that need them are skipped." >&2
  fi
fi
# The storage tests run against real PostgreSQL and Redis servers, which tests/servers.py starts with
# scripts/postgres.sh and scripts/redis.sh: Debian's postgresql and redis-server packages, installed here when missing
# (root with apt-get) as chromium is; otherwise the scripts name the package and those tests are skipped.
for server in postgres redis; do
  if ! bash "scripts/$server.sh" install; then
    echo "!! until then the tests that need $server are skipped (or fail where CI or HIVE_REQUIRE_SERVERS=1 is set)." >&2
  fi
done
# The accessibility test runs axe-core (the npm package, its version pinned in scripts/axe.sh) in the browser:
# installed with the machine's npm into .venv/axe when missing.
if ! bash scripts/axe.sh install; then
  echo "!! until then the accessibility test (tests/web/test_accessibility.py) is skipped." >&2
fi
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
# The tests run on as many workers as the machine has cores, up to four (pytest-xdist); a test marked timing runs
# alone (tests/turns.py). `-n 0` (given last) runs them in this one process.
PARALLEL=(-n auto --maxprocesses 4 --dist worksteal)
echo "== pytest, $(.venv/bin/hive --version)"
.venv/bin/pytest "${PARALLEL[@]}" "$@"
echo "== pytest, $(HIVE_PURE=1 .venv/bin/hive --version): the tests of what the builds differ in"
# The apps' tests (server, page, arena, hive tune), the deployment's and the docs' (marked once) ran above.
HIVE_PURE=1 .venv/bin/pytest "${PARALLEL[@]}" -m "not slow and not once" "$@"
