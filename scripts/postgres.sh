#!/usr/bin/env bash
# A throwaway PostgreSQL server in a directory of its own, for tests and local work.
#
#   scripts/postgres.sh [--fast] start DIR [PORT]   create a cluster in DIR/data if there is none (UTF-8, user
#                                                  postgres, trust on loopback and the unix socket), start it on
#                                                  127.0.0.1:PORT (default: a free port) with its unix socket in
#                                                  DIR, wait until it accepts connections and print its URL
#   scripts/postgres.sh stop DIR                   stop it (fast shutdown)
#   scripts/postgres.sh url DIR                    print the URL of the server running in DIR
#   scripts/postgres.sh install                    install Debian's postgresql package if no PostgreSQL is found
#
# --fast (or HIVE_PG_FAST=1) trades durability for speed: fsync, synchronous_commit and full_page_writes off, and
# initdb does not sync; the WAL is kept under 256 MB (for a cluster on tmpfs). Only the URL goes to stdout; messages go to stderr. The server's log is DIR/postgres.log.
# The binaries are Debian's, the newest in /usr/lib/postgresql/*/bin (or HIVE_PG_BINDIR). PostgreSQL refuses to
# run as root: run as root, the cluster belongs to and runs as the postgres user, and DIR is given to it.
# HIVE_SERVER_TIMEOUT (seconds, default 60) bounds the wait for start and stop.
# Exit status: 0 done, 1 failed, 2 usage, 3 PostgreSQL is not installed and cannot be installed here.
set -euo pipefail

PROG=postgres.sh
PACKAGE=postgresql
TIMEOUT=${HIVE_SERVER_TIMEOUT:-60}
FAST=${HIVE_PG_FAST:-0}
RUN_AS=postgres

say() { echo "$PROG: $*" >&2; }
die() {
  say "$*"
  exit 1
}
usage() {
  sed -n '4,10s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

is_root() { [ "$(id -u)" = 0 ]; }

# The bin directory of the newest PostgreSQL installed (or of VERSION when given); empty when there is none.
find_bindir() {
  local version=${1:-} dir
  if [ -n "${HIVE_PG_BINDIR:-}" ]; then
    [ -x "$HIVE_PG_BINDIR/postgres" ] && echo "$HIVE_PG_BINDIR"
    return 0
  fi
  if [ -n "$version" ]; then
    dir=/usr/lib/postgresql/$version/bin
    [ -x "$dir/postgres" ] && echo "$dir"
    return 0
  fi
  for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -t/ -k5,5 -V -r); do
    if [ -x "$dir/postgres" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return
    fi
  done
}

# Install Debian's package when PostgreSQL is missing and we can (root with apt-get); exit 3 when we cannot.
ensure_installed() {
  if [ -n "$(find_bindir)" ]; then
    return
  fi
  if [ -n "${HIVE_PG_BINDIR:-}" ]; then
    say "HIVE_PG_BINDIR=$HIVE_PG_BINDIR holds no PostgreSQL (postgres, initdb, pg_ctl)"
    exit 3
  fi
  if is_root && command -v apt-get >/dev/null; then
    say "PostgreSQL is not installed: installing Debian's $PACKAGE package"
    local log
    log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      -o DPkg::Lock::Timeout=300 "$PACKAGE"; } >"$log" 2>&1; then
      cat "$log" >&2
      rm -f "$log"
      say "apt-get install $PACKAGE failed"
      exit 3
    fi
    rm -f "$log"
    [ -n "$(find_bindir)" ] && return
    say "the $PACKAGE package is installed but /usr/lib/postgresql/*/bin/postgres is still missing"
    exit 3
  fi
  say "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres) and cannot be installed here" \
    "(needs root and apt-get): install Debian's $PACKAGE package, e.g. 'sudo apt-get install $PACKAGE'"
  exit 3
}

# Run a command as the cluster's owner: the postgres user when we are root, else ourselves.
as_owner() {
  if is_root; then
    runuser -u "$RUN_AS" -- "$@"
  else
    "$@"
  fi
}

# DIR made absolute (created if need be) and, when we are root, handed to the postgres user.
prepare_dir() {
  mkdir -p "$1"
  DIR=$(cd "$1" && pwd -P)
  DATA=$DIR/data
  LOG=$DIR/postgres.log
  if is_root; then
    getent passwd "$RUN_AS" >/dev/null ||
      die "running as root, the server must run as the '$RUN_AS' user, which does not exist (the $PACKAGE package creates it)"
    command -v runuser >/dev/null || die "running as root needs runuser (util-linux) to run the server as '$RUN_AS'"
    chown "$RUN_AS": "$DIR"
    runuser -u "$RUN_AS" -- test -w "$DIR" -a -x "$DIR" ||
      die "the '$RUN_AS' user cannot use $DIR: every directory above it must be searchable by others (chmod o+x), e.g. use a directory made by mktemp -d under /tmp"
  fi
  # The tools are run from DIR, so that a working directory the server's user cannot read does not matter.
  cd "$DIR"
}

bindir_for_cluster() {
  local bindir
  if [ -f "$DATA/PG_VERSION" ]; then
    bindir=$(find_bindir "$(cat "$DATA/PG_VERSION")")
    [ -n "$bindir" ] || die "the cluster in $DATA is PostgreSQL $(cat "$DATA/PG_VERSION"), which is not installed"
  else
    bindir=$(find_bindir)
  fi
  echo "$bindir"
}

is_running() { [ -f "$DATA/postmaster.pid" ] && as_owner "$BINDIR/pg_ctl" status -D "$DATA" >/dev/null 2>&1; }

# The port of the running server, from its postmaster.pid (line 4).
running_port() { sed -n 4p "$DATA/postmaster.pid"; }

url_of() { echo "postgresql://postgres@127.0.0.1:$1/postgres"; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port with no listener on 127.0.0.1, below Linux's ephemeral range.
pick_port() {
  local port _
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 12000))
    if ! port_in_use "$port"; then
      echo "$port"
      return
    fi
  done
  die "found no free port on 127.0.0.1"
}

# Undo a start that did not finish: stop whatever server it left behind and remove a cluster it created.
abort_start() {
  local pid
  trap - EXIT INT TERM
  if [ -f "$DATA/postmaster.pid" ]; then
    as_owner "$BINDIR/pg_ctl" stop -D "$DATA" -m immediate -w -t 10 >/dev/null 2>&1 || true
    pid=$(sed -n 1p "$DATA/postmaster.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  if [ "$CREATED" = 1 ]; then
    rm -rf "$DATA"
  fi
  say "start failed; no server is left running in $DIR"
}

cmd_start() {
  local port=${2:-} socket_path options log_lines attempt chosen
  [ -n "$1" ] || usage
  case "$port" in
    '' | [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9]) ;;
    *) die "not a port number: $port" ;;
  esac
  ensure_installed
  prepare_dir "$1"
  BINDIR=$(bindir_for_cluster)
  if is_running; then
    # started before, by another command or person: its URL is not printed on stdout as if this start made it
    die "a server started earlier is already running in $DIR, on port $(running_port) ($(url_of "$(running_port)")): it is not one this command started; use it (url $DIR), stop it (stop $DIR) first, or choose another DIR"
  fi
  # The unix socket's path (DIR/.s.PGSQL.PORT) must fit in sockaddr_un (107 bytes).
  socket_path="$DIR/.s.PGSQL.65535"
  [ "${#socket_path}" -le 107 ] || die "$DIR is too long a path for the server's unix socket (at most 92 characters)"

  CREATED=0
  trap abort_start EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  if [ ! -f "$DATA/PG_VERSION" ]; then
    if [ -e "$DATA" ] && [ -n "$(ls -A "$DATA")" ]; then
      trap - EXIT
      die "$DATA exists but holds no cluster (an interrupted initdb?): remove it and start again"
    fi
    CREATED=1
    local init_options=(-D "$DATA" -U postgres -A trust -E UTF8 --no-instructions)
    if locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8'; then
      init_options+=(--locale=C.UTF-8)
    else
      init_options+=(--locale=C)
    fi
    [ "$FAST" = 1 ] && init_options+=(--no-sync)
    say "creating a cluster in $DATA"
    if ! as_owner "$BINDIR/initdb" "${init_options[@]}" >"$DIR/initdb.log" 2>&1; then
      cat "$DIR/initdb.log" >&2
      die "initdb failed"
    fi
    cat >>"$DATA/postgresql.conf" <<EOF

# Set by scripts/postgres.sh: loopback only, the unix socket beside the cluster.
listen_addresses = '127.0.0.1'
unix_socket_directories = '${DIR//\'/\'\'}'
EOF
  fi

  options=""
  [ "$FAST" = 1 ] && options=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_wal_size=256MB"
  for attempt in 1 2 3 4 5; do
    chosen=${port:-$(pick_port)}
    log_lines=0
    [ -f "$LOG" ] && log_lines=$(wc -l <"$LOG")
    say "starting PostgreSQL ($("$BINDIR/postgres" --version | sed 's/^[^0-9]*\([^ ]*\).*/\1/')) on 127.0.0.1:$chosen"
    if as_owner "$BINDIR/pg_ctl" start -D "$DATA" -l "$LOG" -w -t "$TIMEOUT" -s -o "-p $chosen$options" >&2; then
      if ! "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$chosen" -t "$TIMEOUT"; then
        die "the server started but does not accept connections on 127.0.0.1:$chosen"
      fi
      trap - EXIT INT TERM
      url_of "$chosen"
      return
    fi
    # A port picked for us may have been taken meanwhile: pick another.
    if [ -z "$port" ] && tail -n +"$((log_lines + 1))" "$LOG" 2>/dev/null | grep -q 'Address already in use' &&
      [ "$attempt" -lt 5 ]; then
      say "port $chosen was taken meanwhile; trying another"
      continue
    fi
    tail -n 20 "$LOG" >&2 2>/dev/null || true
    die "the server did not start (log: $LOG)"
  done
}

cmd_stop() {
  [ -n "$1" ] || usage
  [ -d "$1" ] || die "no such directory: $1"
  prepare_dir "$1"
  BINDIR=$(bindir_for_cluster)
  [ -n "$BINDIR" ] || die "PostgreSQL is not installed"
  if ! is_running; then
    say "no server is running in $DIR"
    return
  fi
  if ! as_owner "$BINDIR/pg_ctl" stop -D "$DATA" -m fast -w -t "$TIMEOUT" -s >&2; then
    say "the server did not stop within ${TIMEOUT}s: stopping it immediately"
    as_owner "$BINDIR/pg_ctl" stop -D "$DATA" -m immediate -w -t "$TIMEOUT" -s >&2 || die "could not stop the server in $DIR"
  fi
  say "stopped the server in $DIR"
}

cmd_url() {
  [ -n "$1" ] || usage
  [ -d "$1" ] || die "no such directory: $1"
  prepare_dir "$1"
  BINDIR=$(bindir_for_cluster)
  if [ -z "$BINDIR" ] || ! is_running; then
    die "no server is running in $DIR"
  fi
  url_of "$(running_port)"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --fast) FAST=1 ;;
    -h | --help) usage ;;
    -*) say "unknown option: $1" && usage ;;
    *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || usage
command=$1
shift
case "$command:$#" in
  start:1 | start:2) cmd_start "$@" ;;
  stop:1) cmd_stop "$1" ;;
  url:1) cmd_url "$1" ;;
  install:0) ensure_installed ;;
  start:* | stop:* | url:* | install:*) usage ;;
  *)
    say "unknown command: $command"
    usage
    ;;
esac
