#!/usr/bin/env bash
# The comparisons practitioners cite, each run as one command on the local brokers: several driver
# files, one workload, --repeat rounds interleaved, one report with the brokers' configurations
# side by side, and a table of each one's stable peak with its interval.
#
#   deploy/local/comparisons.sh COMPARISON [REPEATS]
#
#   rabbitmq-queues  a 3-node RabbitMQ, 3 copies each: classic mirrored queues, quorum queues, a
#                    stream queue over AMQP, a stream over the stream protocol; one publisher and
#                    one consumer on one queue, 100-byte messages, stable peak
#                    (workloads/compare-queues-100b-1p1c-peak.yaml)
#   redis-fsync      one Redis, a stream: appendfsync no, everysec, always; 8 producers, 100-byte
#                    messages, stable peak (workloads/compare-100b-8p-peak.yaml)
#   kafka-batch      one Kafka, 1 KB messages, the stable peak at batch.size 1 KB, 16 KB, 64 KB,
#                    256 KB and 1 MB: the default flush (kafka.yaml) against an fsync per message
#                    (kafka-sync.yaml) (workloads/peak-1kb.yaml)
#
# REPEATS: rounds per driver file (default 3; the interval needs 5 or more to exclude much).
# BATCHES (environment, kafka-batch only): the batch.size values in bytes, default
# "1024 16384 65536 262144 1048576". Each
# comparison starts its broker from a clean data directory, refuses a busy host (see
# PLUMB_VN_MAX_LOAD in deploy/local/lib/native-pairs.sh), and writes its results, the consoles and
# report.html to results/comparisons/<comparison>-<time>/ (kafka-batch: a folder per batch size).
# The brokers share this host's cores with the load generator, and every result says so: compare
# the rows of one table, not the absolute figures with another host's. Builds nothing: run
# `mvn -q package -DskipTests` first.
#
#   deploy/local/comparisons.sh --table DIR    prints the table of DIR (a comparison's folder) again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=lib/one-broker.sh
source deploy/local/lib/one-broker.sh
# shellcheck source=lib/native-pairs.sh
source deploy/local/lib/native-pairs.sh

# The table of a comparison's folder $1: each driver file's stable peak and latencies at it, each the
# estimate --repeat reports with its interval.
table() {
  python3 - "$1" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
def cell(metric, digits=0):
    # The estimate, not the median: its interval is the estimate's (as report.html shows them).
    if not metric or "estimate" not in metric:
        return "n/a"
    text = f"{metric['estimate']:,.{digits}f}"
    interval = metric.get("interval")
    if interval:
        text += f" ({interval['low']:,.{digits}f} to {interval['high']:,.{digits}f}, {interval['level']:.0%})"
    return text
print("\n| driver file | setting | rounds counted | stable peak, msg/s (interval) | end-to-end p50 ms at the peak | end-to-end p99 ms at the peak | left out |")
print("|---|---|---:|---|---|---|---|")
paths = glob.glob(os.path.join(out, "repeat-summary-*.json"))
paths += sorted(glob.glob(os.path.join(out, "batch-*", "repeat-summary-*.json")),
                key=lambda p: int(re.search(r"/batch-(\d+)/", p).group(1)))
for path in paths:
    summary = json.load(open(path))
    batch = re.search(r"/batch-(\d+)/", path)
    setting = f"batch.size {int(batch.group(1)):,}" if batch else ""
    for s in summary.get("pairs", []):
        m = s.get("metrics", {})
        left = "; ".join(sorted({r["leaveOutReason"][:80] for r in s.get("results", []) if r.get("leaveOutReason")}))
        print(f"| `{s['driverFile']}` | {setting} | {s.get('countedRuns', 0)} of {s.get('runs', 0)} | "
              f"{cell(m.get('stable peak'))} | {cell(m.get('end-to-end p50'), 2)} | {cell(m.get('end-to-end p99'), 2)} | {left} |")
    if summary.get("caveat"):
        print(f"\nCaveat: {summary['caveat']}")
PY
}

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}
comparison="${1:-}"
repeats="${2:-3}"
case "$comparison" in
  -h | --help)
    usage
    exit 0
    ;;
  --table)
    table "${2:?usage: $0 --table DIR}"
    exit 0
    ;;
  rabbitmq-queues | redis-fsync | kafka-batch) ;;
  *)
    echo "error: comparison '$comparison': allowed: rabbitmq-queues, redis-fsync, kafka-batch (see --help)" >&2
    exit 2
    ;;
esac
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || {
  echo "error: REPEATS '$repeats': expected a whole number of rounds, 1 or more" >&2
  exit 2
}
batches="${BATCHES:-1024 16384 65536 262144 1048576}"
for batch in $batches; do
  [[ "$batch" =~ ^[1-9][0-9]*$ ]] || {
    echo "error: BATCHES '$batches': expected batch.size values in bytes, separated by spaces" >&2
    exit 2
  }
done
native_pairs_refuse_busy_host comparisons.sh

out="results/comparisons/$comparison-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

start_clean() { # BROKER [start options]
  local broker=$1
  shift
  before_start "$broker"
  deploy/local/"$broker".sh start "$@" >"$out/$broker-start.log" 2>&1 ||
    { echo "error: deploy/local/$broker.sh start $* failed: see $out/$broker-start.log" >&2; exit 1; }
}

# One --repeat invocation: its results, summaries and console (console.log) go to DIR.
repeat_run() { # DIR WORKLOAD FILES [bin/benchmark options]
  local dir=$1 workload=$2 files=$3
  shift 3
  mkdir -p "$dir"
  echo "== $files $* (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  bin/benchmark --repeat "$repeats" -o "$dir" -d "$files" "$@" "$workload" >"$dir/console.log" 2>&1 ||
    echo "   ended with status $?: $(grep -m1 -e '^error' -e 'no stable peak' "$dir/console.log" || echo "see $dir/console.log")"
}

case "$comparison" in
  rabbitmq-queues)
    start_clean rabbitmq --nodes 3
    files=driver-rabbitmq/rabbitmq-classic-mirrored.yaml,driver-rabbitmq/rabbitmq-quorum-replicated.yaml
    files+=,driver-rabbitmq/rabbitmq-stream.yaml,driver-rabbitmq/rabbitmq-stream-protocol-replicated.yaml
    repeat_run "$out" workloads/compare-queues-100b-1p1c-peak.yaml "$files"
    ;;
  redis-fsync)
    start_clean redis
    repeat_run "$out" workloads/compare-100b-8p-peak.yaml \
      driver-redis/redis-aof-no.yaml,driver-redis/redis-aof-everysec.yaml,driver-redis/redis-aof-always.yaml
    ;;
  kafka-batch)
    start_clean kafka
    for batch in $batches; do
      # A batch of 1 MB needs a request of more than 1 MB (the client's default limit).
      repeat_run "$out/batch-$batch" workloads/peak-1kb.yaml \
        driver-kafka/kafka.yaml,driver-kafka/kafka-sync.yaml \
        --driver-set "batch.size=$batch" --driver-set max.request.size=2097152 \
        --driver-set topicConfig.max.message.bytes=2097152
    done
    ;;
esac
stop_running

shopt -s nullglob
bin/benchmark report "$out"/repeat-summary-*.json "$out"/batch-*/repeat-summary-*.json -o "$out/report.html" >"$out/report.log" 2>&1 ||
  echo "report: $(tail -n 1 "$out/report.log")"
table "$out"
echo "(results, consoles and report.html in $out)"
