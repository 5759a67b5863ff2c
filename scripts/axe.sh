#!/usr/bin/env bash
# axe-core (Deque's accessibility rules, the npm package), for tests/web/test_accessibility.py.
#
#   scripts/axe.sh install   install axe-core@VERSION with npm into .venv/axe (git-ignored) unless it is there
#   scripts/axe.sh path      print the path of axe.min.js (exit 3 when it is not installed)
#
# The version is pinned below; a copy of another version is replaced. Messages go to stderr.
# Exit status: 0 done, 1 failed, 2 usage, 3 axe-core is not installed and cannot be installed here (no npm).
set -euo pipefail
cd "$(dirname "$0")/.."

PROG=axe.sh
VERSION=4.14.1
PREFIX=.venv/axe
PACKAGE_DIR=$PREFIX/node_modules/axe-core
SCRIPT=$PACKAGE_DIR/axe.min.js

say() { echo "$PROG: $*" >&2; }
usage() {
  sed -n '4,5s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

# The version of the copy in .venv/axe; empty when there is none.
installed_version() {
  [ -f "$SCRIPT" ] && [ -f "$PACKAGE_DIR/package.json" ] || return 0
  sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$PACKAGE_DIR/package.json" | head -n 1
}

cmd_install() {
  if [ "$(installed_version)" = "$VERSION" ]; then
    return
  fi
  if ! command -v npm >/dev/null; then
    echo "!! npm is missing, so axe-core@$VERSION cannot be installed into $PREFIX for the accessibility test:" >&2
    echo "!! run 'sudo apt-get install npm' (Debian) and 'bash scripts/axe.sh install'." >&2
    exit 3
  fi
  say "installing axe-core@$VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  if ! npm install --prefix "$PREFIX" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "axe-core@$VERSION" >&2; then
    echo "!! npm install axe-core@$VERSION failed (is the npm registry reachable?)." >&2
    exit 1
  fi
  if [ "$(installed_version)" != "$VERSION" ]; then
    echo "!! npm ran but $SCRIPT of version $VERSION is still missing." >&2
    exit 1
  fi
}

cmd_path() {
  if [ "$(installed_version)" != "$VERSION" ]; then
    say "axe-core@$VERSION is not installed: run 'bash scripts/axe.sh install'"
    exit 3
  fi
  echo "$PWD/$SCRIPT"
}

[ $# -eq 1 ] || usage
case "$1" in
  install) cmd_install ;;
  path) cmd_path ;;
  -h | --help) usage ;;
  *)
    say "unknown command: $1"
    usage
    ;;
esac
