#!/usr/bin/env bash
# Runs a standalone Apache Pulsar 4.0.7 (broker + one bookie, RocksDB metadata) on 127.0.0.1 for
# local benchmarks and driver tests.
#
#   deploy/local/pulsar.sh start|stop|status|classpath
#
# The broker comes from Maven Central (deploy/local/pulsar/pom.xml, resolved once into ~/.m2).
# Ports: binary protocol 6650, web service / admin 8081 (8080 is Plumb's worker port); the
# bookie takes a free loopback port.
# Environment:
#   PLUMB_PULSAR_JOURNAL_SYNC=true|false  bookie fsyncs its journal before acknowledging (default true)
#   PLUMB_PULSAR_HEAP=2g                  broker JVM heap (direct memory gets the same)
#   PLUMB_STATE_DIR                       where state lives (default <repo>/.plumb)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${PLUMB_STATE_DIR:-$REPO/.plumb}/pulsar"
DIST="$REPO/deploy/local/pulsar"
BROKER_PORT=6650
WEB_PORT=8081
PID_FILE="$STATE/pulsar.pid"
CLASSPATH_FILE="$STATE/classpath.txt"
JOURNAL_SYNC="${PLUMB_PULSAR_JOURNAL_SYNC:-true}"
HEAP="${PLUMB_PULSAR_HEAP:-2g}"
READY_TIMEOUT_SECONDS=120

die() {
  echo "pulsar.sh: $*" >&2
  exit 1
}

running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -d '[:space:]' <"$PID_FILE")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
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

write_config() {
  cat >"$STATE/standalone.conf" <<EOF
clusterName=standalone
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
  cat >"$STATE/log4j2.xml" <<EOF
<Configuration status="warn">
  <Appenders>
    <File name="file" fileName="$STATE/logs/pulsar.log">
      <PatternLayout pattern="%d{ISO8601} %-5level [%t] %c{1} - %msg%n"/>
    </File>
  </Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="file"/></Root>
  </Loggers>
</Configuration>
EOF
}

start() {
  if pid="$(running_pid)"; then
    echo "pulsar already running (pid $pid)"
    return 0
  fi
  case "$JOURNAL_SYNC" in true | false) ;; *) die "PLUMB_PULSAR_JOURNAL_SYNC must be true or false" ;; esac
  command -v java >/dev/null || die "java not found; run: sudo apt-get install -y openjdk-17-jdk-headless"
  for port in $BROKER_PORT $WEB_PORT; do
    port_taken "$port" && die "port 127.0.0.1:$port is already in use by another process"
  done
  classpath
  # Pulsar's data grows fast (gigabytes per long run): every start begins empty.
  rm -rf "$STATE/data" "$STATE/logs"
  mkdir -p "$STATE/data/metadata" "$STATE/data/bookkeeper" "$STATE/logs"
  write_config

  setsid java -Xms"$HEAP" -Xmx"$HEAP" -XX:MaxDirectMemorySize="$HEAP" -XX:+UseG1GC \
    --add-opens java.base/java.io=ALL-UNNAMED \
    --add-opens java.base/java.util.zip=ALL-UNNAMED \
    --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
    --add-opens java.base/sun.net=ALL-UNNAMED \
    --add-opens java.management/sun.management=ALL-UNNAMED \
    -Dio.netty.tryReflectionSetAccessible=true \
    -Dlog4j.configurationFile="$STATE/log4j2.xml" \
    -Dpulsar.log.dir="$STATE/logs" \
    -cp "$(cat "$CLASSPATH_FILE")" \
    org.apache.pulsar.PulsarStandaloneStarter \
    --config "$STATE/standalone.conf" -nfw -nss -a 127.0.0.1 \
    --metadata-dir "$STATE/data/metadata" --bookkeeper-dir "$STATE/data/bookkeeper" \
    >"$STATE/logs/stdout.log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$PID_FILE"

  local url="http://127.0.0.1:$WEB_PORT/admin/v2/namespaces/public/default"
  local deadline=$((SECONDS + READY_TIMEOUT_SECONDS))
  until curl -sf -o /dev/null --max-time 2 "$url"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      die "pulsar exited during startup; see $STATE/logs/stdout.log and pulsar.log"
    fi
    if ((SECONDS >= deadline)); then
      stop >/dev/null
      die "pulsar not ready within ${READY_TIMEOUT_SECONDS}s; see $STATE/logs"
    fi
    sleep 0.5
  done
  echo "pulsar started (pid $pid) pulsar://127.0.0.1:$BROKER_PORT http://127.0.0.1:$WEB_PORT journalSyncData=$JOURNAL_SYNC"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    echo "pulsar not running"
    rm -f "$PID_FILE"
    return 0
  fi
  kill "$pid"
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  echo "pulsar stopped (pid $pid)"
}

status() {
  if pid="$(running_pid)"; then
    echo "pulsar running (pid $pid)"
  else
    echo "pulsar not running"
    return 3
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  classpath)
    classpath
    cat "$CLASSPATH_FILE"
    ;;
  *)
    echo "usage: $0 start|stop|status|classpath" >&2
    exit 2
    ;;
esac
