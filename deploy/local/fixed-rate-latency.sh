#!/usr/bin/env bash
# Publish and end-to-end latency of every driver file of one broker at a fixed rate, one after the
# other on the same local broker: what each durability or tuning variant costs at the same load.
#
#   deploy/local/fixed-rate-latency.sh BROKER [WORKLOAD]
#
# BROKER is kafka, pulsar, rabbitmq, nats or redis; WORKLOAD defaults to workloads/quick-1kb-10k.yaml
# (10,000 msg/s of 1 KB, 16 partitions, 30 s after 10 s of warm-up). Builds nothing: run
# `mvn -q package -DskipTests` first. Starts the broker if it is not running, and then stops it at
# the end. Results go to results/fixed-rate-<broker>-<time>/; a table is printed at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
broker="${1:?usage: $0 kafka|pulsar|rabbitmq|nats|redis [WORKLOAD]}"
workload="${2:-workloads/quick-1kb-10k.yaml}"
[ -x "deploy/local/$broker.sh" ] || { echo "error: no deploy/local/$broker.sh" >&2; exit 2; }
out="results/fixed-rate-$broker-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

if ! deploy/local/"$broker".sh status >/dev/null 2>&1; then
  deploy/local/"$broker".sh start
  trap 'deploy/local/'"$broker"'.sh stop' EXIT
fi

for driver in driver-"$broker"/*.yaml; do
  name="$(basename "$driver" .yaml)"
  echo "== $driver"
  bin/benchmark -d "$driver" -o "$out/$name.json" "$workload" >"$out/$name.log" 2>&1 || echo "   run failed: see $out/$name.log"
done

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
print(f"\n{'driver file':34} {'target':>8} {'published':>10} {'pub p50':>8} {'pub p99':>8} {'e2e p50':>8} {'e2e p99':>8} {'lost':>5} {'dup':>5}  verdict")
for name in sorted(os.listdir(out)):
    if not name.endswith(".json"):
        continue
    r = json.load(open(os.path.join(out, name)))
    t, l, c = r["throughput"], r["latency"], r["counters"]
    verdict = "complete" if r["complete"] else "INCOMPLETE"
    if r["generatorBound"]:
        verdict += ", GENERATOR-BOUND"
    print(f"{name[:-5]:34} {t['targetRateMsgPerSec']:8,.0f} {t['publishRateMsgPerSec']:10,.0f} "
          f"{l['publish']['p50']:8.2f} {l['publish']['p99']:8.2f} {l['endToEnd']['p50']:8.2f} {l['endToEnd']['p99']:8.2f} "
          f"{c['lost']:5d} {c['duplicated']:5d}  {verdict}")
print("(latencies in ms; publish and end-to-end measured from the intended send time)")
PY
