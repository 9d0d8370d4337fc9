#!/usr/bin/env bash
# What replication costs, broker by broker: the single-copy driver file on one node against the
# replicated file on a 3-node cluster, measured one after the other on this host.
#
#   deploy/local/replication-cost.sh [BROKER...]     (default: kafka pulsar rabbitmq nats redis)
#   deploy/local/replication-cost.sh --table DIR     prints the table of DIR (a run's folder) again.
#
# BROKER may also be rabbitmq-classic: durable classic queues on one node against classic mirrored
# queues of 3 (RabbitMQ 3.x's replicated classic queues) on three; rabbitmq compares quorum queues.
#
# For each broker and each of its two files: start the broker from a clean data directory (one
# node, or --nodes 3), measure publish and end-to-end latency at a fixed rate every config holds
# (workloads/replication-cost-1kb-fixed.yaml: 2,000 msg/s after 30 s of warm-up), restart it clean,
# search the stable peak rate (workloads/replication-cost-1kb.yaml, producerRate 0, probes of
# PROBE_SECONDS), and stop it.
# A clean restart before each measurement keeps one run's leftovers (files, ledgers, streams) out
# of the next. Results go to results/replication-cost-<time>/; a table is printed at the end.
#
# Environment: PROBE_SECONDS (default 5); MEASURE=fixed or MEASURE=peak runs only that half.
# Builds nothing: run
# `mvn -q package -DskipTests` first. Every broker and node shares this host's cores, so the
# figures are relative: compare the two rows of one broker, not brokers with each other.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=lib/one-broker.sh
source deploy/local/lib/one-broker.sh
PROBE_SECONDS="${PROBE_SECONDS:-5}"
MEASURE="${MEASURE:-fixed peak}"
PEAK_WORKLOAD=workloads/replication-cost-1kb.yaml
FIXED_WORKLOAD=workloads/replication-cost-1kb-fixed.yaml
# The table of a run's folder $1: each driver file's stable peak, and its latencies, send delay and
# loss at the fixed rate.
table() {
  PYTHONPATH=deploy/local/lib python3 - "$1" <<'PY'
import glob, os, sys
from results import load, stable_peak
out = sys.argv[1]
names = sorted({os.path.basename(p).rsplit("-", 1)[0] for p in glob.glob(os.path.join(out, "*-fixed.json")) + glob.glob(os.path.join(out, "*-peak.json"))})
print("\n| broker | driver file | nodes | copies | stable peak (msg/s) | publish p50 / p99 / p99.9 (ms) | end-to-end p50 / p99 / p99.9 (ms) | send delay p99 (ms) | lost | verdict |")
print("|---|---|---|---|---:|---|---|---:|---:|---|")
for name in names:
    peak, fixed = load(os.path.join(out, name + "-peak.json")), load(os.path.join(out, name + "-fixed.json"))
    broker, file = name.split("-", 1)
    facts = (fixed or peak or {}).get("brokerFacts", {})
    if fixed:
        p, e, c = fixed["latency"]["publish"], fixed["latency"]["endToEnd"], fixed["counters"]
        delay = fixed["latency"]["sendDelay"]
        lat = lambda h: f"{h['p50']:.2f} / {h['p99']:.2f} / {h['p99.9']:.2f}"
        verdict = ("complete" if fixed["complete"] else "INCOMPLETE") + (", generator-bound" if fixed["generatorBound"] else "")
        row = f"{lat(p)} | {lat(e)} | {delay['p99']:.2f} | {c['lost']:,} | {verdict}"
    else:
        row = "n/a | n/a | n/a | n/a | no result"
    print(f"| {broker} | `{file}.yaml` | {facts.get('nodes', '?')} | {facts.get('replicas', '?')} | {stable_peak(peak)} | {row} |")
print("(latencies at the fixed rate of workloads/replication-cost-1kb-fixed.yaml, from the intended send time)")
PY
}

if [ "${1:-}" = "--table" ]; then
  table "${2:?usage: $0 --table DIR}"
  exit 0
fi
brokers=("$@")
[ ${#brokers[@]} -gt 0 ] || brokers=(kafka pulsar rabbitmq nats redis)

# The single-copy file and the replicated one of each broker: the same settings but the copies.
declare -A single=(
  [kafka]=kafka.yaml [pulsar]=pulsar.yaml [rabbitmq]=rabbitmq-quorum.yaml
  [rabbitmq-classic]=rabbitmq-durable.yaml [nats]=nats-jetstream.yaml [redis]=redis.yaml)
declare -A replicated=(
  [kafka]=kafka-replicated.yaml [pulsar]=pulsar-replicated.yaml
  [rabbitmq]=rabbitmq-quorum-replicated.yaml [rabbitmq-classic]=rabbitmq-classic-mirrored.yaml
  [nats]=nats-jetstream-replicated.yaml [redis]=redis-replicated.yaml)
for broker in "${brokers[@]}"; do
  [ -n "${single[$broker]:-}" ] || {
    echo "error: broker '$broker': allowed: ${!single[*]}" >&2
    exit 2
  }
done

out="results/replication-cost-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

# Starts $1 from a clean data directory with $2 nodes (stopping whatever of it runs), once the
# disk has written back what earlier runs left in the page cache.
fresh() {
  before_start "$1"
  if [ "$2" -eq 1 ]; then
    deploy/local/"$1".sh start >"$out/$1-start.log" 2>&1
  else
    deploy/local/"$1".sh start --nodes "$2" >"$out/$1-start.log" 2>&1
  fi
}

for broker in "${brokers[@]}"; do
  script="${broker%%-*}" # rabbitmq-classic runs on deploy/local/rabbitmq.sh
  for nodes in 1 3; do
    if [ "$nodes" -eq 1 ]; then file="${single[$broker]}"; else file="${replicated[$broker]}"; fi
    name="$script-${file%.yaml}"
    echo "== $broker, $nodes node(s): driver-$script/$file"
    # The fixed rate first: a peak search writes gigabytes, and the kernel writing them back to
    # disk afterwards would land in the next measurement's latency.
    if [[ " $MEASURE " == *" fixed "* ]]; then
      fresh "$script" "$nodes"
      measure "$name-fixed" -d "driver-$script/$file" "$FIXED_WORKLOAD"
    fi
    if [[ " $MEASURE " == *" peak "* ]]; then
      fresh "$script" "$nodes"
      measure "$name-peak" -d "driver-$script/$file" --probe-seconds "$PROBE_SECONDS" "$PEAK_WORKLOAD"
    fi
    stop_running "$script"
  done
done

table "$out"
echo "(results and consoles in $out)"
