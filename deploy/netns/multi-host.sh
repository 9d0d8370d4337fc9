#!/usr/bin/env bash
# A distributed run across real network hops on one machine: coordinator, two workers and a Kafka
# broker each in a Linux network namespace of their own, joined by veth links to a bridge, so the
# control plane (coordinator <-> workers) and the data (workers <-> broker) cross "hosts".
#
#   deploy/netns/multi-host.sh        (as root; needs iproute2, and a build with driver-kafka:
#                                      mvn -q package -DskipTests)
#
# Two runs of the same workload, split roles (worker 1 produces, worker 2 consumes, so end-to-end
# latency crosses hosts): first with worker 2's clock 80 ms ahead, then with both clocks true.
# Checks that every message arrives, that worker 2's offset is measured as about 80 ms, and that
# the skew neither adds 80 ms to end-to-end latency nor turns it negative. Everything it starts
# (namespaces, broker, workers) is removed on exit, also on failure.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TAG="$$"
SUBNET=10.77.0
declare -A ADDRESS=([coord]=$SUBNET.10 [w1]=$SUBNET.11 [w2]=$SUBNET.12 [kafka]=$SUBNET.20)
HOSTS=(coord w1 w2 kafka)
SWITCH="plumb-sw-$TAG"
WORK="$(mktemp -d /tmp/plumb-netns-XXXXXX)"
export PLUMB_STATE_DIR="$WORK/state"
PIDS=()

ns() { echo "plumb-$1-$TAG"; }

die() {
  echo "multi-host: $*" >&2
  exit 1
}

cleanup() {
  set +e
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null
  done
  for pid in "${PIDS[@]}"; do
    timeout 20 tail --pid="$pid" -f /dev/null 2>/dev/null || kill -9 "$pid" 2>/dev/null
  done
  if [ -f "$PLUMB_STATE_DIR/kafka/kafka.pid" ]; then
    PLUMB_KAFKA_HOST="${ADDRESS[kafka]}" ip netns exec "$(ns kafka)" "$REPO/deploy/local/kafka.sh" stop >/dev/null
  fi
  for host in "${HOSTS[@]}"; do
    ip netns del "$(ns "$host")" 2>/dev/null
  done
  ip netns del "$SWITCH" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
command -v ip >/dev/null || die "needs iproute2 (apt-get install -y iproute2)"
ls "$REPO"/driver-kafka/target/driver-kafka-*.jar >/dev/null 2>&1 ||
  die "driver-kafka is not built: run 'mvn -q package -DskipTests' in $REPO first"

echo "== network: a bridge and one namespace per host on $SUBNET.0/24"
ip netns add "$SWITCH"
ip -n "$SWITCH" link add br0 type bridge
ip -n "$SWITCH" link set br0 up
i=0
for host in "${HOSTS[@]}"; do
  i=$((i + 1))
  ip netns add "$(ns "$host")"
  ip link add "pa$i-$TAG" type veth peer name "pb$i-$TAG"
  ip link set "pa$i-$TAG" netns "$(ns "$host")"
  ip link set "pb$i-$TAG" netns "$SWITCH"
  ip -n "$(ns "$host")" link set "pa$i-$TAG" name eth0
  ip -n "$(ns "$host")" addr add "${ADDRESS[$host]}/24" dev eth0
  ip -n "$(ns "$host")" link set eth0 up
  ip -n "$(ns "$host")" link set lo up
  ip -n "$SWITCH" link set "pb$i-$TAG" master br0
  ip -n "$SWITCH" link set "pb$i-$TAG" up
done

echo "== Kafka in $(ns kafka) on ${ADDRESS[kafka]}:9092"
# Resolve the broker's classpath out here: the namespaces have no route to Maven Central.
"$REPO/deploy/local/kafka.sh" classpath >/dev/null
PLUMB_KAFKA_HOST="${ADDRESS[kafka]}" PLUMB_KAFKA_HEAP=512m \
  ip netns exec "$(ns kafka)" "$REPO/deploy/local/kafka.sh" start

openssl rand -hex 32 >"$WORK/token" 2>/dev/null || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$WORK/token"
export PLUMB_JAVA_OPTS="-Xms128m -Xmx512m -XX:+UseG1GC"

# start_worker NAME [extra options]: starts bin/benchmark-worker in the host's namespace.
start_worker() {
  local host="$1"
  shift
  ip netns exec "$(ns "$host")" "$REPO/bin/benchmark-worker" --bind "${ADDRESS[$host]}" --port 8080 \
    --token-file "$WORK/token" --threads 1 "$@" >"$WORK/$host.log" 2>&1 &
  PIDS+=($!)
  WORKER_PID[$host]=$!
  for _ in $(seq 1 300); do
    grep -q "listening on" "$WORK/$host.log" && return 0
    kill -0 "${WORKER_PID[$host]}" 2>/dev/null || { cat "$WORK/$host.log" >&2; die "worker $host did not start"; }
    sleep 0.1
  done
  die "worker $host did not listen within 30 s"
}

stop_worker() {
  kill "${WORKER_PID[$1]}"
  timeout 20 tail --pid="${WORKER_PID[$1]}" -f /dev/null
}

cat >"$WORK/workload.yaml" <<'YAML'
name: multi-host
topics: 1
partitionsPerTopic: 4
messageSize: 256
subscriptionsPerTopic: 1
consumerPerSubscription: 2
producersPerTopic: 2
producerRate: 2000
testDurationSeconds: 6
warmupDurationSeconds: 2
YAML
cat >"$WORK/workers.yaml" <<YAML
workers:
  - http://${ADDRESS[w1]}:8080
  - http://${ADDRESS[w2]}:8080
YAML

# run NAME: the coordinator in its namespace, result in $WORK/NAME.json.
run() {
  echo "== run '$1' from $(ns coord)"
  timeout 300 ip netns exec "$(ns coord)" "$REPO/bin/benchmark" \
    --workers-file "$WORK/workers.yaml" --token-file "$WORK/token" \
    -d "$REPO/driver-kafka/kafka.yaml" --driver-set "bootstrap.servers=${ADDRESS[kafka]}:9092" \
    --period 2 -o "$WORK/$1.json" "$WORK/workload.yaml" | tail -n 8
}

declare -A WORKER_PID
start_worker w1
start_worker w2 --clock-skew-ms 80
run skewed
stop_worker w2
start_worker w2
run true-clocks

echo "== checks"
python3 - "$WORK/skewed.json" "$WORK/true-clocks.json" "$WORK/token" <<'PY'
import json, sys
skewed, true_clocks = (json.load(open(p)) for p in sys.argv[1:3])
token = open(sys.argv[3]).read().strip()
failures = []
def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
for name, r in (("skewed", skewed), ("true-clocks", true_clocks)):
    c = r["counters"]
    check(r["complete"], f"{name}: run complete ({r.get('incompleteReason')})")
    check(c["sent"] > 10000 and c["received"] == c["sent"] and c["lost"] == 0,
          f"{name}: sent {c['sent']}, received {c['received']}, lost {c['lost']}")
    w = r["workers"]["workers"]
    check(w[0]["producers"] == 2 and w[0]["consumers"] == 0 and w[1]["producers"] == 0
          and w[1]["consumers"] == 2, f"{name}: worker 1 produces, worker 2 consumes")
    # The per-worker breakdown covers the measured phase and the drain, like the latency figures.
    measured = r["latency"]["publish"]["count"]
    check(sum(x["publishLatencyMillis"]["count"] for x in w) == measured,
          f"{name}: per-worker publish latency counts add up to the measured {measured}")
    check(0 < sum(x["sent"] for x in w) <= c["sent"],
          f"{name}: per-worker sent, measured phase only, within the run's {c['sent']}")
    check(token not in json.dumps(r), f"{name}: the token is not in the result")
for name, r in (("skewed", skewed), ("true-clocks", true_clocks)):
    e2e = r["latency"]["endToEnd"]
    check(e2e["count"] >= r["counters"]["received"] * 0.5,
          f"{name}: end-to-end values are recorded, not dropped ({e2e['count']} measured)")
    negative = r["counters"]["negativeEndToEnd"]
    check(negative <= r["counters"]["received"] * 0.01,
          f"{name}: {negative} end-to-end values below zero (offset error beyond the latency)")
w2 = skewed["workers"]["workers"][1]
offset, uncertainty = w2["clockOffsetMillis"], w2["clockUncertaintyMillis"]
w1offset = skewed["workers"]["workers"][0]["clockOffsetMillis"]
check(abs(offset - w1offset - 80) <= uncertainty + skewed["workers"]["workers"][0]["clockUncertaintyMillis"] + 0.5,
      f"skewed: worker 2's offset {offset:.3f} ± {uncertainty:.3f} ms, worker 1's {w1offset:.3f} ms")
# Uncorrected, every end-to-end value would be at least 80 ms: the fastest message shows whether
# the skew leaked in, whatever the machine's load did to the rest of the distribution.
fastest = skewed["aggregatedEndToEndLatencyQuantiles"]["0.0"]
fastest_true = true_clocks["aggregatedEndToEndLatencyQuantiles"]["0.0"]
check(fastest < fastest_true + 40,
      f"skewed: fastest end-to-end {fastest:.3f} ms against {fastest_true:.3f} ms with true clocks, not 80 ms more")
p50s = skewed["latency"]["endToEnd"]["p50"]
p50t = true_clocks["latency"]["endToEnd"]["p50"]
print(f"info end-to-end p50 with an 80 ms skew {p50s:.3f} ms, with true clocks {p50t:.3f} ms")
sys.exit(1 if failures else 0)
PY
grep -h "lease expired\|failed" "$WORK"/w1.log "$WORK"/w2.log || true
echo "multi-host: all checks passed"
