#!/usr/bin/env bash
# Plumb's RabbitMQ driver against RabbitMQ PerfTest on the local broker, side by side: alternates
# pairs of runs of
#   (a) com.rabbitmq.perf.PerfTest -x 1 -y 1 -s 1024 (no rate limit) on a classic queue
#   (b) bin/benchmark --drivers driver-rabbitmq/rabbitmq.yaml workloads/rabbitmq-vs-native.yaml
# with the same settings: one producer, one consumer, one non-durable classic queue bound to a
# direct exchange, transient 1 KB messages, no publisher confirms, manual consumer acks with the
# driver file's prefetch and multi-ack batch. Prints each pair and the median ratio Plumb/native
# of the achieved publish rates. Everything shares this host's cores, so only the ratio of runs
# taken side by side means anything.
#
# PerfTest (com.rabbitmq:perf-test) is resolved once from Maven Central (deploy/local/rabbitmq/
# pom.xml). Builds nothing else: run `mvn -q package -DskipTests` first. Starts the local broker
# if it is not running (and stops it again at the end in that case).
#
# Environment:
#   PLUMB_RVN_PAIRS     pairs of runs (default 5: an estimate with a 93.8% interval)
#   PLUMB_RVN_SECONDS   PerfTest run time (default 25: Plumb's 5 s warm-up + 20 s measured)
#   PLUMB_RVN_OUT       where each run's output is kept (default results/rabbitmq-vs-native-<time>/)
set -euo pipefail

# shellcheck source=lib/native-pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/native-pairs.sh"
# Before anything starts: a busy host makes the ratios meaningless; then PAIRS and OUT from
# PLUMB_RVN_PAIRS and PLUMB_RVN_OUT (lib/native-pairs.sh).
native_pairs_begin rabbitmq RVN
STATE_DIR="${PLUMB_STATE_DIR:-$REPO/.plumb}"
SECONDS_PER_RUN="${PLUMB_RVN_SECONDS:-25}"
URI="amqp://guest:guest@127.0.0.1:5672"
PERF_CLASSPATH_FILE="$STATE_DIR/rabbitmq-perf-test/classpath.txt"

# The driver file's consumer settings, so PerfTest acknowledges the same way.
yaml_int() {
  python3 - "$DRIVER_FILE" "$1" <<'EOF'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r'^' + sys.argv[2] + r':\s*(\d+)', line)
    if m:
        print(m.group(1))
        break
EOF
}
PREFETCH="$(yaml_int prefetchCount)"
ACK_BATCH="$(yaml_int ackBatchSize)"
[[ -n "$PREFETCH" && -n "$ACK_BATCH" ]] || die "prefetchCount/ackBatchSize not found in $DRIVER_FILE"

if [[ ! -s "$PERF_CLASSPATH_FILE" ]]; then
  echo "resolving RabbitMQ PerfTest from Maven Central ..."
  mkdir -p "$(dirname "$PERF_CLASSPATH_FILE")"
  mvn -B -q -f "$REPO/deploy/local/rabbitmq/pom.xml" dependency:build-classpath \
    -Dmdep.outputFile="$PERF_CLASSPATH_FILE" >"$(dirname "$PERF_CLASSPATH_FILE")/resolve.log" 2>&1 ||
    die "could not resolve PerfTest; see $(dirname "$PERF_CLASSPATH_FILE")/resolve.log"
fi

native_pairs_start_broker rabbitmq
if ! (exec 3<>/dev/tcp/127.0.0.1/5672) 2>/dev/null; then
  die "no broker on 127.0.0.1:5672: start it with deploy/local/rabbitmq.sh start"
fi
mkdir -p "$OUT"
trap native_pairs_stop_broker EXIT

native_run() {
  # A non-durable, server-named classic queue on a non-durable direct exchange, transient
  # messages, no confirms: what rabbitmq.yaml asks of the driver.
  # shellcheck disable=SC2086
  java $NATIVE_PAIRS_JAVA_OPTS -cp "$(cat "$PERF_CLASSPATH_FILE")" com.rabbitmq.perf.PerfTest \
    --uri "$URI" --producers 1 --consumers 1 --size 1024 --time "$SECONDS_PER_RUN" \
    --qos "$PREFETCH" --multi-ack-every "$ACK_BATCH" --exchange "rvn-native-$1" --type direct \
    >"$OUT/native-$1.out" 2>"$OUT/native-$1.err" ||
    { tail -n 20 "$OUT/native-$1.err" >&2; die "PerfTest failed (pair $1)"; }
  # Prints "<after the first 5 s> <whole run>" in msg/s. PerfTest prints the rate of every second
  # ("id: test-..., time 6.000 s, sent: 23456 msg/s, ...") and at its end the average of the
  # whole run, its start included ("id: test-..., sending rate avg: 23456 msg/s"). Dropping the
  # first 5 s matches Plumb, whose figure excludes its 5 s warm-up. A rate under 10 msg/s has a
  # decimal ("sent: 5.5 msg/s"), and such a second counts like the others.
  python3 - "$OUT/native-$1.out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
seconds = [(float(t), float(r)) for t, r in re.findall(r'time:? ([\d.]+) ?s, sent: ([\d.]+) msg/s', text)]
whole = re.findall(r'sending rate avg: ([\d.]+) msg/s', text)
steady = [r for t, r in seconds if t > 5.0]
if not steady or not whole:
    sys.exit("PerfTest printed too few lines: raise PLUMB_RVN_SECONDS")
print(sum(steady) / len(steady), whole[-1])
PY
}

plumb_run() {
  PLUMB_JAVA_OPTS="$NATIVE_PAIRS_JAVA_OPTS" native_pairs_benchmark "$1" "$OUT" --driver-set "amqpUris=$URI"
  native_pairs_publish_rate "$OUT/plumb-$1.json"
}

echo "RabbitMQ classic queue throughput on $URI: PerfTest vs Plumb, $PAIRS pairs"
echo "  both: 1 producer, 1 consumer, 1 non-durable classic queue, direct exchange, 1024-byte"
echo "        transient messages, no confirms, prefetch $PREFETCH, ack multiple every $ACK_BATCH,"
echo "        JVM $NATIVE_PAIRS_JAVA_OPTS"
echo "  native: PerfTest ${SECONDS_PER_RUN} s, no rate limit"
echo "  plumb:  $(basename "$DRIVER_FILE") + $(basename "$WORKLOAD") (open loop at producerRate $(awk '/^producerRate:/ {print $2}' "$WORKLOAD"), above what the broker takes)"
echo

print_pair() {
  native_pairs_line_with_whole "$@"
}

native_pairs_run "$PAIRS" "$REPO/bin/benchmark"
echo "(native: msg/s after its first 5 s, as Plumb's figure excludes its 5 s warm-up;"
echo " 'whole run' includes the JVM and connection start-up; outputs: $OUT)"
