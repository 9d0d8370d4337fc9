#!/usr/bin/env bash
# Small messages against large ones, broker by broker: the stable peak rate of each of the eight
# message sizes comparisons use (workloads/size-100b.yaml to size-1mb.yaml: 100 B, 256 B, 1 KB,
# 5 KB, 20 KB, 100 KB, 500 KB, 1 MB), in msg/s and MB/s, with end-to-end latency at that rate.
#
#   deploy/local/message-sizes.sh [BROKER...]     (default: kafka rabbitmq nats)
#
# For each broker and size: start the broker from a clean data directory (one node), search the
# stable peak (probes of PROBE_SECONDS, starting near 10 MB/s so a 1 MB search does not begin
# at 1 GB/s), stop it. Results go to results/message-sizes-<time>/; a table is printed at the end.
#
# Environment: PROBE_SECONDS (default 5), SIZES (default: all eight, e.g. SIZES="1kb 1mb"; also
# 12b, too small for Plumb's header, which then travels in the broker's per-message metadata).
# Driver files: kafka.yaml, rabbitmq-quorum.yaml, nats.yaml, pulsar.yaml, redis.yaml. A size above
# a client's or broker's default limit is refused by the run in one line naming the setting;
# Kafka's 500 KB and 1 MB rows raise max.request.size and the topic's max.message.bytes to 2 MiB,
# and the table says so. Builds nothing: run `mvn -q package -DskipTests` first. The brokers
# share this host's cores with the load generator: compare sizes within one broker.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=lib/one-broker.sh
source deploy/local/lib/one-broker.sh
PROBE_SECONDS="${PROBE_SECONDS:-5}"
read -ra sizes <<<"${SIZES:-100b 256b 1kb 5kb 20kb 100kb 500kb 1mb}"
brokers=("$@")
[ ${#brokers[@]} -gt 0 ] || brokers=(kafka rabbitmq nats)

declare -A file=(
  [kafka]=kafka.yaml [rabbitmq]=rabbitmq-quorum.yaml [nats]=nats.yaml [pulsar]=pulsar.yaml
  [redis]=redis.yaml)
for broker in "${brokers[@]}"; do
  [ -n "${file[$broker]:-}" ] || { echo "error: unknown broker '$broker' (allowed: ${!file[*]})" >&2; exit 2; }
done
for size in "${sizes[@]}"; do
  [ -f "workloads/size-$size.yaml" ] || { echo "error: SIZES: no workloads/size-$size.yaml" >&2; exit 2; }
done

# Settings a size needs beyond a broker's defaults, as --driver-set arguments.
overrides() { # BROKER SIZE
  case "$1:$2" in
    kafka:500kb | kafka:1mb)
      echo "--driver-set max.request.size=2097152 --driver-set topicConfig.max.message.bytes=2097152" ;;
  esac
}

out="results/message-sizes-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

for broker in "${brokers[@]}"; do
  for size in "${sizes[@]}"; do
    name="$broker-$size"
    bytes="$(sed -n 's/^messageSize: *//p' "workloads/size-$size.yaml")"
    start=$((10 * 1024 * 1024 / bytes))
    ((start >= 10)) || start=10
    before_start "$broker"
    deploy/local/"$broker".sh start >"$out/$name-start.log" 2>&1
    read -ra extra <<<"$(overrides "$broker" "$size")"
    echo "== $name: driver-$broker/${file[$broker]} ${extra[*]} (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    bin/benchmark -d "driver-$broker/${file[$broker]}" "${extra[@]}" --probe-seconds "$PROBE_SECONDS" \
      --search-start "$start" -o "$out/$name.json" "workloads/size-$size.yaml" >"$out/$name.log" 2>&1 ||
      echo "   $name ended with status $?: $(grep -m1 -e '^error' -e 'no stable peak' "$out/$name.log" || echo "see $out/$name.log")"
    stop_running "$broker"
  done
done

python3 - "$out" "${brokers[*]}" "${sizes[*]}" <<'PY'
import json, os, sys
out, brokers, sizes = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
print("\n| broker | size | stable peak (msg/s) | MB/s | end-to-end p50 / p99 at the peak (ms) | lost | note |")
print("|---|---|---:|---:|---|---:|---|")
for broker in brokers:
    for size in sizes:
        path = os.path.join(out, f"{broker}-{size}.json")
        try:
            r = json.load(open(path))
        except (OSError, ValueError):
            log = os.path.join(out, f"{broker}-{size}.log")
            first = next((l.strip() for l in open(log) if l.startswith("error")), "no result") if os.path.exists(log) else "no result"
            print(f"| {broker} | {size} | n/a | n/a | n/a | n/a | {first[:160]} |")
            continue
        peak = r.get("search", {}).get("stablePeakMsgPerSec")
        size_bytes = r["messageSize"]
        e = r["latency"]["endToEnd"]
        facts = r.get("brokerFacts", {})
        note = "max.request.size and max.message.bytes 2 MiB" if broker == "kafka" and size_bytes > 400_000 else ""
        if not r.get("complete"):
            note = (note + "; " if note else "") + "INCOMPLETE"
        if isinstance(peak, (int, float)):
            print(f"| {broker} | {size} | {peak:,.0f} | {peak * size_bytes / 1e6:,.1f} | {e['p50']:.1f} / {e['p99']:.1f} | {r['counters']['lost']} | {note} |")
        else:
            print(f"| {broker} | {size} | n/a | n/a | n/a | {r['counters']['lost']} | no search in the result |")
PY
echo "(results and consoles in $out)"
