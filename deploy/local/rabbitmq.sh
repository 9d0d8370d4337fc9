#!/usr/bin/env bash
# Runs RabbitMQ on 127.0.0.1 for local benchmarks and driver tests: one node (the default), or a
# cluster of several nodes, each a separate OS process with its own ports, data and log.
#
#   deploy/local/rabbitmq.sh start [--nodes N] [--power-loss-layer]
#                                               # N=1 by default; 3 for the replicated driver files;
#                                               # with --power-loss-layer each node's data directory
#                                               # is a power-loss layer (below)
#   deploy/local/rabbitmq.sh stop               # every node, then the epmd this script started
#   deploy/local/rabbitmq.sh status             # a line per node; exit 0 all run, 3 none, 1 some
#   deploy/local/rabbitmq.sh stop-node N        # stops node N of the running cluster, keeps its data
#   deploy/local/rabbitmq.sh start-node N       # starts node N again on its data; it rejoins
#
# Node n (1-based) listens on AMQP 5671+n, stream 5551+n, management HTTP 15671+n and Erlang
# distribution 25671+n, so node 1 has the single node's ports (5672, 5552, 15672, 25672) and every
# driver file reaches either. One node is plumb@localhost; a cluster's are r1@localhost, r2@...
#
# The Debian wrapper (/usr/sbin/rabbitmq-server) switches to the rabbitmq user and writes to
# /var/log, so nodes run as the current user from /usr/lib/rabbitmq/bin with every file under
# ${PLUMB_STATE_DIR:-<repo>/.plumb}/rabbitmq:
#   home/.erlang.cookie   one cookie for every node and the CLI (the same HOME)
#   epmd.pid              the epmd this script started, if it had to start one
#   nodes/<n>/node.env    KEY=value lines for other tools (fault injection, resource sampling):
#                         NODE and NAME (the Erlang node name, r2@localhost), PID (the node's beam.smp,
#                         which holds its sockets; empty while stopped), PORTS (every port the node
#                         listens on: amqp,stream,management,distribution; not epmd's 4369, which
#                         all nodes share), CGROUP (the cgroup the node runs in, empty where the
#                         machine has none to give), AMQP_PORT, STREAM_PORT, MGMT_PORT, DIST_PORT,
#                         DATA_DIR, LOG
#   nodes/<n>/            rabbitmq.conf, enabled_plugins, rabbitmq.pid, mnesia/ (data), log/
#
# --power-loss-layer mounts deploy/power-loss's layer over each node's mnesia/ directory (its
# schema, message stores, quorum queue logs and streams), backed by nodes/<n>/durable, and adds
# POWER_LOSS_TOOL, POWER_LOSS_CONTROL and POWER_LOSS_BACKING to node.env, which the fault action
# power-loss needs. What the start itself wrote is made durable; stop unmounts the layers. Where
# FUSE cannot mount, the start fails with one line and nothing runs.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${PLUMB_STATE_DIR:-$REPO/.plumb}/rabbitmq"
RMQ_BIN=/usr/lib/rabbitmq/bin
LOCAL_DIR="$REPO/deploy/local"
EPMD_PORT=4369
EPMD_PID_FILE="$STATE/epmd.pid"
MAX_NODES=9
# Generous: other brokers may be starting on the same two cores.
START_TIMEOUT="${PLUMB_RABBITMQ_START_TIMEOUT:-180}"

die() {
  echo "rabbitmq.sh: $*" >&2
  exit 1
}

# shellcheck source=../power-loss/layer.sh
source "$REPO/deploy/power-loss/layer.sh"

# --- Node layout -------------------------------------------------------------------------------

node_dir() { echo "$STATE/nodes/$1"; }
amqp_port() { echo $((5671 + $1)); }
stream_port() { echo $((5551 + $1)); }
mgmt_port() { echo $((15671 + $1)); }
dist_port() { echo $((25671 + $1)); }

# The node numbers this state dir knows, ascending.
known_nodes() {
  local env
  for env in "$STATE"/nodes/*/node.env; do
    if [[ -f "$env" ]]; then basename "$(dirname "$env")"; fi
  done | sort -n
}

# One value of node n's node.env.
node_get() {
  sed -n "s/^$2=//p" "$(node_dir "$1")/node.env"
}

# Rewrites one key of node n's node.env (the file other tools read).
node_set() {
  local env
  env="$(node_dir "$1")/node.env"
  sed -i "s|^$2=.*|$2=$3|" "$env"
}

# Every server this script launches carries its node directory in this environment variable
# (rabbitmqctl VMs do not), so a node's process is known by more than a PID that may be reused.
marker() { echo "PLUMB_RABBITMQ_NODE_DIR=$(node_dir "$1")"; }

has_marker() {
  { tr '\0' '\n' <"/proc/$1/environ"; } 2>/dev/null | grep -qxF "$2"
}

# Node n's PID if that process still runs and is that node.
running_pid() {
  local pid
  [[ -f "$(node_dir "$1")/node.env" ]] || return 1
  pid="$(node_get "$1" PID)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && has_marker "$pid" "$(marker "$1")" || return 1
  echo "$pid"
}

# Node n's server processes found by their marker: also a node that never wrote its PID file.
marked_pids() {
  local m p
  m="$(marker "$1")"
  for p in /proc/[0-9]*; do
    if [[ "$(cat "$p/comm" 2>/dev/null)" == beam.smp ]] && has_marker "${p#/proc/}" "$m"; then
      echo "${p#/proc/}"
    fi
  done
}

port_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# The cgroup node n runs in (node-cgroup.sh), so a fault can cut exactly that node's traffic.
cgroup_name() { echo "plumb-rabbitmq-$1"; }

# Writes node n's config, plugins and node.env (with no PID yet).
write_node_files() {
  local n=$1 name=$2 dir cgroup
  dir="$(node_dir "$n")"
  cgroup="$("$LOCAL_DIR/node-cgroup.sh" path "$(cgroup_name "$n")")"
  mkdir -p "$dir/mnesia" "$dir/log"
  # stream.advertised_port is per node: a stream-protocol client connects to each stream's leader
  # and replicas at the host and port their node advertises, so nodes 2 and 3 must not all claim
  # node 1's port.
  cat >"$dir/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$(amqp_port "$n")
stream.listeners.tcp.1 = 127.0.0.1:$(stream_port "$n")
stream.advertised_host = 127.0.0.1
stream.advertised_port = $(stream_port "$n")
management.tcp.ip = 127.0.0.1
management.tcp.port = $(mgmt_port "$n")
loopback_users = none
EOF
  echo '[rabbitmq_management,rabbitmq_stream].' >"$dir/enabled_plugins"
  : >"$dir/rabbitmq-env.conf"
  cat >"$dir/node.env" <<EOF
NODE=$name
NAME=$name
PID=
CGROUP=$cgroup
PORTS=$(amqp_port "$n"),$(stream_port "$n"),$(mgmt_port "$n"),$(dist_port "$n")
AMQP_PORT=$(amqp_port "$n")
STREAM_PORT=$(stream_port "$n")
MGMT_PORT=$(mgmt_port "$n")
DIST_PORT=$(dist_port "$n")
DATA_DIR=$dir/mnesia/$name
LOG=$dir/log/$name.log
EOF
}

# The server and the CLI must agree on node name, cookie (in $HOME) and file locations.
node_environment() {
  local n=$1 dir
  dir="$(node_dir "$n")"
  export HOME="$STATE/home"
  export RABBITMQ_NODENAME
  RABBITMQ_NODENAME="$(node_get "$n" NODE)"
  export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  export RABBITMQ_NODE_PORT
  RABBITMQ_NODE_PORT="$(node_get "$n" AMQP_PORT)"
  export RABBITMQ_DIST_PORT
  RABBITMQ_DIST_PORT="$(node_get "$n" DIST_PORT)"
  export ERL_EPMD_ADDRESS=127.0.0.1
  export ERL_EPMD_PORT=$EPMD_PORT
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
  export RABBITMQ_MNESIA_BASE="$dir/mnesia"
  export RABBITMQ_LOG_BASE="$dir/log"
  export RABBITMQ_CONFIG_FILE="$dir/rabbitmq.conf"
  export RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins"
  export RABBITMQ_PID_FILE="$dir/rabbitmq.pid"
  export RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf"
}

# rabbitmqctl against node n; output goes to that node's log directory.
ctl() {
  local n=$1 out=$2
  shift 2
  (
    node_environment "$n"
    "$RMQ_BIN/rabbitmqctl" -n "$RABBITMQ_NODENAME" "$@" >>"$(node_dir "$n")/log/$out" 2>&1
  )
}

# --- The power-loss layer (--power-loss-layer) ---------------------------------------------------

LAYER_FILE="$STATE/power-loss-layer"

# True when the last start mounted a power-loss layer under every node's data directory.
layer_on() { [[ -f "$LAYER_FILE" ]]; }

# Mounts a layer over node n's (empty) mnesia directory and adds its lines to node.env.
mount_layer() {
  local n=$1 dir
  dir="$(node_dir "$n")"
  power_loss_mount "$dir" "$dir/mnesia" ||
    die "node $n: mounting the power-loss layer failed (log: $dir/power-loss.log)"
  power_loss_env "$dir" >>"$dir/node.env"
}

# Makes what every node's layer holds durable: what the start wrote is on disk, as it would be on
# a machine that has run for a while.
sync_layers() {
  local n tool
  tool="$(power_loss_tool)"
  for n in $(known_nodes); do
    "$tool" sync --control "$(power_loss_socket "$(node_dir "$n")")" >/dev/null ||
      die "node $n: syncing the power-loss layer failed (log: $(node_dir "$n")/power-loss.log)"
  done
}

# Unmounts every layer still mounted under the state directory (a clean unmount syncs first).
# Called once no node runs: by stop, and by start before it wipes a state whose stop never ran.
unmount_layers() {
  local dir
  for dir in "$STATE"/nodes/*/; do
    dir="${dir%/}"
    [[ -d "$dir" ]] || continue
    if [[ -S "$(power_loss_socket "$dir")" ]] || mountpoint -q "$dir/mnesia" 2>/dev/null; then
      power_loss_unmount "$dir" "$dir/mnesia" ||
        die "unmounting the power-loss layer at $dir/mnesia failed (log: $dir/power-loss.log)"
      echo "rabbitmq node $(basename "$dir"): power-loss layer unmounted, its data durable in $dir/durable"
    fi
  done
}

# "power-loss layer mounted, 1234 bytes unsynced", or why not, for status.
layer_state() {
  local answer tool
  tool="$(node_get "$1" POWER_LOSS_TOOL)"
  if answer="$("$tool" status --control "$(power_loss_socket "$(node_dir "$1")")" 2>&1)"; then
    echo "power-loss layer mounted, $(sed -n 's/^unsynced_bytes=//p' <<<"$answer") bytes unsynced"
  else
    echo "power-loss layer not answering"
  fi
}

# --- epmd ---------------------------------------------------------------------------------------

# epmd outlives the nodes. Start it here (unless one already runs) and keep its PID, so stop ends
# exactly the epmd this script started and leaves anyone else's alone.
ensure_epmd() {
  port_taken "$EPMD_PORT" && return 0
  command -v epmd >/dev/null || die "epmd not found; run: sudo apt-get install -y erlang-base"
  mkdir -p "$STATE"
  setsid epmd -address 127.0.0.1 -port "$EPMD_PORT" >"$STATE/epmd.out" 2>&1 </dev/null &
  echo $! >"$EPMD_PID_FILE"
  for _ in $(seq 1 50); do
    port_taken "$EPMD_PORT" && return 0
    sleep 0.1
  done
  die "epmd did not listen on 127.0.0.1:$EPMD_PORT within 5 s; see $STATE/epmd.out"
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

# --- One node ----------------------------------------------------------------------------------

# Boots node n in the background, in its own cgroup, and records its PID. Fails (without exiting)
# if the node writes no PID file in time; the caller decides what else to stop.
#
# Not `rabbitmq-server -detached`, which forks the VM away from the command that started it:
# with RABBITMQ_ALLOW_INPUT set, rabbitmq-server execs erl, erl execs erlexec and erlexec execs
# beam.smp, so setsid, node-cgroup.sh and the VM are one process (-noinput keeps the Erlang shell
# off stdin). The node writes that same PID to its PID file, which is the PID recorded here.
launch_node() {
  local n=$1 dir pid_file
  dir="$(node_dir "$n")"
  pid_file="$dir/rabbitmq.pid"
  rm -f "$pid_file"
  local launched
  (
    node_environment "$n"
    export PLUMB_RABBITMQ_NODE_DIR="$dir"
    export RABBITMQ_ALLOW_INPUT=true
    exec setsid "$LOCAL_DIR/node-cgroup.sh" run "$(cgroup_name "$n")" \
      "$RMQ_BIN/rabbitmq-server" -noinput
  ) >>"$dir/log/detached.out" 2>&1 </dev/null &
  launched=$!
  # await_startup fails at once on a node that has not registered yet, so first wait (bounded)
  # for the node to write its PID file, or to exit.
  for _ in $(seq 1 $((START_TIMEOUT * 10))); do
    [[ -s "$pid_file" ]] && break
    kill -0 "$launched" 2>/dev/null || return 1
    sleep 0.1
  done
  [[ -s "$pid_file" ]] || return 1
  local pid
  pid="$(tr -d '[:space:]' <"$pid_file")"
  node_set "$n" PID "$pid"
  # Recorded only once the VM is in it: a failed join leaves CGROUP empty (cuts refused up front).
  node_set "$n" CGROUP "$("$LOCAL_DIR/node-cgroup.sh" path "$(cgroup_name "$n")" "$pid")"
}

# Waits until node n's RabbitMQ application runs.
await_node() {
  ctl "$1" await.out await_startup --timeout "$START_TIMEOUT"
}

# Boots node n and waits until it is ready.
boot_node() {
  launch_node "$1" && await_node "$1"
}

# Stops node n: SIGTERM lets the node shut down cleanly; SIGKILL after 60 s. Besides the recorded
# PID, any server carrying the node's marker, such as a node that timed out before writing its PID.
stop_node_process() {
  local n=$1 pid pids
  pids="$(
    running_pid "$n" || true
    marked_pids "$n"
  )"
  pids="$(echo "$pids" | sort -u)"
  for pid in $pids; do
    # A node left frozen (SIGSTOP) would not act on SIGTERM until continued.
    kill -CONT "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
  for pid in $pids; do
    for _ in $(seq 1 120); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  done
  node_set "$n" PID ""
}

# --- Whole cluster -----------------------------------------------------------------------------

# Stops every known node at once (each shutdown takes seconds; in parallel they overlap).
stop_all_nodes() {
  local n pids=()
  for n in $(known_nodes); do
    stop_node_process "$n" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || true
  done
}

# Ends a failed start: stops what was started and reports the node and its log on one line.
fail_start() {
  local n=$1 what=$2
  stop_all_nodes
  stop_epmd
  unmount_layers >/dev/null 2>&1 || true
  die "node $(node_get "$n" NODE) $what; see $(node_get "$n" LOG)"
}

# Runs "$step N" for nodes first..last at once and fails the start on the first node that failed.
on_nodes_in_parallel() {
  local step=$1 what=$2 first=$3 last=$4 n
  local -A pids=()
  for n in $(seq "$first" "$last"); do
    "$step" "$n" &
    pids[$n]=$!
  done
  local failed=""
  for n in $(seq "$first" "$last"); do
    wait "${pids[$n]}" || failed="${failed:-$n}"
  done
  [[ -z "$failed" ]] || fail_start "$failed" "$what"
}

running_count() {
  local n count=0
  for n in $(known_nodes); do
    running_pid "$n" >/dev/null && count=$((count + 1))
  done
  echo "$count"
}

start() {
  local count=$1 layer=$2 n name
  ((count >= 1 && count <= MAX_NODES)) || die "--nodes $count: allowed 1..$MAX_NODES"
  local running known
  running="$(running_count)"
  known="$(known_nodes | wc -l)"
  if ((running > 0)); then
    if ((running == known && known == count)); then
      local had=0
      layer_on && had=1
      ((had == layer)) ||
        die "rabbitmq already runs $count node(s) $( ((had)) && echo with || echo without) the power-loss layer: stop it first (deploy/local/rabbitmq.sh stop)"
      echo "rabbitmq already running ($running node(s))"
      return 0
    fi
    die "$running of $known node(s) already run; stop them first (deploy/local/rabbitmq.sh stop)"
  fi
  [[ -x "$RMQ_BIN/rabbitmq-server" ]] ||
    die "RabbitMQ is not installed; run: sudo apt-get install -y rabbitmq-server"
  ((count == 1)) || command -v curl >/dev/null ||
    die "curl not found (it checks the cluster's membership); run: sudo apt-get install -y curl"
  for n in $(seq 1 "$count"); do
    for port in $(amqp_port "$n") $(stream_port "$n") $(mgmt_port "$n") $(dist_port "$n"); do
      port_taken "$port" && die "node $n: port 127.0.0.1:$port is already in use by another process"
    done
  done

  if ((layer)); then
    local why
    why="$(power_loss_check 2>&1)" || die "--power-loss-layer: ${why##*$'\n'}"
  fi

  # A clean cluster each time: queues left by an earlier run would skew the next one. A layer left
  # mounted by a cluster whose stop never ran would keep its data from the wipe.
  unmount_layers >/dev/null
  rm -rf "$STATE"
  mkdir -p "$STATE/home"
  # Written before any node boots: nodes booting at once would otherwise each create a cookie.
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$STATE/home/.erlang.cookie"
  chmod 400 "$STATE/home/.erlang.cookie"
  for n in $(seq 1 "$count"); do
    if ((count == 1)); then name=plumb@localhost; else name="r$n@localhost"; fi
    write_node_files "$n" "$name"
    if ((layer)); then mount_layer "$n"; fi
  done
  if ((layer)); then touch "$LAYER_FILE"; fi
  ensure_epmd

  # Every node boots at once (each takes ~7 s of mostly waiting); then nodes 2.. join node 1.
  on_nodes_in_parallel boot_node "did not start within $START_TIMEOUT s" 1 "$count"
  if ((count > 1)); then
    join_cluster "$count"
  fi
  if ((layer)); then
    sync_layers
    echo "Power-loss layer under every node's data directory (fault action power-loss)"
  fi
  if ((count == 1)); then
    echo "rabbitmq started (pid $(running_pid 1)) amqp://127.0.0.1:$(amqp_port 1) stream 127.0.0.1:$(stream_port 1)"
  else
    echo "rabbitmq cluster of $count nodes started; clients connect to node 1: amqp://127.0.0.1:$(amqp_port 1) stream 127.0.0.1:$(stream_port 1)"
    status
  fi
}

# Nodes 2..count leave their own one-node clusters and join node 1's: stop_app at once, then
# join_cluster one at a time (each changes node 1's membership), then start_app at once.
join_cluster() {
  local count=$1 n
  on_nodes_in_parallel stop_app_step "could not stop its app to join the cluster" 2 "$count"
  for n in $(seq 2 "$count"); do
    ctl "$n" join.out join_cluster "$(node_get 1 NODE)" ||
      fail_start "$n" "could not join $(node_get 1 NODE)"
  done
  on_nodes_in_parallel start_app_step "did not start after joining the cluster" 2 "$count"
  # The cluster is a fact: node 1 must count every node as running.
  local seen=""
  for _ in $(seq 1 50); do
    seen="$(running_nodes_seen_by_node_1)"
    [[ "$seen" == "$count" ]] && return 0
    sleep 0.2
  done
  fail_start 1 "reports ${seen:-no} running nodes, not $count"
}

stop_app_step() { ctl "$1" join.out stop_app; }
# start_app returns once the node's RabbitMQ application runs: no await_startup needed after it.
start_app_step() { ctl "$1" join.out start_app; }

# Running nodes as node 1's management API lists them (an HTTP GET is much quicker than starting
# another rabbitmqctl VM).
running_nodes_seen_by_node_1() {
  curl -s -u guest:guest --max-time 5 \
    "http://127.0.0.1:$(node_get 1 MGMT_PORT)/api/nodes?columns=name,running" |
    grep -o '"running":true' | wc -l
}

stop() {
  local running
  running="$(running_count)"
  if ((running == 0)); then
    echo "rabbitmq not running"
  else
    stop_all_nodes
    echo "rabbitmq stopped ($running node(s))"
  fi
  stop_epmd
  unmount_layers
}

status() {
  local n pid known=0 running=0
  for n in $(known_nodes); do
    known=$((known + 1))
    local state
    if pid="$(running_pid "$n")"; then
      running=$((running + 1))
      state="running pid $pid"
    else
      state="stopped"
    fi
    echo "node $n $(node_get "$n" NODE) $state amqp $(node_get "$n" AMQP_PORT)" \
      "stream $(node_get "$n" STREAM_PORT) management $(node_get "$n" MGMT_PORT)" \
      "distribution $(node_get "$n" DIST_PORT) data $(node_get "$n" DATA_DIR)" \
      "log $(node_get "$n" LOG)$(layer_on && echo ", $(layer_state "$n")")"
  done
  if ((running == 0)); then
    echo "rabbitmq not running"
    return 3
  fi
  if ((running < known)); then
    echo "rabbitmq running $running of $known nodes"
    return 1
  fi
  echo "rabbitmq running ($running node(s))"
}

# The node number given to start-node/stop-node, checked against the state dir.
existing_node() {
  [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] || die "expected a node number, got '${1:-}'"
  [[ -f "$(node_dir "$1")/node.env" ]] ||
    die "no node $1 in $STATE/nodes (start a cluster first: deploy/local/rabbitmq.sh start --nodes 3)"
  echo "$1"
}

start_node() {
  local n
  n="$(existing_node "${1:-}")"
  if pid="$(running_pid "$n")"; then
    # A node left frozen (SIGSTOP) is running but answers nothing: let it go on.
    if [[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" == T ]]; then
      kill -CONT "$pid" 2>/dev/null || true
      echo "node $n $(node_get "$n" NODE) was stopped (SIGSTOP); continued it (pid $pid)"
      return 0
    fi
    echo "node $n $(node_get "$n" NODE) already running (pid $pid)"
    return 0
  fi
  ensure_epmd
  if layer_on; then
    # After a power loss the layer is still mounted with what survived; one that died (or a
    # rebooted host) is mounted again over the node's durable data.
    power_loss_ensure "$(node_dir "$n")" "$(node_dir "$n")/mnesia" ||
      die "node $n: the power-loss layer is not mounted and mounting it failed (log: $(node_dir "$n")/power-loss.log)"
  fi
  # Its data is kept: the node knows its cluster and rejoins it on boot. A node whose peers are
  # down waits in its boot for their tables (after a power loss of every node, each does), so a
  # whole cluster coming back one start-node at a time launches the first nodes without waiting,
  # and the start-node that brings the last one waits for them all.
  launch_node "$n" ||
    die "node $(node_get "$n" NODE) wrote no PID file within $START_TIMEOUT s; see $(node_get "$n" LOG)"
  local other down=0
  for other in $(known_nodes); do
    ((other == n)) || running_pid "$other" >/dev/null || down=$((down + 1))
  done
  if ((down > 0)); then
    touch "$(node_dir "$n")/start-pending"
    echo "node $n $(node_get "$n" NODE) launched (pid $(running_pid "$n")); $down other node(s) down," \
      "so it waits for them in its boot: the start-node that brings the last one waits for it"
    return 0
  fi
  local waiting=("$n")
  for other in $(known_nodes); do
    ((other == n)) || [[ ! -f "$(node_dir "$other")/start-pending" ]] || waiting+=("$other")
  done
  local -A awaiting=()
  for other in "${waiting[@]}"; do
    await_node "$other" &
    awaiting[$other]=$!
  done
  for other in "${waiting[@]}"; do
    wait "${awaiting[$other]}" ||
      die "node $(node_get "$other" NODE) did not start within $START_TIMEOUT s; see $(node_get "$other" LOG)"
  done
  rm -f "$STATE"/nodes/*/start-pending
  echo "node $n $(node_get "$n" NODE) started (pid $(running_pid "$n"))"
  for other in "${waiting[@]:1}"; do
    echo "node $other $(node_get "$other" NODE), waiting for its peers, started too"
  done
}

stop_node() {
  local n
  n="$(existing_node "${1:-}")"
  stop_node_process "$n"
  echo "node $n $(node_get "$n" NODE) stopped"
}

usage() {
  echo "usage: $0 start [--nodes N] [--power-loss-layer] | stop | status | start-node N | stop-node N" >&2
  exit 2
}

# start's options: [--nodes N] [--power-loss-layer], default one node without the layer.
start_command() {
  local nodes=1 layer=0
  while (($# > 0)); do
    case "$1" in
      --nodes) [[ "${2:-}" =~ ^[0-9]+$ ]] || usage; nodes="$2"; shift 2 ;;
      --nodes=*) [[ "${1#--nodes=}" =~ ^[0-9]+$ ]] || usage; nodes="${1#--nodes=}"; shift ;;
      --power-loss-layer) layer=1; shift ;;
      *) usage ;;
    esac
  done
  start "$nodes" "$layer"
}

case "${1:-}" in
  start) shift; start_command "$@" ;;
  stop) stop ;;
  status) status ;;
  start-node) start_node "${2:-}" ;;
  stop-node) stop_node "${2:-}" ;;
  *) usage ;;
esac
