#!/usr/bin/env bash
# A throwaway Redis server in a directory of its own, for tests and local work.
#
#   scripts/redis.sh start DIR [PORT]   start redis-server on 127.0.0.1:PORT (default: a free port), loopback only,
#                                      without persistence, detached (a session of its own) with its pidfile, log
#                                      and config in DIR; wait until it answers and print its URL
#   scripts/redis.sh stop DIR           stop it
#   scripts/redis.sh url DIR            print the URL of the server running in DIR
#   scripts/redis.sh install            install Debian's redis-server package if redis-server is not found
#
# Only the URL goes to stdout; messages go to stderr. The binaries are redis-server and redis-cli from PATH or
# /usr/bin (or HIVE_REDIS_SERVER). HIVE_SERVER_TIMEOUT (seconds, default 60) bounds the wait for start and stop.
# Exit status: 0 done, 1 failed, 2 usage, 3 Redis is not installed and cannot be installed here.
set -euo pipefail

PROG=redis.sh
PACKAGE=redis-server
TIMEOUT=${HIVE_SERVER_TIMEOUT:-60}

say() { echo "$PROG: $*" >&2; }
die() {
  say "$*"
  exit 1
}
usage() {
  sed -n '4,9s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

is_root() { [ "$(id -u)" = 0 ]; }

# Whether process PID exists and is not a zombie.
alive() { [ -e "/proc/$1" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }

find_server() {
  if [ -n "${HIVE_REDIS_SERVER:-}" ]; then
    echo "$HIVE_REDIS_SERVER"
  elif command -v redis-server >/dev/null; then
    command -v redis-server
  elif [ -x /usr/bin/redis-server ]; then
    echo /usr/bin/redis-server
  fi
}

find_cli() {
  local server
  server=$(find_server)
  if [ -x "$(dirname "$server")/redis-cli" ]; then
    echo "$(dirname "$server")/redis-cli"
  elif command -v redis-cli >/dev/null; then
    command -v redis-cli
  fi
}

installed() { [ -n "$(find_server)" ] && [ -x "$(find_server)" ] && [ -n "$(find_cli)" ]; }

# Install Debian's package when Redis is missing and we can (root with apt-get); exit 3 when we cannot.
ensure_installed() {
  if installed; then
    return
  fi
  if [ -n "${HIVE_REDIS_SERVER:-}" ]; then
    say "HIVE_REDIS_SERVER=$HIVE_REDIS_SERVER is not an executable beside a redis-cli"
    exit 3
  fi
  if is_root && command -v apt-get >/dev/null; then
    say "Redis is not installed: installing Debian's $PACKAGE package"
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
    installed && return
    say "the $PACKAGE package is installed but redis-server or redis-cli is still missing"
    exit 3
  fi
  say "Redis is not installed (no redis-server and redis-cli) and cannot be installed here (needs root and" \
    "apt-get): install Debian's $PACKAGE package, e.g. 'sudo apt-get install $PACKAGE'"
  exit 3
}

prepare_dir() {
  mkdir -p "$1"
  DIR=$(cd "$1" && pwd -P)
  PIDFILE=$DIR/redis.pid
  CONF=$DIR/redis.conf
  LOG=$DIR/redis.log
}

# The pid of the server running in DIR, or nothing.
running_pid() {
  local pid
  [ -f "$PIDFILE" ] || return 0
  pid=$(cat "$PIDFILE")
  if [ -n "$pid" ] && alive "$pid" && grep -q redis "/proc/$pid/comm" 2>/dev/null; then
    echo "$pid"
  fi
}

running_port() { sed -n 's/^port //p' "$CONF"; }

url_of() { echo "redis://127.0.0.1:$1/0"; }

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

# The process id the server on PORT reports, or nothing when none answers (in time: whatever listens there may
# not be a Redis).
answering_pid() { timeout 1 "$CLI" -h 127.0.0.1 -p "$1" info server 2>/dev/null | sed -n 's/^process_id:\([0-9]*\).*/\1/p'; }

# Stop redis-server PID (SIGTERM: no save) and wait until it is gone; SIGKILL after TIMEOUT.
kill_server() {
  local pid=$1 waited=0
  kill -TERM "$pid" 2>/dev/null || return 0
  while alive "$pid"; do
    if [ "$waited" -ge "$((TIMEOUT * 10))" ]; then
      say "redis-server (pid $pid) did not stop within ${TIMEOUT}s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  rm -f "$PIDFILE"
}

abort_start() {
  trap - EXIT INT TERM
  if [ -n "$STARTED_PID" ]; then
    kill_server "$STARTED_PID"
  fi
  say "start failed; no server is left running in $DIR"
}

# Start on PORT; 0 when it answers, 1 when the port was taken, else die.
start_on() {
  local port=$1 waited=0 log_lines=0
  cat >"$CONF" <<EOF
# Written by scripts/redis.sh: loopback only, no persistence.
bind 127.0.0.1
port $port
protected-mode yes
daemonize no
pidfile "$PIDFILE"
logfile "$LOG"
dir "$DIR"
save ""
appendonly no
databases 16
EOF
  [ -f "$LOG" ] && log_lines=$(wc -l <"$LOG")
  rm -f "$PIDFILE"
  say "starting redis-server ($("$SERVER" --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')) on 127.0.0.1:$port"
  # Detached in a session of its own (daemonized) but a child of this script, so that its pid is known from the
  # start and its exit is seen at once; it writes the pidfile itself.
  setsid "$SERVER" "$CONF" </dev/null >>"$LOG" 2>&1 &
  STARTED_PID=$!
  while :; do
    if ! alive "$STARTED_PID"; then
      STARTED_PID=
      if tail -n +"$((log_lines + 1))" "$LOG" 2>/dev/null | grep -q 'Address already in use'; then
        return 1
      fi
      tail -n 20 "$LOG" >&2 2>/dev/null || true
      die "redis-server exited during start (log: $LOG)"
    fi
    if [ "$(answering_pid "$port")" = "$STARTED_PID" ] && [ "$(running_pid)" = "$STARTED_PID" ]; then
      STARTED_PID=
      return 0
    fi
    if [ "$waited" -ge "$((TIMEOUT * 20))" ]; then
      tail -n 20 "$LOG" >&2 2>/dev/null || true
      die "redis-server did not answer on 127.0.0.1:$port within ${TIMEOUT}s (log: $LOG)"
    fi
    sleep 0.05
    waited=$((waited + 1))
  done
}

cmd_start() {
  local port=${2:-} attempt chosen
  case "$port" in
    '' | [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9]) ;;
    *) die "not a port number: $port" ;;
  esac
  ensure_installed
  SERVER=$(find_server)
  CLI=$(find_cli)
  prepare_dir "$1"
  if [ -n "$(running_pid)" ]; then
    # started before, by another command or person: its URL is not printed on stdout as if this start made it
    die "a server started earlier is already running in $DIR, on port $(running_port) ($(url_of "$(running_port)")): it is not one this command started; use it (url $DIR), stop it (stop $DIR) first, or choose another DIR"
  fi
  STARTED_PID=
  trap abort_start EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  for attempt in 1 2 3 4 5; do
    chosen=${port:-$(pick_port)}
    if start_on "$chosen"; then
      trap - EXIT INT TERM
      url_of "$chosen"
      return
    fi
    if [ -n "$port" ] || [ "$attempt" = 5 ]; then
      die "port $chosen is taken"
    fi
    say "port $chosen was taken meanwhile; trying another"
  done
}

cmd_stop() {
  local pid
  [ -d "$1" ] || die "no such directory: $1"
  prepare_dir "$1"
  pid=$(running_pid)
  if [ -z "$pid" ]; then
    say "no server is running in $DIR"
    return
  fi
  kill_server "$pid"
  say "stopped the server in $DIR"
}

cmd_url() {
  [ -d "$1" ] || die "no such directory: $1"
  prepare_dir "$1"
  [ -n "$(running_pid)" ] || die "no server is running in $DIR"
  url_of "$(running_port)"
}

while [ $# -gt 0 ]; do
  case "$1" in
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
