#!/usr/bin/env bash
# Runs one NATS server (Debian's nats-server) with JetStream on 127.0.0.1 for quick starts and
# the driver-nats tests. Subcommands: start | stop | status.
#
# State lives under ${PLUMB_STATE_DIR:-<repo>/.plumb}/nats/ and the JetStream store is wiped on
# every start, so each run begins from an empty server. Ports: PLUMB_NATS_PORT (client, 4222) and
# PLUMB_NATS_MONITOR_PORT (HTTP monitoring, 8222, used for the readiness check).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state_dir="${PLUMB_STATE_DIR:-$repo/.plumb}/nats"
port="${PLUMB_NATS_PORT:-4222}"
monitor_port="${PLUMB_NATS_MONITOR_PORT:-8222}"
pid_file="$state_dir/nats.pid"
log_file="$state_dir/nats.log"
store_dir="$state_dir/store"
ready_timeout_s="${PLUMB_NATS_READY_TIMEOUT:-20}"

running_pid() {
  # Prints the PID we recorded if that process is still a nats-server; nothing otherwise.
  [[ -f "$pid_file" ]] || return 1
  local pid
  pid="$(cat "$pid_file" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  grep -q nats-server "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

port_taken() {
  # True when something already listens on 127.0.0.1:$1 (or on all addresses).
  ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

healthy() {
  curl -fsS --max-time 1 "http://127.0.0.1:$monitor_port/healthz" 2>/dev/null | grep -q '"ok"'
}

start() {
  if ! command -v nats-server >/dev/null 2>&1; then
    echo "nats-server not found: run 'apt-get install -y nats-server' (or deploy/local/install-debian-packages.sh)" >&2
    exit 1
  fi
  local pid
  if pid="$(running_pid)"; then
    echo "nats already running (pid $pid, port $port)"
    exit 0
  fi
  for p in "$port" "$monitor_port"; do
    if port_taken "$p"; then
      echo "port $p on 127.0.0.1 is already in use: stop what holds it or set PLUMB_NATS_PORT / PLUMB_NATS_MONITOR_PORT" >&2
      exit 1
    fi
  done
  rm -rf "$store_dir"
  mkdir -p "$store_dir"
  rm -f "$pid_file" "$log_file"
  # nats-server has no daemon mode: detach it into its own session so it outlives this shell.
  setsid nats-server -a 127.0.0.1 -p "$port" -m "$monitor_port" -P "$pid_file" -l "$log_file" \
    -js -sd "$store_dir" </dev/null >/dev/null 2>&1 &
  local launched=$!
  local deadline=$((SECONDS + ready_timeout_s))
  until healthy; do
    if ! kill -0 "$launched" 2>/dev/null; then
      echo "nats-server exited during start; see $log_file:" >&2
      tail -n 5 "$log_file" >&2 2>/dev/null || true
      exit 1
    fi
    if ((SECONDS >= deadline)); then
      echo "nats-server not healthy after ${ready_timeout_s}s; see $log_file" >&2
      kill "$launched" 2>/dev/null || true
      exit 1
    fi
    sleep 0.1
  done
  # The server writes its own PID file; fall back to the PID we launched if it has not yet.
  [[ -s "$pid_file" ]] || echo "$launched" >"$pid_file"
  echo "nats started (pid $(cat "$pid_file"), nats://127.0.0.1:$port, monitor :$monitor_port)"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    echo "nats not running"
    rm -f "$pid_file"
    exit 0
  fi
  kill "$pid"
  local deadline=$((SECONDS + 15))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      echo "nats (pid $pid) did not stop in 15s; sending SIGKILL" >&2
      kill -9 "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  rm -f "$pid_file"
  echo "nats stopped (pid $pid)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    if healthy; then
      echo "nats running (pid $pid, nats://127.0.0.1:$port)"
    else
      echo "nats process running (pid $pid) but not healthy on :$monitor_port"
    fi
  else
    echo "nats not running"
    exit 3
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
