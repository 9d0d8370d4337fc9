#!/usr/bin/env bash
# shellcheck disable=SC2153 # plumb_settings (lib/settings.sh) sets PORT and the others
# Runs NATS with JetStream on 127.0.0.1: one server by default (quick starts and the driver-nats
# tests), or a cluster of N servers with clustered JetStream for the replicated driver files. Every
# server is a process of its own, with its own store, log and state file, so a fault can kill,
# freeze or restart one node alone.
#
#   deploy/local/nats.sh start [--nodes N] [--sync always|default] [--power-loss-layer]
#                                            start 1 (default) or N nodes from empty stores
#   deploy/local/nats.sh stop                stop every node (and unmount the power-loss layers)
#   deploy/local/nats.sh status              list every node; exit 0 all run, 1 some, 3 none
#   deploy/local/nats.sh stop-node N         stop node N of the running cluster
#   deploy/local/nats.sh start-node N        restart node N with the store it has; returns once
#                                            it is current with the JetStream meta leader (its
#                                            streams may still be catching up)
#   deploy/local/nats.sh server              print the pinned nats-server's path (built if needed)
#
# The server is nats-server $NATS_SERVER_VERSION (below), built once with `go install` from the Go
# module proxy into <repo>/.plumb/bin/nats-server and built again only when the pin changes
# (Debian's package is 2.9.10, three years old, and has no sync_interval setting).
#
# --sync sets JetStream's sync_interval on every node: `default` leaves NATS's own (the file store
# is fsynced every 2 minutes, in the background; a publish is acknowledged before its data is on
# disk), `always` fsyncs every write before it is acknowledged. `start` reads the setting back
# from every node's /varz and fails when a node reports another.
#
# --power-loss-layer mounts deploy/power-loss's layer over each node's store (backed by
# nodes/<n>/durable), so that a fault plan's power-loss can drop what a node wrote and did not
# fsync. What the start wrote is made durable once the cluster is up, as on a machine that has run
# a while; from then on only an fsync makes data durable. `stop` unmounts the layers (everything
# synced). Where FUSE is not available the start says so in one line and starts nothing.
#
# Node n (1-based) listens on client port PLUMB_NATS_PORT+n-1 (4222, 4223, 4224), monitoring
# port PLUMB_NATS_MONITOR_PORT+n-1 (8222, ...) and, in a cluster, route port
# PLUMB_NATS_CLUSTER_PORT+n-1 (6222, ...). Node 1 uses the single server's ports, so a driver file
# pointing at nats://127.0.0.1:4222 reaches either; clients learn the other nodes from the server.
# A cluster is named `plumb` and its nodes n1, n2, n3 (JetStream clustering needs both names).
#
# State lives under ${PLUMB_STATE_DIR:-<repo>/.plumb}/nats/nodes/<n>/: nats.conf, nats.log,
# nats.pid, store/ (the JetStream store, wiped by `start`, kept by `start-node`) and node.env,
# which a fault injector reads, one KEY=value a line:
#   NODE=2  NAME=n2  PID=12345  CLIENT_PORT=4223  MONITOR_PORT=8223  CLUSTER_PORT=6223
#   PORTS=4223,8223,6223  CGROUP=<dir>  DATA_DIR=<dir>  LOG=<file>  CONF=<file>  SYNC=default
# and with the layer POWER_LOSS_TOOL, POWER_LOSS_CONTROL and POWER_LOSS_BACKING.
# NAME is the node's server_name (what JetStream names a stream leader), PORTS every port the node
# listens on, CGROUP the cgroup the node runs in, alone (node-cgroup.sh; empty where this machine
# has none), so a fault can cut that one process off the network. PID is empty while the node is
# stopped by stop-node. SYNC is the sync policy the node reported when the cluster started.
set -euo pipefail

# The newest release that builds with the Go here (1.26); the driver-nats tests and fault runs are
# measured on it. Changing it rebuilds .plumb/bin/nats-server on the next start.
NATS_SERVER_VERSION=v2.15.3
NATS_SERVER_MODULE=github.com/nats-io/nats-server/v2

# shellcheck source=lib/nodes.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nodes.sh" nats

server_bin="$NODES_REPO/.plumb/bin/nats-server"
# Node 1's ports, each from PLUMB_NATS_<NAME> or its default here.
plumb_settings NATS PORT=4222 MONITOR_PORT=8222 CLUSTER_PORT=6222
cluster_name=plumb
# Generous: other brokers may be starting on the same two cores, and a cluster's JetStream needs
# its routes up and a meta leader elected before it accepts streams.
plumb_settings NATS READY_TIMEOUT=60

NODES_NAME="nats node"
NODES_NOT_RUNNING="nats not running"
NODES_MSG_EXITED="{name} exited during start; see {log}"
NODES_MSG_LATE="{name} not healthy after ${READY_TIMEOUT}s; see {log}"
NODES_MSG_STOPPED="{name} stopped (pid {pid})"
NODES_MSG_KILLED="{name} (pid {pid}) did not stop in {timeout}s; sending SIGKILL"
NODES_STOP_TIMEOUT=15

# --- the pinned server --------------------------------------------------------------------------

# Prints the pinned nats-server's path, building it first when it is missing or was built from
# another pin. Built as deploy/kubernetes/tools.sh builds Helm: `go install` of the module at the
# pinned version, with module and build caches of its own that are deleted afterwards (some 300 MB),
# so only the stripped binary stays.
server_binary() {
  local stamp="$server_bin.version"
  if [[ -x "$server_bin" && "$(cat "$stamp" 2>/dev/null)" == "$NATS_SERVER_VERSION" ]]; then
    echo "$server_bin"
    return 0
  fi
  local go
  go="$(command -v go || echo /usr/local/go/bin/go)"
  [[ -x "$go" ]] ||
    die "Go is needed to build nats-server $NATS_SERVER_VERSION (https://go.dev/dl, or Debian's golang-go)"
  mkdir -p "$(dirname "$server_bin")"
  echo "building nats-server $NATS_SERVER_VERSION with go install (once; cached as $server_bin)" >&2
  local work started=$SECONDS
  work="$(mktemp -d "$(dirname "$server_bin")/.nats-server-build-XXXXXX")"
  if ! GOBIN="$work/bin" GOMODCACHE="$work/mod" GOCACHE="$work/cache" GOFLAGS=-modcacherw \
    GOTOOLCHAIN=local CGO_ENABLED=0 \
    "$go" install -trimpath -ldflags="-s -w" "$NATS_SERVER_MODULE@$NATS_SERVER_VERSION" \
    >"$work/log" 2>&1; then
    tail -20 "$work/log" >&2
    rm -rf "$work"
    die "go install $NATS_SERVER_MODULE@$NATS_SERVER_VERSION failed"
  fi
  mv "$work/bin/nats-server" "$server_bin"
  echo "$NATS_SERVER_VERSION" >"$stamp"
  rm -rf "$work"
  echo "built nats-server $NATS_SERVER_VERSION in $((SECONDS - started)) s" >&2
  echo "$server_bin"
}

# --- where node n lives -------------------------------------------------------------------------

client_port() { echo $((PORT + $1 - 1)); }
monitor_port() { echo $((MONITOR_PORT + $1 - 1)); }
cluster_port() { echo $((CLUSTER_PORT + $1 - 1)); }
store_dir() { echo "$NODES_DIR/$1/store"; }
# The sync policy the start asked for, kept for node.env across restarts.
sync_file() { echo "$NODES_DIR/$1/sync"; }

# A recycled PID must never be taken for our server: the command line names our config.
node_owns_pid() { nodes_cmdline "$2" | grep -q "nats-server.*$(nodes_dir "$1")/nats.conf"; }

# --- writing a node's files ---------------------------------------------------------------------

# Writes node n's server configuration; a cluster of more than one node gets a cluster block with
# routes to every other node.
write_config() {
  local n=$1 count=$2 sync=$3 dir
  dir="$(nodes_dir "$n")"
  {
    echo "server_name: n$n"
    echo "listen: 127.0.0.1:$(client_port "$n")"
    echo "http: 127.0.0.1:$(monitor_port "$n")"
    echo "pid_file: \"$dir/nats.pid\""
    echo "log_file: \"$dir/nats.log\""
    echo "jetstream {"
    echo "  store_dir: \"$(store_dir "$n")\""
    # Without the line NATS syncs every 2 minutes; `always` fsyncs each write before its ack.
    if [[ "$sync" == always ]]; then echo "  sync_interval: always"; fi
    echo "}"
    if ((count > 1)); then
      echo "cluster {"
      echo "  name: $cluster_name"
      echo "  listen: 127.0.0.1:$(cluster_port "$n")"
      echo "  routes: ["
      local other
      for ((other = 1; other <= count; other++)); do
        ((other == n)) || echo "    nats-route://127.0.0.1:$(cluster_port "$other")"
      done
      echo "  ]"
      echo "}"
    fi
  } >"$dir/nats.conf"
}

# Writes node n's state file, with no PID until it is launched.
write_node_env() {
  local n=$1 count=$2 dir ports cport=""
  dir="$(nodes_dir "$n")"
  ports="$(client_port "$n"),$(monitor_port "$n")"
  if ((count > 1)); then
    cport="$(cluster_port "$n")"
    ports="$ports,$cport"
  fi
  nodes_write_env "$n" <<EOF
NODE=$n
NAME=n$n
PID=
CLIENT_PORT=$(client_port "$n")
MONITOR_PORT=$(monitor_port "$n")
CLUSTER_PORT=$cport
PORTS=$ports
CGROUP=$(nodes_cgroup_path "$n")
DATA_DIR=$(store_dir "$n")
LOG=$dir/nats.log
CONF=$dir/nats.conf
SYNC=$(cat "$(sync_file "$n")" 2>/dev/null || echo default)
EOF
}

# --- one node's process -------------------------------------------------------------------------

# Node n's /healthz answers ok. Without a query that means JetStream is current with a meta leader
# and every stream and consumer on the node is current; `js-enabled-only=true` asks only whether the
# server runs with JetStream enabled.
healthy() {
  curl -fsS --max-time 2 "http://127.0.0.1:$(monitor_port "$1")/healthz${2:+?$2}" 2>/dev/null |
    grep -q '"ok"'
}

# Launches node n in the background and records its PID; does not wait for readiness.
launch_node() {
  local n=$1 dir p bin
  dir="$(nodes_dir "$n")"
  bin="$(server_binary)" || return 1
  if p="$(nodes_taken_port "$n")"; then
    echo "nats node $n: port $p on 127.0.0.1 is already in use (stop what holds it, or set PLUMB_NATS_PORT / PLUMB_NATS_MONITOR_PORT / PLUMB_NATS_CLUSTER_PORT)" >&2
    return 1
  fi
  rm -f "$dir/nats.pid"
  # nats-server has no daemon mode: nodes_launch detaches it into its own session.
  nodes_launch "$n" "$dir/nats.log" "$bin" -c "$dir/nats.conf"
}

# Node n (as n:query) answers /healthz ok with that query.
healthy_node() { healthy "${1%%:*}" "${1#*:}"; }

# Waits until node n answers /healthz ok (with the query $3, if any). In a cluster a node is
# healthy only once JetStream has contact with a meta leader, so launch every node before waiting
# for any.
wait_healthy() {
  nodes_await "$2" healthy_node "$1:${3:-}" || { echo "$NODES_FAILURE" >&2; return 1; }
}

# Waits until a restarted node n has rejoined: a single server until it is healthy, a node of a
# cluster until it is current with the JetStream meta leader (/healthz?js-meta-only=true). Its
# streams may still be catching up what the others stored meanwhile: after a power loss of every
# node that can take minutes, or never end (driver-nats/README.md), and it is the cluster's
# recovery, which a fault run measures, not part of starting the node.
wait_rejoined() {
  local n=$1 count=$2 deadline=$3
  if ((count == 1)); then
    wait_healthy "$n" "$deadline"
  else
    wait_healthy "$n" "$deadline" js-meta-only=true
  fi
}

# Waits until JetStream's meta group has a leader that every node knows, and that leader sees all
# its count-1 peers current: before that, creating a stream with 3 replicas fails for want of
# peers. Only the leader's /jsz lists the peers, so every node's answer is read.
wait_meta_cluster() {
  local count=$1 deadline=$2 n answers
  while :; do
    answers=()
    for ((n = 1; n <= count; n++)); do
      answers+=("$(curl -fsS --max-time 2 "http://127.0.0.1:$(monitor_port "$n")/jsz" 2>/dev/null || true)")
    done
    if meta_cluster_complete "$count" "${answers[@]}"; then
      return 0
    fi
    if ((SECONDS >= deadline)); then
      echo "nats cluster: JetStream has no meta leader with $count current peers after ${READY_TIMEOUT}s; see $(nodes_get 1 LOG)" >&2
      return 1
    fi
    sleep 0.2
  done
}

# True when the /jsz answers ($2...) of nodes n1..n$1 all name one meta leader, and that leader's
# own answer shows a cluster of $1 with every other peer current.
meta_cluster_complete() {
  python3 - "$@" <<'PY'
import json, sys
count, answers = int(sys.argv[1]), sys.argv[2:]
try:
    metas = [json.loads(a).get("meta_cluster") or {} for a in answers]
except ValueError:
    sys.exit(1)
leaders = {m.get("leader") for m in metas}
if len(leaders) != 1 or not next(iter(leaders)):
    sys.exit(1)
leader = next(iter(leaders))
own = metas[int(leader[1:]) - 1] if leader[1:].isdigit() and int(leader[1:]) <= count else {}
peers = own.get("replicas") or []
ok = (own.get("cluster_size") == count and len(peers) == count - 1
      and all(p.get("current") for p in peers))
sys.exit(0 if ok else 1)
PY
}

# The sync policy node n reports in its /varz (JetStream's configuration as the server runs it):
# `always` when it fsyncs every write, `default` for NATS's own 2-minute interval, or the interval
# it has. Fails when the node does not answer.
reported_sync() {
  curl -fsS --max-time 2 "http://127.0.0.1:$(monitor_port "$1")/varz" 2>/dev/null | python3 -c '
import json, sys
config = (json.load(sys.stdin).get("jetstream") or {}).get("config") or {}
interval = config.get("sync_interval", 0)
if config.get("sync_always"):
    print("always")
elif interval == 120 * 10**9:
    print("default")
else:
    print(f"every {interval / 1e9:g} s")
'
}

# Checks that every node of the fresh cluster reports the sync policy the start asked for.
check_sync() {
  local count=$1 want=$2 n got
  for ((n = 1; n <= count; n++)); do
    got="$(reported_sync "$n")" || {
      echo "nats node $n: its /varz did not answer, so its sync policy could not be read back" >&2
      return 1
    }
    if [[ "$got" != "$want" ]]; then
      echo "nats node $n reports sync '$got' where the start asked for '$want' (see $(nodes_get "$n" CONF))" >&2
      return 1
    fi
  done
}

# --- subcommands --------------------------------------------------------------------------------

start_usage() {
  die "usage: $0 start [--nodes N] [--sync always|default] [--power-loss-layer]"
}

start() {
  NODES_START_VALUES=sync NODES_START_STRICT=1
  nodes_start_options "$@"
  local count="$NODES_COUNT" sync="${NODES_OPTION[sync]-default}" layer="$NODES_LAYER"
  [[ "$count" =~ ^[1-9]$ ]] || die "--nodes must be a whole number from 1 to 9, was '$count'"
  [[ "$sync" == always || "$sync" == default ]] ||
    die "--sync must be 'always' (fsync every write) or 'default' (NATS's own, every 2 minutes), was '$sync'"

  local running
  running="$(nodes_running | xargs)"
  if [[ -n "$running" ]]; then
    local known had_sync same_layer=0
    known="$(nodes_list | wc -l)"
    had_sync="$(nodes_get 1 SYNC)"
    nodes_same_layer "$layer" && same_layer=1
    if [[ "$(echo "$running" | wc -w)" == "$count" && "$known" == "$count" &&
      "$had_sync" == "$sync" ]] && ((same_layer)); then
      echo "nats already running ($count node(s), sync $sync$( ((layer)) && echo ", power-loss layer"), nats://127.0.0.1:$PORT)"
      exit 0
    fi
    die "nats already running with node(s) $running of $known, sync ${had_sync:-default}, $NODES_HAD the power-loss layer: run '$0 stop' first"
  fi
  # Before anything is wiped or launched: a start that cannot have what it asks for starts nothing.
  ((layer)) && nodes_require_fuse
  server_binary >/dev/null

  # Every start begins from empty stores, so each run starts from an empty cluster.
  nodes_wipe
  local n
  for ((n = 1; n <= count; n++)); do
    mkdir -p "$(nodes_dir "$n")"
    echo "$sync" >"$(sync_file "$n")"
    if ((layer)); then
      nodes_layer_mount "$n" "$(store_dir "$n")" || abort_start "$NODES_FAILURE"
    else
      mkdir -p "$(store_dir "$n")"
    fi
    write_config "$n" "$count" "$sync"
    write_node_env "$n" "$count"
  done
  for ((n = 1; n <= count; n++)); do
    launch_node "$n" || abort_start
  done
  local deadline=$((SECONDS + READY_TIMEOUT))
  for ((n = 1; n <= count; n++)); do
    wait_healthy "$n" "$deadline" || abort_start
  done
  if ((count > 1)); then
    wait_meta_cluster "$count" "$deadline" || abort_start
  fi
  check_sync "$count" "$sync" || abort_start
  if ((layer)); then
    # shellcheck disable=SC2046
    nodes_layer_sync $(seq 1 "$count") || abort_start "$NODES_FAILURE"
  fi
  local version
  version="$(curl -fsS --max-time 2 "http://127.0.0.1:$(monitor_port 1)/varz" |
    python3 -c 'import json, sys; print(json.load(sys.stdin).get("version", "?"))')"
  local settings="nats-server $version, sync $sync (read back from every node)"
  ((layer)) && settings="$settings, power-loss layer under every node's store"
  if ((count == 1)); then
    echo "nats started (pid $(nodes_get 1 PID), nats://127.0.0.1:$PORT, monitor :$MONITOR_PORT; $settings)"
  else
    echo "nats cluster '$cluster_name' started: $count nodes, JetStream meta leader elected; $settings"
    for ((n = 1; n <= count; n++)); do
      describe_node "$n"
    done
  fi
}

# Leaves no half-started cluster behind: stops every node launched so far and unmounts the layers
# mounted so far, then fails with the one-line reason $1, or the one the step that failed printed.
abort_start() {
  if (($#)); then echo "$1" >&2; fi
  # shellcheck disable=SC2046
  stop_nodes $(nodes_list) >/dev/null
  nodes_layer_unmount_all >/dev/null 2>&1 || true
  exit 1
}

describe_node() {
  local n=$1 pid state cport ports layer=""
  if pid="$(nodes_pid "$n")"; then
    if healthy "$n"; then state="running, pid $pid"; else state="running but not healthy, pid $pid"; fi
  else
    state="stopped"
  fi
  ports="client $(nodes_get "$n" CLIENT_PORT) monitor $(nodes_get "$n" MONITOR_PORT)"
  cport="$(nodes_get "$n" CLUSTER_PORT)"
  [[ -z "$cport" ]] || ports="$ports cluster $cport"
  nodes_layer_on "$n" && layer="; $(nodes_layer_state "$n")"
  echo "  node $n (n$n): $state; ports $ports; sync $(nodes_get "$n" SYNC); data $(nodes_get "$n" DATA_DIR); log $(nodes_get "$n" LOG)$layer"
}

status_lines() {
  local n
  echo "nats: $1 of $2 node(s) running, nats://127.0.0.1:$PORT"
  for n in $(nodes_list); do
    describe_node "$n"
  done
}

# Node n of the cluster the last `start` made; fails with one line when there is none.
require_node() {
  [[ "${1:-}" =~ ^[1-9]$ ]] || die "usage: $0 start-node|stop-node N (N from 1 to 9)"
  [[ -f "$(nodes_env_file "$1")" ]] || die "nats node $1 does not exist: start a cluster with '$0 start --nodes 3' first"
}

start_node() {
  require_node "${1:-}"
  local n=$1 count pid
  count="$(nodes_list | wc -l)"
  if pid="$(nodes_pid "$n")"; then
    # A frozen node (SIGSTOP) counts as running: let it run again rather than start a second one.
    if nodes_thaw "$pid"; then
      echo "nats node $n was stopped by a signal: resumed (pid $pid)"
      exit 0
    fi
    echo "nats node $n already running (pid $pid)"
    exit 0
  fi
  nodes_layer_ensure "$n" || die "$NODES_FAILURE"
  # The store is kept: the node rejoins with the data it had and catches up from its peers.
  launch_node "$n" || exit 1
  local deadline=$((SECONDS + READY_TIMEOUT)) majority=$((count / 2 + 1)) up
  up="$(nodes_running | wc -l)"
  if ((up < majority)); then
    # JetStream in a cluster is healthy only with a meta leader, which needs a majority: when a
    # whole cluster comes back one start-node at a time (a power loss of every node), the first
    # nodes cannot be, so this one is only waited for until it runs with JetStream enabled.
    if ! wait_healthy "$n" "$deadline" js-enabled-only=true; then
      stop_nodes "$n" >/dev/null
      exit 1
    fi
    touch "$(nodes_pending_file "$n")"
    echo "nats node $n runs (pid $(nodes_get "$n" PID)); $up of $count node(s) run, so JetStream waits for a majority of $majority: the start-node that brings it waits for this node too"
    return 0
  fi
  local waiting=("$n") other
  for other in $(nodes_pending); do
    ((other == n)) || waiting+=("$other")
  done
  for other in "${waiting[@]}"; do
    if ! wait_rejoined "$other" "$count" "$deadline"; then
      ((other == n)) && stop_nodes "$n" >/dev/null
      exit 1
    fi
  done
  nodes_clear_pending
  for other in "${waiting[@]}"; do
    describe_node "$other"
  done
}

stop_node() {
  require_node "${1:-}"
  rm -f "$(nodes_pending_file "$1")"
  stop_nodes "$1"
}

case "${1:-}" in
  server) server_binary ;;
  *) nodes_main "start [--nodes N] [--sync always|default] [--power-loss-layer] | stop | status | start-node N | stop-node N | server" "$@" ;;
esac
