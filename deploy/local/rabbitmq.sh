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

# shellcheck source=lib/nodes.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nodes.sh" rabbitmq
STATE="$NODES_STATE"
RMQ_BIN=/usr/lib/rabbitmq/bin
EPMD_PORT=4369
EPMD_PID_FILE="$STATE/epmd.pid"
MAX_NODES=9
# Generous: other brokers may be starting on the same two cores.
plumb_settings RABBITMQ START_TIMEOUT=180
# How long a node whose boot failed may take to exit (see await_node_relaunching).
NODE_EXIT_GRACE_S=30
# How the lines lib/nodes.sh prints name a node, in this script's wording.
NODES_DIE_PREFIX="rabbitmq.sh: "
NODES_TITLE="rabbitmq node"
NODES_NOT_RUNNING="rabbitmq not running"
NODES_MSG_KILLED="{title} (pid {pid}) did not stop within {timeout}s: killing it"

# --- Node layout -------------------------------------------------------------------------------

amqp_port() { echo $((5671 + $1)); }
stream_port() { echo $((5551 + $1)); }
mgmt_port() { echo $((15671 + $1)); }
dist_port() { echo $((25671 + $1)); }

# Every server this script launches carries its node directory in this environment variable
# (rabbitmqctl VMs do not), so a node's process is known by more than a PID that may be reused.
marker() { echo "PLUMB_RABBITMQ_NODE_DIR=$(nodes_dir "$1")"; }

has_marker() {
  { tr '\0' '\n' <"/proc/$1/environ"; } 2>/dev/null | grep -qxF "$2"
}

node_owns_pid() { has_marker "$2" "$(marker "$1")"; }

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

# The power-loss layer lies over a node's whole mnesia directory (its DATA_DIR is the node's own
# directory within it).
layer_data_dir() { echo "$(nodes_dir "$1")/mnesia"; }

# Writes node n's config, plugins and node.env (with no PID yet).
write_node_files() {
  local n=$1 name=$2 dir
  dir="$(nodes_dir "$n")"
  mkdir -p "$dir/mnesia" "$dir/log"
  # stream.advertised_port is per node: a stream-protocol client connects to each stream's leader
  # and replicas at the host and port their node advertises, so nodes 2 and 3 must not all claim
  # node 1's port.
  cat >"$dir/rabbitmq.conf" <<CONF
listeners.tcp.default = 127.0.0.1:$(amqp_port "$n")
stream.listeners.tcp.1 = 127.0.0.1:$(stream_port "$n")
stream.advertised_host = 127.0.0.1
stream.advertised_port = $(stream_port "$n")
management.tcp.ip = 127.0.0.1
management.tcp.port = $(mgmt_port "$n")
loopback_users = none
CONF
  echo '[rabbitmq_management,rabbitmq_stream].' >"$dir/enabled_plugins"
  : >"$dir/rabbitmq-env.conf"
  nodes_write_env "$n" <<ENV
NODE=$name
NAME=$name
PID=
CGROUP=$(nodes_cgroup_path "$n")
PORTS=$(amqp_port "$n"),$(stream_port "$n"),$(mgmt_port "$n"),$(dist_port "$n")
AMQP_PORT=$(amqp_port "$n")
STREAM_PORT=$(stream_port "$n")
MGMT_PORT=$(mgmt_port "$n")
DIST_PORT=$(dist_port "$n")
DATA_DIR=$dir/mnesia/$name
LOG=$dir/log/$name.log
ENV
}

# The server and the CLI must agree on node name, cookie (in $HOME) and file locations.
node_environment() {
  local n=$1 dir
  dir="$(nodes_dir "$n")"
  export HOME="$STATE/home"
  export RABBITMQ_NODENAME
  RABBITMQ_NODENAME="$(nodes_get "$n" NODE)"
  export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  export RABBITMQ_NODE_PORT
  RABBITMQ_NODE_PORT="$(nodes_get "$n" AMQP_PORT)"
  export RABBITMQ_DIST_PORT
  RABBITMQ_DIST_PORT="$(nodes_get "$n" DIST_PORT)"
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
    "$RMQ_BIN/rabbitmqctl" -n "$RABBITMQ_NODENAME" "$@" >>"$(nodes_dir "$n")/log/$out" 2>&1
  )
}

# --- epmd ---------------------------------------------------------------------------------------

# epmd outlives the nodes. Start it here (unless one already runs) and keep its PID, so stop ends
# exactly the epmd this script started and leaves anyone else's alone.
ensure_epmd() {
  nodes_port_open 127.0.0.1 "$EPMD_PORT" && return 0
  command -v epmd >/dev/null || die "epmd not found; run: sudo apt-get install -y erlang-base"
  mkdir -p "$STATE"
  setsid epmd -address 127.0.0.1 -port "$EPMD_PORT" >"$STATE/epmd.out" 2>&1 </dev/null &
  echo $! >"$EPMD_PID_FILE"
  for _ in $(seq 1 50); do
    nodes_port_open 127.0.0.1 "$EPMD_PORT" && return 0
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
  dir="$(nodes_dir "$n")"
  pid_file="$dir/rabbitmq.pid"
  rm -f "$pid_file"
  local launched
  (
    node_environment "$n"
    export PLUMB_RABBITMQ_NODE_DIR="$dir"
    export RABBITMQ_ALLOW_INPUT=true
    exec setsid "$NODES_CGROUP_TOOL" run "$(nodes_cgroup "$n")" \
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
  nodes_record_pid "$n" "$(tr -d '[:space:]' <"$pid_file")"
}

# Waits until node n's RabbitMQ application runs.
await_node() {
  ctl "$1" await.out await_startup --timeout "$START_TIMEOUT"
}

# Waits until node n, launched while its peers were down, runs; launches it again (at most twice)
# if its boot ends first. Nodes booting together after every node stopped can end one another's
# boot: RabbitMQ 3.10's feature-flag sync with a peer still booting fails ({badmap,undefined}) and
# that node's VM exits, while the others wait for its tables until their own start times out.
await_node_relaunching() {
  local n=$1 relaunched=0 tenths
  until await_node "$n"; do
    # A boot that ended takes its VM down only after writing a crash dump, a few seconds on 2 busy
    # cores: await_startup can fail in that time, the node still up. Judged then, two nodes whose
    # boots both ended had one launched again and the other reported as not started.
    for ((tenths = 0; tenths < NODE_EXIT_GRACE_S * 10; tenths++)); do
      nodes_up "$n" || break
      sleep 0.1
    done
    # Still running, yet not started within the timeout: launching again would not help.
    nodes_up "$n" && return 1
    if ((relaunched == 2)); then
      echo "node $n $(nodes_get "$n" NODE): its boot ended $((relaunched + 1)) times" >&2
      return 1
    fi
    relaunched=$((relaunched + 1))
    echo "node $n $(nodes_get "$n" NODE): its boot ended while its peers waited for it" \
      "(see $(nodes_get "$n" LOG)); launching it again"
    launch_node "$n" || return 1
  done
}

# Boots node n and waits until it is ready.
boot_node() {
  launch_node "$1" && await_node "$1"
}

# Stops the nodes given, all at once: SIGTERM lets each shut down cleanly; SIGKILL after 60 s.
# Besides the recorded PID, any server carrying the node's marker, such as a node that timed out
# before writing its PID.
stop_nodes() {
  local n pid entries=()
  for n in "$@"; do
    for pid in $({
      nodes_pid "$n" || true
      marked_pids "$n"
    } | sort -u); do
      entries+=("$n:$pid")
    done
  done
  nodes_stop_pids 60 "${entries[@]+"${entries[@]}"}"
  for n in "$@"; do
    nodes_set "$n" PID ""
  done
}

# --- Whole cluster -----------------------------------------------------------------------------

# Ends a failed start: stops what was started and reports the node and its log on one line.
fail_start() {
  local n=$1 what=$2
  # shellcheck disable=SC2046
  stop_nodes $(nodes_list)
  stop_epmd
  nodes_layer_unmount_all >/dev/null 2>&1 || true
  die "node $(nodes_get "$n" NODE) $what; see $(nodes_get "$n" LOG)"
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

start_usage() { usage; }

start() {
  nodes_start_options "$@"
  local count="$NODES_COUNT" layer="$NODES_LAYER" n name port
  [[ "$count" =~ ^[0-9]+$ ]] || usage
  ((count >= 1 && count <= MAX_NODES)) || die "--nodes $count: allowed 1..$MAX_NODES"
  local running known
  running="$(nodes_running | wc -l)"
  known="$(nodes_list | wc -l)"
  if ((running > 0)); then
    if ((running == known && known == count)); then
      nodes_same_layer "$layer" ||
        die "rabbitmq already runs $count node(s) $NODES_HAD the power-loss layer: stop it first (deploy/local/rabbitmq.sh stop)"
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
      if nodes_port_open 127.0.0.1 "$port"; then
        die "node $n: port 127.0.0.1:$port is already in use by another process"
      fi
    done
  done
  if ((layer)); then nodes_require_fuse; fi

  # A clean cluster each time: queues left by an earlier run would skew the next one. A layer left
  # mounted by a cluster whose stop never ran would keep its data from the wipe.
  nodes_wipe "$STATE"
  mkdir -p "$STATE/home"
  # Written before any node boots: nodes booting at once would otherwise each create a cookie.
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$STATE/home/.erlang.cookie"
  chmod 400 "$STATE/home/.erlang.cookie"
  for n in $(seq 1 "$count"); do
    if ((count == 1)); then name=plumb@localhost; else name="r$n@localhost"; fi
    write_node_files "$n" "$name"
    if ((layer)); then
      nodes_layer_mount "$n" "$(layer_data_dir "$n")" || die "$NODES_FAILURE"
    fi
  done
  ensure_epmd

  # Every node boots at once (each takes ~7 s of mostly waiting); then nodes 2.. join node 1.
  on_nodes_in_parallel boot_node "did not start within $START_TIMEOUT s" 1 "$count"
  if ((count > 1)); then
    join_cluster "$count"
  fi
  if ((layer)); then
    # shellcheck disable=SC2046
    nodes_layer_sync $(nodes_list) || die "$NODES_FAILURE"
    echo "Power-loss layer under every node's data directory (fault action power-loss)"
  fi
  if ((count == 1)); then
    echo "rabbitmq started (pid $(nodes_pid 1)) amqp://127.0.0.1:$(amqp_port 1) stream 127.0.0.1:$(stream_port 1)"
  else
    echo "rabbitmq cluster of $count nodes started; clients connect to node 1: amqp://127.0.0.1:$(amqp_port 1) stream 127.0.0.1:$(stream_port 1)"
    nodes_status
  fi
}

# Nodes 2..count leave their own one-node clusters and join node 1's: stop_app at once, then
# join_cluster one at a time (each changes node 1's membership), then start_app at once.
join_cluster() {
  local count=$1 n
  on_nodes_in_parallel stop_app_step "could not stop its app to join the cluster" 2 "$count"
  for n in $(seq 2 "$count"); do
    ctl "$n" join.out join_cluster "$(nodes_get 1 NODE)" ||
      fail_start "$n" "could not join $(nodes_get 1 NODE)"
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
    "http://127.0.0.1:$(nodes_get 1 MGMT_PORT)/api/nodes?columns=name,running" |
    grep -o '"running":true' | wc -l
}

stop() {
  local running
  running="$(nodes_running | wc -l)"
  if ((running == 0)); then
    echo "rabbitmq not running"
  else
    # shellcheck disable=SC2046
    stop_nodes $(nodes_list)
    echo "rabbitmq stopped ($running node(s))"
  fi
  stop_epmd
  nodes_layer_unmount_all
}

# status (nodes_status, once some node runs): a line per node, then how many run.
status_lines() {
  local n pid state layer
  for n in $(nodes_list); do
    if pid="$(nodes_pid "$n")"; then state="running pid $pid"; else state="stopped"; fi
    layer=""
    if nodes_layer_on "$n"; then layer=", $(nodes_layer_state "$n")"; fi
    echo "node $n $(nodes_get "$n" NODE) $state amqp $(nodes_get "$n" AMQP_PORT)" \
      "stream $(nodes_get "$n" STREAM_PORT) management $(nodes_get "$n" MGMT_PORT)" \
      "distribution $(nodes_get "$n" DIST_PORT) data $(nodes_get "$n" DATA_DIR)" \
      "log $(nodes_get "$n" LOG)$layer"
  done
  if (($1 < $2)); then
    echo "rabbitmq running $1 of $2 nodes"
  else
    echo "rabbitmq running ($1 node(s))"
  fi
}

# The node number given to start-node/stop-node, checked against the state dir.
existing_node() {
  [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] || die "expected a node number, got '${1:-}'"
  [[ -f "$(nodes_env_file "$1")" ]] ||
    die "no node $1 in $NODES_DIR (start a cluster first: deploy/local/rabbitmq.sh start --nodes 3)"
  echo "$1"
}

start_node() {
  local n pid
  n="$(existing_node "${1:-}")"
  if pid="$(nodes_pid "$n")"; then
    # A node left frozen (SIGSTOP) is running but answers nothing: let it go on.
    if nodes_thaw "$pid"; then
      echo "node $n $(nodes_get "$n" NODE) was stopped (SIGSTOP); continued it (pid $pid)"
      return 0
    fi
    echo "node $n $(nodes_get "$n" NODE) already running (pid $pid)"
    return 0
  fi
  ensure_epmd
  # After a power loss the layer is still mounted with what survived; one that died (or a
  # rebooted host) is mounted again over the node's durable data.
  nodes_layer_ensure "$n" || die "$NODES_FAILURE"
  # Its data is kept: the node knows its cluster and rejoins it on boot. A node whose peers are
  # down waits in its boot for their tables (after a power loss of every node, each does), so a
  # whole cluster coming back one start-node at a time launches the first nodes without waiting,
  # and the start-node that brings the last one waits for them all.
  launch_node "$n" ||
    die "node $(nodes_get "$n" NODE) wrote no PID file within $START_TIMEOUT s; see $(nodes_get "$n" LOG)"
  local other down=0
  for other in $(nodes_list); do
    ((other == n)) || nodes_up "$other" || down=$((down + 1))
  done
  if ((down > 0)); then
    touch "$(nodes_pending_file "$n")"
    echo "node $n $(nodes_get "$n" NODE) launched (pid $(nodes_pid "$n")); $down other node(s) down," \
      "so it waits for them in its boot: the start-node that brings the last one waits for it"
    return 0
  fi
  local waiting=("$n")
  for other in $(nodes_pending); do
    ((other == n)) || waiting+=("$other")
  done
  local -A awaiting=()
  for other in "${waiting[@]}"; do
    await_node_relaunching "$other" &
    awaiting[$other]=$!
  done
  for other in "${waiting[@]}"; do
    wait "${awaiting[$other]}" ||
      die "node $(nodes_get "$other" NODE) did not start within $START_TIMEOUT s; see $(nodes_get "$other" LOG)"
  done
  nodes_clear_pending
  echo "node $n $(nodes_get "$n" NODE) started (pid $(nodes_pid "$n"))"
  for other in "${waiting[@]:1}"; do
    echo "node $other $(nodes_get "$other" NODE), waiting for its peers, started too"
  done
}

stop_node() {
  local n
  n="$(existing_node "${1:-}")"
  stop_nodes "$n"
  echo "node $n $(nodes_get "$n" NODE) stopped"
}

USAGE="start [--nodes N] [--power-loss-layer] | stop | status | start-node N | stop-node N"
usage() {
  echo "usage: $0 $USAGE" >&2
  exit 2
}

# stop is this script's own (it also stops epmd); nodes_main runs the other commands.
case "${1:-}" in
  stop) stop ;;
  *) nodes_main "$USAGE" "$@" ;;
esac
