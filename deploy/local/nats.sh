#!/usr/bin/env bash
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

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state_dir="${PLUMB_STATE_DIR:-$repo/.plumb}/nats"
nodes_dir="$state_dir/nodes"
server_bin="$repo/.plumb/bin/nats-server"
base_port="${PLUMB_NATS_PORT:-4222}"
base_monitor_port="${PLUMB_NATS_MONITOR_PORT:-8222}"
base_cluster_port="${PLUMB_NATS_CLUSTER_PORT:-6222}"
cluster_name=plumb
LOCAL_DIR="$repo/deploy/local"
# Generous: other brokers may be starting on the same two cores, and a cluster's JetStream needs
# its routes up and a meta leader elected before it accepts streams.
ready_timeout_s="${PLUMB_NATS_READY_TIMEOUT:-60}"
stop_timeout_s=15

# shellcheck source=../power-loss/layer.sh
source "$repo/deploy/power-loss/layer.sh"

die() {
  echo "$*" >&2
  exit 1
}

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

node_dir() { echo "$nodes_dir/$1"; }
cgroup_name() { echo "plumb-nats-$1"; }
node_env_file() { echo "$nodes_dir/$1/node.env"; }
client_port() { echo $((base_port + $1 - 1)); }
monitor_port() { echo $((base_monitor_port + $1 - 1)); }
cluster_port() { echo $((base_cluster_port + $1 - 1)); }
store_dir() { echo "$nodes_dir/$1/store"; }
# The layer's node.env lines, written once when it is mounted; its presence means the layer is on.
layer_env_file() { echo "$nodes_dir/$1/power-loss.env"; }
# The sync policy the start asked for, kept for node.env across restarts.
sync_file() { echo "$nodes_dir/$1/sync"; }

# The node numbers that have a state directory, in order (the cluster the last `start` made).
known_nodes() {
  local env
  for env in "$nodes_dir"/*/node.env; do
    if [[ -f "$env" ]]; then basename "$(dirname "$env")"; fi
  done | sort -n
}

# One value of node n's state file.
node_value() {
  sed -n "s/^$2=//p" "$(node_env_file "$1")" 2>/dev/null | head -n 1
}

layer_on() { [[ -f "$(layer_env_file "$1")" ]]; }

# --- writing a node's files ---------------------------------------------------------------------

# Writes node n's server configuration; a cluster of more than one node gets a cluster block with
# routes to every other node.
write_config() {
  local n=$1 count=$2 sync=$3 dir
  dir="$(node_dir "$n")"
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

# Writes node n's state file with the given PID (empty when stopped).
write_node_env() {
  local n=$1 count=$2 pid=$3 dir ports cport=""
  dir="$(node_dir "$n")"
  ports="$(client_port "$n"),$(monitor_port "$n")"
  if ((count > 1)); then
    cport="$(cluster_port "$n")"
    ports="$ports,$cport"
  fi
  {
    cat <<EOF
NODE=$n
NAME=n$n
PID=$pid
CLIENT_PORT=$(client_port "$n")
MONITOR_PORT=$(monitor_port "$n")
CLUSTER_PORT=$cport
PORTS=$ports
CGROUP=$("$LOCAL_DIR/node-cgroup.sh" path "$(cgroup_name "$n")" "$pid")
DATA_DIR=$(store_dir "$n")
LOG=$dir/nats.log
CONF=$dir/nats.conf
SYNC=$(cat "$(sync_file "$n")" 2>/dev/null || echo default)
EOF
    if layer_on "$n"; then cat "$(layer_env_file "$n")"; fi
  } >"$dir/node.env.tmp"
  # Renamed into place so a reader never sees half a file.
  mv "$dir/node.env.tmp" "$dir/node.env"
}

# --- the power-loss layer -----------------------------------------------------------------------

# Fails with the layer's own last line when FUSE cannot mount here (or the layer cannot be built).
require_fuse() {
  local why
  why="$(power_loss_check 2>&1)" || die "--power-loss-layer: ${why##*$'\n'}"
}

# Mounts a layer over node n's (empty) store and records its node.env lines.
mount_layer() {
  local n=$1 dir
  dir="$(node_dir "$n")"
  power_loss_mount "$dir" "$(store_dir "$n")" || {
    echo "nats node $n: mounting the power-loss layer failed (log: $dir/power-loss.log)" >&2
    return 1
  }
  power_loss_env "$dir" >"$(layer_env_file "$n")"
}

# Makes everything node n's layer holds durable now.
sync_layer() {
  "$(power_loss_tool)" sync --control "$(power_loss_socket "$(node_dir "$1")")" >/dev/null || {
    echo "nats node $1: syncing the power-loss layer failed (log: $(node_dir "$1")/power-loss.log)" >&2
    return 1
  }
}

# Unmounts every layer still mounted under the state directory, everything synced first. Called
# once no server runs: by stop, by a failed start, and by start before it wipes the state of a
# cluster whose stop never ran (rm -rf through a live mount would reach into its backing data).
unmount_layers() {
  local dir n
  for dir in "$nodes_dir"/*/; do
    [[ -d "$dir" ]] || continue
    n="$(basename "$dir")"
    [[ "$n" =~ ^[0-9]+$ ]] || continue
    if [[ -S "$(power_loss_socket "${dir%/}")" ]] || mountpoint -q "$(store_dir "$n")" 2>/dev/null; then
      power_loss_unmount "${dir%/}" "$(store_dir "$n")" ||
        die "nats node $n: unmounting the power-loss layer at $(store_dir "$n") failed (log: ${dir}power-loss.log)"
      echo "nats node $n: power-loss layer unmounted, its data durable in ${dir}durable"
    fi
  done
}

# "power-loss layer mounted, 1234 bytes unsynced", or that it does not answer, for status.
layer_state() {
  local answer
  if answer="$("$(power_loss_tool)" status --control "$(power_loss_socket "$(node_dir "$1")")" 2>&1)"; then
    echo "power-loss layer mounted, $(sed -n 's/^unsynced_bytes=//p' <<<"$answer") bytes unsynced"
  else
    echo "power-loss layer not answering"
  fi
}

# --- one node's process -------------------------------------------------------------------------

# Prints node n's PID if that process is alive and is the nats-server of this node's config.
running_pid() {
  local n=$1 pid
  pid="$(node_value "$n" PID)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # A recycled PID must never be taken for our server: check the command line names our config.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "nats-server.*$(node_dir "$n")/nats.conf" ||
    return 1
  echo "$pid"
}

port_taken() {
  # True when something already listens on port $1 (on 127.0.0.1 or on all addresses).
  ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

# Node n's /healthz answers ok. Without a query that means JetStream is current with a meta leader
# and every stream and consumer on the node is current; `js-enabled-only=true` asks only whether the
# server runs with JetStream enabled.
healthy() {
  curl -fsS --max-time 2 "http://127.0.0.1:$(monitor_port "$1")/healthz${2:+?$2}" 2>/dev/null |
    grep -q '"ok"'
}

# Launches node n in the background and records its PID; does not wait for readiness.
launch_node() {
  local n=$1 count=$2 dir p bin
  dir="$(node_dir "$n")"
  bin="$(server_binary)" || return 1
  for p in $(node_value "$n" PORTS | tr ',' ' '); do
    if port_taken "$p"; then
      echo "nats node $n: port $p on 127.0.0.1 is already in use (stop what holds it, or set PLUMB_NATS_PORT / PLUMB_NATS_MONITOR_PORT / PLUMB_NATS_CLUSTER_PORT)" >&2
      return 1
    fi
  done
  rm -f "$dir/nats.pid"
  # nats-server has no daemon mode: detach it into its own session so it outlives this shell.
  # setsid execs node-cgroup.sh here (a background job is no process-group leader), which joins
  # the node's own cgroup and execs nats-server, so $! is nats-server's PID.
  setsid "$LOCAL_DIR/node-cgroup.sh" run "$(cgroup_name "$n")" \
    "$bin" -c "$dir/nats.conf" </dev/null >>"$dir/nats.log" 2>&1 &
  write_node_env "$n" "$count" "$!"
}

# Waits until node n answers /healthz ok (with the query $3, if any). In a cluster a node is
# healthy only once JetStream has contact with a meta leader, so launch every node before waiting
# for any.
wait_healthy() {
  local n=$1 deadline=$2 query=${3:-} pid
  pid="$(node_value "$n" PID)"
  until healthy "$n" "$query"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "nats node $n exited during start; see $(node_value "$n" LOG)" >&2
      return 1
    fi
    if ((SECONDS >= deadline)); then
      echo "nats node $n not healthy after ${ready_timeout_s}s; see $(node_value "$n" LOG)" >&2
      return 1
    fi
    sleep 0.2
  done
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
      echo "nats cluster: JetStream has no meta leader with $count current peers after ${ready_timeout_s}s; see $(node_value 1 LOG)" >&2
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
      echo "nats node $n reports sync '$got' where the start asked for '$want' (see $(node_value "$n" CONF))" >&2
      return 1
    fi
  done
}

# Stops node n (SIGTERM, then SIGKILL after the timeout) and clears its PID. Quiet when stopped.
stop_node_process() {
  local n=$1 pid deadline
  if pid="$(running_pid "$n")"; then
    kill "$pid" 2>/dev/null || true
    # A frozen node (SIGSTOP, a freeze fault) handles the SIGTERM only once it runs again.
    kill -CONT "$pid" 2>/dev/null || true
    deadline=$((SECONDS + stop_timeout_s))
    while kill -0 "$pid" 2>/dev/null; do
      if ((SECONDS >= deadline)); then
        echo "nats node $n (pid $pid) did not stop in ${stop_timeout_s}s; sending SIGKILL" >&2
        kill -9 "$pid" 2>/dev/null || true
        break
      fi
      sleep 0.1
    done
    echo "nats node $n stopped (pid $pid)"
  fi
  if [[ -f "$(node_env_file "$n")" ]]; then sed -i 's/^PID=.*/PID=/' "$(node_env_file "$n")"; fi
}

# --- subcommands --------------------------------------------------------------------------------

start_usage() {
  die "usage: $0 start [--nodes N] [--sync always|default] [--power-loss-layer]"
}

start() {
  local count=1 sync=default layer=0
  while (($#)); do
    case "$1" in
      --nodes)
        count="${2:-}"
        shift 2 || start_usage
        ;;
      --nodes=*)
        count="${1#--nodes=}"
        shift
        ;;
      --sync)
        sync="${2:-}"
        shift 2 || start_usage
        ;;
      --sync=*)
        sync="${1#--sync=}"
        shift
        ;;
      --power-loss-layer)
        layer=1
        shift
        ;;
      *) start_usage ;;
    esac
  done
  [[ "$count" =~ ^[1-9]$ ]] || die "--nodes must be a whole number from 1 to 9, was '$count'"
  [[ "$sync" == always || "$sync" == default ]] ||
    die "--sync must be 'always' (fsync every write) or 'default' (NATS's own, every 2 minutes), was '$sync'"

  local running
  running="$(running_nodes)"
  if [[ -n "$running" ]]; then
    local known had_sync had_layer=0
    known="$(known_nodes | wc -l)"
    had_sync="$(node_value 1 SYNC)"
    layer_on 1 && had_layer=1
    if [[ "$(echo "$running" | wc -w)" == "$count" && "$known" == "$count" &&
      "$had_sync" == "$sync" && "$had_layer" == "$layer" ]]; then
      echo "nats already running ($count node(s), sync $sync$( ((layer)) && echo ", power-loss layer"), nats://127.0.0.1:$base_port)"
      exit 0
    fi
    die "nats already running with node(s) $running of $known, sync ${had_sync:-default}, $( ((had_layer)) && echo with || echo without) the power-loss layer: run '$0 stop' first"
  fi
  # Before anything is wiped or launched: a start that cannot have what it asks for starts nothing.
  ((layer)) && require_fuse
  server_binary >/dev/null

  # A layer left mounted by a cluster whose stop never ran would keep its data from the wipe.
  unmount_layers >/dev/null
  # Every start begins from empty stores, so each run starts from an empty cluster.
  rm -rf "$nodes_dir"
  local n
  for ((n = 1; n <= count; n++)); do
    mkdir -p "$(node_dir "$n")"
    echo "$sync" >"$(sync_file "$n")"
    if ((layer)); then
      mount_layer "$n" || abort_start
    else
      mkdir -p "$(store_dir "$n")"
    fi
    write_config "$n" "$count" "$sync"
    write_node_env "$n" "$count" ""
  done
  for ((n = 1; n <= count; n++)); do
    launch_node "$n" "$count" || abort_start
  done
  local deadline=$((SECONDS + ready_timeout_s))
  for ((n = 1; n <= count; n++)); do
    wait_healthy "$n" "$deadline" || abort_start
  done
  if ((count > 1)); then
    wait_meta_cluster "$count" "$deadline" || abort_start
  fi
  check_sync "$count" "$sync" || abort_start
  if ((layer)); then
    for ((n = 1; n <= count; n++)); do
      sync_layer "$n" || abort_start
    done
  fi
  local version
  version="$(curl -fsS --max-time 2 "http://127.0.0.1:$(monitor_port 1)/varz" |
    python3 -c 'import json, sys; print(json.load(sys.stdin).get("version", "?"))')"
  local settings="nats-server $version, sync $sync (read back from every node)"
  ((layer)) && settings="$settings, power-loss layer under every node's store"
  if ((count == 1)); then
    echo "nats started (pid $(node_value 1 PID), nats://127.0.0.1:$base_port, monitor :$base_monitor_port; $settings)"
  else
    echo "nats cluster '$cluster_name' started: $count nodes, JetStream meta leader elected; $settings"
    for ((n = 1; n <= count; n++)); do
      describe_node "$n"
    done
  fi
}

# Leaves no half-started cluster behind: stops every node launched so far and unmounts the layers
# mounted so far, then fails. The one-line reason was printed by the step that failed.
abort_start() {
  local n
  for n in $(known_nodes); do
    stop_node_process "$n" >/dev/null
  done
  unmount_layers >/dev/null 2>&1 || true
  exit 1
}

# The node numbers whose process runs, space-separated.
running_nodes() {
  local n
  for n in $(known_nodes); do
    if running_pid "$n" >/dev/null; then echo "$n"; fi
  done | tr '\n' ' ' | sed 's/ $//'
}

stop() {
  local n pid pids=()
  # Signal every node first, then wait: a cluster stops in one timeout, not three.
  for n in $(known_nodes); do
    if pid="$(running_pid "$n")"; then
      kill "$pid" 2>/dev/null || true
      kill -CONT "$pid" 2>/dev/null || true
      pids+=("$n:$pid")
    fi
  done
  if ((${#pids[@]} == 0)); then
    echo "nats not running"
  fi
  local entry deadline=$((SECONDS + stop_timeout_s))
  for entry in "${pids[@]}"; do
    n="${entry%%:*}"
    pid="${entry#*:}"
    while kill -0 "$pid" 2>/dev/null; do
      if ((SECONDS >= deadline)); then
        echo "nats node $n (pid $pid) did not stop in ${stop_timeout_s}s; sending SIGKILL" >&2
        kill -9 "$pid" 2>/dev/null || true
        break
      fi
      sleep 0.1
    done
    echo "nats node $n stopped (pid $pid)"
  done
  for n in $(known_nodes); do
    sed -i 's/^PID=.*/PID=/' "$(node_env_file "$n")"
  done
  # Once no server has a file open on it: a clean unmount syncs everything first.
  unmount_layers
}

describe_node() {
  local n=$1 pid state cport ports layer=""
  if pid="$(running_pid "$n")"; then
    if healthy "$n"; then state="running, pid $pid"; else state="running but not healthy, pid $pid"; fi
  else
    state="stopped"
  fi
  ports="client $(node_value "$n" CLIENT_PORT) monitor $(node_value "$n" MONITOR_PORT)"
  cport="$(node_value "$n" CLUSTER_PORT)"
  [[ -z "$cport" ]] || ports="$ports cluster $cport"
  layer_on "$n" && layer="; $(layer_state "$n")"
  echo "  node $n (n$n): $state; ports $ports; sync $(node_value "$n" SYNC); data $(node_value "$n" DATA_DIR); log $(node_value "$n" LOG)$layer"
}

status() {
  local known running total up
  known="$(known_nodes)"
  running="$(running_nodes)"
  total="$(echo "$known" | wc -w)"
  up="$(echo "$running" | wc -w)"
  if ((up == 0)); then
    echo "nats not running"
    exit 3
  fi
  echo "nats: $up of $total node(s) running, nats://127.0.0.1:$base_port"
  local n
  for n in $known; do
    describe_node "$n"
  done
  ((up == total)) || exit 1
}

# Node n of the cluster the last `start` made; fails with one line when there is none.
require_node() {
  [[ "${1:-}" =~ ^[1-9]$ ]] || die "usage: $0 start-node|stop-node N (N from 1 to 9)"
  [[ -f "$(node_env_file "$1")" ]] || die "nats node $1 does not exist: start a cluster with '$0 start --nodes 3' first"
}

# Where start-node marks a node it launched without a quorum; the start-node that brings the
# quorum waits until that node is healthy too.
pending_file() { echo "$(node_dir "$1")/start-pending"; }

start_node() {
  require_node "${1:-}"
  local n=$1 count pid
  count="$(known_nodes | wc -l)"
  if pid="$(running_pid "$n")"; then
    # A frozen node (SIGSTOP) counts as running: let it run again rather than start a second one.
    if [[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" == "T" ]]; then
      kill -CONT "$pid" 2>/dev/null || true
      echo "nats node $n was stopped by a signal: resumed (pid $pid)"
      exit 0
    fi
    echo "nats node $n already running (pid $pid)"
    exit 0
  fi
  if layer_on "$n"; then
    # After a power loss the layer is still mounted with what survived; one that died (or a
    # rebooted host) is mounted again over the node's durable data.
    power_loss_ensure "$(node_dir "$n")" "$(store_dir "$n")" ||
      die "nats node $n: the power-loss layer is not mounted and mounting it failed (log: $(node_dir "$n")/power-loss.log)"
  fi
  # The store is kept: the node rejoins with the data it had and catches up from its peers.
  launch_node "$n" "$count" || exit 1
  local deadline=$((SECONDS + ready_timeout_s)) majority=$((count / 2 + 1)) up
  up="$(running_nodes | wc -w)"
  if ((up < majority)); then
    # JetStream in a cluster is healthy only with a meta leader, which needs a majority: when a
    # whole cluster comes back one start-node at a time (a power loss of every node), the first
    # nodes cannot be, so this one is only waited for until it runs with JetStream enabled.
    if ! wait_healthy "$n" "$deadline" js-enabled-only=true; then
      stop_node_process "$n" >/dev/null
      exit 1
    fi
    touch "$(pending_file "$n")"
    echo "nats node $n runs (pid $(node_value "$n" PID)); $up of $count node(s) run, so JetStream waits for a majority of $majority: the start-node that brings it waits for this node too"
    return 0
  fi
  local waiting=("$n") other
  for ((other = 1; other <= count; other++)); do
    if ((other != n)) && [[ -f "$(pending_file "$other")" ]]; then waiting+=("$other"); fi
  done
  for other in "${waiting[@]}"; do
    if ! wait_rejoined "$other" "$count" "$deadline"; then
      ((other == n)) && stop_node_process "$n" >/dev/null
      exit 1
    fi
  done
  rm -f "$nodes_dir"/*/start-pending
  for other in "${waiting[@]}"; do
    describe_node "$other"
  done
}

stop_node() {
  require_node "${1:-}"
  rm -f "$(pending_file "$1")"
  stop_node_process "$1"
}

case "${1:-}" in
  start)
    shift
    start "$@"
    ;;
  stop) stop ;;
  status) status ;;
  start-node) start_node "${2:-}" ;;
  stop-node) stop_node "${2:-}" ;;
  server) server_binary ;;
  *)
    echo "usage: $0 start [--nodes N] [--sync always|default] [--power-loss-layer] | stop | status | start-node N | stop-node N | server" >&2
    exit 2
    ;;
esac
