#!/usr/bin/env bash
# Runs Apache Pulsar 4.0.7 on 127.0.0.1 for local benchmarks and driver tests, either as one
# standalone process (the default) or as a cluster of separate processes.
#
#   deploy/local/pulsar.sh start [--nodes 1|3] [--journal-sync true|false] [--power-loss-layer]
#                                                1: standalone (broker + one bookie, RocksDB
#                                                metadata in one JVM); 3: ZooKeeper, three bookies
#                                                and one broker, each a process of its own
#   deploy/local/pulsar.sh stop | status | classpath
#   deploy/local/pulsar.sh stop-node N | start-node N   (cluster only) stop one node, or restart a
#                                                stopped one with its existing data; N is a bookie
#                                                1-3, 'broker' or 'zookeeper'. A bookie or the
#                                                broker cannot start without ZooKeeper: start-node
#                                                of one while ZooKeeper is down records it as
#                                                waiting and returns, and start-node zookeeper
#                                                starts the waiting bookies, then the broker, and
#                                                returns once they are up (after a power loss of
#                                                every node, a fault restarts the nodes in any order)
#
# --journal-sync sets the bookies' journalSyncData: true (the default) acknowledges a write only
# once the journal is fsynced; false acknowledges it once written to the page cache. The bookies'
# HTTP servers answer on 127.0.0.1:8001-8003 (GET /api/v1/config/server_config: the configuration
# each bookie runs with), where `start` reads the setting back and the driver does too.
#
# --power-loss-layer (cluster only) mounts deploy/power-loss's layer over the data directory of
# ZooKeeper and of each bookie (journal and ledgers), backed by nodes/<N>/durable, so that a fault
# plan's power-loss can drop what a node wrote and did not fsync. The broker keeps no data on its
# host (its state is in BookKeeper and ZooKeeper): its node.env says so (POWER_LOSS_NO_DATA=1), and a
# power loss kills it and drops nothing. What the start wrote is made durable once the cluster is
# up, as on a machine that has run a while; from then on only fsync makes data durable. `stop`
# unmounts the layers (everything synced). Where FUSE is not available the start says so in one line
# and starts nothing.
#
# Both layouts serve clients on Pulsar's standard ports, so one driver file reaches either, and
# OpenMessaging Benchmark's Pulsar driver files run unchanged: binary protocol 6650 and web service /
# admin 8080; both name the cluster 'local', as those files expect. 8080 is also the default port of
# Plumb's bin/benchmark-worker: where a worker and the local Pulsar share a host, the one started
# second refuses in one line naming what holds the port; start the worker with --port N, or Pulsar
# with PLUMB_PULSAR_WEB_PORT=N (status, start-node and stop keep it; driver files then need
# --driver-set client.httpUrl=http://127.0.0.1:N).
# Cluster-only ports: ZooKeeper 2181, bookies 3181, 3182, 3183, their HTTP servers 8001, 8002, 8003.
#
# State lives under ${PLUMB_STATE_DIR:-<repo>/.plumb}/pulsar; every `start` begins from empty data
# directories (Pulsar writes gigabytes per long run). One file per node, nodes/<N>/node.env, tells
# other tools (fault injection, resource sampling) what runs where:
#   NODE=2  ROLE=bookie  PID=1234  PORTS=3182,8002  DATA_DIR=...  LOG=...  CONF=...
#   NAME=127.0.0.1:3182  CGROUP=/sys/fs/cgroup/.../plumb-pulsar-2
# and with --power-loss-layer POWER_LOSS_TOOL, POWER_LOSS_CONTROL, POWER_LOSS_BACKING (ZooKeeper and
# the bookies) or POWER_LOSS_NO_DATA=1 (the broker).
# nodes 1-3 are the bookies (the replicas), nodes/broker and nodes/zookeeper the two single
# services; the standalone layout has one file, nodes/1, with ROLE=standalone. NAME is the name
# Pulsar gives the node (a bookie's id as BookKeeper reports it, the broker's id as the admin API
# lists it, ZooKeeper's client address); PORTS lists every port the process listens on. Each
# process runs in a cgroup of its own, plumb-pulsar-<node> (deploy/local/node-cgroup.sh), which
# CGROUP names (empty where this machine has no writable cgroup v2), so a fault can cut the
# network of one process.
#
# The jars come from Maven Central (deploy/local/pulsar/pom.xml, resolved once into ~/.m2).
# Environment:
#   PLUMB_PULSAR_JOURNAL_SYNC=true|false  --journal-sync when the option is not given (default true)
#   PLUMB_PULSAR_HEAP=2g                  standalone JVM heap (direct memory gets the same)
#   PLUMB_PULSAR_WEB_PORT=8080            the web service / admin port `start` uses
#   PLUMB_STATE_DIR                       where state lives (default <repo>/.plumb)
set -euo pipefail

# shellcheck source=../power-loss/layer.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/../power-loss" && pwd)/layer.sh"
# shellcheck source=lib/port-holder.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/port-holder.sh"

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${PLUMB_STATE_DIR:-$REPO/.plumb}/pulsar"
LOCAL_DIR="$REPO/deploy/local"
DIST="$LOCAL_DIR/pulsar"
NODES_DIR="$STATE/nodes"
CLASSPATH_FILE="$STATE/classpath.txt"
LOG4J_FILE="$STATE/log4j2-console.xml"
# Set by start from --journal-sync or the environment; a restart keeps what bookie.conf says.
JOURNAL_SYNC=""
# The setting the running layout was started with, and whether its data is on the power-loss layer.
JOURNAL_SYNC_FILE="$STATE/journal-sync"
LAYER_FILE="$STATE/power-loss-layer"
HEAP="${PLUMB_PULSAR_HEAP:-2g}"
READY_TIMEOUT_SECONDS=180

CLUSTER_NAME=local
BROKER_PORT=6650
# The web port a running layout was started with: every later command (status, start-node) uses it.
WEB_PORT_FILE="$STATE/web-port"
if [[ "${1:-}" != start && -s "$WEB_PORT_FILE" ]]; then
  WEB_PORT="$(cat "$WEB_PORT_FILE")"
else
  WEB_PORT="${PLUMB_PULSAR_WEB_PORT:-8080}"
fi
ZK_PORT=2181
BOOKIES=(1 2 3)
bookie_port() { echo $((3180 + $1)); }
# BookKeeper's default HTTP port is 8000; three bookies on one host take one each.
bookie_http_port() { echo $((8000 + $1)); }
# The nodes whose data the power-loss layer holds: ZooKeeper's and the bookies' (the broker has none).
LAYERED=(zookeeper "${BOOKIES[@]}")

die() {
  echo "pulsar.sh: $*" >&2
  exit 1
}

port_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# One line: which port is taken, by what, and how to choose another.
port_refusal() {
  local port=$1 holder hint
  holder="$(port_holder "$port")"
  hint="$(port_taken_hint "$port")"
  if [[ "$port" == "$WEB_PORT" ]]; then
    echo "port 127.0.0.1:$port (Pulsar's web service and admin API) is already in use${holder:+ by $holder}${hint:+, $hint}; or start Pulsar on another: PLUMB_PULSAR_WEB_PORT=N deploy/local/pulsar.sh start, and give driver files --driver-set client.httpUrl=http://127.0.0.1:N"
  else
    echo "port 127.0.0.1:$port is already in use${holder:+ by $holder}${hint:+ ($hint)}: stop that process first"
  fi
}

# Resolves the broker's ~316 jars once; later starts reuse the list (and work offline).
classpath() {
  if [[ -s "$CLASSPATH_FILE" && "$CLASSPATH_FILE" -nt "$DIST/pom.xml" ]]; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found; run: sudo apt-get install -y maven"
  mkdir -p "$STATE"
  echo "resolving Pulsar 4.0.7 from Maven Central (first start only)..."
  if ! mvn -B -q -o -s "$DIST/settings.xml" -f "$DIST/pom.xml" dependency:build-classpath \
    -Dmdep.outputFile="$CLASSPATH_FILE" >"$STATE/resolve.log" 2>&1; then
    mvn -B -q -s "$DIST/settings.xml" -f "$DIST/pom.xml" dependency:build-classpath \
      -Dmdep.outputFile="$CLASSPATH_FILE" >"$STATE/resolve.log" 2>&1 ||
      die "could not resolve Pulsar; see $STATE/resolve.log"
  fi
}

# ---------------------------------------------------------------------------------------------
# Node state files: the only record of what this script started.

node_dir() { echo "$NODES_DIR/$1"; }

# node_env NODE KEY: one value of the node's state file (empty when absent).
node_env() {
  local file
  file="$(node_dir "$1")/node.env"
  [[ -f "$file" ]] || return 0
  sed -n "s/^$2=//p" "$file" | tail -n 1
}

# write_node_env NODE ROLE PID PORTS DATA LOG CONF NAME: written whole and renamed, so a reader
# never sees half a file; the layer's lines (power-loss.env, see mount_layers) come last.
write_node_env() {
  local node=$1 role=$2 pid=$3 ports=$4 data=$5 log=$6 conf=$7 name=$8 file
  file="$(node_dir "$node")/node.env"
  cat >"$file.tmp" <<EOF
NODE=$node
ROLE=$role
PID=$pid
PORTS=$ports
DATA_DIR=$data
LOG=$log
CONF=$conf
NAME=$name
CGROUP=$("$LOCAL_DIR/node-cgroup.sh" path "$(cgroup_name "$node")" "$pid")
EOF
  if [[ -f "$(node_dir "$node")/power-loss.env" ]]; then
    cat "$(node_dir "$node")/power-loss.env" >>"$file.tmp"
  fi
  mv "$file.tmp" "$file"
}

# The cgroup a node's process runs in: plumb-pulsar-1..3, plumb-pulsar-broker, ...
cgroup_name() { echo "plumb-pulsar-$1"; }

# Nodes that have a state file, in start order (ZooKeeper first, broker last).
known_nodes() {
  local node
  for node in zookeeper 1 2 3 broker; do
    [[ -f "$(node_dir "$node")/node.env" ]] && echo "$node"
  done
  return 0
}

# The node's PID if that process still runs and is one this script started (its command line
# names this state directory): a recycled PID is never signalled.
node_pid() {
  local pid
  pid="$(node_env "$1" PID)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$STATE/" || return 1
  echo "$pid"
}

any_running() {
  local node
  for node in $(known_nodes); do
    node_pid "$node" >/dev/null && return 0
  done
  return 1
}

layout() { cat "$STATE/layout" 2>/dev/null || echo none; }

# ---------------------------------------------------------------------------------------------
# Launching JVMs.

write_log4j() {
  # Every process logs to its stdout, which the script sends to the node's one log file, so
  # a JVM that dies before log4j starts still leaves its reason there.
  cat >"$LOG4J_FILE" <<EOF
<Configuration status="warn">
  <Appenders>
    <Console name="console" target="SYSTEM_OUT">
      <PatternLayout pattern="%d{ISO8601} %-5level [%t] %c{1} - %msg%n"/>
    </Console>
  </Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="console"/></Root>
    <!-- While a bookie is down, the broker's BookKeeper client logs a line or two for every entry
         it cannot send there (over a thousand a second at 2,000 msg/s): capped at 10 a second. -->
    <Logger name="org.apache.bookkeeper.proto.PerChannelBookieClient" level="info">
      <BurstFilter level="ERROR" rate="10" maxBurst="100"/>
    </Logger>
    <Logger name="org.apache.bookkeeper.client.DefaultBookieAddressResolver" level="info">
      <BurstFilter level="ERROR" rate="10" maxBurst="100"/>
    </Logger>
  </Loggers>
</Configuration>
EOF
}

# launch NODE LOG HEAP DIRECT MAINCLASS ARGS...: starts a detached JVM in the node's cgroup,
# prints its PID (node-cgroup.sh execs java, so the PID is the JVM's).
launch() {
  local node=$1 log=$2 heap=$3 direct=$4
  shift 4
  setsid "$LOCAL_DIR/node-cgroup.sh" run "$(cgroup_name "$node")" java -Xms"$heap" -Xmx"$heap" -XX:MaxDirectMemorySize="$direct" -XX:+UseG1GC \
    --add-opens java.base/java.io=ALL-UNNAMED \
    --add-opens java.base/java.util.zip=ALL-UNNAMED \
    --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
    --add-opens java.base/sun.net=ALL-UNNAMED \
    --add-opens java.management/sun.management=ALL-UNNAMED \
    -Dio.netty.tryReflectionSetAccessible=true \
    -Dlog4j.configurationFile="$LOG4J_FILE" \
    -Dpulsar.log.dir="$(dirname "$log")" \
    -Dzookeeper.admin.enableServer=false \
    -cp "$(cat "$CLASSPATH_FILE")" "$@" \
    >>"$log" 2>&1 </dev/null &
  echo $!
}

# await_ready NODE DESCRIPTION CHECK...: polls CHECK until it succeeds; ends with one line naming
# the node and its log if the process exits or the timeout passes.
await_ready() {
  local node=$1 what=$2
  shift 2
  local pid log deadline=$((SECONDS + READY_TIMEOUT_SECONDS))
  pid="$(node_env "$node" PID)"
  log="$(node_env "$node" LOG)"
  until "$@"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "node $node ($what) exited during startup; see $log"
      return 1
    fi
    if ((SECONDS >= deadline)); then
      echo "node $node ($what) not ready within ${READY_TIMEOUT_SECONDS}s; see $log"
      return 1
    fi
    sleep 0.5
  done
}

# zk_word WORD: ZooKeeper's answer to a four-letter command (it closes the connection after it).
zk_word() {
  { exec 3<>"/dev/tcp/127.0.0.1/$ZK_PORT"; } 2>/dev/null || return 1
  printf '%s' "$1" >&3
  timeout 5 cat <&3 || true
  exec 3>&-
}

zookeeper_ok() { [[ "$(zk_word ruok)" == imok* ]]; }

# The ZooKeeper session holding bookie N's registration (/ledgers/available/<id>), if any.
bookie_session() {
  zk_word dump | awk -v path="/ledgers/available/127.0.0.1:$(bookie_port "$1")" \
    '/^0x/ { session = $1 } $1 == path { sub(":", "", session); print session }'
}

# bookie_registered N OLD: bookie N registered under a session other than OLD. A bookie restarted
# after SIGKILL listens at once but waits (up to its 30 s ZooKeeper session timeout) for the old
# registration to expire before it registers again and takes writes.
bookie_registered() {
  local session
  session="$(bookie_session "$1")"
  [[ -n "$session" && "$session" != "${2:-}" ]]
}

admin_ok() {
  curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$WEB_PORT/admin/v2/namespaces/public/default"
}

# The broker lists every bookie that registered (ready to take writes).
broker_sees_bookies() {
  local count
  count="$(curl -sf --max-time 2 "http://127.0.0.1:$WEB_PORT/admin/v2/bookies/all" |
    grep -o '"bookieId"' | wc -l)" || return 1
  ((count >= ${#BOOKIES[@]}))
}

# ---------------------------------------------------------------------------------------------
# Standalone: broker and one bookie in one JVM.

write_standalone_config() {
  cat >"$1" <<EOF
clusterName=$CLUSTER_NAME
# Empty: metadata in RocksDB under --metadata-dir (no ZooKeeper).
metadataStoreUrl=
brokerServicePort=$BROKER_PORT
webServicePort=$WEB_PORT
bindAddress=127.0.0.1
advertisedAddress=127.0.0.1
listeningInterface=lo
allowLoopback=true
httpServerEnabled=false
managedLedgerDefaultEnsembleSize=1
managedLedgerDefaultWriteQuorum=1
managedLedgerDefaultAckQuorum=1
# The default polls for new entries every 10 ms, which adds ~9 ms to end-to-end latency.
managedLedgerNewEntriesCheckDelayInMillis=0
# The bookie's fsync switch: acknowledge a write only once the journal is on disk.
journalSyncData=$JOURNAL_SYNC
functionsWorkerEnabled=false
transactionCoordinatorEnabled=false
webSocketServiceEnabled=false
systemTopicEnabled=true
topicLevelPoliciesEnabled=true
authenticationEnabled=false
authorizationEnabled=false
brokerDeleteInactiveTopicsEnabled=false
EOF
}

start_standalone() {
  local dir data log conf pid
  dir="$(node_dir 1)"
  data="$dir/data"
  log="$dir/pulsar.log"
  conf="$dir/standalone.conf"
  mkdir -p "$data/metadata" "$data/bookkeeper"
  write_standalone_config "$conf"
  pid="$(launch 1 "$log" "$HEAP" "$HEAP" org.apache.pulsar.PulsarStandaloneStarter \
    --config "$conf" -nfw -nss -a 127.0.0.1 \
    --metadata-dir "$data/metadata" --bookkeeper-dir "$data/bookkeeper")"
  write_node_env 1 standalone "$pid" "$BROKER_PORT,$WEB_PORT" "$data" "$log" "$conf" \
    "127.0.0.1:$WEB_PORT"
  echo standalone >"$STATE/layout"
  local problem
  if ! problem="$(await_ready 1 standalone admin_ok)"; then
    stop_all >/dev/null
    die "$problem"
  fi
  echo "pulsar started (pid $pid) pulsar://127.0.0.1:$BROKER_PORT http://127.0.0.1:$WEB_PORT journalSyncData=$JOURNAL_SYNC"
}

# ---------------------------------------------------------------------------------------------
# Cluster: ZooKeeper, three bookies, one broker.

start_zookeeper() {
  local dir conf pid
  dir="$(node_dir zookeeper)"
  conf="$dir/zoo.cfg"
  mkdir -p "$dir/data"
  cat >"$conf" <<EOF
tickTime=2000
dataDir=$dir/data
clientPort=$ZK_PORT
clientPortAddress=127.0.0.1
maxClientCnxns=0
# ruok is the readiness check, dump lists the bookies' registrations; the admin server would
# take port 8080.
4lw.commands.whitelist=ruok,dump
admin.enableServer=false
EOF
  pid="$(launch zookeeper "$dir/zookeeper.log" 256m 64m org.apache.zookeeper.server.ZooKeeperServerMain "$conf")"
  write_node_env zookeeper zookeeper "$pid" "$ZK_PORT" "$dir/data" "$dir/zookeeper.log" "$conf" \
    "127.0.0.1:$ZK_PORT"
}

# Registers cluster 'local', its tenants and namespaces, and formats BookKeeper's metadata in
# ZooKeeper: once per cluster, before any bookie starts.
init_cluster_metadata() {
  local log="$STATE/cluster-init.log"
  if ! java -Xmx256m -Dlog4j.configurationFile="$LOG4J_FILE" -cp "$(cat "$CLASSPATH_FILE")" \
    org.apache.pulsar.PulsarClusterMetadataSetup --cluster "$CLUSTER_NAME" \
    --metadata-store "zk:127.0.0.1:$ZK_PORT" \
    --configuration-metadata-store "zk:127.0.0.1:$ZK_PORT" \
    --web-service-url "http://127.0.0.1:$WEB_PORT" \
    --broker-service-url "pulsar://127.0.0.1:$BROKER_PORT" \
    --initial-num-stream-storage-containers 0 \
    >"$log" 2>&1 </dev/null; then
    echo "cluster metadata setup failed; see $log"
    return 1
  fi
}

write_bookie_config() {
  local n=$1 dir=$2
  cat >"$dir/bookie.conf" <<EOF
bookiePort=$(bookie_port "$n")
advertisedAddress=127.0.0.1
listeningInterface=lo
allowLoopback=true
metadataServiceUri=zk+hierarchical://127.0.0.1:$ZK_PORT/ledgers
zkTimeout=30000
journalDirectories=$dir/data/journal
ledgerDirectories=$dir/data/ledgers
ledgerStorageClass=org.apache.bookkeeper.bookie.storage.ldb.DbLedgerStorage
# Three bookies share the machine: small caches (the defaults take a quarter of direct memory each).
dbStorage_writeCacheMaxSizeMb=64
dbStorage_readAheadCacheMaxSizeMb=32
dbStorage_rocksDB_blockCacheSize=16777216
# The fsync switch: acknowledge a write only once the journal is on disk.
journalSyncData=$JOURNAL_SYNC
# The HTTP server, on a port of its own per bookie and on loopback only: its
# /api/v1/config/server_config is where start and the driver read journalSyncData back.
httpServerEnabled=true
httpServerClass=org.apache.bookkeeper.http.vertx.VertxHttpServer
httpServerHost=127.0.0.1
httpServerPort=$(bookie_http_port "$n")
# No auto-recovery: a fault's dead bookie comes back with its data.
autoRecoveryDaemonEnabled=false
EOF
}

start_bookie() {
  local n=$1 dir pid
  dir="$(node_dir "$n")"
  mkdir -p "$dir/data/journal" "$dir/data/ledgers"
  [[ -f "$dir/bookie.conf" ]] || write_bookie_config "$n" "$dir"
  pid="$(launch "$n" "$dir/bookie.log" 512m 512m org.apache.bookkeeper.server.Main --conf "$dir/bookie.conf")"
  write_node_env "$n" bookie "$pid" "$(bookie_port "$n"),$(bookie_http_port "$n")" "$dir/data" "$dir/bookie.log" \
    "$dir/bookie.conf" "127.0.0.1:$(bookie_port "$n")"
}

write_broker_config() {
  cat >"$1" <<EOF
clusterName=$CLUSTER_NAME
metadataStoreUrl=zk:127.0.0.1:$ZK_PORT
configurationMetadataStoreUrl=zk:127.0.0.1:$ZK_PORT
brokerServicePort=$BROKER_PORT
webServicePort=$WEB_PORT
bindAddress=127.0.0.1
advertisedAddress=127.0.0.1
# Topics without a persistence policy of their own (system topics) keep two copies, so they
# survive one bookie down; the driver sets each run's namespace from its file.
managedLedgerDefaultEnsembleSize=2
managedLedgerDefaultWriteQuorum=2
managedLedgerDefaultAckQuorum=2
# A bookie that fails a write while the others still make the ack quorum (e.g. 3 copies, 2 acks,
# one bookie down) is written around instead of replaced at once. BookKeeper's default replaces
# it in the ledger's ensemble; with three bookies and an ensemble of three there is no spare, so
# the broker closed the ledger, opened a new one on the same three bookies (the dead one stays
# registered for its 30 s ZooKeeper session) and failed again, refusing every write until the
# bookie came back. An acknowledged entry still has ackQuorum copies either way.
bookkeeper_delayEnsembleChange=true
# The default polls for new entries every 10 ms, which adds ~9 ms to end-to-end latency.
managedLedgerNewEntriesCheckDelayInMillis=0
transactionCoordinatorEnabled=false
webSocketServiceEnabled=false
systemTopicEnabled=true
topicLevelPoliciesEnabled=true
authenticationEnabled=false
authorizationEnabled=false
brokerDeleteInactiveTopicsEnabled=false
EOF
}

start_broker() {
  local dir pid
  dir="$(node_dir broker)"
  mkdir -p "$dir"
  [[ -f "$dir/broker.conf" ]] || write_broker_config "$dir/broker.conf"
  pid="$(launch broker "$dir/broker.log" 1g 1g org.apache.pulsar.PulsarBrokerStarter --broker-conf "$dir/broker.conf")"
  # The broker keeps its data in the bookies and ZooKeeper.
  write_node_env broker broker "$pid" "$BROKER_PORT,$WEB_PORT" "$dir" "$dir/broker.log" \
    "$dir/broker.conf" "127.0.0.1:$WEB_PORT"
}

# Each step waits for what the next one needs; the first failure stops every node already started
# and ends with one line naming the node and its log.
start_cluster() {
  local problem n
  echo cluster >"$STATE/layout"
  start_zookeeper
  problem="$(await_ready zookeeper zookeeper zookeeper_ok)" || fail_start "$problem"
  problem="$(init_cluster_metadata)" || fail_start "$problem"
  for n in "${BOOKIES[@]}"; do
    mkdir -p "$(node_dir "$n")"
    start_bookie "$n"
  done
  for n in "${BOOKIES[@]}"; do
    problem="$(await_ready "$n" bookie bookie_registered "$n")" || fail_start "$problem"
  done
  start_broker
  problem="$(await_ready broker broker admin_ok)" || fail_start "$problem"
  problem="$(await_ready broker "broker, waiting to see ${#BOOKIES[@]} bookies" broker_sees_bookies)" ||
    fail_start "$problem"
  check_journal_sync
  layer_on && sync_layers
  echo "pulsar cluster started: broker pulsar://127.0.0.1:$BROKER_PORT http://127.0.0.1:$WEB_PORT," \
    "bookies 127.0.0.1:$(bookie_port 1),$(bookie_port 2),$(bookie_port 3), zookeeper 127.0.0.1:$ZK_PORT," \
    "cluster '$CLUSTER_NAME', journalSyncData=$JOURNAL_SYNC (read back from each bookie)"
  if layer_on; then
    echo "power-loss layer under the data of ZooKeeper and bookies ${BOOKIES[*]} (fault action" \
      "power-loss); the broker keeps no data"
  fi
  return 0
}

fail_start() {
  stop_all >/dev/null 2>&1 || true
  # In a subshell: a layer that fails to unmount must not replace the reason with its own.
  (unmount_layers) >/dev/null 2>&1 || true
  die "$1"
}

# ---------------------------------------------------------------------------------------------
# The power-loss layer (--power-loss-layer).

layer_on() { [[ -f "$LAYER_FILE" ]]; }

# Fails with the layer's own one line when FUSE cannot mount here (or the layer cannot be built).
require_fuse() {
  local why
  why="$(power_loss_check 2>&1)" || die "--power-loss-layer: ${why##*$'\n'}"
}

# Mounts a layer over the (empty: start has just wiped them) data directories of ZooKeeper and the
# bookies, and records each layer's node.env lines; the broker's record says it keeps no data.
mount_layers() {
  local node dir
  for node in "${LAYERED[@]}"; do
    dir="$(node_dir "$node")"
    mkdir -p "$dir"
    power_loss_mount "$dir" "$dir/data" ||
      fail_start "node $node: mounting the power-loss layer failed (log: $dir/power-loss.log)"
    power_loss_env "$dir" >"$dir/power-loss.env"
  done
  mkdir -p "$(node_dir broker)"
  # Its topics' state is in BookKeeper and ZooKeeper: a power loss of the broker's host is a kill.
  echo "POWER_LOSS_NO_DATA=1" >"$(node_dir broker)/power-loss.env"
  touch "$LAYER_FILE"
}

# Makes everything the layers hold durable: what the start wrote (formatted metadata, cookies,
# the first ledgers) is on disk, as on a machine that has run a while.
sync_layers() {
  local node tool
  tool="$(power_loss_tool)"
  for node in "${LAYERED[@]}"; do
    "$tool" sync --control "$(power_loss_socket "$(node_dir "$node")")" >/dev/null ||
      fail_start "node $node: syncing the power-loss layer failed (log: $(node_dir "$node")/power-loss.log)"
  done
}

# A node restarted after a power loss finds its layer mounted with what survived; a layer that died
# (or a rebooted host) is mounted again over the node's durable data. Nothing for the broker.
ensure_layer() {
  local node=$1 dir
  layer_on || return 0
  [[ " ${LAYERED[*]} " == *" $node "* ]] || return 0
  dir="$(node_dir "$node")"
  power_loss_ensure "$dir" "$dir/data" ||
    die "node $node: the power-loss layer is not mounted and mounting it failed (log: $dir/power-loss.log)"
}

# Unmounts every layer still mounted under the state directory, everything made durable first (a
# clean unmount syncs). Called once no node runs: by stop, and by start before it wipes the state
# of a cluster whose stop never ran (a mounted layer would keep its data from the wipe).
unmount_layers() {
  local node dir tries
  for node in "${LAYERED[@]}"; do
    dir="$(node_dir "$node")"
    if [[ -S "$(power_loss_socket "$dir")" ]] || mountpoint -q "$dir/data" 2>/dev/null; then
      # The kernel reports a dead process's closes to the layer a moment after it is gone, and the
      # layer refuses to unmount while a file is open: a few tries.
      for tries in 1 2 3 4 5; do
        power_loss_unmount "$dir" "$dir/data" 2>/dev/null && break
        ((tries < 5)) || die "node $node: unmounting the power-loss layer at $dir/data failed (log: $dir/power-loss.log)"
        sleep 1
      done
      echo "node $node: power-loss layer unmounted, its data durable in $dir/durable"
    fi
  done
}

# ", power-loss layer mounted, 1234 bytes unsynced" (or why not), or the broker's ", keeps no data",
# for status.
layer_state() {
  local tool answer
  layer_on || return 0
  if [[ "$(node_env "$1" POWER_LOSS_NO_DATA)" == 1 ]]; then
    echo ", keeps no data (a power loss kills it)"
    return 0
  fi
  # The tool node.env names: status must not wait for build.sh's check of the sources.
  tool="$(node_env "$1" POWER_LOSS_TOOL)"
  if [[ -n "$tool" ]] && answer="$("$tool" status --control "$(node_env "$1" POWER_LOSS_CONTROL)" 2>&1)"; then
    echo ", power-loss layer mounted, $(sed -n 's/^unsynced_bytes=//p' <<<"$answer") bytes unsynced"
  elif ! mountpoint -q "$(node_dir "$1")/data" 2>/dev/null; then
    # After stop: the data is in nodes/<N>/durable, and the next start-node mounts it again.
    echo ", power-loss layer not mounted"
  else
    echo ", power-loss layer not answering"
  fi
}

# ---------------------------------------------------------------------------------------------
# journalSyncData as each running bookie reports it.

# The value of journalSyncData in bookie N's configuration as the running bookie serves it
# (BookKeeper's default, true, when its file does not set it); fails when the bookie does not answer.
reported_journal_sync() {
  local answer
  answer="$(curl -sf --max-time 5 "http://127.0.0.1:$(bookie_http_port "$1")/api/v1/config/server_config")" ||
    return 1
  if [[ "$answer" =~ \"journalSyncData\"[[:space:]]*:[[:space:]]*\"?([a-zA-Z]+) ]]; then
    echo "${BASH_REMATCH[1]}"
  else
    echo true
  fi
}

# Checks that every bookie of the fresh cluster runs with the journalSyncData the start asked for.
check_journal_sync() {
  local n got deadline
  for n in "${BOOKIES[@]}"; do
    deadline=$((SECONDS + 30))
    # The HTTP server may start a moment after the bookie registered.
    until got="$(reported_journal_sync "$n")"; do
      ((SECONDS < deadline)) ||
        fail_start "bookie $n: its HTTP server (127.0.0.1:$(bookie_http_port "$n")) did not answer, so journalSyncData could not be read back"
      sleep 0.5
    done
    [[ "$got" == "$JOURNAL_SYNC" ]] ||
      fail_start "bookie $n reports journalSyncData=$got, not the $JOURNAL_SYNC the start asked for"
  done
}

# ---------------------------------------------------------------------------------------------
# Commands.

start() {
  local nodes=1 layer=0 sync="" usage="start [--nodes 1|3] [--journal-sync true|false] [--power-loss-layer]"
  while (($#)); do
    case "$1" in
      --nodes | --journal-sync)
        (($# >= 2)) || die "$1 needs a value ($usage)"
        if [[ "$1" == --nodes ]]; then nodes="$2"; else sync="$2"; fi
        shift 2
        ;;
      --nodes=*)
        nodes="${1#--nodes=}"
        shift
        ;;
      --journal-sync=*)
        sync="${1#--journal-sync=}"
        shift
        ;;
      --power-loss-layer)
        layer=1
        shift
        ;;
      *) die "start: unknown option '$1' ($usage)" ;;
    esac
  done
  case "$nodes" in 1 | 3) ;; *) die "--nodes $nodes: Pulsar runs here as 1 (standalone) or 3 bookies" ;; esac
  if [[ -n "$sync" ]]; then
    case "$sync" in true | false) ;; *) die "--journal-sync '$sync': allowed true or false" ;; esac
  else
    sync="${PLUMB_PULSAR_JOURNAL_SYNC:-true}"
    case "$sync" in true | false) ;; *) die "PLUMB_PULSAR_JOURNAL_SYNC='$sync': allowed true or false" ;; esac
  fi
  JOURNAL_SYNC="$sync"
  # A fault plan needs a cluster (one standalone process has no peer to survive it).
  ((layer == 0 || nodes == 3)) ||
    die "--power-loss-layer needs --nodes 3: fault plans act on a cluster, and the standalone is one process"

  local wanted=standalone
  ((nodes == 1)) || wanted=cluster
  if any_running; then
    [[ "$(layout)" == "$wanted" ]] ||
      die "pulsar already runs as $(layout), not $wanted: stop it first (deploy/local/pulsar.sh stop)"
    local had=0 running_sync
    layer_on && had=1
    ((had == layer)) ||
      die "pulsar already runs $( ((had)) && echo with || echo without) the power-loss layer: stop it first (deploy/local/pulsar.sh stop)"
    running_sync="$(cat "$JOURNAL_SYNC_FILE" 2>/dev/null || echo unknown)"
    [[ "$running_sync" == "$JOURNAL_SYNC" ]] ||
      die "pulsar already runs with journalSyncData=$running_sync, not $JOURNAL_SYNC: stop it first (deploy/local/pulsar.sh stop)"
    echo "pulsar already running ($(layout), journalSyncData=$running_sync)"
    return 0
  fi
  command -v java >/dev/null || die "java not found; run: sudo apt-get install -y openjdk-17-jdk-headless"
  ((layer)) && require_fuse
  local ports=("$BROKER_PORT" "$WEB_PORT")
  if ((nodes == 3)); then
    ports+=("$ZK_PORT" $(for n in "${BOOKIES[@]}"; do bookie_port "$n" && bookie_http_port "$n"; done))
  fi
  [[ "$WEB_PORT" =~ ^[0-9]+$ ]] && ((WEB_PORT > 0 && WEB_PORT < 65536)) ||
    die "PLUMB_PULSAR_WEB_PORT=$WEB_PORT: expected a port number from 1 to 65535"
  for port in "${ports[@]}"; do
    port_taken "$port" && die "$(port_refusal "$port")"
  done
  classpath
  # A layer left mounted by a cluster whose stop never ran would keep its data from the wipe.
  unmount_layers >/dev/null
  # Pulsar's data grows fast (gigabytes per long run): every start begins empty.
  rm -rf "$NODES_DIR" "$STATE/layout" "$STATE/data" "$STATE/logs" "$STATE/pulsar.pid" \
    "$LAYER_FILE" "$JOURNAL_SYNC_FILE"
  mkdir -p "$NODES_DIR"
  echo "$JOURNAL_SYNC" >"$JOURNAL_SYNC_FILE"
  echo "$WEB_PORT" >"$WEB_PORT_FILE"
  write_log4j
  if ((nodes == 1)); then
    start_standalone
  else
    ((layer)) && mount_layers
    start_cluster
  fi
}

# stop_node_process NODE: SIGTERM, then SIGKILL after 30 s; only a PID this script recorded. A node
# frozen with SIGSTOP (a fault) gets SIGCONT first, or it could not act on the SIGTERM.
stop_node_process() {
  local node=$1 pid
  pid="$(node_pid "$node")" || return 0
  kill -CONT "$pid" 2>/dev/null || true
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null || true
  fi
  echo "stopped node $node ($(node_env "$node" ROLE), pid $pid)"
}

# Reverse start order: the broker closes its ledgers while the bookies still run.
stop_all() {
  local node stopped=0
  for node in broker 3 2 1 zookeeper; do
    if [[ -f "$(node_dir "$node")/node.env" ]] && node_pid "$node" >/dev/null; then
      stop_node_process "$node"
      stopped=1
    fi
  done
  ((stopped)) || echo "pulsar not running"
}

# stop: every node, then the layers (once no node has a file open on them; a clean unmount syncs).
stop_everything() {
  stop_all
  unmount_layers
  return 0
}

status() {
  local node pid running=0 total=0
  if [[ -z "$(known_nodes)" ]]; then
    echo "pulsar not running"
    return 3
  fi
  for node in $(known_nodes); do
    total=$((total + 1))
    if pid="$(node_pid "$node")"; then
      running=$((running + 1))
      state="running (pid $pid)"
    elif [[ -f "$(pending_file "$node")" ]]; then
      state="waits for zookeeper"
    else
      state="stopped"
    fi
    printf 'node %-9s %-10s %-18s ports %-10s data %s log %s%s\n' "$node" "$(node_env "$node" ROLE)" \
      "$state" "$(node_env "$node" PORTS)" "$(node_env "$node" DATA_DIR)" "$(node_env "$node" LOG)" \
      "$(layer_state "$node")"
  done
  if ((running == 0)); then
    echo "pulsar not running"
    return 3
  fi
  if ((running < total)); then
    echo "pulsar $(layout): $running of $total nodes running"
    return 1
  fi
  if [[ "$(layout)" == standalone ]]; then
    echo "pulsar running (pid $(node_pid 1))"
  else
    echo "pulsar cluster running ($total nodes: zookeeper, ${#BOOKIES[@]} bookies, broker)," \
      "journalSyncData=$(cat "$JOURNAL_SYNC_FILE" 2>/dev/null || echo unknown)$(layer_on && echo ", on the power-loss layer")"
  fi
}

check_cluster_node() {
  [[ "$(layout)" == cluster ]] || die "$2 works on a cluster started with: start --nodes 3"
  case "$1" in 1 | 2 | 3 | broker | zookeeper) ;; *) die "$2: node '$1' is not 1, 2, 3, broker or zookeeper" ;; esac
  [[ -f "$(node_dir "$1")/node.env" ]] || die "$2: node $1 has no state file"
}

# Marks a bookie or the broker whose start-node came while ZooKeeper was down.
pending_file() { echo "$(node_dir "$1")/start-pending"; }

# Restarts one stopped node with its existing data and configuration. A bookie or the broker
# started while ZooKeeper is down would wait for it only as long as its session timeout (30 s) and
# then exit, so it is not launched: it is marked as waiting, and start-node zookeeper launches it
# once ZooKeeper answers. After a power loss of every node the nodes are started one at a time in
# any order (a fault plan's order is 1, 2, 3, broker, zookeeper): the last one brings them all up.
start_node() {
  local node=$1 problem pid
  check_cluster_node "$node" start-node
  if pid="$(node_pid "$node")"; then
    # A node left frozen (SIGSTOP, a fault) runs again as it was.
    if [[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" == T ]]; then
      kill -CONT "$pid" 2>/dev/null || true
      echo "node $node was stopped (SIGSTOP): continued (pid $pid)"
      return 0
    fi
    echo "node $node already running (pid $pid)"
    return 0
  fi
  write_log4j
  # What the cluster was started with, should a bookie's configuration have to be written again.
  JOURNAL_SYNC="$(cat "$JOURNAL_SYNC_FILE" 2>/dev/null || echo true)"
  if [[ "$node" != zookeeper ]] && ! node_pid zookeeper >/dev/null; then
    touch "$(pending_file "$node")"
    echo "node $node waits for ZooKeeper, which is not running: start-node zookeeper starts it"
    return 0
  fi
  ensure_layer "$node"
  case "$node" in
    zookeeper)
      start_zookeeper
      problem="$(await_ready zookeeper zookeeper zookeeper_ok)" || die "$problem"
      echo "started node zookeeper (pid $(node_env zookeeper PID))"
      start_waiting_nodes
      return 0
      ;;
    broker)
      start_broker
      problem="$(await_ready broker broker admin_ok)" || die "$problem"
      ;;
    *)
      local old_session
      old_session="$(bookie_session "$node")"
      start_bookie "$node"
      problem="$(await_ready "$node" bookie bookie_registered "$node" "$old_session")" || die "$problem"
      ;;
  esac
  rm -f "$(pending_file "$node")"
  echo "started node $node (pid $(node_env "$node" PID))"
}

# With ZooKeeper up: the bookies that wait for it, all at once (each waits out its old registration,
# up to its 30 s session timeout), then the broker if it waits too, since it needs the bookies to
# serve a topic. Returns once each is up.
start_waiting_nodes() {
  local n problem launched=()
  local -A old_session=()
  for n in "${BOOKIES[@]}"; do
    [[ -f "$(pending_file "$n")" ]] || continue
    if node_pid "$n" >/dev/null; then
      rm -f "$(pending_file "$n")"
      continue
    fi
    ensure_layer "$n"
    old_session[$n]="$(bookie_session "$n")"
    start_bookie "$n"
    launched+=("$n")
  done
  for n in "${launched[@]}"; do
    problem="$(await_ready "$n" bookie bookie_registered "$n" "${old_session[$n]}")" || die "$problem"
    rm -f "$(pending_file "$n")"
    echo "started node $n (pid $(node_env "$n" PID)), which waited for ZooKeeper"
  done
  if [[ -f "$(pending_file broker)" ]]; then
    if ! node_pid broker >/dev/null; then
      start_broker
      problem="$(await_ready broker broker admin_ok)" || die "$problem"
      echo "started node broker (pid $(node_env broker PID)), which waited for ZooKeeper"
    fi
    rm -f "$(pending_file broker)"
  fi
}

stop_node() {
  check_cluster_node "$1" stop-node
  # A node waiting for ZooKeeper (start-node) stays down when ZooKeeper comes back.
  rm -f "$(pending_file "$1")"
  node_pid "$1" >/dev/null || {
    echo "node $1 not running"
    return 0
  }
  stop_node_process "$1"
}

case "${1:-}" in
  start)
    shift
    start "$@"
    ;;
  stop) stop_everything ;;
  status) status ;;
  start-node) start_node "${2:?usage: $0 start-node N}" ;;
  stop-node) stop_node "${2:?usage: $0 stop-node N}" ;;
  classpath)
    classpath
    cat "$CLASSPATH_FILE"
    ;;
  *)
    echo "usage: $0 start [--nodes 1|3] [--journal-sync true|false] [--power-loss-layer] | stop | status | start-node N | stop-node N | classpath" >&2
    exit 2
    ;;
esac
