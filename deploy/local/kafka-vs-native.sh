#!/usr/bin/env bash
# Plumb's Kafka driver against Kafka's own producer benchmark on the local broker, side by side:
# alternates pairs of runs of
#   (a) org.apache.kafka.tools.ProducerPerformance --throughput -1 on a fresh 1-partition topic
#   (b) bin/benchmark -d driver-kafka/kafka-throughput.yaml workloads/kafka-vs-native.yaml
# with identical producer settings (read from kafka-throughput.yaml's producerConfig), 1 KB
# records, no keys, one producer, no consumers, and prints each pair and the median ratio
# Plumb/native of the achieved publish rates. Everything shares this host's cores, so only the
# ratio of runs taken side by side means anything.
#
# Builds nothing: run `mvn -q package -DskipTests` first. Starts the local broker if it is not
# running (and stops it again at the end in that case).
#
# Environment:
#   PLUMB_KVN_PAIRS     pairs of runs (default 5: an estimate with a 93.8% interval)
#   PLUMB_KVN_RECORDS   records per ProducerPerformance run (default 6000000, ~20-30 s here)
#   PLUMB_KAFKA_PORT    broker port (default 9092)
#   PLUMB_KVN_OUT       where each run's output is kept (default results/kafka-vs-native-<time>/)
#   PLUMB_KVN_NATIVE_PAYLOAD
#                       file (default): ProducerPerformance sends one 1024-byte payload read from
#                       a file, as Plumb sends one random body; record-size: --record-size 1024,
#                       with which ProducerPerformance draws 1024 new random letters for every
#                       record (one SplittableRandom call per byte on its only sending thread),
#                       CPU that Plumb does not spend, so that mode measures the tool, not Kafka
set -euo pipefail

# shellcheck source=lib/native-pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/native-pairs.sh"
# Before anything starts: a busy host makes the ratios meaningless; then PAIRS and OUT from
# PLUMB_KVN_PAIRS and PLUMB_KVN_OUT (lib/native-pairs.sh).
native_pairs_begin kafka KVN
plumb_settings KVN RECORDS=6000000 NATIVE_PAYLOAD=file
BOOTSTRAP="127.0.0.1:${PLUMB_KAFKA_PORT:-9092}"
DRIVER_FILE="$REPO/driver-kafka/kafka-throughput.yaml"

# producerConfig of the driver file, one key=value per line: the settings both sides use.
mapfile -t PRODUCER_PROPS < <(python3 - "$DRIVER_FILE" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
inside = False
for line in lines:
    if re.match(r'^producerConfig:\s*\|', line):
        inside = True
        continue
    if inside:
        if line and not line[0].isspace():
            break
        entry = line.strip()
        if entry and not entry.startswith('#'):
            key, _, value = re.split(r'\s*([=:])\s*', entry, maxsplit=1)
            print(f"{key}={value}")
EOF
)
((${#PRODUCER_PROPS[@]} > 0)) || die "no producerConfig found in $DRIVER_FILE"

native_pairs_start_broker kafka
mkdir -p "$OUT"
trap native_pairs_stop_broker EXIT

CLASSPATH_KAFKA="$("$REPO/deploy/local/kafka.sh" classpath)"
case "$NATIVE_PAYLOAD" in
  file)
    # 1024 random capital letters, no delimiter: one payload of exactly 1024 bytes.
    python3 -c 'import random,sys; sys.stdout.write("".join(random.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(1024)))' \
      >"$OUT/payload-1024.txt"
    NATIVE_PAYLOAD_ARGS=(--payload-file "$OUT/payload-1024.txt")
    ;;
  record-size) NATIVE_PAYLOAD_ARGS=(--record-size 1024) ;;
  *) die "PLUMB_KVN_NATIVE_PAYLOAD must be file or record-size" ;;
esac
# The tools log through log4j2: keep them to warnings so their output stays parseable.
cat >"$OUT/log4j2.properties" <<'EOF'
status = error
appender.console.type = Console
appender.console.name = STDERR
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.console.ref = STDERR
EOF

kafka_tool() {
  # shellcheck disable=SC2086
  java $NATIVE_PAIRS_JAVA_OPTS -Dlog4j2.configurationFile="$OUT/log4j2.properties" -cp "$CLASSPATH_KAFKA" "$@"
}

# Topic settings of the driver file (min.insync.replicas=1), so both sides write alike.
native_run() {
  local topic="kvn-native-$1-$(date +%s)"
  kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --create \
    --topic "$topic" --partitions 1 --replication-factor 1 --config min.insync.replicas=1 >/dev/null
  kafka_tool org.apache.kafka.tools.ProducerPerformance --topic "$topic" \
    --num-records "$RECORDS" "${NATIVE_PAYLOAD_ARGS[@]}" --throughput -1 \
    --producer-props "bootstrap.servers=$BOOTSTRAP" "${PRODUCER_PROPS[@]}" \
    >"$OUT/native-$1.out" 2>"$OUT/native-$1.err" ||
    { cat "$OUT/native-$1.err" >&2; die "ProducerPerformance failed"; }
  kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --delete \
    --topic "$topic" >/dev/null 2>&1 || true
  # Prints "<after the first 5 s> <whole run>" in records/sec. ProducerPerformance prints one
  # line per 5 s window, "N records sent, R records/sec (...)", then a final line for the whole
  # run (which includes JVM and connection start-up). Dropping the first window matches Plumb,
  # whose figure excludes its 5 s warm-up.
  python3 - "$OUT/native-$1.out" <<'PY'
import re, sys
rows = [(int(m.group(1)), float(m.group(2)))
        for m in re.finditer(r'^(\d+) records sent, ([\d.]+) records/sec', open(sys.argv[1]).read(), re.M)]
if len(rows) < 3:
    sys.exit("ProducerPerformance printed too few lines: raise PLUMB_KVN_RECORDS")
windows, whole = rows[:-1], rows[-1]
steady = windows[1:]
print(sum(n for n, _ in steady) / sum(n / r for n, r in steady), whole[1])
PY
}

plumb_run() {
  PLUMB_JAVA_OPTS="$NATIVE_PAIRS_JAVA_OPTS" native_pairs_benchmark "$1" "$OUT" --driver-set "bootstrap.servers=$BOOTSTRAP"
  native_pairs_publish_rate "$OUT/plumb-$1.json"
}

echo "Kafka producer throughput on $BOOTSTRAP: ProducerPerformance vs Plumb, $PAIRS pairs"
echo "  both: 1 topic, 1 partition, replication 1, min.insync.replicas=1, 1024-byte records, no keys,"
echo "        1 producer, no consumers, JVM $NATIVE_PAIRS_JAVA_OPTS"
echo "  producer settings (from $(basename "$DRIVER_FILE")): ${PRODUCER_PROPS[*]}"
echo "  native: --num-records $RECORDS --throughput -1 ${NATIVE_PAYLOAD_ARGS[*]}"
echo "  plumb:  $(basename "$WORKLOAD") (open loop at producerRate $(awk '/^producerRate:/ {print $2}' "$WORKLOAD"), above what the broker takes)"
echo

print_pair() {
  native_pairs_line_with_whole "$@"
}

native_pairs_run "$PAIRS" "$REPO/bin/benchmark"
echo "(native: records/sec after its first 5 s window, as Plumb's figure excludes its 5 s warm-up;"
echo " 'whole run' includes the JVM and connection start-up; outputs: $OUT)"
