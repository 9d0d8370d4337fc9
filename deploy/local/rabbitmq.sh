#!/usr/bin/env bash
# Runs a single RabbitMQ node on 127.0.0.1 for local benchmarks and driver tests.
#
#   deploy/local/rabbitmq.sh start|stop|status
#
# The Debian wrapper (/usr/sbin/rabbitmq-server) switches to the rabbitmq user and writes to
# /var/log, so the node runs as the current user from /usr/lib/rabbitmq/bin with every file
# (cookie, mnesia, logs, config, plugins, pid) under ${PLUMB_STATE_DIR:-<repo>/.plumb}/rabbitmq.
# Ports: AMQP 5672, stream protocol 5552, management HTTP 15672, Erlang distribution 25672.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${PLUMB_STATE_DIR:-$REPO/.plumb}/rabbitmq"
RMQ_BIN=/usr/lib/rabbitmq/bin
AMQP_PORT=5672
STREAM_PORT=5552
MGMT_PORT=15672
DIST_PORT=25672
EPMD_PORT=4369
PID_FILE="$STATE/rabbitmq.pid"
EPMD_PID_FILE="$STATE/epmd.pid"

die() {
  echo "rabbitmq.sh: $*" >&2
  exit 1
}

# The server and the CLI must agree on node name, cookie (in $HOME) and file locations.
rabbit_env() {
  export HOME="$STATE/home"
  export RABBITMQ_NODENAME=plumb@localhost
  export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  export RABBITMQ_NODE_PORT=$AMQP_PORT
  export RABBITMQ_DIST_PORT=$DIST_PORT
  export ERL_EPMD_ADDRESS=127.0.0.1
  export ERL_EPMD_PORT=$EPMD_PORT
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
  export RABBITMQ_MNESIA_BASE="$STATE/mnesia"
  export RABBITMQ_LOG_BASE="$STATE/log"
  export RABBITMQ_CONFIG_FILE="$STATE/rabbitmq.conf"
  export RABBITMQ_ENABLED_PLUGINS_FILE="$STATE/enabled_plugins"
  export RABBITMQ_PID_FILE="$PID_FILE"
  export RABBITMQ_CONF_ENV_FILE="$STATE/rabbitmq-env.conf"
}

running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -d '[:space:]' <"$PID_FILE")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

port_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

epmd_running() {
  port_taken "$EPMD_PORT"
}

start() {
  if pid="$(running_pid)"; then
    echo "rabbitmq already running (pid $pid)"
    return 0
  fi
  [[ -x "$RMQ_BIN/rabbitmq-server" ]] ||
    die "RabbitMQ is not installed; run: sudo apt-get install -y rabbitmq-server"
  for port in $AMQP_PORT $STREAM_PORT $MGMT_PORT $DIST_PORT; do
    port_taken "$port" && die "port 127.0.0.1:$port is already in use by another process"
  done

  # A clean node each time: queues left by an earlier run would skew the next one.
  rm -rf "$STATE"
  mkdir -p "$STATE/home" "$STATE/mnesia" "$STATE/log"
  cat >"$STATE/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$AMQP_PORT
stream.listeners.tcp.1 = 127.0.0.1:$STREAM_PORT
stream.advertised_host = 127.0.0.1
stream.advertised_port = $STREAM_PORT
management.tcp.ip = 127.0.0.1
management.tcp.port = $MGMT_PORT
loopback_users = none
EOF
  echo '[rabbitmq_management,rabbitmq_stream].' >"$STATE/enabled_plugins"
  : >"$STATE/rabbitmq-env.conf"

  rabbit_env
  # epmd outlives the node. Start it here (unless one already runs) and keep its PID, so stop
  # ends exactly the epmd this script started and leaves anyone else's alone.
  if ! epmd_running; then
    command -v epmd >/dev/null || die "epmd not found; run: sudo apt-get install -y erlang-base"
    setsid epmd -address 127.0.0.1 -port "$EPMD_PORT" >"$STATE/log/epmd.out" 2>&1 </dev/null &
    echo $! >"$EPMD_PID_FILE"
    for _ in $(seq 1 50); do
      epmd_running && break
      sleep 0.1
    done
  fi
  "$RMQ_BIN/rabbitmq-server" -detached >"$STATE/log/detached.out" 2>&1 ||
    die "rabbitmq-server failed to start; see $STATE/log"
  # -detached returns before the node exists; await_startup fails at once on a node that has not
  # registered yet, so first wait (bounded) for the node to write its PID file.
  for _ in $(seq 1 600); do
    [[ -s "$PID_FILE" ]] && break
    sleep 0.1
  done
  [[ -s "$PID_FILE" ]] || die "rabbitmq wrote no PID file within 60 s; see $STATE/log"
  if ! "$RMQ_BIN/rabbitmqctl" await_startup --timeout 120 >"$STATE/log/await.out" 2>&1; then
    die "rabbitmq did not become ready within 120 s; see $STATE/log"
  fi
  echo "rabbitmq started (pid $(running_pid)) amqp://127.0.0.1:$AMQP_PORT stream 127.0.0.1:$STREAM_PORT"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    echo "rabbitmq not running"
    rm -f "$PID_FILE"
    stop_epmd
    return 0
  fi
  kill "$pid"
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  stop_epmd
  echo "rabbitmq stopped (pid $pid)"
}

# Only the epmd this script started, by the PID it recorded.
stop_epmd() {
  [[ -f "$EPMD_PID_FILE" ]] || return 0
  local epid
  epid="$(tr -d '[:space:]' <"$EPMD_PID_FILE")"
  if [[ -n "$epid" ]] && kill -0 "$epid" 2>/dev/null; then
    kill "$epid" 2>/dev/null || true
  fi
  rm -f "$EPMD_PID_FILE"
}

status() {
  if pid="$(running_pid)"; then
    echo "rabbitmq running (pid $pid)"
  else
    echo "rabbitmq not running"
    return 3
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
