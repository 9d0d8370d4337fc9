#!/usr/bin/env bash
# Runs Redis (Debian's redis-server) on 127.0.0.1 for quick starts and the driver-redis tests.
#
#   redis.sh start [--nodes N]   one server (the default), or N data nodes: a primary and N-1
#                                replicas, watched by three Sentinels (master name "plumb")
#   redis.sh stop                stops every node this script started
#   redis.sh status              one line per node: role, PID, port, data directory
#                                (exit 0 when all run, 3 when none, 1 when some)
#   redis.sh start-node N        starts one stopped node of the running cluster again
#   redis.sh stop-node N         stops one node (SIGTERM; a fault injector may SIGKILL instead)
#   redis.sh primary             prints the node number of the current primary
#
# Nodes 1..N are Redis servers, node 1 the first primary, listening on PLUMB_REDIS_PORT (6379, the
# single server's port, so the same driver file reaches either); node k listens on 6379+k-1.
# Nodes N+1..N+3 are the Sentinels, on PLUMB_REDIS_SENTINEL_PORT (26379) and the next two ports.
#
# State lives under ${PLUMB_STATE_DIR:-<repo>/.plumb}/redis/, wiped on every start. Each node has a
# directory nodes/<n>/ with its config, PID file, log and data directory, and nodes/<n>/node.env
# (NODE, ROLE, PID, PORTS, DATA_DIR, LOG, ...) for fault injection and resource sampling. Servers
# start with no snapshots and no AOF; durability variants are applied by the driver with CONFIG
# SET (see driver-redis/README.md).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state_dir="${PLUMB_STATE_DIR:-$repo/.plumb}/redis"
nodes_dir="$state_dir/nodes"
cluster_env="$state_dir/cluster.env"
base_port="${PLUMB_REDIS_PORT:-6379}"
sentinel_base_port="${PLUMB_REDIS_SENTINEL_PORT:-26379}"
ready_timeout_s="${PLUMB_REDIS_READY_TIMEOUT:-20}"
# Replication links and Sentinel discovery take a few seconds; more when the 2 cores are busy.
cluster_timeout_s="${PLUMB_REDIS_CLUSTER_TIMEOUT:-90}"
master_name=plumb
sentinels=3
sentinel_quorum=2
# Sentinel marks the primary down after 2 s without a reply, then fails over.
down_after_ms=2000
failover_timeout_ms=10000

die() {
  echo "$*" >&2
  exit 1
}

# --- node state -------------------------------------------------------------------------------

node_dir() { echo "$nodes_dir/$1"; }
node_env() { echo "$nodes_dir/$1/node.env"; }

# Prints one key of a node's state file.
node_get() {
  local file
  file="$(node_env "$1")"
  [[ -f "$file" ]] || return 1
  sed -n "s/^$2=//p" "$file" | head -n 1
}

# Sets one key of a node's state file, replacing the file in one rename so readers never see half.
node_set() {
  local file tmp
  file="$(node_env "$1")"
  tmp="$file.tmp"
  awk -v k="$2" -v v="$3" 'index($0, k "=") == 1 { print k "=" v; found = 1; next } { print }
    END { if (!found) print k "=" v }' "$file" >"$tmp"
  mv "$tmp" "$file"
}

# Writes a node's state file when the node is first created; PID is filled in once it runs.
node_create() {
  local n="$1" role="$2" port="$3" dir
  dir="$(node_dir "$n")"
  mkdir -p "$dir/data"
  cat >"$(node_env "$n")" <<EOF
NODE=$n
ROLE=$role
PID=
PORTS=$port
PORT=$port
HOST=127.0.0.1
DATA_DIR=$dir/data
LOG=$dir/redis.log
CONF=$dir/redis.conf
PID_FILE=$dir/redis.pid
EOF
}

# The node numbers that have a state file, in order.
node_ids() {
  local f
  for f in "$nodes_dir"/*/node.env; do
    [[ -f "$f" ]] && basename "$(dirname "$f")"
  done | sort -n
}

# Prints the PID of a node if that process is still its redis-server; fails otherwise.
node_pid() {
  local pid port
  pid="$(node_get "$1" PID)" || return 1
  port="$(node_get "$1" PORT)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # A recycled PID is not ours: the process must be a redis-server on this node's port.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "redis-server.*:$port" || return 1
  echo "$pid"
}

running_ids() {
  local n
  for n in $(node_ids); do
    node_pid "$n" >/dev/null && echo "$n"
  done
  return 0
}

is_sentinel() { [[ "$(node_get "$1" ROLE)" == sentinel ]]; }

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

# The primary's port, from the first Sentinel that answers.
primary_port() {
  local n port
  for n in $(running_ids); do
    is_sentinel "$n" || continue
    port="$(cli "$(node_get "$n" PORT)" sentinel get-master-addr-by-name "$master_name" | sed -n 2p)"
    if [[ -n "$port" ]]; then
      echo "$port"
      return 0
    fi
  done
  return 1
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

# --- starting and stopping one node -----------------------------------------------------------

# The config of a data node. Same settings as the single server has always had: no snapshots, no
# AOF (the driver applies durability with CONFIG SET). A config file rather than flags, so that
# Sentinel can rewrite it (CONFIG REWRITE) when it moves the node to another primary.
write_server_conf() {
  local n="$1" replica_of="${2:-}" dir
  dir="$(node_dir "$n")"
  {
    echo "bind 127.0.0.1"
    echo "port $(node_get "$n" PORT)"
    echo "save \"\""
    echo "appendonly no"
    echo "daemonize yes"
    echo "pidfile $dir/redis.pid"
    echo "logfile $dir/redis.log"
    echo "dir $dir/data"
    # Redis 7.0 waits 5 s for more replicas before a diskless full sync; here replicas join one
    # at a time or all at once at start, so waiting only delays them.
    echo "repl-diskless-sync-delay 0"
    [[ -z "$replica_of" ]] || echo "replicaof 127.0.0.1 $replica_of"
  } >"$dir/redis.conf"
}

# The config of a Sentinel: watches the primary as "plumb", quorum 2 of 3. Sentinel rewrites this
# file with what it learns (replicas, other Sentinels, the current primary).
write_sentinel_conf() {
  local n="$1" dir
  dir="$(node_dir "$n")"
  cat >"$dir/redis.conf" <<EOF
bind 127.0.0.1
port $(node_get "$n" PORT)
daemonize yes
pidfile $dir/redis.pid
logfile $dir/redis.log
dir $dir/data
sentinel monitor $master_name 127.0.0.1 $base_port $sentinel_quorum
sentinel down-after-milliseconds $master_name $down_after_ms
sentinel failover-timeout $master_name $failover_timeout_ms
sentinel parallel-syncs $master_name 1
EOF
}

# Launches node n from its config (extra args override it) and waits for PING; records its PID.
# On failure prints the one-line reason and returns 1.
launch() {
  local n="$1"
  shift
  local port log conf pid_file what
  port="$(node_get "$n" PORT)"
  log="$(node_get "$n" LOG)"
  conf="$(node_get "$n" CONF)"
  pid_file="$(node_get "$n" PID_FILE)"
  what="redis node $n ($(node_get "$n" ROLE), 127.0.0.1:$port)"
  rm -f "$pid_file"
  local mode=()
  is_sentinel "$n" && mode=(--sentinel)
  # Errors before daemonizing (a bad config) go to stderr: keep them in the node's log.
  if ! redis-server "$conf" "${mode[@]}" "$@" >>"$log" 2>&1; then
    echo "$what failed to start; see $log"
    return 1
  fi
  if ! wait_for "$ready_timeout_s" answers_ping "$port"; then
    echo "$what did not answer PING after ${ready_timeout_s}s; see $log"
    return 1
  fi
  # With daemonize the PID file appears right after the fork; wait briefly for it.
  if ! wait_for 5 test -s "$pid_file"; then
    echo "$what answers but wrote no PID file at $pid_file; see $log"
    return 1
  fi
  node_set "$n" PID "$(cat "$pid_file")"
}

# Sends SIGTERM to the given nodes, waits up to 15 s for them all, then SIGKILLs what is left.
terminate() {
  local n pid pids=() names=()
  for n in "$@"; do
    if pid="$(node_pid "$n")"; then
      kill "$pid" 2>/dev/null || true
      # A node frozen by a fault (SIGSTOP) acts on SIGTERM only once it runs again.
      kill -CONT "$pid" 2>/dev/null || true
      pids+=("$pid")
      names+=("$n:$pid")
    fi
  done
  ((${#pids[@]} > 0)) || return 0
  local deadline=$((SECONDS + 15)) alive
  while :; do
    alive=()
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && alive+=("$pid")
    done
    ((${#alive[@]} > 0)) || break
    if ((SECONDS >= deadline)); then
      echo "redis pid(s) ${alive[*]} did not stop in 15s; sending SIGKILL" >&2
      kill -9 "${alive[@]}" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  for n in "$@"; do
    node_set "$n" PID ""
  done
  echo "stopped redis node(s) ${names[*]} (node:pid)"
}

# --- the cluster ------------------------------------------------------------------------------

require_binaries() {
  for bin in redis-server redis-cli; do
    command -v "$bin" >/dev/null 2>&1 ||
      die "$bin not found: run 'apt-get install -y redis-server redis-tools' (or deploy/local/install-debian-packages.sh)"
  done
}

port_taken() {
  ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

# Both replicas hold a live link to the primary.
replicas_linked() {
  local n
  for n in "$@"; do
    [[ "$(info_field "$(node_get "$n" PORT)" replication master_link_status)" == up ]] || return 1
  done
}

# A Sentinel knows the primary, every replica and the other Sentinels (it needs them to vote).
sentinel_sees_all() {
  local port="$1" replicas="$2"
  [[ "$(sentinel_field "$port" flags)" == master ]] &&
    [[ "$(sentinel_field "$port" num-slaves)" == "$replicas" ]] &&
    [[ "$(sentinel_field "$port" num-other-sentinels)" == $((sentinels - 1)) ]]
}

# Stops what was started and fails with one line naming the node and its log.
abort_start() {
  local reason="$1"
  terminate $(running_ids) >/dev/null 2>&1 || true
  die "$reason (nodes already started were stopped)"
}

start_cluster() {
  local count="$1" n port
  local replicas=() sentinel_ids=()
  # Node 1 the primary, 2..count replicas of it, then the Sentinels.
  node_create 1 primary "$base_port"
  for ((n = 2; n <= count; n++)); do
    node_create "$n" replica $((base_port + n - 1))
    replicas+=("$n")
  done
  for ((n = 1; n <= (count > 1 ? sentinels : 0); n++)); do
    node_create $((count + n)) sentinel $((sentinel_base_port + n - 1))
    sentinel_ids+=($((count + n)))
  done
  for n in $(node_ids); do
    port="$(node_get "$n" PORT)"
    port_taken "$port" &&
      die "port $port on 127.0.0.1 (redis node $n) is already in use: stop what holds it or set PLUMB_REDIS_PORT / PLUMB_REDIS_SENTINEL_PORT"
  done
  echo "COUNT=$count" >"$cluster_env"
  echo "SENTINELS=${#sentinel_ids[@]}" >>"$cluster_env"
  echo "MASTER_NAME=$master_name" >>"$cluster_env"

  local why
  write_server_conf 1
  why="$(launch 1)" || abort_start "$why"
  for n in "${replicas[@]}"; do
    write_server_conf "$n" "$base_port"
    why="$(launch "$n")" || abort_start "$why"
  done
  if ((${#replicas[@]} > 0)) && ! wait_for "$cluster_timeout_s" replicas_linked "${replicas[@]}"; then
    for n in "${replicas[@]}"; do
      replicas_linked "$n" ||
        abort_start "redis node $n (replica, 127.0.0.1:$(node_get "$n" PORT)) has no link to the primary after ${cluster_timeout_s}s; see $(node_get "$n" LOG)"
    done
  fi
  # Sentinels start once the replicas are linked: their first INFO of the primary lists both
  # (later INFOs come only every 10 s).
  for n in "${sentinel_ids[@]}"; do
    write_sentinel_conf "$n"
    why="$(launch "$n")" || abort_start "$why"
  done
  for n in "${sentinel_ids[@]}"; do
    wait_for "$cluster_timeout_s" sentinel_sees_all "$(node_get "$n" PORT)" "${#replicas[@]}" ||
      abort_start "redis node $n (sentinel, 127.0.0.1:$(node_get "$n" PORT)) does not see the primary, ${#replicas[@]} replica(s) and $((sentinels - 1)) other Sentinels after ${cluster_timeout_s}s; see $(node_get "$n" LOG)"
  done
}

start() {
  local count=1
  while (($# > 0)); do
    case "$1" in
      --nodes)
        [[ "${2:-}" =~ ^[1-9]$ ]] || die "--nodes takes a number of data nodes from 1 to 9, got '${2:-}'"
        count="$2"
        shift 2
        ;;
      *) die "start: unknown option '$1' (usage: $0 start [--nodes N])" ;;
    esac
  done
  require_binaries
  local running
  running="$(running_ids | xargs)"
  if [[ -n "$running" ]]; then
    if [[ "$(sed -n 's/^COUNT=//p' "$cluster_env" 2>/dev/null)" == "$count" ]] &&
      [[ "$running" == "$(node_ids | xargs)" ]]; then
      echo "redis already running ($count data node(s); $0 status)"
      exit 0
    fi
    die "redis is already running with other nodes ($0 status): run $0 stop first"
  fi
  rm -rf "$nodes_dir" "$cluster_env"
  mkdir -p "$nodes_dir"
  start_cluster "$count"
  if ((count == 1)); then
    echo "redis started (pid $(node_get 1 PID), 127.0.0.1:$base_port)"
  else
    echo "redis started: primary 127.0.0.1:$base_port, $((count - 1)) replicas, $sentinels Sentinels (master name $master_name)"
    status_lines
  fi
}

stop() {
  local running
  running="$(running_ids | xargs)"
  if [[ -z "$running" ]]; then
    echo "redis not running"
    exit 0
  fi
  # Sentinels first, so none starts a failover while the servers go down.
  local n sentinel_ids=() servers=()
  for n in $running; do
    if is_sentinel "$n"; then sentinel_ids+=("$n"); else servers+=("$n"); fi
  done
  terminate "${sentinel_ids[@]}"
  terminate "${servers[@]}"
}

# One line per node; refreshes ROLE in the state files, which changes after a failover.
status_lines() {
  local n pid port role state
  for n in $(node_ids); do
    port="$(node_get "$n" PORT)"
    role="$(node_get "$n" ROLE)"
    if pid="$(node_pid "$n")"; then
      state=running
      if ! is_sentinel "$n"; then
        if role="$(live_role "$port")"; then
          node_set "$n" ROLE "$role"
        else
          role="$(node_get "$n" ROLE)"
          state="running, not answering"
        fi
      fi
    else
      pid=-
      state=stopped
    fi
    printf 'node %s  %-8s  pid %-7s  127.0.0.1:%-5s  %-8s  data %s\n' \
      "$n" "$role" "$pid" "$port" "$state" "$(node_get "$n" DATA_DIR)"
  done
}

status() {
  local total running
  total="$(node_ids | wc -l)"
  running="$(running_ids | wc -l)"
  if ((running == 0)); then
    echo "redis not running"
    exit 3
  fi
  echo "redis: $running of $total node(s) running"
  status_lines
  ((running == total)) || exit 1
}

require_node() {
  [[ "${1:-}" =~ ^[0-9]+$ && -f "$(node_env "${1:-}")" ]] ||
    die "no redis node '${1:-}' (nodes: $(node_ids | xargs); start the cluster with $0 start --nodes 3)"
}

# A server restarted as it was would come back as an empty primary (no persistence) and, if it
# still is the primary Sentinel knows, its replicas would copy the empty data set. So a stopped
# server always rejoins as a replica of the current primary, after Sentinel has failed over.
start_node() {
  local n="$1" pid port
  require_node "$n"
  require_binaries
  if pid="$(node_pid "$n")"; then
    echo "redis node $n already running (pid $pid)"
    exit 0
  fi
  port="$(node_get "$n" PORT)"
  port_taken "$port" && die "port $port on 127.0.0.1 (redis node $n) is already in use"
  local why primary=""
  if ! is_sentinel "$n" && [[ "$(sed -n 's/^COUNT=//p' "$cluster_env")" != 1 ]]; then
    wait_for "$cluster_timeout_s" primary_is_not "$port" ||
      die "redis node $n: the Sentinels still name it (127.0.0.1:$port) the primary after ${cluster_timeout_s}s, or none answers; not restarting it empty as the primary"
    primary="$(primary_port)"
    node_set "$n" ROLE replica
  fi
  if [[ -n "$primary" ]]; then
    why="$(launch "$n" --replicaof 127.0.0.1 "$primary")" || die "$why"
    wait_for "$cluster_timeout_s" replicas_linked "$n" ||
      die "redis node $n (replica, 127.0.0.1:$port) has no link to the primary 127.0.0.1:$primary after ${cluster_timeout_s}s; see $(node_get "$n" LOG)"
  else
    why="$(launch "$n")" || die "$why"
  fi
  echo "redis node $n started (pid $(node_get "$n" PID), $(node_get "$n" ROLE), 127.0.0.1:$port)"
}

# A Sentinel answers with a primary other than the given port.
primary_is_not() {
  local p
  p="$(primary_port)" && [[ "$p" != "$1" ]]
}

stop_node() {
  require_node "$1"
  if ! node_pid "$1" >/dev/null; then
    echo "redis node $1 not running"
    exit 0
  fi
  terminate "$1"
}

print_primary() {
  local port n
  if [[ "$(sed -n 's/^COUNT=//p' "$cluster_env" 2>/dev/null)" == 1 ]]; then
    port="$base_port"
  else
    port="$(primary_port)" || die "no Sentinel answers ($0 status)"
  fi
  for n in $(node_ids); do
    if ! is_sentinel "$n" && [[ "$(node_get "$n" PORT)" == "$port" ]]; then
      echo "$n"
      return 0
    fi
  done
  die "the primary 127.0.0.1:$port is none of this script's nodes"
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
  primary) print_primary ;;
  *)
    echo "usage: $0 start [--nodes N] | stop | status | start-node N | stop-node N | primary" >&2
    exit 2
    ;;
esac
