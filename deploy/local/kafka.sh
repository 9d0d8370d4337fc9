#!/usr/bin/env bash
# shellcheck disable=SC2153 # plumb_settings (lib/settings.sh) sets HOST, PORT and the others
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

# shellcheck source=lib/nodes.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nodes.sh" kafka

STATE="$NODES_STATE"
# Each from PLUMB_KAFKA_<NAME> (Environment, above) or its default here.
plumb_settings KAFKA HOST=127.0.0.1 PORT=9092 CONTROLLER_PORT=9093 HEAP=1g \
  DATA_DIR="$STATE/data" START_TIMEOUT=180
MAX_NODES=9

POM="$NODES_REPO/deploy/local/kafka/pom.xml"
CLASSPATH_FILE="$STATE/classpath.txt"
# How many nodes the last start made: start-node and status need the cluster's shape.
CLUSTER_FILE="$STATE/cluster.env"
# Node 1's PID, as the single-node script always kept it: deploy/netns/multi-host.sh checks that
# this file exists to know a Kafka of this script may be running.
LEGACY_PID_FILE="$STATE/kafka.pid"

NODES_TITLE="Kafka node"
NODES_DIE_PREFIX="kafka.sh: "
NODES_NOT_RUNNING="Kafka is not running"
NODES_MSG_LATE="{name} did not start within ${START_TIMEOUT}s{see}"

# --- Where node $1 lives, and what it listens on --------------------------------------------

client_port() { echo $((PORT + 2 * ($1 - 1))); }
controller_port() { echo $((CONTROLLER_PORT + 2 * ($1 - 1))); }
node_config() { echo "$NODES_DIR/$1/server.properties"; }
node_log() { echo "$NODES_DIR/$1/server.log"; }
node_console() { echo "$NODES_DIR/$1/console.out"; }

# A single node keeps its data where it always did; a cluster's nodes each get a subdirectory.
node_data_dir() {
  if (($2 == 1)); then echo "$DATA_DIR"; else echo "$DATA_DIR/node-$1"; fi
}

# The node count of the cluster the last start made (0 when none).
cluster_size() {
  local NODES=0
  # shellcheck disable=SC1090
  [[ -f "$CLUSTER_FILE" ]] && source "$CLUSTER_FILE"
  echo "$NODES"
}

# The process is node $1's broker: it runs this node's config.
node_owns_pid() { nodes_cmdline "$2" | grep -qF "$(node_config "$1")"; }

# Writes node $1's node.env (of a cluster of $2), with no PID until it is launched.
write_node_env() {
  local node="$1" nodes="$2"
  nodes_write_env "$node" <<EOF
NODE=$node
NAME=$node
PID=
HOST=$HOST
PORTS=$(client_port "$node"),$(controller_port "$node")
CGROUP=$(nodes_cgroup_path "$node")
CLIENT_PORT=$(client_port "$node")
CONTROLLER_PORT=$(controller_port "$node")
DATA_DIR=$(node_data_dir "$node" "$nodes")
LOG=$(node_log "$node")
CONSOLE=$(node_console "$node")
CONFIG=$(node_config "$node")
EOF
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
      if nodes_port_open "$HOST" "$p"; then
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
  dir="$(nodes_dir "$node")"
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
  dir="$(nodes_dir "$1")"
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
      -t "$cluster_id" -c "$(node_config "$node")" >"$(nodes_dir "$node")/format.log" 2>&1 &
    formatting[$node]=$!
  done
  local failed=""
  for node in "${!formatting[@]}"; do
    wait "${formatting[$node]}" || failed="${failed:-$node}"
  done
  [[ -z "$failed" ]] ||
    die "node $failed: formatting its storage failed (log: $(nodes_dir "$failed")/format.log)"
  echo "NODES=$nodes" >"$CLUSTER_FILE"
  echo "CLUSTER_ID=$cluster_id" >>"$CLUSTER_FILE"
}

# --- Starting and stopping nodes -----------------------------------------------------------

# Launches node $1 in the background and records its PID; its console output is appended.
launch_node() {
  local node="$1" i
  jvm_args "$node"
  nodes_launch "$node" "$(node_console "$node")" java "${JVM_ARGS[@]}" kafka.Kafka "$(node_config "$node")"
  if ((node == 1)); then echo "$NODES_PID" >"$LEGACY_PID_FILE"; fi
  # Until the forked shell has exec'd java, its command line does not name the node's config and
  # nodes_pid would not recognise it: wait for the exec (milliseconds) or the process's end.
  for ((i = 0; i < 100; i++)); do
    nodes_pid "$node" >/dev/null || ! kill -0 "$NODES_PID" 2>/dev/null && break
    sleep 0.05
  done
}

# Node $1 listens on its controller port (a node waiting for a quorum does that much).
controller_listening() { nodes_port_open "$HOST" "$(controller_port "$1")"; }

# Waits until node $1 listens on its controller port; on its death or the deadline, stops it and
# fails with one line.
await_listening() {
  local NODES_MSG_LATE
  NODES_MSG_LATE="{name} did not listen on $HOST:$(controller_port "$1") within ${START_TIMEOUT}s{see}"
  nodes_await $((SECONDS + START_TIMEOUT)) controller_listening "$1" && return 0
  [[ "$NODES_FAILED_WHY" == exited ]] || stop_nodes "$1" >/dev/null 2>&1 || true
  die "$NODES_FAILURE"
}

# Node $1 (as node:log-offset) logged "Kafka Server started" after that offset and opened its
# client port.
started() {
  local node="${1%%:*}"
  nodes_logged_since "$(node_log "$node")" "${1#*:}" 'Kafka Server started' &&
    nodes_port_open "$HOST" "$(client_port "$node")"
}

# Waits until every node named in $@ (as node:log-offset) has started. On a node's death or the
# deadline, stops every node named and fails with one line naming the node and its log.
await_started() {
  nodes_await $((SECONDS + START_TIMEOUT)) started "$@" && return 0
  abort_start "$@"
  die "$NODES_FAILURE"
}

# Stops the nodes named in $@ (as node:offset) after a failed start: no half-started cluster. A
# failed start of the whole cluster also unmounts the layers it mounted.
abort_start() {
  local entry stopping=()
  for entry in "$@"; do stopping+=("${entry%%:*}"); done
  stop_nodes "${stopping[@]}" >/dev/null 2>&1 || true
  [[ -z "${STARTING_LAYERS:-}" ]] || nodes_layer_unmount_all >/dev/null 2>&1 || true
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
  local nodes="$1" deadline=$((SECONDS + START_TIMEOUT)) seen
  while true; do
    seen="$(registered_brokers)"
    ((seen == nodes)) && return 0
    if ((SECONDS >= deadline)); then
      abort_start $(seq 1 "$nodes")
      die "the cluster reports $seen of $nodes brokers after ${START_TIMEOUT}s (logs: $NODES_DIR/*/server.log)"
    fi
    sleep 1
  done
}

# Stops every running node in $@ at once (nodes_stop): a node stopping alone would wait for the
# controller quorum to move its partitions, which the nodes stopping after it may no longer form.
stop_nodes() {
  local node
  nodes_stop 30 "$@"
  for node in "$@"; do rm -f "$(nodes_pending_file "$node")"; done
  [[ -n "$(nodes_get 1 PID)" ]] || rm -f "$LEGACY_PID_FILE"
}

# --- Commands ------------------------------------------------------------------------------

start_usage() { die "unknown option '$1' (start [--nodes N] [--power-loss-layer])"; }

# start [--nodes N] [--power-loss-layer], default one node without the layer.
start() {
  nodes_start_options "$@"
  local nodes="$NODES_COUNT" layer="$NODES_LAYER"
  [[ "$nodes" =~ ^[0-9]+$ ]] && ((nodes >= 1 && nodes <= MAX_NODES)) ||
    die "--nodes expects a count from 1 to $MAX_NODES, got '$nodes'"
  local size running
  size="$(cluster_size)"
  running="$(nodes_running | wc -l)"
  if ((running > 0)); then
    ((size == nodes && running == nodes)) ||
      die "Kafka already runs $running of $size node(s): stop it first (deploy/local/kafka.sh stop)"
    nodes_same_layer "$layer" ||
      die "Kafka already runs $nodes node(s) $NODES_HAD the power-loss layer: stop it first (deploy/local/kafka.sh stop)"
    echo "Kafka already running: $nodes node(s), node 1 on $HOST:$PORT"
    return 0
  fi
  command -v java >/dev/null || die "java not found: install Java 17 (apt-get install -y openjdk-17-jre-headless)"
  ((layer)) && nodes_require_fuse
  check_ports "$nodes"
  resolve_classpath

  local began=$SECONDS node
  nodes_wipe "$DATA_DIR" "$CLUSTER_FILE" "$LEGACY_PID_FILE"
  ((layer)) && STARTING_LAYERS="$nodes"
  for ((node = 1; node <= nodes; node++)); do
    mkdir -p "$(nodes_dir "$node")"
    # The layer over the node's data directory: its log and, with it, the KRaft metadata log.
    if ((layer)); then nodes_layer_mount "$node" "$(node_data_dir "$node" "$nodes")" || die "$NODES_FAILURE"; fi
    mkdir -p "$(node_data_dir "$node" "$nodes")"
    write_node_config "$node" "$nodes"
    write_node_env "$node" "$nodes"
  done
  format_nodes "$nodes"
  ((layer)) && echo "POWER_LOSS_LAYER=1" >>"$CLUSTER_FILE"

  # All nodes at once: a KRaft node waits for a quorum of controllers, so one alone never starts.
  local waiting=()
  for ((node = 1; node <= nodes; node++)); do
    launch_node "$node"
    waiting+=("$node:0")
  done
  await_started "${waiting[@]}"
  ((nodes == 1)) || await_brokers "$nodes"
  if ((layer)); then
    # shellcheck disable=SC2046
    nodes_layer_sync $(nodes_list) || die "$NODES_FAILURE"
    STARTING_LAYERS=""
  fi

  echo "Kafka started in $((SECONDS - began)) s: $nodes node(s), state $STATE"
  ((layer)) && echo "Power-loss layer under every node's data directory (fault action power-loss)"
  for ((node = 1; node <= nodes; node++)); do
    describe_node "$node"
  done
}

# One line about node $1: running or not, PID, ports, data directory and log.
describe_node() {
  local node="$1" pid state
  if pid="$(nodes_pid "$node")"; then state="running (PID $pid)"; else state="stopped"; fi
  local layer=""
  nodes_layer_on "$node" && layer=", $(nodes_layer_state "$node")"
  echo "  node $node: $state, client $HOST:$(nodes_get "$node" CLIENT_PORT)," \
    "controller $(nodes_get "$node" CONTROLLER_PORT), data $(nodes_get "$node" DATA_DIR)," \
    "log $(nodes_get "$node" LOG)$layer"
}

status_lines() {
  local node
  echo "Kafka running: $1 of $2 node(s), state $STATE"
  for node in $(nodes_list); do
    describe_node "$node"
  done
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
  if ! nodes_up "$1"; then
    echo "Kafka node $1 is not running"
    return 0
  fi
  stop_nodes "$1"
}

start_node() {
  local node="$1" pid
  known_node "$node"
  if pid="$(nodes_pid "$node")"; then
    # A node left frozen (SIGSTOP) by a fault that never thawed it runs again from here.
    if nodes_thaw "$pid"; then echo "Kafka node $node was stopped by a signal (PID $pid): continued it"; fi
    echo "Kafka node $node already running (PID $pid)"
    return 0
  fi
  local p
  for p in "$(client_port "$node")" "$(controller_port "$node")"; do
    nodes_port_open "$HOST" "$p" && die "node $node: port $HOST:$p is already in use by another process"
  done
  resolve_classpath
  nodes_layer_ensure "$node" || die "$NODES_FAILURE"
  local began=$SECONDS offset=0 size
  size="$(cluster_size)"
  [[ -f "$(node_log "$node")" ]] && offset="$(stat -c %s "$(node_log "$node")")"
  launch_node "$node"
  # A KRaft node finishes starting only once a majority of the controllers run (every node is
  # one): when a whole cluster comes back one start-node at a time, the first nodes cannot.
  local majority=$((size / 2 + 1)) running
  running="$(nodes_running | wc -l)"
  if ((running < majority)); then
    await_listening "$node"
    echo "$offset" >"$(nodes_pending_file "$node")"
    echo "Kafka node $node launched in $((SECONDS - began)) s; $running of $size node(s) run, so it" \
      "waits for a quorum of $majority: the start-node that brings the majority waits for it"
    return 0
  fi
  local waiting=("$node:$offset") other
  for other in $(nodes_pending); do
    if ((other != node)); then waiting+=("$other:$(cat "$(nodes_pending_file "$other")")"); fi
  done
  await_started "${waiting[@]}"
  nodes_clear_pending
  echo "Kafka node $node started in $((SECONDS - began)) s"
  describe_node "$node"
  for other in "${waiting[@]:1}"; do
    echo "Kafka node ${other%%:*}, waiting for a quorum, started too"
    describe_node "${other%%:*}"
  done
}

case "${1:-}" in
  classpath)
    resolve_classpath
    cat "$CLASSPATH_FILE"
    echo
    ;;
  *) nodes_main "start [--nodes N] [--power-loss-layer]|stop|status|start-node N|stop-node N|classpath" "$@" ;;
esac
