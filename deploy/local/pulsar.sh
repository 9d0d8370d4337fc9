#!/usr/bin/env bash
# Runs Apache Pulsar 4.0.7 on 127.0.0.1 for local benchmarks and driver tests, either as one
# standalone process (the default) or as a cluster of separate processes.
#
#   deploy/local/pulsar.sh start [--nodes 1|3]   1: standalone (broker + one bookie, RocksDB
#                                                metadata in one JVM); 3: ZooKeeper, three bookies
#                                                and one broker, each a process of its own
#   deploy/local/pulsar.sh stop | status | classpath
#   deploy/local/pulsar.sh stop-node N | start-node N   (cluster only) stop one node, or restart a
#                                                stopped one with its existing data; N is a bookie
#                                                1-3, 'broker' or 'zookeeper'
#
# Both layouts serve clients on the same ports, so one driver file reaches either: binary protocol
# 6650 and web service / admin 8081 (8080 is the default port of Plumb's bin/benchmark-worker), and
# both name the cluster 'local', as OpenMessaging Benchmark's Pulsar driver files expect.
# Cluster-only ports: ZooKeeper 2181, bookies 3181, 3182, 3183 (their HTTP servers are off).
#
# State lives under ${PLUMB_STATE_DIR:-<repo>/.plumb}/pulsar; every `start` begins from empty data
# directories (Pulsar writes gigabytes per long run). One file per node, nodes/<N>/node.env, tells
# other tools (fault injection, resource sampling) what runs where:
#   NODE=2  ROLE=bookie  PID=1234  PORTS=3182  DATA_DIR=...  LOG=...  CONF=...
#   NAME=127.0.0.1:3182  CGROUP=/sys/fs/cgroup/.../plumb-pulsar-2
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
#   PLUMB_PULSAR_JOURNAL_SYNC=true|false  bookies fsync their journal before acknowledging (default true)
#   PLUMB_PULSAR_HEAP=2g                  standalone JVM heap (direct memory gets the same)
#   PLUMB_STATE_DIR                       where state lives (default <repo>/.plumb)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${PLUMB_STATE_DIR:-$REPO/.plumb}/pulsar"
LOCAL_DIR="$REPO/deploy/local"
DIST="$LOCAL_DIR/pulsar"
NODES_DIR="$STATE/nodes"
CLASSPATH_FILE="$STATE/classpath.txt"
LOG4J_FILE="$STATE/log4j2-console.xml"
JOURNAL_SYNC="${PLUMB_PULSAR_JOURNAL_SYNC:-true}"
HEAP="${PLUMB_PULSAR_HEAP:-2g}"
READY_TIMEOUT_SECONDS=180

CLUSTER_NAME=local
BROKER_PORT=6650
WEB_PORT=8081
ZK_PORT=2181
BOOKIES=(1 2 3)
bookie_port() { echo $((3180 + $1)); }

die() {
  echo "pulsar.sh: $*" >&2
  exit 1
}

port_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
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

# write_node_env NODE ROLE PID PORTS DATA LOG CONF NAME
write_node_env() {
  local node=$1 role=$2 pid=$3 ports=$4 data=$5 log=$6 conf=$7 name=$8
  cat >"$(node_dir "$node")/node.env" <<EOF
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
# No HTTP server (its default port 8000 would be shared by three bookies), no auto-recovery.
httpServerEnabled=false
autoRecoveryDaemonEnabled=false
EOF
}

start_bookie() {
  local n=$1 dir pid
  dir="$(node_dir "$n")"
  mkdir -p "$dir/data/journal" "$dir/data/ledgers"
  [[ -f "$dir/bookie.conf" ]] || write_bookie_config "$n" "$dir"
  pid="$(launch "$n" "$dir/bookie.log" 512m 512m org.apache.bookkeeper.server.Main --conf "$dir/bookie.conf")"
  write_node_env "$n" bookie "$pid" "$(bookie_port "$n")" "$dir/data" "$dir/bookie.log" \
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
  echo "pulsar cluster started: broker pulsar://127.0.0.1:$BROKER_PORT http://127.0.0.1:$WEB_PORT," \
    "bookies 127.0.0.1:$(bookie_port 1),$(bookie_port 2),$(bookie_port 3), zookeeper 127.0.0.1:$ZK_PORT," \
    "cluster '$CLUSTER_NAME', journalSyncData=$JOURNAL_SYNC"
}

fail_start() {
  stop_all >/dev/null 2>&1 || true
  die "$1"
}

# ---------------------------------------------------------------------------------------------
# Commands.

start() {
  local nodes=1
  while (($#)); do
    case "$1" in
      --nodes)
        nodes="${2:-}"
        shift 2 || die "--nodes needs a value: 1 or 3"
        ;;
      --nodes=*)
        nodes="${1#--nodes=}"
        shift
        ;;
      *) die "start: unknown option '$1' (usage: start [--nodes 1|3])" ;;
    esac
  done
  case "$nodes" in 1 | 3) ;; *) die "--nodes $nodes: Pulsar runs here as 1 (standalone) or 3 bookies" ;; esac
  case "$JOURNAL_SYNC" in true | false) ;; *) die "PLUMB_PULSAR_JOURNAL_SYNC must be true or false" ;; esac

  local wanted=standalone
  ((nodes == 1)) || wanted=cluster
  if any_running; then
    [[ "$(layout)" == "$wanted" ]] ||
      die "pulsar already runs as $(layout), not $wanted: stop it first (deploy/local/pulsar.sh stop)"
    echo "pulsar already running ($(layout))"
    return 0
  fi
  command -v java >/dev/null || die "java not found; run: sudo apt-get install -y openjdk-17-jdk-headless"
  local ports=("$BROKER_PORT" "$WEB_PORT")
  if ((nodes == 3)); then
    ports+=("$ZK_PORT" $(for n in "${BOOKIES[@]}"; do bookie_port "$n"; done))
  fi
  for port in "${ports[@]}"; do
    port_taken "$port" && die "port 127.0.0.1:$port is already in use by another process"
  done
  classpath
  # Pulsar's data grows fast (gigabytes per long run): every start begins empty.
  rm -rf "$NODES_DIR" "$STATE/layout" "$STATE/data" "$STATE/logs" "$STATE/pulsar.pid"
  mkdir -p "$NODES_DIR"
  write_log4j
  if ((nodes == 1)); then
    start_standalone
  else
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
    else
      state="stopped"
    fi
    printf 'node %-9s %-10s %-18s ports %-10s data %s log %s\n' "$node" "$(node_env "$node" ROLE)" \
      "$state" "$(node_env "$node" PORTS)" "$(node_env "$node" DATA_DIR)" "$(node_env "$node" LOG)"
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
    echo "pulsar cluster running ($total nodes: zookeeper, ${#BOOKIES[@]} bookies, broker)"
  fi
}

check_cluster_node() {
  [[ "$(layout)" == cluster ]] || die "$2 works on a cluster started with: start --nodes 3"
  case "$1" in 1 | 2 | 3 | broker | zookeeper) ;; *) die "$2: node '$1' is not 1, 2, 3, broker or zookeeper" ;; esac
  [[ -f "$(node_dir "$1")/node.env" ]] || die "$2: node $1 has no state file"
}

# Restarts one stopped node with its existing data and configuration.
start_node() {
  local node=$1 problem
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
  case "$node" in
    zookeeper)
      start_zookeeper
      problem="$(await_ready zookeeper zookeeper zookeeper_ok)" || die "$problem"
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
  echo "started node $node (pid $(node_env "$node" PID))"
}

stop_node() {
  check_cluster_node "$1" stop-node
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
  stop) stop_all ;;
  status) status ;;
  start-node) start_node "${2:?usage: $0 start-node N}" ;;
  stop-node) stop_node "${2:?usage: $0 stop-node N}" ;;
  classpath)
    classpath
    cat "$CLASSPATH_FILE"
    ;;
  *)
    echo "usage: $0 start [--nodes 1|3] | stop | status | start-node N | stop-node N | classpath" >&2
    exit 2
    ;;
esac
