#!/usr/bin/env bash
# Runs one Redis server (Debian's redis-server) on 127.0.0.1 for quick starts and the
# driver-redis tests. Subcommands: start | stop | status.
#
# State lives under ${PLUMB_STATE_DIR:-<repo>/.plumb}/redis/, wiped on every start. The server
# starts with no snapshots and no AOF; durability variants are applied by the driver with CONFIG SET
# (see driver-redis/README.md). Port: PLUMB_REDIS_PORT (6379).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state_dir="${PLUMB_STATE_DIR:-$repo/.plumb}/redis"
port="${PLUMB_REDIS_PORT:-6379}"
pid_file="$state_dir/redis.pid"
log_file="$state_dir/redis.log"
data_dir="$state_dir/data"
ready_timeout_s="${PLUMB_REDIS_READY_TIMEOUT:-20}"

running_pid() {
  [[ -f "$pid_file" ]] || return 1
  local pid
  pid="$(cat "$pid_file" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  grep -q redis-server "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

port_taken() {
  ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

answers_ping() {
  [[ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" == "PONG" ]]
}

start() {
  for bin in redis-server redis-cli; do
    if ! command -v "$bin" >/dev/null 2>&1; then
      echo "$bin not found: run 'apt-get install -y redis-server redis-tools' (or deploy/local/install-debian-packages.sh)" >&2
      exit 1
    fi
  done
  local pid
  if pid="$(running_pid)"; then
    echo "redis already running (pid $pid, port $port)"
    exit 0
  fi
  if port_taken "$port"; then
    echo "port $port on 127.0.0.1 is already in use: stop what holds it or set PLUMB_REDIS_PORT" >&2
    exit 1
  fi
  rm -rf "$data_dir"
  mkdir -p "$data_dir"
  rm -f "$pid_file" "$log_file"
  if ! redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize yes \
    --pidfile "$pid_file" --dir "$data_dir" --logfile "$log_file"; then
    echo "redis-server failed to start; see $log_file" >&2
    exit 1
  fi
  local deadline=$((SECONDS + ready_timeout_s))
  until answers_ping; do
    if ((SECONDS >= deadline)); then
      echo "redis-server did not answer PING after ${ready_timeout_s}s; see $log_file" >&2
      exit 1
    fi
    sleep 0.1
  done
  # With --daemonize the PID file appears right after the fork; wait briefly for it.
  deadline=$((SECONDS + 5))
  until [[ -s "$pid_file" ]]; do
    if ((SECONDS >= deadline)); then
      echo "redis answers but wrote no PID file at $pid_file" >&2
      exit 1
    fi
    sleep 0.05
  done
  echo "redis started (pid $(cat "$pid_file"), 127.0.0.1:$port)"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    echo "redis not running"
    rm -f "$pid_file"
    exit 0
  fi
  kill "$pid"
  local deadline=$((SECONDS + 15))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      echo "redis (pid $pid) did not stop in 15s; sending SIGKILL" >&2
      kill -9 "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  rm -f "$pid_file"
  echo "redis stopped (pid $pid)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    if answers_ping; then
      echo "redis running (pid $pid, 127.0.0.1:$port)"
    else
      echo "redis process running (pid $pid) but not answering PING on :$port"
    fi
  else
    echo "redis not running"
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
