#!/usr/bin/env bash
# shellcheck disable=SC2153 # plumb_settings (lib/settings.sh) sets HEAP
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

# shellcheck source=lib/nodes.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/nodes.sh" pulsar
# shellcheck source=lib/port-holder.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/port-holder.sh"

STATE="$NODES_STATE"
DIST="$NODES_LOCAL_DIR/pulsar"
CLASSPATH_FILE="$STATE/classpath.txt"
LOG4J_FILE="$STATE/log4j2-console.xml"
# Set by start from --journal-sync or the environment; a restart keeps what bookie.conf says.
JOURNAL_SYNC=""
# The setting the running layout was started with.
JOURNAL_SYNC_FILE="$STATE/journal-sync"
plumb_settings PULSAR HEAP=2g
READY_TIMEOUT_SECONDS=180

CLUSTER_NAME=local
BROKER_PORT=6650
# The web port a running layout was started with: every later command (status, start-node) uses it.
WEB_PORT_FILE="$STATE/web-port"
if [[ "${1:-}" != start && -s "$WEB_PORT_FILE" ]]; then
  WEB_PORT="$(cat "$WEB_PORT_FILE")"
else
  plumb_settings PULSAR WEB_PORT=8080
fi
ZK_PORT=2181
BOOKIES=(1 2 3)
bookie_port() { echo $((3180 + $1)); }
# BookKeeper's default HTTP port is 8000; three bookies on one host take one each.
bookie_http_port() { echo $((8000 + $1)); }
# The nodes whose data the power-loss layer holds: ZooKeeper's and the bookies' (the broker has none).
LAYERED=(zookeeper "${BOOKIES[@]}")

# How lib/nodes.sh prints and parses, in this script's wording.
NODES_DIE_PREFIX="pulsar.sh: "
NODES_NOT_RUNNING="pulsar not running"
NODES_START_VALUES=journal-sync
NODES_START_STRICT=1
# The readiness checks ask ZooKeeper and the admin API: twice a second is enough.
NODES_AWAIT_POLL=0.5

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
# Nodes: zookeeper, bookies 1-3 and broker (nodes/<N>/node.env, lib/nodes.sh), or the standalone's 1.

# In start order: ZooKeeper first, the broker last.
nodes_list() {
  local node
  for node in zookeeper "${BOOKIES[@]}" broker; do
    if [[ -f "$(nodes_env_file "$node")" ]]; then echo "$node"; fi
  done
}

# A process is the node's when its command line names this state directory: a PID the system gave
# to another process since is never signalled.
node_owns_pid() { [[ "$(nodes_cmdline "$2")" == *"$STATE/"* ]]; }

# write_node_env NODE ROLE PORTS DATA LOG CONF NAME: the node's node.env, before its first launch
# (which records PID and CGROUP).
write_node_env() {
  mkdir -p "$(nodes_dir "$1")"
  nodes_write_env "$1" <<EOF
NODE=$1
ROLE=$2
PID=
PORTS=$3
DATA_DIR=$4
LOG=$5
CONF=$6
NAME=$7
CGROUP=
EOF
}

layout() { cat "$STATE/layout" 2>/dev/null || echo none; }

# The power-loss layer is a whole cluster's: its bookies' (node 1's) says.
layer_on() { nodes_layer_on 1; }

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

# launch NODE HEAP DIRECT MAINCLASS ARGS...: starts the node's JVM, logging to its LOG
# (nodes_launch: detached, in the node's cgroup, its PID recorded).
launch() {
  local node=$1 heap=$2 direct=$3
  shift 3
  nodes_launch "$node" "$(nodes_get "$node" LOG)" \
    java -Xms"$heap" -Xmx"$heap" -XX:MaxDirectMemorySize="$direct" -XX:+UseG1GC \
    --add-opens java.base/java.io=ALL-UNNAMED \
    --add-opens java.base/java.util.zip=ALL-UNNAMED \
    --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
    --add-opens java.base/sun.net=ALL-UNNAMED \
    --add-opens java.management/sun.management=ALL-UNNAMED \
    -Dio.netty.tryReflectionSetAccessible=true \
    -Dlog4j.configurationFile="$LOG4J_FILE" \
    -Dpulsar.log.dir="$(nodes_dir "$node")" \
    -Dzookeeper.admin.enableServer=false \
    -cp "$(cat "$CLASSPATH_FILE")" "$@"
}

# await WHAT CHECK ENTRY...: nodes_await until `CHECK ENTRY` succeeds for each entry (a node, or
# node:anything); fails with NODES_FAILURE, one line naming the node, WHAT it is and its log.
await() {
  local what=$1
  shift
  NODES_MSG_EXITED="{name} ($what) exited during startup; see {log}" \
    NODES_MSG_LATE="{name} ($what) not ready within ${READY_TIMEOUT_SECONDS}s; see {log}" \
    nodes_await $((SECONDS + READY_TIMEOUT_SECONDS)) "$@"
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

# bookie_registered N:OLD: bookie N registered under a session other than OLD. A bookie restarted
# after SIGKILL listens at once but waits (up to its 30 s ZooKeeper session timeout) for the old
# registration to expire before it registers again and takes writes.
bookie_registered() {
  local session
  session="$(bookie_session "${1%%:*}")"
  [[ -n "$session" && "$session" != "${1#*:}" ]]
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

# What the standalone and the cluster's broker both end their configuration with: no transactions,
# WebSocket, authentication or deletion of idle topics; system topics and topic policies on.
broker_common_settings() {
  cat <<EOF
transactionCoordinatorEnabled=false
webSocketServiceEnabled=false
systemTopicEnabled=true
topicLevelPoliciesEnabled=true
authenticationEnabled=false
authorizationEnabled=false
brokerDeleteInactiveTopicsEnabled=false
EOF
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
$(broker_common_settings)
EOF
}

start_standalone() {
  local dir data conf
  dir="$(nodes_dir 1)"
  data="$dir/data"
  conf="$dir/standalone.conf"
  write_node_env 1 standalone "$BROKER_PORT,$WEB_PORT" "$data" "$dir/pulsar.log" "$conf" \
    "127.0.0.1:$WEB_PORT"
  mkdir -p "$data/metadata" "$data/bookkeeper"
  write_standalone_config "$conf"
  launch 1 "$HEAP" "$HEAP" org.apache.pulsar.PulsarStandaloneStarter \
    --config "$conf" -nfw -nss -a 127.0.0.1 \
    --metadata-dir "$data/metadata" --bookkeeper-dir "$data/bookkeeper"
  echo standalone >"$STATE/layout"
  if ! await standalone admin_ok 1; then
    stop_nodes 1 >/dev/null
    die "$NODES_FAILURE"
  fi
  echo "pulsar started (pid $NODES_PID) pulsar://127.0.0.1:$BROKER_PORT http://127.0.0.1:$WEB_PORT journalSyncData=$JOURNAL_SYNC"
}

# ---------------------------------------------------------------------------------------------
# Cluster: ZooKeeper, three bookies, one broker.

# Every node's node.env, before anything runs (and before the layers are mounted, so that each
# layer's lines end it and a failed start unmounts every layer it mounted).
write_cluster_node_envs() {
  local n dir
  dir="$(nodes_dir zookeeper)"
  write_node_env zookeeper zookeeper "$ZK_PORT" "$dir/data" "$dir/zookeeper.log" "$dir/zoo.cfg" \
    "127.0.0.1:$ZK_PORT"
  for n in "${BOOKIES[@]}"; do
    dir="$(nodes_dir "$n")"
    write_node_env "$n" bookie "$(bookie_port "$n"),$(bookie_http_port "$n")" "$dir/data" \
      "$dir/bookie.log" "$dir/bookie.conf" "127.0.0.1:$(bookie_port "$n")"
  done
  # The broker keeps its data in the bookies and ZooKeeper.
  dir="$(nodes_dir broker)"
  write_node_env broker broker "$BROKER_PORT,$WEB_PORT" "$dir" "$dir/broker.log" "$dir/broker.conf" \
    "127.0.0.1:$WEB_PORT"
}

start_zookeeper() {
  local dir
  dir="$(nodes_dir zookeeper)"
  mkdir -p "$dir/data"
  cat >"$dir/zoo.cfg" <<EOF
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
  launch zookeeper 256m 64m org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg"
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
  local n=$1 dir
  dir="$(nodes_dir "$n")"
  mkdir -p "$dir/data/journal" "$dir/data/ledgers"
  [[ -f "$dir/bookie.conf" ]] || write_bookie_config "$n" "$dir"
  launch "$n" 512m 512m org.apache.bookkeeper.server.Main --conf "$dir/bookie.conf"
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
$(broker_common_settings)
EOF
}

start_broker() {
  local dir
  dir="$(nodes_dir broker)"
  [[ -f "$dir/broker.conf" ]] || write_broker_config "$dir/broker.conf"
  launch broker 1g 1g org.apache.pulsar.PulsarBrokerStarter --broker-conf "$dir/broker.conf"
}

# Each step waits for what the next one needs; the first failure stops every node already started
# and ends with one line naming the node and its log.
start_cluster() {
  local problem n
  echo cluster >"$STATE/layout"
  start_zookeeper
  await zookeeper zookeeper_ok zookeeper || fail_start "$NODES_FAILURE"
  problem="$(init_cluster_metadata)" || fail_start "$problem"
  for n in "${BOOKIES[@]}"; do
    start_bookie "$n"
  done
  for n in "${BOOKIES[@]}"; do
    await bookie bookie_registered "$n:" || fail_start "$NODES_FAILURE"
  done
  start_broker
  await broker admin_ok broker || fail_start "$NODES_FAILURE"
  await "broker, waiting to see ${#BOOKIES[@]} bookies" broker_sees_bookies broker ||
    fail_start "$NODES_FAILURE"
  check_journal_sync
  if layer_on; then nodes_layer_sync "${LAYERED[@]}" || fail_start "$NODES_FAILURE"; fi
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
  # shellcheck disable=SC2046
  stop_nodes $(nodes_list) >/dev/null 2>&1 || true
  # In a subshell: a layer that fails to unmount must not replace the reason with its own.
  (nodes_layer_unmount_all) >/dev/null 2>&1 || true
  die "$1"
}

# ---------------------------------------------------------------------------------------------
# The power-loss layer (--power-loss-layer): lib/nodes.sh's, over the data of ZooKeeper and the
# bookies.

# Mounts a layer over the (empty: start has just wiped them) data directories of ZooKeeper and the
# bookies, which adds its lines to their node.env; the broker's record says it keeps no data.
mount_layers() {
  local node
  for node in "${LAYERED[@]}"; do
    nodes_layer_mount "$node" "$(layer_data_dir "$node")" || fail_start "$NODES_FAILURE"
  done
  # Its topics' state is in BookKeeper and ZooKeeper: a power loss of the broker's host is a kill.
  echo "POWER_LOSS_NO_DATA=1" | tee "$(nodes_dir broker)/power-loss.env" >>"$(nodes_env_file broker)"
}

# A node restarted after a power loss finds its layer mounted with what survived; a layer that died
# (or a rebooted host) is mounted again over the node's durable data. Nothing for the broker.
ensure_layer() {
  [[ "$1" == broker ]] || nodes_layer_ensure "$1" || die "$NODES_FAILURE"
}

# ", power-loss layer mounted, 1234 bytes unsynced" (or why not), or the broker's ", keeps no data",
# for status.
layer_state() {
  local state
  nodes_layer_on "$1" || return 0
  if [[ "$(nodes_get "$1" POWER_LOSS_NO_DATA)" == 1 ]]; then
    echo ", keeps no data (a power loss kills it)"
    return 0
  fi
  state="$(nodes_layer_state "$1")"
  # After stop: the data is in nodes/<N>/durable, and the next start-node mounts it again.
  if [[ "$state" == *"not answering" ]] && ! mountpoint -q "$(layer_data_dir "$1")" 2>/dev/null; then
    state="power-loss layer not mounted"
  fi
  echo ", $state"
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

start_usage() {
  local usage="start [--nodes 1|3] [--journal-sync true|false] [--power-loss-layer]"
  case "$1" in
    --nodes | --journal-sync) die "$1 needs a value ($usage)" ;;
    *) die "start: unknown option '$1' ($usage)" ;;
  esac
}

start() {
  nodes_start_options "$@"
  local nodes="$NODES_COUNT" layer="$NODES_LAYER" sync="${NODES_OPTION[journal-sync]:-}" port
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
  if [[ -n "$(nodes_running)" ]]; then
    [[ "$(layout)" == "$wanted" ]] ||
      die "pulsar already runs as $(layout), not $wanted: stop it first (deploy/local/pulsar.sh stop)"
    nodes_same_layer "$layer" ||
      die "pulsar already runs $NODES_HAD the power-loss layer: stop it first (deploy/local/pulsar.sh stop)"
    local running_sync
    running_sync="$(cat "$JOURNAL_SYNC_FILE" 2>/dev/null || echo unknown)"
    [[ "$running_sync" == "$JOURNAL_SYNC" ]] ||
      die "pulsar already runs with journalSyncData=$running_sync, not $JOURNAL_SYNC: stop it first (deploy/local/pulsar.sh stop)"
    echo "pulsar already running ($(layout), journalSyncData=$running_sync)"
    return 0
  fi
  command -v java >/dev/null || die "java not found; run: sudo apt-get install -y openjdk-17-jdk-headless"
  if ((layer)); then nodes_require_fuse; fi
  local ports=("$BROKER_PORT" "$WEB_PORT")
  if ((nodes == 3)); then
    ports+=("$ZK_PORT" $(for n in "${BOOKIES[@]}"; do bookie_port "$n" && bookie_http_port "$n"; done))
  fi
  [[ "$WEB_PORT" =~ ^[0-9]+$ ]] && ((WEB_PORT > 0 && WEB_PORT < 65536)) ||
    die "PLUMB_PULSAR_WEB_PORT=$WEB_PORT: expected a port number from 1 to 65535"
  for port in "${ports[@]}"; do
    if nodes_port_open 127.0.0.1 "$port"; then die "$(port_refusal "$port")"; fi
  done
  classpath
  # Pulsar's data grows fast (gigabytes per long run): every start begins empty (and first
  # unmounts the layers of a cluster whose stop never ran).
  nodes_wipe "$STATE/layout" "$STATE/data" "$STATE/logs" "$STATE/pulsar.pid" \
    "$STATE/power-loss-layer" "$JOURNAL_SYNC_FILE"
  mkdir -p "$NODES_DIR"
  echo "$JOURNAL_SYNC" >"$JOURNAL_SYNC_FILE"
  echo "$WEB_PORT" >"$WEB_PORT_FILE"
  write_log4j
  if ((nodes == 1)); then
    start_standalone
  else
    write_cluster_node_envs
    if ((layer)); then mount_layers; fi
    start_cluster
  fi
}

# One node at a time, in reverse start order: the broker closes its ledgers while the bookies
# still run. SIGKILL for one that has not stopped within 30 s.
stop_nodes() {
  local node
  for node in $(printf '%s\n' "$@" | tac); do
    NODES_MSG_STOPPED="stopped {name} ($(nodes_get "$node" ROLE), pid {pid})" \
      nodes_stop "$NODES_STOP_TIMEOUT" "$node"
  done
}

# A line per node, stopped ones too.
node_lines() {
  local node pid state
  for node in $(nodes_list); do
    if pid="$(nodes_pid "$node")"; then
      state="running (pid $pid)"
    elif [[ -f "$(nodes_pending_file "$node")" ]]; then
      state="waits for zookeeper"
    else
      state="stopped"
    fi
    printf 'node %-9s %-10s %-18s ports %-10s data %s log %s%s\n' "$node" "$(nodes_get "$node" ROLE)" \
      "$state" "$(nodes_get "$node" PORTS)" "$(nodes_get "$node" DATA_DIR)" "$(nodes_get "$node" LOG)" \
      "$(layer_state "$node")"
  done
}

# status (nodes_status, once some node runs): the node lines, then the layout's.
status_lines() {
  node_lines
  if (($1 < $2)); then
    echo "pulsar $(layout): $1 of $2 nodes running"
  elif [[ "$(layout)" == standalone ]]; then
    echo "pulsar running (pid $(nodes_pid 1))"
  else
    echo "pulsar cluster running ($2 nodes: zookeeper, ${#BOOKIES[@]} bookies, broker)," \
      "journalSyncData=$(cat "$JOURNAL_SYNC_FILE" 2>/dev/null || echo unknown)$(layer_on && echo ", on the power-loss layer")"
  fi
}

# With no node running, the stopped nodes' lines come before NODES_NOT_RUNNING.
status() {
  if [[ -z "$(nodes_running)" ]]; then
    node_lines
    echo "$NODES_NOT_RUNNING"
    return 3
  fi
  nodes_status
}

check_cluster_node() {
  [[ "$(layout)" == cluster ]] || die "$2 works on a cluster started with: start --nodes 3"
  case "$1" in 1 | 2 | 3 | broker | zookeeper) ;; *) die "$2: node '$1' is not 1, 2, 3, broker or zookeeper" ;; esac
  [[ -f "$(nodes_env_file "$1")" ]] || die "$2: node $1 has no state file"
}

# Restarts one stopped node with its existing data and configuration. A bookie or the broker
# started while ZooKeeper is down would wait for it only as long as its session timeout (30 s) and
# then exit, so it is not launched: it is marked as waiting (nodes_pending_file), and start-node
# zookeeper launches it once ZooKeeper answers. After a power loss of every node the nodes are
# started one at a time in any order (a fault plan's order is 1, 2, 3, broker, zookeeper): the last
# one brings them all up.
start_node() {
  local node=$1 pid
  check_cluster_node "$node" start-node
  if pid="$(nodes_pid "$node")"; then
    # A node left frozen (SIGSTOP, a fault) runs again as it was.
    if nodes_thaw "$pid"; then
      echo "node $node was stopped (SIGSTOP): continued (pid $pid)"
      return 0
    fi
    echo "node $node already running (pid $pid)"
    return 0
  fi
  write_log4j
  # What the cluster was started with, should a bookie's configuration have to be written again.
  JOURNAL_SYNC="$(cat "$JOURNAL_SYNC_FILE" 2>/dev/null || echo true)"
  if [[ "$node" != zookeeper ]] && ! nodes_up zookeeper; then
    touch "$(nodes_pending_file "$node")"
    echo "node $node waits for ZooKeeper, which is not running: start-node zookeeper starts it"
    return 0
  fi
  ensure_layer "$node"
  case "$node" in
    zookeeper)
      start_zookeeper
      await zookeeper zookeeper_ok zookeeper || die "$NODES_FAILURE"
      echo "started node zookeeper (pid $(nodes_get zookeeper PID))"
      start_waiting_nodes
      return 0
      ;;
    broker)
      start_broker
      await broker admin_ok broker || die "$NODES_FAILURE"
      ;;
    *)
      local old_session
      old_session="$(bookie_session "$node")"
      start_bookie "$node"
      await bookie bookie_registered "$node:$old_session" || die "$NODES_FAILURE"
      ;;
  esac
  rm -f "$(nodes_pending_file "$node")"
  echo "started node $node (pid $(nodes_get "$node" PID))"
}

# With ZooKeeper up: the bookies that wait for it, all at once (each waits out its old registration,
# up to its 30 s session timeout), then the broker if it waits too, since it needs the bookies to
# serve a topic. Returns once each is up.
start_waiting_nodes() {
  local n launched=()
  for n in "${BOOKIES[@]}"; do
    [[ -f "$(nodes_pending_file "$n")" ]] || continue
    if nodes_up "$n"; then
      rm -f "$(nodes_pending_file "$n")"
      continue
    fi
    ensure_layer "$n"
    launched+=("$n:$(bookie_session "$n")")
    start_bookie "$n"
  done
  for n in "${launched[@]+"${launched[@]}"}"; do
    await bookie bookie_registered "$n" || die "$NODES_FAILURE"
    n="${n%%:*}"
    rm -f "$(nodes_pending_file "$n")"
    echo "started node $n (pid $(nodes_get "$n" PID)), which waited for ZooKeeper"
  done
  if [[ -f "$(nodes_pending_file broker)" ]]; then
    if ! nodes_up broker; then
      start_broker
      await broker admin_ok broker || die "$NODES_FAILURE"
      echo "started node broker (pid $(nodes_get broker PID)), which waited for ZooKeeper"
    fi
    rm -f "$(nodes_pending_file broker)"
  fi
}

stop_node() {
  check_cluster_node "$1" stop-node
  # A node waiting for ZooKeeper (start-node) stays down when ZooKeeper comes back.
  rm -f "$(nodes_pending_file "$1")"
  nodes_up "$1" || {
    echo "node $1 not running"
    return 0
  }
  stop_nodes "$1"
}

case "${1:-}" in
  status) status ;;
  start-node) start_node "${2:?usage: $0 start-node N}" ;;
  stop-node) stop_node "${2:?usage: $0 stop-node N}" ;;
  classpath)
    classpath
    cat "$CLASSPATH_FILE"
    ;;
  *) nodes_main "start [--nodes 1|3] [--journal-sync true|false] [--power-loss-layer] | stop | status | start-node N | stop-node N | classpath" "$@" ;;
esac
