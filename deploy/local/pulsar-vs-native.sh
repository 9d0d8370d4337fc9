#!/usr/bin/env bash
# Plumb's Pulsar driver against `pulsar-perf produce` on the local standalone broker, side by side:
# alternates pairs of runs of
#   (a) pulsar-perf produce -r 100000000 -s 1024 -np 1 on a fresh 1-partition topic (this
#       pulsar-perf refuses -r 0, so the rate is set far above anything the broker takes)
#   (b) bin/benchmark --drivers driver-pulsar/pulsar.yaml workloads/pulsar-vs-native.yaml
# with the same producer settings (batching window, batch bytes and messages, pending limit,
# client memory limit, connections and IO threads read from pulsar.yaml), 1 KB payloads, no keys,
# one producer, no consumers. Prints each pair and the median ratio Plumb/native of the achieved
# publish rates. Everything shares this host's cores, so only the ratio of runs taken side by side
# means anything.
#
# pulsar-perf is the PerformanceProducer of org.apache.pulsar:pulsar-testclient, on the classpath
# deploy/local/pulsar.sh resolves. Builds nothing else: run `mvn -q package -DskipTests` first.
# Starts the local broker if it is not running (and stops it again at the end in that case). A
# broker the script started is restarted from a clean data directory before every pair: each run
# writes several GB, and the standalone bookie turns read-only when its disk fills (a run on it
# then stalls at 0 msg/s). Before each pair a discarded pulsar-perf run warms the broker's JIT up,
# so neither side meets a cold broker.
#
# Environment:
#   PLUMB_PVN_PAIRS     pairs of runs (default 5: an estimate with a 93.8% interval)
#   PLUMB_PVN_SECONDS   pulsar-perf run time (default 32: its first 10 s window is dropped, as
#                       Plumb's 10 s warm-up is, and the next two are measured, as Plumb's 20 s are)
#   PLUMB_PVN_WARMUP    seconds of the discarded warm-up run before each pair (default 10)
#   PLUMB_PVN_OUT       where each run's output is kept (default results/pulsar-vs-native-<time>/)
set -euo pipefail

# shellcheck source=lib/native-pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/native-pairs.sh"
# Before anything starts: a busy host makes the ratios meaningless; then PAIRS and OUT from
# PLUMB_PVN_PAIRS and PLUMB_PVN_OUT (lib/native-pairs.sh).
native_pairs_begin pulsar PVN "the YAML and the result JSON"
SECONDS_PER_RUN="${PLUMB_PVN_SECONDS:-32}"
WARMUP_SECONDS="${PLUMB_PVN_WARMUP:-10}"
SERVICE_URL="pulsar://127.0.0.1:6650"
HTTP_URL="http://127.0.0.1:8080"

# Producer-side settings of the driver file, as pulsar-perf flags.
read -r -a PERF_FLAGS < <(python3 - "$DRIVER_FILE" <<'EOF'
import re, sys
values, section = {}, None
for line in open(sys.argv[1]):
    if re.match(r'^\S', line):
        section = line.split(':')[0].strip()
        continue
    m = re.match(r'^\s+(\w+):\s*([^#\s]+)', line)
    if m and section in ('client', 'producer'):
        values[section + '.' + m.group(1)] = m.group(2)
def get(key, default):
    return values.get(key, default)
if get('producer.batchingEnabled', 'true') == 'false':
    batching = ['--disable-batching']
else:
    batching = ['-b', get('producer.batchingMaxPublishDelayMs', '1'),
                '-bb', get('producer.batchingMaxBytes', '131072'),
                '-bm', get('producer.batchingMaxMessages', '1000')]
print(' '.join(batching + [
    '-o', get('producer.pendingQueueSize', '0'),
    '-ml', get('client.clientMemoryLimitMB', '256') + 'M',
    '-c', get('client.connectionsPerBroker', '8'),
    '-ioThreads', get('client.ioThreads', '8'),
]))
EOF
)

native_pairs_start_broker pulsar
curl -sf -o /dev/null --max-time 5 "$HTTP_URL/admin/v2/namespaces/public/default" ||
  die "no broker at $HTTP_URL: start it with deploy/local/pulsar.sh start"
mkdir -p "$OUT"
trap native_pairs_stop_broker EXIT

PULSAR_CLASSPATH="$("$REPO/deploy/local/pulsar.sh" classpath | tail -n 1)"
: >"$OUT/client.conf" # pulsar-perf's first argument: a client config file (flags say it all)
cat >"$OUT/log4j2.xml" <<'EOF'
<Configuration status="error">
  <Appenders><Console name="err" target="SYSTEM_ERR"><PatternLayout pattern="%p %m%n"/></Console></Appenders>
  <Loggers>
    <Logger name="org.apache.pulsar.testclient" level="info"/>
    <Root level="warn"><AppenderRef ref="err"/></Root>
  </Loggers>
</Configuration>
EOF

# pulsar-perf for $2 seconds on a topic of its own, output to $OUT/$1.out.
perf_produce() {
  local topic="persistent://public/default/pvn-$1-$(date +%s)"
  # shellcheck disable=SC2086
  # pulsar-perf checks its -time only between sends: a send blocked on a stalled broker would hold
  # it forever, so it gets two minutes more than asked.
  timeout "$(($2 + 120))" java $NATIVE_PAIRS_JAVA_OPTS -Dlog4j.configurationFile="$OUT/log4j2.xml" -cp "$PULSAR_CLASSPATH" \
    org.apache.pulsar.testclient.PulsarPerfTestTool "$OUT/client.conf" produce \
    --service-url "$SERVICE_URL" --admin-url "$HTTP_URL" -np 1 -n 1 -r 100000000 -s 1024 \
    -time "$2" "${PERF_FLAGS[@]}" "$topic" \
    >"$OUT/$1.out" 2>&1 || return 1
  curl -sf -X DELETE "$HTTP_URL/admin/v2/persistent/public/default/${topic##*/}/partitions?force=true" \
    >/dev/null 2>&1 || true
}

# A clean broker (when this script started it) with a warm JIT, before each pair.
before_pair() {
  if ((native_pairs_started)); then
    "$REPO/deploy/local/pulsar.sh" stop >/dev/null
    "$REPO/deploy/local/pulsar.sh" start >/dev/null
  fi
  perf_produce "warmup-$1" "$WARMUP_SECONDS" ||
    { tail -n 20 "$OUT/warmup-$1.out" >&2; die "pulsar-perf warm-up failed (pair $1)"; }
}

native_run() {
  perf_produce "native-$1" "$SECONDS_PER_RUN" ||
    { tail -n 20 "$OUT/native-$1.out" >&2; die "pulsar-perf failed (pair $1)"; }
  # Prints "<after the first 10 s> <whole run>" in msg/s. pulsar-perf prints the acknowledged
  # rate of every 10 s ("Throughput produced: N msg --- R msg/s --- ..."), the first window
  # counting from before its client and producer exist, and at its end the average of the whole
  # run ("Aggregated throughput stats --- N records sent --- R msg/s"). Dropping the first window
  # matches Plumb, whose figure excludes its 10 s warm-up.
  python3 - "$OUT/native-$1.out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
windows = [float(r) for r in re.findall(r'Throughput produced: +\d+ msg --- +([\d.]+) msg/s', text)]
whole = re.findall(r'Aggregated throughput stats --- \d+ records sent --- ([\d.]+) msg/s', text)
if len(windows) < 2 or not whole:
    sys.exit("pulsar-perf printed too few lines: raise PLUMB_PVN_SECONDS")
steady = windows[1:]
print(sum(steady) / len(steady), whole[-1])
PY
}

plumb_run() {
  PLUMB_JAVA_OPTS="$NATIVE_PAIRS_JAVA_OPTS" native_pairs_benchmark "$1" "$OUT" \
    --driver-set "client.serviceUrl=$SERVICE_URL" --driver-set "client.httpUrl=$HTTP_URL"
  native_pairs_publish_rate "$OUT/plumb-$1.json"
}

echo "Pulsar producer throughput on $SERVICE_URL: pulsar-perf produce vs Plumb, $PAIRS pairs"
echo "  both: 1 persistent topic, 1 partition, 1024-byte payloads, no keys, 1 producer, no consumers,"
echo "        JVM $NATIVE_PAIRS_JAVA_OPTS"
echo "  producer settings (from $(basename "$DRIVER_FILE")): ${PERF_FLAGS[*]}"
echo "  native: pulsar-perf produce -r 100000000 (unlimited in effect) -time $SECONDS_PER_RUN"
echo "  each pair: $( ((native_pairs_started)) && echo "a freshly started broker, then ")a discarded $WARMUP_SECONDS s pulsar-perf warm-up"
echo "  plumb:  $(basename "$WORKLOAD") (open loop at producerRate $(awk '/^producerRate:/ {print $2}' "$WORKLOAD"), above what the broker takes)"
echo

print_pair() {
  native_pairs_line_with_whole "$@"
}

native_pairs_run "$PAIRS" "$REPO/bin/benchmark"
echo "(native: msg/s after its first 10 s window, as Plumb's figure excludes its 10 s warm-up;"
echo " 'whole run' includes the client's start; outputs: $OUT)"
