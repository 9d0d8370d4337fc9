#!/usr/bin/env bash
# shellcheck disable=SC2153 # plumb_settings (lib/settings.sh) sets PORT and the others
# Runs Redis (Debian's redis-server) on 127.0.0.1 for quick starts and the driver-redis tests.
#
#   redis.sh start [--nodes N] [--power-loss-layer]
#                                one server (the default), or N nodes: a primary and N-1 replicas,
#                                each node with its own Sentinel (master name "plumb"); with
#                                --power-loss-layer each server's data directory is a power-loss
#                                layer (below)
#   redis.sh stop                stops every node this script started (and unmounts the layers)
#   redis.sh status              one line per server and per Sentinel: role, PID, port, data
#                                directory (exit 0 when all run, 3 when none, 1 when some)
#   redis.sh start-node N        starts what is stopped of node N of the running cluster again
#                                (its server and/or its Sentinel; see start_node for the role)
#   redis.sh stop-node N         stops node N, its Sentinel first (SIGTERM; a fault injector may
#                                SIGKILL the server instead)
#   redis.sh primary             prints the node number of the current primary
#
# Node k runs a redis-server on PLUMB_REDIS_PORT+k-1 (6379, the single server's port, so the same
# driver file reaches either), node 1 the first primary. In a cluster node k also runs a Sentinel
# on PLUMB_REDIS_SENTINEL_PORT+k-1 (26379), quorum a majority of the nodes. A node's server and
# Sentinel run in one cgroup, plumb-redis-<k> (deploy/local/node-cgroup.sh), the way a machine
# holds both: a fault that cuts node k off the network cuts its Sentinel off with it, so a
# partitioned primary keeps only its own Sentinel (a minority) and the others fail over.
#
# Sentinel timings are shortened so a fault test finishes in seconds, not minutes: the primary is
# marked down after 2 s without a reply (down-after-milliseconds 2000; Redis's default is 30000),
# and failover-timeout is 5000 (default 180000). That timeout also keeps a Sentinel that voted in
# one failover from starting another of the same primary for twice its length: with 10 s here, a
# fault that comes within 10 s of the last failover finds Sentinels that will not fail over yet
# (at 10000, a 10 s partition 10 to 20 s after a failover healed before any Sentinel moved). Two
# Sentinels that ask for votes at once split them, give up after min(failover-timeout, 10 s) and
# try again 10 s after their first try: a fault meant to cause a failover lasts 15 s or more
# (down-after, a split election and its retry), 25 s to be sure of one.
#
# State lives under ${PLUMB_STATE_DIR:-<repo>/.plumb}/redis/, wiped on every start. Each node has a
# directory nodes/<k>/ with its configs, logs and data directories, and nodes/<k>/node.env for
# fault injection and resource sampling:
#   NODE=1 NAME=127.0.0.1:6379 ROLE=primary PID=<server pid> SENTINEL_PID=<pid> PORTS=6379,26379
#   CGROUP=<dir or empty> PORT=6379 SENTINEL_PORT=26379 DATA_DIR=... LOG=... SENTINEL_LOG=...
# PID is the server's (what kill and freeze aim at); the Sentinel keeps running beside it. Servers
# start with no snapshots and no AOF; durability variants are applied by the driver with CONFIG
# SET (see driver-redis/README.md).
#
# --power-loss-layer mounts deploy/power-loss's layer over each server's data directory (its `dir`:
# the AOF directory and any RDB file), backed by nodes/<k>/durable, and adds POWER_LOSS_TOOL,
# POWER_LOSS_CONTROL and POWER_LOSS_BACKING to node.env, so that a fault plan's power-loss can drop
# what a server wrote and did not fsync. The Sentinels' state stays outside the layer. What the
# start wrote is made durable once the cluster is up, as on a machine that has run a while. Where
# FUSE is not available the start says so in one line and starts nothing.
set -euo pipefail

# shellcheck source=lib/nodes.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nodes.sh" redis
# How the lines lib/nodes.sh prints name a node, and their wording where it is Redis's own.
NODES_NAME="redis node"
NODES_SEE="; see {log}"
NODES_NOT_RUNNING="redis not running"
NODES_MSG_KILLED="redis pid(s) {pids} did not stop in {timeout}s; sending SIGKILL"

cluster_env="$NODES_STATE/cluster.env"
# Node 1's ports and the timeouts (seconds), each from PLUMB_REDIS_<NAME> or its default here.
# CLUSTER_TIMEOUT waits for replication links and Sentinel discovery: a few seconds; more when the
# 2 cores are busy.
plumb_settings REDIS PORT=6379 SENTINEL_PORT=26379 READY_TIMEOUT=20 CLUSTER_TIMEOUT=90
master_name=plumb
# Sentinel marks the primary down after 2 s without a reply, then fails over (see the top).
down_after_ms=2000
failover_timeout_ms=5000

# --- node state -------------------------------------------------------------------------------

cluster_count() { sed -n 's/^COUNT=//p' "$cluster_env" 2>/dev/null; }
has_sentinel() { [[ -n "$(nodes_get "$1" SENTINEL_PORT)" ]]; }

# Writes a node's state file when the node is first created; PIDs are filled in once it runs.
node_create() {
  local n="$1" role="$2" port="$3" sentinel_port="$4" dir ports
  dir="$(nodes_dir "$n")"
  mkdir -p "$dir/data"
  ports="$port"
  if [[ -n "$sentinel_port" ]]; then
    mkdir -p "$dir/sentinel"
    ports="$port,$sentinel_port"
  fi
  nodes_write_env "$n" <<EOF
NODE=$n
NAME=127.0.0.1:$port
ROLE=$role
PID=
SENTINEL_PID=
PORTS=$ports
CGROUP=$(nodes_cgroup_path "$n")
PORT=$port
SENTINEL_PORT=$sentinel_port
HOST=127.0.0.1
DATA_DIR=$dir/data
LOG=$dir/redis.log
CONF=$dir/redis.conf
SENTINEL_LOG=$dir/sentinel.log
SENTINEL_CONF=$dir/sentinel.conf
EOF
}

# A recycled PID is not ours: the process (node.env's PID, the server, or SENTINEL_PID) must be a
# redis-server on the port of node n's server or Sentinel.
node_owns_pid() {
  local port
  if [[ "$3" == SENTINEL_PID ]]; then port="$(nodes_get "$1" SENTINEL_PORT)"; else port="$(nodes_get "$1" PORT)"; fi
  [[ -n "$port" ]] && nodes_cmdline "$2" | grep -q "redis-server.*:$port"
}

sentinel_pid() { nodes_pid "$1" SENTINEL_PID; }

# Node n runs something: its server or its Sentinel.
nodes_up() { nodes_pid "$1" >/dev/null || sentinel_pid "$1" >/dev/null; }

# Node n runs all it should: its server and, in a cluster, its Sentinel.
nodes_whole() {
  nodes_pid "$1" >/dev/null || return 1
  ! has_sentinel "$1" || sentinel_pid "$1" >/dev/null
}

# --- talking to a server ----------------------------------------------------------------------

# redis-cli waits forever on a frozen (SIGSTOPped) server: bound every call.
cli() {
  local port="$1"
  shift
  timeout 2 redis-cli -h 127.0.0.1 -p "$port" "$@" 2>/dev/null
}

answers_ping() { [[ "$(cli "$1" ping)" == PONG ]]; }

# One field of INFO <section>, e.g. info_field 6380 replication master_link_status.
info_field() {
  cli "$1" info "$2" | tr -d '\r' | sed -n "s/^$3://p"
}

# "primary" or "replica", as the server itself says now.
live_role() {
  case "$(info_field "$1" replication role)" in
    master) echo primary ;;
    slave) echo replica ;;
    *) return 1 ;;
  esac
}

# One field of SENTINEL MASTER plumb, as a Sentinel sees it.
sentinel_field() {
  cli "$1" sentinel master "$master_name" | awk -v k="$2" 'prev == k { print; exit } { prev = $0 }'
}

# The primary's port as most of the Sentinels that answer name it (a Sentinel cut off with the
# old primary may still name that one).
primary_port() {
  local n
  for n in $(nodes_list); do
    sentinel_pid "$n" >/dev/null || continue
    cli "$(nodes_get "$n" SENTINEL_PORT)" sentinel get-master-addr-by-name "$master_name" | sed -n 2p
  done | grep . | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2; found = 1 } END { exit !found }'
}

# Polls `check ARGS...` every 0.1 s until it succeeds or `timeout` seconds pass.
wait_for() {
  local timeout="$1"
  shift
  local deadline=$((SECONDS + timeout))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# --- starting and stopping one process --------------------------------------------------------

# The config of a data node. Same settings as the single server has always had: no snapshots, no
# AOF (the driver applies durability with CONFIG SET). A config file rather than flags, so that
# Sentinel can rewrite it (CONFIG REWRITE) when it moves the node to another primary.
write_server_conf() {
  local n="$1" replica_of="${2:-}" dir
  dir="$(nodes_dir "$n")"
  {
    echo "bind 127.0.0.1"
    echo "port $(nodes_get "$n" PORT)"
    echo "save \"\""
    echo "appendonly no"
    echo "daemonize no"
    echo "dir $dir/data"
    # Redis 7.0 waits 5 s for more replicas before a diskless full sync; here replicas join one
    # at a time or all at once at start, so waiting only delays them.
    echo "repl-diskless-sync-delay 0"
    [[ -z "$replica_of" ]] || echo "replicaof 127.0.0.1 $replica_of"
  } >"$(nodes_get "$n" CONF)"
}

# The config of node n's Sentinel: watches the primary as "plumb", quorum a majority of the nodes.
# Sentinel rewrites this file with what it learns (replicas, other Sentinels, the current primary),
# so a restarted Sentinel starts from what it knew.
write_sentinel_conf() {
  local n="$1" count="$2" dir
  dir="$(nodes_dir "$n")"
  cat >"$(nodes_get "$n" SENTINEL_CONF)" <<EOF
bind 127.0.0.1
port $(nodes_get "$n" SENTINEL_PORT)
daemonize no
dir $dir/sentinel
sentinel monitor $master_name 127.0.0.1 $PORT $((count / 2 + 1))
sentinel down-after-milliseconds $master_name $down_after_ms
sentinel failover-timeout $master_name $failover_timeout_ms
sentinel parallel-syncs $master_name 1
EOF
}

# Launches node n's server or Sentinel (what) in the node's cgroup, waits for PING and records its
# PID (extra args override the config). On failure prints the one-line reason and returns 1.
launch() {
  local n="$1" what="$2"
  shift 2
  local port log conf key mode=()
  if [[ "$what" == sentinel ]]; then
    port="$(nodes_get "$n" SENTINEL_PORT)"
    log="$(nodes_get "$n" SENTINEL_LOG)"
    conf="$(nodes_get "$n" SENTINEL_CONF)"
    key=SENTINEL_PID
    mode=(--sentinel)
  else
    port="$(nodes_get "$n" PORT)"
    log="$(nodes_get "$n" LOG)"
    conf="$(nodes_get "$n" CONF)"
    key=PID
  fi
  local desc="redis node $n ($what, 127.0.0.1:$port)"
  if nodes_port_taken "$port"; then
    echo "$desc: port $port on 127.0.0.1 is already in use: stop what holds it or set PLUMB_REDIS_PORT / PLUMB_REDIS_SENTINEL_PORT"
    return 1
  fi
  local NODES_PID_KEY=$key NODES_MSG_EXITED="$desc exited during start; see $log" \
    NODES_MSG_LATE="$desc did not answer PING after ${READY_TIMEOUT}s; see $log"
  nodes_launch "$n" "$log" redis-server "$conf" "${mode[@]}" "$@"
  nodes_await $((SECONDS + READY_TIMEOUT)) pings "$n:$port" && return 0
  if [[ "$NODES_FAILED_WHY" == exited ]]; then nodes_set "$n" "$key" ""; fi
  echo "$NODES_FAILURE"
  return 1
}

# The server or Sentinel of an entry node:port answers PING.
pings() { answers_ping "${1#*:}"; }

# Stops the given processes, each "n:server" or "n:sentinel", all at once: SIGTERM, up to 15 s to
# go, then SIGKILL for what is left.
terminate() {
  local item n pid key entries=()
  for item in "$@"; do
    n="${item%%:*}"
    key=PID
    [[ "${item#*:}" == server ]] || key=SENTINEL_PID
    if pid="$(nodes_pid "$n" "$key")"; then entries+=("$n/${item#*:}:$pid"); fi
  done
  ((${#entries[@]} > 0)) || return 0
  nodes_stop_pids 15 "${entries[@]}"
  for item in "$@"; do
    n="${item%%:*}"
    if [[ "${item#*:}" == sentinel ]]; then nodes_set "$n" SENTINEL_PID ""; else nodes_set "$n" PID ""; fi
  done
  echo "stopped redis ${entries[*]} (node/process:pid)"
}

# Stops nodes: the Sentinels first, so none starts a failover while the servers go down.
stop_nodes() {
  local n sentinels=() servers=()
  for n in "$@"; do
    sentinels+=("$n:sentinel")
    servers+=("$n:server")
  done
  terminate "${sentinels[@]+"${sentinels[@]}"}"
  terminate "${servers[@]+"${servers[@]}"}"
  rm -f "$NODES_DIR"/*/awaiting-primary
}

# --- the cluster ------------------------------------------------------------------------------

require_binaries() {
  for bin in redis-server redis-cli; do
    command -v "$bin" >/dev/null 2>&1 ||
      die "$bin not found: run 'apt-get install -y redis-server redis-tools' (or deploy/local/install-debian-packages.sh)"
  done
}

# Each given node's server holds a live link to its primary.
replicas_linked() {
  local n
  for n in "$@"; do
    [[ "$(info_field "$(nodes_get "$n" PORT)" replication master_link_status)" == up ]] || return 1
  done
}

# A Sentinel knows the primary, every replica and the other Sentinels (it needs them to vote).
sentinel_sees_all() {
  local port="$1" replicas="$2" others="$3"
  [[ "$(sentinel_field "$port" flags)" == master ]] &&
    [[ "$(sentinel_field "$port" num-slaves)" == "$replicas" ]] &&
    [[ "$(sentinel_field "$port" num-other-sentinels)" == "$others" ]]
}

# Makes everything each node's layer holds durable (what the start wrote).
sync_layers() {
  # shellcheck disable=SC2046
  nodes_layer_sync $(nodes_list) || abort_start "$NODES_FAILURE"
}

# Stops what was started (and unmounts the layers it mounted) and fails with one line naming the
# node and its log.
abort_start() {
  # shellcheck disable=SC2046
  stop_nodes $(nodes_list) >/dev/null 2>&1 || true
  nodes_layer_unmount_all >/dev/null 2>&1 || true
  die "$1 (nodes already started were stopped)"
}

start_cluster() {
  local count="$1" layer="$2" n port sentinel_port
  local replicas=()
  # Node 1 the primary, 2..count replicas of it; in a cluster each node has a Sentinel.
  for ((n = 1; n <= count; n++)); do
    sentinel_port=""
    ((count == 1)) || sentinel_port=$((SENTINEL_PORT + n - 1))
    if ((n == 1)); then
      node_create 1 primary "$PORT" "$sentinel_port"
    else
      node_create "$n" replica $((PORT + n - 1)) "$sentinel_port"
      replicas+=("$n")
    fi
  done
  for n in $(nodes_list); do
    if port="$(nodes_taken_port "$n")"; then
      die "port $port on 127.0.0.1 (redis node $n) is already in use: stop what holds it or set PLUMB_REDIS_PORT / PLUMB_REDIS_SENTINEL_PORT"
    fi
  done
  echo "COUNT=$count" >"$cluster_env"
  echo "MASTER_NAME=$master_name" >>"$cluster_env"
  if ((layer)); then
    echo "POWER_LOSS_LAYER=1" >>"$cluster_env"
    for n in $(nodes_list); do
      nodes_layer_mount "$n" "$(nodes_get "$n" DATA_DIR)" || abort_start "$NODES_FAILURE"
    done
  fi

  local why
  write_server_conf 1
  why="$(launch 1 server)" || abort_start "$why"
  for n in "${replicas[@]}"; do
    write_server_conf "$n" "$PORT"
    why="$(launch "$n" server)" || abort_start "$why"
  done
  if ((${#replicas[@]} > 0)) && ! wait_for "$CLUSTER_TIMEOUT" replicas_linked "${replicas[@]}"; then
    for n in "${replicas[@]}"; do
      replicas_linked "$n" ||
        abort_start "redis node $n (replica, 127.0.0.1:$(nodes_get "$n" PORT)) has no link to the primary after ${CLUSTER_TIMEOUT}s; see $(nodes_get "$n" LOG)"
    done
  fi
  ((count > 1)) || { ((layer)) && sync_layers; return 0; }
  # Sentinels start once the replicas are linked: their first INFO of the primary lists them all
  # (later INFOs come only every 10 s).
  for n in $(nodes_list); do
    write_sentinel_conf "$n" "$count"
    why="$(launch "$n" sentinel)" || abort_start "$why"
  done
  for n in $(nodes_list); do
    wait_for "$CLUSTER_TIMEOUT" sentinel_sees_all "$(nodes_get "$n" SENTINEL_PORT)" "${#replicas[@]}" $((count - 1)) ||
      abort_start "redis node $n (sentinel, 127.0.0.1:$(nodes_get "$n" SENTINEL_PORT)) does not see the primary, ${#replicas[@]} replica(s) and $((count - 1)) other Sentinels after ${CLUSTER_TIMEOUT}s; see $(nodes_get "$n" SENTINEL_LOG)"
  done
  if ((layer)); then sync_layers; fi
}

start_usage() { die "start: unknown option '$1' (usage: $0 start [--nodes N] [--power-loss-layer])"; }

start() {
  nodes_start_options "$@"
  local count="$NODES_COUNT" layer="$NODES_LAYER"
  [[ "$count" =~ ^[1-9]$ ]] || die "--nodes takes a number of nodes from 1 to 9, got '$count'"
  require_binaries
  local n whole=1
  if [[ -n "$(nodes_running)" ]]; then
    for n in $(nodes_list); do nodes_whole "$n" || whole=0; done
    [[ "$(cluster_count)" == "$count" ]] && ((whole)) ||
      die "redis is already running with other nodes, or with some stopped ($0 status): run $0 stop first"
    nodes_same_layer "$layer" ||
      die "redis is already running $NODES_HAD the power-loss layer: run $0 stop first"
    echo "redis already running ($count node(s); $0 status)"
    exit 0
  fi
  ((layer)) && nodes_require_fuse "redis.sh: "
  nodes_wipe "$cluster_env"
  mkdir -p "$NODES_DIR"
  start_cluster "$count" "$layer"
  if ((count == 1)); then
    echo "redis started (pid $(nodes_get 1 PID), 127.0.0.1:$PORT)"
  else
    echo "redis started: primary 127.0.0.1:$PORT, $((count - 1)) replicas, a Sentinel on each node from 127.0.0.1:$SENTINEL_PORT (master name $master_name)"
    describe_nodes
  fi
  if ((layer)); then
    echo "power-loss layer under every server's data directory (fault action power-loss)"
    ((count > 1)) || describe_nodes
  fi
}

# One line per server and per Sentinel; refreshes ROLE in the state files, which changes after a
# failover.
describe_nodes() {
  local n pid port role state
  for n in $(nodes_list); do
    port="$(nodes_get "$n" PORT)"
    role="$(nodes_get "$n" ROLE)"
    if pid="$(nodes_pid "$n")"; then
      state=running
      if role="$(live_role "$port")"; then
        nodes_set "$n" ROLE "$role"
      else
        role="$(nodes_get "$n" ROLE)"
        state="running, not answering"
      fi
    else
      pid=-
      state=stopped
    fi
    printf 'node %s  %-8s  pid %-7s  127.0.0.1:%-5s  %-8s  data %s%s\n' \
      "$n" "$role" "$pid" "$port" "$state" "$(nodes_get "$n" DATA_DIR)" \
      "$(nodes_layer_on "$n" && echo ", $(nodes_layer_state "$n")")"
    has_sentinel "$n" || continue
    port="$(nodes_get "$n" SENTINEL_PORT)"
    if pid="$(sentinel_pid "$n")"; then
      state=running
      answers_ping "$port" || state="running, not answering"
    else
      pid=-
      state=stopped
    fi
    printf 'node %s  %-8s  pid %-7s  127.0.0.1:%-5s  %s\n' "$n" sentinel "$pid" "$port" "$state"
  done
}

status_lines() {
  echo "redis: $1 of $2 node(s) running"
  describe_nodes
}

require_node() {
  [[ "${1:-}" =~ ^[0-9]+$ && -f "$(nodes_env_file "${1:-}")" ]] ||
    die "no redis node '${1:-}' (nodes: $(nodes_list | xargs); start the cluster with $0 start --nodes 3)"
}

# The Sentinels name a primary other than the given port.
primary_is_not() {
  local p
  p="$(primary_port)" && [[ "$p" != "$1" ]]
}

# Some Sentinel names a primary.
primary_known() { primary_port >/dev/null; }

# The node whose server listens on port $1.
node_on_port() {
  local n
  for n in $(nodes_list); do
    [[ "$(nodes_get "$n" PORT)" == "$1" ]] && echo "$n" && return 0
  done
  return 1
}

# Where start-node marks a replica it started while its primary was down: the primary's own
# start-node waits for the link, and such a replica holds no data the cluster could fail over to.
awaiting_file() { echo "$(nodes_dir "$1")/awaiting-primary"; }

# Another node's server runs and is not merely waiting for a primary that is down.
others_serving() {
  local m
  for m in $(nodes_list); do
    [[ "$m" != "$1" ]] || continue
    nodes_pid "$m" >/dev/null && [[ ! -f "$(awaiting_file "$m")" ]] && return 0
  done
  return 1
}

# Starts what is stopped of node n: its Sentinel (from the config it last rewrote) and its server.
# A server restarted as it was would come back as an empty primary (no persistence) and, if it
# still is the primary Sentinel knows, its replicas would copy the empty data set. So a stopped
# server rejoins as a replica of the current primary, after Sentinel has failed over, while another
# server runs. When none does (every server lost at once), there is nothing to fail over to: the
# one the Sentinels name the primary comes back as the primary with whatever its own data directory
# kept (the AOF, if the driver turned it on), and the others as its replicas, waiting for it if it
# is not back yet.
start_node() {
  local n="$1" port why started=()
  require_node "$n"
  require_binaries
  if has_sentinel "$n" && ! sentinel_pid "$n" >/dev/null; then
    why="$(launch "$n" sentinel)" || die "$why"
    started+=("sentinel pid $(nodes_get "$n" SENTINEL_PID) 127.0.0.1:$(nodes_get "$n" SENTINEL_PORT)")
  fi
  if ! nodes_pid "$n" >/dev/null; then
    port="$(nodes_get "$n" PORT)"
    nodes_layer_ensure "$n" || die "$NODES_FAILURE"
    if [[ "$(cluster_count)" == 1 ]]; then
      why="$(launch "$n" server)" || die "$why"
    else
      start_member "$n"
    fi
    started+=("$(nodes_get "$n" ROLE) pid $(nodes_get "$n" PID) 127.0.0.1:$port${member_note:-}")
  fi
  if ((${#started[@]} == 0)); then
    echo "redis node $n already running (pid $(nodes_get "$n" PID))"
  else
    local IFS=';'
    echo "redis node $n started (${started[*]})"
  fi
}

# Starts the server of cluster node n as start_node describes; sets member_note to what the line
# about it should add.
start_member() {
  local n="$1" port primary why
  port="$(nodes_get "$n" PORT)"
  member_note=""
  wait_for "$CLUSTER_TIMEOUT" primary_known ||
    die "redis node $n: no Sentinel names a primary after ${CLUSTER_TIMEOUT}s; not restarting it"
  primary="$(primary_port)"
  if [[ "$primary" == "$port" ]]; then
    if ! others_serving "$n"; then
      start_primary_again "$n"
      return 0
    fi
    wait_for "$CLUSTER_TIMEOUT" primary_is_not "$port" ||
      die "redis node $n: the Sentinels still name it (127.0.0.1:$port) the primary after ${CLUSTER_TIMEOUT}s, or none answers; not restarting it empty as the primary"
    primary="$(primary_port)"
  fi
  nodes_set "$n" ROLE replica
  why="$(launch "$n" server --replicaof 127.0.0.1 "$primary")" || die "$why"
  local primary_node
  primary_node="$(node_on_port "$primary")" || primary_node=""
  if [[ -n "$primary_node" ]] && ! nodes_pid "$primary_node" >/dev/null; then
    touch "$(awaiting_file "$n")"
    member_note=", waiting for its primary 127.0.0.1:$primary (node $primary_node), which is down"
    return 0
  fi
  wait_for "$CLUSTER_TIMEOUT" replicas_linked "$n" ||
    die "redis node $n (replica, 127.0.0.1:$port) has no link to the primary 127.0.0.1:$primary after ${CLUSTER_TIMEOUT}s; see $(nodes_get "$n" LOG)"
}

# Every server was down: node n, the primary the Sentinels name, comes back as the primary with its
# own data, and the replicas started while it was down link to it.
start_primary_again() {
  local n="$1" why m waiting=()
  nodes_set "$n" ROLE primary
  why="$(launch "$n" server --replicaof no one)" || die "$why"
  for m in $(nodes_list); do
    [[ -f "$(awaiting_file "$m")" ]] && nodes_pid "$m" >/dev/null && waiting+=("$m")
  done
  if ((${#waiting[@]} > 0)); then
    wait_for "$CLUSTER_TIMEOUT" replicas_linked "${waiting[@]}" ||
      die "redis node(s) ${waiting[*]} have no link to the primary 127.0.0.1:$(nodes_get "$n" PORT) after ${CLUSTER_TIMEOUT}s"
  fi
  rm -f "$NODES_DIR"/*/awaiting-primary
  member_note=", as the primary: every server was down${waiting[*]:+; replica(s) ${waiting[*]} linked}"
}

# Stops node n: its Sentinel first, then its server.
stop_node() {
  require_node "$1"
  rm -f "$(awaiting_file "$1")"
  if ! nodes_up "$1"; then
    echo "redis node $1 not running"
    exit 0
  fi
  terminate "$1:sentinel" "$1:server"
}

print_primary() {
  local port n
  if [[ "$(cluster_count)" == 1 ]]; then
    port="$PORT"
  else
    port="$(primary_port)" || die "no Sentinel answers ($0 status)"
  fi
  for n in $(nodes_list); do
    if [[ "$(nodes_get "$n" PORT)" == "$port" ]]; then
      echo "$n"
      return 0
    fi
  done
  die "the primary 127.0.0.1:$port is none of this script's nodes"
}

case "${1:-}" in
  primary) print_primary ;;
  *) nodes_main "start [--nodes N] [--power-loss-layer] | stop | status | start-node N | stop-node N | primary" "$@" ;;
esac
