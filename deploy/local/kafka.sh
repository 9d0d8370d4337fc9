#!/usr/bin/env bash
# Runs Kafka 4.1.1 on 127.0.0.1 for quick starts and the driver-kafka tests. By default one KRaft
# node that is both broker and controller; with --nodes 3 a cluster of three such nodes (a
# controller quorum of 3, internal topics replicated 3 times), each a process of its own with its
# own data directory and log, so that a fault can kill or freeze one node alone. Every start
# formats fresh, empty storage.
#
#   deploy/local/kafka.sh start [--nodes N] [--power-loss-layer]
#                                            one node (default), or N nodes (3 for replication);
#                                            with --power-loss-layer each node's data directory is
#                                            a power-loss layer (below)
#   deploy/local/kafka.sh stop               stops every node (and unmounts the layers)
#   deploy/local/kafka.sh status             lists every node; exit 0 all run, 3 none, 1 some
#   deploy/local/kafka.sh stop-node N        stops node N alone (the others keep running)
#   deploy/local/kafka.sh start-node N       restarts stopped node N with its existing data; while
#                                            fewer than a majority of the nodes run it returns once
#                                            the node listens, and the start-node that brings the
#                                            majority waits until every such node has started
#   deploy/local/kafka.sh classpath          prints the broker + tools classpath (e.g. for
#                                            org.apache.kafka.tools.ProducerPerformance)
#
# start and stop are safe to repeat. Ports of node n: client PORT+2(n-1), controller
# CONTROLLER_PORT+2(n-1): node 1 9092/9093 (the single node's, so one driver file reaches either),
# node 2 9094/9095, node 3 9096/9097.
#
# Each node has <state>/nodes/<n>/node.env, lines KEY=value for other tools (fault injection,
# resource sampling): NODE, NAME (the broker's own name for the node: its node.id), PID (empty
# while stopped), HOST, PORTS (client,controller: every port the node's JVM listens on), CGROUP
# (the cgroup the node's JVM runs in, empty where the machine has none to give), CLIENT_PORT,
# CONTROLLER_PORT, DATA_DIR, LOG (the broker's log), CONSOLE (its stdout/stderr), CONFIG (its
# server.properties); with the layer also POWER_LOSS_TOOL, POWER_LOSS_CONTROL, POWER_LOSS_BACKING.
#
# --power-loss-layer mounts deploy/power-loss's layer over each node's data directory (its log
# and, with it, the KRaft metadata log: metadata.log.dir defaults to log.dirs), backed by
# <state>/nodes/<n>/durable, so that a fault plan's power-loss can drop what a node wrote and did
# not fsync. Everything the start wrote (the formatted storage, the first metadata) is made durable
# once the cluster is up, as on a machine that has run a while; from then on only fsync makes data
# durable. Where FUSE is not available the start says so in one line and starts nothing.
#
# Each node's JVM runs in a cgroup of its own (deploy/local/node-cgroup.sh, plumb-kafka-<n>), so
# that a fault can cut that one node's traffic while it keeps running.
#
# The broker comes from Maven Central (this machine has no Kafka distribution): Maven resolves
# deploy/local/kafka/pom.xml once and the classpath is cached in the state directory.
#
# Environment:
#   PLUMB_STATE_DIR              state root (default <repo>/.plumb); Kafka uses <root>/kafka/
#   PLUMB_KAFKA_HOST             address to listen on and advertise (default 127.0.0.1; e.g. the
#                                broker host's address for clients on other hosts)
#   PLUMB_KAFKA_PORT             node 1's client listener port (default 9092)
#   PLUMB_KAFKA_CONTROLLER_PORT  node 1's controller listener port (default 9093)
#   PLUMB_KAFKA_HEAP             heap of each node (default 1g)
#   PLUMB_KAFKA_DATA_DIR         where a single node keeps its log (default <state>/data); node n
#                                of a cluster uses <that>/node-<n>. Emptied at every start; e.g.
#                                /dev/shm/plumb-kafka keeps the disk out of a measurement, at the
#                                cost of RAM for every message kept (a peak search of
#                                workloads/peak-1kb.yaml held up to 20 GB there)
#   PLUMB_KAFKA_START_TIMEOUT    seconds a start may take (default 180: three JVMs starting at
#                                once on 2 busy cores are slow)
set -euo pipefail

# shellcheck source=../power-loss/layer.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../power-loss" && pwd)/layer.sh"

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOCAL_DIR="$REPO/deploy/local"
STATE="${PLUMB_STATE_DIR:-$REPO/.plumb}/kafka"
HOST="${PLUMB_KAFKA_HOST:-127.0.0.1}"
PORT="${PLUMB_KAFKA_PORT:-9092}"
CONTROLLER_PORT="${PLUMB_KAFKA_CONTROLLER_PORT:-9093}"
HEAP="${PLUMB_KAFKA_HEAP:-1g}"
DATA_ROOT="${PLUMB_KAFKA_DATA_DIR:-$STATE/data}"
START_TIMEOUT_S="${PLUMB_KAFKA_START_TIMEOUT:-180}"
STOP_TIMEOUT_S=30
MAX_NODES=9

POM="$REPO/deploy/local/kafka/pom.xml"
CLASSPATH_FILE="$STATE/classpath.txt"
NODES_DIR="$STATE/nodes"
# How many nodes the last start made: start-node and status need the cluster's shape.
CLUSTER_FILE="$STATE/cluster.env"
# Node 1's PID, as the single-node script always kept it: deploy/netns/multi-host.sh checks that
# this file exists to know a Kafka of this script may be running.
LEGACY_PID_FILE="$STATE/kafka.pid"

die() {
  echo "kafka.sh: $*" >&2
  exit 1
}

# True when something accepts TCP connections on $HOST:$1.
port_open() {
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

# --- Where node $1 lives, and what it listens on --------------------------------------------

client_port() { echo $((PORT + 2 * ($1 - 1))); }
controller_port() { echo $((CONTROLLER_PORT + 2 * ($1 - 1))); }
node_dir() { echo "$NODES_DIR/$1"; }
node_env() { echo "$NODES_DIR/$1/node.env"; }
node_config() { echo "$NODES_DIR/$1/server.properties"; }
node_log() { echo "$NODES_DIR/$1/server.log"; }
node_console() { echo "$NODES_DIR/$1/console.out"; }
node_cgroup_name() { echo "plumb-kafka-$1"; }

# A single node keeps its data where it always did; a cluster's nodes each get a subdirectory.
node_data_dir() {
  if (($2 == 1)); then echo "$DATA_ROOT"; else echo "$DATA_ROOT/node-$1"; fi
}

# The node count of the cluster the last start made (0 when none).
cluster_size() {
  local NODES=0
  # shellcheck disable=SC1090
  [[ -f "$CLUSTER_FILE" ]] && source "$CLUSTER_FILE"
  echo "$NODES"
}

# True when the last start mounted a power-loss layer under every node's data directory.
layer_on() {
  [[ -f "$CLUSTER_FILE" ]] && grep -qx 'POWER_LOSS_LAYER=1' "$CLUSTER_FILE"
}

# Reads one KEY of node $1's node.env.
node_value() {
  local file
  file="$(node_env "$1")"
  [[ -f "$file" ]] || return 0
  sed -n "s/^$2=//p" "$file"
}

# Writes node $1's node.env (of a cluster of $2) with PID $3 (empty: stopped). Written to a
# temporary file and renamed, so that a reader never sees half a file.
write_node_env() {
  local node="$1" nodes="$2" pid="$3" file
  file="$(node_env "$node")"
  cat >"$file.tmp" <<EOF
NODE=$node
NAME=$node
PID=$pid
HOST=$HOST
PORTS=$(client_port "$node"),$(controller_port "$node")
CGROUP=$("$LOCAL_DIR/node-cgroup.sh" path "$(node_cgroup_name "$node")" "$pid")
CLIENT_PORT=$(client_port "$node")
CONTROLLER_PORT=$(controller_port "$node")
DATA_DIR=$(node_data_dir "$node" "$nodes")
LOG=$(node_log "$node")
CONSOLE=$(node_console "$node")
CONFIG=$(node_config "$node")
EOF
  # The layer's lines, as recorded when it was mounted (see mount_layers).
  if layer_on; then cat "$(node_dir "$node")/power-loss.env" >>"$file.tmp"; fi
  mv "$file.tmp" "$file"
  if ((node == 1)); then
    if [[ -n "$pid" ]]; then echo "$pid" >"$LEGACY_PID_FILE"; else rm -f "$LEGACY_PID_FILE"; fi
  fi
}

# The PID node $1 runs as, if that process is still the broker this script started.
running_pid() {
  local pid
  pid="$(node_value "$1" PID)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  # The PID could have been reused by an unrelated process: check it runs this node's config.
  [[ -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$(node_config "$1")" || return 1
  echo "$pid"
}

# --- Preparing nodes -----------------------------------------------------------------------

# Resolves the broker + tools classpath with Maven once; later calls reuse the cached file
# as long as every jar it names still exists.
resolve_classpath() {
  mkdir -p "$STATE"
  if [[ -s "$CLASSPATH_FILE" ]]; then
    local missing=0 jar
    while IFS= read -r jar; do
      [[ -f "$jar" ]] || { missing=1; break; }
    done < <(tr ':' '\n' <"$CLASSPATH_FILE")
    [[ $missing -eq 0 ]] && return 0
  fi
  command -v mvn >/dev/null || die "mvn not found: install Maven (apt-get install -y maven)"
  echo "Resolving Kafka 4.1.1 from Maven Central (once)..." >&2
  local tmp="$CLASSPATH_FILE.tmp"
  if ! mvn -B -q -f "$POM" dependency:build-classpath -Dmdep.outputFile="$tmp" >"$STATE/maven.log" 2>&1; then
    tail -n 30 "$STATE/maven.log" >&2
    die "could not resolve Kafka with Maven (log: $STATE/maven.log)"
  fi
  mv "$tmp" "$CLASSPATH_FILE"
}

# Every node's client and controller port must be distinct and free.
check_ports() {
  local nodes="$1" node p
  local -A seen=()
  for ((node = 1; node <= nodes; node++)); do
    for p in "$(client_port "$node")" "$(controller_port "$node")"; do
      [[ -z "${seen[$p]:-}" ]] ||
        die "port $p would serve two nodes: PLUMB_KAFKA_PORT and PLUMB_KAFKA_CONTROLLER_PORT must differ by an odd number"
      seen[$p]=1
      if port_open "$p"; then
        die "port $HOST:$p (node $node) is already in use by another process (set PLUMB_KAFKA_PORT / PLUMB_KAFKA_CONTROLLER_PORT)"
      fi
    done
  done
}

# controller.quorum.voters for a cluster of $1: every node is a voter.
quorum_voters() {
  local nodes="$1" node voters=""
  for ((node = 1; node <= nodes; node++)); do
    voters+="${voters:+,}$node@$HOST:$(controller_port "$node")"
  done
  echo "$voters"
}

# Writes node $1's server.properties and log4j2.properties, for a cluster of $2 nodes.
write_node_config() {
  local node="$1" nodes="$2"
  local port controller dir
  port="$(client_port "$node")"
  controller="$(controller_port "$node")"
  dir="$(node_dir "$node")"
  # Internal topics get as many copies as there are nodes, up to 3, and accept writes while all
  # but one copy are in sync: a single node must not wait for replicas that never come.
  local internal_rf=$((nodes < 3 ? nodes : 3))
  local internal_isr=$((internal_rf > 1 ? internal_rf - 1 : 1))
  cat >"$(node_config "$node")" <<EOF
# Generated by deploy/local/kafka.sh: node $node of $nodes, a combined KRaft node on $HOST.
process.roles=broker,controller
node.id=$node
controller.quorum.voters=$(quorum_voters "$nodes")
listeners=PLAINTEXT://$HOST:$port,CONTROLLER://$HOST:$controller
advertised.listeners=PLAINTEXT://$HOST:$port
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$(node_data_dir "$node" "$nodes")
num.partitions=1
offsets.topic.replication.factor=$internal_rf
transaction.state.log.replication.factor=$internal_rf
transaction.state.log.min.isr=$internal_isr
share.coordinator.state.topic.replication.factor=$internal_rf
share.coordinator.state.topic.min.isr=$internal_isr
# Topics keep Kafka's defaults (default.replication.factor=1, min.insync.replicas=1), so a driver
# file that sets neither runs on one node or many; a replicated file asks for its copies itself.
min.insync.replicas=1
# Consumers of a new group start at once instead of waiting 3 s for more members.
group.initial.rebalance.delay.ms=0
# A deleted topic's files go at once rather than after the default minute: every benchmark run
# deletes its topics, and the kernel would otherwise spend that minute writing the deleted data back
# to disk while the next run (or the next probe of a peak search) measures.
log.segment.delete.delay.ms=0
EOF

  cat >"$dir/log4j2.properties" <<EOF
# Generated by deploy/local/kafka.sh: node $node logs to a file of its own.
status = warn
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = $(node_log "$node")
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.kafka.name = kafka
logger.kafka.level = INFO
logger.state.name = state.change.logger
logger.state.level = WARN
EOF
}

# JVM settings for node $1's broker.
jvm_args() {
  local dir
  dir="$(node_dir "$1")"
  JVM_ARGS=(-Xms"$HEAP" -Xmx"$HEAP"
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35
    -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true
    -Dlog4j2.configurationFile="$dir/log4j2.properties" -Dkafka.logs.dir="$dir"
    -cp "$(cat "$CLASSPATH_FILE")")
}

# JVM settings for a short-lived Kafka tool: small heap, quick start (no optimising JIT).
tool_jvm_args() {
  TOOL_JVM_ARGS=(-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
    -cp "$(cat "$CLASSPATH_FILE")")
}

# A Kafka cluster id: 16 random bytes in URL-safe base64 without padding, as
# `StorageTool random-uuid` prints it (which costs a JVM start); like Kafka, never starting with '-'.
new_cluster_id() {
  local id="-"
  while [[ "$id" == -* ]]; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
  done
  echo "$id"
}

# Formats the storage of nodes 1..$1 with one cluster id, all at once (each is a JVM start).
format_nodes() {
  local nodes="$1" cluster_id node
  cluster_id="$(new_cluster_id)"
  local -A formatting=()
  tool_jvm_args
  for ((node = 1; node <= nodes; node++)); do
    java "${TOOL_JVM_ARGS[@]}" kafka.tools.StorageTool format \
      -t "$cluster_id" -c "$(node_config "$node")" >"$(node_dir "$node")/format.log" 2>&1 &
    formatting[$node]=$!
  done
  local failed=""
  for node in "${!formatting[@]}"; do
    wait "${formatting[$node]}" || failed="${failed:-$node}"
  done
  [[ -z "$failed" ]] ||
    die "node $failed: formatting its storage failed (log: $(node_dir "$failed")/format.log)"
  echo "NODES=$nodes" >"$CLUSTER_FILE"
  echo "CLUSTER_ID=$cluster_id" >>"$CLUSTER_FILE"
}

# --- The power-loss layer (--power-loss-layer) ---------------------------------------------

# Fails with the layer's own one line when FUSE cannot mount here (or the layer cannot be built).
require_fuse() {
  local why
  why="$(power_loss_check 2>&1)" ||
    die "--power-loss-layer: ${why##*$'\n'}"
}

# Mounts a layer over the data directory of nodes 1..$1 (each empty: start has just wiped them)
# and records each layer's node.env lines.
mount_layers() {
  local nodes="$1" node dir
  for ((node = 1; node <= nodes; node++)); do
    dir="$(node_dir "$node")"
    power_loss_mount "$dir" "$(node_data_dir "$node" "$nodes")" ||
      die "node $node: mounting the power-loss layer failed (log: $dir/power-loss.log)"
    power_loss_env "$dir" >"$dir/power-loss.env"
  done
}

# Makes everything every node's layer holds durable: what the start wrote is on disk, as it would
# be on a machine that has run for a while.
sync_layers() {
  local nodes="$1" node tool
  tool="$(power_loss_tool)"
  for ((node = 1; node <= nodes; node++)); do
    "$tool" sync --control "$(power_loss_socket "$(node_dir "$node")")" >/dev/null ||
      die "node $node: syncing the power-loss layer failed (log: $(node_dir "$node")/power-loss.log)"
  done
}

# Unmounts every layer still mounted under the state directory, or over a data directory, with
# everything made durable first (a clean unmount syncs). Called once no broker runs: by stop, and by
# start before it wipes the state of a cluster whose stop never ran.
unmount_layers() {
  local dir data node nodes
  nodes="$(cluster_size)"
  for dir in "$NODES_DIR"/*/; do
    [[ -d "$dir" ]] || continue
    node="$(basename "$dir")"
    [[ "$node" =~ ^[0-9]+$ ]] || continue
    data="$(node_value "$node" DATA_DIR)"
    [[ -n "$data" ]] || data="$(node_data_dir "$node" "$((nodes > 0 ? nodes : 1))")"
    if [[ -S "$(power_loss_socket "${dir%/}")" ]] || mountpoint -q "$data" 2>/dev/null; then
      power_loss_unmount "${dir%/}" "$data" ||
        die "node $node: unmounting the power-loss layer at $data failed (log: ${dir}power-loss.log)"
      echo "Kafka node $node: power-loss layer unmounted, its data durable in ${dir}durable"
    fi
  done
}

# "layer mounted, 1234 bytes unsynced", or why not, for status.
layer_state() {
  local answer
  # The tool node.env names: status must not wait for build.sh's check of the sources.
  if answer="$("$(node_value "$1" POWER_LOSS_TOOL)" status --control "$(power_loss_socket "$(node_dir "$1")")" 2>&1)"; then
    echo "power-loss layer mounted, $(sed -n 's/^unsynced_bytes=//p' <<<"$answer") bytes unsynced"
  else
    echo "power-loss layer not answering"
  fi
}

# --- Starting and stopping nodes -----------------------------------------------------------

# Launches node $1 (of $2) in the background and records its PID; its console output is appended.
launch_node() {
  local node="$1" nodes="$2" pid
  jvm_args "$node"
  # setsid: the broker must not die with the terminal or job that started it. In a
  # non-interactive shell the child is no process-group leader, so setsid execs in place, and
  # node-cgroup.sh execs java once it has joined the node's cgroup: $! is the JVM's own PID.
  setsid "$LOCAL_DIR/node-cgroup.sh" run "$(node_cgroup_name "$node")" \
    java "${JVM_ARGS[@]}" kafka.Kafka "$(node_config "$node")" </dev/null >>"$(node_console "$node")" 2>&1 &
  pid=$!
  write_node_env "$node" "$nodes" "$pid"
  # Until the forked shell has exec'd java, its command line does not name the node's config and
  # running_pid would not recognise it: wait for the exec (milliseconds) or the process's end.
  local i
  for ((i = 0; i < 100; i++)); do
    running_pid "$node" >/dev/null || ! kill -0 "$pid" 2>/dev/null && break
    sleep 0.05
  done
}

# Where start-node leaves the log offset of a node launched without a quorum, which the start-node
# that brings the quorum waits on.
pending_file() { echo "$(node_dir "$1")/start-pending"; }

# Waits until node $1 listens on its controller port (a node waiting for a quorum does that much);
# on its death or the deadline, stops it and fails with one line.
await_listening() {
  local node="$1" deadline=$((SECONDS + START_TIMEOUT_S))
  until port_open "$(controller_port "$node")"; do
    if ! running_pid "$node" >/dev/null; then
      die "node $node exited during startup (log: $(failure_log "$node"))"
    fi
    if ((SECONDS >= deadline)); then
      stop_nodes "$node" >/dev/null 2>&1 || true
      die "node $node did not listen on $HOST:$(controller_port "$node") within ${START_TIMEOUT_S}s (log: $(failure_log "$node"))"
    fi
    sleep 0.2
  done
}

# The file to look at when node $1 failed: its broker log, or its console when the JVM died
# before logging anything.
failure_log() {
  if [[ -s "$(node_log "$1")" ]]; then node_log "$1"; else node_console "$1"; fi
}

# Waits until every node named in $@ (as node:log-offset) logged "Kafka Server started" after
# that offset and opened its client port. On a node's death or the deadline, stops every node
# named and fails with one line naming the node and its log.
await_started() {
  local deadline=$((SECONDS + START_TIMEOUT_S)) waiting=("$@") entry node offset pid
  while ((${#waiting[@]} > 0)); do
    local still=()
    for entry in "${waiting[@]}"; do
      node="${entry%%:*}"
      offset="${entry#*:}"
      if ! pid="$(running_pid "$node")"; then
        abort_start "$@"
        die "node $node exited during startup (log: $(failure_log "$node"))"
      fi
      if tail -c +"$((offset + 1))" "$(node_log "$node")" 2>/dev/null | grep -q 'Kafka Server started' &&
        port_open "$(client_port "$node")"; then
        continue
      fi
      still+=("$entry")
    done
    waiting=("${still[@]+"${still[@]}"}")
    ((${#waiting[@]} == 0)) && break
    if ((SECONDS >= deadline)); then
      abort_start "$@"
      die "node ${waiting[0]%%:*} did not start within ${START_TIMEOUT_S}s (log: $(failure_log "${waiting[0]%%:*}"))"
    fi
    sleep 0.2
  done
}

# Stops the nodes named in $@ (as node:offset) after a failed start: no half-started cluster. A
# failed start of the whole cluster also unmounts the layers it mounted.
abort_start() {
  local entry nodes=()
  for entry in "$@"; do nodes+=("${entry%%:*}"); done
  stop_nodes "${nodes[@]}" >/dev/null 2>&1 || true
  [[ -z "${STARTING_LAYERS:-}" ]] || unmount_layers >/dev/null 2>&1 || true
}

# The brokers the cluster reports to a client of node 1, by asking it as the driver does.
registered_brokers() {
  tool_jvm_args
  java "${TOOL_JVM_ARGS[@]}" org.apache.kafka.tools.BrokerApiVersionsCommand --bootstrap-server "$HOST:$PORT" 2>/dev/null |
    grep -c '(id: ' || true
}

# Waits until the cluster reports $1 brokers: each node's "started" says it is registered and
# unfenced, but node 1 may answer from metadata that does not show the others yet.
await_brokers() {
  local nodes="$1" deadline=$((SECONDS + START_TIMEOUT_S)) seen
  while true; do
    seen="$(registered_brokers)"
    ((seen == nodes)) && return 0
    if ((SECONDS >= deadline)); then
      abort_start $(seq 1 "$nodes")
      die "the cluster reports $seen of $nodes brokers after ${START_TIMEOUT_S}s (logs: $NODES_DIR/*/server.log)"
    fi
    sleep 1
  done
}

# Sends SIGTERM to every running node in $@ at once, then waits for all of them; a node still
# running after STOP_TIMEOUT_S is killed. All at once: a node stopping alone would wait for the
# controller quorum to move its partitions, which the nodes stopping after it may no longer form.
stop_nodes() {
  local node pid
  local -A stopping=()
  for node in "$@"; do
    if pid="$(running_pid "$node")"; then
      kill -TERM "$pid"
      # A node frozen by a fault (SIGSTOP) acts on the SIGTERM only once it runs again.
      kill -CONT "$pid" 2>/dev/null || true
      stopping[$node]=$pid
    fi
  done
  local deadline=$((SECONDS + STOP_TIMEOUT_S))
  for node in "${!stopping[@]}"; do
    pid="${stopping[$node]}"
    while kill -0 "$pid" 2>/dev/null; do
      if ((SECONDS >= deadline)); then
        echo "Kafka node $node (PID $pid) did not stop within ${STOP_TIMEOUT_S}s: killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
        break
      fi
      sleep 0.2
    done
  done
  local nodes
  nodes="$(cluster_size)"
  for node in "$@"; do
    rm -f "$(pending_file "$node")"
    [[ -f "$(node_env "$node")" ]] && write_node_env "$node" "$nodes" ""
    [[ -n "${stopping[$node]:-}" ]] && echo "Kafka node $node stopped (PID ${stopping[$node]})"
  done
  return 0
}

# --- Commands ------------------------------------------------------------------------------

# Running nodes of the last start, as a count.
running_count() {
  local nodes="$1" node count=0
  for ((node = 1; node <= nodes; node++)); do
    running_pid "$node" >/dev/null && count=$((count + 1))
  done
  echo "$count"
}

start() {
  local nodes="$1" layer="$2"
  [[ "$nodes" =~ ^[0-9]+$ ]] && ((nodes >= 1 && nodes <= MAX_NODES)) ||
    die "--nodes expects a count from 1 to $MAX_NODES, got '$nodes'"
  local size running
  size="$(cluster_size)"
  running="$(running_count "$size")"
  if ((running > 0)); then
    if ((size == nodes && running == nodes)); then
      local had=0
      layer_on && had=1
      ((had == layer)) ||
        die "Kafka already runs $nodes node(s) $( ((had)) && echo with || echo without) the power-loss layer: stop it first (deploy/local/kafka.sh stop)"
      echo "Kafka already running: $nodes node(s), node 1 on $HOST:$PORT"
      return 0
    fi
    die "Kafka already runs $running of $size node(s): stop it first (deploy/local/kafka.sh stop)"
  fi
  command -v java >/dev/null || die "java not found: install Java 17 (apt-get install -y openjdk-17-jre-headless)"
  ((layer)) && require_fuse
  check_ports "$nodes"
  resolve_classpath

  local began=$SECONDS node
  # A layer left mounted by a cluster whose stop never ran would keep its data from the wipe.
  unmount_layers >/dev/null
  rm -rf "$DATA_ROOT" "$NODES_DIR" "$CLUSTER_FILE" "$LEGACY_PID_FILE"
  for ((node = 1; node <= nodes; node++)); do
    mkdir -p "$(node_dir "$node")"
  done
  if ((layer)); then
    STARTING_LAYERS="$nodes"
    mount_layers "$nodes"
  fi
  for ((node = 1; node <= nodes; node++)); do
    mkdir -p "$(node_data_dir "$node" "$nodes")"
    write_node_config "$node" "$nodes"
  done
  format_nodes "$nodes"
  ((layer)) && echo "POWER_LOSS_LAYER=1" >>"$CLUSTER_FILE"

  # All nodes at once: a KRaft node waits for a quorum of controllers, so one alone never starts.
  local waiting=()
  for ((node = 1; node <= nodes; node++)); do
    launch_node "$node" "$nodes"
    waiting+=("$node:0")
  done
  await_started "${waiting[@]}"
  ((nodes == 1)) || await_brokers "$nodes"
  if ((layer)); then
    sync_layers "$nodes"
    STARTING_LAYERS=""
  fi

  echo "Kafka started in $((SECONDS - began)) s: $nodes node(s), state $STATE"
  ((layer)) && echo "Power-loss layer under every node's data directory (fault action power-loss)"
  for ((node = 1; node <= nodes; node++)); do
    describe_node "$node"
  done
}

stop() {
  local size node nodes=()
  size="$(cluster_size)"
  for ((node = 1; node <= size; node++)); do nodes+=("$node"); done
  if (($(running_count "$size") == 0)); then
    rm -f "$LEGACY_PID_FILE"
    echo "Kafka is not running"
    unmount_layers
    return 0
  fi
  stop_nodes "${nodes[@]}"
  rm -f "$LEGACY_PID_FILE"
  # Once no broker has a file open on it: a clean unmount syncs everything first.
  unmount_layers
}

# One line about node $1: running or not, PID, ports, data directory and log.
describe_node() {
  local node="$1" pid state
  if pid="$(running_pid "$node")"; then state="running (PID $pid)"; else state="stopped"; fi
  local layer=""
  layer_on && layer=", $(layer_state "$node")"
  echo "  node $node: $state, client $HOST:$(node_value "$node" CLIENT_PORT)," \
    "controller $(node_value "$node" CONTROLLER_PORT), data $(node_value "$node" DATA_DIR)," \
    "log $(node_value "$node" LOG)$layer"
}

status() {
  local size running node
  size="$(cluster_size)"
  running="$(running_count "$size")"
  if ((running == 0)); then
    echo "Kafka is not running"
    return 3
  fi
  echo "Kafka running: $running of $size node(s), state $STATE"
  for ((node = 1; node <= size; node++)); do
    describe_node "$node"
  done
  ((running == size)) || return 1
}

# Checks that $1 names a node of the last start.
known_node() {
  local size
  size="$(cluster_size)"
  [[ "$1" =~ ^[0-9]+$ ]] && (($1 >= 1 && $1 <= size)) ||
    die "no node '$1': the last start made ${size} node(s) (deploy/local/kafka.sh start --nodes 3)"
}

stop_node() {
  known_node "$1"
  if ! running_pid "$1" >/dev/null; then
    echo "Kafka node $1 is not running"
    return 0
  fi
  stop_nodes "$1"
}

start_node() {
  local node="$1" pid
  known_node "$node"
  if pid="$(running_pid "$node")"; then
    # A node left frozen (SIGSTOP) by a fault that never thawed it runs again from here.
    if [[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" == T ]]; then
      kill -CONT "$pid"
      echo "Kafka node $node was stopped by a signal (PID $pid): continued it"
    fi
    echo "Kafka node $node already running (PID $pid)"
    return 0
  fi
  local p
  for p in "$(client_port "$node")" "$(controller_port "$node")"; do
    port_open "$p" && die "node $node: port $HOST:$p is already in use by another process"
  done
  resolve_classpath
  if layer_on; then
    # After a power loss the layer is still mounted with what survived; one that died (or a
    # rebooted host) is mounted again over the node's durable data.
    power_loss_ensure "$(node_dir "$node")" "$(node_value "$node" DATA_DIR)" ||
      die "node $node: the power-loss layer is not mounted and mounting it failed (log: $(node_dir "$node")/power-loss.log)"
  fi
  local began=$SECONDS offset=0 size
  size="$(cluster_size)"
  [[ -f "$(node_log "$node")" ]] && offset="$(stat -c %s "$(node_log "$node")")"
  launch_node "$node" "$size"
  # A KRaft node finishes starting only once a majority of the controllers run (every node is
  # one): when a whole cluster comes back one start-node at a time, the first nodes cannot.
  local majority=$((size / 2 + 1)) running
  running="$(running_count "$size")"
  if ((running < majority)); then
    await_listening "$node"
    echo "$offset" >"$(pending_file "$node")"
    echo "Kafka node $node launched in $((SECONDS - began)) s; $running of $size node(s) run, so it" \
      "waits for a quorum of $majority: the start-node that brings the majority waits for it"
    return 0
  fi
  local waiting=("$node:$offset") other
  for ((other = 1; other <= size; other++)); do
    if ((other != node)) && [[ -f "$(pending_file "$other")" ]]; then
      waiting+=("$other:$(cat "$(pending_file "$other")")")
    fi
  done
  await_started "${waiting[@]}"
  rm -f "$NODES_DIR"/*/start-pending
  echo "Kafka node $node started in $((SECONDS - began)) s"
  describe_node "$node"
  for other in "${waiting[@]:1}"; do
    echo "Kafka node ${other%%:*}, waiting for a quorum, started too"
    describe_node "${other%%:*}"
  done
}

# start's options: [--nodes N] [--power-loss-layer], default one node without the layer.
start_command() {
  local nodes=1 layer=0
  while (($# > 0)); do
    case "$1" in
      --nodes)
        nodes="${2:-}"
        shift $(($# > 1 ? 2 : 1))
        ;;
      --nodes=*)
        nodes="${1#--nodes=}"
        shift
        ;;
      --power-loss-layer)
        layer=1
        shift
        ;;
      *) die "unknown option '$1' (start [--nodes N] [--power-loss-layer])" ;;
    esac
  done
  start "$nodes" "$layer"
}

case "${1:-}" in
  start) start_command "${@:2}" ;;
  stop) stop ;;
  status) status ;;
  start-node) start_node "${2:-}" ;;
  stop-node) stop_node "${2:-}" ;;
  classpath)
    resolve_classpath
    cat "$CLASSPATH_FILE"
    echo
    ;;
  *)
    echo "usage: $0 start [--nodes N] [--power-loss-layer]|stop|status|start-node N|stop-node N|classpath" >&2
    exit 2
    ;;
esac
